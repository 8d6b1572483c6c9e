//! A Cribbage Solitaire table the reader was not written for (fixtures/tables/cribbage-parlour.html: four columns
//! of 13 overlapped cards on a green panel with darker, larger margins, serif ranks, suits as pictures, no stack
//! pile but a row of small cards, totals as text, a small icon button to end a stack), learned from one labelled
//! shot of its opening position: positions in mid-game read as the page's own state says, and live, in Chromium,
//! the bot plays whole deals to the solver's optimum.

mod common;

use std::path::Path;
use std::process::Command;

use autoplay::games::cribbage::commands::parse_state;
use autoplay::games::cribbage::screen::{self, load_themes, TableTheme};
use autoplay::games::cribbage::{deal, solve, State};
use autoplay::imageio::load_image;
use common::desktop::Desktop;
use common::{fixture_shots, repo, Busy};

fn autoplay(calibration: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    command.env("AUTOPLAY_CALIBRATION", calibration);
    command
}

/// Calibrates theme `parlour` into `root` from `shot` and its truth file; returns the command's output.
fn calibrate(root: &Path, shot: &Path, truth: &Path) -> std::process::Output {
    autoplay(root)
        .args(["calibrate", "cribbage"])
        .arg(shot)
        .arg("--truth")
        .arg(truth)
        .args(["--theme", "parlour"])
        .output()
        .unwrap()
}

