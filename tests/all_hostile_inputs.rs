//! Fuzzing every parser and reader: board texts of the five games, truth files (game IDs), calibration themes,
//! recorded-session manifests, protocol lines, and the image decoder and readers on mutated and random pictures.
//! Each target feeds inputs made by proptest (arbitrary bytes, and valid samples mutated by byte edits and
//! splices) and checks that nothing panics and that every input is answered within a time bound.
//!
//! Each target runs for `FUZZ_SECONDS` (default 2, so that the test suite stays quick); for a long run:
//! `FUZZ_SECONDS=600 cargo test --release --test all_hostile_inputs -- --nocapture --test-threads 2`. Inputs that
//! once failed stay in `regressions()` below and run first.

mod common;

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

use autoplay::capture::Frame;
use autoplay::clients::cribbage::{CribbageClient, CribbageScreen};
use autoplay::clients::flood::{FloodClient, FloodScreen};
use autoplay::clients::sudoku::{SudokuClient, SudokuScreen};
use autoplay::game::{Client, Screen, SolveLimits};
use autoplay::games::cribbage;
use autoplay::games::flood::{self, sgt_id::SgtFloodId, FloodBoard};
use autoplay::games::sudoku::{self, SudokuGrid};
use autoplay::games::{dandelions, lunar, sudoku_duel};
use common::repo;

/// The longest any one input may take.
const SLOW: Duration = Duration::from_secs(2);

fn budget() -> Duration {
    let seconds: f64 = std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    Duration::from_secs_f64(seconds)
}

/// An edit of a sample: 0 flips a byte, 1 inserts one, 2 deletes one, 3 copies a run from elsewhere in it.
type Edit = (u8, usize, u8, usize);

fn mutate(sample: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = sample.to_vec();
    for &(op, at, byte, len) in edits {
        let n = bytes.len();
        match op % 4 {
            0 if n > 0 => bytes[at % n] ^= byte.max(1),
            1 => bytes.insert(if n == 0 { 0 } else { at % (n + 1) }, byte),
            2 if n > 0 => {
                bytes.remove(at % n);
            }
            3 if n > 0 => {
                let from = (at / 7) % n;
                let run: Vec<u8> = bytes[from..(from + len % 64).min(n)].to_vec();
                let to = at % n;
                bytes.splice(to..to, run);
            }
            _ => {}
        }
    }
    bytes
}

/// Inputs for a target: arbitrary bytes, or one of the samples with a few random edits.
fn inputs(samples: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let count = samples.len();
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..400),
        4 => (0..count, proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>(), any::<usize>()), 0..12))
            .prop_map(move |(i, edits)| mutate(&samples[i], &edits)),
    ]
}

/// Runs `check` on inputs from `strategy`, in batches of `batch` inputs, until the budget is spent; fails with
/// the smallest input that panicked or was too slow (over [`SLOW`]). Prints how many inputs ran.
fn run_for_budget<S: Strategy>(name: &str, strategy: S, batch: u32, check: impl Fn(S::Value)) {
    let timed = |input: S::Value| -> Result<(), TestCaseError> {
        let start = Instant::now();
        check(input);
        if start.elapsed() > SLOW {
            return Err(TestCaseError::fail(format!("took {:?}", start.elapsed())));
        }
        Ok(())
    };
    let (start, budget) = (Instant::now(), budget());
    let mut executions = 0u64;
    let mut seed = 0u64;
    while start.elapsed() < budget {
        seed += 1;
        let config = Config {
            cases: batch,
            failure_persistence: None,
            rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
            ..Config::default()
        };
        match TestRunner::new(config).run(&strategy, timed) {
            Ok(()) => executions += u64::from(batch),
            Err(TestError::Fail(why, input)) => panic!("{name}: {why} on input {input:?}"),
            Err(TestError::Abort(why)) => panic!("{name}: aborted: {why}"),
        }
    }
    println!("fuzz {name}: {executions} inputs in {:.0} s, no failure", start.elapsed().as_secs_f64());
}

