//! Reader latency on one screenshot, for a `bench` command to report.

use anyhow::Result;
use image::RgbaImage;

use crate::bench::{time_reads, Summary};
use crate::games::sudoku::Sudoku;

/// Times reading `image` `repeats` times, as the game reads it (themes, else with no calibration), after one
/// untimed read that must succeed.
pub fn bench_read(image: &RgbaImage, game: &Sudoku, repeats: usize) -> Result<Summary> {
    time_reads(repeats, || super::read_any(image, &game.themes, game.digit_shapes.as_ref()))
}
