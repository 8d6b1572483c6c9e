//! Two-player Sudoku (CodeCup 2024 rules): the rules and move notation, a player speaking
//! the referee protocol (the seed engine, or random legal moves), an exact endgame solver,
//! a referee running two player programs against each other, and a benchmark.
//!
//! Two players alternately write a digit into an empty cell of an initially empty 9×9
//! board. A move that leaves no solution loses; so does a forced digit (one every remaining
//! solution has in that cell). A move may carry `!`, the claim that exactly one solution is
//! left: true wins, false loses.
//!
//! The engine: random legal moves while fewer than 15 digits stand; then, as long as the
//! solutions cannot be listed (20,000 or more), the move kept by the most of about 100,000
//! sampled solutions, after checking that the endgame it leaves (when listable) is not
//! provably lost; once listable, the exact endgame ([`solve_endgame`]).

mod bench;
mod bot;
pub mod cli;
mod endgame;
mod game;
mod referee;
#[cfg(test)]
mod tests;

use super::sudoku;

pub use bench::{bench_command, benchmark_endgames, endgame_positions, EndgameSet};
pub use bot::{duel_command, DuelOptions, SEED_VAR};
pub use endgame::{solve_endgame, EndgameResult};
pub use game::{judge, judge_turn, possible_digits, Board, Candidates, Move, MoveError, Reason, Ruling, Turn, CELLS};
pub use referee::{referee_command, TIME_LIMIT};