/// Runs `check` on `regressions`, then on arbitrary bytes and mutated `samples` until the budget is spent.
fn fuzz(name: &str, samples: Vec<Vec<u8>>, regressions: &[&[u8]], check: impl Fn(&[u8])) {
    for input in regressions {
        let start = Instant::now();
        check(input);
        assert!(
            start.elapsed() < SLOW,
            "{name}: regression input {:?} took {:?}",
            String::from_utf8_lossy(input),
            start.elapsed()
        );
    }
    run_for_budget(name, inputs(samples), 256, |input| check(&input));
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn files(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(repo().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn samples(texts: &[&str]) -> Vec<Vec<u8>> {
    texts.iter().map(|t| t.as_bytes().to_vec()).collect()
}

#[test]
fn fuzz_flood_board_text() {
    let seeds =
        samples(&["RGB\nGGB\nBRR\n", "# c\nYGRGR\nRYRYG\nRGGRR\nGRRGG\nRGGRY\n", "R G\nG R\n", "ABCDEFGH\nHGFEDCBA\n"]);
    fuzz("flood board text", seeds, &[b"\xef\xbb\xbfRG\n"], |bytes| {
        if let Ok(board) = FloodBoard::parse(&text(bytes)) {
            if board.cells.len() <= 64 {
                let limits = SolveLimits { deadline: Some(Instant::now() + Duration::from_millis(50)) };
                let plan = flood::solve_board(&board, &limits);
                let moves: Vec<u8> = plan.moves.iter().map(|m| m.0).collect();
                assert!(flood::solver::check_solution(board.width, board.height, &board.cells, &moves).is_ok());
            }
        }
    });
}

#[test]
fn fuzz_lunar_board_text() {
    let seeds =
        samples(&[lunar::CARD_39, "X....\n.....\n..+..\n.....\no...o\n", "x.\n..\n", "#o.X\n..+.\n....\n.o..\n"]);
    fuzz("lunar board text", seeds, &[], |bytes| {
        if let Ok(board) = lunar::Board::parse(&text(bytes), None) {
            let _ = lunar::solve_with_limit(&board, 200_000);
        }
    });
}

#[test]
fn fuzz_dandelions_position_text() {
    let seeds = samples(&[
        "*....\n.~...\n.....\n.....\n.....\nwind: N NE E\n",
        ".....\n.....\n.....\n.....\n.....\nwind: N NE E SE S SW W NW\n",
    ]);
    fuzz("dandelions position text", seeds, &[], |bytes| {
        let _ = dandelions::Position::parse(&text(bytes));
    });
}

#[test]
fn fuzz_sudoku_grid_text_and_game_ids() {
    let seeds = samples(&[
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "1...\n..1.\n.1..\n....\n",
        "2x2:e3a4_4a1e",
        "2x3:a4c1c4_2b6_5b2_2b1_5b5_6c4c6a",
        "3x3:a8b6_1b4c9d3a5a7e1f9a6b4b2d1b8a9c7a3b",
    ]);
    fuzz("sudoku grid text and game IDs", seeds, &[], |bytes| {
        let text = text(bytes);
        if let Ok(grid) = sudoku::Grid::parse(&text, None) {
            if grid.size() <= 9 {
                let _ = sudoku::count_solutions(&grid, 2);
            }
        }
        if let Ok(mut grid) = SudokuGrid::parse_givens(&text) {
            let _ = grid.enter(&text);
        }
        let _ = sudoku::Grid::parse_sgt_id(&text);
    });
}

#[test]
fn fuzz_cribbage_state_text_and_lines() {
    let deal = cribbage::deal(30).notation();
    let truth = format!("{deal}\nstack:\nend stack: 688,147\ntotal at: 163,346\nscore at: 121,378\n");
    let seeds = samples(&[
        &deal,
        "T2AA753K_44K5_6387656_22T9A32K\nstack: 8 8 9\nscore: 12\n",
        "A_2_3_4\n",
        "2_421_14213114_332334",
        &truth,
        "A_2_3_4\nend stack: by itself\n",
    ]);
    fuzz("cribbage state text and lines", seeds, &[b"A_2_3_4\nscore: 99999999999\n"], |bytes| {
        let text = text(bytes);
        if let Ok(state) = cribbage::commands::parse_state(&text) {
            if state.columns.iter().map(Vec::len).sum::<usize>() <= 16 {
                let _ = cribbage::solve(&state);
            }
        }
        let _ = cribbage::rules::parse_line(&text);
        let _ = autoplay::cli::cribbage::parse_truth(&text);
    });
}

#[test]
fn fuzz_flood_truth_game_ids() {
    let seeds = samples(&["5x5:0120112101201220112021100,20", "2x2:0120,3", "12x12:012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345012345,25"]);
    fuzz("sgt-flood game IDs", seeds, &[], |bytes| {
        let _ = SgtFloodId::parse(&text(bytes));
    });
}

#[test]
fn fuzz_calibration_themes() {
    let mut seeds = Vec::new();
    for game in ["flood", "sudoku", "cribbage"] {
        seeds
            .extend(files(&format!("calibration/{game}"), "toml").into_iter().map(|t| t[..t.len().min(6000)].to_vec()));
    }
    // A table learned from a shot of another drawing (the fields the shipped theme leaves out).
    seeds.push(
        b"game = \"cribbage\"\ntheme = \"parlour\"\nfelt = \"#1d4d33\"\nfelt_tolerance = 24\noutline_max = 135\nink_threshold = 80\n\
          max_distance = 0.1\nmin_margin = 0.01\nstack_pile = false\nend_stack = [0.9, 0.0768]\ncard_face = \"#ffffff\"\n\
          total_at = [-0.217, 0.4321]\nscore_at = [-0.3064, 0.4893]\nends_stacks_itself = true\n\n[columns]\n\
          left = [0.0638, 0.2936, 0.5234, 0.7532]\ncard_width = 0.183\nfelt_aspect = 0.8393\n"
            .to_vec(),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("theme.toml");
    fuzz("calibration themes", seeds, &[], |bytes| {
        std::fs::write(&path, bytes).unwrap();
        let _ = autoplay::calibration::load_theme_file::<autoplay::clients::flood::theme::PaletteTheme>(&path);
        let _ = autoplay::calibration::load_theme_file::<autoplay::clients::sudoku::theme::SudokuTheme>(&path);
        let _ = autoplay::calibration::load_theme_file::<autoplay::clients::cribbage::theme::TableTheme>(&path);
    });
}

#[test]
fn fuzz_session_manifests() {
    let manifest = std::fs::read(repo().join("fixtures/sessions/flood-sgt-flood/session.json")).unwrap();
    let seeds = vec![manifest[..manifest.len().min(3000)].to_vec(), manifest];
    fuzz("session manifests", seeds, &[], |bytes| {
        let _ = serde_json::from_slice::<autoplay::session::Manifest>(bytes);
    });
}

#[test]
fn fuzz_duel_protocol_lines() {
    let seeds = samples(&["Aa5", "Ii9!", "Start", "Quit", "Bc3"]);
    fuzz("two-player Sudoku moves", seeds, &[], |bytes| {
        let _ = text(bytes).parse::<sudoku_duel::Move>();
    });
}

/// The shipped calibration and a Cribbage theme learned from the parlour table's opening (its columns' places,
/// row of small cards and printed numbers), made once.
fn calibration_with_parlour() -> &'static std::path::Path {
    static ROOT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let root = tempfile::tempdir().unwrap();
        for entry in ["fonts.toml", "flood", "sudoku", "cribbage"] {
            let from = repo().join("calibration").join(entry);
            if from.is_dir() {
                std::fs::create_dir_all(root.path().join(entry)).unwrap();
                for file in std::fs::read_dir(&from).unwrap() {
                    let file = file.unwrap().path();
                    std::fs::copy(&file, root.path().join(entry).join(file.file_name().unwrap())).unwrap();
                }
            } else {
                std::fs::copy(&from, root.path().join(entry)).unwrap();
            }
        }
        let shot = repo().join("fixtures/cribbage-parlour/deal30-start.png");
        let truth =
            autoplay::cli::cribbage::parse_truth(&std::fs::read_to_string(shot.with_extension("calibration")).unwrap())
                .unwrap();
        let target = autoplay::calibration::ThemeTarget { root: root.path(), name: "parlour", replace: false };
        CribbageScreen::calibrate(&target, &autoplay::imageio::load_image(&shot).unwrap(), &truth).unwrap();
        root
    })
    .path()
}

/// Reads a picture with the three screen games' readers (errors are fine; panics and hangs are not).
/// The games are loaded once per test thread (their calibration and fonts), so that an input's time is its
/// readers' alone.
fn read_all(image: image::RgbaImage) {
    thread_local! {
        static GAMES: std::cell::RefCell<(FloodClient, SudokuClient, CribbageClient)> = {
            let root = calibration_with_parlour();
            std::cell::RefCell::new((
                FloodScreen::load(root, None).unwrap().client(),
                SudokuScreen::load(root, None).unwrap().client(),
                CribbageScreen::load(root, None).unwrap().client(),
            ))
        };
    }
    let frame = Frame::from_image(image);
    GAMES.with_borrow_mut(|(flood, sudoku, cribbage)| {
        let _ = flood.read(&frame, None);
        let _ = sudoku.read(&frame, None);
        let _ = cribbage.read(&frame, None);
    });
}

#[test]
fn fuzz_image_decoding_and_readers_on_mutated_pictures() {
    let mut seeds = Vec::new();
    for (folder, name) in [
        ("fixtures/flood", "2x2c3-tile32.png"),
        ("fixtures/flood", "5x5c3-tile32.png"),
        ("fixtures/sudoku", "2x2-tile48.png"),
        ("fixtures/cribbage-parlour", "deal30-mid.png"),
    ] {
        seeds.push(std::fs::read(repo().join(folder).join(name)).unwrap());
    }
    // The games' calibration and fonts loaded before any input is timed.
    read_all(image::RgbaImage::new(8, 8));
    fuzz("image decoding and readers (mutated files)", seeds, &[], |bytes| {
        if let Ok(image) = autoplay::imageio::decode_image(bytes, "fuzz input") {
            if image.width() * image.height() <= 1_000_000 {
                read_all(image);
            }
        }
    });
}

#[test]
fn fuzz_readers_on_random_pictures() {
    // Pictures of random size made of random flat blocks, lines and noise: what a reader meets on a desktop.
    let pictures = (
        1u32..96,
        1u32..96,
        proptest::collection::vec((any::<u32>(), any::<u32>(), any::<u32>(), any::<[u8; 3]>()), 0..24),
    );
    read_all(image::RgbaImage::new(8, 8));
    run_for_budget("readers on random pictures", pictures, 64, |(w, h, shapes)| {
        let (w, h) = (w * 4, h * 4);
        let mut image = image::RgbaImage::from_pixel(w, h, image::Rgba([240, 240, 240, 255]));
        for (a, b, c, rgb) in shapes {
            let (x0, y0) = (a % w, b % h);
            let (x1, y1) = ((x0 + c % 64).min(w), (y0 + (c >> 8) % 64).min(h));
            for y in y0..y1 {
                for x in x0..x1 {
                    image.put_pixel(x, y, image::Rgba([rgb[0], rgb[1], rgb[2], 255]));
                }
            }
        }
        read_all(image);
    });
}
