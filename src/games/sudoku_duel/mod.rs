//! Two-player Sudoku (CodeCup 2024 rules): the rules and move notation, a player speaking
//! the referee protocol (the seed engine, or random legal moves), an exact endgame solver,
//! a referee running two player programs against each other, and a benchmark.
//!
//! Two players alternately write a digit into an empty cell of an initially empty 9×9
//! board. A move that leaves no solution loses; so does a forced digit (one every remaining
//! solution has in that cell). A move may carry `!`, the claim that exactly one solution is
//! left: true wins, false loses.
//!
//! The engine: random legal moves while fewer than 15 digits stand; then, while the solutions are too many for the
//! endgame (65,536 or more), the middle game: below about a million solutions they are all listed, a move that
//! leaves one solution is claimed, and each move leaving few enough for the endgame is solved for a win (fewest
//! first); failing that, or above a million (where about 100,000 sampled solutions stand in for the list), the move
//! kept by the most solutions, after checking that the endgame it leaves (when listable) is not provably lost. Once
//! listable, the exact endgame ([`solve_endgame`]).
//!
//! The clock: each move may spend a third of the thinking time left (less a 3 s reserve for what the player's own
//! count cannot see: process start, pipes, scheduling), by its own count from each line read to its answer
//! written; a search stops at its deadline and the move falls back on what is known. So the time goes where the
//! game is decided, the first exact moves, and each move after them is quicker.

pub(crate) mod bot;
mod endgame;
mod game;
pub(crate) mod referee;
#[cfg(test)]
mod tests;

use super::sudoku;

pub use bot::{duel_command, DuelOptions, SEED_VAR};
pub use endgame::{solve_endgame, EndgameResult};
pub use game::{judge, judge_turn, possible_digits, Board, Candidates, Move, MoveError, Reason, Ruling, Turn, CELLS};
pub use referee::{referee_command, MatchOptions, TIME_LIMIT};
