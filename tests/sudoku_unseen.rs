//! Sudoku read with no calibration: every sgt-solo and GNOME Sudoku screenshot of a grid up to 9×9 must read
//! exactly (digits, givens, the player's digits) with the digits of common fonts alone; larger grids, and cells
//! too small for glyphs to keep their font's shape, are refused with a message that says why.

mod common;

use std::path::Path;

use autoplay::games::sudoku::screen::discover::{self, DigitShapes};
use autoplay::games::sudoku::SudokuGrid;
use autoplay::imageio::load_image;
use common::{fixture_shots, repo};

/// The truth of a shot: its givens (an sgt-solo game ID in NAME.id, or board text in NAME.truth) and the
/// player's digits (NAME.entered, if any).
fn truth_of(png: &Path) -> SudokuGrid {
    let givens = std::fs::read_to_string(png.with_extension("id"))
        .or_else(|_| std::fs::read_to_string(png.with_extension("truth")))
        .unwrap();
    let mut truth = SudokuGrid::parse_givens(&givens).unwrap();
    if let Ok(text) = std::fs::read_to_string(png.with_extension("entered")) {
        truth.enter(&text).unwrap_or_else(|e| panic!("{}: {e:#}", png.display()));
    }
    truth
}

#[test]
fn every_screenshot_up_to_9x9_reads_with_no_calibration() {
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let mut shots = fixture_shots("sudoku");
    shots.extend(fixture_shots("sudoku-gnome"));
    shots.extend(fixture_shots("sudoku-clients"));
    let (mut read, mut refused, mut failures) = (0, 0, Vec::new());
    for (name, png) in shots {
        let truth = truth_of(&png);
        let image = load_image(&png).unwrap();
        let started = std::time::Instant::now();
        let reading = discover::read(&image, &shapes);
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        // Symbols beyond 9, and glyphs in cells under 20 pixels (sgt-solo at tile size 15), need a theme.
        let tiny = name.contains("tile15") || name.contains("tile17");
        if truth.size > 9 || tiny {
            let error = format!("{:#}", reading.err().unwrap_or_else(|| panic!("{name}: read with no calibration")));
            let why =
                if truth.size > 9 { "symbols beyond 9" } else { "without a calibration theme learned at their size" };
            assert!(error.contains(why), "{name}: {error}");
            refused += 1;
            continue;
        }
        match reading {
            Ok(r) if r.grid.board_text() == truth.board_text() && r.grid.givens_text() == truth.givens_text() => {
                eprintln!("{name}: read in {millis:.1} ms");
                read += 1;
            }
            Ok(r) => failures.push(format!(
                "{name}: read\n{}\ngivens\n{}\nbut the truth is\n{}\ngivens\n{}",
                r.grid.board_text(),
                r.grid.givens_text(),
                truth.board_text(),
                truth.givens_text()
            )),
            Err(e) => failures.push(format!("{name}: {e:#}")),
        }
    }
    assert!(failures.is_empty(), "{} read, {} failed:\n{}", read, failures.len(), failures.join("\n\n"));
    assert!(read >= 21 && refused >= 2, "{read} read, {refused} refused");
}

/// Clients no shipped theme describes read exactly with the shipped calibration: the themes fail and the reader
/// goes on with no calibration.
#[test]
fn other_clients_read_exactly_with_the_shipped_calibration() {
    let root = repo().join("calibration");
    let themes = autoplay::games::sudoku::screen::theme::load_themes(&root, None).unwrap();
    let shapes = DigitShapes::load(&root).unwrap();
    for (name, png) in fixture_shots("sudoku-clients") {
        let truth = truth_of(&png);
        let reading = autoplay::games::sudoku::screen::read_any(&load_image(&png).unwrap(), &themes, Ok(&shapes))
            .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(reading.theme, discover::FOUND_THEME, "{name}");
        assert_eq!(reading.grid.board_text(), truth.board_text(), "{name}: board");
        assert_eq!(reading.grid.givens_text(), truth.givens_text(), "{name}: givens");
        assert_eq!(reading.grid.entered_text(), truth.entered_text(), "{name}: entered");
    }
}

