//! Board geometry, cells, wind directions, moves, the packed one-integer
//! state and the position text format.
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
//!
//! # Position text
//!
//! ```text
//! # optional comment lines start with '#'
//! *~...
//! .~...
//! ..*..
//! .....
//! .....
//! wind: N NE SE S SW W NW
//! turns: 7
//! ```
//!
//! * `n` grid lines of `n` cells each (`n` from 2 to 6): `*` a flower (its own
//!   cell is seeded too), `~` a seed, `.` an empty cell. Spaces between
//!   cells are allowed.
//! * `wind:` followed by the directions the wind may still blow, separated by
//!   spaces or commas (`N NE E SE S SW W NW`, any case); `wind:` alone or
//!   `wind: none` when none is left.
//! * `turns: T` (optional, default 7, at most 8): how many turns each side
//!   has in the whole game.
//!
//! Whose turn it is follows from the counts: with `k` flowers on the board
//! and `j = 8 − (directions listed)` winds blown, the dandelions move when
//! `k == j`, the wind when `k == j + 1`; any other count is rejected, as are
//! more than `T` flowers or winds, and seeds that no order of the listed
//! moves could have produced. When `k == j == T` the game is over.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use super::{DandelionsError, Side};

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
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

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
        [
            (-1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
        ][self.index()]
    }

    /// The direction with this step, if any.
    pub fn from_delta(delta: (i32, i32)) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.delta() == delta)
    }

    /// Parses a name (`ne`, `NE`, …) or its long form (`north-east`, `northeast`).
    pub fn parse(text: &str) -> Option<Dir> {
        let t: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_uppercase();
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
    Dir::ALL
        .into_iter()
        .filter(|d| set & (1 << d.index()) != 0)
        .collect()
}

/// A cell, 0-based, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    pub fn new(row: usize, col: usize) -> Cell {
        Cell {
            row: row as u8,
            col: col as u8,
        }
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
        let pair = t
            .split_once(',')
            .or_else(|| t.split_once(char::is_whitespace));
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

/// Precomputed masks and tables for one board side.
#[derive(Clone, Debug)]
pub struct Geometry {
    n: usize,
    full: u64,
    /// Per direction: left shift, right shift, destination mask.
    shl: [u32; 8],
    shr: [u32; 8],
    dest: [u64; 8],
    /// `rays[cell * 8 + d]`: cells strictly beyond `cell` in direction `d`.
    rays: Vec<u64>,
    /// `stars[cell * 256 + dirs]`: `cell` and its rays in every direction of `dirs`.
    stars: Vec<u64>,
    /// `back_lines[d * cells + cell]`: `cell` and the cells behind it
    /// (opposite `d`), i.e. every cell whose seeds blown in `d` reach `cell`.
    back_lines: Vec<u64>,
    /// `sym_rows[(t * n + row) << n | bits]`: image under symmetry `t` of
    /// the cells `bits` of row `row`.
    sym_rows: Vec<u64>,
    /// `sym_dirs[t][dirs]`: image of a direction set under symmetry `t`.
    sym_dirs: Vec<[u8; 256]>,
}

