//! The benchmark: the engine against the random player, engine self-play (no timeouts, no
//! illegal moves), and endgame solve times at about 500 and 5,000 remaining solutions.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use anyhow::{ensure, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::games::sudoku::solver9::{self, Engine};
use crate::games::sudoku_duel::bot::list_solutions;
use crate::games::sudoku_duel::referee::{play_game, GameRecord, InProcess, MatchReport};
use crate::games::sudoku_duel::{solve_endgame, Board, DuelOptions, Move, Reason, CELLS, TIME_LIMIT};

/// Plays `games` in-process games between two option sets (A starts the even games), two
/// games at a time.
pub(crate) fn in_process_match(
    a: &DuelOptions,
    b: &DuelOptions,
    games: usize,
    seed: u64,
    time_limit: Duration,
) -> MatchReport {
    let records: Vec<GameRecord> = (0..games)
        .into_par_iter()
        .map(|g| {
            let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(2 * g as u64);
            let mut pa = InProcess::new(DuelOptions { seed: Some(game_seed), time_limit, ..a.clone() });
            let mut pb = InProcess::new(DuelOptions { seed: Some(game_seed + 1), time_limit, ..b.clone() });
            play_game([&mut pa, &mut pb], g % 2, time_limit)
        })
        .collect();
    let name = |o: &DuelOptions| {
        if o.random_player {
            "random player".to_string()
        } else {
            format!("engine ({} samples)", o.samples)
        }
    };
    MatchReport { players: [name(a), name(b)], games: records, time_limit, seed }
}

/// A position reached by random legal moves from the empty board whose solution count lies
/// in `lo..=hi`, with its solutions; `None` if 200 tries miss the window.
pub(crate) fn position_with_solutions(lo: usize, hi: usize, rng: &mut StdRng) -> Option<(Board, Vec<[u8; CELLS]>)> {
    for _ in 0..200 {
        let mut board = Board::new();
        loop {
            let sols = list_solutions(&board, hi as u64 + 1);
            match sols {
                Some(s) if s.len() < lo => break,
                Some(s) if s.len() >= 2 && s.len() <= hi => return Some((board, s)),
                _ => {}
            }
            let mut sol = None;
            solver9::search_seeded(Engine::best(), board.cells(), 1, rng.random::<u64>() | 1, &mut |s| {
                sol = Some(s.to_vec());
                ControlFlow::Break(())
            });
            let sol = sol?;
            let empty: Vec<usize> = (0..CELLS).filter(|&c| board.cells()[c] == 0).collect();
            let cell = empty[rng.random_range(0..empty.len())];
            let mask = board.allowed(cell) & !(1 << sol[cell]);
            let digits: Vec<u8> = (1..=9).filter(|d| mask & (1 << d) != 0).collect();
            if digits.is_empty() {
                continue;
            }
            let mv = Move::new(cell, digits[rng.random_range(0..digits.len())]);
            // Below 30 digits, take the digit of a solution at times, to thin out gently.
            let mv = if board.filled() > 25 && rng.random_bool(0.5) { Move::new(cell, sol[cell]) } else { mv };
            if board.with(mv).count(1) > 0 {
                board.place(mv);
            }
        }
    }
    None
}

/// `count` endgame positions with `lo..=hi` solutions from the benchmark's generator seeded
/// with `seed` (the benchmark draws its positions the same way), as solution lists.
pub fn endgame_positions(lo: usize, hi: usize, count: usize, seed: u64) -> Vec<Vec<[u8; CELLS]>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count).filter_map(|_| position_with_solutions(lo, hi, &mut rng).map(|(_, sols)| sols)).collect()
}

/// One size window of the endgame benchmark.
pub struct EndgameSet {
    /// Fewest solutions of a position.
    pub lo: usize,
    /// Most solutions of a position.
    pub hi: usize,
    /// The target solve time, ms.
    pub target_ms: f64,
    /// The positions, as solution lists.
    pub positions: Vec<Vec<[u8; CELLS]>>,
}

