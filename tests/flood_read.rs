//! Reading Flood-It screenshots: every captured sgt-flood screenshot reads as exactly the game's own truth, with
//! the shipped themes and with no calibration (as do other clients' screenshots); a picture no theme reads is reported
//! by the theme that got furthest; and colour buttons of many looks (`fixtures/flood-buttons/`: the project's own page
//! in each of its button styles) are found with no calibration, the first button the bot would click for each colour
//! being that colour's button.

mod common;

use std::collections::HashMap;

use autoplay::capture::Frame;
use autoplay::clients::flood::{self as screen, FloodClient, FloodWay};
use autoplay::game::{Action, Client};
use autoplay::games::flood::{ColourMove, FloodBoard};
use autoplay::imageio::load_image;
use common::*;

#[test]
fn every_fixture_reads_exactly_its_truth() {
    let themes = flood_themes();
    for fixture in flood_fixtures() {
        let image = load_image(&fixture.png).unwrap();
        let reading = screen::read(&image, &themes, None).unwrap_or_else(|e| panic!("{}: {e:#}", fixture.name));
        let theme = themes.iter().find(|t| t.theme == reading.theme).unwrap();
        let truth = theme.board_of(&fixture.id).unwrap();
        assert_eq!(reading.board, truth, "{}: read\n{}\ntruth\n{}", fixture.name, reading.board, truth);
        let expected_theme = if fixture.name.contains("recoloured") { "recoloured-example" } else { "sgt-default" };
        assert_eq!(reading.theme, expected_theme, "{}", fixture.name);
        // Every cell centre lies inside the picture, on a pixel of that cell's colour.
        for row in 0..reading.layout.rows {
            for col in 0..reading.layout.cols {
                let (x, y) = reading.layout.centre(row, col);
                let symbol = reading.board.at(row, col) as char;
                let colour = theme.colours.iter().find(|c| c.symbol == symbol).unwrap();
                // Beside the centre, clear of any centre mark.
                let p = image.get_pixel((x as f64 - reading.layout.pitch_x * 0.25) as u32, y as u32);
                assert_eq!([p[0], p[1], p[2]], colour.rgb().unwrap(), "{} cell ({row}, {col})", fixture.name);
            }
        }
    }
}

/// When no theme reads a picture, the error is the one that got furthest, not the one of the theme that matched
/// most pixels: here a large patch in a colour of the recoloured theme (which then finds one flat patch), beside
/// an sgt-flood board with one cell in a colour of no theme (which the default theme finds and names).
#[test]
fn an_unreadable_picture_is_reported_by_the_theme_that_got_furthest() {
    let themes = flood_themes();
    let default = themes.iter().find(|t| t.theme == "sgt-default").unwrap();
    let recoloured = themes.iter().find(|t| t.theme == "recoloured-example").unwrap();
    let default_rgbs: Vec<[u8; 3]> = default.colours.iter().map(|c| c.rgb().unwrap()).collect();
    let patch = recoloured.colours.iter().map(|c| c.rgb().unwrap()).find(|rgb| !default_rgbs.contains(rgb)).unwrap();
    let fixture = flood_fixtures().into_iter().find(|f| f.name == "12x12c6-tile20").unwrap();
    let board = load_image(&fixture.png).unwrap();
    let reading = screen::read(&board, &themes, None).unwrap();
    let (w, h) = board.dimensions();
    let mut picture = image::RgbaImage::from_pixel(w * 3, h, image::Rgba([255, 255, 255, 255]));
    image::imageops::replace(&mut picture, &board, 0, 0);
    for y in 20..h - 20 {
        for x in w + 20..w * 3 - 20 {
            picture.put_pixel(x, y, image::Rgba([patch[0], patch[1], patch[2], 255]));
        }
    }
    let (cx, cy) = reading.layout.centre(5, 7);
    let half = (reading.layout.side() / 2.0) as i32 - 3;
    for y in cy - half..=cy + half {
        for x in cx - half..=cx + half {
            picture.put_pixel(x as u32, y as u32, image::Rgba([0x12, 0x34, 0x56, 255]));
        }
    }
    let error = format!("{:#}", screen::read(&picture, &themes, None).unwrap_err());
    assert!(error.contains("theme 'sgt-default'") && error.contains("#123456"), "{error}");
}

