//! Sudoku digits in fonts the reader does not list (`calibration/fonts.toml`), read with no calibration: the
//! project's own page (`fixtures/tables/sudoku-fonts.html`, written from a description alone) rendered in
//! Liberation Sans Bold, Liberation Serif Italic, FreeMono, FreeSerif, Nimbus Sans Narrow, Noto Serif Bold
//! Italic, and a blocky 5×7 bitmap font of its own, givens in black and six player's digits in blue
//! (`fixtures/sudoku-fonts/`, made by `scripts/fixtures/sudoku-fonts.sh`). Each must read exactly: every
//! digit, and which are givens.

mod common;

use autoplay::games::sudoku::screen::discover::{self, DigitShapes};
use autoplay::imageio::load_image;
use common::repo;

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
