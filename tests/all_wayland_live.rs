//! Live tests of a Wayland session: a real Wayland compositor (sway, headless, with its own XWayland) run by an
//! unprivileged user (sway refuses root), a GTK game started in it, and the bot run inside that session, as a user
//! there would run it:
//! - the game under XWayland (`GDK_BACKEND=x11`): listed, and won through XTEST;
//! - the game as a native Wayland window (`GDK_BACKEND=wayland`), with no calibration: listed by sway's IPC,
//!   captured through the compositor's screen copy, played in a dry run that changes nothing, and won through its
//!   virtual pointer (Flood-It) or keyboard (Sudoku); the Pause key stops a game;
//! - a compositor that lists no windows (sway's socket hidden from the bot): the board found in the whole output;
//! - an output at scale 2 (a HiDPI screen): GNOME Sudoku solved by the window list and by the whole output;
//! - two outputs, the game on the second: Flood-It won by the window list and in the whole screen;
//! - a second wlroots compositor, phoc (no window list): Flood-It found in the whole output and won;
//! - GNOME's compositor, mutter (headless, under its own D-Bus, PipeWire and WirePlumber): Flood-It and Sudoku as
//!   native windows found in the monitor's screen cast and won through mutter's remote desktop; a user's move of
//!   the mouse stops the bot;
//! - KDE's compositor, KWin (headless, under its own D-Bus): Flood-It and Sudoku as native windows found in the
//!   workspace's screenshot and won through KWin's fake input.
//!
//! The outcome is checked apart from the bot: the window's pixels, captured inside the session by xwd (X), grim
//! (wlroots), the test's own screen cast (mutter: `tests/common/mutter_hand.py`) or KWin's screenshot service
//! (`tests/common/kwin_eye.py`), show one colour at the end (Flood-It) or read as the puzzle's solution (Sudoku).

mod common;

