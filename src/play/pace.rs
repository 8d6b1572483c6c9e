//! How long the client takes to show a move, learned as the game goes, and how busy the desktop is: the play
//! loop's waits scale with both.
//!
//! A client on a busy desktop repaints late, and one that animates its moves (colours fading over a second)
//! shows them late by design. Neither is a move refused. The loop measures, for every move that showed, the
//! time from its last input event to the first capture that read as the expected board (its *answer*; the board
//! is confirmed once it has held still after that). Two waits follow from it:
//! - the *first look* ([`Pace::first_look`]): three times the slowest response so far, bounded; a move not shown by
//!   then is read again, and the log says it is late;
//! - the *patience* ([`Pace::patience`]): how long, in all, a move of which nothing has shown is waited for
//!   before the loop concludes that nothing of it will show: 5 s on an idle desktop, up to 10 s as the desktop's
//!   load rises to two ready processes per processor, and at least three times the client's slowest response.
//!   Since a move is never made again blind, this is the wait that keeps a late move from being taken for a lost
//!   one.
//!
//! Both waits end as soon as the board shows the move, so a fast client costs nothing extra.
//!
//! A third follows from the same measure: the *quiet period* ([`Pace::quiet`]), how long a board must hold still
//! to rule out an animation under way. Its frames are drawn by the same client on the same desktop as its answers
//! to the bot's moves: on an idle desktop they come at the animation's own rate, 20 a second or more, and no later
//! than the client's answers do; on a busy one anything may come late, and the configured period stands. Before
//! the client has answered anything, the first look at its window learns the period from the window's own frames
//! ([`Quiet::ByOwnFrames`]): a window that changes at all shows the gap between two of its frames.

use std::time::Duration;

/// The least time a move is given to show before it is looked at again.
const LEAST_PATIENCE: Duration = Duration::from_millis(600);
/// The most time one wait for a move lasts, however slow the client has been.
const MOST_PATIENCE: Duration = Duration::from_secs(4);
/// The first wait for a move made a way that has not yet worked in this game: long enough for a client on a
/// busy desktop, or one that animates, to show it, before the loop concludes the way does not work.
const UNPROVEN_WAIT: Duration = Duration::from_millis(2500);
/// How many times a move that has not shown is made again, where it may be (the client shows it never got the
/// move, or ignores a copy of it), after the first try.
pub const COPIES: usize = 2;
/// How many times a move is made again where the board moved in its window before the move showed.
pub const REMADE_WHERE_MOVED: usize = 3;
/// The patience on an idle desktop.
const IDLE_PATIENCE: Duration = Duration::from_secs(5);
/// The patience, however slow the client has shown itself: past this, nothing will show.
const MOST_WHOLE_PATIENCE: Duration = Duration::from_secs(30);
/// A move shown this long after its events is late enough to pass for a lost one on a busy desktop: a client
/// that shows one is asked what it does with a copy of a move (see `play::copies`).
pub const LATE_SHOW: Duration = Duration::from_secs(1);
/// The least quiet period: an animation seen as motion draws 20 frames a second or more, so on an idle desktop
/// its next frame comes within 50 ms. (At 40 ms, a Tk client redrawing every 40 ms was seen to hold still for
/// that long between two of its frames.)
pub const LEAST_QUIET: Duration = Duration::from_millis(50);
/// How many of the client's slowest answers a quiet period spans at least.
const QUIET_ANSWERS: u32 = 3;
/// A desktop with at most this many processes ready to run per processor is idle: an animation's frames come at
/// its own rate (the load at which the patience starts to grow).
const IDLE_LOAD: f64 = 0.5;
/// How long the board may keep changing before the loop gives up waiting for it to hold still.
pub const HOLD_STILL_BOUND: Duration = Duration::from_secs(12);

/// How long a picture must hold still in one watch ([`super::watch::hold_still`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// This long, whatever the picture does.
    For(Duration),
    /// Learned in the watch itself, where nothing is known of the client yet: [`QUIET_ANSWERS`] times the longest
    /// gap seen between two of the picture's changes in it, within `least` and `most`. An animation draws its frames
    /// at its own rate (on an idle desktop, 20 a second or more: [`LEAST_QUIET`]); once two of them have been seen,
    /// the picture must hold still for three of their gaps, so a frame drawn late or drawn the same as the one before
    /// it does not pass for the end of the animation. A picture seen to change at most once is held to `least`.
    ByOwnFrames { least: Duration, most: Duration },
}

impl From<Duration> for Quiet {
    fn from(quiet: Duration) -> Quiet {
        Quiet::For(quiet)
    }
}

