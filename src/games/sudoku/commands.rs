//! The text commands: `solve sudoku`, `solve sudoku --batch` and `bench sudoku`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::board::{check_solution, Grid, SudokuError};
use super::solver::analyse;
use super::solver::solver9::{self, Engine};

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

// ---------------------------------------------------------------------------------------
// Benchmark.

const SGT_SOLO: &str = "/usr/games/sgt-solo";
const QQWING: &str = "qqwing";
const SET_SIZE: usize = 1000;

/// One benchmark set: where it comes from and how to make it.
struct SetSpec {
    name: String,
    file: String,
    source: Source,
}

enum Source {
    Sgt(String),
    Qqwing(String),
    Hard,
    HardTransformed,
}

fn set_specs() -> Vec<SetSpec> {
    let mut specs = Vec::new();
    for (d, label) in [
        ("t", "trivial"),
        ("b", "basic"),
        ("i", "intermediate"),
        ("a", "advanced"),
        ("e", "extreme"),
        ("u", "unreasonable"),
    ] {
        specs.push(SetSpec {
            name: format!("sgt-solo 3x3 {label}"),
            file: format!("sgt-3x3-{d}.txt"),
            source: Source::Sgt(format!("3x3d{d}#autoplay-bench")),
        });
    }
    for d in ["simple", "easy", "intermediate", "expert"] {
        specs.push(SetSpec {
            name: format!("qqwing {d}"),
            file: format!("qqwing-{d}.txt"),
            source: Source::Qqwing(d.to_string()),
        });
    }
    specs.push(SetSpec { name: "famous hard (9)".into(), file: String::new(), source: Source::Hard });
    specs.push(SetSpec {
        name: "famous hard x 1000 transforms".into(),
        file: String::new(),
        source: Source::HardTransformed,
    });
    for shape in ["2x2", "2x3", "3x4", "4x4"] {
        specs.push(SetSpec {
            name: format!("sgt-solo {shape} (generic)"),
            file: format!("sgt-{shape}.txt"),
            source: Source::Sgt(format!("{shape}#autoplay-bench")),
        });
    }
    specs
}

