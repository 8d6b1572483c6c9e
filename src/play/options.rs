//! What the loop is asked to do ([`PlayOptions`]) and what a game of play came to ([`PlayReport`]).

use std::time::Duration;

use serde::Serialize;

use crate::capture::Settle;

#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Send the events to `input` without waiting for the window: the board is advanced by the game's rules,
    /// not re-read. Use with a recording input device to print what would be done.
    pub dry_run: bool,
    /// Stop with an error after this many moves.
    pub max_moves: usize,
    /// Time allowed for each solve (the best plan found by then is used).
    pub solve_time: Option<Duration>,
    /// A pause after each move, for people watching.
    pub move_delay: Duration,
    /// How to settle before the first reading and after the winning move; between moves the game's own
    /// [`crate::game::Client::settle`] is used.
    pub settle: Settle,
    /// Keep what the game learns about the client (a way of making moves) in the calibration that read the board
    /// (`play --learn`). Without it, play writes no calibration.
    pub learn: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            dry_run: false,
            max_moves: 1000,
            solve_time: None,
            move_delay: Duration::ZERO,
            settle: Settle::default(),
            learn: false,
        }
    }
}

/// What a game of play came to.
#[derive(Clone, Debug, Serialize)]
pub struct PlayReport {
    pub won: bool,
    pub moves: usize,
    /// How many times the board differed from the expected one, so that the loop planned again.
    pub replans: usize,
    /// Length of the first plan, and whether it was proven optimal.
    pub planned_moves: usize,
    pub plan_optimal: bool,
    pub final_board: String,
    /// From the start until the last move's input was sent, and until the win was confirmed.
    pub last_move_millis: u128,
    pub millis: u128,
    /// The source's clock when the loop started, right before its first capture of the game's window: on a live
    /// window, the time since the program started (what starting costs before the bot looks).
    pub first_capture_millis: u128,
}
