//! `autoplay bench sudoku` with no file: single-threaded puzzles/s on generated sets (sgt-solo's levels,
//! qqwing's, the famous hard puzzles and their transforms), for the SIMD and scalar engines, with the uniqueness
//! check, and qqwing on the same puzzles where it is installed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::Result;

use crate::games::sudoku::symmetry::transform;
use crate::games::sudoku::{analyse, check_solution, solver9, Engine, Grid, HARD_PUZZLES};

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
            (rate(&puzzles, min, |p| crate::games::sudoku::count_solutions(p, 1)), None)
        };
        let counting = rate(&puzzles, min, |p| crate::games::sudoku::count_solutions(p, 2));
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
