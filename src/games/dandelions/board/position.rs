//! Positions: what each cell holds, the winds left and the turns, with their text form and its checks.
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

use super::*;
use crate::games::dandelions::{DandelionsError, Side};

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
        Ok(Position { size, turns, state: State::new(0, 0, 0xff) })
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
            return Err(DandelionsError::Inconsistent { reason: "cells outside the board".into() });
        }
        let pos = Position { size, turns, state: State::new(seeds | flowers, flowers, winds_left) };
        pos.check_counts()?;
        if !pos.seeds_realizable() {
            return Err(DandelionsError::Inconsistent {
                reason: "no order of the flowers and winds so far produces exactly these seeds".into(),
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
        self.is_over().then(|| if self.is_covered() { Side::Dandelions } else { Side::Wind })
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
            Some(Side::Wind) => dirs_of(self.winds_left()).into_iter().map(Move::Blow).collect(),
        }
    }

    /// Plays a move, checking that it is legal.
    pub fn play(&self, mv: Move) -> Result<Position, DandelionsError> {
        let illegal = |reason: String| DandelionsError::IllegalMove { mv: mv.to_string(), reason };
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
                Ok(Position { state: State::new(self.seeds() | bit, self.flowers() | bit, self.winds_left()), ..*self })
            }
            (Some(Side::Wind), Move::Blow(d)) => {
                let bit = 1u8 << d.index();
                if self.winds_left() & bit == 0 {
                    return Err(illegal("the wind has already blown that way".into()));
                }
                let seeds = self.seeds() | spread_on(self.size, self.flowers(), d);
                Ok(Position { state: State::new(seeds, self.flowers(), self.winds_left() & !bit), ..*self })
            }
            (Some(Side::Dandelions), Move::Blow(_)) => {
                Err(illegal("it is the dandelions' turn: place a flower".into()))
            }
            (Some(Side::Wind), Move::Place(_)) => Err(illegal("it is the wind's turn: name a direction".into())),
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
                    return Err(DandelionsError::Syntax { line: line_no, message: "a second `wind:` line".into() });
                }
                winds = Some(parse_winds(&trimmed[colon + 1..], line_no, indent + colon + 2)?);
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
                        found => return Err(DandelionsError::BadCell { line: line_no, column: j + 1, found }),
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
                return Err(DandelionsError::RowLength { line: *line, found: cells.len(), expected: n });
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
        let pos = Position { size: n, turns, state: State::new(seeds | flowers, flowers, winds_left) };
        pos.check_counts()?;
        // Each seed must lie beyond some flower in some direction already used.
        let g = Geometry::new(n);
        let reachable = g.spread_set(flowers, !winds_left);
        let stray = seeds & !flowers & !reachable;
        if stray != 0 {
            let i = stray.trailing_zeros() as usize;
            let (line, cells) = &rows[i / n];
            return Err(DandelionsError::StraySeed { line: *line, column: cells[i % n].0 });
        }
        if !pos.seeds_realizable() {
            return Err(DandelionsError::Inconsistent {
                reason: "no order of the flowers and winds so far produces exactly these seeds".into(),
            });
        }
        Ok(pos)
    }

    fn check_counts(&self) -> Result<(), DandelionsError> {
        let k = self.flowers_placed();
        let j = self.winds_used();
        let reason = if k > self.turns {
            format!("{k} flowers, but the dandelions have only {} turns", self.turns)
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
    for (i, c) in list.char_indices().chain(std::iter::once((list.len(), ' '))) {
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
            return Err(DandelionsError::BadDirection { line, column: column + i, word: word.to_string() });
        };
        if set & (1 << d.index()) != 0 {
            return Err(DandelionsError::DuplicateDirection { line, column: column + i, dir: d.name() });
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
        let names: Vec<&str> = dirs_of(self.winds_left()).iter().map(|d| d.name()).collect();
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
