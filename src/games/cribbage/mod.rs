//! Cribbage Solitaire (the Zachtronics variant): cards, numbered deals, the rules engine, an exact solver, the
//! position as the bot plays it ([`table`]). The table on the screen is its client's (`clients::cribbage`).

pub mod cards;
pub mod commands;
pub mod deal;
pub mod error;
pub mod rules;
pub mod solver;
#[cfg(test)]
mod solver_reference;
pub mod table;

pub use cards::{Card, Rank};
pub use commands::{deal_command, solve_command, SolveInput};
pub use deal::{deal, Deal};
pub use error::{CribbageError, IllegalMove};
pub use rules::{legal_moves, play, replay, score_line, score_line_from, top_card_points, Move, State};
pub use solver::{solve, Solution};
pub use table::{Cribbage, Table};
