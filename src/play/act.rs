//! Act: a move's events sent the way the client takes them, the pointer kept off the board where the client
//! previews moves under it.

use std::time::Duration;

use anyhow::Result;

use super::events::millis;
use super::ways::{describe_actions, Ways};
use super::{shown, watch, Attempt, PlayEvent, Player};
use crate::capture::Frame;
use crate::game::{Action, Client, Layout};

impl<'a, G: Client> Player<'a, G> {
    /// Act: sends the move's events; false where they were not all sent. Where the window shows where keys go (a
    /// keyboard cursor) and the way's events that choose a move's place have not yet been seen to move it, the
    /// window is read between those and the rest, which are not sent unless the move's place shows chosen (a
    /// terminal takes no clicks: the digit would go wherever its cursor is). The first move made of a click and
    /// then keys is read between the two: where the click alone entered a symbol (KSudoku enters its number
    /// pad's selected digit), the keys still set the cell right, and later cells are chosen by pointing; where the
    /// click showed at all (a selected cell), the keys of later moves wait until their click shows, unless the
    /// client has taken presses sent at once ([`super::hands::Hold::Quick`]): a client that does reads its input as
    /// events, in order, and the keys follow the click at once (once no other program holds it back). A click whose
    /// effect does not read as a board is judged by why ([`crate::game::Shown::ClickUnread`]): marks that no
    /// longer make a legal board were entered by it; otherwise it teaches nothing, and the next such move is read
    /// between its click and its keys again ([`Ways::click_probed`]).
    pub(super) fn act(&mut self, ways: &mut Ways<G::Way>, attempt: &Attempt<'_, G>) -> Result<bool> {
        let (frame, reading, mv, settle, number) =
            (attempt.frame, attempt.reading, attempt.mv, attempt.settle, attempt.number);
        let move_input = attempt.input;
        self.sent = 1;
        self.before_keys = None;
        let probing = ways.probes_click(move_input);
        if ways.checks_choice(move_input) && shown::chosen(&mut *self.game, &reading.layout, mv)?.is_some() {
            // The window shows where keys go (a keyboard cursor), and this way's events have not yet been seen to
            // move it: those that choose the move's place first, then the rest only where the window shows that
            // place chosen. (Keys that move a cursor are never sent twice, so the wait for them to show is the
            // whole patience.)
            let (choose, rest) = move_input.actions.split_at(move_input.selects.min(move_input.actions.len()));
            self.perform(choose, frame, settle.after_click)?;
            let (start, bound) = (self.source.now(), self.patience()?);
            let change = watch::next_change(&mut *self.source, settle, frame, reading.layout.region(), start, bound)?;
            let shown = match change {
                Some(_) => self.read_when_still(settle, &reading.layout)?.map(|seen| seen.layout),
                None => None,
            };
            let layout = shown.as_ref().unwrap_or(&reading.layout);
            match shown::chosen(&mut *self.game, layout, mv)? {
                Some(false) => {
                    let events = describe_actions(choose, frame);
                    self.report(PlayEvent::OtherPlaceChosen { number, events });
                    return Ok(false);
                }
                // Chosen by these events (not where the cursor already was): the way chooses places.
                Some(true) if shown.is_some() => ways.choice_seen(),
                _ => {}
            }
            self.game.completing(mv);
            self.perform(rest, frame, settle.after_click)?;
        } else if ways.waits_for_click(move_input) && self.hands.quick() {
            // The click and its keys together, where the client has taken a press sent at once: it reads its
            // input as events, which it handles in the order they come, and the keys wait only until no other
            // program holds the click back (the window manager's), so the click reaches it first.
            self.last_click = move_input.actions.first().cloned();
            self.game.completing(mv);
            self.perform(&move_input.actions, frame, Duration::ZERO)?;
        } else if probing || ways.waits_for_click(move_input) {
            // The click first, then the keys once it shows: the first such move to learn what a click does, later
            // ones (where a click shows: it selects the cell) so that the keys go to the cell clicked, not to the
            // one selected before (a page that handles the click late).
            let click = &move_input.actions[..1];
            self.perform(click, frame, settle.after_click)?;
            let (start, bound) = (self.source.now(), self.pace.first_look(!probing));
            let region = reading.layout.region();
            let mut change = watch::next_change(&mut *self.source, settle, frame, region, start, bound)?;
            let same_click = self.last_click.as_ref() == click.first();
            if change.is_none() && !probing && !same_click {
                change = self.await_click(click, attempt, start, bound)?;
            }
            self.last_click = click.first().cloned();
            let shows = change.is_some();
            if !probing {
                // The click's picture (a cell selected, nothing entered, as probing showed): what the keys change.
                self.before_keys = change.map(|(frame, _)| frame);
            }
            if probing {
                let entered = match shows {
                    true => match self.watch_still(settle, Some(&reading.layout), settle.quiet)?.1 {
                        Ok(seen) => Some(shown::click_entered(&mut *self.game, &reading.board, mv, &seen.board)?),
                        Err(error) => {
                            shown::unread_click_entered(&mut *self.game, &reading.layout, mv, &error)?.then_some(true)
                        }
                    },
                    false => Some(false),
                };
                ways.click_probed(entered, shows, number, &mut *self.log);
                if shows {
                    // The click, held, has shown: its keys can teach only whether the client takes a press sent
                    // at once, and are that trial.
                    self.hands.quick_on_trial_from_here();
                }
            }
            self.game.completing(mv);
            self.perform(&move_input.actions[1..], frame, settle.after_click)?;
        } else {
            self.game.completing(mv);
            self.perform(&move_input.actions, frame, settle.after_click)?;
        }
        if self.hands.parks_pointer {
            self.park_pointer(frame, &reading.layout)?;
        }
        Ok(true)
    }

