//! The `autoplay` command line: routes each (command, game) pair to the game's own arguments and command in
//! `cli/<game>.rs`, or to the generic screen-game commands (`autoplay::cli`). It knows no game's flags.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Result;
use clap::{Parser, Subcommand};

use autoplay::cli::{self, screen};
use autoplay::clients::{cribbage::CribbageScreen, flood::FloodScreen, sudoku::SudokuScreen};

#[global_allocator] // mimalloc: with glibc's, the two-player Sudoku endgame's threads waited on each other.
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "autoplay", version, about = "Reads a game from the screen, solves it, and plays it")]
struct Cli {
    /// Folder of calibration data (default: $AUTOPLAY_CALIBRATION, ./calibration, or the source tree's).
    #[arg(long, global = true, value_name = "DIR")]
    calibration: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the desktop's windows (id, title, app, position, size).
    Windows(cli::WindowsArgs),
    /// Capture a window or the screen as PNG (or PNM when the file name ends in .pnm/.ppm).
    Capture(cli::CaptureArgs),
    /// Read a screenshot into board text.
    #[command(subcommand)]
    Read(Read),
    /// Learn a theme from a screenshot whose board is known, into the calibration folder.
    #[command(subcommand)]
    Calibrate(Calibrate),
    /// Solve board text.
    #[command(subcommand)]
    Solve(Solve),
    /// Play a game in a live window until it is won, or against a person in the terminal (dandelions).
    #[command(subcommand)]
    Play(Play),
    Replay(cli::session::ReplayArgs),
    #[command(subcommand, about = "Measure solver and reader speed")]
    Bench(Bench),
    /// Play two-player Sudoku (CodeCup 2024 rules) over standard input and output.
    #[command(subcommand)]
    Duel(Duel),
    /// Run two player programs against each other under the rules and print a table of results.
    #[command(subcommand)]
    Referee(Referee),
    /// Print a numbered deal.
    #[command(subcommand)]
    Deal(Deal),
    /// Enumerate positions: every 5×5 Lunar Lockout position with one human and K helpers.
    #[command(subcommand)]
    Enumerate(Enumerate),
}
/// The games each command takes, each with its own arguments.
#[derive(Subcommand)]
enum Read {
    Flood(cli::flood::ReadArgs),
    Sudoku(screen::ReadArgs),
    Cribbage(screen::ReadArgs),
}
#[derive(Subcommand)]
enum Calibrate {
    Flood(cli::flood::CalibrateArgs),
    Sudoku(cli::sudoku::CalibrateArgs),
    Cribbage(cli::cribbage::CalibrateArgs),
}
#[derive(Subcommand)]
enum Solve {
    Flood(cli::flood::SolveArgs),
    Lunar(cli::lunar::SolveArgs),
    Dandelions(cli::dandelions::SolveArgs),
    Sudoku(cli::sudoku::SolveArgs),
    Cribbage(cli::cribbage::SolveArgs),
}
#[derive(Subcommand)]
enum Play {
    Flood(screen::PlayArgs),
    Sudoku(screen::PlayArgs),
    Cribbage(screen::PlayArgs),
    Dandelions(cli::dandelions::PlayArgs),
}
#[derive(Subcommand)]
enum Bench {
    Flood(cli::flood::BenchArgs),
    #[command(about = "Card 39 (13 slides) and the enumerations for 1 to 5 helpers")]
    Lunar,
    #[command(about = "Time and peak memory to prove the 5×5 start and to check all 25 first moves")]
    Dandelions,
    Sudoku(cli::sudoku::BenchArgs),
    #[command(about = "Win rate against random play, self-play faults, and endgame solve times")]
    SudokuDuel,
    Cribbage(cli::cribbage::BenchArgs),
    /// The open-loop floor of live play: a script that knows every move plays the window's game, without
    /// checking a move (see `scripts/bench/live.sh`)
    OpenLoop(screen::OpenLoopArgs),
    Zoo(cli::zoo::ZooArgs),
}
#[derive(Subcommand)]
enum Duel {
    Sudoku(cli::sudoku_duel::DuelArgs),
}
#[derive(Subcommand)]
enum Referee {
    Sudoku(cli::sudoku_duel::RefereeArgs),
}
#[derive(Subcommand)]
enum Deal {
    Cribbage(cli::cribbage::DealArgs),
}
#[derive(Subcommand)]
enum Enumerate {
    Lunar(cli::lunar::EnumerateArgs),
}

