//! Recorded live sessions (fixtures/sessions/<game>-<client>/) replay offline, with no display: the play loop
//! reads the recorded frames, and every capture, wait, reading and click must come as recorded. A recording
//! tampered with (a frame swapped for an earlier one) must not replay.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::repo;

fn replay(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .env("AUTOPLAY_CALIBRATION", repo().join("calibration"))
        .env_remove("DISPLAY")
        .arg("replay")
        .arg(dir)
        .output()
        .unwrap()
}

fn sessions() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(repo().join("fixtures/sessions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("session.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_recorded_session_replays_without_a_display() {
    let dirs = sessions();
    let names: Vec<String> = dirs.iter().map(|d| d.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for game in ["flood-", "sudoku-sgt-solo", "sudoku-gnome", "cribbage-"] {
        assert!(names.iter().any(|n| n.starts_with(game)), "no recorded session for {game}: {names:?}");
    }
    for dir in dirs {
        let out = replay(&dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", dir.display());
        assert!(String::from_utf8_lossy(&out.stdout).contains("session reproduced"), "{}", dir.display());
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Copies a session folder (session.json and frames/) into `to`.
fn copy_session(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.join("frames")).unwrap();
    std::fs::copy(from.join("session.json"), to.join("session.json")).unwrap();
    for entry in std::fs::read_dir(from.join("frames")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join("frames").join(path.file_name().unwrap())).unwrap();
    }
}

#[test]
fn a_session_with_a_frame_swapped_for_an_earlier_one_fails_naming_the_frame() {
    let original = repo().join("fixtures/sessions/flood-sgt-flood");
    let mut frames: Vec<PathBuf> =
        std::fs::read_dir(original.join("frames")).unwrap().map(|e| e.unwrap().path()).collect();
    frames.sort();
    assert!(frames.len() >= 6);
    for swapped in [frames.len() / 2, frames.len() - 1] {
        let dir = tempfile::tempdir().unwrap();
        copy_session(&original, dir.path());
        let name = frames[swapped].file_name().unwrap().to_string_lossy().into_owned();
        std::fs::copy(&frames[swapped - 2], dir.path().join("frames").join(&name)).unwrap();
        let out = replay(dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "a session with {name} swapped replayed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(stderr.contains(&format!("frames/{name}")), "the message should name frames/{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_broken_session_folder_gets_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = replay(dir.path());
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("session.json"));
    std::fs::write(dir.path().join("session.json"), "{\"version\": 1, \"game\": \"flood\"").unwrap();
    let out = replay(dir.path());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not a session manifest"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A session cut short (its last events lost) ends differently from its recorded outcome.
    let cut = tempfile::tempdir().unwrap();
    copy_session(&repo().join("fixtures/sessions/flood-sgt-flood"), cut.path());
    let text = std::fs::read_to_string(cut.path().join("session.json")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = [&lines[..lines.len() / 2], &["{\"kind\":\"note\",\"text\":\"cut\"}", "]}"]].concat().join("\n");
    std::fs::write(cut.path().join("session.json"), kept).unwrap();
    let out = replay(cut.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("the recording has ended"), "{stderr}");
}

#[test]
fn a_recording_never_goes_into_a_folder_of_the_users() {
    // The refusal comes before any window is looked for, so no display is needed.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("frames")).unwrap();
    std::fs::write(dir.path().join("frames/keep.txt"), "mine").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_autoplay"))
        .env("AUTOPLAY_CALIBRATION", repo().join("calibration"))
        .env_remove("DISPLAY")
        .args(["play", "flood", "--record"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("holds no recording"), "{stderr}");
    assert!(std::fs::read_to_string(dir.path().join("frames/keep.txt")).is_ok(), "the user's file is kept: {stderr}");
}

/// The manifest of a session folder, as JSON, changed by `change` and written back.
fn rewrite_manifest(dir: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let path = dir.join("session.json");
    let mut manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut manifest);
    std::fs::write(&path, serde_json::to_string(&manifest).unwrap()).unwrap();
}

/// The loop's reports are recorded as values and compared on replay: a report changed in the recording (the
/// first move said to be made another way) fails the replay, naming what the loop reported and what was recorded.
#[test]
fn a_report_unlike_the_recorded_one_fails_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    copy_session(&repo().join("fixtures/sessions/flood-sgt-flood"), dir.path());
    rewrite_manifest(dir.path(), |manifest| {
        assert_eq!(manifest["version"], 2, "the session was recorded with its reports as values");
        let events = manifest["events"].as_array_mut().unwrap();
        let moving = events
            .iter_mut()
            .find(|e| e["kind"] == "play" && e["event"]["report"] == "moving")
            .expect("the recording holds the first move's report");
        moving["event"]["how"] = "a way the loop never chose".into();
    });
    let out = replay(dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the loop reported 'move 1:") && stderr.contains("a way the loop never chose"),
        "the message names both reports: {stderr}"
    );
}

/// A recording of version 1, where the loop's reports were text notes, still replays: its notes are skipped and
/// every call and reading is checked.
#[test]
fn a_recording_of_version_1_with_notes_for_reports_still_replays() {
    let dir = tempfile::tempdir().unwrap();
    copy_session(&repo().join("fixtures/sessions/flood-sgt-flood"), dir.path());
    rewrite_manifest(dir.path(), |manifest| {
        manifest["version"] = 1.into();
        for event in manifest["events"].as_array_mut().unwrap() {
            if event["kind"] == "play" {
                *event = serde_json::json!({"kind": "note", "text": event["event"]["report"].clone()});
            }
        }
    });
    let out = replay(dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("session reproduced"));
}
