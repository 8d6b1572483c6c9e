//! Sudoku's commands: `solve sudoku`, `calibrate sudoku` and `bench sudoku`; `read sudoku` and `play sudoku`
//! are the generic screen-game commands.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::bench::sudoku as speed;
use crate::bench::sudoku_sets::bench_command;
use crate::cli::screen as screen_cli;
use crate::cli::{input_text, print, progress};
use crate::clients::sudoku::SudokuScreen;
use crate::games::sudoku::{batch_command, parse_box_shape, solve_command, SudokuGrid};
use crate::imageio::{load_image, read_text};

fn parse_box(text: &str) -> Result<(usize, usize), String> {
    parse_box_shape(text).map_err(|e| e.to_string())
}

/// The solution of a Sudoku grid (or its number of solutions, or a batch of grids on all cores).
#[derive(Args)]
pub struct SolveArgs {
    /// Grid text file, or - for standard input (the default).
    pub input: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// Box shape RxC (default: from the grid size).
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub box_shape: Option<(usize, usize)>,
    /// Count the solutions: 0, 1 or more than one.
    #[arg(long)]
    pub count: bool,
    /// With --count, count up to this many solutions.
    #[arg(long, value_name = "N", requires = "count", value_parser = clap::value_parser!(u64).range(1..))]
    pub count_limit: Option<u64>,
    /// Solve one puzzle per line of this file on all cores, with a summary.
    #[arg(long, value_name = "FILE", conflicts_with = "input")]
    pub batch: Option<PathBuf>,
}

pub fn solve(args: &SolveArgs) -> Result<()> {
    if let Some(path) = &args.batch {
        return print(&batch_command(&read_text(path)?, args.box_shape, progress())?);
    }
    print(&solve_command(&input_text(args.input.as_deref())?, args.box_shape, args.count, args.count_limit, args.json)?)
}

/// Learn ink colours and glyph templates from a screenshot whose grid is known.
#[derive(Args)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub common: screen_cli::CalibrateArgs,
    /// The givens: an sgt-solo game ID (RxC:description), or a file of board text or a game ID.
    #[arg(long)]
    pub truth: String,
    /// Board text of the digits the player entered in the shot.
    #[arg(long, value_name = "FILE")]
    pub entered: Option<PathBuf>,
}

pub fn calibrate(root: &Path, args: &CalibrateArgs) -> Result<()> {
    let mut truth = if Path::new(&args.truth).exists() {
        SudokuGrid::parse_givens(&read_text(Path::new(&args.truth))?)
            .with_context(|| format!("{}: the givens", args.truth))?
    } else {
        SudokuGrid::parse_givens(&args.truth).context("--truth is neither a file nor a grid or game ID")?
    };
    if let Some(path) = &args.entered {
        truth
            .enter(&read_text(path)?)
            .with_context(|| format!("{} is not the board text of the player's digits", path.display()))?;
    }
    screen_cli::calibrate::<SudokuScreen>(root, &args.common, &truth)
}

/// Puzzles per second over generated and published sets or the puzzles of files, the fast solver's answers
/// compared with the reference solver's, or reader latency on a screenshot.
#[derive(Args)]
pub struct BenchArgs {
    /// Time the 9×9 solver (solve and uniqueness check, one thread) on the puzzles of these files, one a line:
    /// parsing is done first and not timed.
    #[arg(value_name = "FILE", conflicts_with = "shot")]
    pub files: Vec<PathBuf>,
    /// With FILE: timed runs per file (the best is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: u64,
    /// With FILE: the shortest run, in seconds (the file is solved again and again until it lasts this long).
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Compare the fast solver's answers (count to 2, solutions, all solutions up to 200) with the reference
    /// solver's on N generated puzzles and on the puzzles of the FILEs given, instead of timing.
    #[arg(long, value_name = "N", conflicts_with = "shot")]
    pub compare: Option<usize>,
    /// Time the reader on this screenshot instead of the solver.
    #[arg(long)]
    pub shot: Option<PathBuf>,
    /// With --shot, print the figures as JSON.
    #[arg(long, requires = "shot")]
    pub json: bool,
}

pub fn bench(root: &Path, args: &BenchArgs) -> Result<()> {
    if let Some(n) = args.compare {
        let files =
            args.files.iter().map(|p| Ok((p.display().to_string(), read_text(p)?))).collect::<Result<Vec<_>>>()?;
        return print(&speed::compare_command(n, &files)?);
    }
    if !args.files.is_empty() {
        let mut out = String::new();
        for path in &args.files {
            let text = read_text(path)?;
            out += &speed::bench_file_command(&path.display().to_string(), &text, args.runs as usize, args.seconds)?;
        }
        return print(&out);
    }
    let Some(shot) = &args.shot else {
        let cache = crate::cli::cache_dir().join("autoplay-bench");
        return print(&bench_command(&cache)?);
    };
    let image = load_image(shot)?;
    let game = <SudokuScreen as crate::game::Screen>::load(root, None)?;
    let time = speed::bench_read(&image, &game, 200)?;
    print(&crate::bench::read_time_report(shot, &image, &time, args.json))
}
