//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod cribbage;
pub mod desktop;
pub mod java;
pub mod sgt_flood;
pub mod sudoku;

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use autoplay::clients::flood::theme::{load_themes, PaletteTheme};
use autoplay::games::flood::{sgt_id::SgtFloodId, solver, FloodBoard};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bot's binary as a command, with the repository's calibration (`AUTOPLAY_CALIBRATION`).
pub fn autoplay() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_autoplay"));
    command.env("AUTOPLAY_CALIBRATION", repo().join("calibration"));
    command
}

pub fn flood_themes() -> Vec<PaletteTheme> {
    load_themes(&repo().join("calibration"), None).expect("the repository's flood calibration")
}

/// A captured sgt-flood screenshot with its truth.
pub struct FloodFixture {
    pub name: String,
    pub png: PathBuf,
    pub id: SgtFloodId,
    /// The game's own solver's move count: the move limit less the parameters' extra moves (`mK`).
    pub game_solver_moves: u32,
}

/// The screenshots in `fixtures/<folder>`, sorted by name, as (name, path).
pub fn fixture_shots(folder: &str) -> Vec<(String, PathBuf)> {
    let dir = repo().join("fixtures").join(folder);
    let mut shots: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .map(|png| (png.file_stem().unwrap().to_string_lossy().into_owned(), png))
        .collect();
    shots.sort();
    shots
}

pub fn flood_fixtures() -> Vec<FloodFixture> {
    let fixtures: Vec<FloodFixture> = fixture_shots("flood")
        .into_iter()
        .map(|(name, png)| {
            let id = SgtFloodId::parse(&std::fs::read_to_string(png.with_extension("id")).unwrap()).unwrap();
            let params = std::fs::read_to_string(png.with_extension("params")).unwrap();
            let extra: u32 = params.split('#').next().unwrap().rsplit('m').next().unwrap().parse().unwrap();
            FloodFixture { name, png, game_solver_moves: id.move_limit - extra, id }
        })
        .collect();
    assert!(fixtures.len() >= 10, "expected the flood fixtures, found {}", fixtures.len());
    fixtures
}

/// The true minimum number of moves, by breadth-first search over whole boards: independent of the solver,
/// and only for small boards.
pub fn brute_force_minimum(board: &FloodBoard) -> usize {
    let (w, h) = (board.width, board.height);
    let mut seen: HashSet<Vec<u8>> = HashSet::from([board.cells.clone()]);
    let mut queue = VecDeque::from([(board.cells.clone(), 0usize)]);
    while let Some((cells, depth)) = queue.pop_front() {
        if cells.iter().all(|&c| c == cells[0]) {
            return depth;
        }
        for colour in board.colours() {
            if colour == cells[board.start] {
                continue;
            }
            let mut next = cells.clone();
            plain_flood(w, h, &mut next, board.start, colour);
            if seen.insert(next.clone()) {
                queue.push_back((next, depth + 1));
            }
        }
    }
    unreachable!("every board can be flooded")
}

/// The rule, written out plainly: recolour the region connected to the start cell (a row-major index).
fn plain_flood(w: usize, h: usize, cells: &mut [u8], start: usize, colour: u8) {
    let old = cells[start];
    let mut stack = vec![(start / w, start % w)];
    let mut done = vec![false; w * h];
    while let Some((r, c)) = stack.pop() {
        let i = r * w + c;
        if done[i] || cells[i] != old {
            continue;
        }
        done[i] = true;
        cells[i] = colour;
        if r > 0 {
            stack.push((r - 1, c));
        }
        if r + 1 < h {
            stack.push((r + 1, c));
        }
        if c > 0 {
            stack.push((r, c - 1));
        }
        if c + 1 < w {
            stack.push((r, c + 1));
        }
    }
}

/// Checks a move list with the plain rule (independent of the solver's own check).
pub fn solves(board: &FloodBoard, moves: &[u8]) -> bool {
    let mut cells = board.cells.clone();
    for &m in moves {
        plain_flood(board.width, board.height, &mut cells, board.start, m);
    }
    cells.iter().all(|&c| c == cells[0])
}

pub fn solver_limits_none() -> solver::Limits {
    solver::Limits::default()
}

pub fn path_str(p: &Path) -> String {
    p.display().to_string()
}

