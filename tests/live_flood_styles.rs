//! Flood-It clients whose cells take no click, played live with no calibration: the project's own page
//! (`fixtures/tables/flood-styles.html`) in each of its looks — flat discs; ellipses with a white outline on an
//! orange page, one of them that page's orange; rounded tiles with a shadow and a number label in a side panel;
//! flat squares above the board, one a pale colour a few units off the page; gradient discs in a column — and
//! with no buttons at all, moves made only by number keys or only by a keyboard cursor and Enter.
//!
//! The bot's first click on a cell does nothing; it then finds the buttons by their shape and proves each by
//! the colour its click floods with, or turns to the keys. Every button style is won at the proven optimum; the
//! number-key client, whose keys' colours nothing on the page shows, is won once each key has been learned.

mod common;

use std::time::Duration;

use autoplay::game::SolveLimits;
use autoplay::games::flood::{solve_board, FloodBoard};
use common::desktop::{wait_until, Desktop};
use common::*;

const TITLE: &str = "Flood-It (styles)";

/// What a game of the page came to.
struct StyleGame {
    stderr: String,
    report: serde_json::Value,
    optimal: usize,
    colours: usize,
    /// The moves the page's title says it was solved in.
    solved_in: Option<usize>,
}

impl StyleGame {
    fn assert_won_at_the_optimum(&self, query: &str) {
        assert_eq!(self.report["won"], true, "{query}: {}\n{}", self.report, self.stderr);
        assert_eq!(self.solved_in, Some(self.optimal), "{query}: the optimum is {}\n{}", self.optimal, self.stderr);
    }
}

/// Plays the page with `query` in a Chromium window with no calibration at all.
fn play_style(query: &str) -> StyleGame {
    let (page, truth) = page_and_board_text("flood-styles.html", query);
    let board = FloodBoard::parse(&truth).unwrap_or_else(|e| panic!("{query}: the page's board:\n{truth}\n{e:?}"));
    let plan = solve_board(&board, &SolveLimits::default());
    assert!(plan.optimal, "{query}");
    let mut desktop = Desktop::start();
    desktop.open_chromium_app(&page, "600,720", &[]);
    let window = desktop.wait_for_window(r"Flood-It \(styles\)");
    let (succeeded, stderr, report) = play_uncalibrated(&desktop.display, "flood", &window);
    assert!(succeeded, "{query}: play failed:\n{stderr}");
    let title = |desktop: &Desktop| {
        String::from_utf8_lossy(&desktop.run("xdotool", &["getwindowname", &window]).stdout).trim().to_owned()
    };
    wait_until(
        &format!("{query}: the page's title to say it is solved; the bot said:\n{stderr}"),
        Duration::from_secs(30),
        || title(&desktop) != TITLE,
    );
    let solved_in = title(&desktop)
        .strip_prefix(&format!("{TITLE} — solved in "))
        .and_then(|t| t.strip_suffix(" moves"))
        .and_then(|n| n.parse().ok());
    StyleGame { stderr, report, optimal: plan.moves.len(), colours: board.colours().len(), solved_in }
}

/// Each button style, found by its shape, proved by its effect, and played at the optimum.
#[test]
fn every_style_of_colour_button_is_found_and_won_at_the_optimum() {
    for query in [
        "style=discs&seed=2",
        "style=ellipse&seed=4",
        "style=tiles&seed=5",
        "style=flat&seed=6",
        "style=gradient&seed=8",
    ] {
        let game = play_style(query);
        game.assert_won_at_the_optimum(query);
        assert!(game.stderr.contains("making moves another way"), "{query}:\n{}", game.stderr);
        assert!(game.stderr.contains("a click on the colour's button"), "{query}:\n{}", game.stderr);
        assert!(game.stderr.contains("floods with"), "{query}:\n{}", game.stderr);
    }
}

/// The orange of the ellipse page's own background, and the pale colour of the flat page's, are board colours:
/// their buttons, told from the page only by an outline or a step of about fifteen units, are found and used.
#[test]
fn a_button_the_colour_of_the_page_around_it_is_found() {
    for (query, colour) in
        [("style=ellipse&seed=11&colours=8&size=14", "#f08c2e"), ("style=flat&seed=12&scale=0.8", "#cfd8e3")]
    {
        let game = play_style(query);
        game.assert_won_at_the_optimum(query);
        let proved =
            game.stderr.lines().any(|l| l.contains(&format!("patch of {colour} at")) && l.contains("floods with"));
        assert!(proved, "{query}: the button of {colour} was not clicked:\n{}", game.stderr);
    }
}

/// No buttons, and cells that take no click: the bot turns to the keyboard cursor and Enter (the page's first
/// arrow key only shows its cursor, and the cursor starts wherever the page left it) and wins at the optimum.
#[test]
fn a_client_moved_by_its_cursor_keys_is_won_at_the_optimum() {
    let game = play_style("style=cursor&seed=13");
    game.assert_won_at_the_optimum("cursor");
    assert!(game.stderr.contains("the cursor keys to a cell of the colour, and Enter"), "{}", game.stderr);
}

/// No buttons, no cursor: number keys whose colours the page shows only in words. Each key is learned from the
/// colour its first press floods with (a press that floods another colour than planned costs a move and a new
/// plan), and none is pressed for a colour it was seen not to play; the game is won within a move per colour
/// of the optimum.
#[test]
fn a_client_moved_by_number_keys_is_won_once_its_keys_are_learned() {
    let game = play_style("style=keys&seed=14");
    assert_eq!(game.report["won"], true, "{}\n{}", game.report, game.stderr);
    let solved_in = game.solved_in.unwrap_or_else(|| panic!("not solved:\n{}", game.stderr));
    assert!(solved_in < game.optimal + game.colours, "{solved_in} moves, optimum {}:\n{}", game.optimal, game.stderr);
    let learned = game.stderr.matches("that the key").count();
    assert!(learned <= game.colours + 1, "{learned} keys learned for {} colours:\n{}", game.colours, game.stderr);
}
