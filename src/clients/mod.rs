//! Each screen game's front end, one folder per game (Tatham's front end apart from the back end): how the game's
//! windows look and take input — the reader and its calibration themes, the actions, the ways a client takes a
//! move — behind [`crate::game::Screen`] (loaded once from the calibration) and [`crate::game::Client`] (one
//! window, owned by the play loop, holding what that window has shown). The rules they play by are in
//! [`crate::games`], which knows nothing of pictures.

pub mod cribbage;
pub mod flood;
pub mod sudoku;

/// Which way's failure is the cause when no way of reading a picture worked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Reading with the calibration themes.
    Themes,
    /// Reading with no calibration (what the picture itself shows).
    Search,
}

impl Cause {
    fn way(self) -> &'static str {
        match self {
            Cause::Themes => "with the calibration themes",
            Cause::Search => "with no calibration",
        }
    }
}

/// The error when no way read a picture of `game`: the themes' failure (`None` where there are no themes) and the
/// search's, each named with how far it got. It is the `cause`'s error in kind (the type a caller chooses by, never
/// the text), under a context naming the other; the cause comes last in the message. Without themes, the search
/// is the cause whatever `cause` says.
pub fn no_way_read(game: &str, themed: Option<anyhow::Error>, found: anyhow::Error, cause: Cause) -> anyhow::Error {
    let Some(themed) = themed else {
        return found.context(format!("reading {game} {}", Cause::Search.way()));
    };
    let (telling, other, other_way) = match cause {
        Cause::Themes => (themed, found, Cause::Search),
        Cause::Search => (found, themed, Cause::Themes),
    };
    let other = format!("{}: {other:#}", other_way.way());
    telling.context(format!("no way read the {game} board — {other}; {}", cause.way()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("no grid here")]
    struct Kind;

    #[test]
    fn the_error_names_every_way_and_keeps_the_telling_ones_kind() {
        let themed = || Some(anyhow::anyhow!("a frame pixel is no colour of its palette"));
        let found = || anyhow::Error::new(Kind).context("the search");
        let error = no_way_read("Flood-It", themed(), found(), Cause::Search);
        assert_eq!(
            format!("{error:#}"),
            "no way read the Flood-It board — with the calibration themes: a frame pixel is no colour of its palette; \
             with no calibration: the search: no grid here"
        );
        assert!(error.downcast_ref::<Kind>().is_some());
        let error = no_way_read("Flood-It", themed(), found(), Cause::Themes);
        assert!(
            format!("{error:#}").ends_with("with the calibration themes: a frame pixel is no colour of its palette")
        );
        assert!(error.downcast_ref::<Kind>().is_none());
        assert_eq!(
            format!("{:#}", no_way_read("Sudoku", None, anyhow::Error::new(Kind), Cause::Themes)),
            "reading Sudoku with no calibration: no grid here"
        );
    }
}
