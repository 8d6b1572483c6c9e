//! Sudoku's benchmarks: the 9×9 solver's speed on a puzzle file (`autoplay bench sudoku FILE`), its answers
//! compared with the reference solver (`autoplay bench sudoku --compare N`), and a screenshot's reading time
//! (`autoplay bench sudoku --shot FILE`).
//!
//! The timed loop is the solver alone: the file is read and parsed into 81-value arrays first, and each
//! puzzle is then solved with the uniqueness check (the first solution written out, counting stopped at 2),
//! on one thread, in file order, over the whole file again and again until the run lasts the minimum time.
//! The clock is wall time (as tdoku's `run_benchmark` uses), so other load on the machine slows a run down:
//! the best of several runs is the figure.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};

use crate::games::sudoku::board::{check_solution, Grid};
use crate::games::sudoku::solver::{reference, solver9};

/// A 9×9 puzzle: 81 values, 0 = empty.
pub type Cells = [u8; 81];

/// The puzzles of a file, one a line (any one-line form of a 9×9 grid; blank lines and lines starting with `#`
/// skipped). Clashing givens are kept: such a puzzle has no solution.
pub fn parse_puzzles(text: &str) -> Result<Vec<Cells>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let grid = Grid::parse(line, Some((3, 3))).map_err(|e| anyhow!("line {}: {e}", i + 1))?;
        let mut cells = [0u8; 81];
        cells.copy_from_slice(grid.cells());
        out.push(cells);
    }
    Ok(out)
}

/// What [`bench_puzzles`] measured.
#[derive(Clone, Debug)]
pub struct SpeedRuns {
    pub puzzles: usize,
    /// Puzzles with one solution, with more than one, and with none.
    pub unique: usize,
    pub multiple: usize,
    pub unsolvable: usize,
    /// Branches the search took per puzzle.
    pub guesses: f64,
    /// Puzzles/s of each run.
    pub rates: Vec<f64>,
}

impl SpeedRuns {
    pub fn best(&self) -> f64 {
        self.rates.iter().copied().fold(0.0, f64::max)
    }
}

/// Solves every puzzle once with the uniqueness check; the number of solutions found (each at most 2) summed
/// with a checksum of the first solutions, so that nothing is optimised away.
fn solve_all(puzzles: &[Cells]) -> u64 {
    let engine = solver9::Engine::best();
    let mut total = 0u64;
    let mut first = [0u8; 81];
    for p in puzzles {
        let n = solver9::solve_count(engine, p, 2, &mut first);
        total = total.wrapping_add(n).wrapping_add(u64::from(first[80]));
    }
    total
}

/// `runs` timed runs of at least `min_seconds` each over `puzzles` (see the module doc).
pub fn bench_puzzles(puzzles: &[Cells], runs: usize, min_seconds: f64) -> SpeedRuns {
    let engine = solver9::Engine::best();
    let (mut unique, mut multiple, mut unsolvable) = (0, 0, 0);
    let mut first = [0u8; 81];
    let guesses = solver9::guesses_so_far();
    for p in puzzles {
        match solver9::solve_count(engine, p, 2, &mut first) {
            0 => unsolvable += 1,
            1 => unique += 1,
            _ => multiple += 1,
        }
    }
    let guesses = (solver9::guesses_so_far() - guesses) as f64 / puzzles.len().max(1) as f64;
    let mut rates = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let mut done = 0usize;
        let mut sink = 0u64;
        loop {
            sink = sink.wrapping_add(solve_all(std::hint::black_box(puzzles)));
            done += puzzles.len();
            if start.elapsed().as_secs_f64() >= min_seconds || puzzles.is_empty() {
                break;
            }
        }
        std::hint::black_box(sink);
        rates.push(done as f64 / start.elapsed().as_secs_f64().max(1e-9));
    }
    SpeedRuns { puzzles: puzzles.len(), unique, multiple, unsolvable, guesses, rates }
}

