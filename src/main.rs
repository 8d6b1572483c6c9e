//! The `autoplay` command line: a thin layer that turns arguments into calls of the library's stages.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use autoplay::calibration::{calibration_root, PaletteTheme};
use autoplay::capture::{list_windows, FrameSource, ImageFileSource, ScreenSource, WindowSource};
use autoplay::game::{Game, SolveLimits};
use autoplay::games::flood::{self, Flood, FloodBoard};
use autoplay::games::cribbage::screen as cribbage_screen;
use autoplay::games::sudoku::screen;
use autoplay::imageio::{load_image, read_text, save_image};
use autoplay::input::{DesktopInput, DryRunInput, InputDevice};
use autoplay::play::{play, PlayOptions};

#[derive(Parser)]
#[command(name = "autoplay", version, about = "Reads a game from the screen, solves it, and plays it")]
struct Cli {
    /// Folder of calibration data (default: $AUTOPLAY_CALIBRATION, ./calibration, or the source tree's).
    #[arg(long, global = true, value_name = "DIR")]
    calibration: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// Games that are read from the screen and played in a window.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ScreenGame {
    Flood,
    Sudoku,
    Cribbage,
}

impl ScreenGame {
    /// The theme `calibrate` creates or refreshes when none is named.
    fn default_theme(self) -> &'static str {
        match self {
            ScreenGame::Flood | ScreenGame::Sudoku => "sgt-default",
            ScreenGame::Cribbage => "table",
        }
    }
}

/// Games with a solver.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum SolveGame {
    Flood,
    Lunar,
    Dandelions,
    Sudoku,
    Cribbage,
}

/// Games with a benchmark.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum BenchGame {
    Flood,
    Lunar,
    Dandelions,
    Sudoku,
    SudokuDuel,
    Cribbage,
}

/// Two-player games with a protocol player and a referee.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum DuelGame {
    Sudoku,
}

/// Games with numbered deals.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum DealGame {
    Cribbage,
}

/// Parses `A-B` (an inclusive range of deal numbers).
fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let (a, b) = text.split_once('-').ok_or_else(|| format!("'{text}' is not a range A-B"))?;
    let (a, b): (u64, u64) = (a.trim().parse().map_err(|_| format!("'{a}' is not a number"))?, b.trim().parse().map_err(|_| format!("'{b}' is not a number"))?);
    if a == 0 || a > b {
        return Err(format!("'{text}' is not a range of deals from 1 up"));
    }
    Ok((a, b))
}

/// Parses a Sudoku box shape `RxC`.
fn parse_box(text: &str) -> Result<(usize, usize), String> {
    autoplay::games::sudoku::parse_box_shape(text).map_err(|e| e.to_string())
}

/// Games the bot plays: in a live window (flood), or in the terminal against a person (dandelions).
#[derive(Clone, Copy, Debug, ValueEnum)]
enum PlayGame {
    Flood,
    Sudoku,
    Cribbage,
    Dandelions,
}

/// The side the program plays in a two-sided game.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum SideArg {
    Wind,
    Dandelions,
}

/// Games whose positions can be enumerated.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum EnumerateGame {
    Lunar,
}

/// Parses `R,C` (0-based row and column).
fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = text.split_once(',').ok_or_else(|| format!("'{text}' is not R,C"))?;
    Ok((r.trim().parse().map_err(|_| format!("'{r}' is not a row number"))?, c.trim().parse().map_err(|_| format!("'{c}' is not a column number"))?))
}