impl Geometry {
    /// Tables for an `n × n` board, `MIN_SIZE <= n <= MAX_SIZE`.
    pub fn new(n: usize) -> Geometry {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&n), "board side {n}");
        let cells = n * n;
        let full = (1u64 << cells) - 1;
        let mut col_mask = [0u64; MAX_SIZE];
        for (c, m) in col_mask.iter_mut().enumerate().take(n) {
            for r in 0..n {
                *m |= 1 << (r * n + c);
            }
        }
        let mut shl = [0; 8];
        let mut shr = [0; 8];
        let mut dest = [0; 8];
        for d in Dir::ALL {
            let (dr, dc) = d.delta();
            let delta = dr * n as i32 + dc;
            if delta > 0 {
                shl[d.index()] = delta as u32;
            } else {
                shr[d.index()] = (-delta) as u32;
            }
            // A step east must not land in column 0 (that would be a wrap
            // from the east edge), a step west not in the last column.
            dest[d.index()] = match dc {
                1 => full & !col_mask[0],
                -1 => full & !col_mask[n - 1],
                _ => full,
            };
        }
        let mut rays = vec![0u64; cells * 8];
        for cell in 0..cells {
            for d in Dir::ALL {
                let (dr, dc) = d.delta();
                let (mut r, mut c) = ((cell / n) as i32 + dr, (cell % n) as i32 + dc);
                while (0..n as i32).contains(&r) && (0..n as i32).contains(&c) {
                    rays[cell * 8 + d.index()] |= 1 << (r as usize * n + c as usize);
                    r += dr;
                    c += dc;
                }
            }
        }
        let mut stars = vec![0u64; cells * 256];
        for cell in 0..cells {
            for dirs in 0..256usize {
                let mut m = 1u64 << cell;
                for d in 0..8 {
                    if dirs & (1 << d) != 0 {
                        m |= rays[cell * 8 + d];
                    }
                }
                stars[cell * 256 + dirs] = m;
            }
        }
        let mut back_lines = vec![0u64; 8 * cells];
        for d in 0..8 {
            for cell in 0..cells {
                back_lines[d * cells + cell] = (1u64 << cell) | rays[cell * 8 + (d + 4) % 8];
            }
        }
        let mut sym_rows = vec![0u64; (8 * n) << n];
        let mut sym_dirs = vec![[0u8; 256]; 8];
        for t in 0..8 {
            for row in 0..n {
                for bits in 0..1usize << n {
                    let mut m = 0u64;
                    for col in 0..n {
                        if bits & (1 << col) != 0 {
                            let (r2, c2) = transform_rc(t, n, row, col);
                            m |= 1 << (r2 * n + c2);
                        }
                    }
                    sym_rows[((t * n + row) << n) | bits] = m;
                }
            }
            for (dirs, image) in sym_dirs[t].iter_mut().enumerate() {
                *image = Dir::ALL
                    .into_iter()
                    .filter(|d| dirs & (1 << d.index()) != 0)
                    .fold(0u8, |acc, d| acc | 1 << transform_dir(t, d).index());
            }
        }
        Geometry {
            n,
            full,
            shl,
            shr,
            dest,
            rays,
            stars,
            back_lines,
            sym_rows,
            sym_dirs,
        }
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.n
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.n * self.n
    }

    /// Mask of all cells.
    #[inline]
    pub fn full(&self) -> u64 {
        self.full
    }

    /// Moves every cell of `g` one step in direction `d` (cells leaving the
    /// board vanish): one masked shift.
    #[inline(always)]
    pub fn step(&self, g: u64, d: usize) -> u64 {
        ((g << self.shl[d]) >> self.shr[d]) & self.dest[d]
    }

    /// The cells that seeds reach when the wind blows in direction `d`
    /// over `flowers`: every cell beyond a flower in that direction, up to
    /// the edge (the flower cells themselves are not included unless
    /// reached from another flower). `n − 1` masked shifts.
    #[inline(always)]
    pub fn spread(&self, flowers: u64, d: usize) -> u64 {
        let mut g = self.step(flowers, d);
        let mut acc = g;
        for _ in 2..self.n {
            g = self.step(g, d);
            acc |= g;
        }
        acc
    }

    /// Union of `spread` over every direction in the set `dirs`.
    pub fn spread_set(&self, flowers: u64, dirs: u8) -> u64 {
        let mut acc = 0;
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            acc |= self.spread(flowers, d);
        }
        acc
    }

    /// Cells strictly beyond `cell` in direction `d` (table lookup).
    #[inline]
    pub fn ray(&self, cell: usize, d: usize) -> u64 {
        self.rays[cell * 8 + d]
    }

    /// `cell` and its rays in every direction of the set `dirs`.
    #[inline(always)]
    pub fn star(&self, cell: usize, dirs: u8) -> u64 {
        self.stars[cell * 256 + dirs as usize]
    }

    /// `cell` and every cell from which seeds blown in `d` reach `cell`.
    #[inline(always)]
    pub fn back_line(&self, cell: usize, d: usize) -> u64 {
        self.back_lines[d * self.n * self.n + cell]
    }

    /// Image of a bitboard under symmetry `t` (0..8): one table lookup per row.
    #[inline(always)]
    pub fn transform(&self, t: usize, mask: u64) -> u64 {
        let n = self.n;
        let row_bits = (1u64 << n) - 1;
        let base = t * n;
        let mut out = 0;
        for row in 0..n {
            let bits = ((mask >> (row * n)) & row_bits) as usize;
            out |= self.sym_rows[((base + row) << n) | bits];
        }
        out
    }

    /// Image of a direction set under symmetry `t`.
    #[inline(always)]
    pub fn transform_dirs(&self, t: usize, dirs: u8) -> u8 {
        self.sym_dirs[t][dirs as usize]
    }

    /// Image of a cell under symmetry `t`.
    pub fn transform_cell(&self, t: usize, cell: Cell) -> Cell {
        let (r, c) = transform_rc(t, self.n, cell.row as usize, cell.col as usize);
        Cell::new(r, c)
    }
}

