//! A keyboard cursor found by what moves: where the way in use moves a cursor to the move's cell and the window
//! shows it by no single look (a terminal's own underline, blinking), the client names keys that move it and
//! change no board ([`crate::game::Client::cursor_probe`]); the loop watches the window for a while, sends them,
//! waits until something shows that the watch never did, and shows the client the two ([`Shown::Probed`]).
//!
//! Why it is safe: the keys only move a cursor, so sending them is no move; each is sent once and waited for in
//! full (a late repaint is not taken for a key that did nothing, so the next key is not sent on top of a late
//! one). What the client learns is checked by every move after it: the digit typed shows in the cell the cursor
//! was taken to, or the game stops.

use anyhow::Result;

use super::copies::{WATCH, WATCH_STEP};
use super::wait::{First, Try, Wait};
use super::ways::describe_actions;
use super::{PlayEvent, Player};
use crate::capture::Frame;
use crate::game::{Answer, Client, Layout, ReadingOf, Shown, Way};
use crate::vision::extremes::{Extremes, NEW_MARGIN};

/// The most probes of one way in a game: a cursor at an edge may not move one way, and a key may move nothing.
const PROBES: usize = 4;
/// How many new pixels in the board show that the keys moved something.
const NEW_PIXELS: usize = 4;
/// How many captures after the first that shows something new are handed to the client as well (a repaint that
/// comes in parts; a blinking cursor caught in its dark phase).
const AFTER_CAPTURES: usize = 4;

/// What probing one way's cursor came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    /// The client needed no probe (the way needs no cursor, or its place is known).
    NotNeeded,
    Found,
    /// Every key the client had was tried, and none showed where the cursor is.
    NoneFound,
}

impl<'a, G: Client> Player<'a, G> {
    /// Finds the keyboard cursor of `way` by what its probe keys move, for as long as the client has keys to try
    /// (at most [`PROBES`] a way); where they found none, the same for the ways after it, which the loop turns to
    /// next. `move_number` names the move in the log.
    pub(super) fn find_cursor(
        &mut self,
        way: G::Way,
        frame: &Frame,
        reading: &ReadingOf<G>,
        move_number: usize,
    ) -> Result<()> {
        let mut way = Some(way);
        while let Some(this) = way {
            if self.probe_way(this, frame, reading, move_number)? != Probe::NoneFound {
                return Ok(());
            }
            way = this.next();
        }
        Ok(())
    }

    /// Probes the cursor of `way` (see [`Player::find_cursor`]).
    fn probe_way(&mut self, way: G::Way, frame: &Frame, reading: &ReadingOf<G>, move_number: usize) -> Result<Probe> {
        let mut probed = false;
        for _ in 0..PROBES {
            let Some(keys) = self.game.cursor_probe(reading, way) else {
                return Ok(if probed { Probe::NoneFound } else { Probe::NotNeeded });
            };
            if self.options.dry_run {
                return Ok(Probe::NotNeeded);
            }
            probed = true;
            let region = reading.layout.region();
            // What the window shows by itself (a cursor blinking in place) over a while.
            let (watched, before) = self.watch_window(WATCH)?;
            let seen = Extremes::over(&watched.iter().collect::<Vec<_>>());
            self.perform(&keys, &before, self.game.settle().after_click)?;
            let (start, bound) = (self.source.now(), self.patience()?);
            let after = match &seen {
                Some(seen) => self.first_new(seen, region, start, bound)?,
                None => Vec::new(),
            };
            let found = match (&seen, after.is_empty()) {
                (Some(seen), false) => {
                    match self.game.shown(Shown::Probed { layout: &reading.layout, watched: seen, after: &after })? {
                        Answer::Found(what) => Some(what),
                        _ => None,
                    }
                }
                _ => None,
            };
            let keys = describe_actions(&keys, frame);
            let done = found.is_some();
            self.report(PlayEvent::CursorProbed { number: move_number, keys, found });
            if done {
                return Ok(Probe::Found);
            }
        }
        Ok(Probe::NoneFound)
    }

    /// Captures until one shows at least [`NEW_PIXELS`] pixels of the board (`region`) beyond what `seen` saw,
    /// until `bound` has passed since `start`; that capture and [`AFTER_CAPTURES`] more, or none.
    fn first_new(
        &mut self,
        seen: &Extremes,
        region: Option<crate::capture::Region>,
        start: std::time::Duration,
        bound: std::time::Duration,
    ) -> Result<Vec<image::RgbaImage>> {
        let wait = Wait::new("something new on the board", bound, WATCH_STEP, First::Clock);
        let first = wait.run(&mut *self.source, start, |round| {
            let frame = round.source.grab()?;
            let (w, h) = frame.image.dimensions();
            let area = region.and_then(|r| r.within(w, h));
            let rect = area.map_or((0, 0, w, h), |r| (r.x, r.y, r.x + r.width, r.y + r.height));
            match seen.count_beyond(&frame.image, rect, NEW_MARGIN) >= NEW_PIXELS {
                true => Ok(Try::Holds(frame.image)),
                false => Ok(Try::Lacks("nothing new".into())),
            }
        })?;
        let Ok(first) = first else { return Ok(Vec::new()) };
        let mut after = vec![first];
        for _ in 0..AFTER_CAPTURES {
            self.source.sleep(WATCH_STEP);
            after.push(self.source.grab()?.image);
        }
        Ok(after)
    }
}
