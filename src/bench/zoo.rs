//! `bench zoo`: the bot against the client zoo (`fixtures/zoo/`). Each seed's client is started on a virtual
//! display of its own (Xvfb and openbox), played to its end by `autoplay play GAME` with no calibration and no
//! `--window` (the bot finds the board), and judged by the state file the client writes, never by the bot's
//! words: read (the bot's first reading is the client's board), won (the game's own board is won: Flood-It in the
//! proven fewest moves, every Sudoku entry made once and right, Cribbage at the proven best score). A failure's
//! class comes from what the bench saw and the kind of the bot's error (`play --json`), not from its text.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;
use serde_json::Value;

use crate::game::{Game, SolveLimits};

/// A game of the zoo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZooGame {
    Flood,
    Sudoku,
    Cribbage,
}

impl ZooGame {
    pub fn name(self) -> &'static str {
        match self {
            ZooGame::Flood => "flood",
            ZooGame::Sudoku => "sudoku",
            ZooGame::Cribbage => "cribbage",
        }
    }
}

/// What one run of the bench plays, and where.
#[derive(Clone, Debug)]
pub struct ZooOptions {
    pub game: ZooGame,
    pub seeds: Vec<u64>,
    /// How many seeds are played at once, each on its own display.
    pub jobs: usize,
    /// One toolkit only (`web`, `gtk`, `sdl`), else the seed's.
    pub toolkit: Option<String>,
    /// The zoo's folder (holding `zoo.py`).
    pub zoo: PathBuf,
    /// Where each seed's folder goes: the client's state and log, the bot's report, log and recording.
    pub out: PathBuf,
    /// How long one game may take, start to end.
    pub bound: Duration,
    /// The autoplay binary that plays.
    pub autoplay: PathBuf,
}

/// How one seed went.
#[derive(Clone, Debug, Serialize)]
pub struct SeedResult {
    pub seed: u64,
    pub style: String,
    pub read: bool,
    pub won: bool,
    /// Why it was not won (none when won).
    pub class: Option<String>,
    /// The seed's folder: the recording (`recording/`), the bot's log and report, the client's state.
    pub recording: PathBuf,
    /// A line on what happened, for people.
    pub detail: String,
    pub seconds: f64,
}

/// The bench's sums, as `--json` prints them.
#[derive(Debug, Serialize)]
pub struct ZooSummary {
    pub game: &'static str,
    pub seeds: usize,
    pub read: usize,
    pub won: usize,
    pub failures: Vec<Failure>,
}

#[derive(Debug, Serialize)]
pub struct Failure {
    pub seed: u64,
    pub class: String,
    pub recording: PathBuf,
    pub style: String,
    pub detail: String,
}

pub fn summarise(game: ZooGame, results: &[SeedResult]) -> ZooSummary {
    let failures = results
        .iter()
        .filter(|r| !r.won)
        .map(|r| Failure {
            seed: r.seed,
            class: r.class.clone().unwrap_or_else(|| "unknown".into()),
            recording: r.recording.clone(),
            style: r.style.clone(),
            detail: r.detail.clone(),
        })
        .collect();
    ZooSummary {
        game: game.name(),
        seeds: results.len(),
        read: results.iter().filter(|r| r.read).count(),
        won: results.iter().filter(|r| r.won).count(),
        failures,
    }
}

/// Plays every seed, `jobs` at a time; `done` hears of each as it ends. The results in the seeds' order.
pub fn run(options: &ZooOptions, done: &(dyn Fn(&SeedResult) + Sync)) -> Result<Vec<SeedResult>> {
    for program in ["Xvfb", "openbox", "xprop", "/usr/bin/python3"] {
        if which(program).is_none() {
            bail!("bench zoo needs {program} (scripts/setup-debian.sh installs it)");
        }
    }
    std::fs::create_dir_all(&options.out).with_context(|| format!("cannot make {}", options.out.display()))?;
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(&seed) = options.seeds.get(index) else { break };
                let result = play_seed(options, seed);
                done(&result);
                results.lock().unwrap().push(result);
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.seed);
    Ok(results)
}

fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Path::new(program).exists().then(|| program.into());
    }
    std::env::var_os("PATH")?.to_str()?.split(':').map(|dir| Path::new(dir).join(program)).find(|p| p.exists())
}

