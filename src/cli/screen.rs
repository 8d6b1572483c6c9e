//! `read`, `calibrate` and `play` for any [`Screen`] game: the arguments every screen game takes, and the
//! commands, which know nothing of any game. A game adds its own flags by flattening these into its own
//! argument structs (`cli/<game>.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use super::{print, seconds};
use crate::calibration::ThemeTarget;
use crate::capture::{Frame, FrameSource, ImageFileSource};
use crate::desktop::Desktop;
use crate::game::{Client, Game, Layout, ReadingOf, Screen};
use crate::imageio::{load_image, save_image};
use crate::input::{DesktopInput, DryRunInput, InputDevice};
use crate::play::{play as play_loop, PlayEvent, PlayOptions, PlayReport};
use crate::session::{Packing, Recorder, RecordingInput, RecordingSource, SessionOptions};
use crate::vision::annotate::annotate;

/// Read a screenshot (a file, or standard input) into board text and the layout of what was read.
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
pub fn read<G: Screen>(root: &Path, args: &ReadArgs) -> Result<()> {
    let mut client = G::load(root, args.theme.as_deref())?.client();
    let frame = Frame::from_image(load_image(&args.input)?);
    let reading = client.read(&frame, None)?;
    print_reading::<G>(&frame.image, &reading, args)
}

