//! One folder per game, each holding its board, rules and solver behind [`crate::game::Game`]; how a game looks in a
//! window is its front end's, in [`crate::clients`].

pub mod cribbage;
pub mod dandelions;
pub mod flood;
pub mod lunar;
pub mod sudoku;
pub mod sudoku_duel;