/// One seed, start to end; what went wrong on the bench's side is a class of its own (`zoo`, `display`).
fn play_seed(options: &ZooOptions, seed: u64) -> SeedResult {
    let started = Instant::now();
    let folder = options.out.join(format!("{}-{seed}", options.game.name()));
    let _ = std::fs::remove_dir_all(&folder);
    let mut result = SeedResult {
        seed,
        style: String::new(),
        read: false,
        won: false,
        class: None,
        recording: folder.clone(),
        detail: String::new(),
        seconds: 0.0,
    };
    if let Err(error) = std::fs::create_dir_all(&folder) {
        result.class = Some("bench".into());
        result.detail = format!("cannot make {}: {error}", folder.display());
        return result;
    }
    match VirtualDisplay::start(&folder) {
        Ok(display) => play_on(options, seed, &folder, &display, &mut result),
        Err(error) => {
            result.class = Some("display".into());
            result.detail = format!("{error:#}");
        }
    }
    result.seconds = started.elapsed().as_secs_f64();
    result
}

fn play_on(options: &ZooOptions, seed: u64, folder: &Path, display: &VirtualDisplay, result: &mut SeedResult) {
    let state_path = folder.join("state.json");
    let mut client = match Client::start(options, seed, &state_path, display, folder) {
        Ok(client) => client,
        Err(error) => {
            result.class = Some("zoo".into());
            result.detail = format!("the client did not start: {error:#}");
            return;
        }
    };
    result.style = client.style.clone();
    if let Err(error) = client.wait_shown(options, &state_path, display) {
        result.class = Some("zoo".into());
        result.detail = format!("the client did not show: {error:#}");
        return;
    }
    let start_state = read_state(&state_path).unwrap_or(Value::Null);
    let played = play(options, display, folder);
    let state = read_state(&state_path).unwrap_or(Value::Null);
    drop(client);
    let first_read = first_reading(&folder.join("recording"));
    result.read = first_read.as_deref().is_some_and(|board| reads_as(options.game, board, &start_state));
    judge(options.game, &played, first_read.is_some(), &state, result);
}

/// How the bot's game ended.
struct Played {
    /// Ended by itself (not by the bench's bound), with exit status 0.
    exited: Option<bool>,
    /// The kind of the bot's error (`play --json`).
    kind: Option<String>,
    message: String,
}

fn play(options: &ZooOptions, display: &VirtualDisplay, folder: &Path) -> Played {
    let report = folder.join("play.json");
    let spawned = (|| -> Result<Child> {
        Ok(Command::new(&options.autoplay)
            .args(["play", options.game.name(), "--json", "--record"])
            .arg(folder.join("recording"))
            .env("DISPLAY", &display.name)
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&report)?)
            .stderr(std::fs::File::create(folder.join("play.log"))?)
            .spawn()?)
    })();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => return Played { exited: None, kind: None, message: format!("the bot did not start: {error:#}") },
    };
    let deadline = Instant::now() + options.bound;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            _ => break None,
        }
    };
    let Some(status) = status else {
        stop(&mut child, false);
        return Played { exited: None, kind: None, message: format!("not ended within {} s", options.bound.as_secs()) };
    };
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let last: Value = text.lines().last().and_then(|l| serde_json::from_str(l).ok()).unwrap_or(Value::Null);
    let kind = last["error"]["kind"].as_str().map(str::to_owned);
    let message = match last["error"]["message"].as_str() {
        Some(message) => message.to_owned(),
        None if status.success() => format!("won in {} moves", last["moves"]),
        None => {
            std::fs::read_to_string(folder.join("play.log")).unwrap_or_default().lines().last().unwrap_or("").to_owned()
        }
    };
    Played { exited: Some(status.success()), kind, message }
}

/// The class of a seed not won, from what the game's state says and how the bot ended; `won` where it is.
fn judge(game: ZooGame, played: &Played, was_read: bool, state: &Value, result: &mut SeedResult) {
    let game_won = state["won"].as_bool() == Some(true);
    let class = match played.exited {
        None if played.message.starts_with("the bot") => Some("bench".to_owned()),
        None => Some("timeout".to_owned()),
        Some(true) if !game_won => Some("false-win".to_owned()),
        Some(true) => match short_of_best(game, state) {
            Ok(None) => None,
            Ok(Some(class)) => Some(class),
            Err(error) => {
                result.detail = format!("the truth could not be found: {error:#}");
                Some("bench".to_owned())
            }
        },
        Some(false) => {
            let kind = played.kind.clone().unwrap_or_else(|| "other".into());
            Some(match (game_won, was_read, result.read) {
                (true, _, _) => format!("win-not-seen:{kind}"),
                (false, false, _) => format!("not-read:{kind}"),
                (false, true, false) => format!("misread:{kind}"),
                (false, true, true) => kind,
            })
        }
    };
    result.won = class.is_none();
    if result.detail.is_empty() {
        result.detail = played.message.lines().next().unwrap_or("").chars().take(300).collect();
    }
    result.class = class;
}

