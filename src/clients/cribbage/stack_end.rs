//! How a table that shows no control for it ends a stack: the ways a person would try, each proved by its effect.
//!
//! A table whose reading found no control that ends a stack (no button labelled so, no lone icon by the columns)
//! is first taken to end its stacks by itself. Where it is seen to keep a stack that no card fits, it does not,
//! and a person would look for how: a click on the stack itself (its pile, its empty place or its row of small
//! cards), a click on the printed total where the stack shows only as that, and last the Enter key. Each is tried
//! once, on trial ([`crate::game::MoveEvents::trial`]): the one whose move shows the stack ended is kept for the
//! rest of the game; one that leaves the table as it was is dropped and never tried again. A click elsewhere is
//! never guessed: the bot clicks only what the table shows as the stack.

use crate::game::{Action, Key};

/// A way of ending a stack on a table that shows no control for it, in the order tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackEnder {
    /// A click on the stack as the table shows it (a pile, an empty place, a row of small cards).
    ClickStack,
    /// A click on the total the table prints, where it shows the stack as that only.
    ClickTotal,
    /// The Enter key.
    Enter,
}

/// The ways, in the order a person tries them.
const ORDER: [StackEnder; 3] = [StackEnder::ClickStack, StackEnder::ClickTotal, StackEnder::Enter];

impl StackEnder {
    /// A few words naming it, for the log.
    pub fn name(self) -> &'static str {
        match self {
            StackEnder::ClickStack => "a click on the stack",
            StackEnder::ClickTotal => "a click on the stack's total",
            StackEnder::Enter => "the Enter key",
        }
    }
}

/// What a client knows of how its table ends a stack where it shows no control for it.
#[derive(Clone, Debug, Default)]
pub struct StackEnding {
    /// The table was seen to keep a stack that no card fits: it does not end stacks by itself.
    pub keeps_stacks: bool,
    /// The bot has just asked for a stack's end, and has not yet seen what it did.
    pub asked: bool,
    /// Where a picture last showed the stack.
    pub last_seen: Option<(i32, i32)>,
    /// The way that ended a stack.
    proven: Option<StackEnder>,
    /// The ways that left the table as it was.
    dropped: Vec<StackEnder>,
}

impl StackEnding {
    /// The events that end the stack, with the way's number in [`ORDER`] where it is on trial (none for the way
    /// proved): the proved way, else the first way not dropped that the table offers (`stack`: the stack's
    /// middle where the table shows one; `total`: where it prints the total). `None` once every way was dropped.
    pub fn events(
        &self,
        stack: Option<(i32, i32)>,
        total: Option<(i32, i32)>,
    ) -> Option<(StackEnder, Vec<Action>, Option<usize>)> {
        let actions = |way: StackEnder| -> Option<Vec<Action>> {
            match way {
                StackEnder::ClickStack => stack.map(|(x, y)| vec![Action::Click { x, y }]),
                StackEnder::ClickTotal => total.map(|(x, y)| vec![Action::Click { x, y }]),
                StackEnder::Enter => Some(vec![Action::Key(Key::Enter)]),
            }
        };
        if let Some(way) = self.proven {
            return actions(way).map(|events| (way, events, None));
        }
        ORDER
            .iter()
            .enumerate()
            .filter(|(_, way)| !self.dropped.contains(way))
            .find_map(|(number, &way)| actions(way).map(|events| (way, events, Some(number))))
    }

    /// What the move that tried way `number` showed: the stack ended (the way is kept) or the table as it was (the
    /// way is dropped). A few words for the log.
    pub fn learn(&mut self, number: usize, ended: bool) -> Option<String> {
        let way = *ORDER.get(number)?;
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
        // A table that shows no stack and prints no total: the Enter key only.
        assert_eq!(ending.events(None, None), Some((StackEnder::Enter, vec![Action::Key(Key::Enter)], Some(2))));
        let (way, actions, trial) = ending.events(Some((5, 6)), Some((7, 8))).unwrap();
        assert_eq!((way, actions, trial), (StackEnder::ClickStack, vec![Action::Click { x: 5, y: 6 }], Some(0)));
        assert!(ending.learn(0, false).unwrap().contains("not tried again"));
        assert_eq!(ending.events(Some((5, 6)), Some((7, 8))).unwrap().0, StackEnder::ClickTotal);
        assert!(ending.learn(1, true).unwrap().contains("ends a stack"));
        // Proved: no longer on trial, and the stack's click stays dropped.
        assert_eq!(
            ending.events(Some((5, 6)), Some((7, 8))),
            Some((StackEnder::ClickTotal, vec![Action::Click { x: 7, y: 8 }], None))
        );
    }

    #[test]
    fn every_way_dropped_leaves_none() {
        let mut ending = StackEnding::default();
        for number in 0..ORDER.len() {
            ending.learn(number, false);
        }
        assert_eq!(ending.events(Some((1, 1)), Some((2, 2))), None);
        assert_eq!(ending.learn(ORDER.len(), true), None, "no such way");
    }
}
