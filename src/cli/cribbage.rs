//! Cribbage Solitaire's commands: `deal cribbage`, `solve cribbage`, `calibrate cribbage` and `bench cribbage`;
//! `read cribbage` and `play cribbage` are the generic screen-game commands.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::bench::cribbage::bench_command;
use crate::cli::screen as screen_cli;
use crate::cli::{input_text, print, progress};
use crate::clients::cribbage::reader::TableTruth;
use crate::clients::cribbage::CribbageScreen;
use crate::games::cribbage::commands::parse_state;
use crate::games::cribbage::{deal, deal_command, solve_command, SolveInput, State};
use crate::imageio::read_text;

/// Parses `A-B` (an inclusive range of deal numbers).
fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let (a, b) = text.split_once('-').ok_or_else(|| format!("'{text}' is not a range A-B"))?;
    let number = |s: &str| s.trim().parse::<u64>().map_err(|_| format!("'{s}' is not a number"));
    let (a, b) = (number(a)?, number(b)?);
    if a == 0 || a > b {
        return Err(format!("'{text}' is not a range of deals from 1 up"));
    }
    Ok((a, b))
}

/// Print numbered deal N in the C1_C2_C3_C4 notation (each column from its buried card to its playable card).
#[derive(Args)]
pub struct DealArgs {
    /// The deal's number (from 1).
    pub number: u64,
}

pub fn deal_cmd(args: &DealArgs) -> Result<()> {
    print(&deal_command(args.number)?)
}

/// The best possible score from a deal or a position, and a line that reaches it (proven optimal).
#[derive(Args)]
pub struct SolveArgs {
    /// State text file, or - for standard input (the default).
    pub input: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// Solve numbered deal N.
    #[arg(long, value_name = "N", conflicts_with_all = ["input", "deals"])]
    pub deal: Option<u64>,
    /// Solve numbered deals A to B on all cores, with a summary.
    #[arg(long, value_name = "A-B", value_parser = parse_range, conflicts_with = "input")]
    pub deals: Option<(u64, u64)>,
}

pub fn solve(args: &SolveArgs) -> Result<()> {
    let what = match (args.deal, args.deals) {
        (Some(n), _) => SolveInput::Deal(n),
        (None, Some((a, b))) => SolveInput::Deals(a, b),
        (None, None) => SolveInput::Text(input_text(args.input.as_deref())?),
    };
    print(&solve_command(what, args.json, progress())?)
}

/// Learn a table's felt, outlines and rank glyphs from one screenshot whose position is known.
#[derive(Args)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub common: screen_cli::CalibrateArgs,
    /// The position shown: state text (columns in deal notation, then `stack: …`), in a file or as it is (`\n`
    /// between lines).
    #[arg(long, required_unless_present = "deal")]
    pub truth: Option<String>,
    /// The screenshot shows numbered deal N before any move.
    #[arg(long, conflicts_with = "truth")]
    pub deal: Option<u64>,
    /// The window's title when the shot was taken (`autoplay windows` lists it): where it shows the score, the
    /// theme learns to read the score from the title in play; where it does not, the theme reads no title.
    #[arg(long)]
    pub title: Option<String>,
}

pub fn calibrate(root: &Path, args: &CalibrateArgs) -> Result<()> {
    let mut truth = match (&args.truth, args.deal) {
        (_, Some(n)) => TableTruth { state: State::from(deal(n)), ..no_points() },
        (Some(text), None) if Path::new(text).is_file() => {
            parse_truth(&read_text(Path::new(text))?).with_context(|| format!("{text} is not a truth"))?
        }
        (Some(text), None) => {
            parse_truth(&text.replace("\\n", "\n")).context("--truth is neither a file nor a truth")?
        }
        (None, None) => anyhow::bail!("give the position shown: --deal N (before any move) or --truth FILE|TEXT"),
    };
    truth.title.clone_from(&args.title);
    screen_cli::calibrate::<CribbageScreen>(root, &args.common, &truth)
}

