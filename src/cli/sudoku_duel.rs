//! Two-player Sudoku's commands: `duel sudoku` (a player on standard input and output), `referee sudoku` and
//! `bench sudoku-duel`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{ensure, Result};
use clap::Args;

use crate::bench::sudoku_duel::bench_command;
use crate::cli::{print, progress};
use crate::games::sudoku_duel::{duel_command, referee_command, DuelOptions, MatchOptions};

/// A two-player Sudoku player speaking the referee protocol on standard input and output.
#[derive(Args)]
pub struct DuelArgs {
    /// Play random legal moves instead (a sparring partner).
    #[arg(long)]
    pub random: bool,
    /// Seed for the player's random choices.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Thinking time for the game, in seconds, as the referee counts it (the player keeps 3 s of it in reserve).
    #[arg(long, default_value_t = 30.0)]
    pub time_limit: f64,
}

/// A clock given in seconds on the command line, checked.
fn seconds(value: f64) -> Result<Duration> {
    ensure!(value.is_finite() && value > 0.0 && value <= 86_400.0, "--time-limit {value}: give seconds, above 0");
    Ok(Duration::from_secs_f64(value))
}

pub fn duel(args: &DuelArgs) -> Result<()> {
    let options = DuelOptions {
        random_player: args.random,
        seed: args.seed,
        time_limit: seconds(args.time_limit)?,
        ..DuelOptions::default()
    };
    duel_command(std::io::stdin().lock(), std::io::stdout().lock(), std::io::stderr(), &options)
}

/// Run two player programs (each one command line, e.g. "autoplay duel sudoku") against each other.
#[derive(Args)]
pub struct RefereeArgs {
    pub player_a: String,
    pub player_b: String,
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Thinking time per player per game, in seconds (the competition's is 30).
    #[arg(long, default_value_t = 30.0)]
    pub time_limit: f64,
    /// Keep each game's player logs (their standard error) and a line per game (`games.tsv`: who won, how, each
    /// side's time by the referee's clock, the moves) in this directory.
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
}

pub fn referee(args: &RefereeArgs) -> Result<()> {
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let options = MatchOptions {
        time_limit: seconds(args.time_limit)?,
        log_dir: args.log.clone(),
        progress: progress(),
        ..MatchOptions::new(args.games, args.seed)
    };
    print(&referee_command(&words(&args.player_a), &words(&args.player_b), &options)?)
}

pub fn bench() -> Result<()> {
    print(&bench_command()?)
}
