//! Watching the game's window: waiting until its board holds still, and until a move shows.
//!
//! Only the board's region counts (the layout's [`Layout::region`]): a window whose clock ticks, whose title
//! pulses or whose cursor blinks elsewhere still has a board that holds still. Before the first reading the
//! region is not known; the whole window is watched, and if it never holds still, the board read from the
//! latest capture gives the region to watch from then on. A board read only once it has held still for the
//! settle's quiet period (at least two captures in a row agree) is never a frame in mid-change; a move counts
//! as shown only when the board reads as expected and then holds still (the winning move: and then does not go
//! back within the quiet period, whatever the client draws to celebrate). A board whose picture never holds still
//! (an animation drawn over its cells) is read, once its picture has not held still within the bound, when its
//! reading holds still ([`READING_STILL`]).

use std::collections::VecDeque;
use std::time::Duration;

use super::failure::{fail, FailureKind};
use anyhow::Result;
use image::RgbaImage;

use super::pace::{Quiet, HOLD_STILL_BOUND};
use super::wait::{First, TimedOut, Try, Wait};
use crate::capture::{Frame, FrameSource, Region, Settle};
use crate::game::{BoardOf, Client, Layout, ReadingOf};
use crate::vision::extremes::median;

/// A frame and what was read from it.
pub type Observation<G> = (Frame, ReadingOf<G>);

/// A frame held still, and what was read from it or why it does not read.
pub type Watched<G> = (Frame, Result<ReadingOf<G>>);

/// Captures until the board (within `region`, or the whole picture) has held still for `quiet` (as learned from
/// the gaps between its changes, where it is learned: [`Quiet`]) after `first` (captured at `first_at` on the
/// source's clock), and at least until one more capture agrees; returns that capture, or `None` when the board was
/// still changing after `bound`.
pub fn hold_still(
    source: &mut dyn FrameSource,
    interval: Duration,
    quiet: Quiet,
    bound: Duration,
    first: Frame,
    first_at: Duration,
    region: Option<Region>,
) -> Result<Option<Frame>> {
    let start = source.now();
    // The next capture comes an interval after `first` at the soonest: where reading it took that long already,
    // at once.
    let pause_first = if start.saturating_sub(first_at) >= interval { First::Try } else { First::Pause };
    let wait = Wait::new("the board to hold still", bound, interval, pause_first);
    let (mut previous, mut still_since) = (first, first_at);
    // The latest change seen in this watch, and the longest gap between two of them.
    let (mut changed_at, mut longest_gap) = (None::<Duration>, Duration::ZERO);
    let held = wait.run(source, start, |round| {
        let next = round.source.grab()?;
        let now = round.clock();
        if !next.same_in(&previous, region) {
            if let Some(last) = changed_at {
                longest_gap = longest_gap.max(now.saturating_sub(last));
            }
            changed_at = Some(now);
            still_since = now;
        } else if now.saturating_sub(still_since) >= quiet.after_gaps(longest_gap) {
            return Ok(Try::Holds(next));
        }
        previous = next;
        Ok(Try::Lacks(format!("still for {:.2} s", now.saturating_sub(still_since).as_secs_f64())))
    })?;
    Ok(held.ok())
}

/// How long a picture known never to hold still is watched for a moment of stillness before its reading is
/// waited for instead ([`Picture`]).
pub const PICTURE_GLANCE: Duration = Duration::from_secs(1);

/// How many moves in a row must show their board at once and hold it through the client's whole quiet period
/// before a move's board is taken once two captures agree ([`Picture::move_quiet`]).
pub const SETTLED_TO_TRUST: u32 = 2;
/// Of the moves made with the shortened wait, every this many is watched through the whole quiet period again:
/// the shortening is proved for as long as it is used.
pub const RECHECK_EVERY: u32 = 8;