/// Prints a reading as `read` does (text or JSON), and saves the annotated picture when asked.
pub fn print_reading<G: Screen>(
    image: &image::RgbaImage,
    reading: &ReadingOf<G::Client>,
    args: &ReadArgs,
) -> Result<()> {
    if let Some(path) = &args.annotate {
        save_image(&annotate(image, &reading.layout.marks(), image::Rgba([255, 0, 255, 255])), path)?;
    }
    if args.json {
        print(&G::reading_json(reading).to_string())
    } else {
        print(&G::reading_text(reading))
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
    /// Start the theme afresh even where it exists (the old file is kept as NAME.toml.bak). Without it, a theme
    /// that exists is refreshed, and one that cannot be read is an error that changes nothing.
    #[arg(long)]
    pub replace: bool,
}

/// Learns a theme from a screenshot whose truth is known, and prints what was learned.
pub fn calibrate<G: Screen>(root: &Path, args: &CalibrateArgs, truth: &G::Truth) -> Result<()> {
    let image = load_image(&args.shot)?;
    let target = ThemeTarget { root, name: args.theme.as_deref().unwrap_or(G::DEFAULT_THEME), replace: args.replace };
    print(&G::calibrate(&target, &image, truth)?)
}

/// Play the game in its window until it is won, checking every move by reading the window again.
#[derive(Args)]
pub struct PlayArgs {
    /// The game window: its title (or a unique part of it), its program's class, or `id:N` (default: the one
    /// window that shows the game's board, whatever its title; else one of the game's usual title; else the
    /// whole screen).
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
    /// Keep what the game showed about the client (a way of making moves, such as colour buttons) in the
    /// calibration theme that read it. Without it, play writes no calibration.
    #[arg(long)]
    pub learn: bool,
    /// Save the session (every frame, reading and action) in this folder, to replay with `autoplay replay`.
    /// Without it, a game that fails is still recorded, under the cache folder.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["image", "dry_run"])]
    pub record: Option<PathBuf>,
}

/// The closed loop on a live window (or, in a dry run, on a screenshot).
pub fn play<G: Screen>(root: &Path, args: &PlayArgs) -> Result<()> {
    let (report, dry_run) = match play_game::<G>(root, args) {
        Ok(played) => played,
        Err(error) if args.json => {
            // The failure's kind on standard output, for a program that plays many games (`bench zoo`); the words
            // on standard error as always.
            let kind = crate::play::kind_of(&error).name();
            let failure = serde_json::json!({"won": false, "error": {"kind": kind, "message": format!("{error:#}")}});
            print(&failure.to_string())?;
            return Err(error);
        }
        Err(error) => return Err(error),
    };
    let mut text: String = dry_run.iter().map(|line| format!("{line}\n")).collect();
    if args.json {
        text += &serde_json::to_string(&report)?;
    } else if !(args.dry_run || args.image.is_some()) {
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

/// The game played: its report, and in a dry run the clicks it would have made.
fn play_game<G: Screen>(root: &Path, args: &PlayArgs) -> Result<(PlayReport, Vec<String>)> {
    if let Some(dir) = &args.record {
        crate::session::check_folder(dir)?;
    }
    let mut game = G::load(root, args.theme.as_deref())?.client();
    let options = PlayOptions {
        dry_run: args.dry_run || args.image.is_some(),
        max_moves: args.max_moves,
        solve_time: args.time_limit.map(seconds).transpose()?,
        move_delay: Duration::from_millis(args.move_delay_ms),
        learn: args.learn,
        ..PlayOptions::default()
    };
    let mut source: Box<dyn FrameSource> = match (&args.image, &args.window) {
        (Some(path), _) => Box::new(ImageFileSource::open(path)?),
        (None, Some(title)) => Desktop::detect().open_window(title)?,
        (None, None) => {
            let found = super::board_window::board_source(&mut game, G::WINDOW_TITLES)?;
            eprintln!("the board is in {}", found.describe());
            found
        }
    };
    let mut dry_run = DryRunInput::default();
    let mut desktop;
    let input: &mut dyn InputDevice = if options.dry_run {
        &mut dry_run
    } else {
        desktop = DesktopInput::on(source.seat())?;
        &mut desktop
    };
    let report = if options.dry_run {
        play_loop(&mut game, source.as_mut(), input, &options, &mut print_note)?
    } else {
        play_recorded(&mut game, source.as_mut(), input, &options, args)?
    };
    Ok((report, dry_run.log))
}

/// Prints what the loop reports on standard error (the readings it acts on are only recorded).
fn print_note(event: &PlayEvent) {
    if !event.is_reading() {
        eprintln!("{event}");
    }
}

/// The closed loop on a live window, recorded: in `--record DIR`, else in a folder of the cache that is removed
/// after a win and kept (and named) after a failure, so that a failed game can be replayed and reported.
fn play_recorded<G: Client>(
    game: &mut G,
    source: &mut dyn FrameSource,
    input: &mut dyn InputDevice,
    options: &PlayOptions,
    args: &PlayArgs,
) -> Result<PlayReport> {
    let (dir, packing) = match &args.record {
        Some(dir) => (dir.clone(), Packing::Smallest),
        None => (failure_folder(game.rules().name()), Packing::Fast),
    };
    let settings =
        SessionOptions { max_moves: args.max_moves, move_delay_ms: args.move_delay_ms, time_limit: args.time_limit };
    let describe = source.describe();
    let recorder = Recorder::create(&dir, game.rules().name(), &describe, args.theme.as_deref(), settings, packing)?;
    let mut recording_source = RecordingSource { inner: source, recorder: recorder.clone() };
    let mut recording_input = RecordingInput { inner: input, recorder: recorder.clone() };
    let notes = recorder.clone();
    let result = play_loop(game, &mut recording_source, &mut recording_input, options, &mut |event| {
        notes.borrow_mut().play_event(event);
        print_note(event);
    });
    if result.is_ok() && args.record.is_none() {
        // Won: the recording kept in case of a failure is not needed.
        recorder.borrow_mut().discard();
        return result;
    }
    let outcome = match &result {
        Ok(_) => "won".to_string(),
        Err(e) => format!("error: {e:#}"),
    };
    let saved = recorder.borrow_mut().finish(&outcome);
    if result.is_err() && saved.is_ok() {
        eprintln!(
            "the recording of this game is in {} (replay it with `autoplay replay {}`)",
            dir.display(),
            dir.display()
        )
    }
    let report = result?;
    saved?;
    Ok(report)
}

/// A fresh folder for the recording of a game that may fail: `$XDG_CACHE_HOME/autoplay/sessions/GAME-TIME`.
fn failure_folder(game: &str) -> PathBuf {
    let cache = super::cache_dir();
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    cache.join("autoplay/sessions").join(format!("{game}-{}-{}", stamp.as_secs(), std::process::id()))
}

/// The game an open-loop run plays.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum OpenLoopGame {
    Flood,
    Sudoku,
}

/// Plays the game in a window open-loop: every move of the first plan sent and waited for (changed, then two
/// captures agree), nothing read after the first capture.
#[derive(Args)]
pub struct OpenLoopArgs {
    pub game: OpenLoopGame,
    /// The game window: its title (or a unique part of it), its program's class, or `id:N`.
    #[arg(long)]
    pub window: String,
    /// How events are sent: at once, as a bare script does, or as the bot sends them (held as a person holds
    /// them).
    #[arg(long, value_enum, default_value = "instant")]
    pub touch: crate::bench::open_loop::Touch,
    #[arg(long)]
    pub json: bool,
}

/// `bench open-loop`: see [`crate::bench::open_loop`].
pub fn open_loop<G: Screen>(root: &Path, args: &OpenLoopArgs) -> Result<()> {
    let mut game = G::load(root, None)?.client();
    let mut source = Desktop::detect().open_window(&args.window)?;
    let floor = crate::bench::open_loop::play(&mut game, source.as_mut(), args.touch)?;
    if args.json {
        print(&serde_json::to_string(&floor)?)
    } else {
        print(&format!(
            "open loop ({:?}): {} moves in {:.0} ms, {:.1} ms a move (reading and solving first: {:.0} ms)",
            args.touch, floor.moves, floor.millis, floor.per_move_ms, floor.plan_millis
        ))
    }
}
