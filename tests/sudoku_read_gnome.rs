//! Replays the GNOME Sudoku screenshots: the reader must give exactly their truth (the givens labelled by hand,
//! the player's digits from NAME.entered) at every window size and on the whole screen, tell pencil marks,
//! clashes and the cross GNOME draws over a hopeless cell from digits, and refuse the pictures where the board
//! is hidden. Calibration from two shots must re-learn a theme that reads them all.

mod common;

use std::path::{Path, PathBuf};

use autoplay::games::sudoku::screen::{self, theme::load_themes, SudokuTheme};
use autoplay::games::sudoku::SudokuGrid;
use autoplay::games::sudoku::{self as sudoku_solver, Grid};
use autoplay::imageio::load_image;
use common::{fixture_shots, repo};

struct Fixture {
    name: String,
    png: PathBuf,
    truth: SudokuGrid,
}

/// The truth of a shot: its givens (NAME.truth, board text) and the player's digits (NAME.entered, if any).
fn truth_of(png: &Path) -> SudokuGrid {
    let mut truth = SudokuGrid::parse_givens(&std::fs::read_to_string(png.with_extension("truth")).unwrap()).unwrap();
    assert_eq!(truth.size, 9);
    if let Ok(text) = std::fs::read_to_string(png.with_extension("entered")) {
        truth.enter(&text).unwrap_or_else(|e| panic!("{}: {e:#}", png.display()));
    }
    truth
}

fn fixtures() -> Vec<Fixture> {
    let found: Vec<Fixture> = fixture_shots("sudoku-gnome")
        .into_iter()
        .map(|(name, png)| Fixture { name, truth: truth_of(&png), png })
        .collect();
    assert!(found.len() >= 6, "expected the GNOME Sudoku fixtures, found {}", found.len());
    found
}

fn themes() -> Vec<SudokuTheme> {
    load_themes(&repo().join("calibration"), None).expect("the repository's sudoku calibration")
}

fn gnome_theme() -> SudokuTheme {
    themes().into_iter().find(|t| t.theme == "gnome").expect("calibration/sudoku/gnome.toml")
}

fn check_all(themes: &[SudokuTheme]) {
    for f in fixtures() {
        let reading =
            screen::read(&load_image(&f.png).unwrap(), themes).unwrap_or_else(|e| panic!("{}: {e:#}", f.name));
        assert_eq!(reading.theme, "gnome", "{}", f.name);
        assert_eq!(reading.grid.board_text(), f.truth.board_text(), "{}: board", f.name);
        assert_eq!(reading.grid.givens_text(), f.truth.givens_text(), "{}: givens", f.name);
        assert_eq!(reading.grid.entered_text(), f.truth.entered_text(), "{}: entered", f.name);
        let expected: Vec<(usize, usize)> =
            f.truth.clashes().into_iter().filter(|&(r, c)| !f.truth.given[r * 9 + c]).collect();
        assert_eq!(reading.clashes, expected, "{}: clashes", f.name);
        if f.name.contains("played") {
            // Pencil marks in r5c5 and r9c8; the cross in r3c1 reads as an empty cell without pencil marks.
            assert_eq!(reading.pencil, vec![(4, 4), (8, 7)], "{}: pencil marks", f.name);
        }
    }
}

#[test]
fn every_gnome_fixture_reads_exactly_its_truth() {
    check_all(&themes());
}

