//! The board: parsing from text, printing back, moves.

use std::fmt;
use std::str::FromStr;

use super::bitboard::{bit, board_mask, slide, square_rc, Bits, Dir, STRIDE};
use super::error::LunarError;

/// Largest supported side length.
pub const MAX_SIDE: usize = 8;

/// A movable piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The red piece (`X`); any human on the target wins.
    Human,
    /// A helper robot (`o`); robots are interchangeable.
    Robot,
}

impl Piece {
    /// Letter used in board text and move notation.
    pub fn letter(self) -> char {
        match self {
            Piece::Human => 'X',
            Piece::Robot => 'o',
        }
    }
}

/// Content of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Human,
    Robot,
    /// A fixed block (`#`): stops pieces, never moves.
    Block,
}

/// One slide.
///
/// Notation (`Display`): `X@2,3 left` — the piece letter, `@`, the 0-based `row,col` of
/// the piece at the moment it moves (before the slide; row 0 is the top line of the board
/// text, column 0 its first character), a space and the direction (`up` is towards row 0).
/// [`Move::notation`] drops the `@row,col` of a human when the board has a single human.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub piece: Piece,
    /// Cell the piece leaves (0-based row, col).
    pub from: (usize, usize),
    /// Cell the piece stops on.
    pub to: (usize, usize),
    pub dir: Dir,
}

impl Move {
    /// The move as printed by the `solve` command: like `Display`, but a human is written
    /// `X down` when `single_human` is true (there is only one piece it can be).
    pub fn notation(&self, single_human: bool) -> String {
        if single_human && self.piece == Piece::Human {
            format!("X {}", self.dir)
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{},{} {}", self.piece.letter(), self.from.0, self.from.1, self.dir)
    }
}

/// A Lunar Lockout position: a `rows`×`cols` board (each at most 8) with humans, robots,
/// blocks and one target cell.
///
/// Text form (see [`Board::parse`]): one line per row, `.` empty, `X` human, `o` robot,
/// `#` block, `+` the empty target, `x` a human on the target, `O` a robot on the target.
/// `Display` writes that form back (rows separated by `\n`, no trailing newline), always
/// marking the target, so `Display` and `FromStr` round-trip.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    humans: u64,
    robots: u64,
    blocks: u64,
    target: (usize, usize),
}

