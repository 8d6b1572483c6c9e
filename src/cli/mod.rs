//! What the command line shares across games: printing results, parsing common values, the game-free commands
//! (`windows`, `capture`), and the generic `read`, `calibrate` and `play` of screen games ([`screen`]).
//!
//! Each game's own arguments and commands are in `cli/<game>.rs` (clap is used nowhere else in the library); the
//! binary's `main.rs` only routes a (command, game) pair to them, so a flag one game does not take is a usage
//! error for it.

mod board_window;
pub mod cribbage;
pub mod dandelions;
pub mod flood;
pub mod lunar;
pub mod screen;
pub mod session;
pub mod sudoku;
pub mod sudoku_duel;
pub mod zoo;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::capture::FrameSource;
use crate::desktop::Desktop;
use crate::imageio::{read_text, save_image};

/// Writes `text` to standard output, ending it with a newline unless it is empty or already ends with one.
/// A closed standard output is an error (not a panic).
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).context("writing standard output")?;
    if !text.is_empty() && !text.ends_with('\n') {
        out.write_all(b"\n").context("writing standard output")?;
    }
    Ok(())
}

/// The longest time a command accepts: a year.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A number of seconds as a duration, refusing negative, infinite and absurd values (over a year).
pub fn seconds(s: f64) -> Result<Duration> {
    if !(0.0..=MAX_SECONDS).contains(&s) {
        let shown = if s.is_finite() && s.abs() < 1e9 { format!("{s}") } else { format!("{s:e}") };
        bail!("{shown} is not a valid number of seconds (from 0 to {MAX_SECONDS}, a year)");
    }
    Ok(Duration::from_secs_f64(s))
}

/// Whether to draw progress bars: only when standard error is a terminal.
pub fn progress() -> bool {
    std::io::stderr().is_terminal()
}

/// The user's cache folder: `$XDG_CACHE_HOME`, else `~/.cache`, else the temporary folder.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
}

/// The text of a board file, standard input when it is `-` or not given.
pub fn input_text(input: Option<&Path>) -> Result<String> {
    read_text(input.unwrap_or(Path::new("-")))
}

/// `autoplay windows`: the desktop's windows (id, position, size, app, title).
#[derive(Args)]
pub struct WindowsArgs {
    #[arg(long)]
    json: bool,
}

pub fn windows(args: &WindowsArgs) -> Result<()> {
    let desktop = Desktop::detect();
    let windows = desktop.list_windows().map_err(|e| desktop.with_note(e))?;
    if let Some(note) = desktop.note() {
        eprintln!("note: {note}");
    }
    if args.json {
        return print(&serde_json::to_string_pretty(&windows)?);
    }
    let mut text = format!("{:>10}  {:>11}  {:>9}  {:<20}  title\n", "id", "position", "size", "app");
    for w in windows {
        let position = format!("{},{}", w.x, w.y);
        let size = format!("{}x{}", w.width, w.height);
        text += &format!("{:>10}  {:>11}  {:>9}  {:<20}  {}\n", w.id, position, size, w.app, w.title);
    }
    print(&text)
}

/// `autoplay capture`: a PNG (or PNM) of a window or the screen.
#[derive(Args)]
pub struct CaptureArgs {
    /// The window: its title (exact, or a unique part of it), or `id:N` from `autoplay windows`.
    #[arg(long, conflicts_with = "screen")]
    window: Option<String>,
    /// The whole screen (the default).
    #[arg(long)]
    screen: bool,
    /// Output file, or - for standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

pub fn capture(args: &CaptureArgs) -> Result<()> {
    if args.output == Path::new("-") && std::io::stdout().is_terminal() {
        bail!("refusing to write an image to a terminal; use -o FILE or a pipe");
    }
    let mut source: Box<dyn FrameSource> = match &args.window {
        Some(title) => Desktop::detect().open_window(title)?,
        None => Desktop::detect().screen_source(),
    };
    save_image(&source.grab()?.image, &args.output)
}
