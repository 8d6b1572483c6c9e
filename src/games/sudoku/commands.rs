//! The text commands: `solve sudoku`, `solve sudoku --batch` and `bench sudoku`.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::board::{check_solution, Grid, SudokuError};
use super::solver::analyse;

/// Famous hard 9×9 puzzles, written down from their publications (each is checked to have
/// exactly one solution by the tests). `(name, 81-character form)`.
pub const HARD_PUZZLES: &[(&str, &str)] = &[
    ("Arto Inkala 2012", "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."),
    ("AI Escargot", "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."),
    ("Easter Monster", "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"),
    ("Golden Nugget", ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."),
    ("top95 #1", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"),
    ("top95 #2", "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."),
    ("Royle 17-clue #1", ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."),
    ("Norvig hardest #1", "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."),
    ("Norvig hardest #2", "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."),
];

/// `autoplay solve sudoku`: parses one grid (any accepted form; `box_shape` overrides the
/// inferred box), refuses clashing givens, and prints the solution grid. With `count`, the
/// solutions are counted up to `count_limit` (default 2: 0, 1 or "more than one") and the
/// count line follows the grid; a count of 0 is then an answer, not an error. With `json`:
/// `{"solution": "<one-line form>" | null, "count": n, "count_limit": l, "millis": t}`.
/// Without `count` an unsolvable grid is an error.
pub fn solve_command(
    text: &str,
    box_shape: Option<(usize, usize)>,
    count: bool,
    count_limit: Option<u64>,
    json: bool,
) -> Result<String> {
    let grid = Grid::parse(text, box_shape)?;
    grid.check_clashes()?;
    let limit = if count { count_limit.unwrap_or(2).max(1) } else { 2 };
    let start = Instant::now();
    let analysis = analyse(&grid, limit);
    let millis = start.elapsed().as_secs_f64() * 1e3;
    if let Some(solution) = &analysis.solution {
        if let Err(e) = check_solution(&grid, solution) {
            bail!("internal error: the solver returned an invalid solution ({e})");
        }
    }
    if analysis.count == 0 && !count {
        return Err(SudokuError::Unsolvable.into());
    }
    if json {
        #[derive(Serialize)]
        struct Out {
            solution: Option<String>,
            count: u64,
            count_limit: u64,
            millis: f64,
        }
        let out = Out {
            solution: analysis.solution.as_ref().map(Grid::to_line),
            count: analysis.count,
            count_limit: analysis.limit,
            millis,
        };
        return Ok(serde_json::to_string(&out)?);
    }
    let mut out = String::new();
    if let Some(solution) = &analysis.solution {
        writeln!(out, "{solution}")?;
    }
    if count {
        writeln!(out, "{}", analysis.describe())?;
    }
    Ok(out)
}

/// What `batch_command` found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BatchSummary {
    pub puzzles: usize,
    /// Puzzles with at least one solution.
    pub solved: usize,
    /// Of those, puzzles with more than one.
    pub multiple: usize,
    pub unsolvable: usize,
    /// Lines that did not parse or whose givens clash.
    pub invalid: usize,
    pub seconds: f64,
    pub per_second: f64,
    pub threads: usize,
}

enum Outcome {
    Solved { line: String, unique: bool },
    Unsolvable,
    Invalid(String),
}

/// `autoplay solve sudoku --batch FILE`: one puzzle per line (one-line forms of any size,
/// or sgt-solo game IDs; blank lines and lines starting with `#` skipped), solved on all
/// cores. Prints one line per puzzle, in order — the solution's one-line form, followed by
/// ` multiple` when it is not unique; `unsolvable`; or `invalid: <reason>` — then a summary.
/// The progress bar (stderr) is drawn only when `progress` is set; the caller passes
/// `flag || stderr is a terminal`.
pub fn batch_command(text: &str, box_shape: Option<(usize, usize)>, progress: bool) -> Result<String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
        .collect();
    let bar = if progress {
        let bar = ProgressBar::with_draw_target(Some(lines.len() as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} sudoku batch [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let outcomes: Vec<Outcome> = lines
        .par_chunks(256)
        .flat_map_iter(|chunk| {
            let done: Vec<Outcome> = chunk.iter().map(|&(n, line)| solve_line(n, line, box_shape)).collect();
            bar.inc(chunk.len() as u64);
            done
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut summary =
        BatchSummary { puzzles: outcomes.len(), seconds, threads: rayon::current_num_threads(), ..Default::default() };
    let mut out = String::with_capacity(outcomes.len() * 90);
    for outcome in &outcomes {
        match outcome {
            Outcome::Solved { line, unique } => {
                summary.solved += 1;
                out.push_str(line);
                if !unique {
                    summary.multiple += 1;
                    out.push_str(" multiple");
                }
            }
            Outcome::Unsolvable => {
                summary.unsolvable += 1;
                out.push_str("unsolvable");
            }
            Outcome::Invalid(reason) => {
                summary.invalid += 1;
                out.push_str("invalid: ");
                out.push_str(reason);
            }
        }
        out.push('\n');
    }
    summary.per_second = summary.puzzles as f64 / seconds.max(1e-9);
    writeln!(
        out,
        "puzzles: {}, solved: {} ({} unique, {} with more than one solution), unsolvable: {}, invalid: {}",
        summary.puzzles,
        summary.solved,
        summary.solved - summary.multiple,
        summary.multiple,
        summary.unsolvable,
        summary.invalid
    )?;
    writeln!(
        out,
        "time: {:.3} s, {:.0} puzzles/s on {} threads",
        summary.seconds, summary.per_second, summary.threads
    )?;
    Ok(out)
}

fn solve_line(line_no: usize, line: &str, box_shape: Option<(usize, usize)>) -> Outcome {
    let invalid = |e: SudokuError| {
        // A one-line puzzle's own position reads "line 1, column C": name the file's line.
        let e = e.to_string();
        let e = e
            .strip_prefix("line 1, ")
            .map_or_else(|| format!("line {line_no}: {e}"), |rest| format!("line {line_no}, {rest}"));
        Outcome::Invalid(e)
    };
    let grid = match Grid::parse(line, box_shape) {
        Ok(g) => g,
        Err(e) => return invalid(e),
    };
    let analysis = analyse(&grid, 2);
    match analysis.solution {
        Some(solution) => Outcome::Solved { line: solution.to_line(), unique: analysis.count == 1 },
        // Clashing givens have no solution: the clash check (for its message) runs only then.
        None => match grid.check_clashes() {
            Err(e) => invalid(e),
            Ok(()) => Outcome::Unsolvable,
        },
    }
}
