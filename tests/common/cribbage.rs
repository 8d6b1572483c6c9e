//! Helpers shared by the Cribbage Solitaire tests: the Python that runs the Tk table, a calibration folder of the
//! font lists alone, and the bot run with a calibration folder of the test's own, in which the parlour table is
//! calibrated from a labelled shot.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use super::repo;

/// The Python that runs the Tk table (fixtures/tables/cribbage_tk.py).
pub fn python() -> &'static str {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

/// A calibration folder with the font lists and nothing else.
pub fn calibration_of_fonts_only() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for list in ["fonts.toml", "card-fonts.toml"] {
        std::fs::copy(repo().join("calibration").join(list), dir.path().join(list)).unwrap();
    }
    dir
}

/// The bot's binary as a command, with the calibration folder `calibration` (`super::autoplay` gives the
/// repository's).
pub fn autoplay(calibration: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    command.env("AUTOPLAY_CALIBRATION", calibration);
    command
}

/// Calibrates theme `parlour` into `root` from `shot` and its truth file; returns the command's output.
pub fn calibrate(root: &Path, shot: &Path, truth: &Path) -> std::process::Output {
    autoplay(root)
        .args(["calibrate", "cribbage"])
        .arg(shot)
        .arg("--truth")
        .arg(truth)
        .args(["--theme", "parlour"])
        .output()
        .unwrap()
}
