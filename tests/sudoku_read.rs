//! Reading Sudoku screenshots, with the shipped calibration and with none.
//!
//! sgt-solo's (`fixtures/sudoku/`): every captured screenshot reads exactly as its truth (the givens from the game ID,
//! the player's digits from NAME.entered) with the shipped theme, within a time bound and with room to spare, and
//! with templates learned at one tile size only; pictures that are not a Sudoku are refused; calibration re-learns
//! templates that read every fixture; the `read` and `calibrate` commands. GNOME Sudoku's (`fixtures/sudoku-gnome/`,
//! module `gnome`): read exactly at every window size and on the whole screen, pencil marks, clashes and the cross
//! over a hopeless cell told from digits, hidden boards refused, each theme refusing the other game's pictures, and
//! calibration from two shots re-learning a theme that reads them all.
//!
//! With no calibration: every sgt-solo, GNOME Sudoku and other client's screenshot of a grid up to 9×9 reads exactly
//! (digits, givens, the player's digits) with the digits of common fonts alone, as do digits in seven fonts the
//! reader does not list (`fixtures/sudoku-fonts/`, made by `scripts/fixtures/sudoku-fonts.sh`) and a terminal's board
//! of characters with its cursor; larger grids, cells too small for glyphs to keep their font's shape, and a board
//! partly covered are refused with a message that says why; a number pad beside the board is found; one labelled
//! shot teaches a client no theme describes; and a window read again keeps the grid and givens of its first reading.

mod common;

use std::path::{Path, PathBuf};

use autoplay::clients::sudoku::discover::{self, DigitShapes};
use autoplay::clients::sudoku::{self as screen, theme::load_themes, SudokuTheme};
use autoplay::games::sudoku::SudokuGrid;
use autoplay::imageio::load_image;
use common::sudoku::{autoplay, parse_id};
use common::{fixture_shots, repo};

struct Fixture {
    name: String,
    png: PathBuf,
    truth: SudokuGrid,
}

fn fixtures() -> Vec<Fixture> {
    let found: Vec<Fixture> = fixture_shots("sudoku")
        .into_iter()
        .map(|(name, png)| {
            let mut truth = parse_id(&std::fs::read_to_string(png.with_extension("id")).unwrap()).unwrap();
            if let Ok(text) = std::fs::read_to_string(png.with_extension("entered")) {
                truth.enter(&text).unwrap_or_else(|e| panic!("{name}: {e:#}"));
            }
            Fixture { name, png, truth }
        })
        .collect();
    assert!(found.len() >= 12, "expected the sudoku fixtures, found {}", found.len());
    found
}

fn themes() -> Vec<SudokuTheme> {
    load_themes(&repo().join("calibration"), None).expect("the repository's sudoku calibration")
}

/// The stored sgt-solo theme.
fn sgt_theme() -> SudokuTheme {
    themes().into_iter().find(|t| t.theme == "sgt-default").expect("calibration/sudoku/sgt-default.toml")
}

fn check_all(themes: &[SudokuTheme]) {
    for f in fixtures() {
        let image = load_image(&f.png).unwrap();
        let reading = screen::read(&image, themes).unwrap_or_else(|e| panic!("{}: {e:#}", f.name));
        assert_eq!(
            (reading.grid.box_rows, reading.grid.box_cols),
            (f.truth.box_rows, f.truth.box_cols),
            "{}: box shape",
            f.name
        );
        assert_eq!(reading.grid.board_text(), f.truth.board_text(), "{}: board", f.name);
        assert_eq!(reading.grid.givens_text(), f.truth.givens_text(), "{}: givens", f.name);
        assert_eq!(reading.grid.entered_text(), f.truth.entered_text(), "{}: entered", f.name);
        // Every cell centre is inside the picture.
        let (cx, cy) = reading.layout.centre(f.truth.size - 1, f.truth.size - 1);
        assert!(cx > 0 && cy > 0 && (cx as u32) < image.width() && (cy as u32) < image.height(), "{}", f.name);
        // Clashes are the player's digits that break a rule.
        let expected: Vec<(usize, usize)> =
            f.truth.clashes().into_iter().filter(|&(r, c)| !f.truth.given[r * f.truth.size + c]).collect();
        assert_eq!(reading.clashes, expected, "{}: clashes", f.name);
    }
}

#[test]
fn every_fixture_reads_exactly_its_truth() {
    check_all(&themes());
}

