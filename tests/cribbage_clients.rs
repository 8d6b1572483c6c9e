//! The Cribbage Solitaire tables agree with the Rust rules engine. The two web tables (fixtures/tables/cribbage.html,
//! and cribbage-parlour.html, drawn otherwise), in real headless Chromium: the same numbered deals, a solver line
//! replayed on the page reaches the solver's score in the window title, and moves the rules forbid are refused. The
//! third table, fixtures/tables/cribbage_tk.py (a Python Tk window written from a description of its look alone: KDE's
//! standard SVG card deck, the four columns fanned sideways, the stack a fan downwards, no control that ends a stack),
//! by its self-test: the same numbered deals; and each of its screenshots in fixtures/cribbage-tk/
//! (scripts/fixtures/cribbage-tk.sh), whose truth is the table's own state file, shows the position the rules reach
//! on its line.

mod common;

use std::process::Command;

use autoplay::games::cribbage::commands::parse_state;
use autoplay::games::cribbage::rules::parse_line;
use autoplay::games::cribbage::{deal, solve, Move, State};
use common::cribbage::python;
use common::{fixture_shots, repo};

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

#[test]
fn the_tk_table_deals_the_project_s_numbered_deals() {
    let out =
        Command::new(python()).arg(repo().join("fixtures/tables/cribbage_tk.py")).arg("--self-test").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    for n in [30u64, 1] {
        assert!(stdout.contains(&format!("deal {n}: {}\n", deal(n).notation())), "deal {n}:\n{stdout}");
    }
}

/// Each fixture's header names its deal and line; played by the rules, and the stack ended at the end where
/// nothing fits (the table has ended it by the time it is shown), the line reaches the truth's columns, stack and
/// score.
#[test]
fn the_tk_fixtures_show_the_positions_their_lines_reach() {
    let shots = fixture_shots("cribbage-tk");
    assert_eq!(shots.len(), 8, "four positions at two window sizes");
    for (name, png) in shots {
        let text = std::fs::read_to_string(png.with_extension("truth")).unwrap();
        let header = text.lines().next().unwrap();
        let word_after = |key: &str| header.split_whitespace().skip_while(|w| *w != key).nth(1).map(str::to_owned);
        let n: u64 = word_after("--deal").unwrap().parse().unwrap();
        let line = word_after("--line").filter(|l| l != "at").unwrap_or_default();
        let mut state = State::from(deal(n));
        for mv in parse_line(&line).unwrap() {
            state.play(mv).unwrap_or_else(|e| panic!("{name}: {mv}: {e}"));
        }
        if state.legal_moves() == [Move::NewStack] {
            state.play(Move::NewStack).unwrap();
        }
        let truth = parse_state(&text).unwrap();
        assert_eq!((&truth.columns, &truth.stack, truth.score), (&state.columns, &state.stack, state.score), "{name}");
    }
}
