//! The end of a game: after the winning move, a board the game hides behind its report of the win (a box or
//! banner over it, a dialog of its own), or replaces at once with a new deal, is that report, where the board
//! before the move was the expected one.

use super::failure::{fail, FailureKind};
use anyhow::Result;

use super::{shown, PlayEvent, Player};
use crate::game::{BoardOf, Client, Game, MoveOf};

impl<'a, G: Client> Player<'a, G> {
    /// After the winning move, no board can be read: the game has hidden it behind its report of the end (a box
    /// or banner in its window, or a window of its own). The board before the move was the expected one.
    pub(super) fn end_screen(&mut self, number: usize, error: &anyhow::Error) -> Result<()> {
        let opened = self.source.windows_opened()?;
        let how =
            if opened.is_empty() { "covered its board".to_string() } else { format!("opened {}", opened.join(", ")) };
        self.report(PlayEvent::EndScreen { number, error: format!("{error:#}"), how });
        Ok(())
    }

    /// After the winning move the board reads otherwise: where the game has opened a window over part of it
    /// (KSudoku's "Information" box), the cells under that read as anything. That is the win when the move's own
    /// change does not read otherwise; no further move is made into that window.
    pub(super) fn end_window(&mut self, before: &BoardOf<G>, mv: &MoveOf<G>, seen: &BoardOf<G>) -> Result<bool> {
        let opened = self.source.windows_opened()?;
        if opened.is_empty() {
            return Ok(false);
        }
        if seen == before {
            fail!(
                FailureKind::EndWindow,
                "after the last move the game has opened {} over its board, and the board reads as it did before \
                 the move: whether the move was taken cannot be told; stopped rather than act into that window",
                opened.join(", ")
            );
        }
        let expected = self.game.rules().apply(before, mv);
        shown::move_shown(&mut *self.game, (before, mv, &expected), seen, None)?;
        self.report(PlayEvent::EndWindow { opened: opened.join(", ") });
        Ok(true)
    }

    /// After the winning move, from a board that was as expected, the window shows a board that is neither the
    /// board before the move nor near the won one: it differs from the won board at more than a quarter of its
    /// places (a misreading differs at a few). The game has dealt a new board at once, its report of the win; the
    /// new game is not played.
    pub(super) fn new_deal(&mut self, number: usize, before: &BoardOf<G>, won: &BoardOf<G>, seen: &BoardOf<G>) -> bool {
        if seen == before || seen == won {
            return false;
        }
        let (differing, places) = differing_places(&won.to_string(), &seen.to_string());
        if differing < NEW_DEAL_LEAST || differing * 4 <= places {
            return false;
        }
        self.report(PlayEvent::NewDeal { number, differing, places });
        true
    }
}

/// The fewest places a new deal differs from the won board at.
const NEW_DEAL_LEAST: usize = 3;

/// At how many places two boards' text forms differ, of how many (blanks apart; every place of the longer one counts,
/// and one that the other lacks differs).
fn differing_places(a: &str, b: &str) -> (usize, usize) {
    let places = |text: &str| -> Vec<char> { text.chars().filter(|c| !c.is_whitespace()).collect() };
    let (a, b) = (places(a), places(b));
    let count = a.len().max(b.len());
    let differing = (0..count).filter(|&i| a.get(i) != b.get(i)).count();
    (differing, count)
}

#[cfg(test)]
mod tests {
    use super::differing_places;

    #[test]
    fn places_differ_by_position_and_a_missing_place_differs() {
        assert_eq!(differing_places("AAA\nAAA", "AAB\nBAA"), (2, 6));
        assert_eq!(differing_places("AAA", "AAAA"), (1, 4));
    }
}