#[derive(Subcommand)]
enum Command {
    /// List the desktop's windows (id, title, app, position, size).
    Windows {
        #[arg(long)]
        json: bool,
    },
    /// Capture a window or the screen as PNG (or PNM when the file name ends in .pnm/.ppm).
    Capture {
        /// The window's title (exact, or a unique part of it).
        #[arg(long, conflicts_with = "screen")]
        window: Option<String>,
        /// The whole screen (the default).
        #[arg(long)]
        screen: bool,
        /// Output file, or - for standard output.
        #[arg(short, long, default_value = "-")]
        output: PathBuf,
    },
    /// Read a screenshot into board text.
    Read {
        game: ScreenGame,
        /// Image file, or - for standard input.
        #[arg(default_value = "-")]
        input: PathBuf,
        /// Use only this calibration theme.
        #[arg(long)]
        theme: Option<String>,
        /// Print the board, theme and cell layout as JSON.
        #[arg(long)]
        json: bool,
        /// Add cell colours missing from the theme's palette to it (with new symbols) and save the theme.
        #[arg(long)]
        learn: bool,
        /// Also save a copy of the picture with the cells found outlined and their centres marked.
        #[arg(long, value_name = "FILE")]
        annotate: Option<PathBuf>,
    },
    /// Solve board text.
    Solve {
        game: SolveGame,
        /// Board text file, or - for standard input (default: standard input; for dandelions, the start).
        input: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        /// Stop searching after this many seconds and give the best solution found (flood).
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
        /// The target cell, 0-based row,column (lunar; default: the centre or the board's `+`).
        #[arg(long, value_name = "R,C", value_parser = parse_cell)]
        target: Option<(usize, usize)>,
        /// Also give the value of every first move (dandelions).
        #[arg(long)]
        first_moves: bool,
        /// Box shape RxC (sudoku; default: from the grid size).
        #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
        box_shape: Option<(usize, usize)>,
        /// Count the solutions: 0, 1 or more than one (sudoku).
        #[arg(long)]
        count: bool,
        /// With --count, count up to this many solutions (sudoku).
        #[arg(long, value_name = "N")]
        count_limit: Option<u64>,
        /// Solve one puzzle per line of this file on all cores, with a summary (sudoku).
        #[arg(long, value_name = "FILE", conflicts_with = "input")]
        batch: Option<PathBuf>,
        /// Solve numbered deal N (cribbage).
        #[arg(long, value_name = "N", conflicts_with_all = ["input", "deals"])]
        deal: Option<u64>,
        /// Solve numbered deals A to B on all cores, with a summary (cribbage).
        #[arg(long, value_name = "A-B", value_parser = parse_range, conflicts_with = "input")]
        deals: Option<(u64, u64)>,
    },
    /// Play two-player Sudoku (CodeCup 2024 rules) over standard input and output.
    Duel {
        game: DuelGame,
        /// Play random legal moves instead (a sparring partner).
        #[arg(long)]
        random: bool,
        /// Seed for the player's random choices.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Run two player programs against each other under the rules and print a table of results.
    /// Each player is one command line, e.g. "autoplay duel sudoku".
    Referee {
        game: DuelGame,
        player_a: String,
        player_b: String,
        #[arg(long, default_value_t = 10)]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Print a numbered deal: `autoplay deal cribbage N`.
    Deal {
        game: DealGame,
        number: u64,
    },
    /// Enumerate positions: every 5×5 Lunar Lockout position with one human and K helpers.
    Enumerate {
        game: EnumerateGame,
        /// Number of helpers (1 to 5).
        #[arg(long)]
        helpers: usize,
        #[arg(long)]
        json: bool,
    },
    /// Play a game in a live window until it is won (flood), or against a person in the terminal (dandelions).
    Play {
        game: PlayGame,
        /// The side the program plays (dandelions).
        #[arg(long = "as", value_name = "SIDE")]
        side: Option<SideArg>,
        /// The game window's title (default: the game's usual title).
        #[arg(long)]
        window: Option<String>,
        /// Print the clicks it would make, and make none.
        #[arg(long)]
        dry_run: bool,
        /// Plan from this screenshot instead of a window (implies --dry-run).
        #[arg(long, value_name = "FILE")]
        image: Option<PathBuf>,
        /// Give up after this many moves.
        #[arg(long, default_value_t = 1000)]
        max_moves: usize,
        /// Pause after each move (milliseconds), to watch.
        #[arg(long, default_value_t = 0)]
        move_delay_ms: u64,
        /// Time allowed for each solve, in seconds.
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
        #[arg(long)]
        theme: Option<String>,
        /// Print the final report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Learn a theme's palette from a screenshot whose board is known, into the calibration folder.
    Calibrate {
        game: ScreenGame,
        /// The screenshot.
        shot: PathBuf,
        /// The true board: a board text file, or a game ID (sgt-flood WxH:digits,limit; sgt-solo RxC:description);
        /// cribbage: state text (columns in deal notation, then `stack: …`), in a file or as it is (`\n` between lines).
        #[arg(long, required_unless_present = "deal")]
        truth: Option<String>,
        /// Cribbage: the screenshot shows numbered deal N before any move.
        #[arg(long, conflicts_with = "truth")]
        deal: Option<u64>,
        /// The theme to create or refresh (default: sgt-default for flood and sudoku, table for cribbage).
        #[arg(long)]
        theme: Option<String>,
        /// For a game-ID truth: the symbol of each game colour number 0, 1, 2, … (default: the theme's own, or
        /// another theme's, mapping).
        #[arg(long)]
        symbols: Option<String>,
        /// Sudoku: board text of the digits the player entered in the shot (the truth gives the givens).
        #[arg(long, value_name = "FILE")]
        entered: Option<PathBuf>,
    },
    /// Measure solver and reader speed (flood: the options below; the others: fixed sets).
    Bench {
        game: BenchGame,
        /// Boards per size.
        #[arg(long, default_value_t = 20)]
        boards: usize,
        /// Board sizes (square), comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = [12, 14, 18, 22])]
        sizes: Vec<usize>,
        #[arg(long, default_value_t = 6)]
        colours: u8,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Per-board time limit in seconds.
        #[arg(long, default_value_t = 60.0)]
        time_limit: f64,
        /// A screenshot to time the reader on (flood: besides the solver; sudoku: instead of it).
        #[arg(long)]
        shot: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
}

/// mimalloc instead of the C library's allocator: the two-player Sudoku endgame's threads
/// allocate and free move lists at a high rate, and with glibc's allocator they waited on
/// each other in the kernel. The seven slowest 5,000-solution endgames took 2.0-3.6 s in all
/// over twelve runs (1,000-66,000 voluntary context switches a run); with mimalloc 1.9-2.1 s
/// over eight runs (under 10 switches).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Writes to standard output, returning an error (not panicking) when it is closed.
macro_rules! out {
    ($($arg:tt)*) => {
        write!(std::io::stdout().lock(), $($arg)*).context("writing standard output")
    };
}
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*).context("writing standard output")
    };
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,enigo=error")).init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): stop quietly, as other Unix tools do.
        Err(error) if error.chain().any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)) => {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("autoplay: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn seconds(s: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(s).with_context(|| format!("{s} is not a valid number of seconds"))
}

fn themes(root: &Path, game: &str, only: Option<&str>) -> Result<Vec<PaletteTheme>> {
    autoplay::calibration::load_theme_files(root, game, only)
}

fn run(cli: Cli) -> Result<()> {
    let root = calibration_root(cli.calibration.as_deref());
    match cli.command {
        Command::Windows { json } => {
            let windows = list_windows()?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&windows)?)?;
            } else {
                outln!("{:>10}  {:>11}  {:>9}  {:<20}  title", "id", "position", "size", "app")?;
                for w in windows {
                    let position = format!("{},{}", w.x, w.y);
                    let size = format!("{}x{}", w.width, w.height);
                    outln!("{:>10}  {:>11}  {:>9}  {:<20}  {}", w.id, position, size, w.app, w.title)?;
                }
            }
        }
        Command::Capture { window, screen: _, output } => {
            if output == Path::new("-") && std::io::stdout().is_terminal() {
                bail!("refusing to write an image to a terminal; use -o FILE or a pipe");
            }
            let mut source: Box<dyn FrameSource> = match &window {
                Some(title) => Box::new(WindowSource::new(title)?),
                None => Box::new(ScreenSource),
            };
            let frame = source.grab()?;
            save_image(&frame.image, &output)?;
        }
        Command::Read { game: ScreenGame::Flood, input, theme, json, learn, annotate } => {
            let image = load_image(&input)?;
            out!("{}", flood::commands::read_command(&image, &root, theme.as_deref(), json, learn, annotate.as_deref())?)?;
        }
        Command::Read { game: ScreenGame::Sudoku, input, theme, json, learn, annotate } => {
            if learn {
                bail!("--learn is for flood; teach sudoku with `autoplay calibrate sudoku`");
            }
            let image = load_image(&input)?;
            out!("{}", screen::commands::read_command(&image, &screen::theme::load_themes(&root, theme.as_deref())?, json, annotate.as_deref())?)?;
        }
        Command::Read { game: ScreenGame::Cribbage, input, theme, json, learn, annotate } => {
            if learn || annotate.is_some() {
                bail!("--learn and --annotate are not available for cribbage; teach it with `autoplay calibrate cribbage`");
            }
            out!("{}", cribbage_screen::read_command(&load_image(&input)?, &cribbage_screen::load_themes(&root, theme.as_deref())?, json)?)?;
        }
        Command::Solve { game: SolveGame::Lunar, input, json, target, .. } => {
            let input = input.unwrap_or_else(|| PathBuf::from("-"));
            let (text, solvable) = autoplay::games::lunar::solve_command_with_status(&read_text(&input)?, target, json)?;
            out!("{}", ensure_newline(text))?;
            if !solvable {
                bail!("the board has no solution: no sequence of slides brings a human to the target");
            }
        }
        Command::Enumerate { game: EnumerateGame::Lunar, helpers, json } => {
            let progress = std::io::stderr().is_terminal();
            out!("{}", ensure_newline(autoplay::games::lunar::enumerate_command(helpers, json, progress)?))?;
        }
        Command::Bench { game: BenchGame::Lunar, .. } => {
            out!("{}", ensure_newline(autoplay::games::lunar::bench_command()?))?;
        }
        Command::Solve { game: SolveGame::Sudoku, input, json, box_shape, count, count_limit, batch, .. } => {
            use autoplay::games::sudoku;
            let text = match batch {
                Some(path) => {
                    let progress = std::io::stderr().is_terminal();
                    out!("{}", ensure_newline(sudoku::batch_command(&read_text(&path)?, box_shape, progress)?))?;
                    return Ok(());
                }
                None => read_text(&input.unwrap_or_else(|| PathBuf::from("-")))?,
            };
            out!("{}", ensure_newline(sudoku::solve_command(&text, box_shape, count, count_limit, json)?))?;
        }
        Command::Solve { game: SolveGame::Cribbage, input, json, deal, deals, .. } => {
            use autoplay::games::cribbage::{solve_command, SolveInput};
            let what = match (deal, deals) {
                (Some(n), _) => SolveInput::Deal(n),
                (None, Some((a, b))) => SolveInput::Deals(a, b),
                (None, None) => SolveInput::Text(read_text(&input.unwrap_or_else(|| PathBuf::from("-")))?),
            };
            out!("{}", ensure_newline(solve_command(what, json, std::io::stderr().is_terminal())?))?;
        }
        Command::Duel { game: DuelGame::Sudoku, random, seed } => {
            use autoplay::games::sudoku_duel::{duel_command, DuelOptions};
            let options = DuelOptions { random_player: random, seed, ..DuelOptions::default() };
            duel_command(std::io::stdin().lock(), std::io::stdout().lock(), std::io::stderr(), &options)?;
        }
        Command::Referee { game: DuelGame::Sudoku, player_a, player_b, games, seed } => {
            let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
            let progress = std::io::stderr().is_terminal();
            let table = autoplay::games::sudoku_duel::referee_command(&words(&player_a), &words(&player_b), games, seed, progress)?;
            out!("{}", ensure_newline(table))?;
        }
        Command::Bench { game: BenchGame::SudokuDuel, .. } => {
            out!("{}", ensure_newline(autoplay::games::sudoku_duel::bench_command()?))?;
        }
        Command::Deal { game: DealGame::Cribbage, number } => {
            out!("{}", ensure_newline(autoplay::games::cribbage::deal_command(number)?))?;
        }
        Command::Bench { game: BenchGame::Sudoku, shot: Some(shot), json, .. } => {
            let image = load_image(&shot)?;
            let themes = screen::theme::load_themes(&root, None)?;
            let time = screen::bench::bench_read(&image, &themes, 200)?;
            if json {
                outln!("{}", serde_json::json!({"shot": shot.display().to_string(), "width": image.width(), "height": image.height(), "time": time}))?;
            } else {
                outln!(
                    "read {} ({}x{} px): mean {:.3} ms, median {:.3} ms, max {:.3} ms over {} reads",
                    shot.display(), image.width(), image.height(), time.mean_ms, time.median_ms, time.max_ms, time.count
                )?;
            }
        }
        Command::Bench { game: BenchGame::Sudoku, .. } => {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .unwrap_or_else(std::env::temp_dir)
                .join("autoplay-bench");
            out!("{}", ensure_newline(autoplay::games::sudoku::bench_command(&cache)?))?;
        }
        Command::Bench { game: BenchGame::Cribbage, .. } => {
            out!("{}", ensure_newline(autoplay::games::cribbage::bench_command()?))?;
        }
        Command::Solve { game: SolveGame::Dandelions, input, json, first_moves, .. } => {
            let text = input.map(|path| read_text(&path)).transpose()?;
            out!("{}", ensure_newline(autoplay::games::dandelions::solve_command(text.as_deref(), first_moves, json)?))?;
        }
        Command::Bench { game: BenchGame::Dandelions, .. } => {
            out!("{}", ensure_newline(autoplay::games::dandelions::bench_command()?))?;
        }
        Command::Play { game: PlayGame::Dandelions, side, .. } => {
            let side = match side {
                Some(SideArg::Wind) => autoplay::games::dandelions::Side::Wind,
                Some(SideArg::Dandelions) => autoplay::games::dandelions::Side::Dandelions,
                None => bail!("say which side the program plays: --as wind or --as dandelions"),
            };
            autoplay::games::dandelions::play_command(side, std::io::stdin().lock(), std::io::stdout().lock())?;
        }
        Command::Solve { game: SolveGame::Flood, input, json, time_limit, .. } => {
            let input = input.unwrap_or_else(|| PathBuf::from("-"));
            let board = FloodBoard::parse(&read_text(&input)?).with_context(|| format!("{} is not a Flood-It board", input.display()))?;
            let start = Instant::now();
            let limits = SolveLimits { deadline: time_limit.map(seconds).transpose()?.map(|t| start + t) };
            let plan = flood::solve_board(&board, &limits);
            let millis = start.elapsed().as_millis();
            let moves: Vec<String> = plan.moves.iter().map(|m| m.to_string()).collect();
            if json {
                let value = serde_json::json!({
                    "moves": moves, "length": moves.len(), "optimal": plan.optimal, "nodes": plan.nodes, "millis": millis,
                });
                outln!("{value}")?;
            } else {
                outln!("{}", moves.concat())?;
                if !plan.optimal {
                    eprintln!("note: stopped at the time limit; this solution is not proven optimal");
                }
            }
        }
        Command::Play { game: PlayGame::Flood, window, dry_run, image, max_moves, move_delay_ms, time_limit, theme, json, .. } => {
            let game = Flood { themes: themes(&root, "flood", theme.as_deref())? };
            let options = play_options(dry_run || image.is_some(), max_moves, move_delay_ms, time_limit)?;
            play_window(&game, window.as_deref(), image.as_deref(), &options, json)?;
        }
        Command::Play { game: PlayGame::Sudoku, window, dry_run, image, max_moves, move_delay_ms, time_limit, theme, json, .. } => {
            let game = autoplay::games::sudoku::screen::play::Sudoku { themes: screen::theme::load_themes(&root, theme.as_deref())? };
            let options = play_options(dry_run || image.is_some(), max_moves, move_delay_ms, time_limit)?;
            play_window(&game, window.as_deref(), image.as_deref(), &options, json)?;
        }
        Command::Play { game: PlayGame::Cribbage, window, dry_run, image, max_moves, move_delay_ms, time_limit, theme, json, .. } => {
            let game = cribbage_screen::Cribbage { themes: cribbage_screen::load_themes(&root, theme.as_deref())? };
            let options = play_options(dry_run || image.is_some(), max_moves, move_delay_ms, time_limit)?;
            play_window(&game, window.as_deref(), image.as_deref(), &options, json)?;
        }
        Command::Calibrate { game, shot, truth, deal, theme, symbols, entered } => {
            let theme = theme.unwrap_or_else(|| game.default_theme().to_string());
            let text = match game {
                ScreenGame::Sudoku => screen::commands::calibrate_command(&root, &shot, &truth.context("sudoku needs --truth")?, &theme, entered.as_deref())?,
                ScreenGame::Flood => flood::commands::calibrate_command(&root, &shot, &truth.context("flood needs --truth")?, &theme, symbols.as_deref())?,
                ScreenGame::Cribbage => cribbage_screen::calibrate_command(&root, &shot, truth.as_deref(), deal, &theme)?,
            };
            out!("{text}")?;
        }
        Command::Bench { game: BenchGame::Flood, boards, sizes, colours, seed, time_limit, shot, json } => {
            let options = flood::bench::BenchOptions { sizes, colours, boards, seed, time_limit: seconds(time_limit)? };
            let read = match shot {
                Some(path) => Some(flood::bench::bench_read(&path, &themes(&root, "flood", None)?, 200)?),
                None => None,
            };
            let report = flood::bench::report(flood::bench::bench_solver(&options), read);
            if json {
                outln!("{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                out!("{report}")?;
            }
        }
    }
    Ok(())
}

