//! The Cribbage Solitaire tables (fixtures/tables/cribbage.html, and cribbage-parlour.html, drawn otherwise) in
//! real headless Chromium agree with the Rust rules engine: the same numbered deals, and a solver line replayed
//! on the page reaches the solver's score in the window title.

mod common;

use std::process::Command;

use autoplay::games::cribbage::{deal, solve, State};
use common::repo;

/// Loads the first table with the given query and returns the DOM after its scripts ran.
fn dump_dom(query: &str) -> String {
    dump_table_dom("cribbage.html", query)
}

/// Loads a table of `fixtures/tables/` with the given query and returns the DOM after its scripts ran.
fn dump_table_dom(file: &str, query: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let page = format!("file://{}?{query}", repo().join("fixtures/tables").join(file).display());
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
        assert_eq!(
            title,
            format!("Cribbage Solitaire \u{2014} deal {n} \u{2014} score {} \u{2014} complete", solution.score)
        );
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

/// The parlour table: the same numbered deals in its hidden state text, the solver's line scoring the optimum
/// (said in the title only once the game is over), and moves the rules forbid refused.
#[test]
fn the_parlour_table_deals_plays_and_refuses_by_the_same_rules() {
    for n in [1u64, 969] {
        let dom = dump_table_dom("cribbage-parlour.html", &format!("deal={n}"));
        assert_eq!(between(&dom, "<pre id=\"state\">", "\n"), deal(n).notation(), "deal {n}");
        assert_eq!(between(&dom, "<title>", "</title>"), "Cribbage Solitaire", "no score in the title during play");
    }
    for n in [30u64, 1031] {
        let solution = solve(&State::from(deal(n)));
        let dom = dump_table_dom("cribbage-parlour.html", &format!("deal={n}&line={}", solution.line));
        assert!(!dom.contains("data-replay-stopped=\""), "the table refused the solver's line for deal {n}");
        assert_eq!(
            between(&dom, "<title>", "</title>"),
            format!("Cribbage Solitaire \u{2014} final score {}", solution.score)
        );
    }
    let dom = dump_table_dom("cribbage-parlour.html", "deal=30&line=_1");
    assert!(dom.contains("data-replay-stopped=\"step 1 '_'\""), "a stack ended before any card");
    let dom = dump_table_dom("cribbage-parlour.html", &format!("deal=30&line={}", "1".repeat(14)));
    assert!(dom.contains("data-replay-stopped=\""), "column 1 has only 13 cards");
}
