//! Playing Cribbage Solitaire live: on Xvfb with a window manager, the bot plays whole deals of the three tables to
//! the score the solver proves optimal, as each table's own word says (a web page's title, read with xdotool, or the
//! Tk table's state file). The project's first table, in Chromium at three window sizes (once after the player has
//! already played a scoring card, which the picture does not show), with the shipped calibration; the parlour page,
//! its opening captured and labelled (its button's point, that it ends stacks by itself, or nothing of it) and
//! `calibrate` run once; the Tk table (fixtures/tables/cribbage_tk.py, at two window sizes) and the two web tables
//! with a calibration folder that holds only the font lists. Each table also on a busy desktop, showing each card
//! seconds late (never a card played twice), and a card click the first table or the Tk table loses is named, not
//! made again.

mod common;

use std::path::Path;

use autoplay::games::cribbage::commands::parse_state;
use autoplay::games::cribbage::{deal, replay, solve, State};
use autoplay::imageio::load_image;
use common::cribbage::{calibrate, calibration_of_fonts_only, python};
use common::desktop::{wait_until, Desktop};
use common::{autoplay, play_calibrated, repo, Busy};

/// Live: the table in Chromium under Xvfb, two deals at three window sizes, played to the end by `autoplay play
/// cribbage`; the page's own title (read with xdotool) must show the solver's proven optimum and "complete". In one
/// game the player has already played a scoring card (a jack first): the bot takes the score so far from the
/// title, which the picture does not show, and finishes at the optimum from there.
#[test]
fn plays_whole_deals_in_chromium_to_the_proven_optimum() {
    for (n, size, played) in [(30u64, "1000,700", ""), (1031, "800,600", ""), (30, "900,640", "2")] {
        let game = play_the_table(n, size, played, "");
        game.assert_won_at_the_optimum(&format!("deal {n} at {size}"));
    }
}

/// Live, on a busy desktop (`scripts/busy.sh 3`): the table takes each click at once but shows it 1 to 3 s later
/// (`lag=3000`, varying per move), so that a click made again on the card still shown would play the next card of
/// its column. The bot waits for every move, makes none twice, and the page's own title shows the optimum.
#[test]
fn a_table_showing_each_move_late_on_a_busy_desktop_is_won_with_no_card_played_twice() {
    let _busy = Busy::start(3);
    let game = play_the_table(30, "1000,700", "", "&lag=3000");
    game.assert_won_at_the_optimum("lag 3000 under load");
    assert!(!game.stderr.contains("making it again"), "{}", game.stderr);
}

/// Live: the table loses the third click that plays a card. Nothing shows that it never got it, and a card clicked
/// again plays the column's next one, so the bot waits the whole patience and stops, naming the move; the table,
/// read once it has stopped, holds 50 cards (two played, none twice).
#[test]
fn a_card_click_the_table_loses_is_named_and_never_made_again() {
    let game = play_the_table(30, "1000,700", "", "&drop=3");
    assert!(!game.succeeded, "{}", game.stderr);
    let error = game.stderr.lines().find(|l| l.starts_with("autoplay: error:")).unwrap_or_default();
    assert!(error.contains("move 3 (") && error.contains("has not shown"), "{}", game.stderr);
    assert!(error.contains("a second copy of it makes another move"), "{}", game.stderr);
    assert_eq!(game.stderr.matches("move 3: ").count(), 1, "{}", game.stderr);
    let bin = env!("CARGO_BIN_EXE_autoplay");
    let pipeline = format!("{bin} capture --window id:{} | {bin} read cribbage - --json", game.window);
    let read = game.desktop.run("sh", &["-c", &pipeline]);
    let reading: serde_json::Value = serde_json::from_slice(&read.stdout)
        .unwrap_or_else(|_| panic!("the table reads: {}", String::from_utf8_lossy(&read.stderr)));
    let columns = reading["columns"].as_str().unwrap();
    assert_eq!(columns.chars().filter(|c| *c != '_').count(), 50, "{columns}\n{}", game.stderr);
}

/// What a live game of the table came to: the desktop and window (still open), whether the bot succeeded, its
/// standard error and report, the page's title once its picture has settled, and the optimum from the start.
struct TableGame {
    desktop: Desktop,
    window: String,
    succeeded: bool,
    stderr: String,
    report: serde_json::Value,
    title: String,
    n: u64,
    optimum: u32,
}

