//! sgt-flood on a live desktop: a game started at given parameters and seed, with its truth from the game itself,
//! and the colours its window shows, counted against sgt-flood's published palette.
#![allow(dead_code)]

use std::process::Command;

use autoplay::games::flood::{sgt_id::SgtFloodId, FloodBoard};

use super::desktop::Desktop;
use super::flood_themes;

pub const SGT_FLOOD: &str = "/usr/games/sgt-flood";

/// sgt-flood's cell colours 0–9 as published (desktop.md); 6 (brown) is never drawn as brown by this version.
const SGT_PALETTE: [[u8; 3]; 10] = [
    [0xff, 0x00, 0x00],
    [0xff, 0xff, 0x00],
    [0x00, 0xff, 0x00],
    [0x33, 0x4c, 0xff],
    [0xff, 0x80, 0x00],
    [0x80, 0x00, 0xb3],
    [0x80, 0x4c, 0x4c],
    [0x66, 0xcc, 0xff],
    [0xb3, 0xff, 0xb3],
    [0xff, 0x99, 0xff],
];

/// The game ID for parameters and seed, from sgt-flood itself.
fn generate(params_and_seed: &str) -> SgtFloodId {
    let out = Command::new(SGT_FLOOD)
        .args(["--generate", "1", params_and_seed])
        .output()
        .expect("sgt-flood must be installed");
    assert!(out.status.success());
    SgtFloodId::parse(&String::from_utf8_lossy(&out.stdout)).unwrap()
}

fn board_of(id: &SgtFloodId) -> FloodBoard {
    let theme = flood_themes().into_iter().find(|t| t.theme == "sgt-default").unwrap();
    theme.board_of(id).unwrap()
}

/// How many pixels of each sgt-flood colour the window shows.
pub fn palette_counts(desktop: &Desktop, window: &str) -> [usize; 10] {
    // Once the picture holds still: the game flashes its board when it is won, and the bot, which takes the won
    // board as soon as it reads, may be done before the flash is.
    let (_, _, rgb) = desktop.wait_for_still_picture(window);
    let mut counts = [0; 10];
    for p in rgb.chunks(3) {
        if let Some(i) = SGT_PALETTE.iter().position(|c| c == p) {
            counts[i] += 1;
        }
    }
    counts
}

/// Starts sgt-flood on a desktop with the given parameters and seed, returning the window id and the truth.
pub fn open_game(desktop: &mut Desktop, params_and_seed: &str, env: &[(&str, &str)]) -> (String, FloodBoard) {
    let id = generate(params_and_seed);
    desktop.spawn(SGT_FLOOD, &[params_and_seed], env);
    let window = desktop.wait_for_window("Flood");
    (window, board_of(&id))
}

/// The number of sgt-flood colours the window shows (1 when the game is won).
pub fn colours_shown(desktop: &Desktop, window: &str) -> usize {
    palette_counts(desktop, window).iter().filter(|&&n| n > 0).count()
}
