//! Replaying a live Flood-It game: sgt-flood on Xvfb, played with `--record`, replays offline with no display; a game
//! that fails (stopped by its move limit) keeps its recording where the bot says, and that replays to the same
//! failure.

mod common;

use std::time::Duration;

use common::autoplay;
use common::desktop::{wait_until, Desktop};
use common::sgt_flood::{colours_shown, open_game, palette_counts};

/// A live game recorded with `--record` replays offline, with no display, and a game that fails leaves its
/// recording where the bot says, which replays to the same failure.
#[test]
fn a_recorded_game_replays_without_a_display_and_a_failed_game_keeps_its_recording() {
    let mut desktop = Desktop::start();
    let (window, _) = open_game(&mut desktop, "7x7c4m0#live-record", &[]);
    let recording = tempfile::tempdir().unwrap();
    let dir = recording.path().join("session");
    let out =
        autoplay().args(["play", "flood", "--record"]).arg(&dir).env("DISPLAY", &desktop.display).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    wait_until("the window to show one colour", Duration::from_secs(20), || colours_shown(&desktop, &window) == 1);
    assert_eq!(palette_counts(&desktop, &window).iter().filter(|&&n| n > 0).count(), 1, "the game is won");
    let replay = autoplay().arg("replay").arg(&dir).env_remove("DISPLAY").output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));

    // A second game stopped by its move limit: the recording is kept in the cache and named.
    desktop.run("xdotool", &["windowkill", &window]);
    wait_until("the first game's window to close", Duration::from_secs(20), || {
        !desktop.visible_windows("Flood").contains(&window)
    });
    let (_, _) = open_game(&mut desktop, "7x7c4m0#live-record-fail", &[]);
    let cache = tempfile::tempdir().unwrap();
    let out = autoplay()
        .args(["play", "flood", "--max-moves", "2"])
        .env("DISPLAY", &desktop.display)
        .env("XDG_CACHE_HOME", cache.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("move limit"), "{stderr}");
    let kept = stderr
        .lines()
        .find_map(|l| l.strip_prefix("the recording of this game is in "))
        .expect("where the recording is");
    let kept = kept.split(" (replay it").next().unwrap();
    assert!(kept.starts_with(&cache.path().display().to_string()), "{kept}");
    let replay = autoplay().arg("replay").arg(kept).env_remove("DISPLAY").output().unwrap();
    let replayed = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success() && replayed.contains("move limit"),
        "{replayed}{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}
