//! Flood-It (Simon Tatham's `sgt-flood`): pick a colour, the region connected to the top-left corner (or to the
//! start cell a board names, such as the centre) takes it; make the whole board one colour in the fewest moves.
//!
//! `board` is the board and its text form, `rules` what a move does, `solver` the optimal solver, `sgt_id` the
//! game IDs of sgt-flood. Reading it from a window and playing it there is its client's (`clients::flood`).

pub mod board;
pub mod rules;
pub mod sgt_id;
pub mod solver;

use anyhow::Result;

pub use board::FloodBoard;

use crate::game::{Game, Plan, SolveLimits};

/// A Flood-It move: the colour (symbol) to pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourMove(pub u8);

impl std::fmt::Display for ColourMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0 as char)
    }
}

/// Flood-It's rules: a board's text, the optimal solver, a pick's result and the end. (Reading a board from a
/// picture, and what a window shows of its client, is the client's: `clients::flood`.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Flood;

/// Solves a board, turning solver output into a plan of colour moves.
pub fn solve_board(board: &FloodBoard, limits: &SolveLimits) -> Plan<ColourMove> {
    let solver_limits = solver::Limits { deadline: limits.deadline, node_limit: None };
    let solution = solver::solve_from(board.width, board.height, &board.cells, board.start, &solver_limits);
    Plan {
        moves: solution.moves.into_iter().map(ColourMove).collect(),
        optimal: solution.optimal,
        nodes: solution.nodes,
    }
}

impl Game for Flood {
    type Board = FloodBoard;
    type Move = ColourMove;

    fn name(&self) -> &'static str {
        "flood"
    }

    fn parse_board(&self, text: &str) -> Result<FloodBoard> {
        Ok(FloodBoard::parse(text)?)
    }

    fn solve(&self, board: &FloodBoard, limits: &SolveLimits) -> Result<Plan<ColourMove>> {
        Ok(solve_board(board, limits))
    }

    fn apply(&self, board: &FloodBoard, mv: &ColourMove) -> FloodBoard {
        let mut next = board.clone();
        rules::apply_move_from(next.width, next.height, &mut next.cells, next.start, mv.0);
        next
    }

    fn is_won(&self, board: &FloodBoard) -> bool {
        rules::is_solved(&board.cells)
    }
}