#[test]
fn the_special_fixtures_exist_and_show_what_they_claim() {
    let all = fixtures();
    let get =
        |part: &str| all.iter().find(|f| f.name.contains(part)).unwrap_or_else(|| panic!("no fixture named *{part}*"));
    for shape in ["2x2", "2x3", "3x3", "3x4", "4x4"] {
        get(shape);
    }
    let image = load_image(&get("pencil").png).unwrap();
    let reading = screen::read(&image, &themes()).unwrap();
    assert_eq!(reading.pencil, vec![(1, 0), (4, 4), (8, 7)], "cells with pencil marks");
    let played = get("played-clash");
    assert!(!played.truth.entered_text().chars().all(|c| c == '.' || c == '\n'));
    let screen = load_image(&get("screen").png).unwrap();
    assert!(screen.width() >= 1000, "the whole-screen fixture is a screen");
}

#[test]
fn pictures_that_are_not_a_sudoku_are_refused_clearly() {
    let themes = themes();
    let flood = load_image(&repo().join("fixtures/flood/12x12c6-tile32.png")).unwrap();
    let error = format!("{:#}", screen::read(&flood, &themes).unwrap_err());
    assert!(error.contains("no grid found"), "{error}");
    let blank = image::RgbaImage::from_pixel(300, 200, image::Rgba([230, 230, 230, 255]));
    let error = format!("{:#}", screen::read(&blank, &themes).unwrap_err());
    assert!(error.contains("no grid found"), "{error}");
    let black = image::RgbaImage::from_pixel(300, 200, image::Rgba([0, 0, 0, 255]));
    let error = format!("{:#}", screen::read(&black, &themes).unwrap_err());
    assert!(error.contains("no grid found"), "{error}");
    // A window cut in half.
    let shot = load_image(&repo().join("fixtures/sudoku/3x3-tile48.png")).unwrap();
    let half = image::imageops::crop_imm(&shot, 0, 0, shot.width() / 2, shot.height()).to_image();
    assert!(screen::read(&half, &themes).is_err());
}

#[test]
fn calibration_relearns_templates_that_read_every_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let mut theme = SudokuTheme::new("sgt-default");
    let shots: Vec<PathBuf> =
        fixtures().into_iter().filter(|f| f.name.starts_with("calibrate-")).map(|f| f.png).collect();
    assert!(shots.len() >= 8);
    for png in shots {
        let mut truth = parse_id(&std::fs::read_to_string(png.with_extension("id")).unwrap()).unwrap();
        if let Ok(text) = std::fs::read_to_string(png.with_extension("entered")) {
            truth.enter(&text).unwrap();
        }
        screen::reader::learn(&load_image(&png).unwrap(), &truth, &mut theme).unwrap();
    }
    theme.save(dir.path()).unwrap();
    let relearned = load_themes(dir.path(), None).unwrap();
    assert_eq!(relearned[0].ink, sgt_theme().ink, "the same colours as the stored calibration");
    check_all(&relearned);
}

#[test]
fn read_time_of_a_9x9_window() {
    let image = load_image(&repo().join("fixtures/sudoku/3x3-tile48.png")).unwrap();
    let game =
        <autoplay::clients::sudoku::SudokuScreen as autoplay::game::Screen>::load(&repo().join("calibration"), None)
            .unwrap();
    let window = autoplay::bench::sudoku::bench_read(&image, &game, 50).unwrap();
    println!(
        "sudoku read: {}x{} window (9x9, tile 48): mean {:.2} ms, median {:.2} ms, max {:.2} ms over {} reads",
        image.width(),
        image.height(),
        window.mean_ms,
        window.median_ms,
        window.max_ms,
        window.count
    );
    assert!(window.median_ms < 100.0, "{window:?}");
    let screen = load_image(&repo().join("fixtures/sudoku/3x3-tile40-screen.png")).unwrap();
    let whole = autoplay::bench::sudoku::bench_read(&screen, &game, 10).unwrap();
    println!(
        "sudoku read: {}x{} whole screen (9x9, tile 40): mean {:.2} ms, median {:.2} ms, max {:.2} ms over {} reads",
        screen.width(),
        screen.height(),
        whole.mean_ms,
        whole.median_ms,
        whole.max_ms,
        whole.count
    );
}