use std::os::unix::fs::{chown, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use autoplay::clients::sudoku::{read as read_sudoku, theme::load_themes};
use autoplay::games::sudoku::{solve_givens, SudokuGrid};
use common::desktop::{parse_ppm, wait_until};
use image::RgbaImage;

/// The unprivileged user the session runs as when the tests run as root.
const NOBODY: u32 = 65534;

/// sgt-flood's six default cell colours as published (desktop.md).
const SGT_COLOURS: [[u8; 3]; 6] =
    [[0xff, 0, 0], [0xff, 0xff, 0], [0, 0xff, 0], [0x33, 0x4c, 0xff], [0xff, 0x80, 0], [0x80, 0, 0xb3]];

/// How long a session's script may take: start the game, list the windows, play it to the end.
const SESSION_BOUND: Duration = Duration::from_secs(240);

/// What runs inside the session: the game under XWayland, then the bot, leaving their outputs in the folder.
const XWAYLAND_FLOOD: &str = r#"#!/bin/sh
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
./still-shot.sh after.ppm sh -c 'xwd -silent -id "$(xdotool search --name "^Flood$" | head -n 1)" | xwdtopnm'
echo done >finished
"#;

/// After `SETUP` (commands that set up the outputs, or nothing), the game (`GAME` and `PARAMS`, titled `TITLE`) as a
/// native Wayland window, then the bot with no calibration (a
/// folder with the fonts' list alone, which a reading of digits with no theme renders its shapes from) playing it as `PLAYED` (its command line led by `BOT`), then the whole output captured by grim
/// once it holds still.
const NATIVE: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
mkdir -p no-calibration
cp calibration/fonts.toml no-calibration/
export AUTOPLAY_CALIBRATION="$PWD/no-calibration"
SETUP
GDK_BACKEND=wayland /usr/games/GAME 'PARAMS' >game.log 2>&1 &
i=0
until ./autoplay windows 2>/dev/null | grep -q ' TITLE$'; do
    i=$((i + 1)); [ "$i" -lt 600 ] || break; sleep 0.05
done
./autoplay windows >windows.txt 2>windows.err
./autoplay windows --json >windows.json 2>>windows.err
# A dry run first, between two pictures of the output.
grim -t ppm before-dry.ppm 2>grim.err
BOT ./autoplay play PLAYED --dry-run >dry.txt 2>dry.err
echo $? >dry.status
grim -t ppm after-dry.ppm 2>>grim.err
BOT ./autoplay play PLAYED --json >report.json 2>play.err
echo $? >play.status
# The output once it holds still (the game's flash at the end over: the bot is done once the won board reads).
./still-shot.sh after.ppm
echo done >finished
"#;

/// A native sgt-flood played slowly, and the Pause key pressed inside the session (wtype, as the user would) once
/// the bot has made its first move; then the output, once still.
const NATIVE_STOPPED: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
mkdir -p no-calibration
export AUTOPLAY_CALIBRATION="$PWD/no-calibration"
GDK_BACKEND=wayland /usr/games/sgt-flood '14x14c6m0#stopped' >game.log 2>&1 &
i=0
until ./autoplay windows 2>/dev/null | grep -q ' Flood$'; do
    i=$((i + 1)); [ "$i" -lt 600 ] || break; sleep 0.05
done
./autoplay play flood --move-delay-ms 1500 >report.txt 2>play.err &
bot=$!
i=0
until grep -q 'move 1:' play.err; do
    i=$((i + 1)); [ "$i" -lt 1200 ] || break; sleep 0.05
done
wtype -k Pause 2>wtype.err
wait "$bot"
echo $? >play.status
grim -t ppm after.ppm 2>grim.err
echo done >finished
"#;

/// A picture into the file `$1` once it holds still: three shots in a row alike, 150 ms apart (a game's flash can
/// pause between two of its frames for as long as one shot takes); up to 300 shots. The rest of the arguments are
/// the command that prints a shot as PPM: grim's of the whole output where there are none.
const STILL_SHOT: &str = r#"#!/bin/sh
out=$1
shift
[ $# -gt 0 ] || set -- grim -t ppm -
"$@" >"$out" 2>>grim.err
i=0
same=0
while [ "$same" -lt 2 ]; do
    i=$((i + 1)); [ "$i" -lt 300 ] || break; sleep 0.15
    "$@" >again.ppm 2>>grim.err
    if cmp -s "$out" again.ppm; then same=$((same + 1)); else same=0; mv again.ppm "$out"; fi
done
"#;

/// Makes `path` the session user's.
fn give(path: &Path, root: bool) {
    if root {
        chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

/// A headless sway session of its own user, with the bot and the project's calibration in its folder; ended (sway,
/// XWayland and everything started in it) when dropped.
struct Session {
    _work: tempfile::TempDir,
    dir: PathBuf,
    runtime: PathBuf,
    root: bool,
    sway: Child,
    socket: PathBuf,
}

impl Session {
    /// A sway session, its scripts run by `swaymsg exec`.
    fn start() -> Session {
        let (work, dir, runtime, root) = Session::prepare();
        let mut sway = Command::new("sway");
        as_session_user(&mut sway, &dir, &runtime, root);
        let sway_log = std::fs::File::create(dir.join("sway.log")).unwrap();
        let mut sway = sway
            .envs([("WLR_BACKENDS", "headless"), ("WLR_LIBINPUT_NO_DEVICES", "1"), ("WLR_RENDERER", "pixman")])
            // Its own process group, so that the session ends whole: sway, XWayland, the game.
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(sway_log)
            .spawn()
            .expect("sway (packages sway and xwayland) must be installed");
        let find_socket = || {
            std::fs::read_dir(&runtime)
                .unwrap()
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().contains("sway-ipc."))
        };
        wait_until("sway's IPC socket", Duration::from_secs(30), || {
            find_socket().is_some() || sway.try_wait().unwrap().is_some()
        });
        let log = std::fs::read_to_string(dir.join("sway.log")).unwrap_or_default();
        let socket = find_socket().unwrap_or_else(|| panic!("sway did not start:\n{log}"));
        Session { _work: work, dir, runtime, root, sway, socket }
    }

    /// A session of phoc (Phosh's wlroots compositor, headless), which has no IPC: `script` is the command it runs
    /// once it has started. (Its log is kept as `sway.log`, where the messages look for a compositor's.)
    fn start_phoc(script: &str) -> Session {
        let (work, dir, runtime, root) = Session::prepare();
        let path = dir.join("session.sh");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        give(&path, root);
        let mut phoc = Command::new("phoc");
        as_session_user(&mut phoc, &dir, &runtime, root);
        let log = std::fs::File::create(dir.join("sway.log")).unwrap();
        let phoc = phoc
            .args(["-E".as_ref(), path.as_os_str()])
            .envs([("WLR_BACKENDS", "headless"), ("WLR_LIBINPUT_NO_DEVICES", "1"), ("WLR_RENDERER", "pixman")])
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("phoc must be installed");
        Session { _work: work, dir, runtime, root, sway: phoc, socket: PathBuf::new() }
    }

    /// A GNOME session: mutter (headless, one virtual monitor of 1280×720, no XWayland) with what its screen casts
    /// need, a D-Bus session bus, PipeWire and WirePlumber, all of the session's own ([`MUTTER_SESSION`]); `script`
    /// is the command mutter runs once it has started. The test's own hand and eye there are `hand.py`
    /// (`tests/common/mutter_hand.py`).
    fn start_mutter(script: &str) -> Session {
        Session::start_on_own_bus(script, MUTTER_SESSION, &[("tests/common/mutter_hand.py", "hand.py")])
    }

    /// A KDE Plasma session: KWin (headless) under its own D-Bus session bus ([`KWIN_SESSION`]); `script` is the
    /// command KWin runs once it has started. The test's own eye there is `eye.py` (`tests/common/kwin_eye.py`).
    fn start_kwin(script: &str) -> Session {
        let files = [("/usr/bin/kwin_wayland", "kwin_wayland"), ("tests/common/kwin_eye.py", "eye.py")];
        Session::start_on_own_bus(script, KWIN_SESSION, &files)
    }

    /// A session whose compositor `launcher` starts under a D-Bus session bus of its own (`dbus-run-session`), with
    /// `script` as the command it runs and `files` (from the repository, or absolute paths) copied into the
    /// session's folder, executable. (The compositor's log is kept as `sway.log`, where the messages look for a
    /// compositor's.)
    fn start_on_own_bus(script: &str, launcher: &str, files: &[(&str, &str)]) -> Session {
        let (work, dir, runtime, root) = Session::prepare();
        let executable = |path: &Path| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
            give(path, root);
        };
        for (name, text) in [("session.sh", script), ("launcher.sh", launcher)] {
            std::fs::write(dir.join(name), text).unwrap();
            executable(&dir.join(name));
        }
        for (from, to) in files {
            std::fs::copy(common::repo().join(from), dir.join(to))
                .unwrap_or_else(|e| panic!("{from} must be installed (scripts/setup-debian.sh): {e}"));
            executable(&dir.join(to));
        }
        let mut bus = Command::new("dbus-run-session");
        as_session_user(&mut bus, &dir, &runtime, root);
        let log = std::fs::File::create(dir.join("sway.log")).unwrap();
        let compositor = bus
            .arg("--")
            .arg(dir.join("launcher.sh"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("dbus-run-session (package dbus) must be installed");
        Session { _work: work, dir, runtime, root, sway: compositor, socket: PathBuf::new() }
    }

    /// The session's folder (its user's home), its runtime directory, the bot, the still-shot script and the
    /// project's calibration in it; whether the tests run as root (the session then runs as [`NOBODY`]).
    fn prepare() -> (tempfile::TempDir, PathBuf, PathBuf, bool) {
        let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().to_owned();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        give(&dir, root);
        let runtime = dir.join("runtime");
        std::fs::create_dir(&runtime).unwrap();
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        give(&runtime, root);
        let bot = dir.join("autoplay");
        std::fs::copy(env!("CARGO_BIN_EXE_autoplay"), &bot).unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        give(&bot, root);
        let still_shot = dir.join("still-shot.sh");
        std::fs::write(&still_shot, STILL_SHOT).unwrap();
        std::fs::set_permissions(&still_shot, std::fs::Permissions::from_mode(0o755)).unwrap();
        give(&still_shot, root);
        // The project's calibration, where the session's user can read it (the checkout may be private to root).
        let copied = Command::new("cp").arg("-r").arg(common::repo().join("calibration")).arg(&dir).status().unwrap();
        assert!(copied.success(), "cannot copy the calibration");
        if root {
            let owned = Command::new("chown")
                .args(["-R", &format!("{NOBODY}:{NOBODY}")])
                .arg(dir.join("calibration"))
                .status()
                .unwrap();
            assert!(owned.success());
        }
        (work, dir, runtime, root)
    }

    /// Runs `script` in the session (as sway's `exec` does) and waits until it has written `finished`.
    fn run(&self, script: &str) {
        self.start_script(script);
        self.wait_for("finished");
    }

    /// Starts `script` in the session, as sway's `exec` does.
    fn start_script(&self, script: &str) {
        let path = self.dir.join("session.sh");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        give(&path, self.root);
        let mut exec = Command::new("swaymsg");
        as_session_user(&mut exec, &self.dir, &self.runtime, self.root);
        let exec = exec.env("SWAYSOCK", &self.socket).arg("exec").arg(&path).output().unwrap();
        assert!(exec.status.success(), "swaymsg exec: {}", String::from_utf8_lossy(&exec.stderr));
    }

    /// Waits until the script has written the file `name`; panics naming what the game, the bot and sway said if
    /// it has not within [`SESSION_BOUND`].
    fn wait_for(&self, name: &str) {
        let file = self.dir.join(name);
        let waited = std::time::Instant::now();
        while !file.exists() && waited.elapsed() < SESSION_BOUND {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(
            file.exists(),
            "the session's script did not write {name} within {} s:\ngame: {}\nplay: {}\nsway: {}",
            SESSION_BOUND.as_secs(),
            self.read("game.log"),
            self.read("play.err"),
            self.read("sway.log")
        );
    }

    /// Clicks at `(x, y)` of the output, as a user would, through a virtual pointer of the test's own on the
    /// session's compositor (the session's socket, as its path), then moves the pointer to the output's corner: the
    /// headless compositor draws its cursor into the pictures it copies (a session on real outputs draws it on a
    /// plane of its own, left out of the copy), and a cursor left over a board would hide part of a cell.
    fn click(&self, (x, y): (i32, i32)) {
        use enigo::{Button, Coordinate, Direction, Enigo, Mouse, Settings};
        let display = std::fs::read_dir(&self.runtime)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("wayland-")) && p.extension().is_none()
            })
            .expect("the session's Wayland socket");
        let settings = Settings {
            wayland_display: Some(display.to_string_lossy().into_owned()),
            x11_display: Some(":no-x11-here".into()),
            ..Settings::default()
        };
        // (enigo asks for XDG_RUNTIME_DIR before it joins the socket's name to it, a full path here, which the join
        // keeps whole.)
        if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
            std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir());
        }
        let mut pointer = Enigo::new(&settings).expect("a virtual pointer on the session's compositor");
        pointer.move_mouse(x, y, Coordinate::Abs).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        pointer.button(Button::Left, Direction::Press).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        pointer.button(Button::Left, Direction::Release).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        pointer.move_mouse(0, 0, Coordinate::Abs).unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }

    /// The picture of the whole output grim took inside the session into `name`.
    fn grim_output(&self, name: &str) -> RgbaImage {
        let bytes = std::fs::read(self.dir.join(name)).unwrap();
        assert!(!bytes.is_empty(), "grim took no picture: {}", self.read("grim.err"));
        let (w, h, _) = parse_ppm(&bytes);
        self.grim_shot_named(name, (0, 0, w as u32, h as u32))
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
    }

    /// The bot's report, after checking it exited with success.
    fn report(&self) -> serde_json::Value {
        let stderr = self.read("play.err");
        assert_eq!(self.read("play.status").trim(), "0", "play failed:\n{stderr}\ngame: {}", self.read("game.log"));
        serde_json::from_str(&self.read("report.json")).unwrap()
    }

    /// The native window titled `title`, as the bot listed it (with `--json`): its place and size on the output.
    fn native_window(&self, title: &str) -> (u32, u32, u32, u32) {
        let (listed, note) = (self.read("windows.json"), self.read("windows.err"));
        let windows: serde_json::Value =
            serde_json::from_str(&listed).unwrap_or_else(|e| panic!("{e}: {listed}\n{note}"));
        let window = windows
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["title"] == title && w["wayland"] == true)
            .unwrap_or_else(|| panic!("no native window titled {title} listed:\n{listed}\n{note}"));
        let at = |key: &str| window[key].as_u64().unwrap() as u32;
        (at("x"), at("y"), at("width"), at("height"))
    }

    /// The picture of the output grim took inside the session at the end, cut to `(x, y, width, height)`.
    fn grim_shot(&self, window: (u32, u32, u32, u32)) -> RgbaImage {
        self.grim_shot_named("after.ppm", window)
    }

    /// The picture of the output grim took inside the session into `name`, cut to `(x, y, width, height)`.
    fn grim_shot_named(&self, name: &str, (x, y, width, height): (u32, u32, u32, u32)) -> RgbaImage {
        let bytes = std::fs::read(self.dir.join(name)).unwrap();
        assert!(!bytes.is_empty(), "grim took no picture: {}", self.read("grim.err"));
        let (w, _, rgb) = parse_ppm(&bytes);
        RgbaImage::from_fn(width, height, |i, j| {
            let at = (((y + j) as usize) * w + (x + i) as usize) * 3;
            image::Rgba([rgb[at], rgb[at + 1], rgb[at + 2], 255])
        })
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", "--", &format!("-{}", self.sway.id())]).status();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while self.sway.try_wait().ok().flatten().is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", self.sway.id())]).status();
    }
}

