//! Each screen game's front end, one folder per game (Tatham's front end apart from the back end): how the game's
//! windows look and take input — the reader and its calibration themes, the actions, the ways a client takes a
//! move — behind [`crate::game::Screen`] (loaded once from the calibration) and [`crate::game::Client`] (one
//! window, owned by the play loop, holding what that window has shown). The rules they play by are in
//! [`crate::games`], which knows nothing of pictures.

pub mod cribbage;
pub mod flood;
pub mod sudoku;

/// One way of reading a picture that failed, and why: with the calibration themes, or with none.
pub struct WayFailed {
    pub way: &'static str,
    pub error: anyhow::Error,
}

/// The way that reads with the calibration themes.
pub const WITH_THEMES: &str = "with the calibration themes";
/// The way that reads with no calibration (what the picture itself shows).
pub const WITH_NO_CALIBRATION: &str = "with no calibration";

/// The error when no way read a picture of `game`: it names how far every way got (each way's own error), and is
/// the `telling` way's error in kind (the type a caller chooses by, never the text), under a context naming the
/// others. The telling failure comes last in the message, as the cause.
pub fn no_way_read(game: &str, mut failed: Vec<WayFailed>, telling: usize) -> anyhow::Error {
    let telling = failed.remove(telling.min(failed.len() - 1));
    if failed.is_empty() {
        return telling.error.context(format!("reading {game} {}", telling.way));
    }
    let others: Vec<String> = failed.iter().map(|f| format!("{}: {:#}", f.way, f.error)).collect();
    telling.error.context(format!("no way read the {game} board — {}; {}", others.join("; "), telling.way))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("no grid here")]
    struct Kind;

    #[test]
    fn the_error_names_every_way_and_keeps_the_telling_ones_kind() {
        let failed = || {
            vec![
                WayFailed { way: WITH_THEMES, error: anyhow::anyhow!("a frame pixel is no colour of its palette") },
                WayFailed { way: WITH_NO_CALIBRATION, error: anyhow::Error::new(Kind).context("the search") },
            ]
        };
        let error = no_way_read("Flood-It", failed(), 1);
        assert_eq!(
            format!("{error:#}"),
            "no way read the Flood-It board — with the calibration themes: a frame pixel is no colour of its palette; \
             with no calibration: the search: no grid here"
        );
        assert!(error.downcast_ref::<Kind>().is_some());
        let error = no_way_read("Flood-It", failed(), 0);
        assert!(
            format!("{error:#}").ends_with("with the calibration themes: a frame pixel is no colour of its palette")
        );
        assert!(error.downcast_ref::<Kind>().is_none());
        let alone = vec![WayFailed { way: WITH_NO_CALIBRATION, error: anyhow::Error::new(Kind) }];
        assert_eq!(
            format!("{:#}", no_way_read("Sudoku", alone, 0)),
            "reading Sudoku with no calibration: no grid here"
        );
    }
}