/// The stored calibration reads every fixture with room to spare: each glyph well within the distance limit and
/// well clear of the next symbol. Prints the worst cases (run with --nocapture).
#[test]
fn recognition_has_headroom() {
    let theme = &sgt_theme();
    let (mut worst_best, mut worst_margin) = ((0.0f64, String::new()), (f64::INFINITY, String::new()));
    let mut closest_other = (f64::INFINITY, String::new());
    for f in fixtures() {
        for m in screen::reader::match_scores(&load_image(&f.png).unwrap(), theme).unwrap() {
            let (best, next) = (m.best, m.next);
            let at = format!("{} ({}, {}) '{}'", f.name, m.row, m.col, m.symbol);
            if best > worst_best.0 {
                worst_best = (best, at.clone());
            }
            if next < closest_other.0 {
                closest_other = (next, at.clone());
            }
            if next - best < worst_margin.0 {
                worst_margin = (next - best, at);
            }
        }
    }
    println!(
        "worst best distance {:.4} at {}; smallest margin {:.4} at {}; closest other symbol {:.4} at {}",
        worst_best.0, worst_best.1, worst_margin.0, worst_margin.1, closest_other.0, closest_other.1
    );
    assert!(worst_best.0 <= 0.75 * theme.max_distance, "worst best distance {:?}", worst_best);
    assert!(worst_margin.0 >= 3.0 * theme.min_margin, "smallest margin {:?}", worst_margin);
}

/// Templates learned at one tile size only (48) still read the fixtures drawn at other sizes from 24 up, and
/// refuse (rather than guess) smaller cells, which must be learned at their size.
#[test]
fn templates_from_one_tile_size_read_other_sizes() {
    let mut theme = SudokuTheme::new("one-size");
    theme.ink = sgt_theme().ink.clone();
    let png = repo().join("fixtures/sudoku/calibrate-4x4-tile48.png");
    let truth = parse_id(&std::fs::read_to_string(png.with_extension("id")).unwrap()).unwrap();
    screen::reader::learn(&load_image(&png).unwrap(), &truth, &mut theme).unwrap();
    for f in fixtures() {
        let params = std::fs::read_to_string(f.png.with_extension("params")).unwrap();
        let tile: usize = params.split_whitespace().last().unwrap().parse().unwrap();
        let result = screen::read(&load_image(&f.png).unwrap(), std::slice::from_ref(&theme));
        if tile < 24 {
            // Small cells, smaller than anything learned: refused, not guessed.
            let error = format!("{:#}", result.unwrap_err());
            assert!(error.contains("smaller than any"), "{}: {error}", f.name);
            continue;
        }
        let reading = result.unwrap_or_else(|e| panic!("{} with templates from tile 48 only: {e:#}", f.name));
        assert_eq!(reading.grid.board_text(), f.truth.board_text(), "{}", f.name);
    }
}

#[test]
fn the_read_command_prints_the_grid_then_the_givens_or_json() {
    let shot = repo().join("fixtures/sudoku/3x3-tile40-played-clash.png");
    let out = autoplay().args(["read", "sudoku"]).arg(&shot).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let (board, givens) = text.split_once("\n\n").expect("a blank line between the grids");
    assert_eq!(board.lines().count(), 9);
    assert_eq!(givens.lines().count(), 9);
    assert_eq!(&board[..9], "26...8...");
    assert_eq!(&givens[..9], ".....8...");
    // From standard input, as JSON.
    let out = autoplay().args(["read", "sudoku", "-", "--json"]).pipe_stdin(&shot).unwrap().output().unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["size"], 9);
    assert_eq!(json["box"], serde_json::json!([3, 3]));
    assert_eq!(json["theme"], "sgt-default");
    assert!(json["entered"].as_str().unwrap().starts_with("26......."));
    assert_eq!(json["clashes"], serde_json::json!([[8, 8]]));
    assert_eq!(json["layout"]["rows"], 9);
    assert!(json["layout"]["pitch"].as_f64().unwrap() > 39.0);
}

