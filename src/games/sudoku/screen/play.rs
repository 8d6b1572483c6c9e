//! Sudoku behind the [`Game`] interface: the board read from sgt-solo, solved from its givens, and each missing
//! or wrong digit entered by clicking its cell and typing the digit.

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::board::{parse_board_text, symbol, SudokuGrid};
use super::theme::SudokuTheme;
use std::time::Duration;

use crate::capture::Settle;
use crate::game::{Action, CellLayout, Game, Plan, Reading, SolveLimits};
use crate::games::sudoku;

/// Sudoku with the calibration themes its reader may use.
pub struct Sudoku {
    pub themes: Vec<SudokuTheme>,
}

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

/// The key that enters a value in sgt-solo: the digit, or a lower-case letter from 10 on.
pub fn key_for(value: u8) -> char {
    symbol(value).to_ascii_lowercase()
}

/// The solution of a grid's givens (the player's entries are not trusted).
pub fn solve_givens(grid: &SudokuGrid) -> Result<Vec<u8>> {
    let givens: Vec<u8> = grid.cells.iter().zip(&grid.given).map(|(&v, &g)| if g { v } else { 0 }).collect();
    let puzzle = sudoku::Grid::from_cells(grid.box_rows, grid.box_cols, givens).context("the givens are not a valid grid")?;
    match sudoku::solve(&puzzle) {
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

    /// sgt-solo's window, else GNOME Sudoku's.
    fn window_titles(&self) -> &'static [&'static str] {
        &["Solo", "Sudoku"]
    }

    /// sgt-solo and GNOME Sudoku draw an entry at once, without animation: an entry counts as made when two
    /// captures in a row show it (no longer quiet period).
    fn settle(&self) -> Settle {
        Settle { interval: Duration::from_millis(6), quiet: Duration::ZERO, after_click: Duration::from_millis(12), ..Settle::default() }
    }

    fn parse_board(&self, text: &str) -> Result<SudokuGrid> {
        let size = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).count();
        let (box_rows, box_cols) = sudoku::default_box_shape(size).with_context(|| format!("no box shape for a {size}×{size} grid"))?;
        let cells = parse_board_text(text, size)?;
        let given = cells.iter().map(|&v| v != 0).collect();
        Ok(SudokuGrid { size, box_rows, box_cols, cells, given })
    }

    fn read(&self, image: &RgbaImage, _hint: Option<&CellLayout>) -> Result<Reading<SudokuGrid>> {
        let reading = super::read(image, &self.themes)?;
        Ok(Reading { board: reading.grid, layout: reading.layout, theme: reading.theme })
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

    fn actions(&self, reading: &Reading<SudokuGrid>, mv: &Entry) -> Result<Vec<Action>> {
        if reading.board.given[mv.row * reading.board.size + mv.col] {
            bail!("cell {mv} holds a given, which cannot be changed");
        }
        let (x, y) = reading.layout.centre(mv.row, mv.col);
        Ok(vec![Action::Click { x, y }, Action::Type(key_for(mv.value))])
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
mod tests {
    use super::*;

    fn grid(text: &str, givens: &str) -> SudokuGrid {
        let cells = parse_board_text(text, 4).unwrap();
        let given = parse_board_text(givens, 4).unwrap().iter().map(|&v| v != 0).collect();
        SudokuGrid { size: 4, box_rows: 2, box_cols: 2, cells, given }
    }

    #[test]
    fn plans_the_missing_and_the_wrong_entries_only() {
        // Givens leave one solution; the player put a wrong 4 at r1c2 and a right 2 at r4c4.
        let board = grid("14..\n..1.\n.1..\n...2\n", "1...\n..1.\n.1..\n....\n");
        let game = Sudoku { themes: Vec::new() };
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

    #[test]
    fn keys_for_values_beyond_nine_are_letters() {
        assert_eq!(key_for(7), '7');
        assert_eq!(key_for(10), 'a');
        assert_eq!(key_for(16), 'g');
    }
}
