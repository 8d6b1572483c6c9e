//! How long the client takes to show a move, learned as the game goes, and how busy the desktop is: the play
//! loop's waits scale with both.
//!
//! A client on a busy desktop repaints late, and one that animates its moves (colours fading over a second)
//! shows them late by design. Neither is a move refused. The loop measures, for every move that showed, the
//! time from its last input event to the moment the expected board was confirmed. Two waits follow from it:
//! - the *first look* ([`Pace::first_look`]): three times the slowest response so far, bounded; a move not shown by
//!   then is read again, and the log says it is late;
//! - the *patience* ([`Pace::patience`]): how long, in all, a move of which nothing has shown is waited for
//!   before the loop concludes that nothing of it will show: 5 s on an idle desktop, up to 10 s as the desktop's
//!   load rises to two ready processes per processor, and at least three times the client's slowest response.
//!   Since a move is never made again blind, this is the wait that keeps a late move from being taken for a lost
//!   one.
//!
//! Both waits end as soon as the board shows the move, so a fast client costs nothing extra.

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
/// How long the board may keep changing before the loop gives up waiting for it to hold still.
pub const HOLD_STILL_BOUND: Duration = Duration::from_secs(12);

/// The client's measured pace.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    /// For each move that showed, the time from its last input event until the expected board was confirmed.
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

    /// How long to wait for the game window to take the input focus before typing.
    pub fn focus_bound(&self) -> Duration {
        (self.first_look(true) * 2).max(Duration::from_secs(3))
    }
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
