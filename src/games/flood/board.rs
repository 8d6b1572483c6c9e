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
    /// The cell the flood grows from, as a row-major index: 0 (the top-left corner, as in sgt-flood) unless the
    /// board text says otherwise with a `start: ROW,COLUMN` line (from 1) or `start: centre`.
    pub start: usize,
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
    #[error(
        "line {line}: '{text}' is not a start cell (write `start: ROW,COLUMN`, counting from 1, or `start: centre`)"
    )]
    BadStart { line: usize, text: String },
    #[error("line {line}: the start cell (row {row}, column {col}) is outside the {width}×{height} board")]
    StartOutside { line: usize, row: usize, col: usize, width: usize, height: usize },
}

/// Where the board text puts the flood's start.
enum Start {
    Centre,
    /// Row and column, from 1.
    Cell(usize, usize),
}

fn parse_start(value: &str, line: usize) -> Result<Start, BoardError> {
    let bad = || BoardError::BadStart { line, text: value.to_string() };
    if value.eq_ignore_ascii_case("centre") || value.eq_ignore_ascii_case("center") {
        return Ok(Start::Centre);
    }
    let (row, col) = value.split_once(',').ok_or_else(bad)?;
    let number = |t: &str| t.trim().parse::<usize>().ok().filter(|&n| n >= 1).ok_or_else(bad);
    Ok(Start::Cell(number(row)?, number(col)?))
}

impl FloodBoard {
    pub fn parse(text: &str) -> Result<Self, BoardError> {
        let mut width = 0;
        let mut height = 0;
        let mut cells = Vec::new();
        let mut start = None;
        for (index, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if let Some(value) = trimmed.strip_prefix("start:") {
                start = Some((parse_start(value.trim(), index + 1)?, index + 1));
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
        let start = match start {
            None => 0,
            Some((Start::Centre, _)) => centre_cell(width, height),
            Some((Start::Cell(row, col), line)) => {
                if row > height || col > width {
                    return Err(BoardError::StartOutside { line, row, col, width, height });
                }
                (row - 1) * width + col - 1
            }
        };
        let board = FloodBoard { width, height, cells, start };
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

/// The centre cell of a board, as a row-major index: the middle cell; of the middle cells of an even side, the
/// top-left one.
pub fn centre_cell(width: usize, height: usize) -> usize {
    height.saturating_sub(1) / 2 * width + width.saturating_sub(1) / 2
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
        if self.start != 0 {
            writeln!(f, "start: {},{}", self.start / self.width + 1, self.start % self.width + 1)?;
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
        assert_eq!(
            FloodBoard::parse("RG\nGR\nstart: 3,1\n").unwrap_err(),
            BoardError::StartOutside { line: 3, row: 3, col: 1, width: 2, height: 2 }
        );
        for bad in ["start: 0,1", "start: 1", "start: middle", "start: 1,x"] {
            let err = FloodBoard::parse(&format!("RG\nGR\n{bad}\n")).unwrap_err();
            assert!(matches!(err, BoardError::BadStart { line: 3, .. }), "{bad}: {err:?}");
        }
    }

    #[test]
    fn a_start_cell_is_read_and_written_back() {
        let board = FloodBoard::parse("RGB\nBGR\nYYR\nstart: 2,3\n").unwrap();
        assert_eq!(board.start, 5);
        assert_eq!(board.to_string(), "RGB\nBGR\nYYR\nstart: 2,3\n");
        assert_eq!(FloodBoard::parse(&board.to_string()).unwrap(), board);
        assert_eq!(FloodBoard::parse("start: centre\nRGBYR\nRGBYR\nRGBYR\n").unwrap().start, 7);
        assert_eq!(FloodBoard::parse("RGBY\nRGBY\nRGBY\nRGBY\nstart: center\n").unwrap().start, 5);
        assert_eq!(FloodBoard::parse("RG\nGR\n").unwrap().start, 0);
    }
}
