//! `autoplay bench flood`: solver speed on seeded random boards, reader latency on a screenshot, and the time to
//! find colour buttons in one.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;

use crate::bench::{peak_memory_bytes, progress_bar, summarise, Summary};
use crate::clients::flood::theme::PaletteTheme;
use crate::clients::flood::{self as screen, buttons};
use crate::games::flood::solver;

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub sizes: Vec<usize>,
    pub colours: u8,
    pub boards: usize,
    pub seed: u64,
    /// Per-board time limit; a board that hits it counts as not proven.
    pub time_limit: Duration,
}

#[derive(Debug, Serialize)]
pub struct SizeResult {
    pub size: String,
    pub colours: u8,
    pub time: Summary,
    pub proven_optimal: usize,
    pub total_moves: usize,
    pub mean_moves: f64,
    pub nodes: u64,
}

#[derive(Debug, Serialize)]
pub struct ReadResult {
    pub shot: String,
    pub width: u32,
    pub height: u32,
    pub time: Summary,
}

/// The time to find colour-button candidates in a screenshot whose board has been read.
#[derive(Debug, Serialize)]
pub struct ButtonsResult {
    pub shot: String,
    pub width: u32,
    pub height: u32,
    /// The candidates found, and how many of the board's colours have one.
    pub candidates: usize,
    pub colours_with_a_candidate: usize,
    pub colours: usize,
    pub time: Summary,
}

#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub solver: Vec<SizeResult>,
    pub read: Option<ReadResult>,
    pub buttons: Option<ButtonsResult>,
    pub peak_memory_mib: Option<f64>,
}

/// Solves `boards` seeded random boards of each size, one at a time (single-threaded timing).
pub fn bench_solver(options: &BenchOptions) -> Vec<SizeResult> {
    let bar = progress_bar((options.sizes.len() * options.boards) as u64, "flood solve");
    let mut results = Vec::new();
    for &size in &options.sizes {
        let mut times = Vec::new();
        let (mut proven, mut total_moves, mut nodes) = (0, 0, 0);
        for i in 0..options.boards {
            let seed = options.seed.wrapping_mul(1_000_003).wrapping_add((size * 1000 + i) as u64);
            let cells = solver::random_board(size, size, options.colours, seed);
            let start = Instant::now();
            let limits = solver::Limits { deadline: Some(start + options.time_limit), node_limit: None };
            let solution = solver::solve(size, size, &cells, &limits);
            times.push(start.elapsed());
            assert!(
                solver::check_solution(size, size, &cells, &solution.moves).is_ok(),
                "solver returned an invalid solution"
            );
            proven += usize::from(solution.optimal);
            total_moves += solution.moves.len();
            nodes += solution.nodes;
            bar.inc(1);
        }
        results.push(SizeResult {
            size: format!("{size}x{size}"),
            colours: options.colours,
            time: summarise(&times),
            proven_optimal: proven,
            total_moves,
            mean_moves: total_moves as f64 / options.boards.max(1) as f64,
            nodes,
        });
    }
    bar.finish_and_clear();
    results
}

/// Times reading one screenshot, `repeats` times.
pub fn bench_read(shot: &Path, themes: &[PaletteTheme], repeats: usize) -> Result<ReadResult> {
    let image = crate::imageio::load_image(shot)?;
    let time = crate::bench::time_reads(repeats, || screen::read(&image, themes, None))?;
    Ok(ReadResult { shot: shot.display().to_string(), width: image.width(), height: image.height(), time })
}

/// Times finding the colour buttons of a screenshot (`screen::buttons`: what the first move made by buttons adds),
/// `repeats` times, once its board is read (with the themes, else with colours found in the picture).
pub fn bench_buttons(shot: &Path, themes: &[PaletteTheme], repeats: usize) -> Result<ButtonsResult> {
    let image = crate::imageio::load_image(shot)?;
    let (reading, found) = screen::read_finding(&image, themes, None)?;
    let theme = match found {
        Some(found) => found,
        None => themes.iter().find(|t| t.theme == reading.theme).cloned().expect("the theme that read the board"),
    };
    let palette = theme.plain_colours();
    let mut candidates = Vec::new();
    let times: Vec<Duration> = (0..repeats)
        .map(|_| {
            let start = Instant::now();
            candidates = buttons::find_candidates(&image, &reading.layout, &palette);
            start.elapsed()
        })
        .collect();
    let colours = reading.board.colours();
    Ok(ButtonsResult {
        shot: shot.display().to_string(),
        width: image.width(),
        height: image.height(),
        candidates: candidates.len(),
        colours_with_a_candidate: colours.iter().filter(|&&s| candidates.iter().any(|c| c.symbol == s)).count(),
        colours: colours.len(),
        time: summarise(&times),
    })
}

pub fn report(solver: Vec<SizeResult>, read: Option<ReadResult>, buttons: Option<ButtonsResult>) -> BenchReport {
    BenchReport { solver, read, buttons, peak_memory_mib: peak_memory_bytes().map(|b| b as f64 / (1024.0 * 1024.0)) }
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:>8} {:>4} {:>7} {:>10} {:>10} {:>10} {:>8} {:>10} {:>12}",
            "size", "cols", "boards", "mean ms", "median ms", "max ms", "proven", "moves", "nodes"
        )?;
        for r in &self.solver {
            writeln!(
                f,
                "{:>8} {:>4} {:>7} {:>10.3} {:>10.3} {:>10.3} {:>8} {:>10} {:>12}",
                r.size,
                r.colours,
                r.time.count,
                r.time.mean_ms,
                r.time.median_ms,
                r.time.max_ms,
                r.proven_optimal,
                r.total_moves,
                r.nodes
            )?;
        }
        if let Some(read) = &self.read {
            writeln!(
                f,
                "read {} ({}x{} px): mean {:.3} ms, median {:.3} ms, max {:.3} ms over {} reads",
                read.shot,
                read.width,
                read.height,
                read.time.mean_ms,
                read.time.median_ms,
                read.time.max_ms,
                read.time.count
            )?;
        }
        if let Some(b) = &self.buttons {
            writeln!(
                f,
                "buttons {} ({}x{} px): {} candidates, {} of {} colours with one; mean {:.3} ms, median {:.3} ms, max \
                 {:.3} ms over {} searches",
                b.shot,
                b.width,
                b.height,
                b.candidates,
                b.colours_with_a_candidate,
                b.colours,
                b.time.mean_ms,
                b.time.median_ms,
                b.time.max_ms,
                b.time.count
            )?;
        }
        if let Some(mib) = self.peak_memory_mib {
            writeln!(f, "peak memory: {mib:.1} MiB")?;
        }
        Ok(())
    }
}
