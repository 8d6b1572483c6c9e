//! Board geometry, cells, wind directions, moves and the packed one-integer state; `geometry` holds the
//! per-size tables (neighbours, spreads, symmetries), `position` the position and its text form.
//!
//! # Coordinates
//!
//! Cells are numbered row by row: cell `row * n + col`, row 0 at the top
//! (north), column 0 at the left (west). A bitboard is a `u64` whose bit
//! `row * n + col` stands for that cell (at most 6 × 6 = 36 bits).
//!
//! People name a cell either `c3` (column letter `a`, `b`, … from the left,
//! then row number `1`, `2`, … from the top) or `3,2` (row number, column
//! number, both counted from 1 at the top left). The board printed by the
//! game carries the same labels.

mod geometry;
mod position;

pub use geometry::{spread_on, transform_dir, transform_rc, Geometry};
pub use position::{CellContent, Position};

use std::fmt;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 2;
/// Largest supported board side (36 cells fit the bitboards; the key of the
/// transposition table needs 2·36 + 8 = 80 bits).
pub const MAX_SIZE: usize = 6;
/// The standard board side.
pub const STANDARD_SIZE: usize = 5;
/// Turns each side has in the standard game.
pub const STANDARD_TURNS: usize = 7;
/// At most 8 turns: the wind can use each of its 8 directions once.
pub const MAX_TURNS: usize = 8;

/// One of the eight compass directions the wind can blow in. North is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    /// All directions, clockwise from north; `Dir::ALL[d.index()] == d`.
    pub const ALL: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];

    /// Index 0..8, clockwise from north; bit `index` in a direction set.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction with this index (taken modulo 8).
    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i % 8]
    }

    /// Its name: `N`, `NE`, …
    pub fn name(self) -> &'static str {
        ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][self.index()]
    }

    /// `(row step, column step)` of one step in this direction.
    pub fn delta(self) -> (i32, i32) {
        [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)][self.index()]
    }

    /// The direction with this step, if any.
    pub fn from_delta(delta: (i32, i32)) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.delta() == delta)
    }

    /// Parses a name (`ne`, `NE`, …) or its long form (`north-east`, `northeast`).
    pub fn parse(text: &str) -> Option<Dir> {
        let t: String = text.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).collect::<String>().to_ascii_uppercase();
        let short = match t.as_str() {
            "NORTH" => "N",
            "NORTHEAST" => "NE",
            "EAST" => "E",
            "SOUTHEAST" => "SE",
            "SOUTH" => "S",
            "SOUTHWEST" => "SW",
            "WEST" => "W",
            "NORTHWEST" => "NW",
            other => other,
        };
        Dir::ALL.into_iter().find(|d| d.name() == short)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The directions of a set of direction bits (bit `d.index()`), in index order.
pub fn dirs_of(set: u8) -> Vec<Dir> {
    Dir::ALL.into_iter().filter(|d| set & (1 << d.index()) != 0).collect()
}

/// A cell, 0-based, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    pub fn new(row: usize, col: usize) -> Cell {
        Cell { row: row as u8, col: col as u8 }
    }

    /// Bit index on a board of side `n`.
    pub fn index(self, n: usize) -> usize {
        self.row as usize * n + self.col as usize
    }

    /// The cell of bit index `i` on a board of side `n`.
    pub fn from_index(i: usize, n: usize) -> Cell {
        Cell::new(i / n, i % n)
    }

    /// Parses `c3` (column letter, row number from the top) or `3,2`
    /// (row, column, counted from 1) on a board of side `n`.
    pub fn parse(text: &str, n: usize) -> Option<Cell> {
        let t = text.trim();
        let pair = t.split_once(',').or_else(|| t.split_once(char::is_whitespace));
        let (row, col) = if let Some((r, c)) = pair {
            let r: usize = r.trim().parse().ok()?;
            let c: usize = c.trim().parse().ok()?;
            (r.checked_sub(1)?, c.checked_sub(1)?)
        } else {
            let mut chars = t.chars();
            let letter = chars.next()?.to_ascii_lowercase();
            if !letter.is_ascii_lowercase() {
                return None;
            }
            let r: usize = chars.as_str().parse().ok()?;
            (r.checked_sub(1)?, (letter as u8 - b'a') as usize)
        };
        (row < n && col < n).then(|| Cell::new(row, col))
    }
}

impl fmt::Display for Cell {
    /// `c3`: column letter, then row number counted from 1 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

/// A move: the dandelions place a flower, or the wind blows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Cell),
    Blow(Dir),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(c) => write!(f, "{c}"),
            Move::Blow(d) => write!(f, "{d}"),
        }
    }
}

/// The whole game state in one integer.
///
/// | bits    | field                                                   |
/// |---------|---------------------------------------------------------|
/// | 0..36   | seeds: every seeded cell (flower cells included)         |
/// | 36..72  | flowers                                                  |
/// | 72..80  | wind directions still available (bit `Dir::index`)       |
/// | 80..85  | plies played (flowers placed + winds blown)              |
///
/// The ply count is redundant (it follows from the other fields) but makes
/// whose turn it is readable at once: the dandelions move on even plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State(pub u128);

impl State {
    const FIELD: u128 = (1 << 36) - 1;
    const FLOWERS: u32 = 36;
    const WINDS: u32 = 72;
    const PLY: u32 = 80;

    /// Packs a state. `seeds` must include the flower cells.
    pub fn new(seeds: u64, flowers: u64, winds_left: u8) -> State {
        let ply = flowers.count_ones() + (8 - winds_left.count_ones());
        State(
            seeds as u128
                | (flowers as u128) << Self::FLOWERS
                | (winds_left as u128) << Self::WINDS
                | (ply as u128) << Self::PLY,
        )
    }

    /// Every seeded cell, flower cells included.
    pub fn seeds(self) -> u64 {
        (self.0 & Self::FIELD) as u64
    }

    pub fn flowers(self) -> u64 {
        ((self.0 >> Self::FLOWERS) & Self::FIELD) as u64
    }

    /// Direction bits the wind may still use.
    pub fn winds_left(self) -> u8 {
        (self.0 >> Self::WINDS) as u8
    }

    /// Plies played so far.
    pub fn ply(self) -> u32 {
        ((self.0 >> Self::PLY) & 0x1f) as u32
    }

    /// The dandelions move on even plies, the wind on odd ones.
    pub fn dandelions_to_move(self) -> bool {
        self.ply().is_multiple_of(2)
    }
}
