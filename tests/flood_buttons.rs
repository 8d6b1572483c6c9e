//! Colour buttons of many looks, found with no calibration: screenshots of the project's own page in each of its
//! button styles (`fixtures/flood-buttons/`, made by `scripts/fixtures/flood-buttons.sh`: discs, ellipses
//! with a white outline on a page of their orange, rounded tiles with a shadow and a label in a side panel, flat
//! squares one of them near the page's colour, gradient discs in a column, at three sizes). Each board must read
//! exactly, and the first button the bot would click for every colour must be that colour's button.

mod common;

use std::collections::HashMap;

use autoplay::capture::Frame;
use autoplay::game::{Action, ScreenGame};
use autoplay::games::flood::{ColourMove, Flood, FloodBoard};
use autoplay::imageio::load_image;

/// The one renaming of symbols that turns board `a` into board `b`, if there is one.
fn names_between(a: &FloodBoard, b: &FloodBoard) -> Option<HashMap<u8, u8>> {
    if (a.width, a.height) != (b.width, b.height) {
        return None;
    }
    let mut forward = HashMap::new();
    let mut backward = HashMap::new();
    for (&x, &y) in a.cells.iter().zip(&b.cells) {
        if *forward.entry(x).or_insert(y) != y || *backward.entry(y).or_insert(x) != x {
            return None;
        }
    }
    Some(forward)
}

/// A fixture's truth: every button's symbol and centre.
fn buttons_of(text: &str) -> Vec<(u8, i32, i32)> {
    text.lines()
        .map(|line| {
            let parts: Vec<&str> = line.split_whitespace().collect();
            (parts[0].as_bytes()[0], parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn every_style_of_button_is_the_first_tried_for_its_colour() {
    let dir = common::repo().join("fixtures/flood-buttons");
    let pngs: Vec<std::path::PathBuf> = common::fixture_shots("flood-buttons").into_iter().map(|(_, p)| p).collect();
    assert!(pngs.len() >= 8, "{} fixtures", pngs.len());
    for png in pngs {
        let name = png.file_stem().unwrap().to_string_lossy().into_owned();
        let truth =
            FloodBoard::parse(&std::fs::read_to_string(dir.join(format!("{name}.board.txt"))).unwrap()).unwrap();
        let buttons = buttons_of(&std::fs::read_to_string(dir.join(format!("{name}.buttons.txt"))).unwrap());
        // No calibration at all: the colours, and then the buttons, are found in the picture.
        let game = Flood::new(Vec::new());
        let frame = Frame::from_image(load_image(&png).unwrap());
        let reading = game.read(&frame, None).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        // Colours found in the picture are named by their look; the page names them its own way.
        let names = names_between(&truth, &reading.board)
            .unwrap_or_else(|| panic!("{name}: read\n{}\ntruth\n{truth}", reading.board));
        let mut checked = 0;
        for &(page_symbol, x, y) in &buttons {
            let Some(&symbol) = names.get(&page_symbol) else { continue };
            checked += 1;
            let events = game
                .actions(&frame, &reading, &ColourMove(symbol), 1)
                .unwrap()
                .unwrap_or_else(|| panic!("{name}: no button found for '{}'", symbol as char));
            let [Action::Click { x: cx, y: cy }] = events.actions.as_slice() else { panic!("{name}: {events:?}") };
            let off = (cx - x).abs().max((cy - y).abs());
            assert!(off <= 6, "{name}: '{}' clicks at ({cx}, {cy}), the button is at ({x}, {y})", symbol as char);
        }
        assert_eq!(checked, names.len(), "{name}: a colour of the board has no button in the truth");
        eprintln!("{name}: {checked} buttons found");
    }
}
