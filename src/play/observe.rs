//! Observe: the board read once its part of the window holds still, the first time and after each move; a game
//! window covered by others brought to the front.

use std::time::Duration;

use anyhow::Result;

use super::events::millis;
use super::pace::{self, Quiet};

/// How long the first reading waits for a window that does not read yet to finish drawing, while it changes.
const FIRST_DRAWN_WITHIN: Duration = Duration::from_secs(15);
use super::watch::{self, Observation, Watched};
use super::{Failure, FailureKind, PlayEvent, Player};
use crate::capture::{Frame, Settle};
use crate::game::{Client, ReadingOf};

impl<'a, G: Client> Player<'a, G> {
    /// Observe, the first time: the board once it holds still, brought to the front if another window covers it.
    pub(super) fn observe_first(&mut self) -> Result<Observation<G>> {
        // Nothing is known yet of this client's rate: the quiet period is learned from the window's own frames
        // (a Tk client drawing a frame every 40 ms was seen to hold still for 50 ms between two), on a busy desktop
        // the whole configured one.
        let settle = self.options.settle.clone();
        let busy = self.source.busy()?;
        let quiet = self.pace.first_quiet(settle.quiet, busy);
        let (frame, read) = self.watch_still(&settle, None, quiet)?;
        let (frame, read) = self.once_drawn(&settle, quiet, frame, read)?;
        let (frame, reading) = match read {
            Ok(reading) => (frame, reading),
            Err(error) => self.uncover(error, None).map_err(|e| {
                e.context(Failure { kind: FailureKind::NoBoard, message: "the game's board could not be read".into() })
            })?,
        };
        let source = self.source.describe();
        self.report(PlayEvent::FirstRead {
            theme: reading.theme.to_string(),
            source,
            board: reading.board.to_string(),
        });
        self.report(PlayEvent::reading(&reading));
        Ok((frame, reading))
    }

    /// A first picture that does not read may be one the game has not finished drawing (a page still loading, a
    /// window mapped before its first paint: it holds still, blank, until the game draws): each time the window
    /// changes within [`FIRST_DRAWN_WITHIN`], it is watched until it holds still and read again. A window that does
    /// not change in that time shows what it will show, and its reading's error stands.
    fn once_drawn(
        &mut self,
        settle: &Settle,
        quiet: Quiet,
        mut frame: Frame,
        mut read: Result<ReadingOf<G>>,
    ) -> Result<(Frame, Result<ReadingOf<G>>)> {
        if read.is_ok() {
            // (The clock is not looked at: a recording replays the same calls.)
            return Ok((frame, read));
        }
        let start = self.source.now();
        while read.is_err() {
            let now = self.source.now();
            let Some(left) = FIRST_DRAWN_WITHIN.checked_sub(now.saturating_sub(start)) else { break };
            if watch::next_change(&mut *self.source, settle, &frame, None, now, left)?.is_none() {
                break;
            }
            (frame, read) = self.watch_still(settle, None, quiet)?;
        }
        Ok((frame, read))
    }

    /// Where a board cannot be read and other windows cover the game's: brings it to the front, names them, and
    /// reads it once it holds still. Otherwise the reader's error stands.
    pub(super) fn uncover(&mut self, error: anyhow::Error, hint: Option<&G::Layout>) -> Result<Observation<G>> {
        let covering = self.source.uncover()?;
        if covering.is_empty() {
            return Err(error);
        }
        let covering = covering.join(", ");
        self.report(PlayEvent::Uncovered { covering: covering.clone() });
        let settle = self.game.settle();
        let (frame, read) = self.watch_still(&settle, hint, settle.quiet)?;
        match read {
            Ok(reading) => Ok((frame, reading)),
            Err(e) => Err(e.context(format!(
                "the game's window was covered by {covering}, and cannot be read after it was brought to the front"
            ))),
        }
    }

    /// Observe, between moves: the board once it holds still (with `hint`, the layout of the last reading),
    /// brought to the front if another window covers it.
    pub(super) fn observe(&mut self, hint: &G::Layout) -> Result<Observation<G>> {
        let settle = self.game.settle();
        let quiet = self.quiet(settle.quiet)?;
        let (frame, read) = self.watch_still(&settle, Some(hint), quiet)?;
        match read {
            Ok(reading) => Ok((frame, reading)),
            Err(error) => self.uncover(error, Some(hint)),
        }
    }

    /// The window once its board holds still for `quiet` (a period, or one learned from the window's frames; `hint`:
    /// the layout of the last reading), and what it reads as.
    pub(super) fn watch_still(
        &mut self,
        settle: &Settle,
        hint: Option<&G::Layout>,
        quiet: impl Into<Quiet>,
    ) -> Result<Watched<G>> {
        let quiet = quiet.into();
        let watched = watch::observe(&mut *self.game, &mut *self.source, settle, hint, quiet, &mut self.picture);
        self.note_picture();
        watched
    }

    /// Says once in a game that the board's picture never holds still, when the last watch learned it.
    pub(super) fn note_picture(&mut self) {
        if self.picture.newly_never_still() {
            let (bound_ms, glance_ms) = (millis(pace::HOLD_STILL_BOUND), millis(watch::PICTURE_GLANCE));
            self.report(PlayEvent::PictureNeverStill { bound_ms, glance_ms });
        }
    }

    /// How long the board must hold still to rule out an animation under way, at most `most` (the configured
    /// period): as the client's pace and the desktop's load allow ([`pace::Pace::quiet`]).
    pub(super) fn quiet(&mut self, most: std::time::Duration) -> Result<std::time::Duration> {
        let busy = self.source.busy()?;
        Ok(self.pace.quiet(most, busy))
    }

    /// The window's reading once it holds still (None where it does not read), after an event that showed.
    pub(super) fn read_when_still(&mut self, settle: &Settle, layout: &G::Layout) -> Result<Option<ReadingOf<G>>> {
        let (_, read) = self.watch_still(settle, Some(layout), settle.quiet)?;
        Ok(read.ok())
    }
}
