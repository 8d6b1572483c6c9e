//! Reader latency on one screenshot, for a `bench` command to report.

use std::time::{Duration, Instant};

use anyhow::Result;
use image::RgbaImage;

use super::theme::SudokuTheme;
use crate::bench::{summarise, Summary};

/// Times reading `image` `repeats` times (after one untimed read that must succeed).
pub fn bench_read(image: &RgbaImage, themes: &[SudokuTheme], repeats: usize) -> Result<Summary> {
    super::read(image, themes)?;
    let times: Vec<Duration> = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            let reading = super::read(image, themes);
            let elapsed = start.elapsed();
            std::hint::black_box(reading).ok();
            elapsed
        })
        .collect();
    Ok(summarise(&times))
}