/// Whether a won game fell short of the best: Flood-It in more moves than the proven fewest, Sudoku with an entry
/// made twice or wrong, Cribbage below the proven best score.
fn short_of_best(game: ZooGame, state: &Value) -> Result<Option<String>> {
    let number = |field: &str| state[field].as_u64().ok_or_else(|| anyhow!("the state has no {field}"));
    Ok(match game {
        ZooGame::Flood => {
            let start = flood_rows(state, "start")?;
            let rules = crate::games::flood::Flood;
            let plan = rules.solve(&rules.parse_board(&start)?, &SolveLimits::default())?;
            if !plan.optimal {
                bail!("the solver did not prove its plan optimal");
            }
            (number("moves")? as usize > plan.moves.len()).then(|| "not-optimal".to_owned())
        }
        ZooGame::Sudoku => {
            let empty = state["puzzle"].as_str().unwrap_or("").chars().filter(|&c| c == '.').count() as u64;
            if number("wrong")? > 0 {
                Some("wrong-entry".to_owned())
            } else {
                (number("entries")? > empty).then(|| "entry-twice".to_owned())
            }
        }
        ZooGame::Cribbage => {
            let columns = state["columns"].as_str().ok_or_else(|| anyhow!("the state has no columns"))?;
            let start = crate::games::cribbage::commands::parse_state(columns)?;
            let best = crate::games::cribbage::solve(&start).score;
            (number("score")? < u64::from(best)).then(|| "not-optimal".to_owned())
        }
    })
}

/// A Flood-It board of the state (`start` or `board`) as board text: a line a row.
fn flood_rows(state: &Value, field: &str) -> Result<String> {
    let rows = state[field].as_str().ok_or_else(|| anyhow!("the state has no {field}"))?;
    Ok(rows.split('/').collect::<Vec<_>>().join("\n"))
}

/// Whether the bot's first reading is the client's board at the start: Flood-It's colours up to their names (one
/// symbol a colour, each way), Sudoku's givens, Cribbage's columns.
fn reads_as(game: ZooGame, reading: &str, state: &Value) -> bool {
    match game {
        ZooGame::Flood => {
            let Ok(truth) = flood_rows(state, "start") else { return false };
            let rows = |text: &str| -> Vec<Vec<char>> {
                text.lines().map(|l| l.trim()).filter(|l| !l.is_empty()).map(|l| l.chars().collect()).collect()
            };
            let (truth, read) = (rows(&truth), rows(reading));
            let same_shape = truth.len() == read.len() && truth.iter().zip(&read).all(|(t, r)| t.len() == r.len());
            let mut names = std::collections::HashMap::new();
            let mut named = std::collections::HashMap::new();
            same_shape
                && truth
                    .iter()
                    .flatten()
                    .zip(read.iter().flatten())
                    .all(|(t, r)| *names.entry(*t).or_insert(*r) == *r && *named.entry(*r).or_insert(*t) == *t)
        }
        ZooGame::Sudoku => {
            let puzzle = state["puzzle"].as_str().unwrap_or("");
            let cells: String = reading
                .chars()
                .filter(|c| c.is_ascii_digit() || *c == '.')
                .map(|c| if c == '0' { '.' } else { c })
                .take(81)
                .collect();
            !puzzle.is_empty() && cells == puzzle
        }
        ZooGame::Cribbage => {
            let columns = state["columns"].as_str().unwrap_or("");
            !columns.is_empty() && reading.lines().next().map(str::trim) == Some(columns)
        }
    }
}

/// The board of the bot's first reading, from its recording.
fn first_reading(recording: &Path) -> Option<String> {
    let text = std::fs::read_to_string(recording.join("session.json")).ok()?;
    let session: Value = serde_json::from_str(&text).ok()?;
    session["events"].as_array()?.iter().find_map(|event| {
        (event["event"]["report"] == "first_read").then(|| event["event"]["board"].as_str().map(str::to_owned))?
    })
}