/// What this game has shown of its board's picture.
///
/// - A board whose picture did not hold still within the bound ([`HOLD_STILL_BOUND`]) while its reading did has
///   an animation drawn over it for good (particles, a pulse): from then on, for the rest of the game, its
///   picture gets only a glance ([`PICTURE_GLANCE`]) before the reading is waited for, instead of the whole bound
///   before every reading. The reading's own bound is unchanged, and a picture that does hold still within the
///   glance is still taken as it is.
/// - The client's quiet period ([`Settle::quiet`]) is how long a move's board must hold still to rule out an
///   animation still under way. A client that has shown [`SETTLED_TO_TRUST`] moves in a row at once (the first
///   capture that read as the expected board held through the whole quiet period) repaints a move in one go:
///   its moves' boards are then taken once two captures agree, as sgt-solo's are, with every
///   [`RECHECK_EVERY`]th move still watched through the whole period. One move whose picture went on changing
///   after its board first read as expected (an animation) restores the whole period for the rest of the game.
///   (What counts as shown does not change: the board read as the expected one.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Picture {
    never_still: bool,
    /// Whether `never_still` has been told (see [`Picture::newly_never_still`]).
    told: bool,
    /// Moves in a row whose board showed at once and held still through the whole quiet period.
    settled_at_once: u32,
    /// Moves whose board was taken with the shortened wait since one was last watched through the whole period.
    shortened: u32,
    /// A move's picture went on changing after its board first read as expected.
    animates: bool,
}

impl Picture {
    /// How long the board of the next move must hold still once it reads as expected (see the type's doc), and
    /// whether that is the whole quiet period `quiet`.
    pub fn move_quiet(&self, quiet: Duration) -> (Duration, bool) {
        let trusted = !self.animates && self.settled_at_once >= SETTLED_TO_TRUST && self.shortened < RECHECK_EVERY;
        if trusted && !quiet.is_zero() {
            (Duration::ZERO, false)
        } else {
            (quiet, true)
        }
    }

    /// Learns from a move whose board read as expected: watched through the whole quiet period or not (`whole`),
    /// and whether its picture went on changing after that reading (`moved_on`).
    pub fn move_held(&mut self, whole: bool, moved_on: bool) {
        if moved_on {
            self.animates = true;
            self.settled_at_once = 0;
        } else if whole {
            self.settled_at_once += 1;
            self.shortened = 0;
        } else {
            self.shortened += 1;
        }
    }

    /// How long the board's picture is waited for to hold still.
    pub fn bound(self) -> Duration {
        if self.never_still {
            PICTURE_GLANCE
        } else {
            HOLD_STILL_BOUND
        }
    }

    /// Whether the board's picture has been seen never to hold still, the first time it is asked after that.
    pub fn newly_never_still(&mut self) -> bool {
        let new = self.never_still && !self.told;
        self.told |= new;
        new
    }
}

/// Captures until the board holds still for `quiet` and reads it (with `hint`, the layout of an earlier reading
/// of this window, whose region is watched). Returns the frame and the reading, or the frame and why it does
/// not read (the caller decides what a board that cannot be read means); an error when the board has not held
/// still within [`HOLD_STILL_BOUND`], naming the bound. A picture that has not held still within its bound
/// ([`Picture::bound`]) is read when its reading holds still, and `picture` learns it.
pub fn observe<G: Client>(
    game: &mut G,
    source: &mut dyn FrameSource,
    settle: &Settle,
    hint: Option<&G::Layout>,
    quiet: Quiet,
    picture: &mut Picture,
) -> Result<Watched<G>> {
    let bound = picture.bound();
    let mut region = hint.and_then(|layout| layout.region());
    let first = source.grab()?;
    let first_at = source.now();
    // With no board known, the whole window is watched for a while; a window that never holds still (something
    // in it always moves) is then watched only where the board read from its latest capture lies.
    let whole_window_for = if region.is_none() { Duration::from_secs(1).max(quiet.most() * 4) } else { bound };
    let frame = match hold_still(source, settle.interval, quiet, whole_window_for, first, first_at, region)? {
        Some(frame) => frame,
        None if region.is_none() => {
            let latest = source.grab()?;
            let latest_at = source.now();
            if let Ok(reading) = game.read(&latest, hint) {
                region = reading.layout.region();
            }
            match hold_still(source, settle.interval, quiet, bound, latest, latest_at, region)? {
                Some(frame) => frame,
                None => return read_still(game, source, settle, hint, picture, "its picture kept changing"),
            }
        }
        None => return read_still(game, source, settle, hint, picture, "the board's picture kept changing"),
    };
    let reading = game.read(&frame, hint);
    Ok((frame, reading))
}