/// `autoplay bench sudoku FILE`: the report of [`bench_puzzles`] on one file. The line starting with `rate:`
/// is the one `scripts/bench/tdoku.sh` reads.
pub fn bench_file_command(name: &str, text: &str, runs: usize, min_seconds: f64) -> Result<String> {
    let start = Instant::now();
    let puzzles = parse_puzzles(text)?;
    let parse_seconds = start.elapsed().as_secs_f64();
    if puzzles.is_empty() {
        bail!("{name}: no puzzles");
    }
    let speed = bench_puzzles(&puzzles, runs, min_seconds);
    let best = speed.best();
    let mut out = String::new();
    writeln!(
        out,
        "{name}: {} puzzles ({} unique, {} with more than one solution, {} unsolvable, {:.2} guesses a puzzle), \
         parsed in {:.3} s (not timed)",
        speed.puzzles, speed.unique, speed.multiple, speed.unsolvable, speed.guesses, parse_seconds
    )?;
    writeln!(
        out,
        "solve + uniqueness check (count to 2), one thread, engine {}, wall time, {} runs of >= {min_seconds} s: {}",
        solver9::Engine::best().name(),
        speed.rates.len(),
        speed.rates.iter().map(|r| format!("{r:.0}")).collect::<Vec<_>>().join(", ")
    )?;
    writeln!(out, "rate: {best:.0} puzzles/s, {:.3} us/puzzle (best run)", 1e6 / best)?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Comparison with the reference solver.

/// How many solutions the all-solutions comparison counts up to.
pub const COMPARE_ALL_LIMIT: u64 = 200;

/// What [`compare_with_reference`] checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub puzzles: usize,
    pub unique: usize,
    pub multiple: usize,
    pub unsolvable: usize,
    /// Puzzles whose full solution sets (up to [`COMPARE_ALL_LIMIT`]) were compared as sets.
    pub sets_compared: usize,
    /// The first disagreements found (at most 10), as text.
    pub disagreements: Vec<String>,
    pub disagreeing: usize,
}

fn all_solutions(limit: u64, run: impl FnOnce(u64, &mut dyn FnMut(&[u8]) -> ControlFlow<()>) -> u64) -> Vec<Cells> {
    let mut out = Vec::new();
    run(limit, &mut |s| {
        let mut c = [0u8; 81];
        c.copy_from_slice(s);
        out.push(c);
        ControlFlow::Continue(())
    });
    out.sort_unstable();
    out
}

/// Compares one puzzle's answers: the count to 2 and, for a unique puzzle, the solution; the first solution
/// must solve the puzzle; the counts up to [`COMPARE_ALL_LIMIT`] must agree and, below it, the sets of
/// solutions. `Err` describes a disagreement.
pub fn compare_one(p: &Cells) -> std::result::Result<(u64, bool), String> {
    let engine = solver9::Engine::best();
    let mut first = [0u8; 81];
    let fast = solver9::solve_count(engine, p, 2, &mut first);
    let mut ref_first: Option<Cells> = None;
    let slow = reference::search(p, 2, 0, &mut |s| {
        if ref_first.is_none() {
            let mut c = [0u8; 81];
            c.copy_from_slice(s);
            ref_first = Some(c);
        }
        ControlFlow::Continue(())
    });
    if fast != slow {
        return Err(format!("count to 2: fast {fast}, reference {slow}"));
    }
    if fast >= 1 {
        let grid = Grid::from_cells(3, 3, p.to_vec()).map_err(|e| e.to_string())?;
        let sol = Grid::from_cells(3, 3, first.to_vec()).map_err(|e| e.to_string())?;
        check_solution(&grid, &sol).map_err(|e| format!("first solution wrong: {e}"))?;
        if fast == 1 && ref_first != Some(first) {
            return Err("the unique solutions differ".into());
        }
    }
    let mut set_compared = false;
    if fast == 2 {
        let a = all_solutions(COMPARE_ALL_LIMIT, |l, f| solver9::search_with(engine, p, l, f));
        let b = all_solutions(COMPARE_ALL_LIMIT, |l, f| reference::search(p, l, 0, f));
        if a.len() != b.len() {
            return Err(format!("count to {COMPARE_ALL_LIMIT}: fast {}, reference {}", a.len(), b.len()));
        }
        if (a.len() as u64) < COMPARE_ALL_LIMIT {
            if a != b {
                return Err("the solution sets differ".into());
            }
            set_compared = true;
        }
    }
    Ok((fast, set_compared))
}

