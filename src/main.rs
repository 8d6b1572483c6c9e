//! The `autoplay` command line: routes each (command, game) pair to the game's own arguments and command in
//! `games/<game>/cli.rs`, or to the generic screen-game commands (`autoplay::cli`). It knows no game's flags.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Result;
use clap::{Parser, Subcommand};

use autoplay::cli::{self, screen};
use autoplay::games::{
    cribbage, cribbage::Cribbage, dandelions, flood, flood::Flood, lunar, sudoku, sudoku::Sudoku, sudoku_duel,
};

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
    Flood(flood::cli::ReadArgs),
    Sudoku(screen::ReadArgs),
    Cribbage(screen::ReadArgs),
}
#[derive(Subcommand)]
enum Calibrate {
    Flood(flood::cli::CalibrateArgs),
    Sudoku(sudoku::cli::CalibrateArgs),
    Cribbage(cribbage::cli::CalibrateArgs),
}
#[derive(Subcommand)]
enum Solve {
    Flood(flood::cli::SolveArgs),
    Lunar(lunar::cli::SolveArgs),
    Dandelions(dandelions::cli::SolveArgs),
    Sudoku(sudoku::cli::SolveArgs),
    Cribbage(cribbage::cli::SolveArgs),
}
#[derive(Subcommand)]
enum Play {
    Flood(screen::PlayArgs),
    Sudoku(screen::PlayArgs),
    Cribbage(screen::PlayArgs),
    Dandelions(dandelions::cli::PlayArgs),
}
#[derive(Subcommand)]
enum Bench {
    Flood(flood::cli::BenchArgs),
    #[command(about = "Card 39 (13 slides) and the enumerations for 1 to 5 helpers")]
    Lunar,
    #[command(about = "Time and peak memory to prove the 5×5 start and to check all 25 first moves")]
    Dandelions,
    Sudoku(sudoku::cli::BenchArgs),
    #[command(about = "Win rate against random play, self-play faults, and endgame solve times")]
    SudokuDuel,
    Cribbage(cribbage::cli::BenchArgs),
}
#[derive(Subcommand)]
enum Duel {
    Sudoku(sudoku_duel::cli::DuelArgs),
}
#[derive(Subcommand)]
enum Referee {
    Sudoku(sudoku_duel::cli::RefereeArgs),
}
#[derive(Subcommand)]
enum Deal {
    Cribbage(cribbage::cli::DealArgs),
}
#[derive(Subcommand)]
enum Enumerate {
    Lunar(lunar::cli::EnumerateArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,enigo=error")).init();
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
        Command::Read(Read::Flood(args)) => flood::cli::read(root, &args),
        Command::Read(Read::Sudoku(args)) => screen::read::<Sudoku>(root, &args),
        Command::Read(Read::Cribbage(args)) => screen::read::<Cribbage>(root, &args),
        Command::Calibrate(Calibrate::Flood(args)) => flood::cli::calibrate(root, &args),
        Command::Calibrate(Calibrate::Sudoku(args)) => sudoku::cli::calibrate(root, &args),
        Command::Calibrate(Calibrate::Cribbage(args)) => cribbage::cli::calibrate(root, &args),
        Command::Solve(Solve::Flood(args)) => flood::cli::solve(&args),
        Command::Solve(Solve::Lunar(args)) => lunar::cli::solve(&args),
        Command::Solve(Solve::Dandelions(args)) => dandelions::cli::solve(&args),
        Command::Solve(Solve::Sudoku(args)) => sudoku::cli::solve(&args),
        Command::Solve(Solve::Cribbage(args)) => cribbage::cli::solve(&args),
        Command::Play(Play::Flood(args)) => screen::play::<Flood>(root, &args),
        Command::Play(Play::Sudoku(args)) => screen::play::<Sudoku>(root, &args),
        Command::Play(Play::Cribbage(args)) => screen::play::<Cribbage>(root, &args),
        Command::Play(Play::Dandelions(args)) => dandelions::cli::play(&args),
        Command::Replay(args) => autoplay::games::replay(root, &args.dir),
        Command::Bench(Bench::Flood(args)) => flood::cli::bench(root, &args),
        Command::Bench(Bench::Lunar) => lunar::cli::bench(),
        Command::Bench(Bench::Dandelions) => dandelions::cli::bench(),
        Command::Bench(Bench::Sudoku(args)) => sudoku::cli::bench(root, &args),
        Command::Bench(Bench::SudokuDuel) => sudoku_duel::cli::bench(),
        Command::Bench(Bench::Cribbage(args)) => cribbage::cli::bench(root, &args),
        Command::Duel(Duel::Sudoku(args)) => sudoku_duel::cli::duel(&args),
        Command::Referee(Referee::Sudoku(args)) => sudoku_duel::cli::referee(&args),
        Command::Deal(Deal::Cribbage(args)) => cribbage::cli::deal_cmd(&args),
        Command::Enumerate(Enumerate::Lunar(args)) => lunar::cli::enumerate(&args),
    }
}