/// Opens the table on deal `n` at `size` after `played` (a line already played), with `query` added to its page
/// address (`&lag=MS`, `&drop=K`), and runs `autoplay play cribbage --json` with the shipped calibration.
fn play_the_table(n: u64, size: &str, played: &str, query: &str) -> TableGame {
    let start = replay(&State::from(deal(n)), played).unwrap();
    let mut desktop = Desktop::start();
    let page =
        format!("file://{}?deal={n}&line={played}{query}", repo().join("fixtures/tables/cribbage.html").display());
    desktop.open_chromium_app(&page, size, &["--window-position=60,40"]);
    let window =
        desktop.wait_for_window(&format!("Cribbage Solitaire \u{2014} deal {n} \u{2014} score {}", start.score));
    let out = autoplay().args(["play", "cribbage", "--json"]).env("DISPLAY", &desktop.display).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    // A late picture settles within the lag.
    desktop.wait_for_still_picture(&window);
    let title_of = |desktop: &Desktop| {
        String::from_utf8(desktop.run("xdotool", &["getwindowname", &window]).stdout).unwrap().trim().to_owned()
    };
    let complete = out.status.success();
    if complete {
        wait_until("the title to say the deal is complete", std::time::Duration::from_secs(20), || {
            title_of(&desktop).ends_with("complete")
        });
    }
    let title = title_of(&desktop);
    TableGame { desktop, window, succeeded: complete, stderr, report, title, n, optimum: solve(&start).score }
}

impl TableGame {
    /// The bot exited 0 saying it won, planning no move again, and the page's own title shows the optimum.
    fn assert_won_at_the_optimum(&self, what: &str) {
        let stderr = &self.stderr;
        assert!(self.succeeded, "{what}: {stderr}");
        assert_eq!(self.report["won"], true, "{what}: {stderr}");
        assert_eq!(self.report["replans"], 0, "{what}: {stderr}");
        let (n, optimum) = (self.n, self.optimum);
        assert_eq!(
            self.title,
            format!("Cribbage Solitaire \u{2014} deal {n} \u{2014} score {optimum} \u{2014} complete"),
            "{what}: {stderr}"
        );
    }
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
    let capture = common::cribbage::autoplay(root.path())
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