/// Runs `command` as the session's user, with the session's folder as its home and runtime directory.
fn as_session_user(command: &mut Command, dir: &Path, runtime: &Path, root: bool) {
    command.env_clear().envs([
        ("XDG_RUNTIME_DIR", runtime.as_os_str()),
        ("HOME", dir.as_os_str()),
        ("PATH", "/usr/bin:/bin".as_ref()),
    ]);
    if root {
        command.uid(NOBODY).gid(NOBODY);
    }
}

/// The cell colours of sgt-flood that more than 100 pixels of `rgb` show.
fn flood_colours_shown(rgb: &[u8]) -> usize {
    SGT_COLOURS.iter().filter(|c| rgb.chunks(3).filter(|p| *p == c.as_slice()).count() > 100).count()
}

#[test]
fn a_gtk_game_under_xwayland_in_a_wayland_session_is_listed_and_won() {
    let session = Session::start();
    session.run(XWAYLAND_FLOOD);
    let (windows, note, stderr) = (session.read("windows.txt"), session.read("windows.err"), session.read("play.err"));
    // (sway's own windows are listed too: no note says they are not.)
    assert!(!note.contains("not listed"), "{note}");
    assert!(windows.lines().any(|l| l.ends_with(" Flood")), "the XWayland window is not listed:\n{windows}{note}");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    assert_eq!(report["plan_optimal"], true, "{stderr}");
    assert_eq!(report["moves"], report["planned_moves"], "{stderr}");
    // Independently of the bot: the window shows one of sgt-flood's cell colours only.
    let after = std::fs::read(session.dir.join("after.ppm")).unwrap();
    assert!(!after.is_empty(), "no capture of the window after the game:\n{stderr}");
    let (_, _, rgb) = parse_ppm(&after);
    assert_eq!(flood_colours_shown(&rgb), 1, "not won\n{stderr}");
}

