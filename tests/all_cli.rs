//! The command line on files: bad input gets a clear error and a non-zero exit (never a panic), and the
//! stages join into pipelines.

mod common;

use std::path::Path;

use assert_cmd::Command;
use autoplay::games::flood::FloodBoard;
use common::*;
use image::{Rgba, RgbaImage};

fn autoplay() -> Command {
    let mut command = Command::cargo_bin("autoplay").unwrap();
    command.env("AUTOPLAY_CALIBRATION", repo().join("calibration"));
    command
}

fn fixture(name: &str) -> std::path::PathBuf {
    repo().join("fixtures/flood").join(name)
}

/// Runs and expects failure with a message containing `needle`, and no panic.
fn fails_with(command: &mut Command, needle: &str) {
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "expected failure, got success; stderr: {stderr}");
    assert!(stderr.contains(needle), "expected '{needle}' in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn save(image: &RgbaImage, dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    image.save(&path).unwrap();
    path
}

#[test]
fn read_refuses_bad_images_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.png");
    std::fs::write(&empty, b"").unwrap();
    fails_with(autoplay().args(["read", "flood"]).arg(&empty), "empty, not an image");

    let png = std::fs::read(fixture("12x12c6-tile32.png")).unwrap();
    let truncated = dir.path().join("truncated.png");
    std::fs::write(&truncated, &png[..png.len() / 2]).unwrap();
    fails_with(autoplay().args(["read", "flood"]).arg(&truncated), "cannot be decoded");

    let text = dir.path().join("notes.png");
    std::fs::write(&text, "this is not a picture\n").unwrap();
    fails_with(autoplay().args(["read", "flood"]).arg(&text), "not an image");

    fails_with(autoplay().args(["read", "flood", "/no/such/file.png"]), "cannot read /no/such/file.png");

    // An unrelated picture: a smooth gradient with no palette colours.
    let gradient = RgbaImage::from_fn(300, 200, |x, y| Rgba([(x % 250) as u8 + 3, (y % 200) as u8 + 20, 77, 255]));
    fails_with(autoplay().args(["read", "flood"]).arg(save(&gradient, dir.path(), "gradient.png")), "no board found");

    // Random noise over the whole palette range.
    let mut state = 12345u64;
    let noise = RgbaImage::from_fn(200, 200, |_, _| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let v = (state >> 33) as u32;
        Rgba([(v & 0xff) as u8, ((v >> 8) & 0xff) as u8, ((v >> 16) & 0xff) as u8, 255])
    });
    let out = autoplay().args(["read", "flood"]).arg(save(&noise, dir.path(), "noise.png")).output().unwrap();
    assert!(!out.status.success(), "noise read as a board: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn read_names_a_cell_of_unknown_colour_with_its_pixel_and_colour() {
    let dir = tempfile::tempdir().unwrap();
    let mut image = image::open(fixture("5x5c3-tile32.png")).unwrap().to_rgba8();
    // Find the board's cell (2, 2) through a normal read, then paint its inside an unknown colour.
    let out = autoplay().args(["read", "flood", "--json"]).arg(fixture("5x5c3-tile32.png")).output().unwrap();
    let reading: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let centre = &reading["cell_centres"][2][2];
    let (cx, cy) = (centre[0].as_i64().unwrap(), centre[1].as_i64().unwrap());
    for y in cy - 12..=cy + 12 {
        for x in cx - 12..=cx + 12 {
            image.put_pixel(x as u32, y as u32, Rgba([0x12, 0x34, 0x56, 255]));
        }
    }
    let path = save(&image, dir.path(), "odd.png");
    fails_with(autoplay().args(["read", "flood"]).arg(&path), "has colour #123456, which is not in the palette");
    fails_with(autoplay().args(["read", "flood"]).arg(&path), "cell (row 2, column 2)");

    // Asked to learn it, the reader adds the colour to the theme (in a scratch calibration folder).
    let calibration = dir.path().join("calibration");
    std::fs::create_dir_all(calibration.join("flood")).unwrap();
    std::fs::copy(repo().join("calibration/flood/sgt-default.toml"), calibration.join("flood/sgt-default.toml"))
        .unwrap();
    let out = autoplay()
        .arg("--calibration")
        .arg(&calibration)
        .args(["read", "flood", "--learn", "--theme", "sgt-default"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let board = FloodBoard::parse(&String::from_utf8_lossy(&out.stdout)).unwrap();
    assert_eq!(board.colours().len(), 4, "three game colours and the learned one");
    let theme = std::fs::read_to_string(calibration.join("flood/sgt-default.toml")).unwrap();
    assert!(theme.contains("#123456"), "{theme}");
}

#[test]
fn read_refuses_a_one_colour_board_it_cannot_size() {
    let dir = tempfile::tempdir().unwrap();
    let image = image::open(fixture("5x5c3-tile32.png")).unwrap().to_rgba8();
    // Paint every palette cell red: a finished-looking board.
    let palette = [[0xffu8, 0, 0], [0xff, 0xff, 0], [0, 0xff, 0]];
    let uniform = RgbaImage::from_fn(image.width(), image.height(), |x, y| {
        let p = *image.get_pixel(x, y);
        if palette.contains(&[p[0], p[1], p[2]]) {
            Rgba([0xff, 0, 0, 255])
        } else {
            p
        }
    });
    fails_with(
        autoplay().args(["read", "flood"]).arg(save(&uniform, dir.path(), "uniform.png")),
        "one colour everywhere",
    );
}

#[test]
fn solve_refuses_malformed_board_text_clearly() {
    fails_with(
        autoplay().args(["solve", "flood", "-"]).write_stdin("RGB\nRG\nRGB\n"),
        "line 2: the row has 2 cells but the first row has 3",
    );
    fails_with(autoplay().args(["solve", "flood", "-"]).write_stdin(""), "no rows");
    fails_with(autoplay().args(["solve", "flood", "-"]).write_stdin("# just a comment\n"), "no rows");
    fails_with(
        autoplay().args(["solve", "flood", "-"]).write_stdin("RG\nR\u{e9}\n"),
        "line 2: '\u{e9}' is not a colour symbol",
    );
    fails_with(autoplay().args(["solve", "flood", "-"]).write_stdin(vec![0xffu8, 0xfe, 0x00]), "not UTF-8");
    fails_with(autoplay().args(["solve", "flood", "/no/such/board.txt"]), "cannot read");
    fails_with(
        autoplay().args(["solve", "flood", "--time-limit=-1"]).write_stdin("RG\n"),
        "not a valid number of seconds",
    );
}

/// Boards whose flood starts in the centre: the answer solves the board from there and has the true minimum
/// length (breadth-first search over whole boards), which differs from the corner start's on some of them.
#[test]
fn a_board_with_a_centre_start_is_solved_optimally_from_the_centre() {
    let mut differs = 0;
    for (size, colours, seed) in [(5, 4, 1), (5, 4, 2), (5, 5, 3), (7, 3, 4), (7, 4, 5), (6, 4, 6)] {
        let cells: Vec<u8> = autoplay::games::flood::solver::random_board(size, size, colours, seed)
            .iter()
            .map(|c| b"RYGBOP"[*c as usize])
            .collect();
        let corner = FloodBoard { width: size, height: size, cells, start: 0 };
        let text = format!("{corner}start: centre\n");
        let board = FloodBoard::parse(&text).unwrap();
        assert_eq!(board.start, (size - 1) / 2 * (size + 1));
        let out = autoplay().args(["solve", "flood", "--json", "-"]).write_stdin(text).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let moves: String = v["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let minimum = brute_force_minimum(&board);
        assert!(solves(&board, moves.as_bytes()), "{size}x{size} seed {seed}: {moves}");
        assert_eq!(
            (moves.len(), v["optimal"].as_bool()),
            (minimum, Some(true)),
            "{size}x{size} c{colours} seed {seed}"
        );
        eprintln!(
            "{size}x{size} c{colours} seed {seed}: {minimum} moves from the centre, {} from the corner",
            brute_force_minimum(&corner)
        );
        differs += usize::from(minimum != brute_force_minimum(&corner));
    }
    assert!(differs > 0, "no board where the start matters: the test shows nothing");
}

#[test]
fn solve_a_one_colour_board_is_zero_moves() {
    let out = autoplay().args(["solve", "flood", "--json", "-"]).write_stdin("YYY\nYYY\n").output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["length"], 0);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn solve_output_solves_the_board_in_both_forms() {
    let board_text = "RGBYR\nGGBYY\nBRRYG\nYYGBR\n";
    let board = FloodBoard::parse(board_text).unwrap();
    let out = autoplay().args(["solve", "flood", "-"]).write_stdin(board_text).output().unwrap();
    assert!(out.status.success());
    let line = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(solves(&board, line.as_bytes()), "{line}");
    assert_eq!(line.len(), brute_force_minimum(&board));

    let out = autoplay().args(["solve", "flood", "--json", "-"]).write_stdin(board_text).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves: String = v["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(moves, line);
    assert_eq!(v["length"].as_u64().unwrap() as usize, line.len());
    assert_eq!(v["optimal"], true);
    assert!(v["nodes"].is_u64() && v["millis"].is_u64());
}

#[test]
fn a_time_limit_gives_a_valid_solution_and_says_whether_it_is_proven() {
    let board = FloodBoard {
        width: 22,
        height: 22,
        cells: autoplay::games::flood::solver::random_board(22, 22, 6, 99)
            .iter()
            .map(|c| b"RYGBOP"[*c as usize])
            .collect(),
        start: 0,
    };
    let out = autoplay()
        .args(["solve", "flood", "--json", "--time-limit", "0", "-"])
        .write_stdin(board.to_string())
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves: String = v["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(solves(&board, moves.as_bytes()));
    assert_eq!(v["optimal"], false, "no search time at all cannot prove a 22x22 board");
}

#[test]
fn read_can_save_the_lattice_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let marked = dir.path().join("found.png");
    let out = autoplay()
        .args(["read", "flood", "--annotate"])
        .arg(&marked)
        .arg(fixture("2x2c3-tile32.png"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let original = image::open(fixture("2x2c3-tile32.png")).unwrap().to_rgba8();
    let annotated = image::open(&marked).unwrap().to_rgba8();
    assert_eq!(annotated.dimensions(), original.dimensions());
    let out = autoplay().args(["read", "flood", "--json"]).arg(fixture("2x2c3-tile32.png")).output().unwrap();
    let reading: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let magenta = Rgba([255, 0, 255, 255]);
    for centre in reading["cell_centres"].as_array().unwrap().iter().flat_map(|row| row.as_array().unwrap()) {
        let (x, y) = (centre[0].as_u64().unwrap() as u32, centre[1].as_u64().unwrap() as u32);
        assert_eq!(*annotated.get_pixel(x, y), magenta, "centre ({x}, {y}) is marked");
        assert_ne!(*original.get_pixel(x, y), magenta);
    }
    let origin = &reading["layout"];
    let (x0, y0) = (origin["origin_x"].as_f64().unwrap() as u32, origin["origin_y"].as_f64().unwrap() as u32);
    assert_eq!(*annotated.get_pixel(x0, y0), magenta, "the lattice's corner is outlined");
    let changed = original.pixels().zip(annotated.pixels()).filter(|(a, b)| a != b).count();
    assert!(changed < 1000, "only outlines and centres are drawn ({changed} pixels changed)");
}

#[test]
fn read_and_solve_join_in_a_pipeline() {
    let script = format!(
        "'{bin}' read flood '{shot}' | '{bin}' solve flood -",
        bin = env!("CARGO_BIN_EXE_autoplay"),
        shot = fixture("8x13c4-tile24.png").display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .env("AUTOPLAY_CALIBRATION", repo().join("calibration"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let theme = flood_themes().into_iter().find(|t| t.theme == "sgt-default").unwrap();
    let truth = theme.board_of(&flood_fixtures().into_iter().find(|f| f.name == "8x13c4-tile24").unwrap().id).unwrap();
    let moves = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(solves(&truth, moves.as_bytes()));
}

#[test]
fn play_from_a_screenshot_prints_the_clicks_inside_the_board() {
    let out = autoplay().args(["play", "flood", "--image"]).arg(fixture("12x12c6-tile20.png")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let image = image::open(fixture("12x12c6-tile20.png")).unwrap();
    let clicks: Vec<(u32, u32)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let parts: Vec<u32> = l.strip_prefix("click ").unwrap().split(' ').map(|n| n.parse().unwrap()).collect();
            (parts[0], parts[1])
        })
        .collect();
    assert!(!clicks.is_empty());
    for (x, y) in clicks {
        assert!(x < image.width() && y < image.height());
    }
}

#[test]
fn calibrate_learns_the_checked_in_palette_again_and_refuses_a_wrong_truth() {
    let dir = tempfile::tempdir().unwrap();
    let shot = fixture("calibrate-sgt-default.png");
    let id = std::fs::read_to_string(fixture("calibrate-sgt-default.id")).unwrap();
    let out = autoplay()
        .arg("--calibration")
        .arg(dir.path())
        .args(["calibrate", "flood"])
        .arg(&shot)
        .args(["--truth", id.trim(), "--symbols", "RYGBOPNCLK"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let learned =
        autoplay::clients::flood::theme::PaletteTheme::load(&dir.path().join("flood/sgt-default.toml")).unwrap();
    let checked_in = flood_themes().into_iter().find(|t| t.theme == "sgt-default").unwrap();
    for colour in &checked_in.colours {
        let twin = learned.colours.iter().find(|c| c.symbol == colour.symbol).unwrap();
        assert_eq!(
            (twin.rgb.as_str(), twin.marked, twin.game_index),
            (colour.rgb.as_str(), colour.marked, colour.game_index)
        );
    }
    // The truth of another board does not fit this picture.
    let wrong = std::fs::read_to_string(fixture("5x5c3-tile32.id")).unwrap();
    fails_with(
        autoplay()
            .arg("--calibration")
            .arg(dir.path())
            .args(["calibrate", "flood"])
            .arg(&shot)
            .args(["--truth", wrong.trim()]),
        "cannot find a 5×5 board matching the truth",
    );
}

#[test]
fn lunar_and_dandelions_refuse_bad_positions_clearly() {
    fails_with(autoplay().args(["solve", "lunar", "-"]).write_stdin("X..\n..\n"), "line 2");
    fails_with(autoplay().args(["solve", "lunar", "-"]).write_stdin("X....\n.....\n..+..\n"), "no solution");
    fails_with(
        autoplay().args(["solve", "dandelions", "-"]).write_stdin("*****\n.....\n.....\n.....\n.....\nwind: N\n"),
        "impossible position",
    );
    fails_with(autoplay().args(["play", "dandelions"]), "--as wind or --as dandelions");
    let out = autoplay().args(["solve", "dandelions", "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["winner"], "dandelions");
}

/// Runs and expects a usage error (exit 2, as clap gives) that names `flag`.
fn refuses_flag(args: &[&str], stdin: &str, flag: &str) {
    let out = autoplay().args(args).write_stdin(stdin).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: expected a usage error; stderr: {stderr}");
    assert!(stderr.contains(flag), "{args:?}: expected '{flag}' in: {stderr}");
}

#[test]
fn a_flag_of_another_game_is_a_usage_error_naming_it() {
    let lunar = "o.o.o\n.....\no.+..\n.....\no...X\n";
    let sudoku = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    refuses_flag(&["solve", "lunar", "-", "--box", "3x3"], lunar, "--box");
    refuses_flag(&["solve", "lunar", "-", "--count"], lunar, "--count");
    refuses_flag(&["solve", "sudoku", "-", "--first-moves"], sudoku, "--first-moves");
    refuses_flag(&["solve", "sudoku", "-", "--target", "1,1"], sudoku, "--target");
    refuses_flag(&["solve", "flood", "-", "--deal", "3"], "RG\n", "--deal");
    refuses_flag(&["read", "sudoku", "-", "--learn"], "", "--learn");
    refuses_flag(&["calibrate", "cribbage", "shot.png", "--deal", "1", "--symbols", "RG"], "", "--symbols");
    refuses_flag(&["bench", "lunar", "--boards", "3"], "", "--boards");
    refuses_flag(&["play", "dandelions", "--as", "wind", "--window", "x"], "", "--window");
    // The flags a game does take still work.
    let out = autoplay().args(["solve", "lunar", "-", "--target", "2,2"]).write_stdin(lunar).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out =
        autoplay().args(["solve", "sudoku", "-", "--box", "3x3", "--count"]).write_stdin(sudoku).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn every_screen_game_can_annotate_what_it_read() {
    let dir = tempfile::tempdir().unwrap();
    for (game, shot) in
        [("sudoku", "fixtures/sudoku/2x3-tile40-mixed.png"), ("cribbage", "fixtures/cribbage/deal30-mid.png")]
    {
        let marked = dir.path().join(format!("{game}.png"));
        let out = autoplay().args(["read", game, "--annotate"]).arg(&marked).arg(repo().join(shot)).output().unwrap();
        assert!(out.status.success(), "{game}: {}", String::from_utf8_lossy(&out.stderr));
        let original = image::open(repo().join(shot)).unwrap().to_rgba8();
        let annotated = image::open(&marked).unwrap().to_rgba8();
        assert_eq!(original.dimensions(), annotated.dimensions());
        let changed = original.pixels().zip(annotated.pixels()).filter(|(a, b)| a != b).count();
        assert!(changed > 100, "{game}: the annotation marks only {changed} pixels");
    }
}

#[test]
fn an_output_that_is_a_device_is_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    // A node of our own with /dev/full's numbers (the tests run as root: a regression must not replace the real one).
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let made = std::process::Command::new("mknod").arg(&full).args(["c", "1", "7"]).status().unwrap();
    assert!(made.success(), "mknod (the tests run as root)");
    fails_with(
        autoplay().args(["read", "flood", "--annotate"]).arg(&full).arg(fixture("2x2c3-tile32.png")),
        "No space left on device",
    );
    assert!(std::fs::metadata(&full).unwrap().file_type().is_char_device(), "the device is still a device");
}

#[test]
fn odd_numbers_and_texts_get_short_clear_messages() {
    // A byte-order mark before board text is not part of the board.
    let out = autoplay().args(["solve", "flood", "-"]).write_stdin("\u{feff}RG\nGR\n").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // An absurd time limit is named briefly, not as a 309-digit number.
    let out = autoplay().args(["solve", "flood", "--time-limit", "1e308", "-"]).write_stdin("RG\n").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("1e308 is not a valid number of seconds") && stderr.len() < 200,
        "{stderr}"
    );
    // A score too large is too large, not "not a whole number".
    fails_with(autoplay().args(["solve", "cribbage", "-"]).write_stdin("A_2_3_4\nscore: 99999999999\n"), "too large");
    // Counting up to no solutions at all is refused.
    refuses_flag(&["solve", "sudoku", "-", "--count", "--count-limit", "0"], "", "--count-limit");
    // A solved Lunar Lockout board says so.
    let out =
        autoplay().args(["solve", "lunar", "-"]).write_stdin("o.o.o\n.....\no.x..\n.....\no....\n").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no slide is needed"));
    // A huge bad line is quoted briefly.
    let line = format!("{}5\n", "A".repeat(100_000));
    let out = autoplay().args(["duel", "sudoku"]).write_stdin(line).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("100001 characters in all") && stderr.len() < 400,
        "{}",
        &stderr[..stderr.len().min(400)]
    );
}

#[test]
fn huge_inputs_are_refused_before_any_work() {
    // A valid 12000×12000 PNG (small on disk) is refused from its header, not decoded into gigabytes.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    image::GrayImage::from_pixel(12_000, 12_000, image::Luma([200])).save(&path).unwrap();
    fails_with(autoplay().args(["read", "flood"]).arg(&path), "is 12000×12000 pixels");
    fails_with(autoplay().args(["play", "flood", "--image"]).arg(&path), "is 12000×12000 pixels");
    // A board past the size limit is refused at once, naming the limit.
    fails_with(
        autoplay().args(["solve", "flood", "-"]).write_stdin("RG".repeat(50_001)),
        "at most 10000 are supported",
    );
    fails_with(
        autoplay().args(["solve", "flood", "-"]).write_stdin("RG\n".repeat(300 * 300 / 2)),
        "at most 10000 are supported",
    );
}

/// A theme that says its client takes moves by colour buttons, reading a picture with no buttons (sgt-flood):
/// the first move is made the usual way, by clicking a cell, and the log says why.
#[test]
fn a_theme_s_way_of_moving_that_the_window_does_not_show_falls_back_to_clicking_cells() {
    let calibration = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(calibration.path().join("flood")).unwrap();
    let theme = std::fs::read_to_string(repo().join("calibration/flood/sgt-default.toml")).unwrap();
    let theme = theme.replacen("tolerance = ", "moves_by = \"colour-buttons\"\ntolerance = ", 1);
    std::fs::write(calibration.path().join("flood/sgt-default.toml"), theme).unwrap();
    let out = autoplay()
        .args(["play", "flood", "--dry-run", "--image"])
        .arg(repo().join("fixtures/flood/12x12c6-tile20.png"))
        .arg("--calibration")
        .arg(calibration.path())
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the window shows no way 1 to make moves (the calibration's); making them the usual way"),
        "{stderr}"
    );
    assert!(stdout.lines().next().is_some_and(|l| l.starts_with("click ")), "{stdout}");
}

/// On a Wayland session with no X server for autoplay to reach and a compositor that lists no windows (not
/// sway), `windows` lists none and says what works there (programs under XWayland, a wlroots compositor's whole
/// output) and how to start a GTK game under XWayland; `capture` and `play` fail saying the same, instead of only
/// that X is missing.
#[test]
fn a_wayland_session_with_no_xwayland_window_is_told_how_to_start_a_game_under_xwayland() {
    let wayland = |command: &mut Command| {
        command
            .env_remove("DISPLAY")
            .env_remove("SWAYSOCK")
            .env("WAYLAND_DISPLAY", "autoplay-test-no-such-compositor")
            .env("XDG_SESSION_TYPE", "wayland");
    };
    let mut windows = autoplay();
    windows.arg("windows");
    wayland(&mut windows);
    let out = windows.output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "a heading and no window: {stdout}");
    assert!(stderr.contains("this is a Wayland session") && stderr.contains("GDK_BACKEND=x11"), "{stderr}");
    let commands: [&[&str]; 2] = [&["capture", "--window", "Flood", "-o", "/dev/null"], &["play", "flood"]];
    for args in commands {
        let mut command = autoplay();
        command.args(args);
        wayland(&mut command);
        fails_with(&mut command, "this is a Wayland session");
        fails_with(&mut command, "GDK_BACKEND=x11");
    }
}

/// `calibrate` refreshes a theme that exists and keeps what the user wrote in it besides the values (comments at
/// the top and above a value); a theme that exists but does not load is refused, naming the file and the line,
/// and left byte for byte as it was; `--replace` starts it afresh and keeps the old file as NAME.toml.bak.
#[test]
fn calibrate_keeps_a_themes_comments_and_never_replaces_one_it_cannot_read_unasked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("calibration");
    std::fs::create_dir_all(root.join("flood")).unwrap();
    let theme = root.join("flood/sgt-default.toml");
    let shipped = std::fs::read_to_string(repo().join("calibration/flood/sgt-default.toml")).unwrap();
    assert!(shipped.contains("\ntolerance = "), "{shipped}");
    let commented = format!(
        "# my notes on this theme\n{}",
        shipped.replacen("\ntolerance = ", "\n# why this tolerance\ntolerance = ", 1)
    );
    std::fs::write(&theme, &commented).unwrap();
    let shot = fixture("5x5c3-tile32.png");
    let id = std::fs::read_to_string(shot.with_extension("id")).unwrap();
    let calibrate = |extra: &[&str]| {
        let mut command = autoplay();
        command
            .arg("--calibration")
            .arg(&root)
            .args(["calibrate", "flood"])
            .arg(&shot)
            .args(["--truth", id.trim(), "--theme", "sgt-default", "--symbols", "RYGBOP"])
            .args(extra);
        command
    };

    let out = calibrate(&[]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let refreshed = std::fs::read_to_string(&theme).unwrap();
    assert!(
        refreshed.starts_with("# my notes on this theme\n") && refreshed.contains("# why this tolerance\ntolerance = "),
        "{refreshed}"
    );
    let out = autoplay().arg("--calibration").arg(&root).args(["read", "flood"]).arg(&shot).output().unwrap();
    assert!(out.status.success(), "the refreshed theme reads: {}", String::from_utf8_lossy(&out.stderr));

    let broken = format!("{refreshed}this line is not TOML\n");
    std::fs::write(&theme, &broken).unwrap();
    let broken_line = broken.lines().count();
    fails_with(&mut calibrate(&[]), "sgt-default.toml");
    fails_with(&mut calibrate(&[]), &format!("line {broken_line}"));
    fails_with(&mut calibrate(&[]), "--replace");
    assert_eq!(std::fs::read_to_string(&theme).unwrap(), broken, "the theme it could not read was changed");

    let out = calibrate(&["--replace"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(root.join("flood/sgt-default.toml.bak")).unwrap(), broken);
    let out = autoplay().arg("--calibration").arg(&root).args(["read", "flood"]).arg(&shot).output().unwrap();
    assert!(out.status.success(), "the theme started afresh reads: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bench_sudoku_times_a_puzzle_file_and_compares_with_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.txt");
    let puzzles = "# two puzzles\n\
        ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n\
        .................................................................................\n";
    std::fs::write(&file, puzzles).unwrap();
    let out = autoplay().args(["bench", "sudoku", "--runs", "1", "--seconds", "0"]).arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(": 2 puzzles (1 unique, 1 with more than one solution, 0 unsolvable"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("rate: ") && l.contains("puzzles/s")), "{text}");
    let out = autoplay().args(["bench", "sudoku", "--compare", "200"]).arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("generated: 200 puzzles"), "{text}");
    assert!(text.lines().all(|l| l.ends_with(")") && l.contains("; 0 disagreements")), "{text}");
}

/// `bench cribbage --shot` times the reader on a table screenshot (as `read cribbage` reads it), after a first
/// read that must succeed: a picture that is no table is refused, not timed.
#[test]
fn bench_cribbage_times_the_reader_on_a_shot() {
    let shot = repo().join("fixtures/cribbage/deal30-start.png");
    let out = autoplay().args(["bench", "cribbage", "--json", "--shot"]).arg(&shot).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["width"].as_u64(), report["height"].as_u64()), (Some(1000), Some(700)), "{report}");
    assert_eq!(report["time"]["count"].as_u64(), Some(200), "{report}");
    assert!(report["time"]["median_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{report}");
    let not_a_table = repo().join("fixtures/sudoku/2x2-tile48.png");
    let mut refused = autoplay();
    refused.args(["bench", "cribbage", "--shot"]).arg(&not_a_table);
    fails_with(&mut refused, "Cribbage Solitaire table");
}
