//! Reading Sudoku from the screen (Simon Tatham's `sgt-solo`, window title "Solo"): the grid is found from its
//! lines ([`crate::vision::grid_lines`]), each cell's digit by calibrated glyph templates, and its ink colour
//! tells a given (black) from a player's digit (green), a clash (red) and pencil marks (blue, not digits).
//!
//! This folder holds only the reader; the Sudoku board and solver live in `games::sudoku`.

pub mod bench;
pub mod commands;
pub mod play;
pub mod board;
pub mod reader;
pub mod sgt_id;
pub mod theme;

pub use board::SudokuGrid;
pub use reader::{read, SudokuReading};
pub use theme::SudokuTheme;
