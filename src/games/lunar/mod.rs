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
    bench_command, enumerate_command, render_enumeration, solve_command, solve_command_with_status,
    SOLVE_STATE_LIMIT,
};
pub use error::LunarError;
pub use retro::{enumerate, Enumeration, Hardest, LengthCount, MAX_HELPERS};
pub use solver::{solve, solve_with_limit, solve_with_stats, Solution};

/// Official card 39 of the boxed game, which needs 13 slides: robots on (0,0), (0,2), (0,4),
/// (2,0) and (4,0), the red piece on (4,4), target the centre. The layout is as
/// transcribed in public Lunar Lockout solver repositories; the solver, the independent
/// reference search and the retrograde table all confirm the 13.
pub const CARD_39: &str = "o.o.o\n.....\no.+..\n.....\no...X";