fn tool_available(program: &str) -> bool {
    Command::new(program).arg("--help").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

/// The set's puzzles, generated into `cache_dir` on first use. `Err` explains why a set is
/// unavailable (tool missing, generation failed).
fn load_set(spec: &SetSpec, cache_dir: &Path) -> Result<Vec<Grid>, String> {
    match &spec.source {
        Source::Hard => Ok(HARD_PUZZLES.iter().map(|(_, p)| Grid::parse(p, None).expect("valid constant")).collect()),
        Source::HardTransformed => {
            let mut rng = 0x5EED_2026_u64;
            let base: Vec<Grid> =
                HARD_PUZZLES.iter().map(|(_, p)| Grid::parse(p, None).expect("valid constant")).collect();
            Ok((0..SET_SIZE).map(|i| transform(&base[i % base.len()], &mut rng)).collect())
        }
        Source::Sgt(params) | Source::Qqwing(params) => {
            let path: PathBuf = cache_dir.join(&spec.file);
            if !path.exists() {
                let output = match &spec.source {
                    Source::Sgt(_) => {
                        if !tool_available(SGT_SOLO) {
                            return Err(format!("{SGT_SOLO} not found (apt-get install sgt-puzzles)"));
                        }
                        Command::new(SGT_SOLO).args(["--generate", &SET_SIZE.to_string(), params]).output()
                    }
                    _ => {
                        if !tool_available(QQWING) {
                            return Err("qqwing not found (apt-get install qqwing)".into());
                        }
                        Command::new(QQWING)
                            .args(["--generate", &SET_SIZE.to_string(), "--difficulty", params, "--one-line"])
                            .output()
                    }
                };
                let output = output.map_err(|e| format!("generation failed: {e}"))?;
                if !output.status.success() {
                    return Err(format!("generation failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
                }
                std::fs::create_dir_all(cache_dir).map_err(|e| format!("{}: {e}", cache_dir.display()))?;
                std::fs::write(&path, &output.stdout).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .enumerate()
                .map(|(i, l)| Grid::parse(l, None).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1)))
                .collect()
        }
    }
}

/// A random validity-preserving transform of a 9×9 grid: digit relabelling, rows within
/// bands, bands, columns within stacks, stacks, and transposition.
fn transform(grid: &Grid, rng: &mut u64) -> Grid {
    let mut next = |k: usize| {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        (*rng % k as u64) as usize
    };
    let mut shuffle = |v: &mut [usize]| {
        for i in (1..v.len()).rev() {
            let j = next(i + 1);
            v.swap(i, j);
        }
    };
    let mut line_perm = || {
        let mut bands = [0, 1, 2];
        shuffle(&mut bands);
        let mut out = [0usize; 9];
        for (i, &b) in bands.iter().enumerate() {
            let mut inner = [0, 1, 2];
            shuffle(&mut inner);
            for j in 0..3 {
                out[3 * i + j] = 3 * b + inner[j];
            }
        }
        out
    };
    let rows = line_perm();
    let cols = line_perm();
    let mut digits: Vec<usize> = (1..=9).collect();
    shuffle(&mut digits);
    let flip = next(2) == 1;
    let mut cells = vec![0u8; 81];
    for (r, &from_r) in rows.iter().enumerate() {
        for (c, &from_c) in cols.iter().enumerate() {
            let v = grid.get(from_r, from_c);
            let v = if v == 0 { 0 } else { digits[v as usize - 1] as u8 };
            let (tr, tc) = if flip { (c, r) } else { (r, c) };
            cells[tr * 9 + tc] = v;
        }
    }
    Grid::from_cells(3, 3, cells).expect("a permuted grid is valid")
}

/// CPU seconds (user + system) from a `/proc` stat file: fields `a` and `b` (1-based, as
/// in proc(5)), in clock ticks of 1/100 s. `None` off Linux.
fn proc_cpu_seconds(path: &str, a: usize, b: usize) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    // Fields after the parenthesised command name start at field 3.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(a - 3)?.parse::<u64>().ok()? + fields.get(b - 3)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// CPU time of the calling thread.
fn thread_cpu() -> Option<f64> {
    proc_cpu_seconds("/proc/thread-self/stat", 14, 15)
}

/// CPU time of this process's waited-for children.
fn children_cpu() -> Option<f64> {
    proc_cpu_seconds("/proc/self/stat", 16, 17)
}

/// A clock that reads thread CPU time where `/proc` has it (so other load on a shared
/// machine does not count), else wall time.
struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

impl Clock {
    fn start() -> Clock {
        Clock { wall: Instant::now(), cpu: thread_cpu() }
    }
    fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Runs `f` over all puzzles repeatedly for at least `min` seconds of the clock (and at
/// least once); puzzles/s.
fn rate(puzzles: &[Grid], min: f64, mut f: impl FnMut(&Grid) -> u64) -> f64 {
    let clock = Clock::start();
    let mut done = 0usize;
    let mut sink = 0u64;
    loop {
        for p in puzzles {
            sink = sink.wrapping_add(f(p));
        }
        done += puzzles.len();
        if clock.seconds() >= min {
            break;
        }
    }
    std::hint::black_box(sink);
    done as f64 / clock.seconds().max(1e-9)
}

/// qqwing's single-threaded solve rate on the same puzzles, measured on its CPU time (or
/// wall time off Linux) with the input repeated to last about half a second and the
/// start-up cost subtracted; or why there is none. Also checks its answers against `ours`.
fn qqwing_rate(puzzles: &[Grid], ours: &[Option<Grid>]) -> Result<f64, String> {
    let input: String = puzzles.iter().map(|g| g.to_line() + "\n").collect();
    let run = |text: &str| -> Result<(f64, String), String> {
        let wall = Instant::now();
        let cpu = children_cpu();
        let mut child = Command::new(QQWING)
            .args(["--solve", "--one-line"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("qqwing: {e}"))?;
        let writer = {
            let mut stdin = child.stdin.take().expect("piped");
            let text = text.to_string();
            std::thread::spawn(move || {
                use std::io::Write;
                let _ = stdin.write_all(text.as_bytes());
            })
        };
        let out = child.wait_with_output().map_err(|e| format!("qqwing: {e}"))?;
        let _ = writer.join();
        let seconds = match (cpu, children_cpu()) {
            (Some(a), Some(b)) => b - a,
            _ => wall.elapsed().as_secs_f64(),
        };
        Ok((seconds, String::from_utf8_lossy(&out.stdout).into_owned()))
    };
    let startup = (0..5).map(|_| run("").map(|r| r.0)).sum::<Result<f64, String>>()? / 5.0;
    let wall = Instant::now();
    let (_, answers) = run(&input)?;
    let once = wall.elapsed().as_secs_f64();
    let lines: Vec<&str> = answers.lines().filter(|l| l.len() == 81).collect();
    let agree =
        lines.iter().zip(ours).filter(|(line, ours)| ours.as_ref().is_some_and(|g| g.to_line() == **line)).count();
    if agree < puzzles.len() {
        return Err(format!("answers differ on {} of {}", puzzles.len() - agree, puzzles.len()));
    }
    let repeats = ((0.5 / once.max(1e-3)).ceil() as usize).clamp(1, 50);
    let (seconds, _) = run(&input.repeat(repeats))?;
    let net = (seconds - startup).max(0.01);
    Ok((puzzles.len() * repeats) as f64 / net)
}

/// `autoplay bench sudoku`: single-threaded puzzles/s on generated sets (cached as text files
/// in `cache_dir`; the first run generates them, which takes a few minutes for sgt-solo's
/// hardest levels) and on the famous hard puzzles, for the SIMD and scalar engines, for
/// solving with the uniqueness check (count up to 2), and for qqwing on the same puzzles.
/// Sets whose generator is missing are listed with the reason.
pub fn bench_command(cache_dir: &Path) -> Result<String> {
    let min = 0.4;
    let qqwing = tool_available(QQWING);
    let mut out = String::new();
    let time_base =
        if thread_cpu().is_some() { "CPU time of the thread (qqwing: of its process)" } else { "wall time" };
    let load =
        std::fs::read_to_string("/proc/loadavg").map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    writeln!(out, "Sudoku benchmark: puzzles/s on one thread, timed by {time_base}")?;
    writeln!(
        out,
        "engines: best = {}, scalar = plain code; load average at start: {}",
        match Engine::best() {
            Engine::Avx512 => "avx512 (avx2/bmi and avx-512vl codegen, sse4.1 census)",
            Engine::Simd => "simd (avx2/bmi codegen, sse4.1 census)",
            Engine::Scalar => "scalar (no avx2 on this CPU)",
        },
        load.unwrap_or_else(|_| "unknown".into())
    )?;
    writeln!(
        out,
        "{:<32} {:>5} {:>6} {:>7} {:>11} {:>11} {:>11} {:>11} {:>7}",
        "set", "n", "clues", "unique", "solve", "solve", "solve+", "qqwing", "ratio"
    )?;
    writeln!(
        out,
        "{:<32} {:>5} {:>6} {:>7} {:>11} {:>11} {:>11} {:>11} {:>7}",
        "", "", "", "", "(best)", "(scalar)", "count<=2", "--solve", ""
    )?;
    for spec in set_specs() {
        let puzzles = match load_set(&spec, cache_dir) {
            Ok(p) if !p.is_empty() => p,
            Ok(_) => {
                writeln!(out, "{:<32} empty set", spec.name)?;
                continue;
            }
            Err(why) => {
                writeln!(out, "{:<32} skipped: {why}", spec.name)?;
                continue;
            }
        };
        // Check every answer first, outside the timing.
        let mut answers = Vec::with_capacity(puzzles.len());
        let mut unique = 0;
        for p in &puzzles {
            let a = analyse(p, 2);
            if let Some(s) = &a.solution {
                check_solution(p, s).map_err(|e| anyhow::anyhow!("{}: wrong solution: {e}", spec.name))?;
            }
            unique += usize::from(a.count == 1);
            answers.push(a.solution);
        }
        let clues = puzzles.iter().map(Grid::givens).sum::<usize>() as f64 / puzzles.len() as f64;
        let classic = puzzles.iter().all(|p| p.box_shape() == (3, 3));
        let (best, scalar) = if classic {
            let best = rate(&puzzles, min, |p| solver9::count_with(Engine::best(), p.cells(), 1));
            let scalar = rate(&puzzles, min, |p| solver9::count_with(Engine::Scalar, p.cells(), 1));
            (best, Some(scalar))
        } else {
            (rate(&puzzles, min, |p| super::solver::count_solutions(p, 1)), None)
        };
        let counting = rate(&puzzles, min, |p| super::solver::count_solutions(p, 2));
        let q = if !classic {
            Err("9x9 only".to_string())
        } else if !qqwing {
            Err("not installed".to_string())
        } else {
            qqwing_rate(&puzzles, &answers)
        };
        let fmt_rate = |r: f64| format!("{r:.0}");
        let (q_text, ratio) = match &q {
            Ok(r) => (fmt_rate(*r), format!("{:.1}x", best / r)),
            Err(why) => (why.clone(), "-".to_string()),
        };
        writeln!(
            out,
            "{:<32} {:>5} {:>6.1} {:>7} {:>11} {:>11} {:>11} {:>11} {:>7}",
            spec.name,
            puzzles.len(),
            clues,
            unique,
            fmt_rate(best),
            scalar.map(fmt_rate).unwrap_or_else(|| "-".into()),
            fmt_rate(counting),
            q_text,
            ratio
        )?;
    }
    writeln!(out, "solve = first solution; solve+count<=2 = solution and uniqueness check; ratio = best / qqwing")?;
    Ok(out)
}

#[cfg(test)]
pub(crate) fn transform_for_tests(grid: &Grid, rng: &mut u64) -> Grid {
    transform(grid, rng)
}
