//! The text produced for the `deal`, `solve` and `bench` commands, and the mid-game state text.
//!
//! # State text (`solve cribbage FILE|-`)
//!
//! ```text
//! // deal 30 after a few cards (lines starting with `//` or `#`, and blank lines, are ignored)
//! T2AA753K89Q_44K5J359TTQ_6387656J4QA6K_22T9A32K98J7
//! stack: 8 7 Q
//! score: 12
//! ```
//!
//! The first line holds the remaining columns in deal notation (a group may be empty). `stack:` lists the
//! current stack's cards bottom first (spaces optional), and `score:` the points so far; both are optional
//! (empty stack, score 0). Columns and stack together may hold at most 4 cards of a rank, the stack at most 31.

use std::fmt::Write as _;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::cards::{Card, Rank};
use super::deal::{deal, Deal};
use super::error::CribbageError;
use super::rules::State;
use super::solver::{solve, Solution};

/// What `solve cribbage` works on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveInput {
    /// `--deal N`.
    Deal(u64),
    /// `--deals A-B` (inclusive).
    Deals(u64, u64),
    /// A file or standard input: a deal or mid-game state in the state text format.
    Text(String),
}

/// The deal that was slowest for the earlier solvers (always timed by the benchmark, besides the run's slowest).
pub const SLOWEST_DEAL: u64 = 1879;

/// `autoplay deal cribbage N`: deal `N` in the `C1_C2_C3_C4` notation.
pub fn deal_command(n: u64) -> anyhow::Result<String> {
    if n == 0 {
        return Err(CribbageError::DealZero.into());
    }
    Ok(deal(n).notation())
}

/// Parses the state text (see the module docs).
pub fn parse_state(text: &str) -> Result<State, CribbageError> {
    let mut columns: Option<Deal> = None;
    let mut stack = Vec::new();
    let mut score = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = i + 1;
        let err = |message: String| CribbageError::StateText { line: number, message };
        if line.is_empty() || line.starts_with("//") || line.starts_with('#') {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("stack:") {
            stack.clear();
            for ch in rest.chars().filter(|c| !c.is_whitespace()) {
                let rank = Rank::from_char(ch).ok_or(CribbageError::BadStackCard { ch })?;
                stack.push(Card::new(rank));
            }
        } else if let Some(rest) = lower.strip_prefix("score:") {
            let text = rest.trim();
            score = text.parse().map_err(|_| match text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
                true => err(format!("score {text} is too large (at most {})", u32::MAX)),
                false => err(format!("score {text:?} is not a whole number")),
            })?;
        } else if columns.is_none() {
            columns = Some(Deal::parse(line)?);
        } else {
            return Err(err(format!("unexpected {line:?} (expected `stack: ...` or `score: N`)")));
        }
    }
    let columns = columns.ok_or(CribbageError::NoColumns)?;
    State::new(columns.columns, stack, score)
}

#[derive(Serialize)]
pub(crate) struct DealResult {
    pub(crate) deal: u64,
    score: u32,
    line: String,
    pub(crate) nodes: u64,
    /// Time to solve it, on its worker thread.
    pub(crate) millis: f64,
}

