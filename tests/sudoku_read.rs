//! Replays every captured sgt-solo screenshot: the reader must give exactly its truth (the givens from the game
//! ID, and the player's digits from NAME.entered), refuse pictures that are not a Sudoku, and calibration must
//! re-learn templates that read every fixture.

mod common;

use std::path::PathBuf;

use autoplay::games::sudoku::screen::{self, theme::load_themes, SudokuTheme};
use autoplay::games::sudoku::SudokuGrid;

/// The givens of an sgt-solo game ID.
fn parse_id(id: &str) -> anyhow::Result<SudokuGrid> {
    SudokuGrid::parse_givens(id)
}
use autoplay::imageio::load_image;
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
    let game = <autoplay::games::sudoku::Sudoku as autoplay::game::ScreenGame>::load(&repo().join("calibration"), None)
        .unwrap();
    let window = screen::bench::bench_read(&image, &game, 50).unwrap();
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
    let whole = screen::bench::bench_read(&screen, &game, 10).unwrap();
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

fn autoplay() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("autoplay").unwrap();
    command.env("AUTOPLAY_CALIBRATION", repo().join("calibration"));
    command
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

/// Live: real sgt-solo windows at tile sizes and seeds no fixture has, captured by the bot and read back as the
/// game's own truth.
#[test]
fn live_windows_at_unseen_tile_sizes_read_as_their_truth() {
    let mut desktop = common::desktop::Desktop::start();
    for (params, tile) in
        [("3x3#live-a", "44"), ("2x3#live-b", "30"), ("3x4#live-c", "52"), ("4x4#live-d", "33"), ("2x2#live-e", "60")]
    {
        let id = std::process::Command::new("/usr/games/sgt-solo").args(["--generate", "1", params]).output().unwrap();
        let truth = parse_id(&String::from_utf8(id.stdout).unwrap()).unwrap();
        desktop.spawn("/usr/games/sgt-solo", &[params], &[("SOLO_TILESIZE", tile)]);
        let window = desktop.wait_for_window("Solo");
        let capture =
            autoplay().args(["capture", "--window", "Solo"]).env("DISPLAY", &desktop.display).output().unwrap();
        assert!(capture.status.success(), "{}", String::from_utf8_lossy(&capture.stderr));
        let out = autoplay().args(["read", "sudoku", "-", "--json"]).write_stdin(capture.stdout).output().unwrap();
        assert!(out.status.success(), "{params} tile {tile}: {}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["givens"].as_str().unwrap(), truth.givens_text(), "{params} tile {tile}");
        assert_eq!(json["box"], serde_json::json!([truth.box_rows, truth.box_cols]), "{params}");
        desktop.run("xdotool", &["windowclose", &window]);
        desktop.run("xdotool", &["windowkill", &window]);
        common::desktop::wait_until("the Solo window to close", std::time::Duration::from_secs(20), || {
            !desktop.visible_windows("Solo").contains(&window)
        });
    }
}