/// Whether two boards are the same up to the names of their colours (a one-to-one renaming).
fn same_up_to_symbols(a: &autoplay::games::flood::FloodBoard, b: &autoplay::games::flood::FloodBoard) -> bool {
    let mut forward = std::collections::HashMap::new();
    let mut backward = std::collections::HashMap::new();
    (a.width, a.height) == (b.width, b.height)
        && a.cells
            .iter()
            .zip(&b.cells)
            .all(|(x, y)| *forward.entry(*x).or_insert(*y) == *y && *backward.entry(*y).or_insert(*x) == *x)
}

/// With no calibration at all, every sgt-flood screenshot and every other client's (sgt-flood recoloured with
/// a brown background and white cells beside its white frame; the project's web client at a fractional
/// pitch) reads as its truth, up to the names of the colours; and with the shipped themes, the clients they
/// do not describe still read.
#[test]
fn every_screenshot_reads_with_no_calibration() {
    let themes = flood_themes();
    let mut shots: Vec<(String, std::path::PathBuf, autoplay::games::flood::FloodBoard)> = Vec::new();
    for fixture in flood_fixtures() {
        let theme = themes.iter().find(|t| {
            t.theme == if fixture.name.contains("recoloured") { "recoloured-example" } else { "sgt-default" }
        });
        let truth = theme.unwrap().board_of(&fixture.id).unwrap();
        shots.push((fixture.name, fixture.png, truth));
    }
    let default = themes.iter().find(|t| t.theme == "sgt-default").unwrap();
    for (name, png) in fixture_shots("flood-clients") {
        let truth = match std::fs::read_to_string(png.with_extension("txt")) {
            Ok(text) => autoplay::games::flood::FloodBoard::parse(&text).unwrap(),
            Err(_) => default
                .board_of(
                    &autoplay::games::flood::sgt_id::SgtFloodId::parse(
                        &std::fs::read_to_string(png.with_extension("id")).unwrap(),
                    )
                    .unwrap(),
                )
                .unwrap(),
        };
        shots.push((name, png, truth));
    }
    assert!(shots.len() >= 16, "{}", shots.len());
    for (name, png, truth) in &shots {
        let image = load_image(png).unwrap();
        let reading = screen::read(&image, &[], None).unwrap_or_else(|e| panic!("{name}, no calibration: {e:#}"));
        assert!(
            same_up_to_symbols(&reading.board, truth),
            "{name}, no calibration: read\n{}truth\n{truth}",
            reading.board
        );
        let reading = screen::read(&image, &themes, None).unwrap_or_else(|e| panic!("{name}, shipped themes: {e:#}"));
        assert!(
            same_up_to_symbols(&reading.board, truth),
            "{name}, shipped themes: read\n{}truth\n{truth}",
            reading.board
        );
    }
}

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
        let mut game = FloodClient::with_themes(Vec::new());
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
                .actions(&frame, &reading, &ColourMove(symbol), FloodWay::ColourButton)
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

/// The Tk client that takes only keys (fixtures/tables/flood_tk_keys.py): the letter printed on each colour's swatch
/// is read with the fonts, with no calibration made for the client, as the key to try first for that colour.
#[test]
fn the_key_printed_on_each_swatch_is_the_one_tried_for_its_colour() {
    use autoplay::clients::flood::FloodScreen;
    use autoplay::game::Screen;
    let dir = common::repo().join("fixtures/flood-clients");
    let truth = FloodBoard::parse(&std::fs::read_to_string(dir.join("tk-keys-seed5.txt")).unwrap()).unwrap();
    let keys: Vec<(u8, char)> = std::fs::read_to_string(dir.join("tk-keys-seed5.keys.txt"))
        .unwrap()
        .lines()
        .map(|line| (line.as_bytes()[0], line.chars().last().unwrap()))
        .collect();
    let mut game =
        FloodScreen { themes: Vec::new(), calibration_root: Some(common::repo().join("calibration")) }.client();
    let frame = Frame::from_image(load_image(&dir.join("tk-keys-seed5.png")).unwrap());
    let reading = game.read(&frame, None).unwrap();
    let names = names_between(&truth, &reading.board).unwrap_or_else(|| panic!("read\n{}", reading.board));
    assert_eq!(keys.len(), 6);
    for (colour, key) in keys {
        let symbol = names[&colour];
        let events = game
            .actions(&frame, &reading, &ColourMove(symbol), FloodWay::PrintedKey)
            .unwrap()
            .unwrap_or_else(|| panic!("no key read for colour {}", colour as char));
        assert_eq!(events.actions, [Action::Type(key)], "colour {}", colour as char);
    }
}
