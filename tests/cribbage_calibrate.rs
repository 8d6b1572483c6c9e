//! Calibrating Cribbage Solitaire from one labelled shot, on a table the reader was not written for
//! (fixtures/tables/cribbage-parlour.html: four columns of 13 overlapped cards on a green panel with darker, larger
//! margins, serif ranks, suits as pictures, no stack pile but a row of small cards, totals as text, a small icon
//! button to end a stack), learned from one labelled shot of its opening position: positions in mid-game read as the
//! page's own state says; a label that does not name the icon control has the table taken to end its stacks by
//! itself, saying so; and a bare felt is a finished table only in the learned felt's shape. (The parlour learned so
//! and played live: tests/cribbage_play_live.rs.)

mod common;

use std::path::Path;

use autoplay::clients::cribbage::{self as screen, load_themes, TableTheme};
use autoplay::games::cribbage::commands::parse_state;
use autoplay::imageio::load_image;
use common::cribbage::{autoplay, calibrate};
use common::{fixture_shots, repo};

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
