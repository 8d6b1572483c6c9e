//! Playing Sudoku live: on Xvfb with a window manager, real game windows (sgt-solo, GNOME Sudoku, KSudoku, the
//! project's web Sudoku in Chromium, Debian's curses `sudoku` in xterm) played to the win by the bot, with the shipped
//! calibration, with none, or with a theme learned from one labelled shot. The bot corrects a wrong digit the "player"
//! typed first, waits for a page that shows each digit late on a busy desktop, turns to a number pad where the cells
//! take no keys, and to the arrow keys in a terminal; the outcome is checked independently of the bot's word (the
//! window captured with xwd and read, the game's own dialog, title or saved game).

mod common;

use std::process::Command;
use std::time::Duration;

use autoplay::clients::sudoku::{read, theme::load_themes};
use autoplay::games::sudoku::{solve_givens, SudokuGrid};
use common::desktop::{wait_until, Desktop};
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
    let out =
        Command::new(SGT_SOLO).args(["--generate", "1", params_and_seed]).output().expect("sgt-solo must be installed");
    let truth = SudokuGrid::parse_givens(&String::from_utf8_lossy(&out.stdout)).unwrap();
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
        let key = autoplay::clients::sudoku::actions::key_for(wrong).to_string();
        desktop.run("xdotool", &["mousemove", "--window", &window, &x.to_string(), &y.to_string(), "click", "1"]);
        desktop.run("xdotool", &["key", &key]);
        wait_until("the player's wrong digit to show", Duration::from_secs(20), || {
            read(&window_image(&desktop, &window), &themes).is_ok_and(|r| r.grid.cells[cell] == wrong)
        });
        let meddled = read(&window_image(&desktop, &window), &themes).unwrap();
        assert_eq!(meddled.grid.cells[cell], wrong, "the wrong digit should be on the board before the bot starts");
    }

    let out = autoplay().args(["play", "sudoku", "--json"]).env("DISPLAY", &desktop.display).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{params_and_seed}: {stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["won"], true);
    assert_eq!(report["replans"], 0, "{stderr}");

    // The bot's last digit is drawn, and the game's flash at the end is over.
    wait_until(
        &format!("{params_and_seed}: the window to show the solution; the bot said:\n{stderr}"),
        Duration::from_secs(20),
        || read(&window_image(&desktop, &window), &themes).is_ok_and(|r| r.grid.cells == solution),
    );
    desktop.wait_for_still_picture(&window);
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

const GNOME_SUDOKU: &str = "/usr/games/gnome-sudoku";

