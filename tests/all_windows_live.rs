//! Windows as the desktop names them: a program that sets only the old ICCCM `WM_NAME` title (xterm, and the
//! curses program in it: Debian's `sudoku`) is listed by `autoplay windows` with that title, and found by it and
//! by its class.

mod common;

use std::process::Command;

use common::desktop::Desktop;

fn autoplay(desktop: &Desktop, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_autoplay")).args(args).env("DISPLAY", &desktop.display).output().unwrap()
}

#[test]
fn a_window_with_only_the_old_wm_name_is_listed_and_found_by_its_title_and_class() {
    let mut desktop = Desktop::start();
    desktop.spawn("xterm", &["-geometry", "80x30", "-e", "/usr/games/sudoku"], &[]);
    let window = desktop.wait_for_window("sudoku");
    // The window really has no _NET_WM_NAME: only WM_NAME, a STRING.
    let props = desktop.run("xprop", &["-id", &window, "WM_NAME", "_NET_WM_NAME"]);
    let props = String::from_utf8_lossy(&props.stdout);
    assert!(props.contains("WM_NAME(STRING) = \"sudoku\"") && props.contains("_NET_WM_NAME:  not found"), "{props}");

    let out = autoplay(&desktop, &["windows"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    let line = listed.lines().find(|l| l.contains(&window)).unwrap_or_else(|| panic!("{listed}"));
    assert!(line.trim_end().ends_with(" sudoku"), "{listed}");

    for name in ["sudoku", "xterm"] {
        let shot = tempfile::NamedTempFile::with_suffix(".png").unwrap();
        let out = autoplay(&desktop, &["capture", "--window", name, "-o", &shot.path().display().to_string()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let image = image::open(shot.path()).unwrap();
        assert!(image.width() > 200 && image.height() > 200, "{name}: {}x{}", image.width(), image.height());
    }
}

/// Debian's `sudoku` (curses) in xterm, in DejaVu Sans Mono, played with no calibration for it: the grid is read
/// from its lines of characters, a click does not choose a cell there (the digit is not typed: the cursor shows
/// elsewhere), and the moves are made with the arrow keys from where the reverse-video cursor is, to the win.
#[test]
fn a_terminal_sudoku_is_won_by_its_keys() {
    a_terminal_sudoku_is_won(&["-fa", "DejaVu Sans Mono", "-fs", "12"]);
}

/// The same in xterm's own default font (the 6×13 bitmap `fixed`), where a plain digit the player typed is as
/// near to other digits of the fonts as to its own: the board names it.
#[test]
fn a_terminal_sudoku_in_the_default_bitmap_font_is_won() {
    a_terminal_sudoku_is_won(&[]);
}

fn a_terminal_sudoku_is_won(font: &[&str]) {
    let mut desktop = Desktop::start();
    let board = common::repo().join("fixtures/sudoku-terminal/board.txt");
    let board = board.to_str().unwrap();
    let args: Vec<&str> =
        font.iter().copied().chain(["-geometry", "80x30", "-e", "/usr/games/sudoku", "-n", board]).collect();
    desktop.spawn("xterm", &args, &[]);
    desktop.wait_for_window("sudoku");
    let out = autoplay(&desktop, &["play", "sudoku", "--window", "sudoku", "--json"]);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["won"], true, "{log}");
    assert!(log.contains("the keyboard cursor moved with the arrow keys"), "{log}");
    // The window shows the board full, every row a permutation of 1–9.
    let shot = tempfile::NamedTempFile::with_suffix(".png").unwrap();
    let path = shot.path().display().to_string();
    assert!(autoplay(&desktop, &["capture", "--window", "sudoku", "-o", &path]).status.success());
    let read = autoplay(&desktop, &["read", "sudoku", &path]);
    let text = String::from_utf8_lossy(&read.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| l.len() == 9).take(9).collect();
    assert_eq!(rows.len(), 9, "{text}");
    for row in rows {
        let mut digits: Vec<char> = row.chars().collect();
        digits.sort_unstable();
        assert_eq!(digits.iter().collect::<String>(), "123456789", "{text}");
    }
}
