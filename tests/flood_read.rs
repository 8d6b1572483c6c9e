//! Replays every captured sgt-flood screenshot: the reader must give exactly the game's own truth, and the
//! solver a valid solution no longer than the game's own solver's, and the true minimum on small boards.

mod common;

use std::time::{Duration, Instant};

use autoplay::game::SolveLimits;
use autoplay::games::flood::{screen::reader, solve_board};
use autoplay::imageio::load_image;
use common::*;

#[test]
fn every_fixture_reads_exactly_its_truth() {
    let themes = flood_themes();
    for fixture in flood_fixtures() {
        let image = load_image(&fixture.png).unwrap();
        let reading = reader::read(&image, &themes, None).unwrap_or_else(|e| panic!("{}: {e:#}", fixture.name));
        let theme = themes.iter().find(|t| t.theme == reading.theme).unwrap();
        let truth = fixture.id.to_board(theme).unwrap();
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
                let p = image.get_pixel((x as f64 - reading.layout.pitch * 0.25) as u32, y as u32);
                assert_eq!([p[0], p[1], p[2]], colour.rgb().unwrap(), "{} cell ({row}, {col})", fixture.name);
            }
        }
    }
}

#[test]
fn every_fixture_board_is_solved_no_worse_than_the_games_own_solver() {
    let themes = flood_themes();
    for fixture in flood_fixtures() {
        let theme = themes.iter().find(|t| t.theme == "sgt-default").unwrap();
        let board = fixture.id.to_board(theme).unwrap();
        let limits = SolveLimits { deadline: Some(Instant::now() + Duration::from_secs(20)) };
        let plan = solve_board(&board, &limits);
        let moves: Vec<u8> = plan.moves.iter().map(|m| m.0).collect();
        assert!(solves(&board, &moves), "{}: the solution does not flood the board", fixture.name);
        assert!(
            moves.len() as u32 <= fixture.game_solver_moves,
            "{}: {} moves, but sgt-flood's own solver needs only {}",
            fixture.name,
            moves.len(),
            fixture.game_solver_moves
        );
        if board.width * board.height <= 64 {
            assert!(plan.optimal, "{}: small board not proven optimal", fixture.name);
            assert_eq!(moves.len(), brute_force_minimum(&board), "{}: not the true minimum", fixture.name);
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
    let reading = reader::read(&board, &themes, None).unwrap();
    let (w, h) = board.dimensions();
    let mut picture = image::RgbaImage::from_pixel(w * 3, h, image::Rgba([255, 255, 255, 255]));
    image::imageops::replace(&mut picture, &board, 0, 0);
    for y in 20..h - 20 {
        for x in w + 20..w * 3 - 20 {
            picture.put_pixel(x, y, image::Rgba([patch[0], patch[1], patch[2], 255]));
        }
    }
    let (cx, cy) = reading.layout.centre(5, 7);
    let half = (reading.layout.pitch / 2.0) as i32 - 3;
    for y in cy - half..=cy + half {
        for x in cx - half..=cx + half {
            picture.put_pixel(x as u32, y as u32, image::Rgba([0x12, 0x34, 0x56, 255]));
        }
    }
    let error = format!("{:#}", reader::read(&picture, &themes, None).unwrap_err());
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
        let truth = fixture.id.to_board(theme.unwrap()).unwrap();
        shots.push((fixture.name, fixture.png, truth));
    }
    let default = themes.iter().find(|t| t.theme == "sgt-default").unwrap();
    for (name, png) in fixture_shots("flood-clients") {
        let truth = match std::fs::read_to_string(png.with_extension("txt")) {
            Ok(text) => autoplay::games::flood::FloodBoard::parse(&text).unwrap(),
            Err(_) => autoplay::games::flood::sgt_id::SgtFloodId::parse(
                &std::fs::read_to_string(png.with_extension("id")).unwrap(),
            )
            .unwrap()
            .to_board(default)
            .unwrap(),
        };
        shots.push((name, png, truth));
    }
    assert!(shots.len() >= 16, "{}", shots.len());
    for (name, png, truth) in &shots {
        let image = load_image(png).unwrap();
        let reading = reader::read(&image, &[], None).unwrap_or_else(|e| panic!("{name}, no calibration: {e:#}"));
        assert!(
            same_up_to_symbols(&reading.board, truth),
            "{name}, no calibration: read\n{}truth\n{truth}",
            reading.board
        );
        let reading = reader::read(&image, &themes, None).unwrap_or_else(|e| panic!("{name}, shipped themes: {e:#}"));
        assert!(
            same_up_to_symbols(&reading.board, truth),
            "{name}, shipped themes: read\n{}truth\n{truth}",
            reading.board
        );
    }
}
