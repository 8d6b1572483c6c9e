//! What ended a game that was not won, by kind: the loop's own stops carry a [`Failure`] with its
//! [`FailureKind`], and [`kind_of`] finds the kind of any error the loop returns (the user's stop, a wait that
//! ran out, a reading that failed), so that a bench counts failures by what they are and not by their words.

use serde::Serialize;

/// The kinds of ending that are not a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The board could not be read (at the start, or in a window that was not covered).
    NoBoard,
    /// A move's input was sent and nothing of it showed in the whole patience.
    NotShown,
    /// A move showed more times than its input was sent.
    ShownTwice,
    /// No way of making moves that the bot knows changed the board.
    NoWay,
    /// The board never held still long enough to be read.
    NeverStill,
    /// The board kept showing what was not expected (the reading flips, or something takes moves back).
    Circling,
    /// After the last move the game opened a window over its board and the move's effect cannot be told.
    EndWindow,
    /// The input could not be delivered: the pointer or the keyboard focus was held elsewhere.
    InputBlocked,
    /// The user stopped the bot (took the mouse, pressed the stop key).
    Stopped,
    /// The move limit passed without a win.
    MoveLimit,
    /// The solver found no move on a board that is not won (a misreading, or a lost game).
    Unsolvable,
    /// The client stopped the game on a reading it could tell was wrong.
    Misread,
    /// Anything else (the desktop went away, a file could not be written).
    Other,
}

impl FailureKind {
    /// The kind as one word-group, as `--json` writes it.
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }
}

/// A stop of the loop's own, of a known kind.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
}

/// Returns early with a [`Failure`] of that kind: `fail!(FailureKind::NotShown, "move {} …", n)`.
macro_rules! fail {
    ($kind:expr, $($message:tt)+) => {
        return Err($crate::play::Failure { kind: $kind, message: format!($($message)+) }.into())
    };
}
pub(crate) use fail;

/// The kind of an error that ended a game: the first link of its chain whose type says it.
pub fn kind_of(error: &anyhow::Error) -> FailureKind {
    // (A failure given as a context is found by the error's own downcast, not by its chain.)
    if let Some(failure) = error.downcast_ref::<Failure>() {
        return failure.kind;
    }
    for cause in error.chain() {
        if let Some(failure) = cause.downcast_ref::<Failure>() {
            return failure.kind;
        }
        if cause.is::<super::hands::PointerMoved>() || cause.is::<super::hands::StopKeyPressed>() {
            return FailureKind::Stopped;
        }
    }
    FailureKind::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped_by_the_loop() -> anyhow::Result<()> {
        fail!(FailureKind::NotShown, "move {} has not shown", 3)
    }

    #[test]
    fn a_failure_keeps_its_kind_under_context_and_others_are_named_by_type() {
        use anyhow::Context;
        let error = stopped_by_the_loop().context("playing").unwrap_err();
        assert_eq!(kind_of(&error), FailureKind::NotShown);
        assert_eq!(format!("{error:#}"), "playing: move 3 has not shown");
        let moved = super::super::hands::PointerMoved { left_x: 1, left_y: 2, found_x: 3, found_y: 4 };
        assert_eq!(kind_of(&anyhow::Error::new(moved)), FailureKind::Stopped);
        assert_eq!(kind_of(&anyhow::anyhow!("a file could not be written")), FailureKind::Other);
        assert_eq!(FailureKind::ShownTwice.name(), "shown-twice");
        let unread =
            anyhow::anyhow!("no grid").context(Failure { kind: FailureKind::NoBoard, message: "unread".into() });
        assert_eq!(kind_of(&unread.context("playing")), FailureKind::NoBoard);
    }
}
