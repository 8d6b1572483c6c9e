//! The players: the seed engine and the random legal-move player, and `duel_command`, which
//! speaks the referee protocol.

use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::endgame::{solve_endgame, MAX_SOLUTIONS};
use super::game::{possible_digits, Board, Move, Turn, CELLS};
use super::sudoku::solver9::{self, Engine};

/// Digits on the board below which the engine plays random legal moves.
const OPENING_DIGITS: usize = 15;
/// Remaining solutions below which a position is listed exactly and solved as an endgame: as many as the endgame
/// takes (against NineDigits, 20,000 with the budget below capped at 5 s won 13 of 40 games; this with a third of
/// the time left, 30 of 40: `docs/experiments.md`).
const ENDGAME_MAX: u64 = MAX_SOLUTIONS as u64;
/// Solutions up to which a middle-game position (past the endgame's reach) is listed whole, so that what each move
/// keeps is known exactly and every move that leaves an endgame is solved for a win (listing runs at about 0.5 µs a
/// solution on this machine: half a second at most, tried only while `MIDDLE_TIME` is left).
const MIDDLE_MAX: u64 = 1 << 20;
/// Thinking time that must be left for the middle game's whole listing to be tried.
const MIDDLE_TIME: Duration = Duration::from_secs(8);
/// Thinking time kept in reserve (process start, pipes, the referee's clock).
const SAFETY: Duration = Duration::from_millis(3_000);
/// Solutions per seeded depth-first run of the middle-game sample (one long run would
/// cluster around its first branches).
const SAMPLE_RUN: usize = 50;
/// Environment variable the referee sets to make a player's choices reproducible.
pub const SEED_VAR: &str = "SUDOKU_DUEL_SEED";

/// How the player plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelOptions {
    /// Play random legal non-forced moves instead of the engine.
    pub random_player: bool,
    /// Random seed; `None` takes `SUDOKU_DUEL_SEED` from the environment, else a random one.
    pub seed: Option<u64>,
    /// Thinking time per game (the referee allows 30 s); the player keeps a margin of 3 s.
    pub time_limit: Duration,
    /// Middle-game sample size (solutions).
    pub samples: usize,
}

impl Default for DuelOptions {
    fn default() -> DuelOptions {
        DuelOptions { random_player: false, seed: None, time_limit: Duration::from_secs(30), samples: 100_000 }
    }
}

/// One player's state over a game.
pub(crate) struct Bot {
    options: DuelOptions,
    rng: StdRng,
}

impl Bot {
    pub(crate) fn new(options: DuelOptions) -> Bot {
        let seed = options
            .seed
            .or_else(|| std::env::var(SEED_VAR).ok().and_then(|s| s.trim().parse().ok()))
            .unwrap_or_else(rand::random);
        Bot { options, rng: StdRng::seed_from_u64(seed) }
    }

    /// The turn to take on `board` (the opponent's moves applied), having used `used` of the game's thinking time:
    /// a claim alone where the opponent left one solution unclaimed (every digit is then forced, so no move is
    /// legal), else a move. Writes a short line of reasoning to `log`.
    pub(crate) fn choose(&mut self, board: &Board, used: Duration, log: &mut dyn Write) -> Turn {
        if board.filled() > 0 && board.count(2) == 1 {
            let _ = writeln!(log, "{} digits: ! (the opponent left one solution unclaimed)", board.filled());
            return Turn::Claim;
        }
        let left = self.options.time_limit.saturating_sub(used).saturating_sub(SAFETY);
        let start = Instant::now();
        let (mut mv, why) = if self.options.random_player {
            self.random_move(board, start + (left / 8).max(Duration::from_millis(50)))
        } else {
            self.engine_move(board, start, left)
        };
        // Whatever the path, a move leaving one solution is claimed.
        if !mv.claim && board.with(mv).count(2) == 1 {
            mv.claim = true;
        }
        let _ = writeln!(log, "{} digits: {mv} ({why}; {} ms)", board.filled(), start.elapsed().as_millis());
        Turn::Move(mv)
    }

    /// A random legal non-forced move (`choose` adds the claim when it leaves one solution).
    fn random_move(&mut self, board: &Board, deadline: Instant) -> (Move, String) {
        let Some(cands) = possible_digits(board, Some(deadline)) else {
            return (fallback_move(board), "no solution on the board".into());
        };
        let moves = cands.legal_moves();
        if moves.is_empty() {
            return (fallback_move(board), "no legal move".into());
        }
        let mv = moves[self.rng.random_range(0..moves.len())];
        (mv, format!("random of {} legal moves", moves.len()))
    }

