//! `autoplay bench lunar`: the solve of official card 39 and the enumerations of K = 1..5 robots.

use std::fmt::Write as _;
use std::time::Instant;

use crate::games::lunar::{enumerate, group, solve_with_stats, Board, CARD_39};

/// Median of a non-empty sample.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// `autoplay bench lunar`: times the solve of official card 39 (13 slides) and the
/// K = 1..5 enumerations, and returns a table.
pub fn bench_command() -> anyhow::Result<String> {
    const SOLVE_RUNS: usize = 21;
    const ENUM_RUNS: usize = 5;
    let mut s = String::new();
    let _ = writeln!(s, "Lunar Lockout benchmark ({} rayon threads; times are medians)", rayon::current_num_threads());
    let _ = writeln!(s, "{:<40} {:<44} {:>12}", "task", "result", "time");

    let card: Board = CARD_39.parse()?;
    let mut times = Vec::with_capacity(SOLVE_RUNS);
    let mut last = None;
    for _ in 0..SOLVE_RUNS {
        let start = Instant::now();
        let solution = solve_with_stats(&card);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        last = Some(solution);
    }
    let solution = last.expect("at least one run");
    let length = solution.moves.as_ref().map_or(0, Vec::len);
    let _ = writeln!(
        s,
        "{:<40} {:<44} {:>9.3} ms",
        "solve official card 39 (A*)",
        format!("{length} slides, {} nodes expanded", group(solution.nodes)),
        median(times)
    );

    let mut total = 0.0;
    let mut overall = 0;
    for k in 1..=5 {
        let mut times = Vec::with_capacity(ENUM_RUNS);
        let mut last = None;
        for _ in 0..ENUM_RUNS {
            let e = enumerate(k, false)?;
            times.push(e.millis);
            last = Some(e);
        }
        let e = last.expect("at least one run");
        let t = median(times);
        total += t;
        let hardest = e.hardest.as_ref().map_or(0, |h| h.length);
        overall = overall.max(hardest);
        let _ = writeln!(
            s,
            "{:<40} {:<44} {:>9.3} ms",
            format!("enumerate K={k} ({} positions)", group(e.positions)),
            format!("{} solvable, hardest {hardest} slide{}", group(e.solvable), if hardest == 1 { "" } else { "s" }),
            t
        );
    }
    let _ = write!(
        s,
        "{:<40} {:<44} {:>9.3} ms",
        "enumerate K=1..5 (sum of medians)",
        format!("hardest overall {overall} slides"),
        total
    );
    Ok(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(super::median(vec![3.0, 1.0, 2.0]), 2.0);
    }
}