impl Board {
    /// Parses board text.
    ///
    /// * Blank lines and lines whose first non-blank characters are `//` are skipped;
    ///   trailing whitespace is ignored.
    /// * Rows must all have the same length; at most 8 rows of at most 8 cells.
    /// * At least one human; at most one target marker (`+`, `x` or `O`).
    /// * The target is the marker's cell, or `target` (0-based row, col; it must agree
    ///   with a marker if both are given), or else the centre cell, which only exists
    ///   when both sides are odd.
    pub fn parse(text: &str, target: Option<(usize, usize)>) -> Result<Board, LunarError> {
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut width = 0;
        let mut marker: Option<((usize, usize), (usize, usize))> = None; // (cell, (line, col))
        for (index, raw) in text.lines().enumerate() {
            let line_no = index + 1;
            let line = raw.trim_end();
            if line.is_empty() || line.trim_start().starts_with("//") {
                continue;
            }
            if rows.len() == MAX_SIDE {
                return Err(LunarError::TooManyRows { line: line_no });
            }
            let r = rows.len();
            let mut row = Vec::with_capacity(MAX_SIDE);
            for (j, ch) in line.chars().enumerate() {
                let col_no = j + 1;
                if j == MAX_SIDE {
                    return Err(LunarError::TooManyColumns { line: line_no, col: col_no });
                }
                let (cell, on_target) = match ch {
                    '.' => (Cell::Empty, false),
                    'X' => (Cell::Human, false),
                    'o' => (Cell::Robot, false),
                    '#' => (Cell::Block, false),
                    '+' => (Cell::Empty, true),
                    'x' => (Cell::Human, true),
                    'O' => (Cell::Robot, true),
                    _ => return Err(LunarError::UnknownChar { line: line_no, col: col_no, ch }),
                };
                if on_target {
                    if let Some((_, (first_line, first_col))) = marker {
                        return Err(LunarError::SecondTarget { line: line_no, col: col_no, first_line, first_col });
                    }
                    marker = Some(((r, j), (line_no, col_no)));
                }
                row.push(cell);
            }
            if rows.is_empty() {
                width = row.len();
            } else if row.len() != width {
                return Err(LunarError::Ragged { line: line_no, expected: width, found: row.len() });
            }
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(LunarError::Empty);
        }
        let (n_rows, n_cols) = (rows.len(), width);
        let mut board = Board { rows: n_rows, cols: n_cols, humans: 0, robots: 0, blocks: 0, target: (0, 0) };
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                match cell {
                    Cell::Empty => {}
                    Cell::Human => board.humans |= bit(r, c),
                    Cell::Robot => board.robots |= bit(r, c),
                    Cell::Block => board.blocks |= bit(r, c),
                }
            }
        }
        if board.humans == 0 {
            return Err(LunarError::NoHuman);
        }
        let marked = marker.map(|(cell, _)| cell);
        board.target = match (marked, target) {
            (Some(m), Some(t)) if m != t => {
                return Err(LunarError::TargetConflict { marked_row: m.0, marked_col: m.1, row: t.0, col: t.1 })
            }
            (Some(m), _) => m,
            (None, Some(t)) => t,
            (None, None) => {
                if n_rows % 2 == 0 || n_cols % 2 == 0 {
                    return Err(LunarError::NoCentre { rows: n_rows, cols: n_cols });
                }
                (n_rows / 2, n_cols / 2)
            }
        };
        let (tr, tc) = board.target;
        if tr >= n_rows || tc >= n_cols {
            return Err(LunarError::TargetOutside { row: tr, col: tc, rows: n_rows, cols: n_cols });
        }
        if board.blocks & bit(tr, tc) != 0 {
            return Err(LunarError::TargetOnBlock { row: tr, col: tc });
        }
        Ok(board)
    }

    /// Builds a board from bit masks (8×8 layout, see the bitboard module). The caller
    /// guarantees disjoint masks inside the board, at least one human and a valid target.
    pub(crate) fn from_masks(
        rows: usize,
        cols: usize,
        humans: u64,
        robots: u64,
        blocks: u64,
        target: (usize, usize),
    ) -> Board {
        let mask = board_mask(rows, cols);
        debug_assert!(humans & robots == 0 && humans & blocks == 0 && robots & blocks == 0);
        debug_assert!((humans | robots | blocks) & !mask == 0);
        debug_assert!(target.0 < rows && target.1 < cols);
        Board { rows, cols, humans, robots, blocks, target }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The target cell (0-based row, col).
    pub fn target(&self) -> (usize, usize) {
        self.target
    }

    /// Content of cell (row, col); panics outside the board.
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        assert!(row < self.rows && col < self.cols, "cell {row},{col} outside the board");
        let b = bit(row, col);
        if self.humans & b != 0 {
            Cell::Human
        } else if self.robots & b != 0 {
            Cell::Robot
        } else if self.blocks & b != 0 {
            Cell::Block
        } else {
            Cell::Empty
        }
    }

    /// Number of humans.
    pub fn human_count(&self) -> usize {
        self.humans.count_ones() as usize
    }

    /// Number of robots.
    pub fn robot_count(&self) -> usize {
        self.robots.count_ones() as usize
    }

    /// True when a human stands on the target.
    pub fn is_solved(&self) -> bool {
        self.humans & self.target_bit() != 0
    }

    pub(crate) fn humans(&self) -> u64 {
        self.humans
    }

    pub(crate) fn robots(&self) -> u64 {
        self.robots
    }

    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    pub(crate) fn mask(&self) -> u64 {
        board_mask(self.rows, self.cols)
    }

    pub(crate) fn target_bit(&self) -> u64 {
        bit(self.target.0, self.target.1)
    }

    /// Every legal slide from this position (humans first, then robots; cells in reading
    /// order; directions up, down, left, right).
    pub fn moves(&self) -> Vec<Move> {
        let occ = self.humans | self.robots | self.blocks;
        let mask = self.mask();
        let mut out = Vec::new();
        for (piece, set) in [(Piece::Human, self.humans), (Piece::Robot, self.robots)] {
            for p in Bits(set) {
                for dir in Dir::ALL {
                    if let Some(dest) = slide(p, occ, mask, dir) {
                        out.push(Move {
                            piece,
                            from: square_rc(p.trailing_zeros()),
                            to: square_rc(dest.trailing_zeros()),
                            dir,
                        });
                    }
                }
            }
        }
        out
    }

    /// The position after `mv`, or `None` if `mv` is not a legal slide here (wrong piece,
    /// no blocker, zero-length slide, or a `to` that is not where the piece stops).
    pub fn play(&self, mv: &Move) -> Option<Board> {
        let (fr, fc) = mv.from;
        if fr >= self.rows || fc >= self.cols {
            return None;
        }
        let from = bit(fr, fc);
        let set = match mv.piece {
            Piece::Human => self.humans,
            Piece::Robot => self.robots,
        };
        if set & from == 0 {
            return None;
        }
        let occ = self.humans | self.robots | self.blocks;
        let dest = slide(from, occ, self.mask(), mv.dir)?;
        if square_rc(dest.trailing_zeros()) != mv.to {
            return None;
        }
        let mut next = self.clone();
        match mv.piece {
            Piece::Human => next.humans ^= from | dest,
            Piece::Robot => next.robots ^= from | dest,
        }
        Some(next)
    }

    /// The board under one of its 8 symmetries, `t` in `0..8`: bit 0 flips the rows
    /// (top↔bottom), bit 1 flips the columns (left↔right), bit 2 then transposes (which
    /// swaps the side lengths of a rectangular board). Shortest-solution lengths are
    /// invariant under all of them.
    pub fn transformed(&self, t: u8) -> Board {
        let (rows, cols) = (self.rows, self.cols);
        let map = |(r, c): (usize, usize)| -> (usize, usize) {
            let r = if t & 1 != 0 { rows - 1 - r } else { r };
            let c = if t & 2 != 0 { cols - 1 - c } else { c };
            if t & 4 != 0 {
                (c, r)
            } else {
                (r, c)
            }
        };
        let map_mask = |m: u64| -> u64 {
            Bits(m).fold(0, |acc, b| {
                let (r, c) = map(square_rc(b.trailing_zeros()));
                acc | bit(r, c)
            })
        };
        let (new_rows, new_cols) = if t & 4 != 0 { (cols, rows) } else { (rows, cols) };
        Board {
            rows: new_rows,
            cols: new_cols,
            humans: map_mask(self.humans),
            robots: map_mask(self.robots),
            blocks: map_mask(self.blocks),
            target: map(self.target),
        }
    }
}

