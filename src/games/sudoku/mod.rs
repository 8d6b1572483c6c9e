//! Sudoku: grids of any box shape up to 16×16, a fast 9×9 solver, solution counting,
//! and the `solve sudoku` / `bench sudoku` commands.

mod board;
mod commands;
mod generic;
mod solve;
pub mod screen;
pub mod solver9;
#[cfg(test)]
mod tests;

pub use board::{check_solution, default_box_shape, parse_box_shape, symbol, Clash, Grid, House, SudokuError, MAX_SIZE};
pub use commands::{batch_command, bench_command, solve_command, BatchSummary, HARD_PUZZLES};
pub use solve::{analyse, count_solutions, for_each_solution, for_each_solution_with, sample_solution, solve, Analysis};
pub use solver9::Engine;