fn read_state(path: &Path) -> Result<Value> {
    Ok(serde_json::from_str(&std::fs::read_to_string(path)?)?)
}

/// Sends SIGTERM to a process (its group, where it leads one), then SIGKILL after a while.
fn stop(child: &mut Child, group: bool) {
    let target = if group { format!("-{}", child.id()) } else { child.id().to_string() };
    let _ = Command::new("kill").args(["-TERM", "--", &target]).stderr(Stdio::null()).status();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = Command::new("kill").args(["-KILL", "--", &target]).stderr(Stdio::null()).status();
    let _ = child.kill();
    let _ = child.wait();
}

/// Polls `ready` every 50 ms until it says yes or `bound` passes; an error names `what`.
fn wait_until(what: &str, bound: Duration, mut ready: impl FnMut() -> Result<bool>) -> Result<()> {
    let deadline = Instant::now() + bound;
    loop {
        if ready()? {
            return Ok(());
        }
        if Instant::now() >= deadline {
            bail!("{what}: not so within {} s", bound.as_secs());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The display numbers tried, one after another across threads.
static NEXT_DISPLAY: AtomicU32 = AtomicU32::new(0);

/// An X server of its own with a window manager, ended when dropped.
struct VirtualDisplay {
    name: String,
    server: Child,
    window_manager: Child,
}

impl VirtualDisplay {
    fn start(folder: &Path) -> Result<VirtualDisplay> {
        let base = 300 + std::process::id() % 300;
        for _ in 0..64 {
            let number = base + NEXT_DISPLAY.fetch_add(1, Ordering::SeqCst) % 600;
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
            if socket.exists() || Path::new(&format!("/tmp/.X{number}-lock")).exists() {
                continue;
            }
            let name = format!(":{number}");
            let mut server = Command::new("Xvfb")
                .args([name.as_str(), "-screen", "0", "1920x1200x24", "-nolisten", "tcp", "-noreset"])
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(folder.join("xvfb.log"))?)
                .spawn()
                .context("Xvfb did not start")?;
            let up = wait_until("the X server's socket", Duration::from_secs(20), || {
                if server.try_wait()?.is_some() {
                    bail!("Xvfb {name} ended (the display is taken?)");
                }
                Ok(socket.exists())
            });
            if up.is_err() {
                stop(&mut server, false);
                continue;
            }
            let window_manager = Command::new("openbox")
                .env("DISPLAY", &name)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .context("openbox did not start")?;
            let display = VirtualDisplay { name, server, window_manager };
            wait_until("the window manager", Duration::from_secs(30), || {
                let out = Command::new("xprop")
                    .args(["-root", "_NET_SUPPORTING_WM_CHECK"])
                    .env("DISPLAY", &display.name)
                    .stderr(Stdio::null())
                    .output()?;
                Ok(String::from_utf8_lossy(&out.stdout).contains("window id"))
            })?;
            return Ok(display);
        }
        bail!("no free display number for Xvfb")
    }
}

impl Drop for VirtualDisplay {
    fn drop(&mut self) {
        stop(&mut self.window_manager, false);
        stop(&mut self.server, false);
    }
}

/// A zoo client running, ended (its whole process group) when dropped.
struct Client {
    child: Child,
    style: String,
}

impl Client {
    fn start(options: &ZooOptions, seed: u64, state: &Path, display: &VirtualDisplay, folder: &Path) -> Result<Client> {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new("/usr/bin/python3");
        command
            .arg(options.zoo.join("zoo.py"))
            .args([options.game.name(), &seed.to_string(), "--state"])
            .arg(state)
            .env("DISPLAY", &display.name)
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(folder.join("client.log"))?)
            .process_group(0);
        if let Some(toolkit) = &options.toolkit {
            command.args(["--toolkit", toolkit]);
        }
        let mut child = command.spawn().context("python3 did not start")?;
        let stdout = child.stdout.take().expect("piped");
        let (tell, heard) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = tell.send(lines.next());
            for _ in lines {} // the rest, read so that the client never blocks on a full pipe
        });
        let mut client = Client { child, style: String::new() };
        match heard.recv_timeout(Duration::from_secs(120)) {
            Ok(Some(Ok(line))) => client.style = line.trim().to_owned(),
            _ => bail!("no style line within 120 s (see client.log)"),
        }
        Ok(client)
    }

    /// Until the client has written its state and its window is on the screen.
    fn wait_shown(&mut self, options: &ZooOptions, state: &Path, display: &VirtualDisplay) -> Result<()> {
        wait_until("the client's state file", Duration::from_secs(60), || {
            if let Some(status) = self.child.try_wait()? {
                bail!("the client ended ({status})");
            }
            Ok(read_state(state).is_ok())
        })?;
        wait_until("a window on the display", Duration::from_secs(60), || {
            let out = Command::new(&options.autoplay)
                .args(["windows", "--json"])
                .env("DISPLAY", &display.name)
                .env_remove("WAYLAND_DISPLAY")
                .stderr(Stdio::null())
                .output()?;
            let windows: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            Ok(windows.as_array().is_some_and(|w| !w.is_empty()))
        })
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        stop(&mut self.child, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_flood_reading_matches_its_truth_up_to_the_colours_names_only() {
        let state = json!({"start": "012/120/201"});
        assert!(reads_as(ZooGame::Flood, "RGB\nGBR\nBRG\n", &state));
        assert!(!reads_as(ZooGame::Flood, "RGB\nGBR\nBRR\n", &state), "two colours read as one");
        assert!(!reads_as(ZooGame::Flood, "RGB\nGBR\n", &state), "a row missing");
        let two = json!({"start": "00/01"});
        assert!(!reads_as(ZooGame::Flood, "AB\nBB", &two), "one colour read as two");
    }

    #[test]
    fn a_sudoku_or_cribbage_reading_matches_its_givens_and_columns() {
        let puzzle: String = "1.".repeat(40) + "9";
        let rows: Vec<String> = puzzle.as_bytes().chunks(9).map(|r| String::from_utf8_lossy(r).into()).collect();
        assert!(reads_as(ZooGame::Sudoku, &rows.join("\n"), &json!({ "puzzle": puzzle })));
        assert!(!reads_as(ZooGame::Sudoku, &rows.join("\n").replacen('1', "7", 1), &json!({ "puzzle": puzzle })));
        let state = json!({"columns": "A2_3_4_5"});
        assert!(reads_as(ZooGame::Cribbage, "A2_3_4_5\nstack: \n# total 0\n", &state));
        assert!(!reads_as(ZooGame::Cribbage, "A2_3_4_6\nstack: \n", &state));
    }

    fn played(exited: Option<bool>, kind: Option<&str>) -> Played {
        Played { exited, kind: kind.map(str::to_owned), message: "m".into() }
    }

    fn class(played: &Played, was_read: bool, read: bool, state: Value) -> Option<String> {
        let mut result = SeedResult {
            seed: 1,
            style: String::new(),
            read,
            won: false,
            class: None,
            recording: PathBuf::new(),
            detail: String::new(),
            seconds: 0.0,
        };
        judge(ZooGame::Sudoku, played, was_read, &state, &mut result);
        assert_eq!(result.won, result.class.is_none());
        result.class
    }

    #[test]
    fn a_seed_is_classed_by_what_the_game_says_and_the_bots_error_kind() {
        let won = json!({"won": true, "puzzle": "..1", "entries": 2, "wrong": 0});
        assert_eq!(class(&played(Some(true), None), true, true, won.clone()), None);
        let twice = json!({"won": true, "puzzle": "..1", "entries": 3, "wrong": 0});
        assert_eq!(class(&played(Some(true), None), true, true, twice).as_deref(), Some("entry-twice"));
        let not_won = json!({"won": false, "puzzle": "..1", "entries": 1, "wrong": 0});
        assert_eq!(class(&played(Some(true), None), true, true, not_won.clone()).as_deref(), Some("false-win"));
        let failed = played(Some(false), Some("not-shown"));
        assert_eq!(class(&failed, true, true, not_won.clone()).as_deref(), Some("not-shown"));
        assert_eq!(class(&failed, true, false, not_won.clone()).as_deref(), Some("misread:not-shown"));
        assert_eq!(
            class(&played(Some(false), Some("no-board")), false, false, not_won.clone()).as_deref(),
            Some("not-read:no-board")
        );
        assert_eq!(class(&failed, true, true, won).as_deref(), Some("win-not-seen:not-shown"));
        assert_eq!(class(&played(None, None), true, true, not_won).as_deref(), Some("timeout"));
    }
}
