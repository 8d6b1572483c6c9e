//! Reading Flood-It live: on Xvfb with a window manager, a real sgt-flood window is listed by `autoplay windows`,
//! and its captures (of the window and of the whole screen, the window moved; PNM by the file name's extension) read
//! back as the game's own truth.

mod common;

use std::process::Stdio;

use common::autoplay;
use common::desktop::Desktop;
use common::sgt_flood::open_game;

#[test]
fn captures_windows_and_screens_that_read_back_as_the_truth() {
    let mut desktop = Desktop::start();
    let (window, truth) = open_game(&mut desktop, "9x7c5m0#pipeline", &[("FLOOD_TILESIZE", "24")]);
    let listed = autoplay().args(["windows", "--json"]).env("DISPLAY", &desktop.display).output().unwrap();
    let windows: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert!(windows.as_array().unwrap().iter().any(|w| w["title"] == "Flood"), "{windows}");
    desktop.move_window(&window, 611, 333);
    for source in [&["--window", "Flood"][..], &["--screen"][..]] {
        let capture = autoplay().arg("capture").args(source).env("DISPLAY", &desktop.display).output().unwrap();
        assert!(capture.status.success());
        let mut read =
            autoplay().args(["read", "flood", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        use std::io::Write;
        read.stdin.take().unwrap().write_all(&capture.stdout).unwrap();
        let out = read.wait_with_output().unwrap();
        assert!(out.status.success(), "{source:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), truth.to_string(), "{source:?}");
    }
    // PNM by the file name's extension.
    let dir = tempfile::tempdir().unwrap();
    let pnm = dir.path().join("flood.pnm");
    let capture = autoplay()
        .args(["capture", "--window", "Flood", "-o"])
        .arg(&pnm)
        .env("DISPLAY", &desktop.display)
        .output()
        .unwrap();
    assert!(capture.status.success());
    assert!(std::fs::read(&pnm).unwrap().starts_with(b"P6"), "a binary PPM");
    let out = autoplay().args(["read", "flood"]).arg(&pnm).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), truth.to_string());
}
