//! `autoplay bench cribbage`: the solver over deals 1-2000 on all cores, then the slowest deals alone.

use std::fmt::Write as _;
use std::time::Instant;

use crate::games::cribbage::commands::{solve_range, summary_text, SLOWEST_DEAL};
use crate::games::cribbage::{deal, solve, State};

/// `autoplay bench cribbage`: deals 1–2000 on all cores (wall time, min/max/mean score), then the slowest known
/// deal alone (best of 3 runs).
pub fn bench_command() -> anyhow::Result<String> {
    let (first, last) = (1, 2000);
    let (mut results, summary) = solve_range(first, last, true);
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    // The slowest deals of the run (timed on their worker threads), timed again alone, with the deal known as the
    // slowest for earlier solvers.
    results.sort_by(|a, b| b.millis.total_cmp(&a.millis));
    let mut singles: Vec<u64> = results.iter().take(5).map(|r| r.deal).collect();
    if !singles.contains(&SLOWEST_DEAL) {
        singles.push(SLOWEST_DEAL);
    }
    let mut out = format!(
        "{}\nmean {:.0} DP states a deal\n",
        summary_text(first, last, &summary),
        nodes as f64 / results.len() as f64
    );
    let mut worst: f64 = 0.0;
    for n in singles {
        let state = State::from(deal(n));
        let mut best = f64::INFINITY;
        let mut single = None;
        for _ in 0..3 {
            let start = Instant::now();
            let s = solve(&state);
            best = best.min(start.elapsed().as_secs_f64());
            single = Some(s);
        }
        let single = single.expect("three runs");
        worst = worst.max(best);
        writeln!(
            out,
            "deal {n}: {} in {:.1} ms ({} DP states, one thread, best of 3)",
            single.score,
            best * 1e3,
            single.nodes
        )?;
    }
    write!(out, "single-deal worst case: {:.1} ms", worst * 1e3)?;
    Ok(out)
}
