//! Lunar Lockout, solved from board text.
//!
//! # Rules
//!
//! A rectangular board (5×5 for the official cards, up to 8×8 here) holds one or more
//! humans (the red piece, `X`), helper robots (`o`), optionally fixed blocks (`#`), and a
//! target cell (the centre on the 5×5 cards). A move slides one piece in one of the four
//! directions until it meets another piece or block, stopping on the cell just before it.
//! A piece with nothing in that direction cannot move that way (it would fly off the
//! board), nor can a piece whose neighbour in that direction is occupied (a slide of
//! length zero is not a move). The target does not stop pieces. The puzzle is solved when
//! any human stands on the target, in as few slides as possible.
//!
//! # Board text
//!
//! One line per row: `.` empty, `X` human, `o` robot, `#` block, `+` the empty target,
//! `x` a human on the target, `O` a robot on the target. Blank lines and lines starting
//! with `//` are ignored, as is trailing whitespace. Without a marker the target is given
//! by the caller (`--target R,C`, 0-based) or is the centre (odd sides only). See
//! [`Board::parse`] for the validation rules and [`LunarError`] for the messages.
//!
//! # Move notation
//!
//! `o@2,3 left`: piece letter, then the 0-based `row,col` of the piece at the moment it
//! moves (before the slide; row 0 is the first board line), then `up`/`down`/`left`/
//! `right` (`up` = towards row 0). With a single human its moves print as `X down`.
//!
//! # Algorithms
//!
//! * Move generation on 64-bit occupancy masks (8×8 layout, masked for smaller boards);
//!   a slide is a shift-and-mask smear towards the nearest blocker (module `bitboard`).
//! * [`solve`]: A* over canonical states `(humans mask, robots mask)` with an admissible,
//!   consistent 0/1/2 bound (proof in the `solver` module docs).
//! * [`enumerate`]: retrograde analysis of every 5×5 position with K ≤ 5 helpers — one
//!   parallel backward BFS from all goal states over reverse slides (module `retro`).

mod bitboard;
mod board;
mod commands;
mod error;
#[cfg(test)]
mod reference;
mod retro;
mod solver;

pub use bitboard::Dir;
pub use board::{Board, Cell, Move, Piece, MAX_SIDE};
pub use commands::{
    enumerate_command, group, render_enumeration, solve_command, solve_command_with_status, SOLVE_STATE_LIMIT,
};
pub use error::LunarError;
pub use retro::{enumerate, Enumeration, Hardest, LengthCount, MAX_HELPERS};
pub use solver::{solve, solve_with_limit, solve_with_stats, Solution};

/// Official card 39 of the boxed game, which needs 13 slides: robots on (0,0), (0,2), (0,4),
/// (2,0) and (4,0), the red piece on (4,4), target the centre. The layout is as
/// transcribed in public Lunar Lockout solver repositories; the solver, the independent
/// reference search and the retrograde table all confirm the 13.
pub const CARD_39: &str = "o.o.o\n.....\no.+..\n.....\no...X";

/// Lunar Lockout behind the [`Game`](crate::game::Game) interface: board text with its target marked (or the
/// centre), solved by the shortest-path search.
pub struct Lunar;

impl crate::game::Game for Lunar {
    type Board = Board;
    type Move = Move;

    fn name(&self) -> &'static str {
        "lunar"
    }

    fn parse_board(&self, text: &str) -> anyhow::Result<Board> {
        Ok(Board::parse(text, None)?)
    }

    /// A shortest solution (proven: the search is A* with an admissible, consistent bound); an unsolvable board
    /// is an error.
    fn solve(&self, board: &Board, _limits: &crate::game::SolveLimits) -> anyhow::Result<crate::game::Plan<Move>> {
        let solution = solve_with_limit(board, SOLVE_STATE_LIMIT)?;
        let moves = solution.moves.ok_or_else(|| anyhow::anyhow!("the board has no solution"))?;
        Ok(crate::game::Plan { moves, optimal: true, nodes: solution.nodes })
    }

    /// The board after the slide; an impossible slide leaves it as it is.
    fn apply(&self, board: &Board, mv: &Move) -> Board {
        board.play(mv).unwrap_or_else(|| board.clone())
    }

    fn is_won(&self, board: &Board) -> bool {
        board.is_solved()
    }
}

#[cfg(test)]
mod game_tests {
    use super::*;
    use crate::game::{Game, SolveLimits};

    #[test]
    fn card_39_is_won_by_its_thirteen_slides() {
        let game = Lunar;
        let board = game.parse_board(CARD_39).unwrap();
        let plan = game.solve(&board, &SolveLimits::default()).unwrap();
        assert_eq!(plan.moves.len(), 13);
        let end = plan.moves.iter().fold(board.clone(), |b, m| game.apply(&b, m));
        assert!(game.is_won(&end) && !game.is_won(&board));
    }
}
