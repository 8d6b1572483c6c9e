//! A Sudoku grid as read from the screen: each cell empty or a symbol, and whether a symbol is a given (printed
//! by the game) or entered by the player. Board text: N lines of N symbols, `.` empty, `1`–`9` then `A`–`G`.

use std::fmt;

use anyhow::{bail, Result};

/// The board-text symbol of a cell value (0 empty, 1..=16).
pub fn symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a board-text symbol (`.`, `0` and `_` are empty; letters in either case).
pub fn value(symbol: char) -> Option<u8> {
    match symbol {
        '.' | '0' | '_' => Some(0),
        '1'..='9' => Some(symbol as u8 - b'0'),
        'A'..='G' => Some(symbol as u8 - b'A' + 10),
        'a'..='g' => Some(symbol as u8 - b'a' + 10),
        _ => None,
    }
}

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
                    || (br..br + self.box_rows).any(|rr| (bc..bc + self.box_cols).any(|cc| (rr, cc) != (r, c) && at(rr, cc) == v));
                if clash {
                    found.push((r, c));
                }
            }
        }
        found
    }
}

/// Parses board text of `size` lines of `size` symbols (blank lines and `#` comment lines are skipped).
pub fn parse_board_text(text: &str, size: usize) -> Result<Vec<u8>> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    if lines.len() != size {
        bail!("expected {size} lines of board text, found {}", lines.len());
    }
    let mut cells = Vec::with_capacity(size * size);
    for (r, line) in lines.iter().enumerate() {
        let row: Vec<char> = line.chars().collect();
        if row.len() != size {
            bail!("line {} has {} symbols, expected {size}", r + 1, row.len());
        }
        for (c, &s) in row.iter().enumerate() {
            match value(s) {
                Some(v) if (v as usize) <= size => cells.push(v),
                _ => bail!("line {}, column {}: '{s}' is not a symbol of a {size}×{size} Sudoku", r + 1, c + 1),
            }
        }
    }
    Ok(cells)
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
    fn symbols_round_trip() {
        for v in 0..=16 {
            assert_eq!(value(symbol(v)), Some(v));
        }
        assert_eq!(symbol(10), 'A');
        assert_eq!(symbol(16), 'G');
        assert_eq!(value('x'), None);
    }

    #[test]
    fn prints_the_full_grid_then_the_givens_and_finds_clashes() {
        let mut g = SudokuGrid::empty(2, 2);
        g.cells[0] = 1;
        g.given[0] = true;
        g.cells[1] = 1;
        g.cells[5] = 3;
        assert_eq!(g.to_string(), "11..\n.3..\n....\n....\n\n1...\n....\n....\n....\n");
        assert_eq!(g.clashes(), vec![(0, 0), (0, 1)]);
        assert_eq!(parse_board_text("11..\n.3..\n....\n....\n", 4).unwrap(), g.cells);
        assert!(parse_board_text("11..\n.3..\n....\n", 4).is_err());
        assert!(parse_board_text("15..\n.3..\n....\n....\n", 4).is_err());
    }
}