/// A board whose picture never holds still (particles, a glow or a pulse drawn over its cells) is read once its
/// reading holds still: the same board read for this long, from every capture that reads and from three at least.
/// (Only where the picture did not hold still within its bound: a reading can hold still for a moment in the
/// middle of a slow animation, a picture cannot.)
pub const READING_STILL: Duration = Duration::from_secs(1);

/// After the picture did not hold still (`why`): the reading of one that holds still as its reading
/// ([`READING_STILL`]), learned by `picture`, else an error naming the bound.
fn read_still<G: Client>(
    game: &mut G,
    source: &mut dyn FrameSource,
    settle: &Settle,
    hint: Option<&G::Layout>,
    picture: &mut Picture,
    why: &str,
) -> Result<Watched<G>> {
    let bound = HOLD_STILL_BOUND;
    match reading_holds_still(game, source, settle.interval, hint, bound, None)? {
        Ok(((frame, reading), _)) => {
            picture.never_still = true;
            Ok((frame, Ok(reading)))
        }
        Err(timed_out) => fail!(
            FailureKind::NeverStill,
            "the board in {} did not hold still within {:.1} s ({why}, and so did what it reads as: {})",
            source.describe(),
            bound.as_secs_f64(),
            timed_out.lacked
        ),
    }
}

/// The least time between two readings while a board's reading is waited for to hold still.
pub const READING_INTERVAL: Duration = Duration::from_millis(25);

/// How many captures, [`MEDIAN_STEP`] apart, a board that never holds still is read from at once (each pixel's
/// median: [`crate::vision::extremes::median`]).
pub const MEDIAN_OF: usize = 5;
/// The least time between the captures a median is taken of: sparks drifting over the board must have moved on.
pub const MEDIAN_STEP: Duration = Duration::from_millis(100);

/// Captures and reads every `interval` until the same board (`want`, where given) has been read for
/// [`READING_STILL`], from three captures at least and from every capture that reads: the latest capture and its
/// reading, and when that board was first read (the source's clock); the wait's [`TimedOut`] after `bound`.
///
/// What is read, and how often:
/// - Until there are [`MEDIAN_OF`] captures [`MEDIAN_STEP`] apart, each unlike the one before it, each capture.
/// - From then on, the median of the latest of them, once for each new one (a round between two brings no new
///   evidence, and is not counted): the board where the animation leaves it. Sparks drifting over the cells are
///   gone from it, where a single capture may not read, or may read a spark as part of a cell. Where the median
///   does not read (a board that changed within the median's span), the capture it ended with is read instead.
/// - A capture that does not read tells nothing of the board and breaks no run of agreeing readings: sparks
///   slowed by a busy desktop stay on a cell for several captures, and cut a hole in it; a board read as another
///   does break it.
pub fn reading_holds_still<G: Client>(
    game: &mut G,
    source: &mut dyn FrameSource,
    interval: Duration,
    hint: Option<&G::Layout>,
    bound: Duration,
    want: Option<&BoardOf<G>>,
) -> Result<Result<(Observation<G>, Duration), TimedOut>> {
    let start = source.now();
    let wait = Wait::new("the board's reading to hold still", bound, interval.max(READING_INTERVAL), First::Clock);
    // The board read since `since` (every capture that read since then read it), and from how many captures.
    let mut agreeing: Option<(BoardOf<G>, Duration, usize)> = None;
    // The latest captures at least MEDIAN_STEP apart, and when each was taken.
    let mut spaced: VecDeque<(Duration, RgbaImage)> = VecDeque::new();
    let held = wait.run(source, start, |round| {
        let frame = round.source.grab()?;
        let now = round.clock();
        // A capture the same as the last one kept is the same frame of the client's (a client slowed by a busy
        // desktop repaints seldom): no new evidence for the median, whose sparks would stay where they were.
        let new_spaced =
            spaced.back().is_none_or(|(at, last)| now.saturating_sub(*at) >= MEDIAN_STEP && *last != frame.image);
        if new_spaced {
            spaced.push_back((now, frame.image.clone()));
            if spaced.len() > MEDIAN_OF {
                spaced.pop_front();
            }
        }
        let read = if spaced.len() < MEDIAN_OF {
            game.read(&frame, hint).map(|reading| (frame, reading))
        } else if !new_spaced {
            return Ok(Try::Lacks("the next capture for the median".into()));
        } else {
            let images: Vec<&RgbaImage> = spaced.iter().map(|(_, image)| image).collect();
            let of_median = median(&images)
                .map(|image| Frame { image, ..frame.clone() })
                .and_then(|median| game.read(&median, hint).ok().map(|reading| (median, reading)));
            match of_median {
                Some(read) => Ok(read),
                None => game.read(&frame, hint).map(|reading| (frame, reading)),
            }
        };
        let (frame, reading) = match read {
            Ok((frame, reading)) if want.is_none_or(|want| reading.board == *want) => (frame, reading),
            Ok(_) => {
                agreeing = None;
                return Ok(Try::Lacks("another board than expected".into()));
            }
            Err(e) => return Ok(Try::Lacks(format!("a capture that does not read: {e:#}"))),
        };
        match &mut agreeing {
            Some((board, since, captures)) if *board == reading.board => {
                *captures += 1;
                if now.saturating_sub(*since) >= READING_STILL && *captures >= 3 {
                    return Ok(Try::Holds(((frame, reading), *since)));
                }
            }
            _ => agreeing = Some((reading.board.clone(), now, 1)),
        }
        Ok(Try::Lacks("a reading that changed within the last second".into()))
    })?;
    Ok(held)
}

