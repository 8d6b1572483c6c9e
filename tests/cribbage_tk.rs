//! The third Cribbage table, fixtures/tables/cribbage_tk.py, written from a description of its look alone: a
//! Python Tk window, KDE's standard SVG card deck, the four columns fanned sideways (buried card left), the stack
//! a fan downwards under a caption, the total and score in a status bar, no control that ends a stack (the table
//! ends it by itself 600 ms after nothing fits, ignoring clicks meanwhile). Its screenshots, at two window sizes,
//! are in fixtures/cribbage-tk/ (scripts/fixtures/cribbage-tk.sh).
//!
//! These tests check the table itself (that it deals the project's numbered deals, and that each screenshot's
//! truth, the table's own state file, is the position the rules reach on its line), and, live on Xvfb with a
//! window manager, that the bot plays it with no calibration to the solver's optimum, also on a busy desktop with
//! the table showing each card seconds late, never playing a card twice, and that a click the table loses is named,
//! not made again (tests/cribbage_uncalibrated.rs reads its fixtures).

mod common;

use std::process::Command;

use autoplay::games::cribbage::commands::parse_state;
use autoplay::games::cribbage::rules::parse_line;
use autoplay::games::cribbage::{deal, solve, Move, State};
use common::desktop::{wait_until, Desktop};
use common::{fixture_shots, play_calibrated, repo, Busy};

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

/// What a live game of the Tk table came to: whether the bot succeeded, its standard error and report, and the
/// table's own state file after the game.
struct TkGame {
    succeeded: bool,
    stderr: String,
    report: serde_json::Value,
    state: String,
}

/// Opens the Tk table on deal `n` at `size` (with the table's `extra` arguments: `--lag MS`, `--drop K`) on a new
/// desktop and runs `autoplay play cribbage` with a calibration folder that holds only the font lists.
fn play_the_tk_table(n: u64, size: &str, extra: &[&str]) -> TkGame {
    let mut desktop = Desktop::start();
    let work = tempfile::tempdir().unwrap();
    for list in ["fonts.toml", "card-fonts.toml"] {
        std::fs::copy(repo().join("calibration").join(list), work.path().join(list)).unwrap();
    }
    let state_file = work.path().join("table.state");
    let (deal_arg, state_arg) = (n.to_string(), state_file.display().to_string());
    let table = repo().join("fixtures/tables/cribbage_tk.py").display().to_string();
    let mut args = vec![table.as_str(), "--deal", &deal_arg, "--size", size, "--state-file", &state_arg];
    args.extend(extra);
    desktop.spawn(python(), &args, &[]);
    let window = desktop.wait_for_window_shown("Cribbage Solitaire \\(Tk\\).*");
    wait_until("the table's first state", std::time::Duration::from_secs(60), || state_file.exists());
    desktop.wait_for_still_picture(&window);
    let (succeeded, stderr, report) = play_calibrated(&desktop.display, "cribbage", work.path(), &[]);
    let state = std::fs::read_to_string(&state_file).unwrap();
    TkGame { succeeded, stderr, report, state }
}

impl TkGame {
    /// The bot won with one click a card, and the table's own state file shows every card played once and the
    /// solver's optimum for deal `n`.
    fn assert_won_at_the_optimum(&self, n: u64, what: &str) {
        let stderr = &self.stderr;
        assert!(self.succeeded, "{what}: {stderr}");
        assert_eq!(self.report["won"].as_bool(), Some(true), "{what}: {stderr}");
        assert_eq!(self.report["moves"], 52, "{what}: one click a card, no stack ended by the bot: {stderr}");
        assert!(self.state.lines().any(|l| l == "played: 52"), "{what}: {}\n{stderr}", self.state);
        let optimum = solve(&State::from(deal(n))).score;
        // The table's state file: its columns, stack and score (its total and count of cards played aside).
        let kept: String = self
            .state
            .lines()
            .filter(|l| !l.starts_with("total:") && !l.starts_with("played:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let table = parse_state(&kept).unwrap();
        assert!(table.is_over(), "{what}: the table is not finished: {stderr}");
        assert_eq!(table.score, optimum, "{what}: the table's own score: {stderr}");
    }
}

/// Live: the Tk table opened on Xvfb (at two window sizes), and `autoplay play cribbage` with a calibration
/// folder that holds only the font lists: the bot finds the cards by their shape and names them by the deal, plays
/// every card by clicking it, verifies each by reading the table again (the table ends its stacks by itself), and
/// the table's own final score is the solver's optimum.
#[test]
fn the_tk_table_is_played_with_no_calibration_to_the_optimum() {
    for (n, size) in [(30u64, "1100x760"), (969, "820x600")] {
        play_the_tk_table(n, size, &[]).assert_won_at_the_optimum(n, &format!("deal {n} at {size}"));
    }
}

/// Live, on a busy desktop (`scripts/busy.sh 3`): the table takes each click at once but shows it 1 to 3 s later
/// (`--lag 3000`, varying per card), so that a click made again on the card still shown would play the next card of
/// its column. The bot waits for every card, makes none twice, and the table's own state shows 52 cards played and
/// the optimum.
#[test]
fn the_tk_table_showing_each_card_late_on_a_busy_desktop_is_won_with_no_card_played_twice() {
    let _busy = Busy::start(3);
    let game = play_the_tk_table(30, "1100x760", &["--lag", "3000"]);
    game.assert_won_at_the_optimum(30, "lag 3000 under load");
    assert!(!game.stderr.contains("making it again"), "{}", game.stderr);
}

/// Live: the table loses the fifth click that plays a card. Nothing shows that it never got it, and a card clicked
/// again plays the column's next one, so the bot waits the whole patience and stops, naming the move; the table's
/// own state shows four cards played, none twice.
#[test]
fn a_click_the_tk_table_loses_is_named_and_never_made_again() {
    let game = play_the_tk_table(30, "1100x760", &["--drop", "5"]);
    assert!(!game.succeeded, "{}", game.stderr);
    let error = game.stderr.lines().find(|l| l.starts_with("autoplay: error:")).unwrap_or_default();
    assert!(error.contains("move 5 (") && error.contains("has not shown"), "{}", game.stderr);
    assert!(error.contains("a second copy of it makes another move"), "{}", game.stderr);
    assert_eq!(game.stderr.matches("move 5: ").count(), 1, "{}", game.stderr);
    assert!(game.state.lines().any(|l| l == "played: 4"), "{}\n{}", game.state, game.stderr);
}