/// Flags for Chromium as the tests run it (root, no network, a fresh profile given separately).
pub const CHROMIUM_FLAGS: [&str; 7] = [
    "--no-sandbox",
    "--test-type",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// A page of the project's own clients in `fixtures/tables/` (`file` with `query`), and the text it writes into its
/// hidden `<pre id="board">` on load, as headless Chromium's `--dump-dom` shows it: the tests' truth.
pub fn page_and_board_text(file: &str, query: &str) -> (String, String) {
    page_and_pre_text(file, query, "board")
}

/// A page of the project's own clients in `fixtures/tables/` (`file` with `query`), and the text it writes into its
/// hidden `<pre id="ID">` on load, as headless Chromium's `--dump-dom` shows it.
pub fn page_and_pre_text(file: &str, query: &str, id: &str) -> (String, String) {
    let page = format!("file://{}?{query}", repo().join("fixtures/tables").join(file).display());
    let profile = tempfile::tempdir().unwrap();
    let profile_arg = format!("--user-data-dir={}", profile.path().display());
    let dom = std::process::Command::new("chromium")
        .args(CHROMIUM_FLAGS)
        .args(["--headless", &profile_arg, "--dump-dom", &page])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    // The element's opening tag may carry other attributes (a style hiding it).
    let after_id = dom.split(&format!("<pre id=\"{id}\"")).nth(1).expect("the page's hidden text");
    let text = after_id
        .split_once('>')
        .and_then(|(_, s)| s.split("</pre>").next())
        .expect("the page's hidden text")
        .replace("&quot;", "\"");
    (page, text)
}

/// `autoplay play GAME --window id:WINDOW --json` on `display` with an empty calibration folder, as a user with no
/// calibration runs it: whether it succeeded, its standard error, and its report (null where it printed none).
pub fn play_uncalibrated(display: &str, game: &str, window: &str) -> (bool, String, serde_json::Value) {
    let calibration = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(calibration.path().join(game)).unwrap();
    play_calibrated(display, game, calibration.path(), &["--window", &format!("id:{window}")])
}

/// `autoplay play GAME ARGS --json --calibration CALIBRATION` on `display`: whether it succeeded, its standard
/// error, and its report (null where it printed none).
pub fn play_calibrated(
    display: &str,
    game: &str,
    calibration: &Path,
    args: &[&str],
) -> (bool, String, serde_json::Value) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .args(["play", game])
        .args(args)
        .arg("--json")
        .arg("--calibration")
        .arg(calibration)
        .env("DISPLAY", display)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned(), report)
}

/// A busy desktop for as long as the value lives: `scripts/busy.sh N` (N processes keeping the processors busy,
/// half spinning, half making system calls), ended when dropped.
pub struct Busy(std::process::Child);

impl Busy {
    pub fn start(processes: usize) -> Busy {
        let child = std::process::Command::new("bash")
            .arg(repo().join("scripts/busy.sh"))
            .arg(processes.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("scripts/busy.sh");
        Busy(child)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        // SIGTERM: the script's trap ends its busy processes before it exits.
        let _ = std::process::Command::new("kill").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

/// A window manager that is slow to let clicks through, for as long as the value lives: its process is stopped
/// for `stopped` every `every` (SIGSTOP, then SIGCONT), as a busy desktop may hold it. A click that lands while it
/// is stopped is held by it (openbox takes every click on a window first) and reaches the window only when it runs
/// again; keys sent meanwhile reach the focused window at once.
pub struct SlowWindowManager {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
    pid: u32,
}

impl SlowWindowManager {
    pub fn start(pid: u32, stopped: Duration, every: Duration) -> SlowWindowManager {
        use std::sync::atomic::Ordering;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let signal = move |name: &str| {
            let _ = std::process::Command::new("kill").args([name, &pid.to_string()]).status();
        };
        let thread = std::thread::spawn(move || {
            let mut pauses = 0;
            while !flag.load(Ordering::SeqCst) {
                signal("-STOP");
                pauses += 1;
                std::thread::sleep(stopped);
                signal("-CONT");
                std::thread::sleep(every.saturating_sub(stopped));
            }
            pauses
        });
        SlowWindowManager { stop, thread: Some(thread), pid }
    }

    /// Lets the window manager run for good; how many times it was stopped.
    pub fn end(mut self) -> usize {
        self.finish()
    }

    fn finish(&mut self) -> usize {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let pauses = self.thread.take().map_or(0, |thread| thread.join().unwrap_or(0));
        let _ = std::process::Command::new("kill").args(["-CONT", &self.pid.to_string()]).status();
        pauses
    }
}

impl Drop for SlowWindowManager {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A test client written in Python (`fixtures/tables/SCRIPT`) started on `desktop` with `args`, and `--state` naming
/// a JSON file in a folder of its own, where the client writes its state: the folder (removed when dropped) and
/// the file's path.
pub fn spawn_python_table(
    desktop: &mut desktop::Desktop,
    script: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    let (script, state_path) = (path_str(&repo().join("fixtures/tables").join(script)), path_str(&state));
    let mut all = vec![script.as_str()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--state", &state_path]);
    desktop.spawn(cribbage::python(), &all, env);
    (dir, state)
}
