//! A Sudoku grid in play: each cell empty or a digit, and whether a digit is a given (printed by the game) or
//! entered by the player. This is the board the bot reads and plays; its text form is the grid's board text
//! ([`Grid::parse`]: N lines of N symbols, `.` empty, `1`–`9` then `A`–`G`) with every digit shown, a blank
//! line, then the givens alone.

use std::fmt;

use anyhow::{bail, Context, Result};

use super::board::{symbol, Grid};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SudokuGrid {
    pub size: usize,
    pub box_rows: usize,
    pub box_cols: usize,
    /// Row-major values: 0 empty, else 1..=size.
    pub cells: Vec<u8>,
    /// Row-major: the cell's value was given by the game (false for empty and player-entered cells).
    pub given: Vec<bool>,
}

impl SudokuGrid {
    pub fn empty(box_rows: usize, box_cols: usize) -> Self {
        let size = box_rows * box_cols;
        SudokuGrid { size, box_rows, box_cols, cells: vec![0; size * size], given: vec![false; size * size] }
    }

    /// A grid whose every digit is a given.
    pub fn from_givens(givens: &Grid) -> Self {
        let (box_rows, box_cols) = givens.box_shape();
        let cells = givens.cells().to_vec();
        SudokuGrid { size: givens.size(), box_rows, box_cols, given: cells.iter().map(|&v| v != 0).collect(), cells }
    }

    /// The givens from any text form of a grid ([`Grid::parse`]: board text, one line, or an sgt-solo game ID).
    pub fn parse_givens(text: &str) -> Result<Self> {
        Ok(SudokuGrid::from_givens(&Grid::parse(text, None)?))
    }

    /// Adds the player's digits, given as board text of the same grid (empty cells left as they are); a digit
    /// over a given is an error.
    pub fn enter(&mut self, text: &str) -> Result<()> {
        let entered = Grid::parse(text, Some((self.box_rows, self.box_cols))).context("the player's digits")?;
        if entered.size() != self.size {
            bail!("the player's digits are a {0}×{0} grid, the givens {1}×{1}", entered.size(), self.size);
        }
        for (i, &v) in entered.cells().iter().enumerate() {
            if v != 0 {
                if self.given[i] {
                    bail!(
                        "cell (row {}, column {}) is a given and cannot hold a player's digit",
                        i / self.size + 1,
                        i % self.size + 1
                    );
                }
                self.cells[i] = v;
            }
        }
        Ok(())
    }

    fn text(&self, keep: impl Fn(usize) -> bool) -> String {
        let mut out = String::with_capacity(self.size * (self.size + 1));
        for r in 0..self.size {
            for c in 0..self.size {
                let i = r * self.size + c;
                out.push(symbol(if keep(i) { self.cells[i] } else { 0 }));
            }
            out.push('\n');
        }
        out
    }

    /// Board text of every digit shown.
    pub fn board_text(&self) -> String {
        self.text(|_| true)
    }
    /// Board text of the givens only.
    pub fn givens_text(&self) -> String {
        self.text(|i| self.given[i])
    }
    /// Board text of the player's digits only.
    pub fn entered_text(&self) -> String {
        self.text(|i| !self.given[i])
    }

    /// The givens alone as a grid (the player's digits left out); an error where they clash.
    pub fn givens_grid(&self) -> Result<Grid> {
        let givens: Vec<u8> = self.cells.iter().zip(&self.given).map(|(&v, &g)| if g { v } else { 0 }).collect();
        Grid::from_cells(self.box_rows, self.box_cols, givens).context("the givens are not a valid grid")
    }

    /// Cells (row, column) whose digit repeats in its row, column or box: the clashes the game marks.
    pub fn clashes(&self) -> Vec<(usize, usize)> {
        let n = self.size;
        let at = |r: usize, c: usize| self.cells[r * n + c];
        let mut found = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let v = at(r, c);
                if v == 0 {
                    continue;
                }
                let (br, bc) = (r / self.box_rows * self.box_rows, c / self.box_cols * self.box_cols);
                let clash = (0..n).any(|k| (k != c && at(r, k) == v) || (k != r && at(k, c) == v))
                    || (br..br + self.box_rows)
                        .any(|rr| (bc..bc + self.box_cols).any(|cc| (rr, cc) != (r, c) && at(rr, cc) == v));
                if clash {
                    found.push((r, c));
                }
            }
        }
        found
    }
}

/// The full grid, a blank line, then the givens only.
impl fmt::Display for SudokuGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n{}", self.board_text(), self.givens_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_full_grid_then_the_givens_and_finds_clashes() {
        let mut g = SudokuGrid::empty(2, 2);
        g.cells[0] = 1;
        g.given[0] = true;
        g.cells[1] = 1;
        g.cells[5] = 3;
        assert_eq!(g.to_string(), "11..\n.3..\n....\n....\n\n1...\n....\n....\n....\n");
        assert_eq!(g.clashes(), vec![(0, 0), (0, 1)]);
    }

    #[test]
    fn givens_and_the_players_digits_are_parsed_apart() {
        let mut g = SudokuGrid::parse_givens("1...\n....\n....\n....\n").unwrap();
        g.enter(".1..\n.3..\n....\n....\n").unwrap();
        assert_eq!(g.board_text(), "11..\n.3..\n....\n....\n");
        assert_eq!(g.givens_text(), "1...\n....\n....\n....\n");
        assert!(g.clone().enter("1...\n....\n....\n....\n").unwrap_err().to_string().contains("is a given"));
        assert!(g.clone().enter("11..\n.3..\n....\n").is_err(), "a row short");
        assert!(g.clone().enter("15..\n.3..\n....\n....\n").is_err(), "5 in a 4×4 grid");
        let from_id = SudokuGrid::parse_givens("2x2:e3a4_4a1e").unwrap();
        assert_eq!(from_id.board_text(), "....\n.3.4\n4.1.\n....\n");
    }
}