/// The script that plays `game` (with `params`, titled `title`) as a native Wayland window; `bot` leads the
/// bot's command line (`env -u …` to hide what a session offers).
fn native_script(game: &str, params: &str, title: &str, played: &str, bot: &str) -> String {
    native_script_from(&NATIVE.replace("SETUP", ""), game, params, title, played, bot)
}

/// As [`native_script`], from `script` (the [`NATIVE`] script with its `SETUP` line set).
fn native_script_from(script: &str, game: &str, params: &str, title: &str, played: &str, bot: &str) -> String {
    script
        .replace("GAME", game)
        .replace("PARAMS", params)
        .replace("TITLE", title)
        .replace("PLAYED", played)
        .replace("BOT ", &format!("{bot} "))
}

#[test]
fn a_native_wayland_flood_it_is_listed_read_with_no_calibration_and_won_by_the_virtual_pointer() {
    let session = Session::start();
    session.run(&native_script("sgt-flood", "10x10c6m0#native", "Flood", "flood", "env"));
    let stderr = session.read("play.err");
    let window = session.native_window("Flood");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    assert_eq!(report["plan_optimal"], true, "{stderr}");
    assert_eq!(report["moves"], report["planned_moves"], "{stderr}");
    // The dry run before it printed the moves' clicks and changed nothing in the window.
    let dry = session.read("dry.txt");
    assert_eq!(session.read("dry.status").trim(), "0", "{}", session.read("dry.err"));
    assert_eq!(
        dry.lines().filter(|l| l.starts_with("click ")).count() as u64,
        report["moves"].as_u64().unwrap(),
        "a dry run prints a click a move:\n{dry}"
    );
    assert!(
        session.grim_shot_named("before-dry.ppm", window) == session.grim_shot_named("after-dry.ppm", window),
        "a dry run changed the window"
    );
    // Independently of the bot: grim's picture of the window shows one of sgt-flood's cell colours only.
    let shot = session.grim_shot(window);
    let rgb: Vec<u8> = shot.pixels().flat_map(|p| [p[0], p[1], p[2]]).collect();
    assert_eq!(flood_colours_shown(&rgb), 1, "not won\n{stderr}");
}

#[test]
fn a_native_wayland_sudoku_is_read_with_no_calibration_and_filled_by_the_virtual_keyboard() {
    let params = "3x3dt#native-nine";
    let out = Command::new("/usr/games/sgt-solo").args(["--generate", "1", params]).output().unwrap();
    let truth = SudokuGrid::parse_givens(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let solution = solve_givens(&truth).unwrap();
    let session = Session::start();
    session.run(&native_script("sgt-solo", params, "Solo", "sudoku", "env"));
    let stderr = session.read("play.err");
    let window = session.native_window("Solo");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    let empty_at_start = truth.cells.iter().filter(|&&v| v == 0).count();
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "one entry per empty cell:\n{stderr}");
    // Independently of the bot: grim's picture of the window reads as the solution, with the game's givens.
    let themes = load_themes(&common::repo().join("calibration"), None).unwrap();
    let after = read_sudoku(&session.grim_shot(window), &themes).unwrap_or_else(|e| panic!("{e:#}\n{stderr}"));
    assert_eq!(after.grid.cells, solution, "the window does not show the solution:\n{stderr}");
    assert_eq!(after.grid.given, truth.given, "the givens are the game's");
}

