//! The referee: plays games between two players (child processes, or in-process bots for
//! tests and benchmarks) under the rules, with clocks, and tabulates the results.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use super::bot::{Bot, DuelOptions, SEED_VAR};
use super::game::{judge_turn, Board, Move, Reason, Ruling, Turn};

/// Thinking time per player per game.
pub const TIME_LIMIT: Duration = Duration::from_secs(30);

/// What a player answered.
pub(crate) enum Answer {
    Line(String),
    Timeout,
    Closed,
}

/// One player as the referee talks to it.
pub(crate) trait Side {
    /// Sends one protocol line (`Start` or the opponent's move); `false` when the player is gone.
    fn send(&mut self, line: &str) -> bool;
    /// The player's next non-blank line, waiting at most `timeout`.
    fn receive(&mut self, timeout: Duration) -> Answer;
}

/// How one game went. Players are 0 and 1 (A and B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameRecord {
    pub first: usize,
    pub winner: usize,
    pub reason: Reason,
    pub moves: Vec<Move>,
    /// Whether the game ended on a claim with no move (`!`), after the moves.
    pub claimed_alone: bool,
    /// Thinking time used by each player.
    pub time: [Duration; 2],
}

/// Plays one game: `sides[first]` gets `Start`, then each move is judged and passed on.
pub(crate) fn play_game(sides: [&mut dyn Side; 2], first: usize, time_limit: Duration) -> GameRecord {
    let mut board = Board::new();
    let mut moves = Vec::new();
    let mut time = [Duration::ZERO; 2];
    let mut to_move = first;
    let mut message = "Start".to_string();
    let mut claimed_alone = false;
    let (winner, reason) = loop {
        let side = &mut *sides[to_move];
        if !side.send(&message) {
            break (1 - to_move, Reason::Crashed);
        }
        let clock = Instant::now();
        let answer = side.receive(time_limit.saturating_sub(time[to_move]));
        time[to_move] += clock.elapsed();
        let line = match answer {
            _ if time[to_move] > time_limit => break (1 - to_move, Reason::Timeout),
            Answer::Timeout => break (1 - to_move, Reason::Timeout),
            Answer::Closed => break (1 - to_move, Reason::Crashed),
            Answer::Line(line) => line,
        };
        let Ok(turn) = line.parse::<Turn>() else { break (1 - to_move, Reason::BadSyntax) };
        let ruling = judge_turn(&board, turn);
        match turn {
            Turn::Move(mv) => moves.push(mv),
            Turn::Claim => claimed_alone = true,
        }
        match ruling {
            Ruling::Continue => {}
            Ruling::MoverWins(r) => break (to_move, r),
            Ruling::MoverLoses(r) => break (1 - to_move, r),
        }
        // (A claim alone never gets here: it is true or false.)
        if let Turn::Move(mv) = turn {
            board.place(mv);
            message = mv.to_string();
        }
        to_move = 1 - to_move;
    };
    GameRecord { first, winner, reason, moves, claimed_alone, time }
}

/// A player program run as a child process; its output is read on a thread.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Process {
    /// Starts `command`; its standard error goes to `log` (a file created there), else nowhere.
    pub(crate) fn spawn(command: &[String], seed: u64, log: Option<&Path>) -> Result<Process> {
        let (program, args) = command.split_first().context("empty player command")?;
        let stderr = match log {
            Some(path) => Stdio::from(File::create(path).with_context(|| format!("creating {}", path.display()))?),
            None => Stdio::null(),
        };
        let mut child = Command::new(program)
            .args(args)
            .env(SEED_VAR, seed.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("starting player {command:?}"))?;
        let stdout = child.stdout.take().context("player stdout")?;
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines })
    }

    /// Says `Quit`, gives the player a moment to exit, then kills it.
    pub(crate) fn finish(mut self) {
        self.send("Quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Side for Process {
    fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else { return false };
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).is_ok()
    }

    fn receive(&mut self, timeout: Duration) -> Answer {
        let deadline = Instant::now() + timeout;
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Answer::Line(line.trim().to_string()),
                Err(RecvTimeoutError::Timeout) => return Answer::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Answer::Closed,
            }
        }
    }
}

/// A bot playing in-process, keeping its own board and clock like a child process would.
pub(crate) struct InProcess {
    bot: Bot,
    board: Board,
    used: Duration,
}

impl InProcess {
    pub(crate) fn new(options: DuelOptions) -> InProcess {
        InProcess { bot: Bot::new(options), board: Board::new(), used: Duration::ZERO }
    }
}

impl Side for InProcess {
    fn send(&mut self, line: &str) -> bool {
        // Anything but a move is "Start" (or a claim alone, which ends the game).
        if let Ok(mv) = line.parse::<Move>() {
            self.board.place(mv);
        }
        true
    }

    fn receive(&mut self, _timeout: Duration) -> Answer {
        let clock = Instant::now();
        let turn = self.bot.choose(&self.board, self.used, &mut std::io::sink());
        if let Turn::Move(mv) = turn {
            self.board.place(mv);
        }
        self.used += clock.elapsed();
        Answer::Line(turn.to_string())
    }
}

/// The games of a match and the players' command lines.
pub(crate) struct MatchReport {
    pub players: [String; 2],
    pub games: Vec<GameRecord>,
    pub time_limit: Duration,
    pub seed: u64,
}

impl MatchReport {
    pub(crate) fn wins(&self, player: usize) -> usize {
        self.games.iter().filter(|g| g.winner == player).count()
    }

