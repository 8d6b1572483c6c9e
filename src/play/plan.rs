//! Plan: the board as read solved, again whenever a move did not show as expected.

use std::time::Instant;

use super::failure::{fail, FailureKind};
use anyhow::Result;

use super::{PlayEvent, Player};
use crate::game::{BoardOf, Client, Game, MoveOf, Plan, SolveLimits};

impl<'a, G: Client> Player<'a, G> {
    /// Plan: solves the board as read.
    pub(super) fn plan(&mut self, board: &BoardOf<G>) -> Result<Plan<MoveOf<G>>> {
        let limits = SolveLimits { deadline: self.options.solve_time.map(|t| Instant::now() + t) };
        let found = self.game.rules().solve(board, &limits)?;
        if found.moves.is_empty() {
            fail!(FailureKind::Unsolvable, "the solver found no move on a board that is not won:\n{board}");
        }
        let moves: Vec<String> = found.moves.iter().map(|m| m.to_string()).collect();
        self.report(PlayEvent::Planned { moves, optimal: found.optimal });
        Ok(found)
    }
}
