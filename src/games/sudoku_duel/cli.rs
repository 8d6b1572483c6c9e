//! Two-player Sudoku's commands: `duel sudoku` (a player on standard input and output), `referee sudoku` and
//! `bench sudoku-duel`.

use anyhow::Result;
use clap::Args;

use super::{bench_command, duel_command, referee_command, DuelOptions};
use crate::cli::{print, progress};

/// A two-player Sudoku player speaking the referee protocol on standard input and output.
#[derive(Args)]
pub struct DuelArgs {
    /// Play random legal moves instead (a sparring partner).
    #[arg(long)]
    pub random: bool,
    /// Seed for the player's random choices.
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn duel(args: &DuelArgs) -> Result<()> {
    let options = DuelOptions { random_player: args.random, seed: args.seed, ..DuelOptions::default() };
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
}

pub fn referee(args: &RefereeArgs) -> Result<()> {
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    print(&referee_command(&words(&args.player_a), &words(&args.player_b), args.games, args.seed, progress())?)
}

pub fn bench() -> Result<()> {
    print(&bench_command()?)
}