#[test]
fn a_native_wayland_game_stops_at_once_when_the_user_presses_pause() {
    let session = Session::start();
    session.run(NATIVE_STOPPED);
    let stderr = session.read("play.err");
    assert!(stderr.contains("press Pause to stop the bot"), "the bot should say how to stop it:\n{stderr}");
    assert!(stderr.contains("move 1:"), "the bot made no move:\n{stderr}\n{}", session.read("game.log"));
    assert_ne!(session.read("play.status").trim(), "0", "the bot went on to the end:\n{stderr}");
    assert!(stderr.contains("stopped: the user pressed Pause"), "{stderr}\nwtype: {}", session.read("wtype.err"));
    assert!(!stderr.contains("move 3:"), "the bot went on after the key:\n{stderr}");
    // Independently: the board is left unfinished.
    let (_, _, rgb) = parse_ppm(&std::fs::read(session.dir.join("after.ppm")).unwrap());
    assert!(flood_colours_shown(&rgb) > 1, "the board is won:\n{stderr}");
}

/// A wlroots compositor that lists no windows to the bot (sway, with its IPC socket and XWayland hidden from the
/// bot: what Hyprland, labwc or river offer it): the board is found in the whole output, copied by the compositor,
/// and played by the virtual pointer at the output's coordinates.
#[test]
fn on_a_wlroots_compositor_with_no_window_list_the_board_is_found_in_the_whole_output_and_won() {
    let session = Session::start();
    session.run(&native_script("sgt-flood", "10x10c6m0#output", "Flood", "flood", "env -u SWAYSOCK -u DISPLAY"));
    let stderr = session.read("play.err");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    assert_eq!(report["plan_optimal"], true, "{stderr}");
    assert_eq!(report["moves"], report["planned_moves"], "{stderr}");
    assert!(
        stderr.contains("the board is in the Wayland output"),
        "the bot should say it plays the whole output:\n{stderr}"
    );
    // Independently of the bot: grim's picture of the output shows one of sgt-flood's cell colours only.
    let (_, _, rgb) = parse_ppm(&std::fs::read(session.dir.join("after.ppm")).unwrap());
    assert_eq!(flood_colours_shown(&rgb), 1, "not won\n{stderr}");
}

/// A second output made beside the first (1024×768 at (1280, 0): not at the layout's origin, and of a size of its
/// own), where every new window is moved and focused (sway opens a window on the workspace its program was started
/// from).
const TWO_OUTPUTS: &str = "swaymsg create_output >output.log 2>&1
swaymsg -- output HEADLESS-1 mode --custom 1280x720 pos 0 0 >>output.log 2>&1
swaymsg -- output HEADLESS-2 mode --custom 1024x768 pos 1280 0 >>output.log 2>&1
swaymsg 'for_window [app_id=\".\"] move container to output HEADLESS-2' >>output.log 2>&1
swaymsg -t get_outputs >>output.log 2>&1";

/// Two outputs, the game on the second: the bot's clicks, points of the layout, must land on the cells meant though
/// the layout spans both outputs (the virtual pointer's absolute motion is spread over the box of every output).
/// Won by the window list, and, where the compositor lists no windows, in the whole screen: each output looked at on
/// its own (the first shows sway's wallpaper, a picture of many colours), the board found on the second.
#[test]
fn on_two_outputs_a_native_flood_it_on_the_second_is_won_by_the_window_list_and_in_the_whole_screen() {
    for (bot, name) in [("env", "by the window list"), ("env -u SWAYSOCK -u DISPLAY", "in the whole screen")] {
        let session = Session::start();
        let script = NATIVE.replace("SETUP", TWO_OUTPUTS);
        let script = native_script_from(&script, "sgt-flood", "10x10c6m0#outputs", "Flood", "flood", bot);
        session.run(&script);
        let stderr = session.read("play.err");
        let window = session.native_window("Flood");
        assert!(
            window.0 >= 1280,
            "{name}: the game is not on the second output: {window:?}
{}",
            session.read("output.log")
        );
        let report = session.report();
        assert_eq!(report["won"], true, "{name}: {stderr}");
        assert_eq!(report["plan_optimal"], true, "{name}: {stderr}");
        assert_eq!(report["moves"], report["planned_moves"], "{name}: {stderr}");
        // Every move a click that landed on its cell the first time (where clicks miss, the bot turns to the cursor
        // keys, and wins that way).
        assert!(!stderr.contains("left the board as it was"), "{name}: a click missed:\n{stderr}");
        let clicks = stderr.lines().filter(|l| l.starts_with("move ") && l.contains(": click at (")).count();
        assert_eq!(clicks as u64, report["moves"].as_u64().unwrap(), "{name}: {stderr}");
        if bot != "env" {
            assert!(stderr.contains("the board is in the Wayland output HEADLESS-2"), "{name}: {stderr}");
        }
        // Independently of the bot: grim's picture of both outputs (at scale 1, a pixel a point of the layout)
        // shows one of sgt-flood's cell colours only in the game's window.
        let shot = session.grim_shot(window);
        let rgb: Vec<u8> = shot.pixels().flat_map(|p| [p[0], p[1], p[2]]).collect();
        assert_eq!(flood_colours_shown(&rgb), 1, "{name}: not won\n{stderr}");
    }
}

/// sgt-flood as a native window on a compositor that lists no windows: the bot starts once the output no longer
/// looks as it did before the game started (its window shown), then plays it with no calibration.
const PHOC_FLOOD: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
mkdir -p no-calibration
cp calibration/fonts.toml no-calibration/
export AUTOPLAY_CALIBRATION="$PWD/no-calibration"
grim -t ppm empty.ppm 2>grim.err
GDK_BACKEND=wayland /usr/games/sgt-flood '10x10c6m0#phoc' >game.log 2>&1 &
i=0
while grim -t ppm shown.ppm 2>>grim.err && cmp -s empty.ppm shown.ppm; do
    i=$((i + 1)); [ "$i" -lt 600 ] || break; sleep 0.05
done
./autoplay play flood --json >report.json 2>play.err
echo $? >play.status
./still-shot.sh after.ppm
echo done >finished
"#;

