//! The client's answers to what the window showed ([`Client::shown`]), each question as the loop asks it: one
//! function per kind of [`Shown`], turning the [`Answer`] into what that question wants (an answer of another kind
//! counts as none).

use anyhow::Result;

use crate::game::{Answer, BoardOf, Client, Learned, MoveOf, Shown};

/// Whether the board `seen` after a move shows the move was never taken: the board as it was, where the move
/// would change it.
pub fn not_taken<B: PartialEq>(before: &B, expected: &B, seen: &B) -> bool {
    seen == before && expected != before
}

/// Whether `layout` shows `mv`'s place chosen (`Some(false)`: another is); `None` where it shows no choice.
pub fn chosen<G: Client>(game: &mut G, layout: &G::Layout, mv: &MoveOf<G>) -> Result<Option<bool>> {
    Ok(match game.shown(Shown::Choice { layout, mv })? {
        Answer::Chosen(chosen) => Some(chosen),
        _ => None,
    })
}

/// Whether the click of `mv` alone, on `before`, entered the move (`seen` read after it).
pub fn click_entered<G: Client>(game: &mut G, before: &BoardOf<G>, mv: &MoveOf<G>, seen: &BoardOf<G>) -> Result<bool> {
    Ok(matches!(game.shown(Shown::Click { before, mv, seen })?, Answer::Entered))
}

/// Whether the click of `mv` alone, made on the board laid out as `layout`, entered a symbol, as `error` (why the
/// window after it did not read) shows.
pub fn unread_click_entered<G: Client>(
    game: &mut G,
    layout: &G::Layout,
    mv: &MoveOf<G>,
    error: &anyhow::Error,
) -> Result<bool> {
    Ok(matches!(game.shown(Shown::ClickUnread { layout, mv, error })?, Answer::Entered))
}

/// What `mv`, made on `before` (the rules expect `expected`), taught the client, `seen` read after it; an error
/// where the client will not go on from what it shows.
pub fn move_shown<G: Client>(
    game: &mut G,
    (before, mv, expected): (&BoardOf<G>, &MoveOf<G>, &BoardOf<G>),
    seen: &BoardOf<G>,
    trial: Option<usize>,
) -> Result<Learned<BoardOf<G>>> {
    Ok(match game.shown(Shown::Move { before, mv, seen, expected, trial })? {
        Answer::Learned(learned) => learned,
        _ => Learned { variant: None, control: None },
    })
}

/// The board `seen`, completed with what the bot knew (`known`) where the window does not show everything.
pub fn completed<G: Client>(game: &mut G, known: &BoardOf<G>, seen: BoardOf<G>) -> Result<BoardOf<G>> {
    Ok(match game.shown(Shown::Read { known, seen: &seen })? {
        Answer::Completed(board) => board,
        _ => seen,
    })
}