/// A truth of the empty position that names no point and no title.
fn no_points() -> TableTruth {
    TableTruth {
        state: State::default(),
        end_stack: None,
        ends_stacks_itself: false,
        total_at: None,
        score_at: None,
        title: None,
    }
}

/// A calibration truth: state text, and lines naming points in the screenshot (X,Y in its pixels) of what the
/// picture alone does not explain: `end stack: X,Y`, the control that ends a stack, where the table has one
/// the reader would not find by itself; `total at: X,Y` and `score at: X,Y`, the stack total and the score
/// where the table prints them as text. `end stack: by itself` says the table ends a stack once no card fits,
/// with no control.
pub fn parse_truth(text: &str) -> Result<TableTruth> {
    let mut truth = no_points();
    let mut state_lines = Vec::new();
    for line in text.lines() {
        let lower = line.trim().to_ascii_lowercase();
        if lower.strip_prefix("end stack:").is_some_and(|rest| rest.trim() == "by itself") {
            truth.ends_stacks_itself = true;
            state_lines.push("");
            continue;
        }
        let named = [
            ("end stack:", &mut truth.end_stack),
            ("total at:", &mut truth.total_at),
            ("score at:", &mut truth.score_at),
        ]
        .into_iter()
        .find_map(|(key, slot)| lower.strip_prefix(key).map(|point| (point.to_owned(), slot)));
        match named {
            Some((point, slot)) => {
                let parsed = point.split(',').map(|v| v.trim().parse::<i32>()).collect::<Result<Vec<_>, _>>();
                match parsed.as_deref() {
                    Ok(&[x, y]) => *slot = Some((x, y)),
                    _ => anyhow::bail!("`{}`: the point must be X,Y in pixels of the screenshot", line.trim()),
                }
                state_lines.push("");
            }
            None => state_lines.push(line),
        }
    }
    truth.state = parse_state(&state_lines.join("\n"))?;
    Ok(truth)
}

/// Deals 1-2000 on all cores and the slowest deal, or reader latency on a screenshot.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Time the reader on this screenshot (with the themes, as `read cribbage` reads it) instead of the solver.
    #[arg(long)]
    pub shot: Option<PathBuf>,
    /// With --shot, print the figures as JSON.
    #[arg(long, requires = "shot")]
    pub json: bool,
}

pub fn bench(root: &Path, args: &BenchArgs) -> Result<()> {
    let Some(shot) = &args.shot else { return print(&bench_command()?) };
    let image = crate::imageio::load_image(shot)?;
    let game = <CribbageScreen as crate::game::Screen>::load(root, None)?;
    let time = crate::bench::time_reads(200, || {
        crate::clients::cribbage::read_any(&image, &game.themes, game.numbers.as_ref(), game.rank_shapes.as_ref(), None)
    })?;
    print(&crate::bench::read_time_report(shot, &image, &time, args.json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_truth_names_points_beside_the_position() {
        let truth =
            parse_truth("A23_4_5_6\nstack: K\nend stack: 688, 147\nTotal at: 163,346\nscore at:121,378\n").unwrap();
        assert_eq!(truth.state.stack.len(), 1);
        assert_eq!(
            (truth.end_stack, truth.total_at, truth.score_at),
            (Some((688, 147)), Some((163, 346)), Some((121, 378)))
        );
        assert!(parse_truth("A23_4_5_6\nend stack: by itself\n").unwrap().ends_stacks_itself);
        let plain = parse_truth("A23_4_5_6\n").unwrap();
        assert_eq!((plain.end_stack, plain.total_at, plain.score_at), (None, None, None));
        let error = parse_truth("A23_4_5_6\nend stack: 688\n").unwrap_err().to_string();
        assert!(error.contains("`end stack: 688`: the point must be X,Y"), "{error}");
    }
}
