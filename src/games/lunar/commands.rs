//! The text produced for the `solve`, `enumerate` and `bench` commands.

use std::fmt::Write as _;
use std::time::Instant;

use serde_json::json;

use super::board::Board;
use super::retro::{enumerate, Enumeration};
use super::solver::solve_with_limit;

/// Search states the `solve` command may store before giving up (about 1.5–2 GB).
pub const SOLVE_STATE_LIMIT: usize = 20_000_000;

/// Hardest-position boards shown in the text summary (JSON lists them all).
const SHOWN_BOARDS: usize = 32;
/// Boards per line of the text summary.
const BOARDS_PER_LINE: usize = 8;

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// `autoplay solve lunar [FILE|-] [--target R,C] [--json]`.
///
/// Text: one move per line, or the single line `unsolvable`; a board already solved gives
/// no lines (empty string). Moves read `o@2,3 left`: the piece letter, `@`, the 0-based
/// `row,col` of the piece when it moves (row 0 = first board line) and the direction; on
/// a board with a single human its moves are just `X down`.
///
/// JSON: `{"moves": [...], "length": N, "optimal": true, "nodes": N, "millis": T}`, or
/// `{"unsolvable": true, "nodes": N, "millis": T}`; `nodes` counts expanded search nodes,
/// `millis` is the search time. A search that would store more than [`SOLVE_STATE_LIMIT`]
/// states fails with [`LunarError::SearchLimit`](super::LunarError::SearchLimit).
pub fn solve_command(board_text: &str, target: Option<(usize, usize)>, json: bool) -> anyhow::Result<String> {
    Ok(solve_command_with_status(board_text, target, json)?.0)
}

/// [`solve_command`], also telling whether the board has a solution (the command line exits
/// non-zero when it has none).
pub fn solve_command_with_status(
    board_text: &str,
    target: Option<(usize, usize)>,
    json: bool,
) -> anyhow::Result<(String, bool)> {
    let board = Board::parse(board_text, target)?;
    let start = Instant::now();
    let solution = solve_with_limit(&board, SOLVE_STATE_LIMIT)?;
    let millis = round3(start.elapsed().as_secs_f64() * 1e3);
    let single = board.human_count() == 1;
    let solvable = solution.moves.is_some();
    let out = match (solution.moves, json) {
        (Some(moves), false) => moves.iter().map(|m| m.notation(single)).collect::<Vec<_>>().join("\n"),
        (None, false) => "unsolvable".to_string(),
        (Some(moves), true) => {
            let text: Vec<String> = moves.iter().map(|m| m.notation(single)).collect();
            serde_json::to_string(&json!({
                "moves": text,
                "length": moves.len(),
                "optimal": true,
                "nodes": solution.nodes,
                "millis": millis,
            }))?
        }
        (None, true) => serde_json::to_string(&json!({
            "unsolvable": true,
            "nodes": solution.nodes,
            "millis": millis,
        }))?,
    };
    Ok((out, solvable))
}

/// `autoplay enumerate lunar --helpers K`: every 5×5 position with one human off the
/// centre and K = 1..=5 helpers (no blocks, target = centre, helpers may stand on it),
/// solved at once by retrograde analysis. Returns a readable summary, or the
/// [`Enumeration`] as JSON with `json`. `progress` shows an indicatif bar on stderr.
pub fn enumerate_command(helpers: usize, json: bool, progress: bool) -> anyhow::Result<String> {
    let e = enumerate(helpers, progress)?;
    if json {
        Ok(serde_json::to_string_pretty(&e)?)
    } else {
        Ok(render_enumeration(&e))
    }
}

/// `n` with thousands separators.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Boards (same height) printed side by side, `per_line` to a line, blank line between.
fn side_by_side(boards: &[String], per_line: usize) -> String {
    let mut out = String::new();
    for (i, chunk) in boards.chunks(per_line).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let rows: Vec<Vec<&str>> = chunk.iter().map(|b| b.lines().collect()).collect();
        let height = rows.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..height {
            let line: Vec<&str> = rows.iter().map(|b| b.get(r).copied().unwrap_or("")).collect();
            out.push_str("  ");
            out.push_str(line.join("   ").trim_end());
            out.push('\n');
        }
    }
    out
}