/// KSudoku tints the selected cell's row, column and box once the pointer has passed over the board, which hides
/// the givens' gold in them: the digits still read exactly, and in play the givens of the window's first reading
/// are kept (a reading given the earlier layout as its hint).
#[test]
fn a_tinted_board_keeps_the_givens_of_the_first_reading() {
    use autoplay::capture::Frame;
    use autoplay::game::ScreenGame;
    use autoplay::games::sudoku::Sudoku;
    let game = Sudoku::load(&repo().join("calibration"), None).unwrap();
    let first = game
        .read(
            &Frame::from_image(load_image(&repo().join("fixtures/sudoku-clients/ksudoku-typed-800x700.png")).unwrap()),
            None,
        )
        .unwrap();
    let png = repo().join("fixtures/sudoku-clients/tinted/ksudoku-typed-tinted-800x700.png");
    let truth = truth_of(&png);
    let tinted = Frame::from_image(load_image(&png).unwrap());
    let alone = game.read(&tinted, None).unwrap();
    assert_eq!(alone.board.board_text(), truth.board_text(), "the digits");
    assert_ne!(
        alone.board.givens_text(),
        truth.givens_text(),
        "the picture alone no longer tells the givens (else this test shows nothing)"
    );
    let in_play = game.read(&tinted, Some(&first.layout)).unwrap();
    assert_eq!(in_play.board.board_text(), truth.board_text());
    assert_eq!(in_play.board.givens_text(), truth.givens_text());
}

/// GNOME Sudoku's number picker hides part of the grid: with no calibration the lines broken around the covered
/// cells are seen and the picture is refused (naming the cover), rather than read with those cells empty; the
/// board greyed out after the win is no Sudoku either.
#[test]
fn a_board_partly_covered_is_refused_with_no_calibration() {
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let covered = load_image(&repo().join("fixtures/sudoku-gnome/refused/number-picker-open.png")).unwrap();
    let error = format!("{:#}", discover::read(&covered, &shapes).expect_err("a covered board was read"));
    assert!(error.contains("lines are missing around") && error.contains("covers part of the board"), "{error}");
    let finished = load_image(&repo().join("fixtures/sudoku-gnome/refused/finished.png")).unwrap();
    assert!(discover::read(&finished, &shapes).is_err(), "the greyed-out board was read");
}

/// KSudoku's number pad (cream buttons 1–9 stacked left of the board) and the web page's (a 3×3 block) are found
/// with no calibration, each digit's button where it is; sgt-solo, GNOME Sudoku and the web page without its pad
/// show none (GNOME's clock has digits, not 1–9).
#[test]
fn a_number_pad_beside_the_board_is_found_and_none_where_there_is_none() {
    use autoplay::games::sudoku::screen::number_pad;
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let pad_of = |path: &str| {
        let image = load_image(&repo().join(path)).unwrap();
        let reading = discover::read(&image, &shapes).unwrap();
        number_pad::find(&image, &reading.layout, reading.grid.size, &shapes)
    };
    for shot in [
        "fixtures/sudoku-clients/ksudoku-generated-800x700.png",
        "fixtures/sudoku-clients/ksudoku-generated-900x800.png",
    ] {
        let pad = pad_of(shot).unwrap_or_else(|| panic!("{shot}: no number pad found"));
        let points: Vec<(i32, i32)> = (1..=9).map(|d| pad.button(d).unwrap()).collect();
        assert!(points.iter().all(|&(x, _)| (10..=68).contains(&x)), "{shot}: {points:?}");
        assert!(points.windows(2).all(|p| p[1].1 > p[0].1 + 20), "{shot}: not stacked top to bottom: {points:?}");
    }
    // The web page's pad: a 3×3 block right of the grid, 7 8 9 on top.
    let pad = pad_of("fixtures/sudoku-clients/web-pad-seed1.png").expect("the web page's number pad");
    let at = |d: u8| pad.button(d).unwrap();
    assert!(at(7).0 < at(8).0 && at(8).0 < at(9).0 && at(7).1 < at(4).1 && at(4).1 < at(1).1, "{pad:?}");
    assert!(at(1).0 > 500 && (at(5).0 - at(1).0 - (at(9).0 - at(5).0)).abs() <= 4, "{pad:?}");
    for shot in [
        "fixtures/sudoku/3x3-tile48.png",
        "fixtures/sudoku-gnome/easy-2-played.png",
        "fixtures/sudoku-clients/web-seed1.png",
    ] {
        assert_eq!(pad_of(shot), None, "{shot}");
    }
}

