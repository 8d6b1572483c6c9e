//! The Cribbage Solitaire table (fixtures/tables/cribbage.html) in real headless Chromium agrees with the Rust
//! rules engine: the same numbered deals, and a solver line replayed on the page reaches the solver's score in
//! the window title.

mod common;

use std::process::Command;

use autoplay::games::cribbage::{deal, solve, State};
use common::repo;

/// Loads the table with the given query and returns the DOM after its scripts ran.
fn dump_dom(query: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let page = format!("file://{}?{query}", repo().join("fixtures/tables/cribbage.html").display());
    let out = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(&page)
        .output()
        .expect("chromium (Debian package chromium) must be installed");
    assert!(out.status.success(), "chromium failed on {page}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("'{start}' not in page")) + start.len();
    &text[from..from + text[from..].find(end).unwrap()]
}

#[test]
fn the_table_deals_the_same_numbered_deals() {
    for n in [1u64, 30, 969, 1031, 1879] {
        let dom = dump_dom(&format!("deal={n}"));
        assert_eq!(between(&dom, &format!("deal {n}: "), "<"), deal(n).notation(), "deal {n}");
    }
}

#[test]
fn a_solver_line_replayed_on_the_table_scores_the_optimum() {
    for n in [30u64, 1031] {
        let solution = solve(&State::from(deal(n)));
        let dom = dump_dom(&format!("deal={n}&line={}", solution.line));
        assert!(!dom.contains("data-replay-error"), "the table refused the solver's line for deal {n}");
        let title = between(&dom, "<title>", "</title>");
        assert_eq!(title, format!("Cribbage Solitaire \u{2014} deal {n} \u{2014} score {} \u{2014} complete", solution.score));
    }
}

#[test]
fn the_table_refuses_moves_the_rules_forbid() {
    // A new stack before any card is played, and a column played past its last card.
    let dom = dump_dom("deal=30&line=_1");
    assert!(dom.contains("replay stopped: '_' is not allowed here"), "{}", between(&dom, "<title>", "</title>"));
    let dom = dump_dom(&format!("deal=30&line={}", "1".repeat(14)));
    assert!(dom.contains("replay stopped"), "column 1 has only 13 cards");
}