/// `Geometry::spread` without building the tables: the same masked shifts.
pub fn spread_on(n: usize, flowers: u64, d: Dir) -> u64 {
    let full = (1u64 << (n * n)) - 1;
    let (dr, dc) = d.delta();
    let delta = dr * n as i32 + dc;
    let west_col = (0..n).fold(0u64, |m, r| m | 1 << (r * n));
    let dest = match dc {
        1 => full & !west_col,
        -1 => full & !(west_col << (n - 1)),
        _ => full,
    };
    let step = |g: u64| {
        if delta > 0 {
            (g << delta) & dest
        } else {
            (g >> -delta) & dest
        }
    };
    let mut g = step(flowers);
    let mut acc = g;
    for _ in 2..n {
        g = step(g);
        acc |= g;
    }
    acc
}

/// Symmetry `t` of the square (0..8): `t & 4` mirrors east–west first,
/// then `t & 3` quarter turns clockwise. `t == 0` is the identity.
pub fn transform_rc(t: usize, n: usize, row: usize, col: usize) -> (usize, usize) {
    let (mut r, mut c) = (row, col);
    if t & 4 != 0 {
        c = n - 1 - c;
    }
    for _ in 0..t & 3 {
        (r, c) = (c, n - 1 - r);
    }
    (r, c)
}

/// Image of a direction under symmetry `t` (the same map applied to the
/// step vector: a mirror negates the column step, a clockwise quarter turn
/// sends `(dr, dc)` to `(dc, −dr)`).
pub fn transform_dir(t: usize, d: Dir) -> Dir {
    let (mut dr, mut dc) = d.delta();
    if t & 4 != 0 {
        dc = -dc;
    }
    for _ in 0..t & 3 {
        (dr, dc) = (dc, -dr);
    }
    Dir::from_delta((dr, dc)).expect("a symmetry maps directions to directions")
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellContent {
    Empty,
    Seed,
    Flower,
}

/// A game position: board side, turns per side, and the packed state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    size: usize,
    turns: usize,
    state: State,
}

impl Position {
    /// The empty standard board: 5 × 5, 7 turns each, dandelions to move.
    pub fn start() -> Position {
        Position::empty(STANDARD_SIZE, STANDARD_TURNS).expect("standard sizes are valid")
    }

    /// The empty `size × size` board with `turns` turns each.
    pub fn empty(size: usize, turns: usize) -> Result<Position, DandelionsError> {
        check_dimensions(size, turns)?;
        Ok(Position {
            size,
            turns,
            state: State::new(0, 0, 0xff),
        })
    }

