//! Flood-It (Simon Tatham's `sgt-flood`): pick a colour, the region connected to the top-left corner takes it;
//! make the whole board one colour in the fewest moves.

pub mod bench;
pub mod board;
pub mod commands;
pub mod reader;
pub mod sgt_id;
pub mod solver;

use std::collections::VecDeque;

use anyhow::{bail, Result};
use image::RgbaImage;

pub use board::FloodBoard;

use crate::calibration::PaletteTheme;
use crate::game::{Action, CellLayout, Game, Plan, Reading, SolveLimits};

/// A Flood-It move: the colour (symbol) to pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourMove(pub u8);

impl std::fmt::Display for ColourMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0 as char)
    }
}

/// Flood-It with the calibration themes its reader may use.
pub struct Flood {
    pub themes: Vec<PaletteTheme>,
}

/// Solves a board, turning solver output into a plan of colour moves.
pub fn solve_board(board: &FloodBoard, limits: &SolveLimits) -> Plan<ColourMove> {
    let solver_limits = solver::Limits { deadline: limits.deadline, node_limit: None };
    let solution = solver::solve(board.width, board.height, &board.cells, &solver_limits);
    Plan { moves: solution.moves.into_iter().map(ColourMove).collect(), optimal: solution.optimal, nodes: solution.nodes }
}

/// The cells of the flood (the region connected to the top-left cell), as a mask.
fn flood_mask(board: &FloodBoard) -> Vec<bool> {
    let (w, h) = (board.width, board.height);
    let mut inside = vec![false; w * h];
    let colour = board.cells[0];
    let mut queue = VecDeque::from([0usize]);
    inside[0] = true;
    while let Some(i) = queue.pop_front() {
        let (r, c) = (i / w, i % w);
        let neighbours = [(r > 0).then(|| i - w), (r + 1 < h).then(|| i + w), (c > 0).then(|| i - 1), (c + 1 < w).then(|| i + 1)];
        for n in neighbours.into_iter().flatten() {
            if !inside[n] && board.cells[n] == colour {
                inside[n] = true;
                queue.push_back(n);
            }
        }
    }
    inside
}

/// The cell to click to play `colour`: one of that colour touching the flood (the region the move absorbs),
/// else any of that colour.
pub fn target_cell(board: &FloodBoard, colour: u8) -> Option<(usize, usize)> {
    let (w, h) = (board.width, board.height);
    let inside = flood_mask(board);
    let touches = |i: usize| {
        let (r, c) = (i / w, i % w);
        (r > 0 && inside[i - w]) || (r + 1 < h && inside[i + w]) || (c > 0 && inside[i - 1]) || (c + 1 < w && inside[i + 1])
    };
    let of_colour = || (0..w * h).filter(|&i| board.cells[i] == colour && !inside[i]);
    of_colour().find(|&i| touches(i)).or_else(|| of_colour().next()).map(|i| (i / w, i % w))
}

impl Game for Flood {
    type Board = FloodBoard;
    type Move = ColourMove;

    fn name(&self) -> &'static str {
        "flood"
    }

    fn window_titles(&self) -> &'static [&'static str] {
        &["Flood"]
    }

    fn parse_board(&self, text: &str) -> Result<FloodBoard> {
        Ok(FloodBoard::parse(text)?)
    }

    fn read(&self, image: &RgbaImage, hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>> {
        reader::read(image, &self.themes, hint)
    }

    fn solve(&self, board: &FloodBoard, limits: &SolveLimits) -> Result<Plan<ColourMove>> {
        Ok(solve_board(board, limits))
    }

    fn check_playable(&self, reading: &Reading<FloodBoard>) -> Result<()> {
        let Some(theme) = self.themes.iter().find(|t| t.theme == reading.theme) else { return Ok(()) };
        let unplayable: Vec<String> = reading
            .board
            .colours()
            .into_iter()
            .filter_map(|s| theme.colours.iter().find(|c| c.symbol as u8 == s && !c.playable))
            .map(|c| format!("'{}'", c.symbol))
            .collect();
        if !unplayable.is_empty() {
            bail!(
                "refusing to play: the board has colour(s) {} that theme '{}' marks unplayable, because picking them \
                 breaks the game ({})",
                unplayable.join(", "),
                theme.theme,
                theme.description
            );
        }
        Ok(())
    }

    fn actions(&self, reading: &Reading<FloodBoard>, mv: &ColourMove) -> Result<Vec<Action>> {
        let Some((row, col)) = target_cell(&reading.board, mv.0) else {
            bail!("no cell of colour '{mv}' outside the flood to click");
        };
        let (x, y) = reading.layout.centre(row, col);
        Ok(vec![Action::Click { x, y }])
    }

    fn apply(&self, board: &FloodBoard, mv: &ColourMove) -> FloodBoard {
        let mut next = board.clone();
        solver::apply_move(next.width, next.height, &mut next.cells, mv.0);
        next
    }

    fn is_won(&self, board: &FloodBoard) -> bool {
        solver::is_solved(&board.cells)
    }
}