/// Visible windows of GNOME Sudoku (by window class), found with xdotool rather than the bot's own listing.
fn gnome_sudoku_windows(desktop: &Desktop) -> Vec<String> {
    let out = desktop.run("xdotool", &["search", "--onlyvisible", "--class", "gnome-sudoku"]);
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

/// GNOME Sudoku cannot load a chosen puzzle: it is started with a fresh profile, Easy is chosen in its first
/// window, and its puzzle is read (the givens must have exactly one solution). The player types a wrong digit
/// first; the bot corrects it and fills the grid until the game itself declares the puzzle solved: it opens its
/// "well done" dialog and greys the board out, both seen here through xdotool and xwd.
#[test]
fn gnome_sudoku_is_read_solved_and_filled_until_the_game_says_it_is_solved() {
    let mut desktop = Desktop::start();
    let profile = tempfile::tempdir().unwrap();
    let home = profile.path().to_str().unwrap().to_owned();
    let (data, config) = (format!("{home}/data"), format!("{home}/config"));
    desktop.spawn(
        GNOME_SUDOKU,
        &[],
        &[("HOME", &home), ("XDG_DATA_HOME", &data), ("XDG_CONFIG_HOME", &config), ("GSETTINGS_BACKEND", "memory")],
    );
    let chooser = desktop.wait_for_window("Select Difficulty");
    desktop.run("xdotool", &["windowactivate", "--sync", &chooser]);
    desktop.run("xdotool", &["key", "Return"]); // Easy is the chosen row
    let window = desktop.wait_for_window("Sudoku");
    let themes = load_themes(&repo().join("calibration"), None).unwrap();
    let start = {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            match read(&window_image(&desktop, &window), &themes) {
                Ok(reading) => break reading,
                Err(e) if std::time::Instant::now() > deadline => panic!("the new puzzle cannot be read: {e:#}"),
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(200)),
            }
        }
    };
    assert_eq!(start.theme, "gnome");
    let puzzle = autoplay::games::sudoku::Grid::from_cells(3, 3, start.grid.cells.clone()).unwrap();
    assert_eq!(
        autoplay::games::sudoku::count_solutions(&puzzle, 2),
        1,
        "the puzzle as read has one solution:\n{}",
        start.grid
    );
    let solution = solve_givens(&start.grid).unwrap();

    // The player types a wrong digit into the first empty cell (the number picker opens and closes again).
    let cell = start.grid.cells.iter().position(|&v| v == 0).unwrap();
    let wrong = solution[cell] % 9 + 1;
    let (x, y) = start.layout.centre(cell / 9, cell % 9);
    let (_, _, unclicked) = desktop.window_pixels(&window);
    desktop.run("xdotool", &["mousemove", "--window", &window, &x.to_string(), &y.to_string(), "click", "1"]);
    wait_until("the clicked cell to be chosen (the window's picture to change)", Duration::from_secs(20), || {
        desktop.window_pixels(&window).2 != unclicked
    });
    desktop.wait_for_still_picture(&window);
    desktop.run("xdotool", &["key", &wrong.to_string()]);
    wait_until("the wrong digit to show and the number picker to close", Duration::from_secs(20), || {
        gnome_sudoku_windows(&desktop).len() == 1
            && read(&window_image(&desktop, &window), &themes).is_ok_and(|r| r.grid.cells[cell] == wrong)
    });
    let meddled = read(&window_image(&desktop, &window), &themes).unwrap();
    assert_eq!(meddled.grid.cells[cell], wrong, "the wrong digit should be on the board before the bot starts");
    assert_eq!(gnome_sudoku_windows(&desktop).len(), 1, "only the game's window before the bot plays");

    // The game is recorded; a game with a re-plan keeps its recording (named in the failure) to be replayed.
    let recording = std::env::temp_dir().join(format!("autoplay-gnome-sudoku-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&recording);
    let out = autoplay()
        .args(["play", "sudoku", "--json", "--record"])
        .arg(&recording)
        .env("DISPLAY", &desktop.display)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "recorded in {}:\n{stderr}", recording.display());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["won"], true);
    assert_eq!(report["replans"], 0, "recorded in {}:\n{stderr}", recording.display());
    let _ = std::fs::remove_dir_all(&recording);
    let empty_at_start = start.grid.cells.iter().filter(|&&v| v == 0).count();
    assert_eq!(
        report["moves"].as_u64().unwrap() as usize,
        empty_at_start,
        "one entry per empty cell, the wrong one included"
    );

    // The game's own verdict: a second window (its dialog) and the board greyed out, no white cell left.
    let greyed = |image: &RgbaImage| {
        (0..81).all(|i| {
            let (x, y) = start.layout.centre(i / 9, i % 9);
            let p = image.get_pixel(x as u32, y as u32);
            p[0] < 128 && p[1] < 128 && p[2] < 128
        })
    };
    wait_until(
        &format!("the game's 'well done' dialog and its greyed-out board; the bot said:\n{stderr}"),
        Duration::from_secs(20),
        || gnome_sudoku_windows(&desktop).len() >= 2 && greyed(&window_image(&desktop, &window)),
    );
    let windows = gnome_sudoku_windows(&desktop);
    assert_eq!(windows.len(), 2, "the game should have opened its 'well done' dialog: {windows:?}");
    let image = window_image(&desktop, &window);
    for row in 0..9 {
        for col in 0..9 {
            let (x, y) = start.layout.centre(row, col);
            let p = image.get_pixel(x as u32, y as u32);
            assert!(p[0] < 128 && p[1] < 128 && p[2] < 128, "cell ({row}, {col}) is not greyed out: {p:?}");
        }
    }
}

/// The project's own web Sudoku (`fixtures/tables/sudoku-web.html`): text inputs in a CSS grid, light lines on a
/// dark gradient, no thicker box lines, the player's digits in another colour on a highlighted cell. The truth
/// is what the page writes into its hidden `<pre id="board">`.
fn web_sudoku_truth(query: &str) -> (String, SudokuGrid) {
    let (page, text) = common::page_and_board_text("sudoku-web.html", query);
    let givens = text.split("\n\n").nth(1).expect("the givens after a blank line");
    (page, SudokuGrid::parse_givens(givens).unwrap())
}

/// The web page at `query` in Chromium on a desktop of its own, sized `size`: the desktop, the page's window and
/// its givens.
struct WebSudoku {
    desktop: Desktop,
    window: String,
    truth: SudokuGrid,
}

fn open_web_sudoku(query: &str, size: &str) -> WebSudoku {
    let (page, truth) = web_sudoku_truth(query);
    let mut desktop = Desktop::start();
    desktop.open_chromium_app(&page, size, &[]);
    let window = desktop.wait_for_window("Sudoku");
    WebSudoku { desktop, window, truth }
}

