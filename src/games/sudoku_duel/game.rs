//! The board, the move notation (`Aa5`, `Aa5!`) and the rules: what a move does, which
//! moves are legal, and the referee's ruling on a move.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use thiserror::Error;

use super::sudoku::solver9::{self, Engine};

/// Number of cells of the 9×9 board.
pub const CELLS: usize = 81;

/// For each cell, its 20 peers (same row, column or box).
pub(crate) static PEERS: std::sync::LazyLock<[[u8; 20]; CELLS]> = std::sync::LazyLock::new(|| {
    let mut peers = [[0u8; 20]; CELLS];
    for (cell, list) in peers.iter_mut().enumerate() {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        for other in 0..CELLS {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                list[n] = other as u8;
                n += 1;
            }
        }
        debug_assert_eq!(n, 20);
    }
    peers
});

/// A move: a digit written into a cell, possibly with the claim `!` that the board now has
/// exactly one solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Cell index, row-major (0..81).
    pub cell: u8,
    /// Digit 1..=9.
    pub digit: u8,
    /// The `!` suffix.
    pub claim: bool,
}

impl Move {
    /// A move without claim. Panics on a cell ≥ 81 or a digit outside 1..=9.
    pub fn new(cell: usize, digit: u8) -> Move {
        assert!(cell < CELLS && (1..=9).contains(&digit), "bad move {cell}/{digit}");
        Move { cell: cell as u8, digit, claim: false }
    }

    /// The same move with the claim flag set to `claim`.
    pub fn with_claim(self, claim: bool) -> Move {
        Move { claim, ..self }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = (b'A' + self.cell / 9) as char;
        let col = (b'a' + self.cell % 9) as char;
        write!(f, "{row}{col}{}{}", self.digit, if self.claim { "!" } else { "" })
    }
}

/// Why a line is not a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(
        "a move is a row A-I, a column a-i and a digit 1-9, optionally followed by '!' (e.g. Aa5 or Aa5!), or '!' alone; got {0:?}"
    )]
    Shape(String),
    #[error("row {0:?} is not one of A-I")]
    Row(char),
    #[error("column {0:?} is not one of a-i")]
    Column(char),
    #[error("digit {0:?} is not one of 1-9")]
    Digit(char),
}

/// A text as an error quotes it: at most 40 characters, with the length of what was left out.
fn shortened(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}… ({} characters in all)", &text[..cut], text.chars().count()),
        None => text.to_string(),
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// Parses `Aa5` or `Aa5!`; surrounding white space is ignored, nothing else is accepted.
    fn from_str(text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let chars: Vec<char> = t.chars().collect();
        let claim = chars.len() == 4 && chars[3] == '!';
        if chars.len() != 3 && !claim {
            return Err(MoveError::Shape(shortened(t)));
        }
        let (r, c, d) = (chars[0], chars[1], chars[2]);
        if !('A'..='I').contains(&r) {
            return Err(MoveError::Row(r));
        }
        if !('a'..='i').contains(&c) {
            return Err(MoveError::Column(c));
        }
        if !('1'..='9').contains(&d) {
            return Err(MoveError::Digit(d));
        }
        let cell = (r as u8 - b'A') as usize * 9 + (c as u8 - b'a') as usize;
        Ok(Move::new(cell, d as u8 - b'0').with_claim(claim))
    }
}

/// The 9×9 board: 81 cells, 0 = empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

impl Default for Board {
    fn default() -> Board {
        Board { cells: [0; CELLS] }
    }
}

impl Board {
    /// The empty board.
    pub fn new() -> Board {
        Board::default()
    }

    /// A board from 81 values (0 = empty, 1..=9). `None` on a wrong length or value.
    pub fn from_cells(cells: &[u8]) -> Option<Board> {
        if cells.len() != CELLS || cells.iter().any(|&v| v > 9) {
            return None;
        }
        let mut b = Board::new();
        b.cells.copy_from_slice(cells);
        Some(b)
    }

    /// The cells, row-major, 0 = empty.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when `digit` already stands in a peer of `cell`.
    pub fn clashes(&self, cell: usize, digit: u8) -> bool {
        PEERS[cell].iter().any(|&p| self.cells[p as usize] == digit)
    }

    /// Digits (bit d) that no peer of `cell` holds.
    pub fn allowed(&self, cell: usize) -> u16 {
        let mut mask = 0x3FEu16;
        for &p in &PEERS[cell] {
            mask &= !(1 << self.cells[p as usize]);
        }
        mask
    }

    /// Writes the move's digit (no checks).
    pub fn place(&mut self, mv: Move) {
        self.cells[mv.cell as usize] = mv.digit;
    }

    /// The board after `mv`.
    pub fn with(&self, mv: Move) -> Board {
        let mut b = *self;
        b.place(mv);
        b
    }

    /// Solutions counted up to `limit`.
    pub fn count(&self, limit: u64) -> u64 {
        solver9::count_with(Engine::best(), &self.cells, limit)
    }

    /// One solution, if any.
    pub fn solve(&self) -> Option<[u8; CELLS]> {
        solver9::solve_with(Engine::best(), &self.cells)
    }

    /// True when some solution has another digit than `digit` in `cell`, i.e. `digit` is
    /// not forced there (the board itself must be solvable for this to mean anything).
    pub fn has_alternative(&self, cell: usize, digit: u8) -> bool {
        let mut b = *self;
        (1..=9u8).filter(|&e| e != digit && !self.clashes(cell, e)).any(|e| {
            b.cells[cell] = e;
            b.count(1) > 0
        })
    }
}

