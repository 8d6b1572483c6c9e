//! Lunar Lockout's commands: `solve lunar`, `enumerate lunar` and `bench lunar`.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use crate::bench::lunar::bench_command;
use crate::cli::{input_text, print, progress};
use crate::games::lunar::{enumerate_command, solve_command_with_status};

/// Parses `R,C` (0-based row and column).
fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = text.split_once(',').ok_or_else(|| format!("'{text}' is not R,C"))?;
    Ok((
        r.trim().parse().map_err(|_| format!("'{r}' is not a row number"))?,
        c.trim().parse().map_err(|_| format!("'{c}' is not a column number"))?,
    ))
}

/// The shortest solution of a Lunar Lockout board, one slide per line.
#[derive(Args)]
pub struct SolveArgs {
    /// Board text file, or - for standard input (the default).
    pub input: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// The target cell, 0-based row,column (default: the board's `+`, else the centre).
    #[arg(long, value_name = "R,C", value_parser = parse_cell)]
    pub target: Option<(usize, usize)>,
}

pub fn solve(args: &SolveArgs) -> Result<()> {
    let (text, solvable) = solve_command_with_status(&input_text(args.input.as_deref())?, args.target, args.json)?;
    print(&text)?;
    if solvable && text.is_empty() {
        eprintln!("note: a human already stands on the target; no slide is needed");
    }
    if !solvable {
        bail!("the board has no solution: no sequence of slides brings a human to the target");
    }
    Ok(())
}

/// Every 5×5 position with one human off the centre and K helpers: how many are solvable, and the hardest.
#[derive(Args)]
pub struct EnumerateArgs {
    /// Number of helpers (1 to 5).
    #[arg(long)]
    pub helpers: usize,
    #[arg(long)]
    pub json: bool,
}

pub fn enumerate(args: &EnumerateArgs) -> Result<()> {
    print(&enumerate_command(args.helpers, args.json, progress())?)
}

pub fn bench() -> Result<()> {
    print(&bench_command()?)
}
