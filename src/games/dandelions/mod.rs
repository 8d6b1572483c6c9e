//! Ben Orlin's *Dandelions*, solved.
//!
//! Rules: on an `n × n` grid (5 × 5 in the book) the dandelions and the wind
//! each have 7 turns, dandelions first, then alternating (the wind's 7th
//! turn is the last). The dandelions place a flower on any cell without a
//! flower (seeded or not); a flower seeds its own cell. The wind blows in
//! one of the 8 compass directions, each at most once per game: every
//! flower on the board then seeds every cell from it to the edge in that
//! direction (seeds do not spread further). The dandelions win if every
//! cell holds a flower or a seed at the end; otherwise the wind wins.
//!
//! With perfect play the dandelions win the 5 × 5 game, from every first
//! move; [`solver`] proves it.
//!
//! * [`board`]: cells, directions, moves, the one-integer state, the
//!   position text format (documented there) and its parser.
//! * [`solver`]: the AND/OR proof search.
//! * [`play`]: the terminal game.
//!
//! Entry points for the command line: [`solve_command`], [`play_command`]
//! (its benchmark is `bench::dandelions`).

pub mod board;
pub mod play;
pub mod solver;

#[cfg(test)]
mod tests;

use std::fmt::Write as _;
use std::time::Instant;

use serde::Serialize;

pub use board::{Cell, CellContent, Dir, Geometry, Move, Position, State};
pub use play::play_command;
pub use solver::{solve, Outcome, SolveOptions, Solver};

/// A side of the game.
///
/// In [`play_command`] the `Side` given is the side the **program** plays;
/// the person plays the other one. So `autoplay play dandelions --as wind`
/// means the program is the wind and the person places the flowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Wind,
    Dandelions,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::Wind => Side::Dandelions,
            Side::Dandelions => Side::Wind,
        }
    }

    /// `"the wind"` / `"the dandelions"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Wind => "the wind",
            Side::Dandelions => "the dandelions",
        }
    }

    /// `"the wind wins"` / `"the dandelions win"`.
    pub fn wins(self) -> &'static str {
        match self {
            Side::Wind => "the wind wins",
            Side::Dandelions => "the dandelions win",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Wind => "wind",
            Side::Dandelions => "dandelions",
        })
    }
}

/// Errors a person can cause: bad position text or an illegal move. Lines
/// and columns are counted from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DandelionsError {
    #[error("line {line}, column {column}: unexpected character {found:?} in the grid (expected `*` flower, `~` seed or `.` empty)")]
    BadCell { line: usize, column: usize, found: char },
    #[error("line {line}: the row has {found} cells, expected {expected} (the grid must be square)")]
    RowLength { line: usize, found: usize, expected: usize },
    #[error("the grid has {rows} rows; it must be square with 2 to 6 rows")]
    GridSize { rows: usize },
    #[error("no grid found: expected 2 to 6 rows of `*`, `~` and `.` before the `wind:` line")]
    NoGrid,
    #[error(
        "missing the `wind:` line listing the directions still available (e.g. `wind: N NE E S W`, or `wind: none`)"
    )]
    MissingWinds,
    #[error("line {line}, column {column}: unknown wind direction {word:?} (expected N, NE, E, SE, S, SW, W or NW)")]
    BadDirection { line: usize, column: usize, word: String },
    #[error("line {line}, column {column}: wind direction {dir} is listed twice")]
    DuplicateDirection { line: usize, column: usize, dir: &'static str },
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("line {line}, column {column}: this seed lies beyond no flower in any direction the wind has used")]
    StraySeed { line: usize, column: usize },
    #[error("impossible position: {reason}")]
    Inconsistent { reason: String },
    #[error("illegal move {mv}: {reason}")]
    IllegalMove { mv: String, reason: String },
}

#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    winner: Side,
}

#[derive(Serialize)]
struct SolveReport {
    position: String,
    size: usize,
    turns: usize,
    to_move: Option<Side>,
    winner: Side,
    best_move: Option<String>,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_nodes: Option<u64>,
}

