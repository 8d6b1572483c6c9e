//! How a Cribbage Solitaire move becomes input: a click on the playable card of its column, or on the control
//! that ends the stack.

use anyhow::{Context, Result};

use super::reading::TablePoints;
use crate::game::Action;
use crate::games::cribbage::{Move, State};

/// The click that plays `mv` on `state`, laid out as `points`. A column's card points stay put as cards are
/// played, so the playable card of a column holding k cards is its k-th point.
pub fn click(points: &TablePoints, state: &State, mv: &Move) -> Result<Action> {
    let (x, y) = match *mv {
        Move::Play(c) => {
            let left = state.columns[c].len();
            let front = left.checked_sub(1).with_context(|| format!("column {} is empty", c + 1))?;
            *points.cards[c]
                .get(front)
                .with_context(|| format!("column {} shows fewer cards than the position holds", c + 1))?
        }
        Move::NewStack => points.next_stack.context("the table has no control that ends a stack")?,
    };
    Ok(Action::Click { x, y })
}
