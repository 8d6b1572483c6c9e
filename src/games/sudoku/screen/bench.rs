//! Reader latency on one screenshot, for a `bench` command to report.

use std::time::{Duration, Instant};

use anyhow::Result;
use image::RgbaImage;

use crate::bench::{summarise, Summary};
use crate::games::sudoku::Sudoku;

/// Times reading `image` `repeats` times, as the game reads it (themes, else with no calibration), after one
/// untimed read that must succeed.
pub fn bench_read(image: &RgbaImage, game: &Sudoku, repeats: usize) -> Result<Summary> {
    let read = || super::read_any(image, &game.themes, game.digit_shapes.as_ref());
    read()?;
    let times: Vec<Duration> = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            let reading = read();
            let elapsed = start.elapsed();
            std::hint::black_box(reading).ok();
            elapsed
        })
        .collect();
    Ok(summarise(&times))
}