/// The digits each empty cell can still take in some solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    /// Bit d set when some solution has digit d in the cell; 0 for filled cells.
    pub masks: [u16; CELLS],
    /// False when the time guard stopped the search: the masks then hold only the digits
    /// seen in solutions so far (each still truly possible).
    pub complete: bool,
}

impl Candidates {
    /// The legal moves: every possible digit of a cell with at least two possible digits
    /// (a cell's only possible digit is forced, and playing it loses).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for (cell, &m) in self.masks.iter().enumerate() {
            if m.count_ones() >= 2 {
                out.extend((1..=9u8).filter(|d| m & (1 << d) != 0).map(|d| Move::new(cell, d)));
            }
        }
        out
    }
}

/// The possible digits of every empty cell, found by asking the solver, cell by cell, for a
/// solution with a digit not seen there so far; every solution found marks its digits in all
/// cells. `None` when the board has no solution. Past `deadline` the search stops and the
/// result is marked incomplete.
pub fn possible_digits(board: &Board, deadline: Option<Instant>) -> Option<Candidates> {
    let first = board.solve()?;
    let mut masks = [0u16; CELLS];
    let mark = |masks: &mut [u16; CELLS], sol: &[u8; CELLS]| {
        for (cell, m) in masks.iter_mut().enumerate() {
            if board.cells[cell] == 0 {
                *m |= 1 << sol[cell];
            }
        }
    };
    mark(&mut masks, &first);
    let mut probe = *board;
    for cell in 0..CELLS {
        if board.cells[cell] != 0 {
            continue;
        }
        for d in 1..=9u8 {
            if masks[cell] & (1 << d) != 0 || board.clashes(cell, d) {
                continue;
            }
            if deadline.is_some_and(|t| Instant::now() >= t) {
                return Some(Candidates { masks, complete: false });
            }
            probe.cells[cell] = d;
            if let Some(sol) = probe.solve() {
                mark(&mut masks, &sol);
            }
        }
        probe.cells[cell] = 0;
    }
    Some(Candidates { masks, complete: true })
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The winner claimed a unique solution, rightly.
    TrueClaim,
    /// The loser claimed a unique solution, wrongly.
    FalseClaim,
    /// The loser played the digit every remaining solution has there.
    ForcedDigit,
    /// The loser's move left no solution (a clash with the board included).
    NoSolution,
    /// The loser wrote into a filled cell.
    Occupied,
    /// The loser sent something that is not a move.
    BadSyntax,
    /// The loser ran out of thinking time.
    Timeout,
    /// The loser stopped answering (exited, closed its output, could not be started).
    Crashed,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::TrueClaim => "true claim",
            Reason::FalseClaim => "false claim",
            Reason::ForcedDigit => "forced digit",
            Reason::NoSolution => "no solution left",
            Reason::Occupied => "occupied cell",
            Reason::BadSyntax => "bad syntax",
            Reason::Timeout => "timeout",
            Reason::Crashed => "crashed",
        })
    }
}

/// What a player sends on its turn: a move (with or without a claim), or a claim alone (`!`): that the board as
/// the opponent left it has exactly one solution. NineDigits, the CodeCup 2024 winner, sends it where its opponent
/// left one solution unclaimed (its author's notes say the competition's sample player did too); no move could be
/// played there, as every digit is then forced, so the referee rules it as a claim, true or false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Move(Move),
    Claim,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Move(mv) => mv.fmt(f),
            Turn::Claim => f.write_str("!"),
        }
    }
}

impl FromStr for Turn {
    type Err = MoveError;

    /// Parses a move (`Aa5`, `Aa5!`) or a claim alone (`!`); surrounding white space is ignored.
    fn from_str(text: &str) -> Result<Turn, MoveError> {
        match text.trim() {
            "!" => Ok(Turn::Claim),
            t => t.parse().map(Turn::Move),
        }
    }
}

/// Rules on `turn` taken on `board` (see [`judge`]); a claim alone wins where the board has one solution, and
/// loses otherwise.
pub fn judge_turn(board: &Board, turn: Turn) -> Ruling {
    match turn {
        Turn::Move(mv) => judge(board, mv),
        Turn::Claim if board.count(2) == 1 => Ruling::MoverWins(Reason::TrueClaim),
        Turn::Claim => Ruling::MoverLoses(Reason::FalseClaim),
    }
}

/// The referee's ruling on one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// Legal move, no claim: the game goes on.
    Continue,
    /// The mover wins (a true claim).
    MoverWins(Reason),
    /// The mover loses.
    MoverLoses(Reason),
}

/// Rules on `mv` played on `board` (which must have at least one solution): occupied cell,
/// clash or no solution left, forced digit, then the claim.
pub fn judge(board: &Board, mv: Move) -> Ruling {
    let cell = mv.cell as usize;
    if board.cells[cell] != 0 {
        return Ruling::MoverLoses(Reason::Occupied);
    }
    if board.clashes(cell, mv.digit) {
        return Ruling::MoverLoses(Reason::NoSolution);
    }
    let after = board.with(mv);
    let count = after.count(2);
    if count == 0 {
        return Ruling::MoverLoses(Reason::NoSolution);
    }
    if !board.has_alternative(cell, mv.digit) {
        return Ruling::MoverLoses(Reason::ForcedDigit);
    }
    match (mv.claim, count) {
        (false, _) => Ruling::Continue,
        (true, 1) => Ruling::MoverWins(Reason::TrueClaim),
        (true, _) => Ruling::MoverLoses(Reason::FalseClaim),
    }
}