    /// The results as a table: wins, losses and time per player, then how the games ended.
    pub(crate) fn table(&self) -> String {
        let mut s = String::new();
        let n = self.games.len();
        let _ = writeln!(
            s,
            "Two-player Sudoku: {n} games, {} s per player per game, seed {}",
            self.time_limit.as_secs_f64(),
            self.seed
        );
        for (p, name) in self.players.iter().enumerate() {
            let _ = writeln!(s, "player {}: {name}", ["A", "B"][p]);
        }
        let _ = writeln!(
            s,
            "{:<8}{:>6}{:>8}{:>12}{:>13}{:>14}{:>14}",
            "player", "wins", "losses", "wins first", "wins second", "avg time (s)", "max time (s)"
        );
        for p in 0..2 {
            let wins = self.wins(p);
            let first = self.games.iter().filter(|g| g.winner == p && g.first == p).count();
            let times: Vec<f64> = self.games.iter().map(|g| g.time[p].as_secs_f64()).collect();
            let avg = if n == 0 { 0.0 } else { times.iter().sum::<f64>() / n as f64 };
            let max = times.iter().copied().fold(0.0, f64::max);
            let _ = writeln!(
                s,
                "{:<8}{wins:>6}{:>8}{first:>12}{:>13}{avg:>14.3}{max:>14.3}",
                ["A", "B"][p],
                n - wins,
                wins - first
            );
        }
        let mut reasons: Vec<&Reason> = self.games.iter().map(|g| &g.reason).collect();
        reasons.sort();
        reasons.dedup();
        let _ = writeln!(s, "{:<20}{:>8}{:>8}", "game ended by", "A won", "B won");
        for r in reasons {
            let won = |p: usize| self.games.iter().filter(|g| &g.reason == r && g.winner == p).count();
            let _ = writeln!(s, "{:<20}{:>8}{:>8}", r.to_string(), won(0), won(1));
        }
        let alone = self.games.iter().filter(|g| g.claimed_alone).count();
        if alone > 0 {
            let _ = writeln!(s, "({alone} of them by a claim alone, '!', on the board the opponent left)");
        }
        s
    }
}

/// How a match is run.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    pub games: usize,
    /// Seeds the players' choices (each game's players get seeds derived from it).
    pub seed: u64,
    /// Thinking time per player per game.
    pub time_limit: Duration,
    /// A directory for each game's player logs (their standard error, `game-007-A.log`) and a line per game in
    /// `games.tsv` (who started and won, how, each side's thinking time by the referee's clock, the moves).
    pub log_dir: Option<PathBuf>,
    /// Show a progress bar.
    pub progress: bool,
}

impl MatchOptions {
    /// `games` games at the competition's clock, no logs, no progress bar.
    pub fn new(games: usize, seed: u64) -> MatchOptions {
        MatchOptions { games, seed, time_limit: TIME_LIMIT, log_dir: None, progress: false }
    }
}

/// Appends one game's line to `games.tsv` in `dir` (with a header when the file is new).
fn log_game(dir: &Path, number: usize, record: &GameRecord) -> Result<()> {
    let path = dir.join("games.tsv");
    let new = !path.exists();
    let mut file =
        File::options().create(true).append(true).open(&path).with_context(|| format!("{}", path.display()))?;
    if new {
        writeln!(file, "game\tfirst\twinner\tended by\ttime A (s)\ttime B (s)\tmoves")?;
    }
    let side = |p: usize| ["A", "B"][p];
    let moves: Vec<String> = record.moves.iter().map(|m| m.to_string()).collect();
    writeln!(
        file,
        "{number}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{}{}",
        side(record.first),
        side(record.winner),
        record.reason,
        record.time[0].as_secs_f64(),
        record.time[1].as_secs_f64(),
        moves.join(" "),
        if record.claimed_alone { " !" } else { "" }
    )?;
    Ok(())
}

/// Plays the games of a match between two player commands (fresh processes per game; A starts the
/// even-numbered games), each player seeded through `SUDOKU_DUEL_SEED`.
pub(crate) fn run_match(players: [&[String]; 2], options: &MatchOptions) -> Result<MatchReport> {
    let games = options.games;
    let bar = if options.progress { ProgressBar::new(games as u64) } else { ProgressBar::hidden() };
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} {msg}") {
        bar.set_style(style);
    }
    if let Some(dir) = &options.log_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating the log directory {}", dir.display()))?;
    }
    let log = |g: usize, side: &str| options.log_dir.as_ref().map(|d| d.join(format!("game-{g:03}-{side}.log")));
    let mut records = Vec::with_capacity(games);
    for g in 0..games {
        let game_seed = options.seed.wrapping_mul(1_000_003).wrapping_add(2 * g as u64);
        let mut a = Process::spawn(players[0], game_seed, log(g, "A").as_deref())?;
        let mut b = Process::spawn(players[1], game_seed + 1, log(g, "B").as_deref())?;
        let record = play_game([&mut a, &mut b], g % 2, options.time_limit);
        a.finish();
        b.finish();
        if let Some(dir) = &options.log_dir {
            log_game(dir, g, &record)?;
        }
        records.push(record);
        let wins = records.iter().filter(|r| r.winner == 0).count();
        bar.set_message(format!("A {wins} : B {}", records.len() - wins));
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(MatchReport {
        players: players.map(|p| p.join(" ")),
        games: records,
        time_limit: options.time_limit,
        seed: options.seed,
    })
}

/// Runs games between two player programs (command lines, e.g. `["/path/autoplay", "duel", "sudoku"]` and the
/// same with `--random`) as child processes, alternating who starts, and returns the table of results: wins and
/// losses per player, how the games ended, thinking time used.
pub fn referee_command(player_a: &[String], player_b: &[String], options: &MatchOptions) -> Result<String> {
    Ok(run_match([player_a, player_b], options)?.table())
}