/// A second wlroots compositor, phoc (Phosh's, headless): no IPC lists its windows, so the board is found in the
/// whole output, where phoc shows sgt-flood maximized (cells of 56 pixels, the board's frame in two colours beside
/// them), and won by clicks through the bot's virtual pointer; grim's picture of the output shows one colour.
#[test]
fn on_phoc_a_second_wlroots_compositor_a_native_flood_it_is_found_in_the_whole_output_and_won_by_clicks() {
    let session = Session::start_phoc(PHOC_FLOOD);
    session.wait_for("finished");
    let stderr = session.read("play.err");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    assert_eq!(report["plan_optimal"], true, "{stderr}");
    assert_eq!(report["moves"], report["planned_moves"], "{stderr}");
    assert!(stderr.contains("the board is in the Wayland output"), "{stderr}");
    assert!(!stderr.contains("left the board as it was"), "a click missed:\n{stderr}");
    let (_, _, rgb) = parse_ppm(&std::fs::read(session.dir.join("after.ppm")).unwrap());
    assert_eq!(flood_colours_shown(&rgb), 1, "not won\n{stderr}");
}

/// GNOME Sudoku (GTK 4) as a native Wayland window, with a fresh profile: the test picks Easy in its first window
/// (a click of its own through a virtual pointer), the bot reads the new puzzle with no calibration and fills it
/// until the game itself declares it solved: it opens its "well done" dialog, a second window of the game, as
/// sway lists them.
const NATIVE_GNOME_SUDOKU: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
mkdir -p no-calibration data config
cp calibration/fonts.toml no-calibration/
export AUTOPLAY_CALIBRATION="$PWD/no-calibration"
OUTPUT
GDK_BACKEND=wayland GSETTINGS_BACKEND=memory XDG_DATA_HOME="$PWD/data" XDG_CONFIG_HOME="$PWD/config" \
    /usr/games/gnome-sudoku >game.log 2>&1 &
i=0
until ./autoplay windows 2>/dev/null | grep -q ' Select Difficulty$'; do
    i=$((i + 1)); [ "$i" -lt 1200 ] || break; sleep 0.05
done
# The chooser once it holds still, for the test to find Easy in and click.
./still-shot.sh chooser.ppm
echo shown >chooser-shown
i=0
until ./autoplay windows 2>/dev/null | grep -q ' Sudoku$'; do
    i=$((i + 1)); [ "$i" -lt 2400 ] || break; sleep 0.05
done
./autoplay windows --json >windows.json 2>windows.err
BOT ./autoplay play sudoku --json >report.json 2>play.err
echo $? >play.status
i=0
until [ "$(./autoplay windows --json 2>/dev/null | grep -c '"app": "gnome-sudoku"')" -ge 2 ]; do
    i=$((i + 1)); [ "$i" -lt 400 ] || break; sleep 0.05
done
./autoplay windows --json >after-windows.json 2>>windows.err
echo done >finished
"#;

#[test]
fn native_gnome_sudoku_is_read_with_no_calibration_and_filled_until_the_game_says_it_is_solved() {
    gnome_sudoku_is_solved("", "env", "on an output at scale 1");
}

/// A HiDPI output: sway's headless output at 2560×1600 pixels and scale 2 (1280×800 points), as on a laptop's
/// screen. The compositor copies a window at the output's resolution, which the bot reads at its points' size, and
/// the virtual pointer's absolute coordinates are the output's pixels, not the layout's points, so every click on
/// a cell must be mapped to land on the cell meant. GNOME Sudoku, read with no calibration and filled until the game
/// declares it solved, by the window list and by the whole output. (sgt-puzzles' GTK 3 front end in Debian 12 does
/// not repaint its board at scale 2, for a person either: its window keeps showing the board as it was.)
#[test]
fn on_an_output_at_scale_two_native_gnome_sudoku_is_read_and_solved() {
    let hidpi = "swaymsg -- output '*' mode --custom 2560x1600 scale 2 >output.log 2>&1";
    gnome_sudoku_is_solved(hidpi, "env", "at scale 2, by the window list");
    gnome_sudoku_is_solved(hidpi, "env -u SWAYSOCK -u DISPLAY", "at scale 2, in the whole output");
}

/// GNOME Sudoku in a session whose output `output` sets up (a command, or nothing), played by the bot's command
/// line led by `bot`, is filled until the game says it is solved (`name` says which case, for messages).
fn gnome_sudoku_is_solved(output: &str, bot: &str, name: &str) {
    let session = Session::start();
    session.start_script(&NATIVE_GNOME_SUDOKU.replace("OUTPUT", output).replace("BOT ", &format!("{bot} ")));
    session.wait_for("chooser-shown");
    // Easy is the chosen row, drawn in the selection's blue: its centre.
    let chooser = session.grim_output("chooser.ppm");
    let blue = |p: &image::Rgba<u8>| p[2] > 180 && p[0] < 120 && p[1] > 90 && p[1] < 170;
    let (mut n, mut sx, mut sy) = (0u64, 0u64, 0u64);
    for (x, y, p) in chooser.enumerate_pixels() {
        if blue(p) {
            (n, sx, sy) = (n + 1, sx + x as u64, sy + y as u64);
        }
    }
    assert!(n > 1000, "{name}: no chosen row in the difficulty chooser:\n{}", session.read("game.log"));
    // (grim's picture is at the output's resolution, which is what the test's own pointer is given in.)
    session.click(((sx / n) as i32, (sy / n) as i32));
    session.wait_for("finished");
    let stderr = session.read("play.err");
    let report = session.report();
    assert_eq!(report["won"], true, "{name}: {stderr}");
    assert_eq!(report["replans"], 0, "{name}: {stderr}");
    if !output.is_empty() {
        let (width, height) = chooser.dimensions();
        assert_eq!((width, height), (2560, 1600), "{name}: the output was not set up: {}", session.read("output.log"));
    }
    // The game's own verdict: its "well done" dialog, a second window of the game.
    let after: serde_json::Value = serde_json::from_str(&session.read("after-windows.json")).unwrap();
    let games = after.as_array().unwrap().iter().filter(|w| w["app"] == "gnome-sudoku" && w["wayland"] == true);
    assert_eq!(games.count(), 2, "{name}: the game should have opened its dialog:\n{after:#}\n{stderr}");
}