/// Captures every `settle.interval` until the board (within `region`) differs from `before`, until `bound` has
/// passed since `start` (on the source's clock); the capture and when it was taken, or `None`.
pub fn next_change(
    source: &mut dyn FrameSource,
    settle: &Settle,
    before: &Frame,
    region: Option<Region>,
    start: Duration,
    bound: Duration,
) -> Result<Option<(Frame, Duration)>> {
    let wait = Wait::new("the board to change", bound, settle.interval, First::Clock);
    let changed = wait.run(source, start, |round| {
        let frame = round.source.grab()?;
        if frame.same_in(before, region) {
            return Ok(Try::Lacks("as it was".into()));
        }
        let grabbed_at = round.source.now();
        Ok(Try::Holds((frame, grabbed_at)))
    })?;
    Ok(changed.ok())
}

/// After the winning move's board has read from `won` (captured at `won_at`): whether no capture over the settle's
/// quiet period goes back to the board before the move (`board_before`; a capture is read only where the picture
/// changed). Whatever else the client draws then is its celebration of the win.
fn stays_won<G: Client>(
    game: &mut G,
    source: &mut dyn FrameSource,
    settle: &Settle,
    (won, won_at): (&Frame, Duration),
    layout: &G::Layout,
    board_before: &BoardOf<G>,
) -> Result<bool> {
    let region = layout.region();
    let quiet = settle.quiet.max(settle.interval * 2);
    let wait = Wait::new("the won board not to go back", quiet, settle.interval, First::Pause);
    let mut previous = won.clone();
    let went_back = wait.run(source, won_at, |round| {
        let next = round.source.grab()?;
        if !next.same_in(&previous, region) {
            if game.read(&next, Some(layout)).is_ok_and(|again| again.board == *board_before) {
                return Ok(Try::Holds(()));
            }
            previous = next;
        }
        Ok(Try::Lacks("the won board, or what the client draws to celebrate".into()))
    })?;
    Ok(went_back.is_err())
}

/// What watching for a move's board came to: the expected board, once it held still; and whether any capture read
/// as the expected board at all (the client took the move, even where the board went on to show something else).
pub struct Awaited<G: Client> {
    pub shown: Option<Observation<G>>,
    pub expected_read: bool,
    /// When the board was first read as expected: the move showed then, not once its picture (or, where the
    /// picture never holds still, its reading) had held still.
    pub shown_since: Option<Duration>,
}

