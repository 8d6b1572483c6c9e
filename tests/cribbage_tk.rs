//! The third Cribbage table, fixtures/tables/cribbage_tk.py, written from a description of its look alone: a
//! Python Tk window, KDE's standard SVG card deck, the four columns fanned sideways (buried card left), the stack
//! a fan downwards under a caption, the total and score in a status bar, no control that ends a stack (the table
//! ends it by itself 600 ms after nothing fits, and drops the next click once). Its screenshots, at two window
//! sizes, are in fixtures/cribbage-tk/ (scripts/make-cribbage-tk-fixtures.sh).
//!
//! These tests check the table itself (that it deals the project's numbered deals, and that each screenshot's
//! truth, the table's own state file, is the position the rules reach on its line), and, live on Xvfb with a
//! window manager, that the bot plays it with no calibration to the solver's optimum (tests/cribbage_uncalibrated.rs
//! reads its fixtures).

mod common;

use std::process::Command;

use autoplay::games::cribbage::commands::parse_state;
use autoplay::games::cribbage::rules::parse_line;
use autoplay::games::cribbage::{deal, solve, Move, State};
use common::desktop::{wait_until, Desktop};
use common::{fixture_shots, play_calibrated, repo};

fn python() -> &'static str {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
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

/// Live: the Tk table opened on Xvfb (at two window sizes), and `autoplay play cribbage` with a calibration
/// folder that holds only the font lists: the bot finds the cards by their shape and names them by the deal, plays
/// every card by clicking it, verifies each by reading the table again (the table ends its stacks by itself), and
/// the table's own final score is the solver's optimum.
#[test]
fn the_tk_table_is_played_with_no_calibration_to_the_optimum() {
    for (n, size) in [(30u64, "1100x760"), (969, "820x600")] {
        let mut desktop = Desktop::start();
        let work = tempfile::tempdir().unwrap();
        for list in ["fonts.toml", "card-fonts.toml"] {
            std::fs::copy(repo().join("calibration").join(list), work.path().join(list)).unwrap();
        }
        let state_file = work.path().join("table.state");
        let (deal_arg, state_arg) = (n.to_string(), state_file.display().to_string());
        let table = repo().join("fixtures/tables/cribbage_tk.py").display().to_string();
        desktop.spawn(python(), &[&table, "--deal", &deal_arg, "--size", size, "--state-file", &state_arg], &[]);
        let window = desktop.wait_for_window_shown("Cribbage Solitaire \\(Tk\\).*");
        wait_until("the table's first state", std::time::Duration::from_secs(60), || state_file.exists());
        desktop.wait_for_still_picture(&window);
        let (succeeded, stderr, report) = play_calibrated(&desktop.display, "cribbage", work.path(), &[]);
        assert!(succeeded, "deal {n} at {size}: {stderr}");
        assert_eq!(report["won"].as_bool(), Some(true), "deal {n} at {size}: {stderr}");
        assert_eq!(report["moves"], 52, "deal {n}: one click a card, no stack ended by the bot: {stderr}");
        let optimum = solve(&State::from(deal(n))).score;
        // The table's state file: its columns, stack and score (its total and count of cards played aside).
        let text = std::fs::read_to_string(&state_file).unwrap();
        let kept: String = text
            .lines()
            .filter(|l| !l.starts_with("total:") && !l.starts_with("played:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let table = parse_state(&kept).unwrap();
        assert!(table.is_over(), "deal {n} at {size}: the table is not finished: {stderr}");
        assert_eq!(table.score, optimum, "deal {n} at {size}: the table's own score: {stderr}");
    }
}
