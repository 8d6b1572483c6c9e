//! `autoplay bench dandelions`: the 5 x 5 start proved, and its 25 first placements checked.

use std::fmt::Write as _;
use std::time::Instant;

use super::peak_memory_bytes;
use crate::games::dandelions::{Move, Position, Side, SolveOptions, Solver};

/// `autoplay bench dandelions`: proves the 5 × 5 start position with a
/// fresh solver; checks the 25 first placements with one fresh solver
/// shared by all (in cell order, so symmetric placements are answered by
/// its table); and checks them again with a fresh solver each. Prints
/// time, nodes and peak memory (VmHWM of the whole process, read after
/// each step) as a table, then the winner and cost of each placement.
pub fn bench_command() -> anyhow::Result<String> {
    let options = SolveOptions::default();
    let start = Position::start();
    let mib = |b: Option<u64>| b.map_or("?".to_string(), |b| format!("{:.1} MiB", b as f64 / (1 << 20) as f64));
    let placements: Vec<Move> = start.legal_moves();

    let mut solver = Solver::new(5, 7, &options);
    let t = Instant::now();
    let winner = solver.winner(&start);
    let prove_time = t.elapsed();
    let prove_nodes = solver.nodes();
    let prove_peak = peak_memory_bytes();
    drop(solver);

    // Shared table.
    let mut solver = Solver::new(5, 7, &options);
    let t = Instant::now();
    let mut shared = Vec::new();
    for &mv in &placements {
        let before = solver.nodes();
        let w = solver.winner(&start.play(mv)?);
        shared.push((mv, w, solver.nodes() - before));
    }
    let shared_time = t.elapsed();
    let shared_nodes = solver.nodes();
    let shared_peak = peak_memory_bytes();
    drop(solver);

    // A fresh table for each placement.
    let t = Instant::now();
    let mut each = Vec::new();
    for &mv in &placements {
        let mut solver = Solver::new(5, 7, &options);
        let t1 = Instant::now();
        let w = solver.winner(&start.play(mv)?);
        each.push((mv, w, solver.nodes(), t1.elapsed()));
    }
    let each_time = t.elapsed();
    let each_nodes: u64 = each.iter().map(|e| e.2).sum();
    let each_peak = peak_memory_bytes();

    let count = |v: &[Side]| v.iter().filter(|&&w| w == Side::Dandelions).count();
    let shared_wins = count(&shared.iter().map(|e| e.1).collect::<Vec<_>>());
    let each_wins = count(&each.iter().map(|e| e.1).collect::<Vec<_>>());

    let mut out = String::new();
    writeln!(out, "Dandelions 5x5, 7 turns each; transposition table {} MiB; one thread", options.table_bytes >> 20)?;
    writeln!(out, "{:<34} {:>9} {:>12} {:>10}  result", "task", "time (s)", "nodes", "peak mem")?;
    writeln!(
        out,
        "{:<34} {:>9.3} {:>12} {:>10}  {}",
        "prove the start position",
        prove_time.as_secs_f64(),
        prove_nodes,
        mib(prove_peak),
        winner.wins()
    )?;
    writeln!(
        out,
        "{:<34} {:>9.3} {:>12} {:>10}  dandelions win after {}/{}",
        "check 25 first moves, one table",
        shared_time.as_secs_f64(),
        shared_nodes,
        mib(shared_peak),
        shared_wins,
        shared.len()
    )?;
    writeln!(
        out,
        "{:<34} {:>9.3} {:>12} {:>10}  dandelions win after {}/{}",
        "check 25 first moves, fresh tables",
        each_time.as_secs_f64(),
        each_nodes,
        mib(each_peak),
        each_wins,
        each.len()
    )?;
    writeln!(out)?;
    writeln!(out, "Each first placement, fresh table: winner (D dandelions, W wind), nodes, milliseconds")?;
    for row in each.chunks(5) {
        let mut line = String::new();
        for (mv, w, nodes, time) in row {
            let tag = if *w == Side::Dandelions { 'D' } else { 'W' };
            write!(line, "  {mv} {tag} {:>8} {:>5.1}", nodes, time.as_secs_f64() * 1000.0)?;
        }
        writeln!(out, "{line}")?;
    }
    Ok(out)
}