/// A GNOME session's compositor, run under `dbus-run-session` (mutter needs a session bus): PipeWire and its session
/// manager WirePlumber first (a screen cast's stream is made at PipeWire, and WirePlumber links a reader to it),
/// then mutter, headless, with one virtual monitor and no XWayland, which runs the session's script and ends with it.
const MUTTER_SESSION: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
pipewire >pipewire.log 2>&1 &
i=0
while [ ! -S "$XDG_RUNTIME_DIR/pipewire-0" ]; do
    i=$((i + 1)); [ "$i" -lt 600 ] || break; sleep 0.05
done
wireplumber >wireplumber.log 2>&1 &
export GSETTINGS_BACKEND=memory
exec mutter --headless --virtual-monitor 1280x720 --no-x11 --wayland-display autoplay-mutter -- ./session.sh
"#;

/// A KDE Plasma session's compositor, run under `dbus-run-session`: KWin, headless (a virtual framebuffer of
/// 1280×720), which runs the session's script and ends with it. Its screenshot service and fake input are open to any
/// program of the session (the two variables a test sets; a user's session authorises programs by `.desktop`
/// files instead). The copy of `kwin_wayland` in the session's folder is Debian's without its file capability
/// (`cap_sys_resource`), which a container may not grant: the original does not start there.
const KWIN_SESSION: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
export KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1 KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 QT_QPA_PLATFORM=wayland
exec ./kwin_wayland --virtual --width 1280 --height 720 --socket autoplay-kwin --no-lockscreen \
    --no-global-shortcuts --no-kactivities ./session.sh
"#;

/// The game (`GAME`, `PARAMS`) as a native Wayland window on a desktop that lists no windows (GNOME's, KDE's), then
/// the bot with no calibration playing it as `PLAYED` once the screen no longer looks as it did before the game
/// started (its window shown), first in a dry run between two pictures, then for real, with `USER` done meanwhile (what a user does while the bot plays, or nothing); then
/// the screen's picture once it holds still. Pictures are taken by the test's own eye, `EYE FILE` (`-`: to
/// standard output).
const DESKTOP_NATIVE: &str = r#"#!/bin/sh
cd "$(dirname "$0")"
mkdir -p no-calibration
cp calibration/fonts.toml no-calibration/
export AUTOPLAY_CALIBRATION="$PWD/no-calibration"
EYE empty.img 2>>eye.err
GDK_BACKEND=wayland /usr/games/GAME 'PARAMS' >game.log 2>&1 &
i=0
while EYE shown.img 2>>eye.err && cmp -s empty.img shown.img; do
    i=$((i + 1)); [ "$i" -lt 600 ] || break; sleep 0.1
done
./autoplay windows >windows.txt 2>windows.err
# A dry run first, between two pictures of the screen.
EYE before-dry.img 2>>eye.err
./autoplay play PLAYED --dry-run >dry.txt 2>dry.err
echo $? >dry.status
EYE after-dry.img 2>>eye.err
./autoplay play PLAYED --json >report.json 2>play.err &
bot=$!
USER
wait "$bot"
echo $? >play.status
./still-shot.sh after.img EYE -
echo done >finished
"#;

/// The test's eye on mutter: a screen cast of its own (`tests/common/mutter_hand.py`).
const MUTTER_EYE: &str = "./hand.py shot";
/// The test's eye on KWin: its screenshot service (`tests/common/kwin_eye.py`).
const KWIN_EYE: &str = "./eye.py shot";

/// [`DESKTOP_NATIVE`] with its words set, seen by `eye`, with `user` done while the bot plays.
fn desktop_script(eye: &str, game: &str, params: &str, played: &str, user: &str) -> String {
    DESKTOP_NATIVE
        .replace("EYE", eye)
        .replace("GAME", game)
        .replace("PARAMS", params)
        .replace("PLAYED", played)
        .replace("USER\n", user)
}

/// The picture the test's eye took at the end (`after.img`, PNG or PPM).
fn final_picture(session: &Session) -> image::RgbImage {
    let bytes = std::fs::read(session.dir.join("after.img")).unwrap_or_default();
    image::load_from_memory(&bytes)
        .unwrap_or_else(|e| panic!("the test's eye took no picture ({e}): {}", session.read("eye.err")))
        .to_rgb8()
}

/// Checks a session's native sgt-flood was found on the screen (`where_found`), played in a dry run that printed a
/// click a move and left the screen as it was, and won at the optimum with no click lost; and that the test's own
/// picture shows one colour.
fn flood_won_on_the_screen(session: &Session, where_found: &str) {
    session.wait_for("finished");
    let dry = session.read("dry.err");
    assert_eq!(session.read("dry.status").trim(), "0", "the dry run failed:\n{dry}");
    assert!(session.read("dry.txt").lines().filter(|l| l.starts_with("click ")).count() > 5, "{dry}");
    let picture = |name: &str| std::fs::read(session.dir.join(name)).unwrap_or_default();
    assert!(!picture("before-dry.img").is_empty(), "{}", session.read("eye.err"));
    assert!(picture("before-dry.img") == picture("after-dry.img"), "the dry run changed the screen:\n{dry}");
    let stderr = session.read("play.err");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    assert_eq!(report["plan_optimal"], true, "{stderr}");
    assert_eq!(report["moves"], report["planned_moves"], "{stderr}");
    assert!(stderr.contains(&format!("the board is in {where_found}")), "{stderr}");
    assert!(!stderr.contains("left the board as it was"), "a click was lost:\n{stderr}");
    assert_eq!(flood_colours_shown(final_picture(session).as_raw()), 1, "not won\n{stderr}");
}