    /// The click of a click-then-keys move (`click`, sent at `start`) has not shown by the first look (`first`):
    /// waits for it up to the whole patience, since its keys typed before it is taken would go to the cell chosen
    /// before (a game that polls its input, under load, takes a click late or misses it). Where nothing shows in
    /// all that time the client never took it: it is made again, held where it was sent at once, and waited for
    /// as long again (nothing then: the keys are typed anyway, and the log says so). The capture that shows it, or
    /// `None`.
    fn await_click(
        &mut self,
        click: &[Action],
        attempt: &Attempt<'_, G>,
        start: Duration,
        first: Duration,
    ) -> Result<Option<(Frame, Duration)>> {
        let (frame, settle, number) = (attempt.frame, attempt.settle, attempt.number);
        let region = attempt.reading.layout.region();
        let whole = self.patience()?;
        self.report(PlayEvent::ClickLate { number, after_ms: millis(first), patience_ms: millis(whole) });
        if let Some(change) = watch::next_change(&mut *self.source, settle, frame, region, start, whole)? {
            return Ok(Some(change));
        }
        let held_ms = (self.hands.quick() || self.hands.quick_on_trial()).then(|| {
            self.hands.quick_missed(number);
            crate::input::HOLD.as_millis() as u64
        });
        self.report(PlayEvent::ClickMadeAgain { number, waited_ms: millis(whole), held_ms });
        self.perform(click, frame, settle.after_click)?;
        let again = self.source.now();
        let change = watch::next_change(&mut *self.source, settle, frame, region, again, whole)?;
        if change.is_none() {
            self.report(PlayEvent::ClickNotShown { number, waited_ms: millis(whole) });
        }
        Ok(change)
    }

    /// Sends events with the bot's hands ([`hands`]).
    pub(super) fn perform(&mut self, actions: &[Action], frame: &Frame, after_click: Duration) -> Result<()> {
        let focus_bound = self.pace.focus_bound();
        self.hands.perform(&mut *self.source, actions, frame, after_click, focus_bound, &mut *self.log)
    }

    /// Moves the pointer off the board after a move, where the client previews moves under it.
    pub(super) fn park_pointer(&mut self, frame: &Frame, layout: &G::Layout) -> Result<bool> {
        self.hands.park(&mut *self.source, frame, layout.region())
    }

    /// The board does not read as expected, and the pointer is over it: a client that previews the move under
    /// the pointer shows something else there. Moves the pointer off the board, once in a game; from then on
    /// it is moved off after every move.
    pub(super) fn try_parking(&mut self, frame: &Frame, layout: &G::Layout, number: usize) -> Result<bool> {
        if self.hands.parks_pointer
            || !self.hands.over_board(frame, layout.region())
            || !self.hands.park(&mut *self.source, frame, layout.region())?
        {
            return Ok(false);
        }
        self.hands.parks_pointer = true;
        self.report(PlayEvent::PointerParked { number });
        Ok(true)
    }
}