/// The theme learned from the opening of deal 30 (fixtures/cribbage-parlour/deal30-start.*).
fn learned_theme(root: &Path) -> TableTheme {
    std::fs::copy(repo().join("calibration/fonts.toml"), root.join("fonts.toml")).unwrap();
    let shot = repo().join("fixtures/cribbage-parlour/deal30-start.png");
    let out = calibrate(root, &shot, &shot.with_extension("calibration"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    load_themes(root, Some("parlour")).unwrap().remove(0)
}

#[test]
fn the_parlour_table_learned_from_its_opening_reads_positions_in_mid_game() {
    let root = tempfile::tempdir().unwrap();
    let theme = learned_theme(root.path());
    assert!(!theme.stack_pile && theme.columns.is_some() && theme.card_face.is_some(), "{theme:?}");
    assert!(theme.end_stack.is_some() && theme.total_at.is_some() && theme.score_at.is_some(), "{theme:?}");
    assert_eq!(theme.glyphs.len(), 13, "every rank learned");
    let shots = fixture_shots("cribbage-parlour");
    assert!(shots.len() >= 5);
    for (name, png) in shots {
        let truth = parse_state(&std::fs::read_to_string(png.with_extension("truth")).unwrap()).unwrap();
        // The read command: columns, the stack (its row of small cards, or none where the printed total is 0),
        // the printed score.
        let out = autoplay(root.path()).args(["read", "cribbage", "--theme", "parlour"]).arg(&png).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let read = parse_state(&String::from_utf8_lossy(&out.stdout)).unwrap();
        assert_eq!(read, truth, "{name}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("not known"), "{name}");
        let reading = screen::read(&load_image(&png).unwrap(), std::slice::from_ref(&theme)).unwrap();
        for (c, points) in reading.points.cards.iter().enumerate() {
            assert_eq!(points.len(), truth.columns[c].len(), "{name}: column {} click points", c + 1);
        }
    }
}

/// The parlour's button that ends a stack is a small icon, not the wide button the reader looks for: without
/// its point in the truth, calibration says it takes the table to end its stacks by itself, and how to name the
/// control. (Played so, the bot stops at the first full stack: the live test's last case.)
#[test]
fn a_table_whose_stack_control_is_not_found_is_taken_to_end_stacks_itself_saying_so() {
    let root = tempfile::tempdir().unwrap();
    let shot = repo().join("fixtures/cribbage-parlour/deal30-start.png");
    let out = calibrate(root.path(), &shot, &shot.with_extension("truth"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("no control that ends a stack was seen or named") && stdout.contains("end stack: X,Y"),
        "{stdout}"
    );
    let reading =
        screen::read(&load_image(&shot).unwrap(), &load_themes(root.path(), Some("parlour")).unwrap()).unwrap();
    assert!(reading.ends_stacks_itself && reading.points.next_stack.is_none());
}

/// The felt's top-left corner in a capture of the page, found by its colour: the tester labels the shot from it.
fn felt_corner(shot: &Path) -> (i32, i32) {
    let image = load_image(shot).unwrap();
    let felt = |p: &image::Rgba<u8>| p[0] == 0x1d && p[1] == 0x4d && p[2] == 0x33;
    let (x, y, _) = image.enumerate_pixels().find(|(_, _, p)| felt(p)).expect("the felt is in the capture");
    // The first felt pixel in reading order lies on the top edge, past the rounded corner (radius 18).
    let left = (0..x).rev().take_while(|&x| felt(image.get_pixel(x, y + 20))).last().unwrap_or(x);
    (left as i32 - 3, y as i32 - 3)
}

/// How a table ends a stack, and what its label says of it: a button at a point; by itself, as the label says; by
/// itself, the label saying nothing (the table shows no control, so the bot takes it that a stack ends by itself,
/// and checks that it does); a button the label does not name (the bot, not shown it, takes the table to end
/// stacks by itself, and stops at the first full stack the table keeps, saying so).
#[derive(Clone, Copy, PartialEq)]
enum Ends {
    Button,
    Itself,
    ItselfUnlabelled,
    ButtonUnlabelled,
}

/// What a live game of the parlour came to: the bot's exit, standard error and report, the page's title once its
/// picture has settled, and the desktop it ran on.
struct ParlourGame {
    succeeded: bool,
    stderr: String,
    report: serde_json::Value,
    title: String,
}

/// The table opened in Chromium on deal `n` at `size` (`query` added to its address: `&lag=MS`), its opening
/// captured and labelled as `ends` says, `calibrate` run once, then `autoplay play cribbage --theme parlour`.
fn learn_and_play_the_parlour(n: u64, size: &str, ends: Ends, query: &str) -> ParlourGame {
    let by_itself = matches!(ends, Ends::Itself | Ends::ItselfUnlabelled);
    let mut desktop = Desktop::start();
    let page = format!(
        "file://{}?deal={n}&auto={}{query}",
        repo().join("fixtures/tables/cribbage-parlour.html").display(),
        by_itself as u8
    );
    desktop.open_chromium_app(&page, size, &[]);
    let window = desktop.wait_for_window("Cribbage Solitaire");
    let root = tempfile::tempdir().unwrap();
    std::fs::copy(repo().join("calibration/fonts.toml"), root.path().join("fonts.toml")).unwrap();
    let shot = root.path().join("opening.png");
    let capture = autoplay(root.path())
        .args(["capture", "--window", &format!("id:{window}"), "-o"])
        .arg(&shot)
        .env("DISPLAY", &desktop.display)
        .output()
        .unwrap();
    assert!(capture.status.success(), "{}", String::from_utf8_lossy(&capture.stderr));
    // The label, where the page lays things out from the felt's corner (as in the opening fixture, whose felt
    // is at 265,104): the button at 688,147, the 0s of the printed total and score at 163,346 and 121,378.
    let (fx, fy) = felt_corner(&shot);
    let end_stack = match ends {
        Ends::Button => format!("end stack: {},{}\n", fx + 423, fy + 43),
        Ends::Itself => "end stack: by itself\n".to_owned(),
        Ends::ItselfUnlabelled | Ends::ButtonUnlabelled => String::new(),
    };
    let label = format!(
        "{}\nstack:\n{end_stack}total at: {},{}\nscore at: {},{}\n",
        deal(n).notation(),
        fx - 102,
        fy + 242,
        fx - 144,
        fy + 274
    );
    let truth = root.path().join("opening.truth");
    std::fs::write(&truth, label).unwrap();
    let out = calibrate(root.path(), &shot, &truth);
    assert!(out.status.success(), "deal {n}: {}", String::from_utf8_lossy(&out.stderr));

    let out = autoplay(root.path())
        .args(["play", "cribbage", "--theme", "parlour", "--json"])
        .env("DISPLAY", &desktop.display)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    // A late picture settles within the lag.
    desktop.wait_for_still_picture(&window);
    let title = String::from_utf8(desktop.run("xdotool", &["getwindowname", &window]).stdout).unwrap();
    ParlourGame { succeeded: out.status.success(), stderr, report, title: title.trim().to_owned() }
}

impl ParlourGame {
    /// Won with no plan made again, and the page's own title shows the solver's optimum for deal `n`.
    fn assert_won_at_the_optimum(&self, n: u64) {
        let stderr = &self.stderr;
        assert!(self.succeeded, "deal {n}: {stderr}");
        assert_eq!(
            (self.report["won"].as_bool(), self.report["replans"].as_u64()),
            (Some(true), Some(0)),
            "deal {n}: {stderr}"
        );
        let optimum = solve(&State::from(deal(n))).score;
        assert_eq!(self.title, format!("Cribbage Solitaire \u{2014} final score {optimum}"), "deal {n}: {stderr}");
    }
}

/// Live: the table opened in Chromium, its opening captured and labelled (the deal; the button's point, that
/// the table ends stacks by itself, or nothing of it; the printed numbers' points), `calibrate` run once, then `autoplay play
/// cribbage --theme parlour`: every card verified by reading the table again (the columns, the stack's row, the
/// printed total and score), and the page's own final score is the solver's optimum.
#[test]
fn the_parlour_table_is_learned_from_one_shot_and_played_to_the_optimum() {
    for (n, size, ends) in [
        (969u64, "1000,720", Ends::Button),
        (1031, "1100,760", Ends::Button),
        (30, "1000,720", Ends::Itself),
        (1, "1000,720", Ends::ItselfUnlabelled),
        (1, "1000,720", Ends::ButtonUnlabelled),
    ] {
        let game = learn_and_play_the_parlour(n, size, ends, "");
        let stderr = &game.stderr;
        if ends == Ends::ButtonUnlabelled {
            assert!(!game.succeeded, "deal {n}: the bot went on past a stack the table kept: {stderr}");
            assert!(stderr.contains("the table did not end the stack by itself"), "deal {n}: {stderr}");
            assert!(
                !stderr.contains("NEXT STACK: click"),
                "deal {n}: a control it was not shown was clicked: {stderr}"
            );
            continue;
        }
        game.assert_won_at_the_optimum(n);
        if matches!(ends, Ends::Itself | Ends::ItselfUnlabelled) {
            assert_eq!(game.report["moves"], 52, "one move per card, no stack ended by the bot: {stderr}");
        }
    }
}

/// Live, on a busy desktop (`scripts/busy.sh 3`): the parlour takes each click at once but shows it 1 to 3 s later
/// (`lag=3000`, varying per move, its button's stack ends too), so that a click made again on the card still
/// shown would play the next card of its column. The bot waits for every move, makes none twice, and the page's
/// own title shows the optimum.
#[test]
fn the_parlour_showing_each_move_late_on_a_busy_desktop_is_won_with_no_move_made_twice() {
    let _busy = Busy::start(3);
    let game = learn_and_play_the_parlour(969, "1000,720", Ends::Button, "&lag=3000");
    game.assert_won_at_the_optimum(969);
    assert!(!game.stderr.contains("making it again"), "{}", game.stderr);
}

/// A felt with no card on it is the table with every card played only when it has the learned felt's shape: a
/// patch of the felt's colour of another shape (another window, a covered table) is no table.
#[test]
fn an_empty_felt_is_a_finished_table_only_in_the_felt_s_shape() {
    let root = tempfile::tempdir().unwrap();
    let theme = learned_theme(root.path());
    let felt = |w: u32, h: u32| {
        image::RgbaImage::from_fn(1000, 720, |x, y| {
            let on = (100..100 + w).contains(&x) && (60..60 + h).contains(&y);
            if on {
                image::Rgba([0x1d, 0x4d, 0x33, 255])
            } else {
                image::Rgba([0x10, 0x16, 0x1c, 255])
            }
        })
    };
    let finished = screen::read(&felt(470, 560), std::slice::from_ref(&theme)).unwrap();
    assert!(finished.state.is_over(), "{:?}", finished.state);
    let error = format!("{:#}", screen::read(&felt(700, 300), std::slice::from_ref(&theme)).unwrap_err());
    assert!(error.contains("no column of cards found"), "{error}");
}
