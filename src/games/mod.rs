//! One folder per game, each holding its board, reader, solver and actions behind [`crate::game::Game`].

pub mod cribbage;
pub mod dandelions;
pub mod flood;
pub mod lunar;
pub mod sudoku;
pub mod sudoku_duel;