#[test]
fn the_fixtures_show_what_they_claim() {
    let all = fixtures();
    let get =
        |part: &str| all.iter().find(|f| f.name.ends_with(part)).unwrap_or_else(|| panic!("no fixture named *{part}"));
    // The labelled givens have exactly one solution (a strong check of a hand-labelled truth).
    for f in &all {
        let givens: Vec<u8> = f.truth.cells.iter().zip(&f.truth.given).map(|(&v, &g)| if g { v } else { 0 }).collect();
        let grid = Grid::from_cells(3, 3, givens).unwrap();
        assert_eq!(sudoku_solver::count_solutions(&grid, 2), 1, "{}: the givens have one solution", f.name);
    }
    // The played shots have a right, a wrong and a clashing digit of the player.
    let played = &get("played").truth;
    let solution = autoplay::games::sudoku::solve_givens(played).unwrap();
    let entered: Vec<usize> = (0..81).filter(|&i| played.cells[i] != 0 && !played.given[i]).collect();
    assert!(entered.iter().any(|&i| played.cells[i] == solution[i]));
    assert!(entered.iter().any(|&i| played.cells[i] != solution[i]));
    assert!(!played.clashes().is_empty());
    // Three window sizes and a whole screen.
    let pitch = |name: &str| screen::read(&load_image(&get(name).png).unwrap(), &themes()).unwrap().layout.pitch;
    assert!(pitch("played-small") < 0.75 * pitch("played") && pitch("played-large") > 1.4 * pitch("played"));
    assert!(load_image(&get("played-screen").png).unwrap().width() >= 1280);
}

/// While the number picker is open it hides part of the grid, and after the win GNOME greys the board out:
/// neither is read as a board.
#[test]
fn hidden_boards_are_refused_clearly() {
    for (name, why) in [("number-picker-open", "not equally spaced"), ("finished", "solid patch")] {
        let png = repo().join("fixtures/sudoku-gnome/refused").join(format!("{name}.png"));
        let error = format!("{:#}", screen::read(&load_image(&png).unwrap(), &themes()).unwrap_err());
        assert!(error.contains("no grid found") && error.contains(why), "{name}: {error}");
    }
}

/// Each theme reads only its own game's pictures: the GNOME theme refuses sgt-solo shots (their givens have no
/// grey cells) and the sgt-solo theme refuses GNOME shots (their thin lines are too light for it).
#[test]
fn each_theme_refuses_the_other_games_pictures() {
    let gnome = gnome_theme();
    let sgt: Vec<SudokuTheme> = themes().into_iter().filter(|t| t.theme != "gnome").collect();
    for (_, png) in fixture_shots("sudoku") {
        if let Ok(reading) = screen::read(&load_image(&png).unwrap(), std::slice::from_ref(&gnome)) {
            panic!("{}: read by the GNOME theme as\n{}", png.display(), reading.grid);
        }
    }
    for f in fixtures() {
        assert!(screen::read(&load_image(&f.png).unwrap(), &sgt).is_err(), "{}: read by an sgt-solo theme", f.name);
    }
}

#[test]
fn calibration_from_two_shots_relearns_a_theme_that_reads_every_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let mut theme = SudokuTheme::new("gnome");
    for name in ["easy-1", "easy-2-played"] {
        let png = repo().join("fixtures/sudoku-gnome").join(format!("{name}.png"));
        screen::reader::learn(&load_image(&png).unwrap(), &truth_of(&png), &mut theme).unwrap();
    }
    let stored = gnome_theme();
    assert_eq!(
        theme.dark_max, stored.dark_max,
        "the light thin lines need a lighter line threshold, found from the picture"
    );
    assert_eq!(theme.given_background.as_deref(), Some("#cccccc"), "givens are told by their grey cells");
    assert!(theme.pencil_max_height.is_some() && theme.ink.pencil.is_none(), "pencil marks share the digits' ink");
    assert!(
        theme.glyphs.iter().any(|g| g.symbol == '.'),
        "the cross over a hopeless cell is learned as a mark of an empty cell"
    );
    theme.save(dir.path()).unwrap();
    check_all(&load_themes(dir.path(), None).unwrap());
}

/// The stored calibration reads every GNOME fixture with room to spare.
#[test]
fn recognition_has_headroom() {
    let theme = gnome_theme();
    for f in fixtures() {
        for m in screen::reader::match_scores(&load_image(&f.png).unwrap(), &theme).unwrap() {
            assert!(
                m.best <= 0.75 * theme.max_distance,
                "{} ({}, {}) '{}': distance {:.4}",
                f.name,
                m.row,
                m.col,
                m.symbol,
                m.best
            );
            assert!(
                m.next - m.best >= 3.0 * theme.min_margin,
                "{} ({}, {}) '{}': margin {:.4}",
                f.name,
                m.row,
                m.col,
                m.symbol,
                m.next - m.best
            );
        }
    }
}