    /// Builds a position from bitboards, checking that it is consistent
    /// (see the module docs). `seeds` may or may not include the flowers.
    pub fn from_parts(
        size: usize,
        turns: usize,
        seeds: u64,
        flowers: u64,
        winds_left: u8,
    ) -> Result<Position, DandelionsError> {
        check_dimensions(size, turns)?;
        let full = (1u64 << (size * size)) - 1;
        if (seeds | flowers) & !full != 0 {
            return Err(DandelionsError::Inconsistent {
                reason: "cells outside the board".into(),
            });
        }
        let pos = Position {
            size,
            turns,
            state: State::new(seeds | flowers, flowers, winds_left),
        };
        pos.check_counts()?;
        if !pos.seeds_realizable() {
            return Err(DandelionsError::Inconsistent {
                reason: "no order of the flowers and winds so far produces exactly these seeds"
                    .into(),
            });
        }
        Ok(pos)
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn turns(&self) -> usize {
        self.turns
    }

    /// The one-integer state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Seeded cells (flower cells included).
    pub fn seeds(&self) -> u64 {
        self.state.seeds()
    }

    pub fn flowers(&self) -> u64 {
        self.state.flowers()
    }

    /// Direction bits the wind may still use.
    pub fn winds_left(&self) -> u8 {
        self.state.winds_left()
    }

    pub fn flowers_placed(&self) -> usize {
        self.flowers().count_ones() as usize
    }

    pub fn winds_used(&self) -> usize {
        8 - self.winds_left().count_ones() as usize
    }

    /// Whether every cell holds a seed or a flower.
    pub fn is_covered(&self) -> bool {
        self.seeds() == (1u64 << (self.size * self.size)) - 1
    }

    /// Whether the wind has had its last turn.
    pub fn is_over(&self) -> bool {
        self.winds_used() >= self.turns
    }

    /// The side to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        if self.is_over() {
            None
        } else if self.state.dandelions_to_move() {
            Some(Side::Dandelions)
        } else {
            Some(Side::Wind)
        }
    }

    /// The winner of a finished game.
    pub fn result(&self) -> Option<Side> {
        self.is_over().then(|| {
            if self.is_covered() {
                Side::Dandelions
            } else {
                Side::Wind
            }
        })
    }

    /// What `cell` holds.
    pub fn content(&self, cell: Cell) -> CellContent {
        let bit = 1u64 << cell.index(self.size);
        if self.flowers() & bit != 0 {
            CellContent::Flower
        } else if self.seeds() & bit != 0 {
            CellContent::Seed
        } else {
            CellContent::Empty
        }
    }

    /// Legal moves of the side to move: every cell without a flower, or
    /// every direction left (in index order). Empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        match self.to_move() {
            None => Vec::new(),
            Some(Side::Dandelions) => (0..self.size * self.size)
                .filter(|&i| self.flowers() & (1 << i) == 0)
                .map(|i| Move::Place(Cell::from_index(i, self.size)))
                .collect(),
            Some(Side::Wind) => dirs_of(self.winds_left())
                .into_iter()
                .map(Move::Blow)
                .collect(),
        }
    }

    /// Plays a move, checking that it is legal.
    pub fn play(&self, mv: Move) -> Result<Position, DandelionsError> {
        let illegal = |reason: String| DandelionsError::IllegalMove {
            mv: mv.to_string(),
            reason,
        };
        match (self.to_move(), mv) {
            (None, _) => Err(illegal("the game is over".into())),
            (Some(Side::Dandelions), Move::Place(cell)) => {
                if cell.row as usize >= self.size || cell.col as usize >= self.size {
                    return Err(illegal("that cell is off the board".into()));
                }
                let bit = 1u64 << cell.index(self.size);
                if self.flowers() & bit != 0 {
                    return Err(illegal("there is already a flower there".into()));
                }
                Ok(Position {
                    state: State::new(self.seeds() | bit, self.flowers() | bit, self.winds_left()),
                    ..*self
                })
            }
            (Some(Side::Wind), Move::Blow(d)) => {
                let bit = 1u8 << d.index();
                if self.winds_left() & bit == 0 {
                    return Err(illegal("the wind has already blown that way".into()));
                }
                let seeds = self.seeds() | spread_on(self.size, self.flowers(), d);
                Ok(Position {
                    state: State::new(seeds, self.flowers(), self.winds_left() & !bit),
                    ..*self
                })
            }
            (Some(Side::Dandelions), Move::Blow(_)) => {
                Err(illegal("it is the dandelions' turn: place a flower".into()))
            }
            (Some(Side::Wind), Move::Place(_)) => {
                Err(illegal("it is the wind's turn: name a direction".into()))
            }
        }
    }

    /// The image of this position under symmetry `t` (0..8).
    pub fn transformed(&self, t: usize) -> Position {
        let g = Geometry::new(self.size);
        Position {
            state: State::new(
                g.transform(t, self.seeds()),
                g.transform(t, self.flowers()),
                g.transform_dirs(t, self.winds_left()),
            ),
            ..*self
        }
    }

    /// Parses the position text described in the module docs.
    pub fn parse(text: &str) -> Result<Position, DandelionsError> {
        let mut rows: Vec<(usize, Vec<(usize, char)>)> = Vec::new();
        let mut winds: Option<u8> = None;
        let mut turns: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim_end();
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let lower = trimmed.to_ascii_lowercase();
            let indent = line.len() - trimmed.len();
            if lower.starts_with("wind") {
                let Some(colon) = trimmed.find(':') else {
                    return Err(DandelionsError::Syntax {
                        line: line_no,
                        message: "expected `wind:` followed by the directions left".into(),
                    });
                };
                if winds.is_some() {
                    return Err(DandelionsError::Syntax {
                        line: line_no,
                        message: "a second `wind:` line".into(),
                    });
                }
                winds = Some(parse_winds(
                    &trimmed[colon + 1..],
                    line_no,
                    indent + colon + 2,
                )?);
            } else if lower.starts_with("turns") {
                let value = trimmed
                    .split_once(':')
                    .and_then(|(_, v)| v.trim().parse::<usize>().ok())
                    .filter(|t| (1..=MAX_TURNS).contains(t));
                let Some(t) = value else {
                    return Err(DandelionsError::Syntax {
                        line: line_no,
                        message: format!("expected `turns: T` with T from 1 to {MAX_TURNS}"),
                    });
                };
                turns = Some(t);
            } else {
                if winds.is_some() || turns.is_some() {
                    return Err(DandelionsError::Syntax {
                        line: line_no,
                        message: "grid rows must come before the `wind:` and `turns:` lines".into(),
                    });
                }
                let mut cells = Vec::new();
                for (j, ch) in line.chars().enumerate() {
                    match ch {
                        '*' | '~' | '.' => cells.push((j + 1, ch)),
                        c if c.is_whitespace() => {}
                        found => {
                            return Err(DandelionsError::BadCell {
                                line: line_no,
                                column: j + 1,
                                found,
                            })
                        }
                    }
                }
                rows.push((line_no, cells));
            }
        }
        let n = rows.len();
        if n == 0 {
            return Err(DandelionsError::NoGrid);
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(DandelionsError::GridSize { rows: n });
        }
        for (line, cells) in &rows {
            if cells.len() != n {
                return Err(DandelionsError::RowLength {
                    line: *line,
                    found: cells.len(),
                    expected: n,
                });
            }
        }
        let Some(winds_left) = winds else {
            return Err(DandelionsError::MissingWinds);
        };
        let turns = turns.unwrap_or(STANDARD_TURNS);
        let (mut seeds, mut flowers) = (0u64, 0u64);
        for (r, (_, cells)) in rows.iter().enumerate() {
            for (c, &(_, ch)) in cells.iter().enumerate() {
                let bit = 1u64 << (r * n + c);
                match ch {
                    '*' => flowers |= bit,
                    '~' => seeds |= bit,
                    _ => {}
                }
            }
        }
        let pos = Position {
            size: n,
            turns,
            state: State::new(seeds | flowers, flowers, winds_left),
        };
        pos.check_counts()?;
        // Each seed must lie beyond some flower in some direction already used.
        let g = Geometry::new(n);
        let reachable = g.spread_set(flowers, !winds_left);
        let stray = seeds & !flowers & !reachable;
        if stray != 0 {
            let i = stray.trailing_zeros() as usize;
            let (line, cells) = &rows[i / n];
            return Err(DandelionsError::StraySeed {
                line: *line,
                column: cells[i % n].0,
            });
        }
        if !pos.seeds_realizable() {
            return Err(DandelionsError::Inconsistent {
                reason: "no order of the flowers and winds so far produces exactly these seeds"
                    .into(),
            });
        }
        Ok(pos)
    }

    fn check_counts(&self) -> Result<(), DandelionsError> {
        let k = self.flowers_placed();
        let j = self.winds_used();
        let reason = if k > self.turns {
            format!(
                "{k} flowers, but the dandelions have only {} turns",
                self.turns
            )
        } else if j > self.turns {
            format!(
                "{j} winds used (8 minus the {} directions left), but the wind has only {} turns",
                8 - j,
                self.turns
            )
        } else if j > k {
            format!("{j} winds used but only {k} flowers placed: the dandelions move first")
        } else if k > j + 1 {
            format!("{k} flowers but only {j} winds used: the wind must blow after every flower")
        } else {
            return Ok(());
        };
        Err(DandelionsError::Inconsistent { reason })
    }

    /// Whether some order of placing the flowers and blowing the used
    /// directions (alternating, dandelions first) leaves exactly the seeds
    /// shown (on the cells without a flower). Depth-first search over
    /// partial histories, never letting a seed land where none is shown.
    fn seeds_realizable(&self) -> bool {
        let flowers = self.flowers();
        let mut replay = Replay {
            geo: Geometry::new(self.size),
            flowers,
            used: !self.winds_left(),
            target: self.seeds() & !flowers,
            seen: HashSet::new(),
        };
        replay.search(0, 0, 0)
    }
}

