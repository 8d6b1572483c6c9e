//! Helpers shared by the Sudoku reading tests: the givens of an sgt-solo game ID, and the bot as an assert_cmd
//! command (its standard input given as a file or as bytes).
#![allow(dead_code)]

use autoplay::games::sudoku::SudokuGrid;

use super::repo;

/// The givens of an sgt-solo game ID.
pub fn parse_id(id: &str) -> anyhow::Result<SudokuGrid> {
    SudokuGrid::parse_givens(id)
}

/// The bot's binary as an assert_cmd command, with the repository's calibration (`AUTOPLAY_CALIBRATION`).
pub fn autoplay() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("autoplay").unwrap();
    command.env("AUTOPLAY_CALIBRATION", repo().join("calibration"));
    command
}
