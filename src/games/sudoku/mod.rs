//! Sudoku: grids of any box shape up to 16×16 ([`board`]), a fast 9×9 solver and a general one, solution
//! counting ([`solver`]), a grid in play with its givens told from the player's digits ([`position`]), and the
//! `solve sudoku` command. Reading a grid from a window (sgt-solo, GNOME Sudoku and other
//! clients) and playing it there is its clients' (`clients::sudoku`).

pub(crate) mod board;
mod commands;
pub mod position;
pub mod solver;
pub mod symmetry;
#[cfg(test)]
mod tests;

use anyhow::{bail, Result};

pub use board::{
    check_solution, default_box_shape, parse_box_shape, symbol, symbol_value, Clash, Grid, House, SudokuError, MAX_SIZE,
};
pub use commands::{batch_command, solve_command, BatchSummary, HARD_PUZZLES};
pub use position::SudokuGrid;
pub use solver::solver9::{self, Engine};
pub use solver::{
    analyse, count_solutions, for_each_solution, for_each_solution_with, sample_solution, solve, Analysis,
};

use crate::game::{Game, Plan, SolveLimits};

/// Sudoku's rules on a grid whose givens are known: the grid's text, its solver, an entry's result and the end.
/// (Reading a grid from a picture is its clients': `clients::sudoku`.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Sudoku;

/// One entry: put `value` (1..=N) into the cell at `row`, `col` (0-based), replacing what the player put there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub row: usize,
    pub col: usize,
    pub value: u8,
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "r{}c{}={}", self.row + 1, self.col + 1, symbol(self.value))
    }
}

/// The solution of a grid's givens (the player's entries are not trusted).
pub fn solve_givens(grid: &SudokuGrid) -> Result<Vec<u8>> {
    let puzzle = grid.givens_grid()?;
    match solve(&puzzle) {
        Some(solution) => Ok(solution.cells().to_vec()),
        None => bail!("the givens have no solution"),
    }
}

impl Game for Sudoku {
    type Board = SudokuGrid;
    type Move = Entry;

    fn name(&self) -> &'static str {
        "sudoku"
    }

    /// Board text (or any text form of a grid): every digit in it is a given.
    fn parse_board(&self, text: &str) -> Result<SudokuGrid> {
        SudokuGrid::parse_givens(text)
    }

    /// Every cell whose digit differs from the solution of the givens, in reading order. The number of entries
    /// is forced, so the plan is optimal.
    fn solve(&self, board: &SudokuGrid, _limits: &SolveLimits) -> Result<Plan<Entry>> {
        let solution = solve_givens(board)?;
        let moves = (0..board.cells.len())
            .filter(|&i| board.cells[i] != solution[i])
            .map(|i| Entry { row: i / board.size, col: i % board.size, value: solution[i] })
            .collect();
        Ok(Plan { moves, optimal: true, nodes: 0 })
    }

    fn apply(&self, board: &SudokuGrid, mv: &Entry) -> SudokuGrid {
        let mut next = board.clone();
        let i = mv.row * board.size + mv.col;
        next.cells[i] = mv.value;
        next.given[i] = false;
        next
    }

    fn is_won(&self, board: &SudokuGrid) -> bool {
        board.cells.iter().all(|&v| v != 0) && board.clashes().is_empty()
    }
}

#[cfg(test)]
mod play_tests {
    use super::*;

    fn grid(text: &str, givens: &str) -> SudokuGrid {
        let mut grid = SudokuGrid::parse_givens(givens).unwrap();
        let entered: String =
            text.chars().zip(givens.chars()).map(|(t, g)| if t == g && t != '\n' { '.' } else { t }).collect();
        grid.enter(&entered).unwrap();
        grid
    }

    #[test]
    fn plans_the_missing_and_the_wrong_entries_only() {
        // Givens leave one solution; the player put a wrong 4 at r1c2 and a right 2 at r4c4.
        let board = grid("14..\n..1.\n.1..\n...2\n", "1...\n..1.\n.1..\n....\n");
        let game = Sudoku;
        let solution = solve_givens(&board).unwrap();
        let plan = game.solve(&board, &SolveLimits::default()).unwrap();
        let mut after = board.clone();
        for mv in &plan.moves {
            after = game.apply(&after, mv);
        }
        assert_eq!(after.cells, solution);
        assert!(game.is_won(&after));
        assert!(plan.moves.iter().any(|m| (m.row, m.col) == (0, 1)), "the wrong 4 is corrected");
        assert!(!plan.moves.iter().any(|m| (m.row, m.col) == (3, 3) && solution[15] == 2), "a right entry is kept");
        assert!(!game.is_won(&board));
    }
}