/// The search behind `Position::seeds_realizable`.
struct Replay {
    geo: Geometry,
    /// All flowers of the position.
    flowers: u64,
    /// All directions used.
    used: u8,
    /// The seeds shown on cells without a flower.
    target: u64,
    /// Partial histories already explored: (placed, blown, seeds).
    seen: HashSet<(u64, u8, u64)>,
}

impl Replay {
    fn search(&mut self, placed: u64, blown: u8, seeds: u64) -> bool {
        if placed == self.flowers && blown == self.used {
            return seeds == self.target;
        }
        if !self.seen.insert((placed, blown, seeds)) {
            return false;
        }
        if placed.count_ones() == blown.count_ones() {
            let mut rest = self.flowers & !placed;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest &= rest - 1;
                if self.search(placed | bit, blown, seeds) {
                    return true;
                }
            }
        } else {
            let mut rest = self.used & !blown;
            while rest != 0 {
                let d = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let new = self.geo.spread(placed, d) & !self.flowers;
                if new & !self.target == 0 && self.search(placed, blown | 1 << d, seeds | new) {
                    return true;
                }
            }
        }
        false
    }
}

fn check_dimensions(size: usize, turns: usize) -> Result<(), DandelionsError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(DandelionsError::GridSize { rows: size });
    }
    if !(1..=MAX_TURNS).contains(&turns) {
        return Err(DandelionsError::Inconsistent {
            reason: format!("{turns} turns: each side has from 1 to {MAX_TURNS} turns"),
        });
    }
    Ok(())
}