/// A generated puzzle (deterministic in `seed`): a solution grid drawn by the reference solver's random branch
/// order, 17 to 45 of its cells kept at random; one puzzle in eight gets one more digit at random, which may
/// make it clash or leave it without a solution.
pub fn generated_puzzle(seed: u64) -> Cells {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |k: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % k
    };
    let mut full = [0u8; 81];
    reference::search(&[0u8; 81], 1, seed | 1, &mut |s| {
        full.copy_from_slice(s);
        ControlFlow::Break(())
    });
    let keep = 17 + next(29) as usize;
    let mut order: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        order.swap(i, next(i as u64 + 1) as usize);
    }
    let mut cells = [0u8; 81];
    for &i in &order[..keep] {
        cells[i] = full[i];
    }
    if next(8) == 0 {
        let i = order[keep + next((81 - keep) as u64) as usize];
        cells[i] = 1 + next(9) as u8;
    }
    cells
}

/// Compares the fast solver with the reference on `puzzles` (see [`compare_one`]), calling `tick` after each.
pub fn compare_with_reference(puzzles: impl Iterator<Item = Cells>, mut tick: impl FnMut()) -> Comparison {
    let mut c = Comparison::default();
    for p in puzzles {
        c.puzzles += 1;
        match compare_one(&p) {
            Ok((n, set)) => {
                match n {
                    0 => c.unsolvable += 1,
                    1 => c.unique += 1,
                    _ => c.multiple += 1,
                }
                c.sets_compared += usize::from(set);
            }
            Err(why) => {
                c.disagreeing += 1;
                if c.disagreements.len() < 10 {
                    let line: String = p.iter().map(|&v| if v == 0 { '.' } else { (b'0' + v) as char }).collect();
                    c.disagreements.push(format!("{line}: {why}"));
                }
            }
        }
        tick();
    }
    c
}

/// `autoplay bench sudoku --compare N [FILE…]`: [`compare_with_reference`] on `n` generated puzzles and on the
/// puzzles of the files given; an error when any answer disagrees.
pub fn compare_command(n: usize, files: &[(String, String)]) -> Result<String> {
    let mut out = String::new();
    let mut failed = false;
    let mut report = |what: &str, c: &Comparison, seconds: f64| -> Result<()> {
        writeln!(
            out,
            "{what}: {} puzzles ({} unique, {} with more than one solution, {} unsolvable), {} solution sets \
             compared in full; {} disagreements ({seconds:.1} s)",
            c.puzzles, c.unique, c.multiple, c.unsolvable, c.sets_compared, c.disagreeing
        )?;
        for d in &c.disagreements {
            writeln!(out, "  {d}")?;
        }
        failed |= c.disagreeing > 0;
        Ok(())
    };
    if n > 0 {
        let bar = crate::bench::progress_bar(n as u64, "compare");
        let start = Instant::now();
        let c = compare_with_reference((0..n as u64).map(generated_puzzle), || bar.inc(1));
        bar.finish_and_clear();
        report("generated", &c, start.elapsed().as_secs_f64())?;
    }
    for (name, text) in files {
        let puzzles = parse_puzzles(text).map_err(|e| anyhow!("{name}: {e}"))?;
        let bar = crate::bench::progress_bar(puzzles.len() as u64, "compare");
        let start = Instant::now();
        let c = compare_with_reference(puzzles.into_iter(), || bar.inc(1));
        bar.finish_and_clear();
        report(name, &c, start.elapsed().as_secs_f64())?;
    }
    if failed {
        bail!("{out}the fast solver and the reference disagree");
    }
    Ok(out)
}

/// Times reading a screenshot `repeats` times as the game reads it (themes, else with no calibration), after one
/// untimed read that must succeed (`autoplay bench sudoku --shot FILE`).
pub fn bench_read(
    image: &image::RgbaImage,
    game: &crate::clients::sudoku::SudokuScreen,
    repeats: usize,
) -> Result<super::Summary> {
    super::time_reads(repeats, || crate::clients::sudoku::read_any(image, &game.themes, game.digit_shapes.as_ref()))
}