/// The benchmark's endgame positions: for each size window, `ENDGAME_POSITIONS`
/// positions drawn in turn from one generator seeded with 3.
pub fn benchmark_endgames() -> Vec<EndgameSet> {
    let mut rng = StdRng::seed_from_u64(3);
    [(400, 650, 10.0), (4_000, 6_500, 500.0)]
        .into_iter()
        .map(|(lo, hi, target_ms)| {
            let positions = (0..ENDGAME_POSITIONS)
                .filter_map(|_| position_with_solutions(lo, hi, &mut rng).map(|(_, sols)| sols))
                .collect();
            EndgameSet { lo, hi, target_ms, positions }
        })
        .collect()
}

/// Endgame solve times (ms, in the order of `positions`, solution lists), after one untimed
/// solve of the first position: one-time costs of the process (lazily built tables, the
/// allocator's first pages) and the previous phase's threads winding down are not timed.
fn endgame_times(positions: &[Vec<[u8; CELLS]>]) -> Result<Vec<f64>> {
    if let Some(first) = positions.first() {
        solve_endgame(first, None);
    }
    let mut times = Vec::new();
    for sols in positions {
        let clock = Instant::now();
        let r = solve_endgame(sols, None);
        times.push(clock.elapsed().as_secs_f64() * 1000.0);
        ensure!(r.is_some(), "endgame over {} solutions gave no verdict", sols.len());
    }
    Ok(times)
}

fn faults(report: &MatchReport, player: usize) -> usize {
    report
        .games
        .iter()
        .filter(|g| {
            g.winner != player
                && !matches!(
                    g.reason,
                    Reason::TrueClaim | Reason::FalseClaim | Reason::ForcedDigit | Reason::NoSolution
                )
        })
        .count()
}

/// Positions timed per endgame size.
const ENDGAME_POSITIONS: usize = 50;

/// Runs the benchmark and returns its report: the engine against the random player over 200
/// games (win rate, thinking time per game), 100 engine self-play games (timeouts and
/// illegal moves counted), and endgame solve times near 500 and 5,000 solutions.
pub fn bench_command() -> Result<String> {
    let mut s = String::new();
    let engine = DuelOptions::default();
    let random = DuelOptions { random_player: true, ..DuelOptions::default() };

    let clock = Instant::now();
    let vs_random = in_process_match(&engine, &random, 200, 1, TIME_LIMIT);
    let win_rate = 100.0 * vs_random.wins(0) as f64 / vs_random.games.len() as f64;
    let _ = writeln!(s, "engine vs random player ({:.0} s):\n{}", clock.elapsed().as_secs_f64(), vs_random.table());
    let _ = writeln!(s, "win rate against the random player: {win_rate:.1} %\n");

    // Self-play on a 10 s clock: the engine budgets against its clock, and 100 games at
    // 30 s each would take a long while.
    let clock = Instant::now();
    let selfplay = in_process_match(&engine, &engine, 100, 2, Duration::from_secs(10));
    let _ = writeln!(s, "engine self-play ({:.0} s):\n{}", clock.elapsed().as_secs_f64(), selfplay.table());
    let bad: usize = (0..2).map(|p| faults(&selfplay, p)).sum();
    let illegal = selfplay.games.iter().filter(|g| g.reason != Reason::TrueClaim).count();
    let _ = writeln!(s, "self-play: {bad} timeouts or protocol faults, {illegal} games not ended by a true claim\n");

    for EndgameSet { lo, hi, target_ms: target, positions } in benchmark_endgames() {
        ensure!(!positions.is_empty(), "no position with {lo}..={hi} solutions found");
        let times = endgame_times(&positions)?;
        let size = positions.iter().map(Vec::len).sum::<usize>() as f64 / positions.len() as f64;
        let slowest = (0..times.len()).max_by(|&a, &b| times[a].total_cmp(&times[b])).unwrap_or(0);
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let over = sorted.iter().filter(|&&t| t >= target).count();
        let _ = writeln!(
            s,
            "endgame, {lo}..={hi} solutions (mean {size:.0}), {n} positions: mean {mean:.2} ms, median {:.2} ms, \
             90th percentile {:.2} ms, max {:.2} ms (position #{slowest}, {} solutions); {over} of {n} at {target} ms or more",
            sorted[n / 2],
            sorted[n * 9 / 10],
            sorted[n - 1],
            positions[slowest].len(),
        );
    }
    Ok(s)
}
