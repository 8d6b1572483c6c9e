//! One folder per game, each holding its board, reader, solver and actions behind [`crate::game::Game`].

pub mod cribbage;
pub mod dandelions;
pub mod flood;
pub mod lunar;
pub mod sudoku;
pub mod sudoku_duel;

use std::path::Path;

use anyhow::{bail, Result};

use crate::cli::session::replay_game;
use crate::session::Manifest;

/// Replays the recorded session in `dir` with the screen game it names (see [`crate::session`]).
pub fn replay(root: &Path, dir: &Path) -> Result<()> {
    let manifest = Manifest::load(dir)?;
    match manifest.game.as_str() {
        "flood" => replay_game::<flood::Flood>(root, dir, &manifest),
        "sudoku" => replay_game::<sudoku::Sudoku>(root, dir, &manifest),
        "cribbage" => replay_game::<cribbage::Cribbage>(root, dir, &manifest),
        other => bail!("{}: '{other}' is not a game played in a window", dir.display()),
    }
}
