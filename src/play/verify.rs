//! Verify: what the window shows after a move, and the rule that no move is ever made twice.
//!
//! After a move's events are sent, the board is watched ([`watch::await_expected`]) until the expected board shows
//! and holds still. Where it has not by the first look (the client's usual pace, [`super::Pace::first_look`]), the
//! board is read once it holds still, and one of four things is true:
//! - it shows the expected board: the move showed, late;
//! - it shows another board: what the client did instead (a rules variant, a move of the user's), planned again from
//!   once it has held still for longer ([`super::Pace::doubt`]);
//! - it reads as before the move, but the expected board was read on the way: the move showed and was taken back
//!   (an undo): planned again from;
//! - it reads as before the move, and nothing of the move has shown. The move is late or lost, and the two cannot
//!   be told apart by looking. So it is **waited for**, up to the whole patience ([`super::Pace::patience`]: 5 s
//!   idle, up to 10 s on a busy desktop, more for a slow client), watching the board for any change. It is sent
//!   again only on evidence: the client shows it never got the events (the board moved in its window, another window
//!   covers the points they went to, the window does not have the keys' focus, or the client was seen to miss a
//!   press shorter than one of its frames and this one was held no longer: made again held longer), or a copy of it
//!   leaves the board as it was and this client has been seen to ignore such a copy ([`super::copies`]). Otherwise,
//!   made a way that has worked in this game, the game stops, naming the move and the wait; made a way not yet seen
//!   to work, the move is handed back as not taken, and the loop turns to another way of making moves.
//!
//! After a move, a board that shows the move more times than it was sent (a card played and the next card of the
//! same column too) is named as such at once ([`Player::check_not_doubled`]): never taken for a misreading.

use std::time::Duration;

use super::failure::{fail, FailureKind};
use anyhow::Result;

use super::copies::{CopyProof, Restless, WATCH, WATCH_STEP};
use super::events::millis;
use super::pace;
use super::watch::{self, Observation};
use super::{Attempt, PlayEvent, Player};
use crate::capture::Frame;
use crate::game::{Action, BoardOf, Client, Game, Layout, MoveOf, Repeat};
use crate::play::shown;
use crate::play::ways::{MoveInput, Ways};

/// What the window showed after a move.
pub(super) enum Verdict<G: Client> {
    /// A board: the expected one, or another; the board as before the move only where the way the move was made
    /// has not worked yet, after the whole patience with nothing of the move shown.
    Read(Observation<G>),
    /// The move showed (the expected board was read), then the board went back to how it was before it.
    TakenBack(Observation<G>),
    /// No board can be read, and why: the frame and the reader's error.
    Unreadable(Frame, anyhow::Error),
    /// The board as before the move, but elsewhere in the window (resized, or its board moved in it) before the
    /// move showed: the move's input, planned where the board was, is made again where it is.
    Moved(Observation<G>),
}

/// What one look at the window after a move found.
enum Look<G: Client> {
    /// The look decided what the move came to.
    Decided(Verdict<G>),
    /// The pointer was moved off the board (a client that shows something under it): look again.
    Again,
    /// The board reads as before the move, and nothing of the move has shown.
    AsBefore(Observation<G>),
}