/// Watches the window after a move until its board shows `expected` (read with `layout`, the move's board's) and
/// then holds still for the settle's quiet period (a picture that never does, as [`Picture`] says); `shown` is
/// `None` when it has not within `bound`. `before` is the frame the move was made on: a capture whose board has not
/// changed from it is not read again. One wait ("the move to show"): each try captures; a capture as it was, one
/// that does not read as `expected`, or one that goes on changing is what it lacks.
///
/// The winning move (`won_from`: the board before it) counts as shown once a capture reads as the won board and
/// no capture over the quiet period after it goes back to the board before the move ([`stays_won`]): what a client
/// draws once it is won (sgt-flood's wave of colours across the board, a banner, a dialog) is its celebration, not
/// a board to wait out.
pub fn await_expected<G: Client>(
    game: &mut G,
    source: &mut dyn FrameSource,
    settle: &Settle,
    before: &Frame,
    (layout, expected, won_from): (&G::Layout, &BoardOf<G>, Option<&BoardOf<G>>),
    bound: Duration,
    picture: &mut Picture,
) -> Result<Awaited<G>> {
    let region = layout.region();
    let start = source.now();
    if picture.never_still {
        // The board's picture never holds still (learned earlier in the game): the expected board counts once its
        // reading holds still, whatever any single capture shows.
        let read = reading_holds_still(game, source, settle.interval, Some(layout), bound, Some(expected))?.ok();
        let shown_since = read.as_ref().map(|(_, since)| *since);
        return Ok(Awaited { expected_read: read.is_some(), shown: read.map(|(seen, _)| seen), shown_since });
    }
    let mut expected_read = false;
    let mut shown_since = None;
    let wait = Wait::new("the move to show", bound, settle.interval, First::Clock);
    let shown = wait.run(source, start, |round| {
        let frame = round.source.grab()?;
        if frame.same_in(before, region) {
            return Ok(Try::Lacks("the board as it was".into()));
        }
        let grabbed_at = round.source.now();
        let reading = match game.read(&frame, Some(layout)) {
            Ok(reading) if reading.board == *expected => reading,
            Ok(_) => return Ok(Try::Lacks("the board changed to another than expected".into())),
            Err(e) => return Ok(Try::Lacks(format!("the board changed and does not read: {e:#}"))),
        };
        expected_read = true;
        shown_since.get_or_insert(grabbed_at);
        if let Some(board_before) = won_from {
            return Ok(match stays_won(game, round.source, settle, (&frame, grabbed_at), layout, board_before)? {
                true => Try::Holds((frame, reading)),
                false => Try::Lacks("the won board, then the board before the move".into()),
            });
        }
        // Observation: it counts once the board holds still (at least one more capture agrees).
        let (quiet, whole) = picture.move_quiet(settle.quiet);
        let held = hold_still(
            round.source,
            settle.interval,
            Quiet::For(quiet),
            picture.bound(),
            frame.clone(),
            grabbed_at,
            region,
        )?;
        let Some(confirmed) = held else {
            // A picture that never holds still (an animation over the board): the expected board counts once its
            // reading holds still.
            let read = reading_holds_still(
                game,
                round.source,
                settle.interval,
                Some(layout),
                HOLD_STILL_BOUND,
                Some(expected),
            )?
            .ok();
            return Ok(match read {
                Some((observation, since)) => {
                    picture.never_still = true;
                    shown_since = Some(since);
                    Try::Holds(observation)
                }
                None => Try::Lacks("the expected board, still changing".into()),
            });
        };
        let moved_on = !confirmed.same_in(&frame, region);
        picture.move_held(whole, moved_on);
        if !moved_on {
            return Ok(Try::Holds((confirmed, reading)));
        }
        // It moved on (an animation, such as a flash on completion) and has held still since: what does it show?
        match game.read(&confirmed, Some(layout)) {
            Ok(settled) if settled.board == *expected => Ok(Try::Holds((confirmed, settled))),
            _ => Ok(Try::Lacks("the expected board, then another".into())),
        }
    })?;
    Ok(Awaited { shown: shown.ok(), expected_read, shown_since })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::RgbaImage;

    /// A source that shows a changing picture for a few grabs, then a still one; its right half (outside the
    /// board) may keep changing for ever.
    struct Animation {
        grabs: usize,
        moving_for: usize,
        clock_outside: bool,
    }

    impl FrameSource for Animation {
        fn grab(&mut self) -> Result<Frame> {
            self.grabs += 1;
            let shade = if self.grabs <= self.moving_for { self.grabs as u8 } else { 255 };
            let mut image = RgbaImage::from_pixel(8, 4, image::Rgba([shade, 0, 0, 255]));
            if self.clock_outside {
                image.put_pixel(7, 0, image::Rgba([0, self.grabs as u8, 0, 255]));
            }
            Ok(Frame::from_image(image))
        }
        fn describe(&self) -> String {
            "animation".into()
        }
    }

    fn still(source: &mut Animation, region: Option<Region>) -> Option<Frame> {
        let first = source.grab().unwrap();
        let at = source.now();
        hold_still(
            source,
            Duration::from_millis(1),
            Quiet::For(Duration::from_millis(20)),
            Duration::from_millis(150),
            first,
            at,
            region,
        )
        .unwrap()
    }

    /// A client whose moves show at once and hold still is trusted after two such moves (two agreeing
    /// captures then suffice), still watched through its whole quiet period every so often, and never again
    /// once a move's picture went on changing after its board read as expected.
    #[test]
    fn a_client_repainting_each_move_in_one_go_is_waited_for_less_and_rechecked() {
        let quiet = Duration::from_millis(120);
        let mut picture = Picture::default();
        for _ in 0..SETTLED_TO_TRUST {
            assert_eq!(picture.move_quiet(quiet), (quiet, true));
            picture.move_held(true, false);
        }
        for _ in 0..RECHECK_EVERY {
            assert_eq!(picture.move_quiet(quiet), (Duration::ZERO, false));
            picture.move_held(false, false);
        }
        assert_eq!(picture.move_quiet(quiet), (quiet, true), "a move watched through the whole period again");
        picture.move_held(true, false);
        assert_eq!(picture.move_quiet(quiet), (Duration::ZERO, false));
        picture.move_held(false, true);
        for _ in 0..2 * SETTLED_TO_TRUST {
            assert_eq!(picture.move_quiet(quiet), (quiet, true), "an animation was seen: the whole period for good");
            picture.move_held(true, false);
        }
        assert_eq!(Picture::default().move_quiet(Duration::ZERO), (Duration::ZERO, true), "nothing to shorten");
    }

    #[test]
    fn the_board_holds_still_only_after_the_animation_ends() {
        let frame = still(&mut Animation { grabs: 0, moving_for: 6, clock_outside: false }, None).expect("still");
        assert_eq!(frame.image.get_pixel(0, 0)[0], 255);
        assert!(still(&mut Animation { grabs: 0, moving_for: usize::MAX, clock_outside: false }, None).is_none());
    }

    /// A part of the window outside the board that never stops (a clock) keeps the whole window from holding
    /// still, but not the board.
    #[test]
    fn a_clock_outside_the_board_does_not_keep_it_from_holding_still() {
        let board = Region { x: 0, y: 0, width: 4, height: 4 };
        assert!(still(&mut Animation { grabs: 0, moving_for: 3, clock_outside: true }, None).is_none());
        let frame = still(&mut Animation { grabs: 0, moving_for: 3, clock_outside: true }, Some(board)).expect("still");
        assert_eq!(frame.image.get_pixel(0, 0)[0], 255);
    }

    /// A recorded film of a window: each capture and when it was taken. Its clock moves only by its pauses; a grab
    /// shows the latest capture taken by then.
    struct Film {
        shots: Vec<(Duration, RgbaImage)>,
        clock: Duration,
    }

    impl Film {
        fn load(dir: &std::path::Path) -> Film {
            let list = std::fs::read_to_string(dir.join("film.txt")).unwrap();
            let shots = list
                .lines()
                .filter(|line| !line.starts_with('#'))
                .map(|line| {
                    let (ms, file) = line.split_once(' ').unwrap();
                    let at = Duration::from_millis(ms.parse().unwrap());
                    (at, crate::imageio::load_image(&dir.join(file)).unwrap())
                })
                .collect();
            Film { shots, clock: Duration::ZERO }
        }

        fn length(&self) -> Duration {
            self.shots.last().unwrap().0
        }
    }

    impl FrameSource for Film {
        fn grab(&mut self) -> Result<Frame> {
            let shown = self.shots.iter().rev().find(|(at, _)| *at <= self.clock).unwrap_or(&self.shots[0]);
            Ok(Frame::from_image(shown.1.clone()))
        }
        fn describe(&self) -> String {
            "film".into()
        }
        fn now(&mut self) -> Duration {
            self.clock
        }
        fn sleep(&mut self, duration: Duration) {
            self.clock += duration;
        }
    }

    /// The first look at a window, where the quiet period is learned from its own frames: a window that draws a
    /// frame every 40 ms for 400 ms, one of them the same as the one before (so it holds still for 80 ms in the
    /// middle), is taken only once it has stopped, and three of its gaps later; with a fixed 50 ms it would have
    /// been taken in the middle. A window that never changes is taken after the least.
    #[test]
    fn the_first_looks_quiet_period_is_learned_from_the_windows_own_frames() {
        let shade = |value: u8| RgbaImage::from_pixel(8, 4, image::Rgba([value, 0, 0, 255]));
        let shots = (0..=10u8)
            .map(|frame| (Duration::from_millis(40 * u64::from(frame)), shade(if frame == 4 { 3 } else { frame })))
            .collect::<Vec<_>>();
        let film = || Film { shots: shots.clone(), clock: Duration::ZERO };
        let learned = Quiet::ByOwnFrames { least: Duration::from_millis(50), most: Duration::from_millis(120) };
        let watch = |film: &mut Film, quiet: Quiet| {
            let first = film.grab().unwrap();
            let at = film.now();
            let held =
                hold_still(film, Duration::from_millis(4), quiet, Duration::from_secs(2), first, at, None).unwrap();
            (held.expect("holds still").image.get_pixel(0, 0)[0], film.now())
        };
        let mut animated = film();
        let (shown, at) = watch(&mut animated, learned);
        assert_eq!(shown, 10, "the last frame");
        assert!(at >= Duration::from_millis(400 + 120), "three of its 40 ms gaps after the last frame: {at:?}");
        let (shown, _) = watch(&mut film(), Quiet::For(Duration::from_millis(50)));
        assert_eq!(shown, 3, "a fixed 50 ms takes the frame held for two of its gaps");
        let mut still = Film { shots: vec![(Duration::ZERO, shade(7))], clock: Duration::ZERO };
        let (shown, at) = watch(&mut still, learned);
        assert_eq!(shown, 7);
        assert!(at >= Duration::from_millis(50) && at < Duration::from_millis(60), "the least: {at:?}");
    }

    /// The sparks client of the live tests on a busy desktop (fixtures/flood-clients/sparks-slowed: four seconds
    /// of its window, as the bot captured it when it failed in CI): the sparks moved so slowly that a spark stayed
    /// on a cell for most of a median's captures, and every second or so neither the median nor the capture read.
    /// Such a capture breaks no run of agreeing readings, and the board (seed 4's start) reads within the film.
    #[test]
    fn a_board_under_slow_sparks_reads_though_some_captures_do_not() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/flood-clients/sparks-slowed");
        let mut film = Film::load(&dir);
        let truth =
            crate::games::flood::FloodBoard::parse(&std::fs::read_to_string(dir.join("board.txt")).unwrap()).unwrap();
        let mut game = crate::clients::flood::FloodClient::with_themes(Vec::new());
        let bound = film.length();
        let ((_, reading), since) =
            reading_holds_still(&mut game, &mut film, Duration::from_millis(5), None, bound, None).unwrap().unwrap();
        assert_eq!(reading.board.to_string(), truth.to_string());
        assert!(since + READING_STILL <= bound);
    }
}