    /// The seed engine: random opening, sampled middle game, exact endgame.
    fn engine_move(&mut self, board: &Board, start: Instant, left: Duration) -> (Move, String) {
        if board.filled() < OPENING_DIGITS {
            if let Some(mv) = self.opening_move(board) {
                return (mv, "opening: random legal move".into());
            }
        }
        // An endgame, and the checks of the middle game's moves, may take a third of the time left: the exact
        // endgame decides the game, and each move after it is faster (fewer solutions), so the clock is spent
        // where it matters and never runs out (a third of a third of what is left, and so on, with SAFETY kept).
        let endgame_budget = left / 3;
        let exact = list_solutions(board, ENDGAME_MAX);
        let sample = match exact {
            Some(sols) if sols.len() < 2 => {
                return (fallback_move(board), format!("{} solutions: no legal move", sols.len()));
            }
            Some(sols) => {
                if let Some(r) = solve_endgame(&sols, Some(start + endgame_budget)) {
                    let verdict = if r.win { "win" } else { "loss" };
                    let why = format!("endgame over {} solutions: {verdict}, {} nodes", sols.len(), r.nodes);
                    return (r.best, why);
                }
                Tally::of_solutions(&sols)
            }
            None => match (left >= MIDDLE_TIME).then(|| list_solutions(board, MIDDLE_MAX)).flatten() {
                Some(sols) => {
                    let tally = Tally::of_solutions(&sols);
                    if let Some(found) = winning_split(&sols, &tally, start + endgame_budget) {
                        return found;
                    }
                    tally
                }
                // The sample stops early at a tenth of the time left (it is a guess either way).
                None => Tally::sampled(board, self.options.samples, self.rng.random(), start + left / 10),
            },
        };
        let candidates = sample.moves();
        if candidates.is_empty() {
            return (fallback_move(board), "no legal move in the sample".into());
        }
        // Check the preferred moves' endgames once they can be listed; skip provably lost ones.
        let check_until = start + endgame_budget;
        let of =
            if sample.whole { format!("all {} listed", sample.total) } else { format!("sample of {}", sample.total) };
        for (i, &(mv, kept)) in candidates.iter().enumerate().take(12) {
            if Instant::now() >= check_until {
                return (mv, format!("{of}: keeps {kept} (checks out of time)"));
            }
            if sample.whole && u64::from(kept) >= ENDGAME_MAX {
                return (mv, format!("{of}: keeps {kept}, choice {}", i + 1));
            }
            let after = board.with(mv);
            let Some(sols) = list_solutions(&after, ENDGAME_MAX) else {
                return (mv, format!("{of}: keeps {kept}, choice {}", i + 1));
            };
            if sols.len() == 1 {
                return (mv.with_claim(true), "leaves one solution".into());
            }
            match solve_endgame(&sols, Some(check_until)) {
                Some(r) if r.win => continue,
                Some(_) => return (mv, format!("leaves a lost endgame of {} solutions", sols.len())),
                None => return (mv, format!("{of}: keeps {kept}, endgame unknown")),
            }
        }
        (candidates[0].0, format!("{of}: every checked move loses"))
    }

    /// A random legal move for the opening: a digit that some solution has in the cell,
    /// other than the one a random solution has there.
    fn opening_move(&mut self, board: &Board) -> Option<Move> {
        let mut sol = None;
        solver9::search_seeded(Engine::best(), board.cells(), 1, self.rng.random::<u64>() | 1, &mut |s| {
            let mut a = [0u8; CELLS];
            a.copy_from_slice(s);
            sol = Some(a);
            ControlFlow::Break(())
        });
        let sol = sol?;
        let empty: Vec<usize> = (0..CELLS).filter(|&c| board.cells()[c] == 0).collect();
        for _ in 0..50 {
            let cell = empty[self.rng.random_range(0..empty.len())];
            let mask = board.allowed(cell) & !(1 << sol[cell]);
            let digits: Vec<u8> = (1..=9).filter(|d| mask & (1 << d) != 0).collect();
            if digits.is_empty() {
                continue;
            }
            let mv = Move::new(cell, digits[self.rng.random_range(0..digits.len())]);
            if board.with(mv).count(1) > 0 {
                return Some(mv);
            }
        }
        None
    }
}

/// All solutions when there are fewer than `limit`, else `None`.
pub(crate) fn list_solutions(board: &Board, limit: u64) -> Option<Vec<[u8; CELLS]>> {
    let mut sols = Vec::new();
    let n = solver9::search_with(Engine::best(), board.cells(), limit, &mut |s| {
        let mut a = [0u8; CELLS];
        a.copy_from_slice(s);
        sols.push(a);
        ControlFlow::Continue(())
    });
    (n < limit).then_some(sols)
}

/// A move for a position with no legal move (every move loses): the first empty cell with a
/// digit its peers allow, if any.
fn fallback_move(board: &Board) -> Move {
    let cells = board.cells();
    let cell = (0..CELLS).find(|&c| cells[c] == 0).unwrap_or(0);
    let allowed = board.allowed(cell);
    let digit = (1..=9).find(|d| allowed & (1 << d) != 0).unwrap_or(1);
    Move::new(cell, digit)
}