/// `autoplay play sudoku ARGS --json` on `desktop`: the report and what it said on standard error.
fn play_json(desktop: &Desktop, mut command: Command, args: &[&str]) -> (serde_json::Value, String) {
    let out =
        command.args(["play", "sudoku"]).args(args).arg("--json").env("DISPLAY", &desktop.display).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// The page's title, once it says the game is solved (or after 20 seconds, whatever it says): "… solved", or "…
/// solved, N typed, M wrong".
fn page_title(desktop: &Desktop, window: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let title =
            String::from_utf8_lossy(&desktop.run("xdotool", &["getwindowname", window]).stdout).trim().to_owned();
        if title.ends_with("solved") || title.ends_with(" wrong") || std::time::Instant::now() > deadline {
            return title;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// A Sudoku web page the reader was not written for, with the shipped calibration and no calibrate step: read
/// exactly, won (the page's own title says so), and read exactly again at the end, the player's digits in their
/// other colour, one on the highlighted cell the bot typed last. A second page of the same title makes the
/// default window choice ambiguous: both are named and `--window` is asked for.
#[test]
fn a_web_sudoku_with_light_lines_on_dark_is_read_and_won_with_no_calibration() {
    let WebSudoku { mut desktop, window, truth } = open_web_sudoku("seed=3", "600,640");
    let solution = solve_givens(&truth).unwrap();
    let work = tempfile::tempdir().unwrap();
    let shot = work.path().join("shot.png");
    let read_window = |desktop: &Desktop| {
        let capture = autoplay()
            .args(["capture", "--window", &format!("id:{window}"), "-o"])
            .arg(&shot)
            .env("DISPLAY", &desktop.display)
            .output()
            .unwrap();
        assert!(capture.status.success(), "{}", String::from_utf8_lossy(&capture.stderr));
        let out = autoplay().args(["read", "sudoku", "--json"]).arg(&shot).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let before = read_window(&desktop);
    assert_eq!(before["theme"], "found in the picture");
    assert_eq!(before["givens"].as_str().unwrap(), truth.givens_text());
    assert_eq!(before["board"].as_str().unwrap(), truth.board_text());

    let (report, stderr) = play_json(&desktop, autoplay(), &["--window", &format!("id:{window}")]);
    assert_eq!((report["won"].as_bool(), report["replans"].as_u64()), (Some(true), Some(0)), "{stderr}");
    let empty_at_start = truth.cells.iter().filter(|&&v| v == 0).count();
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "one entry per empty cell");
    assert_eq!(page_title(&desktop, &window), "Sudoku — solved", "{stderr}");
    let after = read_window(&desktop);
    let mut solved = truth.clone();
    solved.cells = solution;
    assert_eq!(after["board"].as_str().unwrap(), solved.board_text());
    assert_eq!(after["givens"].as_str().unwrap(), truth.givens_text(), "the player's digits are told from the givens");

    // Two pages titled "Sudoku": the default title is ambiguous.
    for seed in [4, 5] {
        let (page, _) = web_sudoku_truth(&format!("seed={seed}"));
        desktop.open_chromium_app(&page, "600,640", &[]);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let pages = loop {
        let out = desktop.run("xdotool", &["search", "--onlyvisible", "--name", "^Sudoku$"]);
        let ids: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
        if ids.len() == 2 || std::time::Instant::now() > deadline {
            break ids;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert_eq!(pages.len(), 2, "{pages:?}");
    let out = autoplay().args(["play", "sudoku", "--dry-run"]).env("DISPLAY", &desktop.display).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    for id in &pages {
        assert!(stderr.contains(&format!("id {id}")), "{id} not named: {stderr}");
    }
    assert!(stderr.contains("--window id:N"), "{stderr}");
}

/// Live, on a busy desktop (`scripts/busy.sh 3`): the web page takes each digit at once but shows it 1 to 3 s
/// later (`lag=3000`, varying per entry). The bot waits for every entry, types none twice, and wins with one entry
/// per empty cell and no wrong one; the page's own title says solved and its picture shows the solution.
#[test]
fn a_web_sudoku_showing_each_digit_late_on_a_busy_desktop_is_won_with_no_entry_made_twice() {
    let _busy = common::Busy::start(3);
    let WebSudoku { desktop, window, truth } = open_web_sudoku("seed=2&lag=3000", "600,640");
    let solution = solve_givens(&truth).unwrap();
    let (report, stderr) = play_json(&desktop, autoplay(), &["--window", &format!("id:{window}")]);
    assert_eq!((report["won"].as_bool(), report["replans"].as_u64()), (Some(true), Some(0)), "{stderr}");
    let empty_at_start = truth.cells.iter().filter(|&&v| v == 0).count();
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "one entry per empty cell: {stderr}");
    assert!(!stderr.contains("making it again"), "{stderr}");
    assert_eq!(page_title(&desktop, &window), "Sudoku — solved", "{stderr}");
    let mut solved = truth.clone();
    solved.cells = solution;
    let image = window_image(&desktop, &window);
    let shapes = autoplay::clients::sudoku::discover::DigitShapes::load(&repo().join("calibration")).unwrap();
    let after = autoplay::clients::sudoku::discover::read(&image, &shapes).unwrap();
    assert_eq!(after.grid.board_text(), solved.board_text(), "the window does not show the solution");
}

/// The web page with `pad=1`: its cells take no keys, only its number pad (a 3×3 block of buttons, 7 8 9 on
/// top, in another font) enters digits. The bot's first entry (click and key) leaves the board as it was, so it
/// finds the pad in the window and makes every later entry by clicking the cell and then the pad's digit, and
/// wins (the page's title says so), every digit shown where the page's own text has it.
#[test]
fn a_web_sudoku_that_takes_no_keys_is_won_with_its_number_pad() {
    let WebSudoku { desktop, window, truth } = open_web_sudoku("seed=1&pad=1", "780,640");
    let solution = solve_givens(&truth).unwrap();
    let (report, stderr) = play_json(&desktop, autoplay(), &["--window", &format!("id:{window}")]);
    assert_eq!(report["won"], true, "{stderr}");
    assert!(
        stderr.contains("making moves another way") && stderr.contains("its cell, then the number pad"),
        "{stderr}"
    );
    let empty_at_start = truth.cells.iter().filter(|&&v| v == 0).count();
    // The first entry (typed, then typed again held longer) was not taken, and is not counted; every other is one
    // move.
    assert!(stderr.contains("making it again the same way, holding each button and key 250 ms"), "{stderr}");
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "{stderr}");
    assert_eq!(page_title(&desktop, &window), "Sudoku — solved", "{stderr}");
    let mut solved = truth.clone();
    solved.cells = solution;
    let image = window_image(&desktop, &window);
    let shapes = autoplay::clients::sudoku::discover::DigitShapes::load(&repo().join("calibration")).unwrap();
    let after = autoplay::clients::sudoku::discover::read(&image, &shapes).unwrap();
    assert_eq!(after.grid.board_text(), solved.board_text(), "the window does not show the solution");
}

const KSUDOKU: &str = "/usr/games/ksudoku";

/// KSudoku's visible windows named `name` or starting with it ("Difficulty Level — KSudoku"), found by class:
/// its main window's WM_NAME is empty, so xdotool's `--name` misses it.
fn ksudoku_windows(desktop: &Desktop, name: &str) -> Vec<String> {
    let out = desktop.run("xdotool", &["search", "--onlyvisible", "--class", "ksudoku"]);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|id| {
            String::from_utf8_lossy(&desktop.run("xdotool", &["getwindowname", id]).stdout).trim_end().starts_with(name)
        })
        .map(str::to_owned)
        .collect()
}

fn wait_for_ksudoku_window(desktop: &Desktop, name: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        if let Some(id) = ksudoku_windows(desktop, name).into_iter().next() {
            return id;
        }
        assert!(std::time::Instant::now() < deadline, "KSudoku's window '{name}' did not appear");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Presses Return in KSudoku's dialog `name` and waits until it has gone.
fn dismiss_ksudoku_dialog(desktop: &Desktop, name: &str) {
    let dialog = wait_for_ksudoku_window(desktop, name);
    desktop.run("xdotool", &["windowactivate", "--sync", &dialog]);
    wait_until(&format!("KSudoku's dialog '{name}' to take the keyboard"), Duration::from_secs(20), || {
        desktop.focused_window() == dialog
    });
    desktop.run("xdotool", &["key", "Return"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !ksudoku_windows(desktop, name).is_empty() {
        assert!(std::time::Instant::now() < deadline, "KSudoku's dialog '{name}' stayed open");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// A game KSudoku saved: its givens, its solution and the board after the moves of its history, row by row.
struct SavedKsudoku {
    givens: Vec<u8>,
    solution: Vec<u8>,
    board: Vec<u8>,
    had_help: bool,
}

/// Reads a saved game: `<values>` (givens) and `<solution>` hold 81 symbols column by column, `_` for empty and
/// `b`..`j` for 1..9; each `<simple-event index=".." value=".."/>` of the history sets a cell (same order).
fn parse_saved_ksudoku(xml: &str) -> SavedKsudoku {
    let element = |name: &str| {
        let start = xml.find(&format!("<{name}>")).unwrap_or_else(|| panic!("no <{name}> in the saved game:\n{xml}"))
            + name.len()
            + 2;
        xml[start..start + 81].to_owned()
    };
    let by_rows = |symbols: &str| -> Vec<u8> {
        let column_major: Vec<u8> = symbols.bytes().map(|b| if b == b'_' { 0 } else { b - b'a' }).collect();
        (0..81).map(|i| column_major[(i % 9) * 9 + i / 9]).collect()
    };
    let givens = by_rows(&element("values"));
    let mut board = givens.clone();
    for event in xml.split("<simple-event").skip(1) {
        let attribute = |name: &str| -> usize {
            let start = event.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            event[start..].split('"').next().unwrap().parse().unwrap()
        };
        let (index, value) = (attribute("index"), attribute("value"));
        board[(index % 9) * 9 + index / 9] = value as u8;
    }
    SavedKsudoku { givens, solution: by_rows(&element("solution")), board, had_help: xml.contains("had-help=\"1\"") }
}

/// Game > Save As (it has no shortcut) into `path`, typed into the file dialog; returns the saved game.
fn save_ksudoku(desktop: &Desktop, main: &str, path: &std::path::Path) -> SavedKsudoku {
    desktop.run("xdotool", &["windowactivate", "--sync", main]);
    wait_until("KSudoku's main window to take the keyboard", Duration::from_secs(20), || {
        desktop.focused_window() == main
    });
    let (_, _, closed) = desktop.wait_for_still_picture(main);
    let windows_before = ksudoku_windows(desktop, "").len();
    desktop.run("xdotool", &["key", "alt+g"]);
    // The Game menu opens: a popup window of KSudoku's appears, or at least the main window's picture changes.
    wait_until("KSudoku's Game menu to open", Duration::from_secs(20), || {
        ksudoku_windows(desktop, "").len() > windows_before || desktop.window_pixels(main).2 != closed
    });
    desktop.run("xdotool", &["key", "a"]);
    let dialog = wait_for_ksudoku_window(desktop, "Save As");
    desktop.run("xdotool", &["windowactivate", "--sync", &dialog]);
    wait_until("KSudoku's 'Save As' dialog to take the keyboard", Duration::from_secs(20), || {
        desktop.focused_window() == dialog
    });
    let (_, _, untyped) = desktop.wait_for_still_picture(&dialog);
    desktop.run("xdotool", &["key", "ctrl+a"]);
    desktop.run("xdotool", &["type", "--delay", "5", path.to_str().unwrap()]);
    // The typed name is shown: the dialog's picture changes, then settles.
    wait_until("the file name typed to show in the 'Save As' dialog", Duration::from_secs(20), || {
        desktop.window_pixels(&dialog).2 != untyped
    });
    desktop.wait_for_still_picture(&dialog);
    desktop.run("xdotool", &["key", "Return"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        if let Ok(xml) = std::fs::read_to_string(path) {
            if xml.contains("</ksudoku>") {
                return parse_saved_ksudoku(&xml);
            }
        }
        assert!(std::time::Instant::now() < deadline, "KSudoku did not save {}", path.display());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// KSudoku, a client the reader was not written for (tiles with gaps and no lines, light digits on a textured
/// board, a number pad beside it): a puzzle generated in the game, read and won with the shipped calibration and
/// no calibrate step, by `autoplay play sudoku` with no window named. A click on a cell enters the pad's digit
/// there, so the bot sees it and chooses cells by pointing from then on. The verdict is the game's own: the
/// game saved at the start gives the givens and the solution, and saved at the end, after its "Information"
/// box, its history replayed on the givens is that solution, with no help used.
#[test]
fn ksudoku_generates_a_puzzle_and_the_bot_wins_it_with_the_shipped_calibration() {
    let mut desktop = Desktop::start();
    let profile = tempfile::tempdir().unwrap();
    let dir = |name: &str| {
        let path = profile.path().join(name);
        std::fs::create_dir_all(&path).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let (home, config, data, cache, runtime) = (dir("home"), dir("config"), dir("data"), dir("cache"), dir("runtime"));
    std::fs::set_permissions(&runtime, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    // A fresh profile: Very Easy, the standard 9×9, and a window large enough to read (its own default is tiny).
    std::fs::write(
        profile.path().join("config/ksudokurc"),
        "[KSudokuGame]\nDifficulty=0\nSelectedPuzzle=0\nSymmetry=1\n\n[MainWindow]\n1280x1024 screen: Width=900\n\
         1280x1024 screen: Height=800\nRestorePositionForNextInstance=false\n",
    )
    .unwrap();
    desktop.spawn(
        KSUDOKU,
        &[],
        &[
            ("HOME", &home),
            ("XDG_CONFIG_HOME", &config),
            ("XDG_DATA_HOME", &data),
            ("XDG_CACHE_HOME", &cache),
            ("XDG_RUNTIME_DIR", &runtime),
            ("QT_QPA_PLATFORM", "xcb"),
        ],
    );
    let main = wait_for_ksudoku_window(&desktop, "KSudoku");
    // Its start screen is drawn once the picture stops changing.
    desktop.wait_for_still_picture(&main);
    desktop.run("xdotool", &["windowmove", "--sync", &main, "0", "0"]);
    desktop.run("xdotool", &["windowactivate", "--sync", &main]);
    wait_until("KSudoku's main window to take the keyboard", Duration::from_secs(20), || {
        desktop.focused_window() == main
    });
    desktop.wait_for_still_picture(&main);
    desktop.run("xdotool", &["key", "alt+a"]); // "Generate A Puzzle" on the start screen
    dismiss_ksudoku_dialog(&desktop, "Difficulty Level");
    let start = save_ksudoku(&desktop, &main, &profile.path().join("start.ksudoku"));
    assert_eq!(start.board, start.givens, "no move before the bot's");
    let puzzle = autoplay::games::sudoku::Grid::from_cells(3, 3, start.givens.clone()).unwrap();
    assert_eq!(autoplay::games::sudoku::count_solutions(&puzzle, 2), 1);
    desktop.run("xdotool", &["windowactivate", "--sync", &main]);
    wait_until("KSudoku's main window to take the keyboard", Duration::from_secs(20), || {
        desktop.focused_window() == main
    });
    desktop.wait_for_still_picture(&main);

    let (report, stderr) = play_json(&desktop, autoplay(), &[]);
    assert_eq!(report["won"], true);
    assert_eq!(report["replans"], 0, "{stderr}");
    let empty_at_start = start.givens.iter().filter(|&&v| v == 0).count();
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "one entry per empty cell");
    assert!(stderr.contains("choosing cells by pointing"), "{stderr}");

    // The game's verdict: its end-of-game box, then the game as it saves it.
    dismiss_ksudoku_dialog(&desktop, "Information");
    let end = save_ksudoku(&desktop, &main, &profile.path().join("end.ksudoku"));
    assert_eq!(end.givens, start.givens);
    assert_eq!(end.board, start.solution, "the game's board is not its solution");
    assert!(!end.had_help, "the game says help was used");
}

/// A client learned from one labelled shot: the web page's opening position, captured live and calibrated with
/// the page's own givens as the truth, gives a theme; the game is then played with only that theme named, and
/// the digits the bot types (in a colour and weight the shot did not show) are read as it goes: won, no re-plan.
#[test]
fn a_web_sudoku_calibrated_from_one_labelled_shot_is_won_with_that_theme() {
    let WebSudoku { desktop, window, truth } = open_web_sudoku("seed=2", "600,640");
    let root = tempfile::tempdir().unwrap();
    std::fs::copy(repo().join("calibration/fonts.toml"), root.path().join("fonts.toml")).unwrap();
    let shot = root.path().join("opening.png");
    let truth_file = root.path().join("opening.truth");
    std::fs::write(&truth_file, truth.givens_text()).unwrap();
    let run = |args: &[&str]| {
        let mut command = autoplay();
        command.env("AUTOPLAY_CALIBRATION", root.path()).env("DISPLAY", &desktop.display).args(args);
        let out = command.output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out
    };
    run(&["capture", "--window", &format!("id:{window}"), "-o", shot.to_str().unwrap()]);
    run(&["calibrate", "sudoku", shot.to_str().unwrap(), "--truth", truth_file.to_str().unwrap(), "--theme", "web"]);
    let theme = std::fs::read_to_string(root.path().join("sudoku/web.toml")).unwrap();
    assert!(theme.contains("grid = \"found\""), "{theme}");

    let mut calibrated = autoplay();
    calibrated.env("AUTOPLAY_CALIBRATION", root.path());
    let (report, stderr) = play_json(&desktop, calibrated, &["--window", &format!("id:{window}"), "--theme", "web"]);
    assert_eq!((report["won"].as_bool(), report["replans"].as_u64()), (Some(true), Some(0)), "{stderr}");
    assert!(stderr.contains("(theme 'web')"), "{stderr}");
    assert_eq!(page_title(&desktop, &window), "Sudoku — solved", "{stderr}");
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
    let out = common::desktop::autoplay(&desktop, &["play", "sudoku", "--window", "sudoku", "--json"]);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["won"], true, "{log}");
    assert!(log.contains("the keyboard cursor moved with the arrow keys"), "{log}");
    // The window shows the board full, every row a permutation of 1–9.
    let shot = tempfile::NamedTempFile::with_suffix(".png").unwrap();
    let path = shot.path().display().to_string();
    assert!(common::desktop::autoplay(&desktop, &["capture", "--window", "sudoku", "-o", &path]).status.success());
    let read = common::desktop::autoplay(&desktop, &["read", "sudoku", &path]);
    let text = String::from_utf8_lossy(&read.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| l.len() == 9).take(9).collect();
    assert_eq!(rows.len(), 9, "{text}");
    for row in rows {
        let mut digits: Vec<char> = row.chars().collect();
        digits.sort_unstable();
        assert_eq!(digits.iter().collect::<String>(), "123456789", "{text}");
    }
}

/// A Sudoku in Java Swing (fixtures/tables/SudokuSwing.java, written from a description of its look alone): labels
/// in grids stretched to fill the frame, so its cells are wider than tall and the board fills its window to the edges;
/// the selected cell yellow, its row, column and box tinted; the player's digits blue. Won with no calibration made
/// for it (the shipped themes are tried first: sgt's matches its black-on-white givens and must give way where it
/// fails), on two puzzles, with one entry per empty cell and no wrong one, by the game's own state.
#[test]
fn a_swing_sudoku_with_stretched_cells_and_a_tinted_selection_is_won_with_no_wrong_entry() {
    let client = common::java::JavaClient::compile("SudokuSwing");
    for seed in ["7", "8"] {
        let mut desktop = Desktop::start();
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state.json");
        let state_path = common::path_str(&state);
        client.spawn(&mut desktop, &["--seed", seed, "--state", &state_path]);
        desktop.wait_for_window("Sudoku \\(Swing\\)");
        solved_with_no_wrong_entry_by_its_state(&desktop, "Sudoku (Swing)", &state, seed);
    }
}

/// Plays the Sudoku with no `--window` once the game has written its state and its window titled `title` is
/// listed, and checks, by the state file the client writes (`{"puzzle", "entries", "wrong_entries", "solved"}`),
/// that it was solved with one entry per empty cell (and the copy the bot says it made) and no wrong one; what the
/// bot said.
fn solved_with_no_wrong_entry_by_its_state(
    desktop: &Desktop,
    title: &str,
    state: &std::path::Path,
    seed: &str,
) -> String {
    let read_state = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(state).expect("the game's state")).unwrap()
    };
    wait_until("the game's state file", Duration::from_secs(30), || state.exists());
    // (SDL titles its window in UTF-8 alone, which xdotool's --name does not read: the window is waited for as the
    // bot lists windows.)
    let listed = || {
        let out = autoplay().arg("windows").env("DISPLAY", &desktop.display).output().unwrap();
        String::from_utf8_lossy(&out.stdout).contains(title)
    };
    wait_until(&format!("the game's window, titled {title}"), Duration::from_secs(30), listed);
    let empty_at_start = read_state()["puzzle"].as_str().unwrap().chars().filter(|&c| c == '.' || c == '0').count();

    let out = autoplay().args(["play", "sudoku", "--json"]).env("DISPLAY", &desktop.display).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{title}, seed {seed}: play failed:\n{stderr}");
    wait_until(
        &format!("{title}, seed {seed}: the game to say it is solved; the bot said:\n{stderr}"),
        Duration::from_secs(20),
        || read_state()["solved"] == true,
    );
    let end = read_state();
    assert_eq!(end["wrong_entries"], 0, "{title}, seed {seed}:\n{stderr}");
    // One entry per empty cell, and one more for the copy of a late move the bot says it made to see whether the
    // client ignores one (it types the digit the cell shows again; once a game at most, and only after a move showed
    // late): no other entry is made twice.
    let copies = stderr.matches("making it once more, to see whether this client ignores a copy").count();
    assert!(copies <= 1, "{title}, seed {seed}: a copy is looked at once a game at most:\n{stderr}");
    assert_eq!(
        end["entries"].as_u64().unwrap() as usize,
        empty_at_start + copies,
        "one entry per empty cell, and the copy said:\n{stderr}"
    );
    stderr.into_owned()
}

/// A Sudoku in Tk whose player's digits are drawn as a seven-segment display (fixtures/tables/sudoku_tk_segments.py,
/// written from a description of its look alone): strokes with gaps at the corners, no font's digits, while the
/// givens are a common bold sans. The mark that appears where the bot typed a digit is that digit (a stack of
/// strokes there is one digit, not pencil marks), learned as the client's drawing of it for the rest of the game;
/// a seven-segment 9, one stroke from its 8, is still its own digit. Won with no calibration made for it, on two
/// puzzles, with one entry per empty cell and no wrong one, by the game's own state.
#[test]
fn a_sudoku_drawing_the_players_digits_in_seven_segments_is_won_with_no_wrong_entry() {
    for puzzle in ["1", "2"] {
        let mut desktop = Desktop::start();
        let (_dir, state) =
            common::spawn_python_table(&mut desktop, "sudoku_tk_segments.py", &["--puzzle", puzzle], &[]);
        solved_with_no_wrong_entry_by_its_state(&desktop, "Sudoku (segments)", &state, puzzle);
    }
}

/// A Sudoku in Tk whose board never holds still (fixtures/tables/sudoku_tk_shimmer.py, written from a description of
/// its look alone): the selected cell's background breathes between cream and gold, and a light band sweeps across
/// every cell every 3 s, for ever. The board is read once its *reading* holds still. Won with no calibration, on two
/// puzzles, with one entry per empty cell and no wrong one, by the game's own state. (On a busy desktop Tk may draw
/// no frame for a while, and a game may find the picture still at its start: at least one of the two is read by
/// its reading.)
#[test]
fn a_sudoku_whose_board_never_holds_still_is_won_with_no_wrong_entry() {
    let mut said = Vec::new();
    for puzzle in ["1", "2"] {
        let mut desktop = Desktop::start();
        let (_dir, state) =
            common::spawn_python_table(&mut desktop, "sudoku_tk_shimmer.py", &["--puzzle", puzzle], &[]);
        said.push(solved_with_no_wrong_entry_by_its_state(&desktop, "Sudoku (shimmer)", &state, puzzle));
    }
    assert!(said.iter().any(|s| s.contains("did not hold still within")), "read by its reading:\n{}", said.join("\n"));
}

/// The Tk Sudoku whose board never holds still, under a window manager slow to let clicks through (openbox stopped
/// for 0.4 s in every 0.7 s, as a busy desktop may hold it): openbox takes every click on a window first, so a click
/// that lands while it is stopped reaches the game only when it runs again, and keys typed meanwhile go to the cell
/// chosen before (seen under load: a move's digit entered into the last move's cell). This picture cannot say when
/// the click was taken (it always changes); the bot types a move's keys only once no program holds the pointer.
/// Won with no wrong entry, by the game's own state.
#[test]
fn keys_wait_for_a_click_that_a_slow_window_manager_holds() {
    let mut desktop = Desktop::start();
    let (_dir, state) = common::spawn_python_table(&mut desktop, "sudoku_tk_shimmer.py", &["--puzzle", "2"], &[]);
    wait_until("the game's state file", Duration::from_secs(30), || state.exists());
    desktop.wait_for_window_shown(r"Sudoku \(shimmer\)");
    let slow = common::SlowWindowManager::start(
        desktop.window_manager_pid(),
        Duration::from_millis(400),
        Duration::from_millis(700),
    );
    solved_with_no_wrong_entry_by_its_state(&desktop, "Sudoku (shimmer)", &state, "2");
    let pauses = slow.end();
    assert!(pauses >= 10, "the window manager was stopped {pauses} times only");
}

/// A terminal Sudoku in plain curses (fixtures/tables/sudoku_curses_cursor.py, written from a description of its look
/// alone) in xterm, DejaVu Sans Mono: ASCII boxes around the 3×3 boxes only, dashes short against their characters,
/// and the selection shown by nothing but the terminal's own cursor, a blinking underline that no single look tells
/// from the text. The grid drawn in characters says it is a terminal's, which takes keys; the cursor is found by
/// pressing an arrow and watching what moved, then followed. Won with no calibration, on two puzzles, with one
/// entry per empty cell and no wrong one, by the program's own state.
#[test]
fn a_terminal_sudoku_showing_its_selection_only_by_the_terminals_blinking_cursor_is_won() {
    for puzzle in ["0", "2"] {
        let mut desktop = Desktop::start();
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state.json");
        let (script, state_path) = (
            common::path_str(&common::repo().join("fixtures/tables/sudoku_curses_cursor.py")),
            common::path_str(&state),
        );
        let resources = ["-xrm", "XTerm*cursorUnderLine: true", "-xrm", "XTerm*cursorBlink: true"];
        let terminal = ["-geometry", "70x24", "-fa", "DejaVu Sans Mono", "-fs", "14"];
        let program = ["-e", common::cribbage::python(), &script, "--puzzle", puzzle, "--state", &state_path];
        let args: Vec<&str> = resources.iter().chain(&terminal).chain(&program).copied().collect();
        desktop.spawn("xterm", &args, &[]);
        let said = solved_with_no_wrong_entry_by_its_state(&desktop, "Sudoku (cursor)", &state, puzzle);
        assert!(
            said.contains("moved the keyboard cursor, now at"),
            "puzzle {puzzle}: the cursor found by a key:\n{said}"
        );
    }
}

/// A Sudoku drawn on one `<canvas>` in a dark theme (fixtures/tables/sudoku-canvas-dark.html, written from a
/// description of its look alone): light digits on dark cells, lines between cells barely lighter than the cells,
/// a fractional pitch, the selected cell's row, column and box tinted and every cell holding its digit tinted again,
/// the player's digits light blue. Won with no calibration made for it, on two puzzles, with one entry per empty cell
/// and no wrong one, by the page's own count of what was typed (its title).
#[test]
fn a_dark_canvas_sudoku_with_faint_lines_and_a_tinted_selection_is_won_with_no_wrong_entry() {
    for seed in ["3", "5"] {
        let (page, state) = common::page_and_pre_text("sudoku-canvas-dark.html", &format!("seed={seed}"), "state");
        let state: serde_json::Value = serde_json::from_str(&state).expect("the page's state");
        let empty_at_start = state["puzzle"].as_str().unwrap().chars().filter(|&c| c == '.').count();
        let mut desktop = Desktop::start();
        desktop.open_chromium_app(&page, "760,700", &[]);
        let window = desktop.wait_for_window("Sudoku \\(canvas\\)");
        let (report, stderr) = play_json(&desktop, autoplay(), &["--window", &format!("id:{window}")]);
        assert_eq!(report["won"].as_bool(), Some(true), "seed {seed}:\n{stderr}");
        assert_eq!(
            page_title(&desktop, &window),
            format!("Sudoku (canvas) — solved, {empty_at_start} typed, 0 wrong"),
            "seed {seed}: one entry per empty cell, none wrong:\n{stderr}"
        );
    }
}

/// A Sudoku of a game engine that polls its input once a frame (fixtures/tables/sudoku_pygame.py: pygame at 15
/// frames a second, written from a description of its look and input alone): a click or key pressed and released in
/// one instant is never seen; the selected cell's row, column and box tinted, and the cells holding its digit tinted
/// again; the player's digits blue. Won with no calibration made for it, on two puzzles, with one entry per empty
/// cell and no wrong one, by the game's own state.
#[test]
fn a_pygame_sudoku_polling_its_input_once_a_frame_is_won_with_no_wrong_entry() {
    for seed in ["0", "1"] {
        let mut desktop = Desktop::start();
        let env = [("SDL_VIDEODRIVER", "x11")];
        let (_dir, state) = common::spawn_python_table(&mut desktop, "sudoku_pygame.py", &["--seed", seed], &env);
        let stderr = solved_with_no_wrong_entry_by_its_state(&desktop, "Sudoku (pygame)", &state, seed);
        // The move sent at once on trial after the first was missed, and made again held: the whole move, or its
        // click alone, of which nothing showed before its keys were typed.
        let missed = stderr.matches("pressed and released at once, left the board as it was").count()
            + stderr.matches("the client never took it; clicking again, holding each button and key").count();
        assert_eq!(missed, 1, "seed {seed}:\n{stderr}");
    }
}
