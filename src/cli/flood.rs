//! Flood-It's commands: `read flood` (with `--learn`), `solve flood`, `calibrate flood` and `bench flood`; `play
//! flood` is the generic screen-game loop.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::bench::flood as bench;
use crate::cli::screen::{self as screen_cli, print_reading};
use crate::cli::{input_text, print, seconds};
use crate::clients::flood::{reader, theme, FloodScreen, FloodTruth};
use crate::game::SolveLimits;
use crate::games::flood::{solve_board, FloodBoard};
use crate::imageio::load_image;

/// Read a Flood-It screenshot (a file, or standard input) into board text.
#[derive(Args)]
pub struct ReadArgs {
    #[command(flatten)]
    pub read: screen_cli::ReadArgs,
    /// Add cell colours missing from the theme's palette to it (with new symbols) and save the theme.
    #[arg(long, requires = "theme")]
    pub learn: bool,
}

/// Reads a screenshot; with `--learn`, colours missing from the one theme named are added to it and saved.
pub fn read(root: &Path, args: &ReadArgs) -> Result<()> {
    if !args.learn {
        return screen_cli::read::<FloodScreen>(root, &args.read);
    }
    let themes = theme::load_themes(root, args.read.theme.as_deref())?;
    let [theme] = themes.as_slice() else { bail!("--learn needs one theme: name it with --theme") };
    let image = load_image(&args.read.input)?;
    let (reading, learned) = reader::read_learning(&image, theme, None)?;
    if learned != *theme {
        let path = learned.save(root)?;
        eprintln!("learned {} new colour(s) into {}", learned.colours.len() - theme.colours.len(), path.display());
    }
    print_reading::<FloodScreen>(&image, &reading, &args.read)
}

/// The fewest moves that flood the board, one colour symbol per move (proven optimal, or the best found within the time limit).
#[derive(Args)]
pub struct SolveArgs {
    /// Board text file, or - for standard input (the default).
    pub input: Option<PathBuf>,
    /// Print the moves, their number, whether proven optimal, nodes and time as JSON.
    #[arg(long)]
    pub json: bool,
    /// Stop searching after this many seconds and give the best solution found, not proven optimal.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_SOLVE_SECONDS)]
    pub time_limit: f64,
}

/// How long `solve flood` searches by default: every board of up to 30×30 cells with 6 colours in the benchmark
/// is proven optimal well within it; harder boards get the best solution found by then.
pub const DEFAULT_SOLVE_SECONDS: f64 = 10.0;

pub fn solve(args: &SolveArgs) -> Result<()> {
    let name = args.input.as_deref().unwrap_or(Path::new("-")).display().to_string();
    let board = FloodBoard::parse(&input_text(args.input.as_deref())?)
        .with_context(|| format!("{name} is not a Flood-It board"))?;
    let limit = seconds(args.time_limit)?;
    let start = Instant::now();
    let limits = SolveLimits { deadline: Some(start + limit) };
    let plan = with_progress(|| solve_board(&board, &limits), limit);
    let millis = start.elapsed().as_millis();
    let moves: Vec<String> = plan.moves.iter().map(|m| m.to_string()).collect();
    if args.json {
        let value = serde_json::json!({
            "moves": moves, "length": moves.len(), "optimal": plan.optimal, "nodes": plan.nodes, "millis": millis,
        });
        return print(&value.to_string());
    }
    print(&moves.concat())?;
    if !plan.optimal {
        let why = if start.elapsed() >= limit {
            format!("at the time limit of {} s", args.time_limit)
        } else {
            "at the search's memory budget".into()
        };
        eprintln!("note: the search stopped {why}: this is the best solution found, not proven optimal");
    }
    Ok(())
}

/// Runs `work`, and while it runs past a second, keeps a line on standard error saying how long it has searched.
fn with_progress<T>(work: impl FnOnce() -> T, limit: std::time::Duration) -> T {
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let (done, finished) = channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut elapsed = 0;
            // Wakes once a second, and at once when the work is done (the sender is dropped).
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(std::time::Duration::from_secs(1)) {
                elapsed += 1;
                eprint!("\rsearching for the fewest moves: {elapsed} s of at most {} s ", limit.as_secs_f64());
            }
            if elapsed > 0 {
                eprintln!();
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// Learn a palette theme from a screenshot whose board is known.
#[derive(Args)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub common: screen_cli::CalibrateArgs,
    /// The true board: a board text file, or an sgt-flood game ID (WxH:digits,limit).
    #[arg(long)]
    pub truth: String,
    /// For a game-ID truth: the symbol of each game colour number 0, 1, 2, … (default: the theme's own, or
    /// another theme's, mapping).
    #[arg(long)]
    pub symbols: Option<String>,
}

pub fn calibrate(root: &Path, args: &CalibrateArgs) -> Result<()> {
    // The symbol mapping of a game ID comes from the theme being refreshed first, then from the others.
    let name = args.common.theme.as_deref().unwrap_or(<FloodScreen as crate::game::Screen>::DEFAULT_THEME);
    let mut themes = theme::load_themes(root, None).unwrap_or_default();
    themes.sort_by_key(|t| t.theme != name);
    let truth = FloodTruth::parse(&args.truth, args.symbols.as_deref(), &themes)?;
    screen_cli::calibrate::<FloodScreen>(root, &args.common, &truth)
}

/// Solver times on seeded random boards, and reader latency on a screenshot.
#[derive(Args)]
pub struct BenchArgs {
    /// Boards per size.
    #[arg(long, default_value_t = 20)]
    pub boards: usize,
    /// Board sizes (square), comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [12, 14, 18, 22])]
    pub sizes: Vec<usize>,
    #[arg(long, default_value_t = 6)]
    pub colours: u8,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Per-board time limit in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub time_limit: f64,
    /// A screenshot to time the reader on, besides the solver.
    #[arg(long)]
    pub shot: Option<PathBuf>,
    /// A screenshot of a client with colour buttons, to time finding them (after reading its board once).
    #[arg(long)]
    pub buttons: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

pub fn bench(root: &Path, args: &BenchArgs) -> Result<()> {
    let options = bench::BenchOptions {
        sizes: args.sizes.clone(),
        colours: args.colours,
        boards: args.boards,
        seed: args.seed,
        time_limit: seconds(args.time_limit)?,
    };
    let read = match &args.shot {
        Some(path) => Some(bench::bench_read(path, &theme::load_themes(root, None)?, 200)?),
        None => None,
    };
    let buttons = match &args.buttons {
        Some(path) => Some(bench::bench_buttons(path, &theme::load_themes(root, None)?, 50)?),
        None => None,
    };
    let report = bench::report(bench::bench_solver(&options), read, buttons);
    if args.json {
        print(&serde_json::to_string_pretty(&report)?)
    } else {
        print(&report.to_string())
    }
}
