//! Reading Cribbage Solitaire with no calibration (issue 29): the three tables' fixtures (the project's first
//! table, the parlour page and the Tk desktop table, each drawn by other hands and toolkits, at two window sizes
//! or more) read exactly by card shapes and the common fonts' rank marks, named by what a deal must be; the
//! columns keep their numbers from the previous picture when one is emptied; the `read` command does it with a
//! calibration folder that holds nothing but the font lists; the control that ends a stack is found by its label
//! (and an icon or a button labelled otherwise is not taken for it); and live, the two web tables are played
//! with no calibration to the solver's optimum (the Tk table's live test is in tests/cribbage_tk.rs).

mod common;

use std::path::Path;
use std::process::Command;

use autoplay::games::cribbage::cli::parse_truth;
use autoplay::games::cribbage::screen::by_shape::{self, RankShapes};
use autoplay::games::cribbage::{deal, replay, solve, Deal, State};
use autoplay::imageio::load_image;
use common::desktop::Desktop;
use common::{fixture_shots, play_calibrated, repo};
use image::RgbaImage;

fn shapes() -> RankShapes {
    RankShapes::load(&repo().join("calibration")).unwrap()
}

/// The truth of a fixture: its `.truth` file (the table's own state), or its `.params` (deal N after line L,
/// replayed by the rules engine).
fn truth_of(png: &Path) -> State {
    let truth = png.with_extension("truth");
    if truth.exists() {
        return parse_truth(&std::fs::read_to_string(truth).unwrap()).unwrap().state;
    }
    let params = std::fs::read_to_string(png.with_extension("params")).unwrap();
    let field = |key: &str| params.lines().find_map(|l| l.strip_prefix(key)).unwrap().trim().to_owned();
    replay(&State::from(deal(field("deal ").parse().unwrap())), &field("line")).unwrap()
}

fn notation(state: &State) -> String {
    Deal { columns: state.columns.clone() }.notation()
}