/// `autoplay solve dandelions [FILE|-] [--first-moves] [--json]`.
///
/// `position_text` is the position (format in [`board`]); `None` means the
/// empty 5 × 5 board. Prints who wins with perfect play, a best move for
/// the side to move (a winning one when it wins), the time and the nodes
/// searched. With `first_moves`, also the winner after each legal move of
/// the side to move (on the empty board: the 25 first placements). With
/// `json`, the same as one JSON object.
pub fn solve_command(position_text: Option<&str>, first_moves: bool, json: bool) -> anyhow::Result<String> {
    let pos = match position_text {
        Some(text) => Position::parse(text)?,
        None => Position::start(),
    };
    let mut solver = Solver::new(pos.size(), pos.turns(), &SolveOptions::default());
    let outcome = solver.outcome(&pos);
    let mut moves = None;
    let (mut moves_seconds, mut moves_nodes) = (None, None);
    if first_moves {
        let start = Instant::now();
        let nodes = solver.nodes();
        moves = Some(solver.move_values(&pos));
        moves_seconds = Some(start.elapsed().as_secs_f64());
        moves_nodes = Some(solver.nodes() - nodes);
    }
    if json {
        let report = SolveReport {
            position: pos.to_string(),
            size: pos.size(),
            turns: pos.turns(),
            to_move: outcome.to_move,
            winner: outcome.winner,
            best_move: outcome.best_move.map(|m| m.to_string()),
            nodes: outcome.nodes,
            seconds: outcome.elapsed.as_secs_f64(),
            moves: moves
                .as_ref()
                .map(|ms| ms.iter().map(|&(mv, winner)| MoveValue { mv: mv.to_string(), winner }).collect()),
            moves_seconds,
            moves_nodes,
        };
        return Ok(serde_json::to_string_pretty(&report)? + "\n");
    }
    let mut out = String::new();
    writeln!(out, "{}", play::render(&pos))?;
    match outcome.to_move {
        None => writeln!(out, "The game is over: {}.", outcome.winner.wins())?,
        Some(side) => {
            writeln!(out, "To move: {}.", side.name())?;
            writeln!(out, "With perfect play {}.", outcome.winner.wins())?;
            if let Some(mv) = outcome.best_move {
                let how = if outcome.winner == side { "winning move" } else { "no winning move; suggested" };
                writeln!(out, "Best move ({how}): {mv}")?;
            }
        }
    }
    writeln!(out, "Solved in {:.3} s, {} nodes.", outcome.elapsed.as_secs_f64(), outcome.nodes)?;
    if let (Some(ms), Some(mover)) = (&moves, pos.to_move()) {
        let winning = ms.iter().filter(|(_, w)| *w == mover).count();
        writeln!(out)?;
        writeln!(out, "Each move of {} ({} of {} win for the mover):", mover.name(), winning, ms.len())?;
        if pos.to_move() == Some(Side::Dandelions) {
            let n = pos.size();
            for r in 0..n {
                let mut line = String::new();
                for c in 0..n {
                    let cell = Cell::new(r, c);
                    let w = ms.iter().find(|(m, _)| *m == Move::Place(cell)).map(|(_, w)| *w);
                    let tag = match w {
                        Some(Side::Dandelions) => "D",
                        Some(Side::Wind) => "W",
                        None => "*",
                    };
                    write!(line, "  {cell}:{tag}")?;
                }
                writeln!(out, "{line}")?;
            }
            writeln!(out, "(D: the dandelions win after that placement, W: the wind wins, *: a flower is there)")?;
        } else {
            for (mv, w) in ms {
                writeln!(out, "  {mv}: {}", w.wins())?;
            }
        }
        writeln!(out, "Checked in {:.3} s, {} nodes.", moves_seconds.unwrap_or(0.0), moves_nodes.unwrap_or(0))?;
    }
    Ok(out)
}
