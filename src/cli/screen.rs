//! `read`, `calibrate` and `play` for any [`ScreenGame`]: the arguments every screen game takes, and the
//! commands, which know nothing of any game. A game adds its own flags by flattening these into its own
//! argument structs (`games/<game>/cli.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use super::{print, seconds};
use crate::capture::{Frame, FrameSource, ImageFileSource, WindowSource};
use crate::game::{Layout, Reading, ScreenGame};
use crate::imageio::{load_image, save_image};
use crate::input::{DesktopInput, DryRunInput, InputDevice};
use crate::play::{play as play_loop, PlayOptions};
use crate::vision::annotate::annotate;

/// Read a screenshot (a file, or standard input) into board text.
#[derive(Args)]
pub struct ReadArgs {
    /// Image file, or - for standard input.
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Use only this calibration theme.
    #[arg(long)]
    pub theme: Option<String>,
    /// Print the board, theme and layout as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also save a copy of the picture with what was found outlined and the click points marked.
    #[arg(long, value_name = "FILE")]
    pub annotate: Option<PathBuf>,
}

/// Reads a screenshot and prints the reading.
pub fn read<G: ScreenGame>(root: &Path, args: &ReadArgs) -> Result<()> {
    let game = G::load(root, args.theme.as_deref())?;
    let frame = Frame::from_image(load_image(&args.input)?);
    let reading = game.read(&frame, None)?;
    print_reading(&game, &frame.image, &reading, args)
}

/// Prints a reading as `read` does (text or JSON), and saves the annotated picture when asked.
pub fn print_reading<G: ScreenGame>(game: &G, image: &image::RgbaImage, reading: &Reading<G::Board, G::Layout>, args: &ReadArgs) -> Result<()> {
    if let Some(path) = &args.annotate {
        save_image(&annotate(image, &reading.layout.marks(), image::Rgba([255, 0, 255, 255])), path)?;
    }
    if args.json {
        print(&game.reading_json(reading).to_string())
    } else {
        print(&game.reading_text(reading))
    }
}

/// `autoplay calibrate GAME`: the screenshot and the theme; each game adds how its truth is given.
#[derive(Args)]
pub struct CalibrateArgs {
    /// The screenshot.
    pub shot: PathBuf,
    /// The theme to create or refresh (default: the game's usual one).
    #[arg(long)]
    pub theme: Option<String>,
}

/// Learns a theme from a screenshot whose truth is known, and prints what was learned.
pub fn calibrate<G: ScreenGame>(root: &Path, args: &CalibrateArgs, truth: &G::Truth) -> Result<()> {
    let image = load_image(&args.shot)?;
    print(&G::calibrate(root, &image, truth, args.theme.as_deref().unwrap_or(G::DEFAULT_THEME))?)
}

/// Play the game in its window until it is won, checking every move by reading the window again.
#[derive(Args)]
pub struct PlayArgs {
    /// The game window's title (default: the game's usual title).
    #[arg(long)]
    pub window: Option<String>,
    /// Print the clicks it would make, and make none.
    #[arg(long)]
    pub dry_run: bool,
    /// Plan from this screenshot instead of a window (implies --dry-run).
    #[arg(long, value_name = "FILE")]
    pub image: Option<PathBuf>,
    /// Give up after this many moves.
    #[arg(long, default_value_t = 1000)]
    pub max_moves: usize,
    /// Pause after each move (milliseconds), to watch.
    #[arg(long, default_value_t = 0)]
    pub move_delay_ms: u64,
    /// Time allowed for each solve, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Use only this calibration theme.
    #[arg(long)]
    pub theme: Option<String>,
    /// Print the final report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The closed loop on a live window (or, in a dry run, on a screenshot).
pub fn play<G: ScreenGame>(root: &Path, args: &PlayArgs) -> Result<()> {
    let game = G::load(root, args.theme.as_deref())?;
    let options = PlayOptions {
        dry_run: args.dry_run || args.image.is_some(),
        max_moves: args.max_moves,
        solve_time: args.time_limit.map(seconds).transpose()?,
        move_delay: Duration::from_millis(args.move_delay_ms),
        ..PlayOptions::default()
    };
    let mut source: Box<dyn FrameSource> = match (&args.image, &args.window) {
        (Some(path), _) => Box::new(ImageFileSource::open(path)?),
        (None, Some(title)) => Box::new(WindowSource::new(title)?),
        (None, None) => Box::new(WindowSource::first_of(game.window_titles())?),
    };
    let mut recorder = DryRunInput::default();
    let mut desktop;
    let input: &mut dyn InputDevice = if options.dry_run {
        &mut recorder
    } else {
        desktop = DesktopInput::new()?;
        &mut desktop
    };
    let report = play_loop(&game, source.as_mut(), input, &options, &mut |line| eprintln!("{line}"))?;
    let mut text: String = recorder.log.iter().map(|line| format!("{line}\n")).collect();
    if args.json {
        text += &serde_json::to_string(&report)?;
    } else if !options.dry_run {
        text += &format!(
            "won in {} moves (first plan {} moves, {}; {} re-plans)",
            report.moves,
            report.planned_moves,
            if report.plan_optimal { "proven optimal" } else { "not proven optimal" },
            report.replans
        );
    }
    print(&text)
}