impl FromStr for Board {
    type Err = LunarError;

    /// [`Board::parse`] without an explicit target.
    fn from_str(s: &str) -> Result<Board, LunarError> {
        Board::parse(s, None)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = self.target_bit();
        for r in 0..self.rows {
            if r > 0 {
                f.write_str("\n")?;
            }
            for c in 0..self.cols {
                let on_target = bit(r, c) == target;
                let ch = match (self.cell(r, c), on_target) {
                    (Cell::Empty, false) => '.',
                    (Cell::Empty, true) => '+',
                    (Cell::Human, false) => 'X',
                    (Cell::Human, true) => 'x',
                    (Cell::Robot, false) => 'o',
                    (Cell::Robot, true) => 'O',
                    (Cell::Block, _) => '#',
                };
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

// The bitboard layout must hold the largest board.
const _: () = assert!(MAX_SIDE <= STRIDE);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        let text = "// card\n\no.o.o\n.....\no.+..\n.....\no...X   \n";
        let b: Board = text.parse().unwrap();
        assert_eq!((b.rows(), b.cols()), (5, 5));
        assert_eq!(b.target(), (2, 2));
        assert_eq!(b.human_count(), 1);
        assert_eq!(b.robot_count(), 5);
        assert_eq!(b.cell(4, 4), Cell::Human);
        assert_eq!(b.cell(0, 2), Cell::Robot);
        assert_eq!(b.to_string(), "o.o.o\n.....\no.+..\n.....\no...X");
        let again: Board = b.to_string().parse().unwrap();
        assert_eq!(again, b);
    }

    #[test]
    fn target_markers_and_explicit_target() {
        let b: Board = "X..\n.O.\n...".parse().unwrap();
        assert_eq!(b.target(), (1, 1));
        assert_eq!(b.cell(1, 1), Cell::Robot);
        let b: Board = "x.o\n...".parse().unwrap();
        assert_eq!(b.target(), (0, 0));
        assert!(b.is_solved());
        let b = Board::parse("X...\n....\n....\n...o", Some((3, 0))).unwrap();
        assert_eq!(b.target(), (3, 0));
        assert_eq!(b.to_string(), "X...\n....\n....\n+..o");
        // A marker and an agreeing --target are fine.
        assert!(Board::parse("X+.\n...\n...", Some((0, 1))).is_ok());
        // Rectangular boards with odd sides have a centre.
        assert_eq!("X....\n..o..\n.....".parse::<Board>().unwrap().target(), (1, 2));
    }

    #[test]
    fn parse_errors() {
        let err = |s: &str| s.parse::<Board>().unwrap_err();
        assert_eq!(err("X..\n..\n..."), LunarError::Ragged { line: 2, expected: 3, found: 2 });
        assert_eq!(err("X..\n.z.\n..."), LunarError::UnknownChar { line: 2, col: 2, ch: 'z' });
        assert_eq!(err("// c\n..o\n...\n..."), LunarError::NoHuman);
        assert_eq!(err(""), LunarError::Empty);
        assert_eq!(err("// only a comment\n\n"), LunarError::Empty);
        let nine = vec![".........".to_string(); 9].join("\n");
        assert_eq!(err(&nine), LunarError::TooManyColumns { line: 1, col: 9 });
        let nine_rows = vec!["X.......".to_string(); 9].join("\n");
        assert_eq!(err(&nine_rows), LunarError::TooManyRows { line: 9 });
        assert_eq!(err("X+.\n..+\n..."), LunarError::SecondTarget { line: 2, col: 3, first_line: 1, first_col: 2 });
        assert_eq!(err("X...\n....\n....\n...o"), LunarError::NoCentre { rows: 4, cols: 4 });
        assert_eq!(
            Board::parse("X..\n...\n...", Some((3, 0))).unwrap_err(),
            LunarError::TargetOutside { row: 3, col: 0, rows: 3, cols: 3 }
        );
        assert_eq!(Board::parse("X..\n.#.\n...", None).unwrap_err(), LunarError::TargetOnBlock { row: 1, col: 1 });
        assert_eq!(
            Board::parse("X+.\n...\n...", Some((2, 2))).unwrap_err(),
            LunarError::TargetConflict { marked_row: 0, marked_col: 1, row: 2, col: 2 }
        );
        // Messages name the place.
        let msg = err("X..\n.z.\n...").to_string();
        assert!(msg.contains("line 2, column 2") && msg.contains("'z'"), "{msg}");
        assert!(err("X..\n..\n...").to_string().contains("line 2"));
    }

    #[test]
    fn moves_and_play() {
        let b: Board = "X...o\n.....\n..+..\n.....\n.....".parse().unwrap();
        let moves = b.moves();
        // The human can only go right (stopped by the robot); the robot only left.
        assert_eq!(moves.len(), 2);
        let right = Move { piece: Piece::Human, from: (0, 0), to: (0, 3), dir: Dir::Right };
        assert_eq!(moves[0], right);
        assert_eq!(right.to_string(), "X@0,0 right");
        assert_eq!(right.notation(true), "X right");
        assert_eq!(moves[1].to_string(), "o@0,4 left");
        let after = b.play(&right).unwrap();
        assert_eq!(after.to_string(), "...Xo\n.....\n..+..\n.....\n.....");
        // Not legal any more: adjacent blocker.
        assert!(after.play(&Move { from: (0, 3), to: (0, 3), ..right }).is_none());
        // Wrong destination or wrong piece.
        assert!(b.play(&Move { to: (0, 2), ..right }).is_none());
        assert!(b.play(&Move { piece: Piece::Robot, ..right }).is_none());
    }

    #[test]
    fn transforms_are_a_group_action() {
        let b: Board = "X..o.\n.#...\n..+..\n.....\n....o".parse().unwrap();
        for t in 0..8u8 {
            let tb = b.transformed(t);
            assert_eq!(tb.human_count(), 1);
            assert_eq!(tb.robot_count(), 2);
            assert_eq!(tb.target(), (2, 2));
        }
        assert_eq!(b.transformed(0), b);
        assert_eq!(b.transformed(1).transformed(1), b);
        assert_eq!(b.transformed(4).transformed(4), b);
        let r = Board::parse("X.o\n...\n...\n...", Some((2, 2))).unwrap();
        let t = r.transformed(4);
        assert_eq!((t.rows(), t.cols()), (3, 4));
        assert_eq!(t.target(), (2, 2));
        assert_eq!(t.cell(2, 0), Cell::Robot);
    }
}
