//! Live Sudoku: a real Xvfb, openbox and sgt-solo window; the bot fills the grid, correcting a wrong digit the
//! "player" typed first, and the final window (captured independently with xwd) shows the unique solution of
//! the game's givens with no clash.

mod common;

use std::process::Command;

use autoplay::games::sudoku::screen::{play::solve_givens, read, sgt_id::parse_id, theme::load_themes};
use common::desktop::Desktop;
use common::repo;
use image::RgbaImage;

const SGT_SOLO: &str = "/usr/games/sgt-solo";
/// sgt-solo's colour for clashing digits (measured; the calibration holds it too).
const CLASH_RED: [u8; 3] = [0xff, 0x00, 0x00];

fn autoplay() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    command.env("AUTOPLAY_CALIBRATION", repo().join("calibration"));
    command
}

fn window_image(desktop: &Desktop, window: &str) -> RgbaImage {
    let (w, h, rgb) = desktop.window_pixels(window);
    RgbaImage::from_fn(w as u32, h as u32, |x, y| {
        let i = (y as usize * w + x as usize) * 3;
        image::Rgba([rgb[i], rgb[i + 1], rgb[i + 2], 255])
    })
}

fn play_sudoku(params_and_seed: &str, env: &[(&str, &str)], meddle: bool) {
    let out = Command::new(SGT_SOLO).args(["--generate", "1", params_and_seed]).output().expect("sgt-solo must be installed");
    let truth = parse_id(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let solution = solve_givens(&truth).unwrap();
    let mut desktop = Desktop::start();
    desktop.spawn(SGT_SOLO, &[params_and_seed], env);
    let window = desktop.wait_for_window("Solo");
    let themes = load_themes(&repo().join("calibration"), None).unwrap();

    if meddle {
        // The player types a wrong digit into the first empty cell.
        let before = read(&window_image(&desktop, &window), &themes).unwrap();
        let cell = truth.cells.iter().position(|&v| v == 0).unwrap();
        let wrong = solution[cell] % truth.size as u8 + 1;
        let (x, y) = before.layout.centre(cell / truth.size, cell % truth.size);
        let key = autoplay::games::sudoku::screen::play::key_for(wrong).to_string();
        desktop.run("xdotool", &["mousemove", "--window", &window, &x.to_string(), &y.to_string(), "click", "1"]);
        desktop.run("xdotool", &["key", &key]);
        std::thread::sleep(std::time::Duration::from_millis(400));
        let meddled = read(&window_image(&desktop, &window), &themes).unwrap();
        assert_eq!(meddled.grid.cells[cell], wrong, "the wrong digit should be on the board before the bot starts");
    }

    let out = autoplay().args(["play", "sudoku", "--json"]).env("DISPLAY", &desktop.display).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{params_and_seed}: {stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["won"], true);
    assert_eq!(report["replans"], 0, "{stderr}");

    std::thread::sleep(std::time::Duration::from_millis(600));
    let image = window_image(&desktop, &window);
    let after = read(&image, &themes).unwrap();
    assert_eq!(after.grid.cells, solution, "{params_and_seed}: the window does not show the solution");
    assert_eq!(after.grid.given, truth.given, "the givens are the game's");
    assert!(!image.pixels().any(|p| [p[0], p[1], p[2]] == CLASH_RED), "a clash is still shown");
    let empty_at_start = truth.cells.iter().filter(|&&v| v == 0).count();
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "one entry per empty cell");
}

#[test]
fn fills_a_nine_by_nine_grid_and_corrects_the_players_wrong_digit() {
    play_sudoku("3x3dt#live-nine", &[], true);
}

#[test]
fn fills_a_six_by_six_grid_at_another_tile_size() {
    play_sudoku("2x3dt#live-six", &[("SOLO_TILESIZE", "40")], false);
}
