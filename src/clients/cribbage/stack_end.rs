//! How a table that shows no control for it ends a stack: the ways a person would try, each proved by its effect.
//!
//! A table whose reading found no control that ends a stack (no button labelled so, no lone icon by the columns)
//! is first taken to end its stacks by itself. Where it is seen to keep a stack that no card fits, it does not,
//! and a person would look for how: a button whose label may mean it ("Clear", "Count"; never one that says
//! something else, "New game"), a click on the stack itself (its pile, its empty place or its row of small
//! cards), a click on the printed total where the stack shows only as that, and last the Enter key. Each is tried
//! once, on trial ([`crate::game::MoveEvents::trial`]): the one whose move shows the stack ended is kept for the
//! rest of the game; one that leaves the table as it was is dropped and never tried again. A click elsewhere is
//! never guessed: the bot clicks only what the table shows as the stack.

use crate::game::{Action, Key};

/// A way of ending a stack on a table that shows no control for it, in the order tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackEnder {
    /// A click on a button whose label may mean it ("Clear", "Count"), at its middle.
    Button((i32, i32)),
    /// A click on the stack as the table shows it (a pile, an empty place, a row of small cards).
    ClickStack,
    /// A click on the total the table prints, where it shows the stack as that only.
    ClickTotal,
    /// The Enter key.
    Enter,
}

impl StackEnder {
    /// A few words naming it, for the log.
    pub fn name(self) -> String {
        match self {
            StackEnder::Button((x, y)) => format!("a click on the button at ({x}, {y})"),
            StackEnder::ClickStack => "a click on the stack".to_owned(),
            StackEnder::ClickTotal => "a click on the stack's total".to_owned(),
            StackEnder::Enter => "the Enter key".to_owned(),
        }
    }
}

/// What the table offers to end a stack with, as the latest picture shows it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Offered<'a> {
    /// Buttons whose label may mean it, largest first.
    pub buttons: &'a [(i32, i32)],
    /// The stack's middle, where the table shows the stack.
    pub stack: Option<(i32, i32)>,
    /// Where the table prints the stack's total.
    pub total: Option<(i32, i32)>,
}

/// What a client knows of how its table ends a stack where it shows no control for it.
#[derive(Clone, Debug, Default)]
pub struct StackEnding {
    /// The table was seen to keep a stack that no card fits: it does not end stacks by itself.
    pub keeps_stacks: bool,
    /// The bot has just asked for a stack's end, and has not yet seen what it did.
    pub asked: bool,
    /// The latest reading took the table to end its stacks by itself only because it found no control (a reading
    /// with no calibration), not because a calibration says so: a stack kept where no card fits disproves it. (A
    /// table calibrated as ending its stacks itself may clear a full stack only as the next card is played.)
    pub guessed: bool,
    /// Where a picture last showed the stack.
    pub last_seen: Option<(i32, i32)>,
    /// The way that ended a stack.
    proven: Option<StackEnder>,
    /// Every way tried, numbered by its place here (the trial's number).
    tried: Vec<StackEnder>,
    /// The ways that left the table as it was.
    dropped: Vec<StackEnder>,
}

impl StackEnding {
    /// The events that end the stack, with the way's trial number where it is on trial (none for the way
    /// proved): the proved way, else the first way not dropped that the table offers, in the order a person tries
    /// them (a button that may mean it, the stack, its total, Enter). `None` once every way offered was dropped.
    pub fn events(&mut self, offered: Offered<'_>) -> Option<(StackEnder, Vec<Action>, Option<usize>)> {
        let actions = |way: StackEnder| -> Option<Vec<Action>> {
            let click = |(x, y): (i32, i32)| vec![Action::Click { x, y }];
            match way {
                StackEnder::Button(at) => Some(click(at)),
                StackEnder::ClickStack => offered.stack.map(click),
                StackEnder::ClickTotal => offered.total.map(click),
                StackEnder::Enter => Some(vec![Action::Key(Key::Enter)]),
            }
        };
        if let Some(way) = self.proven {
            return actions(way).map(|events| (way, events, None));
        }
        let ways = offered.buttons.iter().map(|&at| StackEnder::Button(at)).chain([
            StackEnder::ClickStack,
            StackEnder::ClickTotal,
            StackEnder::Enter,
        ]);
        let (way, events) =
            ways.filter(|way| !self.dropped.contains(way)).find_map(|way| actions(way).map(|events| (way, events)))?;
        let number = self.tried.iter().position(|&w| w == way).unwrap_or_else(|| {
            self.tried.push(way);
            self.tried.len() - 1
        });
        Some((way, events, Some(number)))
    }

    /// What the move that tried way `number` showed: the stack ended (the way is kept) or the table as it was (the
    /// way is dropped). A few words for the log.
    pub fn learn(&mut self, number: usize, ended: bool) -> Option<String> {
        let way = *self.tried.get(number)?;
        if ended {
            self.proven = Some(way);
            Some(format!("{} ends a stack on this table", way.name()))
        } else {
            self.dropped.push(way);
            Some(format!("{} did not end the stack; not tried again", way.name()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ways_are_tried_in_order_and_the_one_that_works_is_kept() {
        let mut ending = StackEnding::default();
        // A table that shows no stack, prints no total and has no button: the Enter key only.
        let (way, actions, trial) = ending.events(Offered::default()).unwrap();
        assert_eq!((way, actions, trial), (StackEnder::Enter, vec![Action::Key(Key::Enter)], Some(0)));
        let offered = Offered { buttons: &[(1, 2)], stack: Some((5, 6)), total: Some((7, 8)) };
        let (way, actions, trial) = ending.events(offered).unwrap();
        assert_eq!((way, actions, trial), (StackEnder::Button((1, 2)), vec![Action::Click { x: 1, y: 2 }], Some(1)));
        assert!(ending.learn(1, false).unwrap().contains("not tried again"));
        assert_eq!(ending.events(offered).unwrap().0, StackEnder::ClickStack);
        assert!(ending.learn(2, false).is_some());
        let (way, _, trial) = ending.events(offered).unwrap();
        assert_eq!((way, trial), (StackEnder::ClickTotal, Some(3)));
        assert!(ending.learn(3, true).unwrap().contains("ends a stack"));
        // Proved: no longer on trial, and the stack's click stays dropped.
        let proved = ending.events(offered).unwrap();
        assert_eq!(proved, (StackEnder::ClickTotal, vec![Action::Click { x: 7, y: 8 }], None));
    }

    #[test]
    fn every_way_dropped_leaves_none() {
        let mut ending = StackEnding::default();
        let offered = Offered { buttons: &[(1, 2)], stack: Some((5, 6)), total: Some((7, 8)) };
        while let Some((_, _, Some(number))) = ending.events(offered) {
            ending.learn(number, false);
        }
        assert_eq!(ending.events(offered), None);
        assert_eq!(ending.learn(99, true), None, "no such way");
    }
}