/// Among a middle-game position's listed solutions (`tally` counts them), a move that wins at once or leaves the
/// opponent a lost endgame: a digit only one solution has in its cell (claimed: one solution is left), else a move
/// keeping few enough solutions for the endgame solver, solved fewest first (the quickest), until `deadline`. `None`
/// when no such move is found in time.
fn winning_split(sols: &[[u8; CELLS]], tally: &Tally, deadline: Instant) -> Option<(Move, String)> {
    let mut splits: Vec<(Move, u32)> =
        tally.moves().into_iter().filter(|&(_, kept)| u64::from(kept) < ENDGAME_MAX).collect();
    splits.sort_by_key(|&(_, kept)| kept);
    let mut tried = 0;
    for &(mv, kept) in &splits {
        if kept == 1 {
            return Some((mv.with_claim(true), format!("all {} listed: leaves one solution", sols.len())));
        }
        if Instant::now() >= deadline {
            break;
        }
        let set: Vec<[u8; CELLS]> = sols.iter().filter(|s| s[mv.cell as usize] == mv.digit).copied().collect();
        tried += 1;
        if let Some(r) = solve_endgame(&set, Some(deadline)) {
            if !r.win {
                let why =
                    format!("all {} listed: leaves a lost endgame of {kept} solutions ({tried} tried)", sols.len());
                return Some((mv, why));
            }
        }
    }
    None
}

/// How many solutions of a sample (or of all, when `whole`) have each digit in each cell.
struct Tally {
    counts: [[u32; 10]; CELLS],
    total: u32,
    whole: bool,
}

impl Tally {
    fn add(&mut self, sol: &[u8]) {
        for (cell, &d) in sol.iter().enumerate() {
            self.counts[cell][d as usize] += 1;
        }
        self.total += 1;
    }

    fn of_solutions(sols: &[[u8; CELLS]]) -> Tally {
        let mut t = Tally { counts: [[0; 10]; CELLS], total: 0, whole: true };
        sols.iter().for_each(|s| t.add(s));
        t
    }

    /// About `samples` solutions from depth-first runs of `SAMPLE_RUN` solutions in random
    /// branch orders, fewer if `deadline` passes first (at least one run).
    fn sampled(board: &Board, samples: usize, seed: u64, deadline: Instant) -> Tally {
        let mut t = Tally { counts: [[0; 10]; CELLS], total: 0, whole: false };
        let per_run = SAMPLE_RUN as u64;
        for run in 0..samples.div_ceil(SAMPLE_RUN) as u64 {
            if run > 0 && Instant::now() >= deadline {
                break;
            }
            let run_seed = seed.wrapping_add(run.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
            solver9::search_seeded(Engine::best(), board.cells(), per_run, run_seed, &mut |s| {
                t.add(s);
                ControlFlow::Continue(())
            });
        }
        t
    }

    /// The moves the sample proves legal (some sampled solution has the digit, another has
    /// a different one), by how many sampled solutions they keep, most first.
    fn moves(&self) -> Vec<(Move, u32)> {
        let mut out = Vec::new();
        for (cell, row) in self.counts.iter().enumerate() {
            for d in 1..=9u8 {
                let c = row[d as usize];
                if c > 0 && c < self.total {
                    out.push((Move::new(cell, d), c));
                }
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }
}

/// Plays one game of two-player Sudoku over the referee protocol: `Start` (we move first),
/// the opponent's moves (`Aa5`, `Aa5!`) or claim alone (`!`), blank lines (ignored) and `Quit`. Each move is
/// written on its own line and flushed; reasoning goes to `log`, one short line per move.
/// A line that is not part of the protocol, or an opponent move on a filled cell or against
/// the board, ends the game with an error naming it.
pub fn duel_command<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    mut log: impl Write,
    options: &DuelOptions,
) -> Result<()> {
    let mut bot = Bot::new(options.clone());
    let mut board = Board::new();
    let mut used = Duration::ZERO;
    let mut started = false;
    for (number, line) in input.lines().enumerate() {
        let line = line.context("reading from the referee")?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let clock = Instant::now();
        match text {
            "Quit" => {
                let _ = writeln!(log, "quit; thinking time used {:.3} s", used.as_secs_f64());
                return Ok(());
            }
            "Start" if !started && board.filled() == 0 => {}
            "Start" => bail!("line {}: unexpected \"Start\" in the middle of a game", number + 1),
            _ => {
                let turn: Turn =
                    text.parse().map_err(|e| anyhow!("line {}: bad line from the referee: {e}", number + 1))?;
                let Turn::Move(mv) = turn else {
                    let _ = writeln!(log, "opponent claims a unique solution with a claim alone (!); waiting for Quit");
                    started = true;
                    continue;
                };
                let cell = mv.cell as usize;
                if board.cells()[cell] != 0 {
                    bail!("line {}: the opponent's move {mv} is on a filled cell", number + 1);
                }
                if board.clashes(cell, mv.digit) {
                    bail!("line {}: the opponent's move {mv} clashes with the board", number + 1);
                }
                board.place(mv);
                if mv.claim {
                    let _ = writeln!(log, "opponent claims a unique solution with {mv}; waiting for Quit");
                    started = true;
                    continue;
                }
            }
        }
        started = true;
        let turn = bot.choose(&board, used, &mut log);
        if let Turn::Move(mv) = turn {
            board.place(mv);
        }
        writeln!(output, "{turn}").context("writing a move")?;
        output.flush().context("writing a move")?;
        used += clock.elapsed();
    }
    let _ = writeln!(log, "input ended without Quit; thinking time used {:.3} s", used.as_secs_f64());
    Ok(())
}
