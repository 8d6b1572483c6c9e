//! How long the client takes to show a move, learned as the game goes: the play loop's waits scale with it.
//!
//! A client on a busy desktop repaints late, and one that animates its moves (colours fading over a second)
//! shows them late by design. Neither is a move refused. The loop measures, for every move that showed, the
//! time from its last input event to the moment the expected board was confirmed, and sets its patience from
//! the slowest of them: a move not shown within that time is looked at again, and (once a way of making moves
//! has worked in this game) tried again, each wait twice the one before, up to a bound. So a slow client is
//! waited for, and a fast one costs nothing extra: the waits end as soon as the board shows.

use std::time::Duration;

/// The least time a move is given to show before it is looked at again.
const LEAST_PATIENCE: Duration = Duration::from_millis(600);
/// The most time one wait for a move lasts, however slow the client has been.
const MOST_PATIENCE: Duration = Duration::from_secs(4);
/// The first wait for a move made a way that has not yet worked in this game: long enough for a client on a
/// busy desktop, or one that animates, to show it, before the loop concludes the way does not work.
const UNPROVEN_WAIT: Duration = Duration::from_millis(2500);
/// How many times a move that has not shown is made again (a way that worked before), after the first try.
pub const RETRIES: usize = 3;
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

    /// How long wait number `attempt` (0 for the first) for a move lasts: three times the slowest response
    /// seen, doubled at each attempt, within [`LEAST_PATIENCE`] and [`MOST_PATIENCE`]; a way of making moves
    /// that has not worked yet (`proven` false) gets at least [`UNPROVEN_WAIT`] at first.
    pub fn wait(&self, attempt: usize, proven: bool) -> Duration {
        let scale = self.slowest().map_or(LEAST_PATIENCE, |slowest| slowest * 3).clamp(LEAST_PATIENCE, MOST_PATIENCE);
        let wait = (scale * (1u32 << attempt.min(4))).min(MOST_PATIENCE);
        if proven {
            wait
        } else {
            wait.max(UNPROVEN_WAIT)
        }
    }

    /// How long a board that is neither the expected one nor the one before the move must hold still before
    /// the loop acts on it: a client that repaints late, or part by part, may pause in between. Twice the
    /// slowest response seen, at least half a second.
    pub fn doubt(&self) -> Duration {
        self.slowest().map_or(Duration::ZERO, |slowest| slowest * 2).max(Duration::from_millis(500)).min(MOST_PATIENCE)
    }

    /// How long to wait for the game window to take the input focus before typing.
    pub fn focus_bound(&self) -> Duration {
        (self.wait(0, true) * 2).max(Duration::from_secs(3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_with_the_clients_slowest_response_and_stay_bounded() {
        let mut pace = Pace::default();
        assert_eq!(pace.wait(0, true), LEAST_PATIENCE);
        assert_eq!(pace.wait(0, false), UNPROVEN_WAIT);
        assert_eq!(pace.wait(1, true), LEAST_PATIENCE * 2);
        pace.showed_after(Duration::from_millis(50));
        assert_eq!(pace.wait(0, true), LEAST_PATIENCE, "a fast client gets the least patience");
        pace.showed_after(Duration::from_millis(900));
        assert_eq!(pace.wait(0, true), Duration::from_millis(2700), "three times the slowest response");
        assert_eq!(pace.wait(1, true), MOST_PATIENCE);
        assert_eq!(pace.wait(9, true), MOST_PATIENCE);
        assert_eq!(pace.doubt(), Duration::from_millis(1800));
        assert!(pace.focus_bound() >= Duration::from_secs(3));
    }
}
