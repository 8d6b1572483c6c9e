//! Live test of a Wayland session: a real Wayland compositor (sway, headless, with its own XWayland) run by an
//! unprivileged user (sway refuses root), a GTK game started under XWayland as docs/desktops.md says
//! (`GDK_BACKEND=x11`), and the bot run inside that session, as a user there would run it. The bot must say it
//! is on Wayland, list the game's window, and win it through XTEST; the window's pixels, captured with xwd inside
//! the session, show one colour at the end.

mod common;

use std::os::unix::fs::{chown, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::desktop::{parse_ppm, wait_until};

/// The unprivileged user the session runs as when the tests run as root.
const NOBODY: u32 = 65534;

/// sgt-flood's six default cell colours as published (desktop.md).
const SGT_COLOURS: [[u8; 3]; 6] =
    [[0xff, 0, 0], [0xff, 0xff, 0], [0, 0xff, 0], [0x33, 0x4c, 0xff], [0xff, 0x80, 0], [0x80, 0, 0xb3]];

/// What runs inside the session: the game under XWayland, then the bot, leaving their outputs in the folder.
const SESSION_SCRIPT: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
export AUTOPLAY_CALIBRATION="$PWD/calibration"
GDK_BACKEND=x11 /usr/games/sgt-flood '10x10c6m0#wayland' >/dev/null 2>&1 &
i=0
until ./autoplay windows 2>/dev/null | grep -q ' Flood$'; do
    i=$((i + 1)); [ "$i" -lt 600 ] || break; sleep 0.05
done
./autoplay windows >windows.txt 2>windows.err
./autoplay play flood --json >report.json 2>play.err
echo $? >play.status
xwd -silent -id "$(xdotool search --name '^Flood$' | head -n 1)" | xwdtopnm >after.ppm 2>/dev/null
echo done >finished
"#;

/// Makes `path` the session user's.
fn give(path: &Path, root: bool) {
    if root {
        chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

#[test]
fn a_gtk_game_under_xwayland_in_a_wayland_session_is_listed_and_won() {
    let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    give(dir, root);
    let runtime = dir.join("runtime");
    std::fs::create_dir(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    give(&runtime, root);
    let bot = dir.join("autoplay");
    std::fs::copy(env!("CARGO_BIN_EXE_autoplay"), &bot).unwrap();
    // The project's calibration, where the session's user can read it (the checkout may be private to root).
    let copied = Command::new("cp").arg("-r").arg(common::repo().join("calibration")).arg(dir).status().unwrap();
    assert!(copied.success(), "cannot copy the calibration");
    if root {
        let owned = Command::new("chown")
            .args(["-R", &format!("{NOBODY}:{NOBODY}")])
            .arg(dir.join("calibration"))
            .status()
            .unwrap();
        assert!(owned.success());
    }
    let script = dir.join("session.sh");
    std::fs::write(&script, SESSION_SCRIPT).unwrap();
    for file in [&bot, &script] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755)).unwrap();
        give(file, root);
    }
    let as_session_user = |command: &mut Command| {
        command.env_clear().envs([
            ("XDG_RUNTIME_DIR", runtime.as_os_str()),
            ("HOME", dir.as_os_str()),
            ("PATH", "/usr/bin:/bin".as_ref()),
        ]);
        if root {
            command.uid(NOBODY).gid(NOBODY);
        }
    };

    let mut sway = Command::new("sway");
    as_session_user(&mut sway);
    let sway_log = std::fs::File::create(dir.join("sway.log")).unwrap();
    let mut sway = sway
        .envs([("WLR_BACKENDS", "headless"), ("WLR_LIBINPUT_NO_DEVICES", "1"), ("WLR_RENDERER", "pixman")])
        // Its own process group, so that the session ends whole: sway, XWayland, the game.
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(sway_log)
        .spawn()
        .expect("sway (packages sway and xwayland) must be installed");
    let socket = || {
        std::fs::read_dir(&runtime)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().contains("sway-ipc."))
    };
    let log = || std::fs::read_to_string(dir.join("sway.log")).unwrap_or_default();
    wait_until("sway's IPC socket", Duration::from_secs(30), || {
        socket().is_some() || sway.try_wait().unwrap().is_some()
    });
    let socket = socket().unwrap_or_else(|| panic!("sway did not start:\n{}", log()));

    let mut exec = Command::new("swaymsg");
    as_session_user(&mut exec);
    let exec = exec.env("SWAYSOCK", &socket).arg("exec").arg(&script).output().unwrap();
    assert!(exec.status.success(), "swaymsg exec: {}", String::from_utf8_lossy(&exec.stderr));
    let finished = dir.join("finished");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let waited = std::time::Instant::now();
    while !finished.exists() && waited.elapsed() < Duration::from_secs(180) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = Command::new("kill").args(["-TERM", "--", &format!("-{}", sway.id())]).status();
    wait_until("the Wayland session to end", Duration::from_secs(20), || sway.try_wait().unwrap().is_some());
    assert!(
        finished.exists(),
        "the session's script did not finish within 180 s:\nplay: {}\nsway: {}",
        read("play.err"),
        log()
    );

    let (windows, note, stderr) = (read("windows.txt"), read("windows.err"), read("play.err"));
    assert!(note.contains("this is a Wayland session") && note.contains("XWayland"), "{note}");
    assert!(windows.lines().any(|l| l.ends_with(" Flood")), "the XWayland window is not listed:\n{windows}{note}");
    assert_eq!(read("play.status").trim(), "0", "play failed:\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&read("report.json")).unwrap();
    assert_eq!(report["won"], true, "{stderr}");
    assert_eq!(report["plan_optimal"], true, "{stderr}");
    assert_eq!(report["moves"], report["planned_moves"], "{stderr}");
    // Independently of the bot: the window shows one of sgt-flood's cell colours only.
    let after = std::fs::read(dir.join("after.ppm")).unwrap();
    assert!(!after.is_empty(), "no capture of the window after the game:\n{stderr}");
    let (_, _, rgb) = parse_ppm(&after);
    let shown = SGT_COLOURS.iter().filter(|c| rgb.chunks(3).filter(|p| *p == c.as_slice()).count() > 100).count();
    assert_eq!(shown, 1, "not won: {shown} colours shown\n{stderr}");
}
