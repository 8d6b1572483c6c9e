//! The interface every game implements once, and the plain data that crosses stage boundaries.

use std::fmt::{Debug, Display};
use std::time::Instant;

use image::RgbaImage;
use serde::Serialize;

/// Where the cells of a read board sit in the image it was read from: a square lattice.
///
/// Coordinates are image pixels (add the frame's screen origin to get screen points).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellLayout {
    pub rows: usize,
    pub cols: usize,
    /// Image position of the lattice's top-left corner (the outer edge of cell (0, 0)).
    pub origin_x: f64,
    pub origin_y: f64,
    /// Side of one cell, in pixels.
    pub pitch: f64,
}

impl CellLayout {
    /// The image point at the centre of a cell, rounded to the nearest pixel.
    pub fn centre(&self, row: usize, col: usize) -> (i32, i32) {
        let x = self.origin_x + (col as f64 + 0.5) * self.pitch;
        let y = self.origin_y + (row as f64 + 0.5) * self.pitch;
        (x.floor() as i32, y.floor() as i32)
    }
}

/// A board read from an image, with the layout needed to act on it.
#[derive(Clone, Debug)]
pub struct Reading<B> {
    pub board: B,
    pub layout: CellLayout,
    /// The calibration theme that matched.
    pub theme: String,
}

/// One input event, in image coordinates of the frame the move was planned on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Click { x: i32, y: i32 },
    Type(char),
}

/// Limits on one solve.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    pub deadline: Option<Instant>,
}

/// What a solver found.
#[derive(Clone, Debug)]
pub struct Plan<M> {
    pub moves: Vec<M>,
    /// true only when the solver proved that no shorter (or better) plan exists.
    pub optimal: bool,
    pub nodes: u64,
}

/// One game, filled in once: its board's text form, its reader, its solver, how a move becomes input, and when
/// it is won. The play loop and the command line know nothing else about it.
pub trait Game {
    type Board: Clone + Debug + PartialEq + Display;
    type Move: Clone + Debug + Display;

    /// The game's name on the command line.
    fn name(&self) -> &'static str;
    /// The titles of the game's windows, tried in this order when the user names none.
    fn window_titles(&self) -> &'static [&'static str];
    /// Parses board text, naming the problem when it is not a valid board.
    fn parse_board(&self, text: &str) -> anyhow::Result<Self::Board>;
    /// Reads the board from a screenshot. `hint` is the layout of an earlier reading of the same window, used
    /// where the picture alone is ambiguous (for example a board of one colour).
    fn read(&self, image: &RgbaImage, hint: Option<&CellLayout>) -> anyhow::Result<Reading<Self::Board>>;
    fn solve(&self, board: &Self::Board, limits: &SolveLimits) -> anyhow::Result<Plan<Self::Move>>;
    /// How long to wait for the window to settle after a move. The default suits games that animate their
    /// moves; a game that draws each move at once can wait less. (After the move expected to win, the play loop
    /// always waits the default, so that a victory animation is never read half-way.)
    fn settle(&self) -> crate::capture::Settle {
        crate::capture::Settle::default()
    }
    /// Checks, before any input is sent, that the game can be played as read; an error names why not (for
    /// example a move the game is known to crash on). Nothing is checked by default.
    fn check_playable(&self, _reading: &Reading<Self::Board>) -> anyhow::Result<()> {
        Ok(())
    }
    /// The input events that play `mv` on the board shown by `reading`.
    fn actions(&self, reading: &Reading<Self::Board>, mv: &Self::Move) -> anyhow::Result<Vec<Action>>;
    /// The board expected after `mv`.
    fn apply(&self, board: &Self::Board, mv: &Self::Move) -> Self::Board;
    fn is_won(&self, board: &Self::Board) -> bool;
    /// The board to go on from once the window showed the expected one: by default what was seen. A game whose
    /// picture does not show everything the rules track (Cribbage Solitaire's score) keeps that from `expected`.
    fn confirmed(&self, _expected: &Self::Board, seen: Self::Board) -> Self::Board {
        seen
    }
    /// Checks the game window's title against the board, for games that show state there (the Cribbage table
    /// shows its score); nothing by default. An error stops the play.
    fn check_title(&self, _board: &Self::Board, _title: &str) -> anyhow::Result<()> {
        Ok(())
    }
    /// The first board read, completed from the window's title where the game shows state there.
    fn adopt_title(&self, board: Self::Board, _title: &str) -> Self::Board {
        board
    }
}
