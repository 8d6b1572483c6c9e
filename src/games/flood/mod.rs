//! Flood-It (Simon Tatham's `sgt-flood`): pick a colour, the region connected to the top-left corner (or to the
//! start cell a board names, such as the centre) takes it; make the whole board one colour in the fewest moves.
//!
//! `board` is the board and its text form, `rules` what a move does, `solver` the optimal solver, `screen` the
//! reader, calibration themes and actions for playing it in a window, `cli` its commands.

pub mod board;
pub mod rules;
pub mod screen;
pub mod sgt_id;
pub mod solver;

use std::sync::Mutex;

use anyhow::Result;

pub use board::FloodBoard;

use crate::game::{Game, Plan, SolveLimits};
use screen::theme::PaletteTheme;

/// A Flood-It move: the colour (symbol) to pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourMove(pub u8);

impl std::fmt::Display for ColourMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0 as char)
    }
}

/// Flood-It with the calibration themes its reader may use (none for the rules alone), and the start cell a
/// live game has shown by its moves where that is not the corner (see [`rules::start_shown_by_move`]).
pub struct Flood {
    pub themes: Vec<PaletteTheme>,
    /// Where the themes came from, so that what play learns can be kept in them (none for the rules alone).
    pub calibration_root: Option<std::path::PathBuf>,
    shown_start: Mutex<Option<ShownStart>>,
    /// The colours found in the picture at the window's first reading, where no theme read it: a game's colours
    /// never change, so later readings of the window use these alone (a frame in mid-fade, or a board darkened
    /// under the game's end box, is then no board rather than a board of new colours).
    found_palette: Mutex<Option<PaletteTheme>>,
    /// What the game has learned of the window's controls other than its cells (buttons, number keys).
    controls: Mutex<Option<screen::controls::Controls>>,
}

/// The cell a client's flood grows from, as its moves showed, for boards of this size.
#[derive(Clone, Copy, Debug)]
struct ShownStart {
    width: usize,
    height: usize,
    start: usize,
}

impl Flood {
    pub fn new(themes: Vec<PaletteTheme>) -> Flood {
        Flood {
            themes,
            calibration_root: None,
            shown_start: Mutex::new(None),
            found_palette: Mutex::new(None),
            controls: Mutex::new(None),
        }
    }

    /// The start cell the game's moves have shown for a board of this size, if any.
    fn shown_start(&self, width: usize, height: usize) -> Option<usize> {
        let shown = (*self.shown_start.lock().unwrap_or_else(|e| e.into_inner()))?;
        ((shown.width, shown.height) == (width, height)).then_some(shown.start)
    }

    fn show_start(&self, width: usize, height: usize, start: usize) {
        *self.shown_start.lock().unwrap_or_else(|e| e.into_inner()) = Some(ShownStart { width, height, start });
    }

    /// The colours found at the window's first reading, if they were found in the picture.
    fn found_palette(&self) -> Option<PaletteTheme> {
        self.found_palette.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn keep_found_palette(&self, palette: Option<PaletteTheme>) {
        *self.found_palette.lock().unwrap_or_else(|e| e.into_inner()) = palette;
    }
}

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