/// The readable summary of an enumeration.
pub fn render_enumeration(e: &Enumeration) -> String {
    let mut s = String::new();
    let pct = |n: u64| 100.0 * n as f64 / e.positions as f64;
    let _ = writeln!(
        s,
        "Lunar Lockout 5×5, target = centre, 1 human + {} helper{}, no blocks",
        e.helpers,
        if e.helpers == 1 { "" } else { "s" }
    );
    let _ = writeln!(s, "positions (human off the centre): {}", group(e.positions));
    let _ = writeln!(s, "solvable:   {:>12} ({:.2}%)", group(e.solvable), pct(e.solvable));
    let _ = writeln!(s, "unsolvable: {:>12} ({:.2}%)", group(e.unsolvable), pct(e.unsolvable));
    let _ = writeln!(s, "shortest solution lengths:");
    let _ = writeln!(s, "  slides     positions");
    for l in &e.distribution {
        let _ = writeln!(s, "  {:>6}  {:>12}", l.length, group(l.positions));
    }
    match &e.hardest {
        None => {
            let _ = writeln!(s, "no position is solvable");
        }
        Some(h) => {
            let _ = writeln!(
                s,
                "hardest: {} slide{}, {} position{} in {} symmetry class{}:",
                h.length,
                if h.length == 1 { "" } else { "s" },
                group(h.positions),
                if h.positions == 1 { "" } else { "s" },
                h.classes,
                if h.classes == 1 { "" } else { "es" }
            );
            let shown = h.boards.len().min(SHOWN_BOARDS);
            s.push_str(&side_by_side(&h.boards[..shown], BOARDS_PER_LINE));
            if shown < h.boards.len() {
                let _ = writeln!(s, "  … and {} more classes (--json lists all)", h.boards.len() - shown);
            }
        }
    }
    let _ = write!(
        s,
        "retrograde analysis: {:.1} ms on {} thread{}",
        e.millis,
        e.threads,
        if e.threads == 1 { "" } else { "s" }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_command_text() {
        let out = solve_command("..X..\n.....\n..+..\no..o.\n.....", None, false).unwrap();
        assert_eq!(out, "o@3,0 right\nX down");
        let out = solve_command("X....\n.....\n..+..\n.....\n..o..", None, false).unwrap();
        assert_eq!(out, "unsolvable");
        let out = solve_command("...\n.x.\n...", None, false).unwrap();
        assert_eq!(out, "");
        // Two humans: humans carry their position.
        let out = solve_command("X....\n.....\n.o+.X\n.....\n.....", None, false).unwrap();
        assert_eq!(out, "X@2,4 left");
        // Explicit target on an even board.
        let out = solve_command("X..o\n....\n....\n....", Some((0, 2)), false).unwrap();
        assert_eq!(out, "X right");
    }

    #[test]
    fn solve_command_json() {
        let out = solve_command(super::super::CARD_39, None, true).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["length"], 13);
        assert_eq!(v["moves"].as_array().unwrap().len(), 13);
        assert_eq!(v["optimal"], true);
        assert!(v["nodes"].as_u64().unwrap() > 0);
        assert!(v["millis"].as_f64().is_some());
        let out = solve_command("X....\n.....\n..+..\n.....\n..o..", None, true).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["unsolvable"], true);
        assert!(v.get("moves").is_none());
    }

    #[test]
    fn solve_command_errors() {
        let err = solve_command("X..\n..\n...", None, false).unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
        let err = solve_command("X...\n....\n....\n....", None, false).unwrap_err();
        assert!(err.to_string().contains("--target"), "{err}");
    }

    #[test]
    fn enumerate_command_outputs() {
        let text = enumerate_command(2, false, false).unwrap();
        assert!(text.contains("positions (human off the centre): 6,624"), "{text}");
        assert!(text.contains("hardest:"), "{text}");
        let json = enumerate_command(2, true, false).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["helpers"], 2);
        assert_eq!(v["positions"], 6624);
        let solvable = v["solvable"].as_u64().unwrap();
        let sum: u64 = v["distribution"].as_array().unwrap().iter().map(|l| l["positions"].as_u64().unwrap()).sum();
        assert_eq!(sum, solvable);
        assert!(enumerate_command(9, false, false).is_err());
    }

    #[test]
    fn helpers() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1_020_096), "1,020,096");
        let b = side_by_side(&["ab\ncd".to_string(), "ef\ngh".to_string()], 8);
        assert_eq!(b, "  ab   ef\n  cd   gh\n");
    }
}