fn main() -> ExitCode {
    // The live clock starts with the program (a game's report says when its first capture came).
    autoplay::capture::real_time();
    // (enigo logs as errors the desktop it is told not to reach, `input::enigo_settings`; its real failures come
    // back as errors the bot reports.)
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,enigo=off")).init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): stop quietly, as other Unix tools do.
        Err(error)
            if error.chain().any(|e| {
                e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("autoplay: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let root = &autoplay::calibration::calibration_root(cli.calibration.as_deref());
    match cli.command {
        Command::Windows(args) => cli::windows(&args),
        Command::Capture(args) => cli::capture(&args),
        Command::Read(Read::Flood(args)) => cli::flood::read(root, &args),
        Command::Read(Read::Sudoku(args)) => screen::read::<SudokuScreen>(root, &args),
        Command::Read(Read::Cribbage(args)) => screen::read::<CribbageScreen>(root, &args),
        Command::Calibrate(Calibrate::Flood(args)) => cli::flood::calibrate(root, &args),
        Command::Calibrate(Calibrate::Sudoku(args)) => cli::sudoku::calibrate(root, &args),
        Command::Calibrate(Calibrate::Cribbage(args)) => cli::cribbage::calibrate(root, &args),
        Command::Solve(Solve::Flood(args)) => cli::flood::solve(&args),
        Command::Solve(Solve::Lunar(args)) => cli::lunar::solve(&args),
        Command::Solve(Solve::Dandelions(args)) => cli::dandelions::solve(&args),
        Command::Solve(Solve::Sudoku(args)) => cli::sudoku::solve(&args),
        Command::Solve(Solve::Cribbage(args)) => cli::cribbage::solve(&args),
        Command::Play(Play::Flood(args)) => screen::play::<FloodScreen>(root, &args),
        Command::Play(Play::Sudoku(args)) => screen::play::<SudokuScreen>(root, &args),
        Command::Play(Play::Cribbage(args)) => screen::play::<CribbageScreen>(root, &args),
        Command::Play(Play::Dandelions(args)) => cli::dandelions::play(&args),
        Command::Replay(args) => cli::session::replay(root, &args.dir),
        Command::Bench(Bench::Flood(args)) => cli::flood::bench(root, &args),
        Command::Bench(Bench::Lunar) => cli::lunar::bench(),
        Command::Bench(Bench::Dandelions) => cli::dandelions::bench(),
        Command::Bench(Bench::Sudoku(args)) => cli::sudoku::bench(root, &args),
        Command::Bench(Bench::SudokuDuel) => cli::sudoku_duel::bench(),
        Command::Bench(Bench::Cribbage(args)) => cli::cribbage::bench(root, &args),
        Command::Bench(Bench::OpenLoop(args)) => match args.game {
            screen::OpenLoopGame::Flood => screen::open_loop::<FloodScreen>(root, &args),
            screen::OpenLoopGame::Sudoku => screen::open_loop::<SudokuScreen>(root, &args),
        },
        Command::Bench(Bench::Zoo(args)) => cli::zoo::bench(&args),
        Command::Duel(Duel::Sudoku(args)) => cli::sudoku_duel::duel(&args),
        Command::Referee(Referee::Sudoku(args)) => cli::sudoku_duel::referee(&args),
        Command::Deal(Deal::Cribbage(args)) => cli::cribbage::deal_cmd(&args),
        Command::Enumerate(Enumerate::Lunar(args)) => cli::lunar::enumerate(&args),
    }
}