impl Quiet {
    /// How long the picture must hold still, where the longest gap between two of its changes seen in this watch
    /// is `longest_gap` (zero where fewer than two were seen).
    pub fn after_gaps(self, longest_gap: Duration) -> Duration {
        match self {
            Quiet::For(quiet) => quiet,
            Quiet::ByOwnFrames { least, most } => (longest_gap * QUIET_ANSWERS).max(least).min(most),
        }
    }

    /// The longest it can come to.
    pub fn most(self) -> Duration {
        match self {
            Quiet::For(quiet) => quiet,
            Quiet::ByOwnFrames { most, .. } => most,
        }
    }
}

/// The client's measured pace.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    /// For each move that showed, the time from its last input event until the expected board was first read.
    shown_after: Vec<Duration>,
}

impl Pace {
    /// A move showed this long after its last input event.
    pub fn showed_after(&mut self, elapsed: Duration) {
        self.shown_after.push(elapsed);
    }

    /// The slowest a move has shown so far (of the last 20), if any has.
    pub fn slowest(&self) -> Option<Duration> {
        self.shown_after.iter().rev().take(20).max().copied()
    }

    /// The first look at a move: how long the window is watched for it before it is read again and, if nothing
    /// of it shows, called late: three times the slowest response seen, within [`LEAST_PATIENCE`] and
    /// [`MOST_PATIENCE`]; a way of making moves that has not worked yet (`proven` false) gets at least
    /// [`UNPROVEN_WAIT`].
    pub fn first_look(&self, proven: bool) -> Duration {
        let wait = self.slowest().map_or(LEAST_PATIENCE, |slowest| slowest * 3).clamp(LEAST_PATIENCE, MOST_PATIENCE);
        if proven {
            wait
        } else {
            wait.max(UNPROVEN_WAIT)
        }
    }

    /// How long, in all since its events were sent, a move of which nothing has shown is waited for: 5 s on an
    /// idle desktop, growing with `busy` (ready processes per processor, [`crate::capture::FrameSource::busy`])
    /// from half a process per processor to 10 s at two and more, and at least three times the client's slowest
    /// response so far (within 30 s).
    pub fn patience(&self, busy: Option<f64>) -> Duration {
        let load = busy.map_or(0.0, |b| ((b - 0.5) / 1.5).clamp(0.0, 1.0));
        let by_desktop = IDLE_PATIENCE.mul_f64(1.0 + load);
        let by_client = self.slowest().map_or(Duration::ZERO, |slowest| slowest * 3).min(MOST_WHOLE_PATIENCE);
        by_desktop.max(by_client)
    }

    /// How long a board that is neither the expected one nor the one before the move must hold still before
    /// the loop acts on it: a client that repaints late, or part by part, may pause in between. Twice the
    /// slowest response seen, at least half a second.
    pub fn doubt(&self) -> Duration {
        self.slowest().map_or(Duration::ZERO, |slowest| slowest * 2).max(Duration::from_millis(500)).min(MOST_PATIENCE)
    }

    /// How long a board must hold still to rule out an animation under way, at most `most` (the client's quiet
    /// period as configured): on an idle desktop (`busy`, ready processes per processor, at most [`IDLE_LOAD`]),
    /// three times the client's slowest answer so far and at least [`LEAST_QUIET`] (before any answer: that);
    /// on a busy desktop, or one whose load cannot be told, `most`.
    pub fn quiet(&self, most: Duration, busy: Option<f64>) -> Duration {
        if !idle(busy) {
            return most;
        }
        let by_client = self.slowest().map_or(Duration::ZERO, |slowest| slowest * QUIET_ANSWERS);
        by_client.max(LEAST_QUIET).min(most)
    }

    /// How long the board must hold still at the first look at the window, before the client has answered
    /// anything, at most `most` (the configured period): on an idle desktop (`busy` at most [`IDLE_LOAD`]), learned
    /// from the window's own frames in that look ([`Quiet::ByOwnFrames`]); on a busy desktop, or one whose load
    /// cannot be told, `most`.
    pub fn first_quiet(&self, most: Duration, busy: Option<f64>) -> Quiet {
        if !idle(busy) {
            return Quiet::For(most);
        }
        Quiet::ByOwnFrames { least: LEAST_QUIET.min(most), most }
    }

    /// How long to wait for the game window to take the input focus before typing.
    pub fn focus_bound(&self) -> Duration {
        (self.first_look(true) * 2).max(Duration::from_secs(3))
    }
}

