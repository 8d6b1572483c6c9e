//! Every wait of the play loop: one bounded, named check, tried again until it holds or its bound has passed.
//!
//! A [`Wait`] has a name (what it waits for: "the board to hold still", "the pointer to reach (x, y)"), a bound,
//! the pause between two tries, and the order a round takes its steps in. Each try says whether the state waited
//! for [`Try::Holds`] (with what it found) or what it still [`Try::Lacks`], in words; when the bound passes, the
//! wait ends in [`TimedOut`], which names the wait, its bound, how many tries were made and the state last lacked.
//! The clock and the pause are the frame source's, so a recorded game replays every wait exactly, and a round
//! reads the clock at most once for its bound ([`Round::clock`]), reusing the try's own reading where it made one.
//!
//! The order of a round follows what the wait watches: a try on the desktop (the pointer, the focus) is made at
//! once and paused after ([`First::Try`]); a try on the picture pauses first, since the window was just
//! captured ([`First::Pause`]); a wait whose start was set by its caller checks its bound before it pauses
//! ([`First::Clock`]).

use std::time::Duration;

use anyhow::Result;

use crate::capture::FrameSource;

/// What one try found.
pub enum Try<T> {
    /// The state waited for holds: what was found.
    Holds(T),
    /// It does not yet: what it lacks, in words ("at (3, 4), not (10, 12)").
    Lacks(String),
}

/// What a round does first, which sets the order of its steps: the try, the look at the clock for the bound, and
/// the pause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// Try, check the bound, pause.
    Try,
    /// Pause, try, check the bound.
    Pause,
    /// Check the bound, pause, try.
    Clock,
}

/// One bounded wait.
#[derive(Clone, Debug)]
pub struct Wait {
    pub name: String,
    pub bound: Duration,
    pub pause: Duration,
    pub first: First,
}

/// A wait whose bound passed before the state it waited for held.
#[derive(Debug, thiserror::Error)]
#[error("{name}: not so after {:.1} s and {tries} tries ({lacked})", bound.as_secs_f64())]
pub struct TimedOut {
    pub name: String,
    pub bound: Duration,
    pub tries: usize,
    /// What the last try found lacking.
    pub lacked: String,
}

/// One round of a wait, as its try sees it: the frame source, and the round's look at the clock.
pub struct Round<'s> {
    pub source: &'s mut dyn FrameSource,
    /// The number of this round, from 0.
    pub number: usize,
    now: Option<Duration>,
}

impl Round<'_> {
    /// The time of this round: read from the source's clock the first time it is asked in the round, then the
    /// same (a try that reads the clock for its own use leaves the reading for the bound).
    pub fn clock(&mut self) -> Duration {
        *self.now.get_or_insert_with(|| self.source.now())
    }
}

impl Wait {
    pub fn new(name: impl Into<String>, bound: Duration, pause: Duration, first: First) -> Wait {
        Wait { name: name.into(), bound, pause, first }
    }

    /// Tries `attempt` until it holds (its value) or `bound` has passed since `start` on the source's clock
    /// ([`TimedOut`]). An error of a try ends the wait at once.
    pub fn run<T>(
        &self,
        source: &mut dyn FrameSource,
        start: Duration,
        mut attempt: impl FnMut(&mut Round<'_>) -> Result<Try<T>>,
    ) -> Result<Result<T, TimedOut>> {
        let mut lacked = String::new();
        for number in 0.. {
            let mut round = Round { source: &mut *source, number, now: None };
            if self.first == First::Clock && self.passed(&mut round, start) {
                return Ok(Err(self.timed_out(number, lacked)));
            }
            if self.first != First::Try {
                round.source.sleep(self.pause);
            }
            match attempt(&mut round)? {
                Try::Holds(value) => return Ok(Ok(value)),
                Try::Lacks(what) => lacked = what,
            }
            if self.first != First::Clock && self.passed(&mut round, start) {
                return Ok(Err(self.timed_out(number + 1, lacked)));
            }
            if self.first == First::Try {
                round.source.sleep(self.pause);
            }
        }
        unreachable!("a wait ends by its bound")
    }

    fn passed(&self, round: &mut Round<'_>, start: Duration) -> bool {
        round.clock().saturating_sub(start) >= self.bound
    }

    fn timed_out(&self, tries: usize, lacked: String) -> TimedOut {
        TimedOut { name: self.name.clone(), bound: self.bound, tries, lacked }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Frame;

    /// A clock that moves only when slept on, and counts the calls.
    #[derive(Default)]
    struct Clock {
        now: Duration,
        calls: Vec<&'static str>,
    }

    impl FrameSource for Clock {
        fn grab(&mut self) -> Result<Frame> {
            unreachable!()
        }
        fn describe(&self) -> String {
            "clock".into()
        }
        fn now(&mut self) -> Duration {
            self.calls.push("now");
            self.now
        }
        fn sleep(&mut self, duration: Duration) {
            self.calls.push("sleep");
            self.now += duration;
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_wait_ends_when_its_check_holds_or_names_what_it_lacked_at_its_bound() {
        let mut clock = Clock::default();
        let wait = Wait::new("the count to reach 3", ms(100), ms(10), First::Try);
        let mut count = 0;
        let found = wait
            .run(&mut clock, Duration::ZERO, |_| {
                count += 1;
                Ok(if count == 3 { Try::Holds(count) } else { Try::Lacks(format!("at {count}")) })
            })
            .unwrap();
        assert_eq!(found.unwrap(), 3);
        assert_eq!(clock.calls, ["now", "sleep", "now", "sleep"]);

        let mut clock = Clock::default();
        let never = wait.run(&mut clock, Duration::ZERO, |_| Ok(Try::<()>::Lacks("not yet".into()))).unwrap();
        let error = never.unwrap_err().to_string();
        assert_eq!(error, "the count to reach 3: not so after 0.1 s and 11 tries (not yet)");
    }

    /// The three orders of a round, and a try that reads the clock itself leaves that reading for the bound.
    #[test]
    fn each_order_takes_its_steps_in_turn_and_the_clock_is_read_once_a_round() {
        for (first, calls) in [
            (First::Try, vec!["now", "sleep", "now"]),
            (First::Pause, vec!["sleep", "now", "sleep", "now"]),
            (First::Clock, vec!["now", "sleep", "now", "sleep"]),
        ] {
            let mut clock = Clock::default();
            let wait = Wait::new("two rounds", ms(100), ms(10), first);
            wait.run(&mut clock, Duration::ZERO, |round| {
                round.clock();
                Ok(if round.number == 1 { Try::Holds(()) } else { Try::Lacks(String::new()) })
            })
            .unwrap()
            .unwrap();
            assert_eq!(clock.calls, calls, "{first:?}");
        }
    }
}
