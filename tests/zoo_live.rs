//! The client zoo live (fixtures/zoo): a fixed handful of seeds per game, each played by `autoplay bench zoo` on a
//! virtual display of its own with no calibration, and judged by the state file the client writes (read: the first
//! reading is its board; won: the game's own board won, at the proven optimum, every entry made once). Each seed
//! here once failed and was mended by principle; the bench runs the rest (`autoplay bench zoo GAME --seeds FROM-TO`).

use std::process::Command;

/// Plays `seeds` of `game` in `toolkit` and asserts that every one was read and won, naming each failure's class,
/// seed and folder.
fn zoo_wins(game: &str, toolkit: &str, seeds: &str) {
    let out = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .args(["bench", "zoo", game, "--seeds", seeds, "--toolkit", toolkit, "--jobs", "1", "--json", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "bench zoo failed:\n{log}");
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let seeds = summary["seeds"].as_u64().unwrap();
    assert!(seeds > 0, "{summary}");
    if summary["won"] != seeds || summary["read"] != seeds {
        // Keep the folders of a failure, for its recording.
        let kept = out.keep();
        panic!("{game} seeds {seeds} in {toolkit}: {summary}\n{log}\n(folders kept in {})", kept.display());
    }
}

/// A page not yet painted when the bot first looked (a blank window, read as no board), and a game that deals a new
/// board at once after its win (played on to the move limit).
#[test]
fn web_flood_seeds_once_read_before_their_first_paint_or_played_past_the_win_are_won() {
    zoo_wins("flood", "web", "2");
    zoo_wins("flood", "web", "16");
}

/// Cells that no colour fills whole: a gradient across every cell (seed 10), a texture of stripes (seed 5).
#[test]
fn web_flood_seeds_with_shaded_or_textured_cells_are_won() {
    zoo_wins("flood", "web", "5");
    zoo_wins("flood", "web", "10");
}

/// Cribbage tables that read nothing, or only their front cards, before the reader looked for what every table
/// must be: strips whose rounded corners overlap, an index in the middle of the card's top, a card tinted yellow
/// under the pointer, a stack shown by its top card only, and a table that ends a stack only on its "Clear"
/// button, found by its label and proved by its click (seed 1); a "Done" button, in a mono font, on a table
/// that shows no score (seed 23).
#[test]
fn cribbage_seeds_with_strips_a_top_card_stack_and_a_button_that_does_not_say_stack_are_won() {
    zoo_wins("cribbage", "gtk", "1");
    zoo_wins("cribbage", "sdl", "23");
}

/// Sudokus whose cell is chosen only by a double click: a canvas page (seed 15) and an SDL window that polls the
/// mouse 28 times a second (seed 17). A click that chose nothing is followed, as a person would, by two.
#[test]
fn sudoku_seeds_that_select_a_cell_only_on_a_double_click_are_won() {
    zoo_wins("sudoku", "web", "15");
    zoo_wins("sudoku", "sdl", "17");
}
