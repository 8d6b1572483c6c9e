//! Dandelions' commands: `solve dandelions`, `play dandelions` (against a person, in the terminal) and `bench
//! dandelions`.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};

use crate::bench::dandelions::bench_command;
use crate::cli::print;
use crate::games::dandelions::{play_command, solve_command, Side};
use crate::imageio::read_text;

/// Who wins a Dandelions position with perfect play, and a best move (default: the empty 5×5 board).
#[derive(Args)]
pub struct SolveArgs {
    /// Position file, or - for standard input (default: the empty 5×5 start position).
    pub input: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// Also give the value of every move of the side to move.
    #[arg(long)]
    pub first_moves: bool,
}

pub fn solve(args: &SolveArgs) -> Result<()> {
    let text = args.input.as_deref().map(read_text).transpose()?;
    print(&solve_command(text.as_deref(), args.first_moves, args.json)?)
}

/// The side the program plays.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SideArg {
    Wind,
    Dandelions,
}

/// Play one side perfectly against you in the terminal.
#[derive(Args)]
pub struct PlayArgs {
    /// The side the program plays.
    #[arg(long = "as", value_name = "SIDE")]
    pub side: Option<SideArg>,
}

pub fn play(args: &PlayArgs) -> Result<()> {
    let side = match args.side {
        Some(SideArg::Wind) => Side::Wind,
        Some(SideArg::Dandelions) => Side::Dandelions,
        None => bail!("say which side the program plays: --as wind or --as dandelions"),
    };
    play_command(side, std::io::stdin().lock(), std::io::stdout().lock())
}

pub fn bench() -> Result<()> {
    print(&bench_command()?)
}