/// Whether a desktop whose load is `busy` (ready processes per processor) is idle: told, and at most
/// [`IDLE_LOAD`]. Only there are the waits that rule out an animation learned from what the client shows.
fn idle(busy: Option<f64>) -> bool {
    busy.is_some_and(|load| load <= IDLE_LOAD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_with_the_clients_slowest_response_and_stay_bounded() {
        let mut pace = Pace::default();
        assert_eq!(pace.first_look(true), LEAST_PATIENCE);
        assert_eq!(pace.first_look(false), UNPROVEN_WAIT);
        pace.showed_after(Duration::from_millis(50));
        assert_eq!(pace.first_look(true), LEAST_PATIENCE, "a fast client gets the least patience");
        pace.showed_after(Duration::from_millis(900));
        assert_eq!(pace.first_look(true), Duration::from_millis(2700), "three times the slowest response");
        pace.showed_after(Duration::from_millis(1900));
        assert_eq!(pace.first_look(true), MOST_PATIENCE);
        pace.shown_after.pop();
        assert_eq!(pace.doubt(), Duration::from_millis(1800));
        assert!(pace.focus_bound() >= Duration::from_secs(3));
    }

    /// The quiet period: the least on an idle desktop before the client has answered, three of its slowest answers
    /// after, never more than the configured one, and the configured one wherever the desktop is busy or its load
    /// is unknown.
    #[test]
    fn the_quiet_period_follows_the_client_on_an_idle_desktop_and_is_kept_on_a_busy_one() {
        let most = Duration::from_millis(120);
        let mut pace = Pace::default();
        assert_eq!(pace.quiet(most, Some(0.2)), LEAST_QUIET);
        assert_eq!(pace.quiet(most, Some(0.9)), most);
        assert_eq!(pace.quiet(most, None), most);
        pace.showed_after(Duration::from_millis(8));
        assert_eq!(pace.quiet(most, Some(0.2)), LEAST_QUIET, "a quick client: the least");
        pace.showed_after(Duration::from_millis(30));
        assert_eq!(pace.quiet(most, Some(0.2)), Duration::from_millis(90), "three of its slowest answers");
        pace.showed_after(Duration::from_millis(70));
        assert_eq!(pace.quiet(most, Some(0.2)), most, "never more than the configured period");
        assert_eq!(Pace::default().quiet(Duration::ZERO, Some(0.0)), Duration::ZERO, "a client that needs none");
    }

    /// The first look's quiet period: on an idle desktop, the least for a picture that has not been seen to change
    /// twice, three of the longest gap between its changes after, never more than configured; the configured one on
    /// a busy desktop or one whose load is unknown.
    #[test]
    fn the_first_looks_quiet_period_follows_the_windows_own_frames_on_an_idle_desktop() {
        let most = Duration::from_millis(120);
        let pace = Pace::default();
        assert_eq!(pace.first_quiet(most, Some(0.9)), Quiet::For(most));
        assert_eq!(pace.first_quiet(most, None), Quiet::For(most));
        let learned = pace.first_quiet(most, Some(0.2));
        assert_eq!(learned.most(), most);
        assert_eq!(learned.after_gaps(Duration::ZERO), LEAST_QUIET, "no two changes seen: the least");
        assert_eq!(learned.after_gaps(Duration::from_millis(16)), LEAST_QUIET, "60 frames a second: the least");
        assert_eq!(learned.after_gaps(Duration::from_millis(25)), Duration::from_millis(75), "three gaps");
        assert_eq!(learned.after_gaps(Duration::from_millis(40)), most, "never more than configured");
        assert_eq!(Quiet::For(most).after_gaps(Duration::from_millis(5)), most);
        let none = pace.first_quiet(Duration::ZERO, Some(0.0));
        assert_eq!(none.after_gaps(Duration::from_millis(40)), Duration::ZERO, "a client that needs none");
    }

    /// The patience for a move of which nothing has shown: 5 s idle, 10 s on a desktop with two ready processes
    /// per processor, and never less than three times the client's slowest response.
    #[test]
    fn the_patience_grows_with_the_desktop_s_load_and_the_client_s_slowness() {
        let mut pace = Pace::default();
        assert_eq!(pace.patience(None), Duration::from_secs(5));
        assert_eq!(pace.patience(Some(0.3)), Duration::from_secs(5));
        assert_eq!(pace.patience(Some(1.25)), Duration::from_millis(7500));
        assert_eq!(pace.patience(Some(2.0)), Duration::from_secs(10));
        assert_eq!(pace.patience(Some(7.0)), Duration::from_secs(10));
        pace.showed_after(Duration::from_secs(4));
        assert_eq!(pace.patience(Some(2.0)), Duration::from_secs(12));
        pace.showed_after(Duration::from_secs(40));
        assert_eq!(pace.patience(None), Duration::from_secs(30));
    }
}