/// Checks a session's native sgt-solo (`truth`, solved as `solution`) was filled one entry per empty cell with no
/// click or key lost, and that the test's own picture reads as the solution with the game's givens.
fn sudoku_solved_on_the_screen(session: &Session, truth: &SudokuGrid, solution: &[u8]) {
    session.wait_for("finished");
    let stderr = session.read("play.err");
    let report = session.report();
    assert_eq!(report["won"], true, "{stderr}");
    let empty_at_start = truth.cells.iter().filter(|&&v| v == 0).count();
    assert_eq!(report["moves"].as_u64().unwrap() as usize, empty_at_start, "one entry per empty cell:\n{stderr}");
    assert!(!stderr.contains("left the board as it was"), "a click or key was lost:\n{stderr}");
    let themes = load_themes(&common::repo().join("calibration"), None).unwrap();
    let after = image::DynamicImage::ImageRgb8(final_picture(session)).to_rgba8();
    let after = read_sudoku(&after, &themes).unwrap_or_else(|e| panic!("{e:#}\n{stderr}"));
    assert_eq!(after.grid.cells, solution, "the screen does not show the solution:\n{stderr}");
    assert_eq!(after.grid.given, truth.given, "the givens are the game's");
}

/// A generated sgt-solo puzzle (`params`): its givens and solution.
fn solo_puzzle(params: &str) -> (SudokuGrid, Vec<u8>) {
    let out = Command::new("/usr/games/sgt-solo").args(["--generate", "1", params]).output().unwrap();
    let truth = SudokuGrid::parse_givens(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let solution = solve_givens(&truth).unwrap();
    (truth, solution)
}

/// GNOME on Wayland (mutter 43): sgt-flood as a native window, which mutter lists to no other program, is found in
/// the monitor's picture (mutter's screen cast) and won by clicks through mutter's remote-desktop session, every
/// click taken the first time (mutter loses the first event of a session's new device: the bot's first click must
/// not be it); the test's own picture of the monitor shows one colour. `autoplay windows` says what works there.
#[test]
fn on_gnome_a_native_flood_it_is_found_in_the_monitor_and_won_through_mutters_remote_desktop() {
    let session = Session::start_mutter(&desktop_script(MUTTER_EYE, "sgt-flood", "10x10c6m0#gnome", "flood", ""));
    flood_won_on_the_screen(&session, "GNOME's monitor");
    let note = session.read("windows.err");
    assert!(note.contains("GNOME (mutter)") && note.contains("remote desktop"), "{note}");
}

/// GNOME on Wayland: sgt-solo as a native window, read with no calibration and filled by clicks and keys through
/// mutter's remote desktop (keys by their keysyms), the first key taken too.
#[test]
fn on_gnome_a_native_sudoku_is_read_and_filled_through_mutters_remote_desktop() {
    let params = "3x3dt#gnome-nine";
    let (truth, solution) = solo_puzzle(params);
    let session = Session::start_mutter(&desktop_script(MUTTER_EYE, "sgt-solo", params, "sudoku", ""));
    sudoku_solved_on_the_screen(&session, &truth, &solution);
}

/// GNOME on Wayland: a user who moves the mouse while the bot plays (the test's own hand, through a remote-desktop
/// session of its own, as a second mouse) stops the bot at once: mutter's screen cast tells where the pointer is,
/// whoever moved it, so the bot sees it leave the place it left it. The board is left unfinished.
#[test]
fn on_gnome_a_users_move_of_the_mouse_stops_the_bot_at_once() {
    let user = "i=0\nuntil grep -q '^move 3:' play.err; do\n    i=$((i + 1)); [ \"$i\" -lt 2400 ] || break; sleep 0.05\ndone\n./hand.py move-by 40 40 2>>hand.err\n";
    let script = desktop_script(MUTTER_EYE, "sgt-flood", "14x14c6m0#gnome-stopped", "flood --move-delay-ms 1500", user);
    let session = Session::start_mutter(&script);
    session.wait_for("finished");
    let stderr = session.read("play.err");
    assert!(stderr.contains("move 3:"), "the bot did not get to move 3:\n{stderr}\n{}", session.read("game.log"));
    assert_ne!(session.read("play.status").trim(), "0", "the bot went on to the end:\n{stderr}");
    assert!(stderr.contains("the user has taken the mouse"), "{stderr}\nhand: {}", session.read("hand.err"));
    assert!(!stderr.contains("move 5:"), "the bot went on after the user's move:\n{stderr}");
    assert!(flood_colours_shown(final_picture(&session).as_raw()) > 1, "the board is won:\n{stderr}");
}

/// KDE Plasma on Wayland (KWin 5.27): sgt-flood as a native window is found in the workspace's picture (KWin's
/// screenshot service) and won by clicks through KWin's fake input; the test's own picture shows one colour, and
/// `autoplay windows` says what works there and that Ctrl+C stops the bot.
#[test]
fn on_kde_a_native_flood_it_is_found_in_the_workspace_and_won_through_kwins_fake_input() {
    let script = desktop_script(KWIN_EYE, "sgt-flood", "10x10c6m0#kde", "flood", "");
    let session = Session::start_kwin(&script);
    flood_won_on_the_screen(&session, "KDE's workspace");
    assert!(session.read("play.err").contains("stop the bot with Ctrl+C"), "{}", session.read("play.err"));
    let note = session.read("windows.err");
    assert!(note.contains("KDE Plasma (KWin)") && note.contains("fake input"), "{note}");
}

/// KDE Plasma on Wayland: sgt-solo as a native window, read with no calibration and filled by clicks and keys (evdev
/// codes) through KWin's fake input.
#[test]
fn on_kde_a_native_sudoku_is_read_and_filled_through_kwins_fake_input() {
    let params = "3x3dt#kde-nine";
    let (truth, solution) = solo_puzzle(params);
    let session = Session::start_kwin(&desktop_script(KWIN_EYE, "sgt-solo", params, "sudoku", ""));
    sudoku_solved_on_the_screen(&session, &truth, &solution);
}