impl<G: Client> Player<'_, G> {
    /// Takes in what the window shows after a move (`seen`): the client's answer to what the move showed
    /// ([`shown::move_shown`]), and what the ways of moving learn from it ([`Ways::learn`]). Where the move was
    /// `entered`, a rules variant the client names is reported and its board taken, and the reading reported; a
    /// move whose place was not chosen (nothing entered) teaches only the ways.
    pub(super) fn take_in(
        &mut self,
        ways: &mut Ways<G::Way>,
        attempt: &Attempt<'_, G>,
        (shown, mut seen): Observation<G>,
        entered: bool,
    ) -> Result<Observation<G>> {
        let (before, mv, expected) = (&attempt.reading.board, attempt.mv, attempt.expected);
        let learned = shown::move_shown(&mut *self.game, (before, mv, expected), &seen.board, attempt.input.trial)?;
        let not_taken = shown::not_taken(before, expected, &seen.board);
        if entered {
            if let Some((board, what)) = learned.variant {
                self.report(PlayEvent::Learned { number: attempt.number, how: None, what });
                seen.board = board;
            }
            self.report(PlayEvent::reading(&seen));
            if !not_taken {
                self.hands.move_shown();
            } else if self.hands.quick_on_trial() {
                // Sent at once and not taken (a client that polls its buttons): made again held, as from now on.
                self.quick_missed(attempt);
                return Ok((shown, seen));
            } else if !attempt.input.pointed() && attempt.input.trial.is_none() {
                // Shown never received: made again the same way, held longer, before another way is tried.
                if let Some(hold) = self.hands.hold_longer() {
                    let (number, how) = (attempt.number, attempt.input.how.clone());
                    self.report(PlayEvent::HeldLonger { number, how, hold_ms: hold.as_millis() as u64 });
                    return Ok((shown, seen));
                }
            }
        }
        ways.learn(&mut *self.game, attempt, (&shown, &seen), learned.control, &mut *self.log)?;
        Ok((shown, seen))
    }

    /// Nothing of `attempt`, sent at once, showed: every move is held as a person holds it from now on, and the
    /// log says so.
    fn quick_missed(&mut self, attempt: &Attempt<'_, G>) {
        self.hands.quick_missed(attempt.number);
        let (number, how) = (attempt.number, attempt.input.how.clone());
        let hold_ms = crate::input::HOLD.as_millis() as u64;
        self.report(PlayEvent::QuickMissed { number, how, hold_ms });
    }

    /// The whole patience for a move of which nothing has shown, on the desktop as busy as it is now.
    pub(super) fn patience(&mut self) -> Result<Duration> {
        let busy = self.source.busy()?;
        Ok(self.pace.patience(busy))
    }

    /// Verify: watches until the expected board shows; otherwise reads what the board shows once it holds still
    /// and decides what it means (see the module doc).
    pub(super) fn verify(&mut self, attempt: &Attempt<'_, G>) -> Result<Verdict<G>> {
        let acted_at = self.source.now();
        self.waited.clear();
        let mut sent_at = acted_at;
        let mut expected_read = false;
        loop {
            let first = self.pace.first_look(attempt.proven);
            match self.look(attempt, first, acted_at, &mut expected_read)? {
                Look::Decided(verdict) => return Ok(verdict),
                Look::Again => continue,
                Look::AsBefore(_) => {}
            }
            let patience = self.patience()?;
            let since_sent = self.source.now().saturating_sub(sent_at);
            self.report(PlayEvent::Waiting {
                number: attempt.number,
                after_ms: millis(since_sent),
                patience_ms: millis(patience),
            });
            let seen = match self.look(attempt, patience.saturating_sub(since_sent), acted_at, &mut expected_read)? {
                Look::Decided(verdict) => return Ok(verdict),
                Look::Again => continue,
                Look::AsBefore(seen) if attempt.input.pointed() => {
                    // A pointed move (a cell chosen by pointing, then keys) that did not show: the loop chooses
                    // cells by clicking again (`ways`).
                    return Ok(Verdict::Read(seen));
                }
                Look::AsBefore(seen) => seen,
            };
            self.waited.push(self.source.now().saturating_sub(sent_at));
            // Nothing of the move has shown in the whole patience.
            let why = match self.never_received(attempt, &seen)? {
                Evidence::Moved => {
                    self.remade_where_moved += 1;
                    return Ok(Verdict::Moved(seen));
                }
                Evidence::Shown(why) => Ok(why),
                // Sent at once on trial: a client that does not take such a press shows nothing of it. It is made
                // again held (`take_in`), which is what the trial is for.
                Evidence::None if self.hands.quick_on_trial() => return Ok(Verdict::Read(seen)),
                Evidence::None => match self.copy_proof.allows(attempt.input.repeat) {
                    Ok(at) => Ok(format!(
                        "a copy of it leaves the board as it was, and this client was seen to ignore one (at move {at})"
                    )),
                    Err(why_not) => Err(why_not),
                },
            };
            match why {
                Ok(why) if self.sent <= pace::COPIES => {
                    if self.hands.quick() {
                        // A press sent at once that never showed: this client loses some (a browser under load
                        // was seen to). The copy, and every later move, is held as a person holds it.
                        self.quick_missed(attempt);
                    }
                    let waits = self.waits_named();
                    self.report(PlayEvent::MadeAgain { number: attempt.number, waits, why });
                    self.perform(&attempt.input.actions, &seen.0, attempt.settle.after_click)?;
                    if self.hands.parks_pointer {
                        self.park_pointer(&seen.0, &attempt.reading.layout)?;
                    }
                    self.sent += 1;
                    sent_at = self.source.now();
                }
                Ok(why) => fail!(
                    FailureKind::NotShown,
                    "move {} ({}) did not show after it was made {} times ({why}), waiting {}; stopped",
                    attempt.number,
                    attempt.input.how,
                    self.sent,
                    self.waits_named()
                ),
                // A way not yet seen to work may be one this client does not take: the loop turns to another.
                Err(_) if !attempt.proven => return Ok(Verdict::Read(seen)),
                Err(why_not) => {
                    let busy = match self.source.busy()? {
                        Some(busy) => format!(" (the desktop's load: {busy:.1} ready processes per processor)"),
                        None => String::new(),
                    };
                    fail!(
                        FailureKind::NotShown,
                        "move {} ({}) has not shown: the board was as before it {} after it was made{busy}, though this way \
                         of making moves has worked in this game. The client may still show it late, or it lost it, and \
                         nothing shows that it never got it; making it again could make it twice ({why_not}), so the bot \
                         stopped. Make the move by hand if it was lost, and start the bot again",
                        attempt.number,
                        attempt.input.how,
                        self.waits_named()
                    )
                }
            }
        }
    }

    /// One look: watches for the expected board up to `bound`, then reads the board once it holds still.
    fn look(
        &mut self,
        attempt: &Attempt<'_, G>,
        bound: Duration,
        acted_at: Duration,
        expected_read: &mut bool,
    ) -> Result<Look<G>> {
        let (layout, expected, settle) = (&attempt.reading.layout, attempt.expected, attempt.settle);
        let won_from = self.game.rules().is_won(expected).then_some(&attempt.reading.board);
        let awaited = watch::await_expected(
            &mut *self.game,
            &mut *self.source,
            settle,
            self.before_keys.as_ref().unwrap_or(attempt.frame),
            (layout, expected, won_from),
            bound,
            &mut self.picture,
        )?;
        self.note_picture();
        *expected_read |= awaited.expected_read;
        if let Some(seen) = awaited.shown {
            let shown_at = awaited.shown_since.unwrap_or_else(|| self.source.now());
            return Ok(Look::Decided(Verdict::Read(self.shown_at(seen, acted_at, shown_at, attempt.number))));
        }
        self.hands.check_pointer()?;
        let (shown, read) = self.watch_still(settle, Some(layout), settle.quiet)?;
        let reading = match read {
            Ok(reading) => reading,
            // (After the winning move a board that does not read is the game's end screen: see `play`.)
            Err(_) if !self.game.rules().is_won(expected) && self.try_parking(&shown, layout, attempt.number)? => {
                return Ok(Look::Again)
            }
            Err(error) => return Ok(Look::Decided(Verdict::Unreadable(shown, error))),
        };
        if reading.board == *expected {
            return Ok(Look::Decided(Verdict::Read(self.shown((shown, reading), acted_at, attempt.number))));
        }
        if reading.board != attempt.reading.board {
            if self.try_parking(&shown, layout, attempt.number)? {
                return Ok(Look::Again);
            }
            // Neither the board before nor the expected one: a client that repaints late may pause part-way, so
            // it counts only once it has held still for longer.
            let doubt = self.pace.doubt();
            let (shown, read) = self.watch_still(settle, Some(layout), doubt)?;
            return Ok(Look::Decided(match read {
                Ok(reading) if reading.board == *expected => {
                    Verdict::Read(self.shown((shown, reading), acted_at, attempt.number))
                }
                Ok(reading) => Verdict::Read((shown, reading)),
                Err(error) => Verdict::Unreadable(shown, error),
            }));
        }
        // As before, with the pointer over the board: where the compositor draws its cursor into the pictures it
        // copies, the pointer left on the move's cell may hide what changed there (a thin digit), so the board is
        // looked at again with the pointer off it before the move is called taken back or not shown.
        if self.try_parking(&shown, layout, attempt.number)? {
            return Ok(Look::Again);
        }
        if *expected_read {
            return Ok(Look::Decided(Verdict::TakenBack((shown, reading))));
        }
        Ok(Look::AsBefore((shown, reading)))
    }

    /// What shows, once a move has shown nothing in the whole patience, that the client never got its events.
    fn never_received(&mut self, attempt: &Attempt<'_, G>, seen: &Observation<G>) -> Result<Evidence> {
        let (frame, reading) = seen;
        let moved = (frame.origin_x, frame.origin_y) != (attempt.frame.origin_x, attempt.frame.origin_y)
            || reading.layout.region() != attempt.reading.layout.region();
        if moved && self.remade_where_moved < pace::REMADE_WHERE_MOVED {
            return Ok(Evidence::Moved);
        }
        let points: Vec<(i32, i32)> = attempt
            .input
            .actions
            .iter()
            .filter_map(|action| match *action {
                Action::Click { x, y } | Action::Point { x, y } => Some(attempt.frame.screen_point(x, y).0),
                Action::Type(_) | Action::Key(_) => None,
            })
            .collect();
        if !points.is_empty() {
            let covering = self.source.covering_at(&points)?;
            if !covering.is_empty() {
                self.source.uncover()?;
                return Ok(Evidence::Shown(format!(
                    "{} covered the game's window where its input went, so the game never got it (brought the game \
                     to the front)",
                    covering.join(", ")
                )));
            }
        }
        let keys = attempt.input.actions.iter().any(|a| matches!(a, Action::Type(_) | Action::Key(_)));
        if keys && self.source.focused()? == Some(false) {
            return Ok(Evidence::Shown(
                "the game's window does not have the input focus, so its keys went to another window".into(),
            ));
        }
        // A client that missed a press sent at once and took it held takes only a press that spans one of its
        // polls (a game that reads its buttons and keys once a frame). A press it polled shows a frame or two
        // later; one that fell between two polls leaves no trace, however long it is waited for. On a busy
        // desktop a frame can outlast the usual hold, so nothing of a held move in the whole patience (a hundred
        // frames and more) shows the client missed it: it is made again held longer, as every move from then on.
        // Once only: a longer hold that does no better is not what this client misses.
        if let Some(missed_at) = self.hands.misses_brief_presses() {
            if let Some(hold) = self.hands.hold_longer() {
                return Ok(Evidence::Shown(format!(
                    "this client missed a press sent at once and took it held (move {missed_at}), as a game that \
                     reads its input once a frame does, where a press shows a frame or two after it is read: held {} \
                     ms, this one showed nothing in the whole wait, so it fell between two of its looks at the input; \
                     it is made again held {} ms, as every move from now on",
                    crate::input::HOLD.as_millis(),
                    hold.as_millis()
                )));
            }
        }
        Ok(Evidence::None)
    }

    /// The expected board has shown: the pace learns how long it took, and a late move is named.
    fn shown(&mut self, seen: Observation<G>, acted_at: Duration, number: usize) -> Observation<G> {
        let now = self.source.now();
        self.shown_at(seen, acted_at, now, number)
    }

    /// As [`Self::shown`], the move having shown at `shown_at` (the source's clock).
    fn shown_at(
        &mut self,
        seen: Observation<G>,
        acted_at: Duration,
        shown_at: Duration,
        number: usize,
    ) -> Observation<G> {
        self.remade_where_moved = 0;
        let elapsed = shown_at.saturating_sub(acted_at);
        self.pace.showed_after(elapsed);
        if self.sent > 1 || elapsed > Duration::from_secs(1) {
            self.report(PlayEvent::Shown { number, after_ms: millis(elapsed), sent: self.sent });
        }
        seen
    }

    /// The waits of the last verify, for messages: "5.0 s, 5.0 s and 9.8 s", each from when the events were sent.
    pub(super) fn waits_named(&self) -> String {
        let waits: Vec<String> = self.waited.iter().map(|w| format!("{:.1} s", w.as_secs_f64())).collect();
        match waits.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => "no wait".into(),
        }
    }

    /// Whether to see what this client does with a copy of this move, now that it has shown: once in a game, for
    /// a move whose copy leaves the board as it was, in a client that has shown a move late ([`super::copies`]).
    pub(super) fn copy_wanted(&self, input: &MoveInput) -> bool {
        input.repeat == Repeat::SameBoard
            && self.copy_proof == CopyProof::Unseen
            && self.pace.slowest().is_some_and(|slowest| slowest >= pace::LATE_SHOW)
    }

    /// The window captured every [`WATCH_STEP`] for `watch`: every capture's picture, and the last capture.
    pub(super) fn watch_window(&mut self, watch: Duration) -> Result<(Vec<image::RgbaImage>, Frame)> {
        let start = self.source.now();
        let mut watched = vec![self.source.grab()?.image];
        loop {
            self.source.sleep(WATCH_STEP);
            let frame = self.source.grab()?;
            watched.push(frame.image.clone());
            if self.source.now().saturating_sub(start) >= watch {
                return Ok((watched, frame));
            }
        }
    }

    /// Makes the move that has just shown (`seen`) once more and compares the window: whether the client ignores a
    /// copy ([`super::copies`]). Returns the window as it is after the copy, read.
    pub(super) fn look_at_a_copy(&mut self, attempt: &Attempt<'_, G>, seen: Observation<G>) -> Result<Observation<G>> {
        let (frame, reading) = seen;
        let number = attempt.number;
        // What the window changes by itself, watched for as long as the copy will be.
        let watch = WATCH.max(self.pace.slowest().unwrap_or_default() * 2);
        // (Captured every step of the watch: a mark that pulses can look the same at its two ends.)
        let (watched, before) = self.watch_window(watch)?;
        let restless = Restless::over(&watched.iter().collect::<Vec<_>>());
        self.report(PlayEvent::CopyTried { number });
        self.perform(&attempt.input.actions, &before, attempt.settle.after_click)?;
        if self.hands.parks_pointer {
            self.park_pointer(&before, &reading.layout)?;
        }
        self.source.sleep(watch);
        let settle = attempt.settle;
        let (after, read) = self.watch_still(settle, Some(&reading.layout), settle.quiet)?;
        let what = match &read {
            Ok(again) if again.board != reading.board => Some(format!("its board read otherwise:\n{}", again.board)),
            Ok(_) if after.image.dimensions() != before.image.dimensions() || restless.is_none() => {
                Some("the window changed its size".into())
            }
            Ok(_) => restless
                .and_then(|r| r.changed_outside(&before.image, &after.image))
                .map(|(x, y)| format!("the window changed at ({x}, {y}), where it changes nothing by itself")),
            Err(e) => Some(format!("its board could not be read ({e:#})")),
        };
        self.copy_proof = match what {
            None => {
                self.report(PlayEvent::CopySeen { number, what: None });
                CopyProof::Ignored { at: number }
            }
            Some(what) => {
                self.report(PlayEvent::CopySeen { number, what: Some(what.clone()) });
                CopyProof::Shows { at: number, what }
            }
        };
        match read {
            Ok(again) => Ok((after, again)),
            Err(_) => self.observe(&reading.layout).or(Ok((frame, reading))),
        }
    }

    /// After move `number`, the board shows it more times than its events were sent (a card played, and the next
    /// card of the same column too): named at once, never read as a misread board.
    pub(super) fn check_not_doubled(
        &mut self,
        before: &BoardOf<G>,
        mv: &MoveOf<G>,
        input: &MoveInput,
        seen: &BoardOf<G>,
        number: usize,
    ) -> Result<()> {
        let Some(times) = times_shown(self.game.rules(), before, mv, seen, self.sent + 1) else { return Ok(()) };
        if times <= 1 {
            return Ok(());
        }
        let sent = match self.sent {
            1 => "once".to_string(),
            n => format!("{n} times"),
        };
        fail!(
            FailureKind::ShownTwice,
            "move {number} ({}) showed {times} times, though its input was sent {sent}: the game took it more than once; \
             stopped (the board shows:\n{seen})",
            input.how
        )
    }
}

/// What shows that a move's events never reached the game.
enum Evidence {
    /// The board moved in its window (or the window moved) since the move was planned: its input went where the
    /// board was.
    Moved,
    /// Something the desktop shows, named.
    Shown(String),
    None,
}

/// How many times `mv` was made on `before` where `seen` shows it made 2 to `most` times (and not once): the
/// rules' board after that many copies; `None` otherwise. A move whose copy changes nothing (a colour flooded
/// again) never counts as shown twice.
fn times_shown<R: Game>(game: &R, before: &R::Board, mv: &R::Move, seen: &R::Board, most: usize) -> Option<usize> {
    let once = game.apply(before, mv);
    if *seen == once {
        return None;
    }
    let mut board = once;
    for times in 2..=most.max(2) {
        let next = game.apply(&board, mv);
        if next == board {
            return None;
        }
        if next == *seen {
            return Some(times);
        }
        board = next;
    }
    None
}