/// Parses the direction list after `wind:`; `column` is the 1-based column
/// of the first character of `list` in its line.
fn parse_winds(list: &str, line: usize, column: usize) -> Result<u8, DandelionsError> {
    let mut set = 0u8;
    // (byte offset, word) for each run of characters between separators.
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in list
        .char_indices()
        .chain(std::iter::once((list.len(), ' ')))
    {
        let separator = c.is_whitespace() || c == ',';
        match (start, separator) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                words.push((s, &list[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    for (i, word) in words {
        if matches!(word.to_ascii_lowercase().as_str(), "none" | "-") {
            continue;
        }
        let Some(d) = Dir::parse(word) else {
            return Err(DandelionsError::BadDirection {
                line,
                column: column + i,
                word: word.to_string(),
            });
        };
        if set & (1 << d.index()) != 0 {
            return Err(DandelionsError::DuplicateDirection {
                line,
                column: column + i,
                dir: d.name(),
            });
        }
        set |= 1 << d.index();
    }
    Ok(set)
}

impl fmt::Display for Position {
    /// The position text format (see the module docs); `parse` reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.size {
            for c in 0..self.size {
                let ch = match self.content(Cell::new(r, c)) {
                    CellContent::Flower => '*',
                    CellContent::Seed => '~',
                    CellContent::Empty => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        let names: Vec<&str> = dirs_of(self.winds_left())
            .iter()
            .map(|d| d.name())
            .collect();
        if names.is_empty() {
            writeln!(f, "wind: none")?;
        } else {
            writeln!(f, "wind: {}", names.join(" "))?;
        }
        if self.turns != STANDARD_TURNS {
            writeln!(f, "turns: {}", self.turns)?;
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = DandelionsError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::parse(s)
    }
}
