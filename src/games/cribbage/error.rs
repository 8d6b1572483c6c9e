//! User-facing errors of the Cribbage Solitaire module.

use thiserror::Error;

/// Why a single move is illegal. Columns are numbered 1–4 from the left, as in solution lines.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("column {column} is empty")]
    EmptyColumn { column: usize },
    #[error("total would exceed 31 (column {column}'s {card} on a total of {total})")]
    Exceeds31 { column: usize, card: char, total: u32 },
    #[error("`_` while a card still fits (column {column}'s {card} on a total of {total})")]
    NewStackWhileFits { column: usize, card: char, total: u32 },
    #[error("`_` but no cards are left")]
    NewStackAtEnd,
}

/// Everything that can go wrong with user input: deal numbers, deal notation, state text and solution lines.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CribbageError {
    #[error("deals are numbered from 1 (got 0)")]
    DealZero,
    #[error("deal range {first}-{last} is empty (write A-B with 1 <= A <= B)")]
    BadRange { first: u64, last: u64 },
    #[error("deal notation needs 4 columns separated by `_`, found {found}")]
    ColumnCount { found: usize },
    #[error("column {column}: unknown card {ch:?} (expected one of A23456789TJQK)")]
    BadCard { column: usize, ch: char },
    #[error("column {column} has {len} cards (at most 13)")]
    ColumnTooLong { column: usize, len: usize },
    #[error("{count} cards of rank {rank} (a deck has 4 of each)")]
    TooManyOfRank { rank: char, count: usize },
    #[error("stack: unknown card {ch:?} (expected one of A23456789TJQK)")]
    BadStackCard { ch: char },
    #[error("stack total {total} exceeds 31")]
    StackOver31 { total: u32 },
    #[error("line {line}: {message}")]
    StateText { line: usize, message: String },
    #[error("the state text has no columns line (expected the columns in deal notation, e.g. `T2A_44K_638_22T`)")]
    NoColumns,
    #[error("line character {pos}: unexpected {ch:?} (a solution line holds column digits 1-4 and `_`)")]
    BadLineChar { pos: usize, ch: char },
    #[error("card {card}: {reason}")]
    Illegal { card: usize, reason: IllegalMove },
    #[error("the line ends after {played} cards with {left} still in the columns")]
    Incomplete { played: usize, left: usize },
}