#[test]
fn every_fixture_of_the_three_tables_reads_exactly_with_no_calibration() {
    let shapes = shapes();
    let mut read = 0;
    let mut failures = Vec::new();
    for table in ["cribbage", "cribbage-parlour", "cribbage-tk"] {
        let shots = fixture_shots(table);
        assert!(shots.len() >= 5, "{table}: {} fixtures", shots.len());
        for (name, png) in shots {
            let truth = truth_of(&png);
            match by_shape::read(&load_image(&png).unwrap(), &shapes, None) {
                Ok(reading) => {
                    let stack_right = !reading.stack_shown || reading.state.stack == truth.stack;
                    if reading.state.columns != truth.columns || !stack_right {
                        failures.push(format!(
                            "{table}/{name}: read {} (stack {:?}), truth {} (stack {:?})",
                            notation(&reading.state),
                            reading.state.stack,
                            notation(&truth),
                            truth.stack
                        ));
                    }
                    for (c, points) in reading.points.cards.iter().enumerate() {
                        assert_eq!(points.len(), truth.columns[c].len(), "{table}/{name}: column {} points", c + 1);
                    }
                    read += 1;
                }
                Err(e) => failures.push(format!("{table}/{name}: {e:#}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} fixtures misread:\n{}", failures.len(), read, failures.join("\n"));
}

/// Every table shows its stack (a pile, a row of small cards, or an outlined place) in the fixtures that have
/// one, except where it shows none: the parlour's opening and its picture just after a stack ended.
#[test]
fn the_stack_is_read_wherever_a_table_shows_it() {
    let shapes = shapes();
    for (name, png) in fixture_shots("cribbage-tk").into_iter().chain(fixture_shots("cribbage")) {
        let reading = by_shape::read(&load_image(&png).unwrap(), &shapes, None).unwrap();
        assert!(reading.stack_shown, "{name}: the stack's place (a pile or an outline) is on show");
        assert_eq!(reading.state.stack, truth_of(&png).stack, "{name}");
    }
    let row = repo().join("fixtures/cribbage-parlour/deal30-mid.png");
    let reading = by_shape::read(&load_image(&row).unwrap(), &shapes, None).unwrap();
    assert!(reading.stack_shown && reading.state.stack == truth_of(&row).stack, "the parlour's row of small cards");
}

/// The rows of the Tk table are numbered top to bottom; with its first row emptied (painted over with the
/// background beside it), a picture alone numbers the three left 1 to 3, but the previous picture's places keep
/// them 2 to 4.
#[test]
fn an_emptied_column_keeps_the_numbers_the_previous_picture_gave() {
    let shapes = shapes();
    let png = repo().join("fixtures/cribbage-tk/deal1031-late-1100x760.png");
    let image = load_image(&png).unwrap();
    let before = by_shape::read(&image, &shapes, None).unwrap();
    assert_eq!(notation(&before.state), "49Q6Q_A_6_6K");
    // The first row's cards: their points' rows, a card's height around them, up to the divider.
    let row_y = before.points.cards[0][0].1 as u32;
    let mut emptied: RgbaImage = image.clone();
    let card_height = (before.points.card_width as f64 * 1.4) as u32;
    for y in row_y.saturating_sub(card_height / 2)..(row_y + card_height).min(image.height()) {
        let background = *image.get_pixel(650, y);
        for x in 0..640 {
            emptied.put_pixel(x, y, background);
        }
    }
    let alone = by_shape::read(&emptied, &shapes, None).unwrap();
    assert_eq!(notation(&alone.state), "A_6_6K_", "a picture alone numbers the rows it shows from the top");
    let kept = by_shape::read(&emptied, &shapes, Some(&before.points)).unwrap();
    assert_eq!(notation(&kept.state), "_A_6_6K");
    assert_eq!(kept.points.columns, before.points.columns, "the places are carried on");
}

/// Fans that run up and left: the Tk table turned upside down (its rows now fanned leftwards, buried card right,
/// its stack fanned upwards). Its cards, like most, print their index in the bottom right corner too, upside down,
/// which is what a buried card of such a fan shows; the rows read from the top are the table's from the bottom.
#[test]
fn fans_that_run_up_and_left_are_read_by_the_index_they_show() {
    let shapes = shapes();
    for shot in ["cribbage-tk/deal969-early-1100x760.png", "cribbage-tk/deal1031-late-820x600.png"] {
        let png = repo().join("fixtures").join(shot);
        let turned = image::imageops::rotate180(&load_image(&png).unwrap());
        let reading = by_shape::read(&turned, &shapes, None).unwrap_or_else(|e| panic!("{shot}: {e:#}"));
        let truth = truth_of(&png);
        let mut rows = truth.columns.clone();
        rows.reverse();
        assert_eq!(notation(&reading.state), Deal { columns: rows }.notation(), "{shot}");
        assert!(reading.stack_shown && reading.state.stack == truth.stack, "{shot}: {:?}", reading.state.stack);
    }
}

/// `autoplay read cribbage` with a calibration folder holding only the font lists reads each table, and the
/// solver takes what it prints.
#[test]
fn the_read_command_needs_no_calibration() {
    let dir = calibration_of_fonts_only();
    for shot in ["cribbage/deal969-mid.png", "cribbage-parlour/deal30-mid.png", "cribbage-tk/deal969-early-820x600.png"]
    {
        let png = repo().join("fixtures").join(shot);
        let out = Command::new(env!("CARGO_BIN_EXE_autoplay"))
            .args(["read", "cribbage", "--calibration"])
            .arg(dir.path())
            .arg(&png)
            .output()
            .unwrap();
        assert!(out.status.success(), "{shot}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let truth = truth_of(&png);
        assert_eq!(text.lines().next(), Some(notation(&truth).as_str()), "{shot}:\n{text}");
    }
    // A picture of something else: a clear error naming what is missing, and no panic.
    let flood = std::fs::read_dir(repo().join("fixtures/flood"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .args(["read", "cribbage", "--calibration"])
        .arg(dir.path())
        .arg(&flood)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("reading the table with no calibration") && error.contains("no card"), "{error}");
}

/// The first table's NEXT STACK button is found by its label, greyed or lit; the parlour's control is an icon
/// and its other buttons say other things (New Game, Undo), and the Tk table has none: no control is taken there.
#[test]
fn the_control_that_ends_a_stack_is_found_by_its_label_and_only_so() {
    let shapes = shapes();
    for (shot, labelled) in [
        ("cribbage/deal30-mid.png", true),
        ("cribbage/deal30-late.png", true),
        ("cribbage/deal969-early-screen.png", true),
        ("cribbage-parlour/deal30-mid.png", false),
        ("cribbage-parlour/deal969-early.png", false),
        ("cribbage-tk/deal30-mid-1100x760.png", false),
    ] {
        let image = load_image(&repo().join("fixtures").join(shot)).unwrap();
        let reading = by_shape::read(&image, &shapes, None).unwrap();
        assert_eq!(reading.points.next_stack.is_some(), labelled, "{shot}: {:?}", reading.points.next_stack);
        assert_eq!(
            reading.ends_stacks_itself, !labelled,
            "{shot}: with no control, a stack ends by itself or not at all"
        );
        if let Some((x, y)) = reading.points.next_stack {
            // On the button: its colour, not the felt's, under the point.
            let felt = *image.get_pixel(5, image.height() - 5);
            assert_ne!(*image.get_pixel(x as u32, y as u32), felt, "{shot}: ({x}, {y}) is on the felt");
        }
    }
}

/// A calibration folder with the font lists and nothing else.
fn calibration_of_fonts_only() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for list in ["fonts.toml", "card-fonts.toml"] {
        std::fs::copy(repo().join("calibration").join(list), dir.path().join(list)).unwrap();
    }
    dir
}

/// Live, in Chromium on Xvfb: the project's first table (its NEXT STACK button found by its label) and the
/// parlour page in its mode that ends stacks by itself (its icon control is no label the bot reads; with it, the
/// point is named by calibration), each played with a calibration folder that holds only the font lists: every
/// card verified by reading the table again, and the page's own final score is the solver's optimum.
#[test]
fn the_web_tables_are_played_with_no_calibration_to_the_optimum() {
    for (page, n, size, title) in [
        (
            "cribbage.html?deal=969",
            969u64,
            "1000,700",
            "Cribbage Solitaire \u{2014} deal 969 \u{2014} score {} \u{2014} complete",
        ),
        ("cribbage-parlour.html?auto=1&deal=1031", 1031, "1100,760", "Cribbage Solitaire \u{2014} final score {}"),
    ] {
        let mut desktop = Desktop::start();
        let (file, query) = page.split_once('?').unwrap();
        let url = format!("file://{}?{query}", repo().join("fixtures/tables").join(file).display());
        desktop.open_chromium_app(&url, size, &[]);
        let window = desktop.wait_for_window("Cribbage Solitaire.*");
        let calibration = calibration_of_fonts_only();
        let (succeeded, stderr, report) = play_calibrated(&desktop.display, "cribbage", calibration.path(), &[]);
        assert!(succeeded, "{page}: {stderr}");
        assert_eq!(report["won"], true, "{page}: {stderr}");
        let optimum = solve(&State::from(deal(n))).score;
        let shown = String::from_utf8(desktop.run("xdotool", &["getwindowname", &window]).stdout).unwrap();
        assert_eq!(shown.trim(), title.replace("{}", &optimum.to_string()), "{page}: {stderr}");
    }
}