#[derive(Serialize)]
pub(crate) struct Summary {
    deals: usize,
    min: u32,
    max: u32,
    mean: f64,
    seconds: f64,
    threads: usize,
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

fn check_range(first: u64, last: u64) -> Result<(), CribbageError> {
    if first == 0 || last == 0 {
        return Err(CribbageError::DealZero);
    }
    if first > last {
        return Err(CribbageError::BadRange { first, last });
    }
    Ok(())
}

/// Solves deals `first..=last` on all cores, in deal order.
pub(crate) fn solve_range(first: u64, last: u64, progress: bool) -> (Vec<DealResult>, Summary) {
    let start = Instant::now();
    let bar = if progress {
        let bar = ProgressBar::new(last - first + 1);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} deals, {elapsed_precise} (eta {eta})") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let results: Vec<DealResult> = (first..=last)
        .into_par_iter()
        .map(|n| {
            let started = Instant::now();
            let s = solve(&State::from(deal(n)));
            let millis = round(started.elapsed().as_secs_f64() * 1e3, 2);
            bar.inc(1);
            DealResult { deal: n, score: s.score, line: s.line, nodes: s.nodes, millis }
        })
        .collect();
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let scores = results.iter().map(|r| r.score);
    let summary = Summary {
        deals: results.len(),
        min: scores.clone().min().unwrap_or(0),
        max: scores.clone().max().unwrap_or(0),
        mean: round(scores.map(f64::from).sum::<f64>() / results.len().max(1) as f64, 3),
        seconds: round(seconds, 3),
        threads: rayon::current_num_threads(),
    };
    (results, summary)
}

pub(crate) fn summary_text(first: u64, last: u64, s: &Summary) -> String {
    format!(
        "deals {first}-{last}: min {}, max {}, mean {:.3} ({} deals in {:.2} s on {} threads)",
        s.min, s.max, s.mean, s.deals, s.seconds, s.threads
    )
}

/// `autoplay solve cribbage (--deal N | --deals A-B | FILE|-) [--json]`.
///
/// Every score is proven optimal (dynamic programming pruned by an admissible bound, see [`solve`]).
///
/// Text output:
/// - one deal: `deal N: SCORE LINE`;
/// - a range: one such line per deal, then `deals A-B: min .., max .., mean .. (K deals in T s on P threads)`;
/// - state text: `score: SCORE` then `line: LINE` (the final score, the given `score:` included; the line
///   starts with `_` when the given stack is non-empty and nothing fits it; it is empty when no cards remain).
///
/// JSON output: `{"deal": N, "score": S, "line": L, "optimal": true, "nodes": K, "millis": T}` for one deal
/// (without `deal` for state text); `{"deals": [{"deal", "score", "line", "nodes"}...], "summary": {"deals",
/// "min", "max", "mean", "seconds", "threads"}}` for a range. A progress bar goes to stderr when `progress`.
pub fn solve_command(input: SolveInput, json: bool, progress: bool) -> anyhow::Result<String> {
    let one = |number: Option<u64>, state: &State| -> anyhow::Result<String> {
        let start = Instant::now();
        let Solution { score, line, nodes } = solve(state);
        let millis = round(start.elapsed().as_secs_f64() * 1e3, 3);
        Ok(match (json, number) {
            (true, _) => {
                let mut value = serde_json::json!({
                    "score": score, "line": line, "optimal": true, "nodes": nodes, "millis": millis,
                });
                if let Some(n) = number {
                    value["deal"] = n.into();
                }
                serde_json::to_string(&value)?
            }
            (false, Some(n)) => format!("deal {n}: {score} {line}"),
            (false, None) => format!("score: {score}\nline: {line}"),
        })
    };
    match input {
        SolveInput::Deal(n) => {
            check_range(n, n)?;
            one(Some(n), &State::from(deal(n)))
        }
        SolveInput::Text(text) => one(None, &parse_state(&text)?),
        SolveInput::Deals(first, last) => {
            check_range(first, last)?;
            let (results, summary) = solve_range(first, last, progress);
            if json {
                return Ok(serde_json::to_string(&serde_json::json!({ "deals": results, "summary": summary }))?);
            }
            let mut out = String::new();
            for r in &results {
                writeln!(out, "deal {}: {} {}", r.deal, r.score, r.line)?;
            }
            out.push_str(&summary_text(first, last, &summary));
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_command_prints_notation() {
        assert_eq!(deal_command(30).unwrap(), "T2AA753K89Q78_44K5J359TTQ4J_6387656J4QA6K_22T9A32K98J7Q");
        assert!(deal_command(0).unwrap_err().to_string().contains("numbered from 1"));
    }

    #[test]
    fn state_text() {
        let text = "// after a few cards\nT2A_44K5__22T\nstack: 8 7 q\n\nscore: 12\n";
        let state = parse_state(text).unwrap();
        assert_eq!(state.columns[0].len(), 3);
        assert!(state.columns[2].is_empty());
        assert_eq!(state.stack.len(), 3);
        assert_eq!(state.total(), 25);
        assert_eq!(state.score, 12);
        assert!(matches!(parse_state("stack: 5"), Err(CribbageError::NoColumns)));
        assert!(matches!(parse_state("A_2_3_4\nstack: KKQ2"), Err(CribbageError::StackOver31 { total: 32 })));
        assert!(matches!(parse_state("A_2_3_4\nscore: x"), Err(CribbageError::StateText { line: 2, .. })));
        assert!(matches!(
            parse_state("A_2_3_4\nstack: AAAA"),
            Err(CribbageError::TooManyOfRank { rank: 'A', count: 5 })
        ));
    }

    #[test]
    fn solve_outputs() {
        assert_eq!(solve_command(SolveInput::Deal(30), false, false).unwrap().split(' ').nth(2), Some("109"));
        let json: serde_json::Value =
            serde_json::from_str(&solve_command(SolveInput::Deal(1031), true, false).unwrap()).unwrap();
        assert_eq!(json["score"], 80);
        assert_eq!(json["optimal"], true);
        let out = solve_command(SolveInput::Text("K_K_K_5K\nscore: 3".into()), false, false).unwrap();
        let (score, line) = out.split_once('\n').unwrap();
        assert_eq!(score, "score: 13");
        let state = parse_state("K_K_K_5K\nscore: 3").unwrap();
        assert_eq!(super::super::rules::score_line_from(&state, line.strip_prefix("line: ").unwrap()), Ok(13));
        let out = solve_command(SolveInput::Deals(1, 3), false, false).unwrap();
        assert_eq!(out.lines().count(), 4);
        assert!(out.lines().last().unwrap().starts_with("deals 1-3: min "));
        assert!(solve_command(SolveInput::Deals(5, 2), false, false).is_err());
    }
}
