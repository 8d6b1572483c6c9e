//! The Flood-It board and its text form: one line per row, one non-blank character per cell (a colour symbol),
//! no header; lines starting with `#` are comments, blank lines are skipped, spaces between cells are allowed.

use std::fmt;

use thiserror::Error;

/// A Flood-It board. Each cell holds its colour's symbol (a printable ASCII byte), so boards read from
/// different sources compare directly.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FloodBoard {
    pub width: usize,
    pub height: usize,
    /// Row-major colour symbols.
    pub cells: Vec<u8>,
}

/// The most colours a board may have.
pub const MAX_COLOURS: usize = 32;

/// The most cells a board may have (for example 100×100): larger boards are refused rather than searched for
/// minutes with memory growing.
pub const MAX_CELLS: usize = 10_000;

#[derive(Debug, Error, PartialEq)]
pub enum BoardError {
    #[error("the board text has no rows")]
    Empty,
    #[error("line {line}: '{symbol}' is not a colour symbol (use printable ASCII characters other than '#')")]
    BadSymbol { line: usize, symbol: char },
    #[error("line {line}: the row has {found} cells but the first row has {expected}; rows must be equally long")]
    Ragged { line: usize, found: usize, expected: usize },
    #[error("the board has {0} colours; at most {MAX_COLOURS} are supported")]
    TooManyColours(usize),
    #[error("the board has more than {MAX_CELLS} cells (line {line}); at most {MAX_CELLS} are supported, for example 100×100")]
    TooLarge { line: usize },
}

impl FloodBoard {
    pub fn parse(text: &str) -> Result<Self, BoardError> {
        let mut width = 0;
        let mut height = 0;
        let mut cells = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let before = cells.len();
            for symbol in trimmed.chars().filter(|c| !c.is_whitespace()) {
                if !symbol.is_ascii_graphic() || symbol == '#' {
                    return Err(BoardError::BadSymbol { line: index + 1, symbol });
                }
                cells.push(symbol as u8);
                if cells.len() > MAX_CELLS {
                    return Err(BoardError::TooLarge { line: index + 1 });
                }
            }
            let found = cells.len() - before;
            if height == 0 {
                width = found;
            } else if found != width {
                return Err(BoardError::Ragged { line: index + 1, found, expected: width });
            }
            height += 1;
        }
        if height == 0 {
            return Err(BoardError::Empty);
        }
        let board = FloodBoard { width, height, cells };
        let colours = board.colours().len();
        if colours > MAX_COLOURS {
            return Err(BoardError::TooManyColours(colours));
        }
        Ok(board)
    }

    /// The distinct symbols on the board, sorted.
    pub fn colours(&self) -> Vec<u8> {
        let mut seen = self.cells.clone();
        seen.sort_unstable();
        seen.dedup();
        seen
    }

    pub fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.width + col]
    }
}

/// A seeded random board's cells (uniform colours `0..colours`; `colours == 0` is taken as 1), for benchmarks and
/// tests: the same seed gives the same board.
pub fn random_board(width: usize, height: usize, colours: u8, seed: u64) -> Vec<u8> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..width * height).map(|_| rng.random_range(0..colours.max(1))).collect()
}

impl fmt::Display for FloodBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.width) {
            writeln!(f, "{}", String::from_utf8_lossy(row))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_with_comments_blank_lines_and_spaces() {
        let board = FloodBoard::parse("# a comment\nRGB\n\nB G R\nYYR\n").unwrap();
        assert_eq!((board.width, board.height), (3, 3));
        assert_eq!(board.to_string(), "RGB\nBGR\nYYR\n");
        assert_eq!(board.colours(), b"BGRY".to_vec());
    }

    #[test]
    fn malformed_text_is_named() {
        assert_eq!(FloodBoard::parse("").unwrap_err(), BoardError::Empty);
        assert_eq!(FloodBoard::parse("# only\n\n").unwrap_err(), BoardError::Empty);
        assert_eq!(FloodBoard::parse("RGB\nRG\n").unwrap_err(), BoardError::Ragged { line: 2, found: 2, expected: 3 });
        assert_eq!(FloodBoard::parse("RG\nRé\n").unwrap_err(), BoardError::BadSymbol { line: 2, symbol: 'é' });
        let many: String = (b'!'..=b'~').filter(|&b| b != b'#').take(33).map(|b| b as char).collect();
        assert_eq!(FloodBoard::parse(&many).unwrap_err(), BoardError::TooManyColours(33));
    }
}