#[test]
fn the_read_command_refuses_non_boards_clearly() {
    let out = autoplay().args(["read", "sudoku"]).arg(repo().join("fixtures/flood/5x5c3-tile32.png")).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A Flood-It board is a lattice of cells, but no Sudoku: no grid of lines, and no digit in its cells.
    let named = stderr.contains("no grid found") || stderr.contains("no Sudoku found");
    assert!(!out.status.success() && named && !stderr.contains("panicked"), "{stderr}");
    let out = autoplay()
        .args(["read", "sudoku", "--theme", "nope"])
        .arg(repo().join("fixtures/sudoku/2x2-tile48.png"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no theme 'nope'"));
}

#[test]
fn the_calibrate_command_learns_a_theme_that_reads() {
    let dir = tempfile::tempdir().unwrap();
    let shot = repo().join("fixtures/sudoku/calibrate-4x4-tile48.png");
    let id = std::fs::read_to_string(shot.with_extension("id")).unwrap();
    let out = autoplay()
        .args(["--calibration"])
        .arg(dir.path())
        .args(["calibrate", "sudoku"])
        .arg(&shot)
        .args(["--truth", id.trim(), "--theme", "mine"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.path().join("sudoku/mine.toml").exists());
    let out = autoplay()
        .args(["--calibration"])
        .arg(dir.path())
        .args(["read", "sudoku"])
        .arg(repo().join("fixtures/sudoku/4x4-tile56.png"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A wrong truth is refused.
    let out = autoplay()
        .args(["--calibration"])
        .arg(dir.path())
        .args(["calibrate", "sudoku"])
        .arg(&shot)
        .args(["--truth", "3x3:a"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn digits_in_seven_unlisted_fonts_read_exactly_with_no_calibration() {
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let pngs: Vec<std::path::PathBuf> = common::fixture_shots("sudoku-fonts").into_iter().map(|(_, p)| p).collect();
    assert!(pngs.len() >= 7, "{} fixtures", pngs.len());
    let mut failures = Vec::new();
    for png in &pngs {
        let name = png.file_stem().unwrap().to_string_lossy().into_owned();
        let truth = std::fs::read_to_string(png.with_extension("txt")).unwrap();
        let (all, givens) = truth.split_once("\n\n").unwrap_or_else(|| panic!("{name}: truth\n{truth}"));
        let started = std::time::Instant::now();
        match discover::read(&load_image(png).unwrap(), &shapes) {
            Ok(r) => {
                let (board, given) = (r.grid.board_text(), r.grid.givens_text());
                let same = |a: &str, b: &str| a.trim_end() == b.trim_end();
                if same(&board, all) && same(&given, givens) {
                    eprintln!("{name}: read in {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
                } else {
                    failures.push(format!("{name}: read\n{board}\ngivens\n{given}\nbut the truth is\n{truth}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e:#}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} fonts failed:\n{}", failures.len(), pngs.len(), failures.join("\n"));
}

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
    let themes = autoplay::clients::sudoku::theme::load_themes(&root, None).unwrap();
    let shapes = DigitShapes::load(&root).unwrap();
    for (name, png) in fixture_shots("sudoku-clients") {
        let truth = truth_of(&png);
        let reading = autoplay::clients::sudoku::read_any(&load_image(&png).unwrap(), &themes, Ok(&shapes))
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
    use autoplay::clients::sudoku::SudokuScreen;
    use autoplay::game::{Client, Screen};
    let mut game = SudokuScreen::load(&repo().join("calibration"), None).unwrap().client();
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
/// board greyed out after the win is no Sudoku either. In the 740×686 window, the thick box lines alone once passed
/// for a terminal's boxes of characters (their thin lines inside the boxes tell them from one), and the picker's
/// digits were read as the board's: the bot took the click for one that entered a digit by itself.
#[test]
fn a_board_partly_covered_is_refused_with_no_calibration() {
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    for name in ["number-picker-open", "number-picker-open-740x686"] {
        let png = repo().join("fixtures/sudoku-gnome/refused").join(format!("{name}.png"));
        let covered = load_image(&png).unwrap();
        let error = format!("{:#}", discover::read(&covered, &shapes).expect_err("a covered board was read"));
        assert!(error.contains("lines are missing around") && error.contains("covers part of the board"), "{error}");
        assert!(!error.contains("drawn with characters"), "{name}: taken for a terminal's grid: {error}");
    }
    let finished = load_image(&repo().join("fixtures/sudoku-gnome/refused/finished.png")).unwrap();
    assert!(discover::read(&finished, &shapes).is_err(), "the greyed-out board was read");
}

/// KSudoku's number pad (cream buttons 1–9 stacked left of the board) and the web page's (a 3×3 block) are found
/// with no calibration, each digit's button where it is; sgt-solo, GNOME Sudoku and the web page without its pad
/// show none (GNOME's clock has digits, not 1–9).
#[test]
fn a_number_pad_beside_the_board_is_found_and_none_where_there_is_none() {
    use autoplay::clients::sudoku::number_pad;
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
    use autoplay::clients::sudoku::{read, read_any, theme::GridCue, SudokuScreen, SudokuTheme};
    use autoplay::game::Screen;
    let root = tempfile::tempdir().unwrap();
    std::fs::copy(repo().join("calibration/fonts.toml"), root.path().join("fonts.toml")).unwrap();
    let start = repo().join("fixtures/sudoku-clients/web-seed1.png");
    let target = autoplay::calibration::ThemeTarget { root: root.path(), name: "web", replace: false };
    SudokuScreen::calibrate(&target, &load_image(&start).unwrap(), &truth_of(&start)).unwrap();
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
/// the bot having typed a 4 at row 7, column 6 under load), the tint's edges passed for a 4×4 grid of lines, and read
/// alone the picture was taken for that; the play loop then planned a 4×4 Sudoku. Read as the same window read again
/// (with the layout of the picture before it), it is read on the grid found before and is the 9×9 board with the 4.
/// Since grids stretched by their window are looked for, the grid's lines (joined by the tint's edges into a shape
/// not square) are no longer passed over, and the picture read alone is the 9×9 grid too.
#[test]
fn a_window_read_again_is_read_on_the_grid_the_picture_before_showed() {
    use autoplay::capture::Frame;
    use autoplay::clients::sudoku::SudokuScreen;
    use autoplay::game::{Client, Screen};
    const BEFORE: &str =
        "167283459\n835941726\n942765138\n781532964\n354698271\n629417385\n59632.817\n41.8.6..2\n2.8...6..\n";
    let dir = repo().join("fixtures/sudoku-clients/read-again");
    let frame = |name: &str| Frame::from_image(load_image(&dir.join(name)).unwrap());
    let mut game = SudokuScreen::load(&repo().join("calibration"), None).unwrap().client();
    let before = game.read(&frame("ksudoku-before.png"), None).unwrap();
    assert_eq!(before.board.board_text(), BEFORE);
    let shapes = DigitShapes::load(&repo().join("calibration")).unwrap();
    let alone = discover::read(&load_image(&dir.join("ksudoku-after.png")).unwrap(), &shapes).unwrap();
    assert_eq!(alone.grid.size, 9, "read alone");
    let after = game.read(&frame("ksudoku-after.png"), Some(&before.layout)).unwrap();
    assert_eq!(after.board.board_text(), BEFORE.replace("59632.817", "596324817"));
    assert_eq!(after.board.given, before.board.given, "the givens of the reading before stand");
}

/// GNOME Sudoku's screenshots (fixtures/sudoku-gnome/): the givens labelled by hand, the player's digits from
/// NAME.entered; fixtures, theme and checks of their own, beside sgt-solo's above.
mod gnome {
    use std::path::{Path, PathBuf};

    use crate::common::{fixture_shots, repo};
    use autoplay::clients::sudoku::{self as screen, theme::load_themes, SudokuTheme};
    use autoplay::games::sudoku::SudokuGrid;
    use autoplay::games::sudoku::{self as sudoku_solver, Grid};
    use autoplay::imageio::load_image;

    struct Fixture {
        name: String,
        png: PathBuf,
        truth: SudokuGrid,
    }

    /// The truth of a shot: its givens (NAME.truth, board text) and the player's digits (NAME.entered, if any).
    fn truth_of(png: &Path) -> SudokuGrid {
        let mut truth =
            SudokuGrid::parse_givens(&std::fs::read_to_string(png.with_extension("truth")).unwrap()).unwrap();
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
        let get = |part: &str| {
            all.iter().find(|f| f.name.ends_with(part)).unwrap_or_else(|| panic!("no fixture named *{part}"))
        };
        // The labelled givens have exactly one solution (a strong check of a hand-labelled truth).
        for f in &all {
            let givens: Vec<u8> =
                f.truth.cells.iter().zip(&f.truth.given).map(|(&v, &g)| if g { v } else { 0 }).collect();
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
        let pitch = |name: &str| screen::read(&load_image(&get(name).png).unwrap(), &themes()).unwrap().layout.pitch_y;
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
}

/// After only the click of an entry, a window that does not read as a board says whether the click entered a
/// digit by the reason it does not: KSudoku's number pad put its selected 1 in a column that held a given 1 (the
/// marks are all found and make no legal Sudoku: entered; the shots are the windows the play loop saw, before the
/// click and after it, read as in play with the layout of the reading before), while a picture with no Sudoku in
/// it shows nothing entered. GNOME Sudoku's number picker, opened over the top-left cells by a click there (a
/// busy desktop's play, recorded), hides the board's top-left lines, and the search finds a smaller lattice of
/// part of the board and the picker whose marks make no Sudoku: marks on another lattice than the board's show
/// nothing entered (the bot had taken the click for one that entered a digit, and pointed at the next cell).
#[test]
fn a_click_is_shown_to_have_entered_a_digit_by_why_the_board_does_not_read() {
    use autoplay::capture::Frame;
    use autoplay::clients::sudoku::SudokuScreen;
    use autoplay::game::{Answer, Client, Screen, Shown};
    use autoplay::games::sudoku::Entry;
    let frame = |path: &str| Frame::from_image(load_image(&repo().join("fixtures").join(path)).unwrap());
    let mv = Entry { row: 0, col: 2, value: 3 };
    let screen = || SudokuScreen::load(&repo().join("calibration"), None).unwrap();
    let mut game = screen().client();
    let first = game.read(&frame("sudoku-clients/unread/ksudoku-before.png"), None).unwrap();
    let clicked = frame("sudoku-clients/unread/ksudoku-pad-digit-breaks-a-column.png");
    let mut gnome = screen().client();
    let gnome_first = gnome.read(&frame("sudoku-clients/unread/gnome-before.png"), None).unwrap();
    let picker = frame("sudoku-clients/unread/gnome-picker-over-the-clicked-corner.png");
    let no_sudoku = frame("flood/5x5c3-tile32.png");
    for (shot, game, picture, layout, entered) in [
        ("KSudoku", &mut game, &clicked, &first.layout, true),
        ("GNOME Sudoku's picker", &mut gnome, &picker, &gnome_first.layout, false),
        ("a Flood-It board", &mut screen().client(), &no_sudoku, &first.layout, false),
    ] {
        let hint = (shot != "a Flood-It board").then_some(layout);
        let error = match game.read(picture, hint) {
            Ok(reading) => panic!("{shot}: read as\n{}", reading.board),
            Err(error) => error,
        };
        let answer = game.shown(Shown::ClickUnread { layout, mv: &mv, error: &error }).unwrap();
        assert_eq!(matches!(answer, Answer::Entered), entered, "{shot}: {error:#}");
    }
}

/// A client drawing the player's digits as a seven-segment display (fixtures/tables/sudoku_tk_segments.py): its 4 is
/// no digit of the fonts, and its 1 is two strokes apart, each too short for a digit. Where the bot typed the digit,
/// the mark that appears is that digit (the strokes stacked there are one digit, not pencil marks), and it still
/// reads so once the bot has typed elsewhere; a reader that typed nothing there cannot read the picture.
#[test]
fn a_digit_drawn_in_strokes_where_the_bot_typed_it_is_that_digit_for_the_rest_of_the_game() {
    use autoplay::capture::Frame;
    use autoplay::clients::sudoku::SudokuScreen;
    use autoplay::game::{Client, Screen};
    use autoplay::games::sudoku::Entry;
    let frame =
        |name: &str| Frame::from_image(load_image(&repo().join("fixtures/sudoku-clients/typed").join(name)).unwrap());
    let screen = || SudokuScreen::load(&repo().join("calibration"), None).unwrap();
    let mut game = screen().client();
    let start = game.read(&frame("segments-start.png"), None).unwrap();
    assert_eq!(start.board.cells[..9], [0, 0, 3, 0, 2, 0, 6, 0, 0], "\n{}", start.board);
    let (four, one) = (Entry { row: 0, col: 0, value: 4 }, Entry { row: 0, col: 5, value: 1 });
    game.completing(&four);
    let after_four = game.read(&frame("segments-typed-4.png"), Some(&start.layout)).unwrap();
    assert_eq!(after_four.board.cells[..9], [4, 0, 3, 0, 2, 0, 6, 0, 0], "\n{}", after_four.board);
    assert!(!after_four.board.given[0], "a digit the bot typed is no given");
    game.completing(&one);
    let after_one = game.read(&frame("segments-typed-1.png"), Some(&after_four.layout)).unwrap();
    assert_eq!(after_one.board.cells[..9], [4, 0, 3, 0, 2, 1, 6, 0, 0], "\n{}", after_one.board);
    let mut fresh = screen().client();
    match fresh.read(&frame("segments-typed-1.png"), None) {
        Ok(reading) => assert_ne!(reading.board.cells[..9], after_one.board.cells[..9], "\n{}", reading.board),
        Err(error) => assert!(format!("{error:#}").contains("no digit of the known fonts"), "{error:#}"),
    }
}