/// One labelled shot teaches a client no theme describes: calibrating from the web page's opening position (light
/// lines on dark, which the dark-line search does not show) writes a theme that finds its grid by the search with
/// no calibration and reads the page's own digits, also beside a number pad. A board with the digits the bot
/// types (sky blue, normal weight, never seen in calibration) the theme does not read, and the reader goes on to
/// the fonts, which read it exactly: the calibration does not stand in the way of the bot's own digits.
#[test]
fn a_client_calibrated_from_one_shot_of_its_givens_reads_the_digits_typed_later() {
    use autoplay::game::ScreenGame;
    use autoplay::games::sudoku::screen::{read, read_any, theme::GridCue, SudokuTheme};
    use autoplay::games::sudoku::Sudoku;
    let root = tempfile::tempdir().unwrap();
    std::fs::copy(repo().join("calibration/fonts.toml"), root.path().join("fonts.toml")).unwrap();
    let start = repo().join("fixtures/sudoku-clients/web-seed1.png");
    let target = autoplay::calibration::ThemeTarget { root: root.path(), name: "web", replace: false };
    Sudoku::calibrate(&target, &load_image(&start).unwrap(), &truth_of(&start)).unwrap();
    let theme = SudokuTheme::load(&root.path().join("sudoku/web.toml")).unwrap();
    assert_eq!(theme.grid, GridCue::Found);
    let themes = [theme];
    let opening = read(&load_image(&start).unwrap(), &themes).unwrap();
    assert_eq!((opening.theme.as_str(), opening.grid.board_text()), ("web", truth_of(&start).board_text()));
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    for (shot, read_by) in [("web-seed1-played", discover::FOUND_THEME), ("web-pad-seed1", "web")] {
        let png = repo().join("fixtures/sudoku-clients").join(format!("{shot}.png"));
        let reading = read_any(&load_image(&png).unwrap(), &themes, Ok(&shapes)).unwrap();
        let truth = truth_of(&png);
        assert_eq!(reading.theme, read_by, "{shot}");
        assert_eq!(reading.grid.board_text(), truth.board_text(), "{shot}");
        assert_eq!(reading.grid.givens_text(), truth.givens_text(), "{shot}");
    }
}

/// Debian's `sudoku` (curses) in xterm (`fixtures/sudoku-terminal/`, from `scripts/fixtures/sudoku-terminal.sh`):
/// only the boxes are drawn, with lines of `+`, `-` and `|` characters; the cells are characters two apart; the
/// cursor's cell is in reverse video, on an empty cell at the start and on a given once played; the givens are
/// bold, the player's digits plain. Every shot reads exactly, in DejaVu Sans Mono and in xterm's default font (the
/// X server's 6×13 `fixed`, package xfonts-base), where the fonts' prior takes a plain 9 for an 8 or a 3. There the
/// 9 typed into row 2, column 2 is a player's mistake (the solution has 3): it is read as typed, by its shape's
/// likeness to the given 9 under the cursor, not as the solution's digit; and that cursor's digit, whose look does
/// not tell a given, is a given because only as one do the givens have one solution.
#[test]
fn a_terminal_board_of_characters_reads_with_its_cursor() {
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let cases = [
        ("xterm-dejavu-mono-start", (0, 0)),
        ("xterm-dejavu-mono-played", (0, 4)),
        ("xterm-fixed-start", (0, 0)),
        ("xterm-fixed-played", (0, 4)),
    ];
    for (name, cursor) in cases {
        let png = repo().join("fixtures/sudoku-terminal").join(format!("{name}.png"));
        let truth = truth_of(&png);
        let reading = discover::read(&load_image(&png).unwrap(), &shapes).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(reading.cursor, Some(cursor), "{name}: the cursor");
        assert_eq!(reading.grid.givens_text(), truth.givens_text(), "{name}: the givens");
        let filled = |g: &SudokuGrid| g.cells.iter().map(|&v| v != 0).collect::<Vec<_>>();
        assert_eq!(filled(&reading.grid), filled(&truth), "{name}: the cells with a digit");
        assert_eq!(reading.grid.board_text(), truth.board_text(), "{name}: the digits");
    }
}

/// KSudoku tints the selected cell's row, column and box. In one such picture (fixtures/sudoku-clients/read-again/,
/// the bot having typed a 4 at row 7, column 6 under load), the tint's edges pass for a 4×4 grid of lines, and read
/// alone the picture is taken for that; the play loop then planned a 4×4 Sudoku. Read as the same window read again
/// (with the layout of the picture before it), it is read on the grid found before and is the 9×9 board with the 4.
#[test]
fn a_window_read_again_is_read_on_the_grid_the_picture_before_showed() {
    use autoplay::capture::Frame;
    use autoplay::game::ScreenGame;
    use autoplay::games::sudoku::Sudoku;
    const BEFORE: &str =
        "167283459\n835941726\n942765138\n781532964\n354698271\n629417385\n59632.817\n41.8.6..2\n2.8...6..\n";
    let dir = repo().join("fixtures/sudoku-clients/read-again");
    let frame = |name: &str| Frame::from_image(load_image(&dir.join(name)).unwrap());
    let game = Sudoku::load(&repo().join("calibration"), None).unwrap();
    let before = game.read(&frame("ksudoku-before.png"), None).unwrap();
    assert_eq!(before.board.board_text(), BEFORE);
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let alone = discover::read(&load_image(&dir.join("ksudoku-after.png")).unwrap(), &shapes).unwrap();
    assert_eq!(alone.grid.size, 4, "the trap this test is about is no longer in the picture");
    let after = game.read(&frame("ksudoku-after.png"), Some(&before.layout)).unwrap();
    assert_eq!(after.board.board_text(), BEFORE.replace("59632.817", "596324817"));
    assert_eq!(after.board.given, before.board.given, "the givens of the reading before stand");
}