    let out = common::cribbage::autoplay(root.path())
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

/// What a live game of the Tk table came to: whether the bot succeeded, its standard error and report, and the
/// table's own state file after the game.
struct TkGame {
    succeeded: bool,
    stderr: String,
    report: serde_json::Value,
    state: String,
}

/// Opens the Tk table on deal `n` at `size` (with the table's `extra` arguments: `--lag MS`, `--drop K`) on a new
/// desktop and runs `autoplay play cribbage` with a calibration folder that holds only the font lists.
fn play_the_tk_table(n: u64, size: &str, extra: &[&str]) -> TkGame {
    let mut desktop = Desktop::start();
    let work = tempfile::tempdir().unwrap();
    for list in ["fonts.toml", "card-fonts.toml"] {
        std::fs::copy(repo().join("calibration").join(list), work.path().join(list)).unwrap();
    }
    let state_file = work.path().join("table.state");
    let (deal_arg, state_arg) = (n.to_string(), state_file.display().to_string());
    let table = repo().join("fixtures/tables/cribbage_tk.py").display().to_string();
    let mut args = vec![table.as_str(), "--deal", &deal_arg, "--size", size, "--state-file", &state_arg];
    args.extend(extra);
    desktop.spawn(python(), &args, &[]);
    let window = desktop.wait_for_window_shown("Cribbage Solitaire \\(Tk\\).*");
    wait_until("the table's first state", std::time::Duration::from_secs(60), || state_file.exists());
    desktop.wait_for_still_picture(&window);
    let (succeeded, stderr, report) = play_calibrated(&desktop.display, "cribbage", work.path(), &[]);
    let state = std::fs::read_to_string(&state_file).unwrap();
    TkGame { succeeded, stderr, report, state }
}

impl TkGame {
    /// The bot won with one click a card, and the table's own state file shows every card played once and the
    /// solver's optimum for deal `n`.
    fn assert_won_at_the_optimum(&self, n: u64, what: &str) {
        let stderr = &self.stderr;
        assert!(self.succeeded, "{what}: {stderr}");
        assert_eq!(self.report["won"].as_bool(), Some(true), "{what}: {stderr}");
        assert_eq!(self.report["moves"], 52, "{what}: one click a card, no stack ended by the bot: {stderr}");
        assert!(self.state.lines().any(|l| l == "played: 52"), "{what}: {}\n{stderr}", self.state);
        let optimum = solve(&State::from(deal(n))).score;
        // The table's state file: its columns, stack and score (its total and count of cards played aside).
        let kept: String = self
            .state
            .lines()
            .filter(|l| !l.starts_with("total:") && !l.starts_with("played:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let table = parse_state(&kept).unwrap();
        assert!(table.is_over(), "{what}: the table is not finished: {stderr}");
        assert_eq!(table.score, optimum, "{what}: the table's own score: {stderr}");
    }
}

/// Live: the Tk table opened on Xvfb (at two window sizes), and `autoplay play cribbage` with a calibration
/// folder that holds only the font lists: the bot finds the cards by their shape and names them by the deal, plays
/// every card by clicking it, verifies each by reading the table again (the table ends its stacks by itself), and
/// the table's own final score is the solver's optimum.
#[test]
fn the_tk_table_is_played_with_no_calibration_to_the_optimum() {
    for (n, size) in [(30u64, "1100x760"), (969, "820x600")] {
        play_the_tk_table(n, size, &[]).assert_won_at_the_optimum(n, &format!("deal {n} at {size}"));
    }
}

/// Live, on a busy desktop (`scripts/busy.sh 3`): the table takes each click at once but shows it 1 to 3 s later
/// (`--lag 3000`, varying per card), so that a click made again on the card still shown would play the next card of
/// its column. The bot waits for every card, makes none twice, and the table's own state shows 52 cards played and
/// the optimum.
#[test]
fn the_tk_table_showing_each_card_late_on_a_busy_desktop_is_won_with_no_card_played_twice() {
    let _busy = Busy::start(3);
    let game = play_the_tk_table(30, "1100x760", &["--lag", "3000"]);
    game.assert_won_at_the_optimum(30, "lag 3000 under load");
    assert!(!game.stderr.contains("making it again"), "{}", game.stderr);
}

/// Live: the table loses the fifth click that plays a card. Nothing shows that it never got it, and a card clicked
/// again plays the column's next one, so the bot waits the whole patience and stops, naming the move; the table's
/// own state shows four cards played, none twice.
#[test]
fn a_click_the_tk_table_loses_is_named_and_never_made_again() {
    let game = play_the_tk_table(30, "1100x760", &["--drop", "5"]);
    assert!(!game.succeeded, "{}", game.stderr);
    let error = game.stderr.lines().find(|l| l.starts_with("autoplay: error:")).unwrap_or_default();
    assert!(error.contains("move 5 (") && error.contains("has not shown"), "{}", game.stderr);
    assert!(error.contains("a second copy of it makes another move"), "{}", game.stderr);
    assert_eq!(game.stderr.matches("move 5: ").count(), 1, "{}", game.stderr);
    assert!(game.state.lines().any(|l| l == "played: 4"), "{}\n{}", game.state, game.stderr);
}

/// Live, in Chromium on Xvfb: the project's first table (its NEXT STACK button found by its label) and the
/// parlour page in its mode that ends stacks by itself (and shows no control), each played with a calibration
/// folder that holds only the font lists: every card verified by reading the table again, and the page's own
/// final score is the solver's optimum.
#[test]
fn the_web_tables_are_played_with_no_calibration_to_the_optimum() {
    win_web_tables_with_no_calibration(&[
        (
            "cribbage.html?deal=969",
            969u64,
            "1000,700",
            "Cribbage Solitaire \u{2014} deal 969 \u{2014} score {} \u{2014} complete",
        ),
        ("cribbage-parlour.html?auto=1&deal=1031", 1031, "1100,760", "Cribbage Solitaire \u{2014} final score {}"),
    ]);
}

/// Live, with no calibration: tables whose stack is ended by an unlabelled icon button above the last column
/// (issue 46's item 9). The strips table (written from a description of a public clone alone: cards drawn as
/// strips with no edge between them, animals for suits, no stack shown, its total and score printed as text), and
/// the parlour in its usual mode. The icon is the one square button by the columns; a stack's end is proved by
/// the printed total going to 0, the total being the printed number that showed the rules' total after a card.
/// Every move verified; the page's own final score is the solver's optimum.
#[test]
fn tables_whose_stack_ends_by_an_icon_are_won_with_no_calibration_to_the_optimum() {
    win_web_tables_with_no_calibration(&[
        ("cribbage-strips.html?deal=30&edge=none", 30u64, "900,800", "Cribbage Solitaire \u{2014} final score {}"),
        ("cribbage-strips.html?deal=1031", 1031, "1000,760", "Cribbage Solitaire \u{2014} final score {}"),
        ("cribbage-parlour.html?deal=969", 969, "1100,760", "Cribbage Solitaire \u{2014} final score {}"),
    ]);
}

/// Plays each web table (`page` under fixtures/tables, deal `n`, window `size`) with a calibration folder that
/// holds only the font lists, and checks the window's title at the end (`title`, "{}" for the optimum).
fn win_web_tables_with_no_calibration(tables: &[(&str, u64, &str, &str)]) {
    for &(page, n, size, title) in tables {
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
        let shown = || String::from_utf8(desktop.run("xdotool", &["getwindowname", &window]).stdout).unwrap();
        wait_until(&format!("{page}: the title to give the final score"), std::time::Duration::from_secs(20), || {
            shown().contains("score")
        });
        assert_eq!(shown().trim(), title.replace("{}", &optimum.to_string()), "{page}: {stderr}");
    }
}