fn play_options(dry_run: bool, max_moves: usize, move_delay_ms: u64, time_limit: Option<f64>) -> Result<PlayOptions> {
    Ok(PlayOptions {
        dry_run,
        max_moves,
        solve_time: time_limit.map(seconds).transpose()?,
        move_delay: Duration::from_millis(move_delay_ms),
        ..PlayOptions::default()
    })
}

/// `autoplay play GAME`: the closed loop on a live window (or, in a dry run, on a screenshot), for any game.
fn play_window<G: Game>(game: &G, window: Option<&str>, image: Option<&Path>, options: &PlayOptions, json: bool) -> Result<()> {
    let mut source: Box<dyn FrameSource> = match image {
        Some(path) => Box::new(ImageFileSource::open(path)?),
        None => Box::new(match window {
            Some(title) => WindowSource::new(title)?,
            None => WindowSource::first_of(game.window_titles())?,
        }),
    };
    let mut recorder = DryRunInput::default();
    let mut desktop;
    let input: &mut dyn InputDevice = if options.dry_run {
        &mut recorder
    } else {
        desktop = DesktopInput::new()?;
        &mut desktop
    };
    let report = play(game, source.as_mut(), input, options, &mut |line| eprintln!("{line}"))?;
    for line in &recorder.log {
        outln!("{line}")?;
    }
    if json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else if !options.dry_run {
        outln!(
            "won in {} moves (first plan {} moves, {}; {} re-plans)",
            report.moves,
            report.planned_moves,
            if report.plan_optimal { "proven optimal" } else { "not proven optimal" },
            report.replans
        )?;
    }
    Ok(())
}

/// Text that ends with a newline (an empty text stays empty).
fn ensure_newline(mut text: String) -> String {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

