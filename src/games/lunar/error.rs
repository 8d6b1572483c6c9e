//! User-facing errors of the Lunar Lockout module.

use thiserror::Error;

/// Everything that can go wrong with user input. Line and column numbers in messages are
/// 1-based positions in the board text (comment and blank lines count); cell coordinates
/// (`row,col`) are 0-based like the move notation and `--target`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LunarError {
    #[error("the board text has no rows (only blank or `//` comment lines)")]
    Empty,
    #[error("line {line}, column {col}: unknown character {ch:?} (expected one of . X o # + x O)")]
    UnknownChar { line: usize, col: usize, ch: char },
    #[error("line {line}: row has {found} cells but the first row has {expected}")]
    Ragged { line: usize, expected: usize, found: usize },
    #[error("line {line}, column {col}: row is longer than 8 cells (boards are at most 8×8)")]
    TooManyColumns { line: usize, col: usize },
    #[error("line {line}: a 9th row (boards are at most 8×8)")]
    TooManyRows { line: usize },
    #[error("no human on the board (write `X`, or `x` for a human standing on the target)")]
    NoHuman,
    #[error(
        "line {line}, column {col}: a second target marker (the first is on line {first_line}, column {first_col}); \
         at most one of + x O may appear"
    )]
    SecondTarget { line: usize, col: usize, first_line: usize, first_col: usize },
    #[error("the board is {rows}×{cols} and has no centre cell; give the target explicitly (--target R,C)")]
    NoCentre { rows: usize, cols: usize },
    #[error("target {row},{col} is outside the {rows}×{cols} board (coordinates are 0-based)")]
    TargetOutside { row: usize, col: usize, rows: usize, cols: usize },
    #[error("target {row},{col} is on a block")]
    TargetOnBlock { row: usize, col: usize },
    #[error("the board text marks the target at {marked_row},{marked_col} but --target {row},{col} was given")]
    TargetConflict { marked_row: usize, marked_col: usize, row: usize, col: usize },
    #[error(
        "gave up after storing {limit} search states: this position's state space is too big to \
         search exhaustively (fewer robots or a smaller board make it tractable)"
    )]
    SearchLimit { limit: usize },
    #[error("the enumeration supports 1 to 5 helpers, got {0}")]
    Helpers(usize),
}
