//! A real virtual desktop for live tests: Xvfb, openbox and game windows, ended when dropped.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

static NEXT_DISPLAY: AtomicU32 = AtomicU32::new(0);

pub struct Desktop {
    pub display: String,
    children: Vec<Child>,
    /// The profiles of the browsers started here, removed once the browsers have ended (fields drop after `drop`).
    profiles: Vec<tempfile::TempDir>,
}

/// Waits until `ready` holds, checking every 50 ms; panics naming `what` once `timeout` has passed.
pub fn wait_until(what: &str, timeout: Duration, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        sleep(Duration::from_millis(50));
    }
}

impl Desktop {
    /// Starts Xvfb (with -noreset) on a free display, and openbox on it.
    pub fn start() -> Desktop {
        let base = 300 + (std::process::id() % 200) * 10;
        let number = loop {
            let n = base + NEXT_DISPLAY.fetch_add(1, Ordering::SeqCst);
            if !Path::new(&format!("/tmp/.X{n}-lock")).exists() {
                break n;
            }
        };
        let display = format!(":{number}");
        let xvfb = Command::new("Xvfb")
            .args([display.as_str(), "-screen", "0", "1280x1024x24", "-noreset", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (package xvfb) must be installed");
        let mut desktop = Desktop { display: display.clone(), children: vec![xvfb], profiles: Vec::new() };
        wait_until("Xvfb", Duration::from_secs(20), || desktop.run("xdpyinfo", &[]).status.success());
        let wm = Command::new("openbox")
            .env("DISPLAY", &display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("openbox must be installed");
        desktop.children.push(wm);
        wait_until("openbox", Duration::from_secs(20), || {
            String::from_utf8_lossy(&desktop.run("xprop", &["-root", "_NET_SUPPORTING_WM_CHECK"]).stdout)
                .contains("window id")
        });
        desktop
    }

    /// Runs a program on this display and waits for it.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        Command::new(program)
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    /// Starts a program on this display; it is ended with the desktop.
    pub fn spawn(&mut self, program: &str, args: &[&str], env: &[(&str, &str)]) {
        let child = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .env("DISPLAY", &self.display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        self.children.push(child);
    }

    /// Starts Chromium showing `page` (a URL) as an app window of `size` ("W,H"), with a fresh profile of its own
    /// that lasts as long as the desktop; `extra` flags (a window position) go before the page.
    pub fn open_chromium_app(&mut self, page: &str, size: &str, extra: &[&str]) {
        let profile = tempfile::tempdir().expect("a temporary folder for the browser profile");
        let (profile_arg, size_arg, app_arg) = (
            format!("--user-data-dir={}", profile.path().display()),
            format!("--window-size={size}"),
            format!("--app={page}"),
        );
        let mut args: Vec<&str> = super::CHROMIUM_FLAGS.to_vec();
        args.extend([profile_arg.as_str(), &size_arg]);
        args.extend(extra);
        args.push(&app_arg);
        self.spawn("chromium", &args, &[]);
        self.profiles.push(profile);
    }

    /// The ids of the visible windows whose title matches `title` (xdotool's regular expression, anchored).
    pub fn visible_windows(&self, title: &str) -> Vec<String> {
        let out = self.run("xdotool", &["search", "--onlyvisible", "--name", &format!("^{title}$")]);
        String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
    }

    /// The id of the first visible window titled `title`, once there is one.
    fn wait_for_mapped(&self, title: &str) -> String {
        let mut id = String::new();
        wait_until(&format!("window '{title}'"), Duration::from_secs(20), || {
            id = self.visible_windows(title).into_iter().next().unwrap_or_default();
            !id.is_empty()
        });
        id
    }

    /// The X id of the visible window with exactly this title, once it is mapped and drawn (its picture has
    /// stopped changing). For a window that never stops moving (a clock, an animation), see
    /// `wait_for_window_shown`.
    pub fn wait_for_window(&self, title: &str) -> String {
        let id = self.wait_for_mapped(title);
        // Let the game draw its first frame.
        self.wait_for_still_picture(&id);
        id
    }

    /// The X id of the visible window with exactly this title, once it is mapped and a capture of it is not blank
    /// (shows more than one colour); for windows whose picture never stops changing.
    pub fn wait_for_window_shown(&self, title: &str) -> String {
        let id = self.wait_for_mapped(title);
        wait_until(&format!("window '{title}' to draw something"), Duration::from_secs(20), || {
            let (_, _, rgb) = self.window_pixels(&id);
            rgb.chunks(3).any(|p| p != &rgb[..3])
        });
        id
    }

    /// The window's pixels once its picture has stopped changing: three captures in a row, 150 ms apart, the same;
    /// or, where a text caret blinks (a dialog's name field), no more than two pictures over the last 2 s, taking
    /// turns. (On a loaded desktop the captures come further apart than the caret's half-period, and three alike in
    /// a row may never come.)
    pub fn wait_for_still_picture(&self, window_id: &str) -> (usize, usize, Vec<u8>) {
        const BLINKING_FOR: Duration = Duration::from_secs(2);
        let mut last = self.window_pixels(window_id);
        let mut same = 0;
        let mut recent: Vec<(Instant, Vec<u8>)> = Vec::new();
        wait_until(&format!("the picture of window {window_id} to stop changing"), Duration::from_secs(60), || {
            sleep(Duration::from_millis(150));
            let shot = self.window_pixels(window_id);
            same = if shot == last { same + 1 } else { 0 };
            let now = Instant::now();
            recent.push((now, shot.2.clone()));
            // Keep the captures of the last 2 s, and the one just before them.
            while recent.len() > 1 && now.duration_since(recent[1].0) >= BLINKING_FOR {
                recent.remove(0);
            }
            last = shot;
            let mut pictures: Vec<&Vec<u8>> = Vec::new();
            for (_, picture) in &recent {
                if !pictures.contains(&picture) {
                    pictures.push(picture);
                }
            }
            let blinking = pictures.len() <= 2 && recent.len() >= 6 && now.duration_since(recent[0].0) >= BLINKING_FOR;
            same >= 2 || blinking
        });
        last
    }

    /// Where the window is on the screen, as `xdotool getwindowgeometry` says.
    pub fn window_position(&self, window_id: &str) -> (i32, i32) {
        let out = String::from_utf8_lossy(&self.run("xdotool", &["getwindowgeometry", window_id]).stdout).into_owned();
        let at = out
            .lines()
            .find_map(|l| l.trim().strip_prefix("Position: "))
            .unwrap_or_else(|| panic!("no position in:\n{out}"));
        let (x, y) = at.split(' ').next().unwrap().split_once(',').unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    }

    /// Moves the window's frame to (x, y) with xdotool and waits until the move shows: the window's position
    /// changed and is near (x, y) (the window manager's frame lies between), and its picture has stopped changing.
    pub fn move_window(&self, window_id: &str, x: i32, y: i32) {
        let before = self.window_position(window_id);
        self.run("xdotool", &["windowmove", "--sync", window_id, &x.to_string(), &y.to_string()]);
        wait_until(
            &format!("window {window_id} to move from {before:?} to about ({x}, {y})"),
            Duration::from_secs(20),
            || {
                let now = self.window_position(window_id);
                now != before && (now.0 - x).abs() <= 100 && (now.1 - y).abs() <= 100
            },
        );
        self.wait_for_still_picture(window_id);
    }

    /// The window manager's process id (openbox, which takes every click on a window first, to focus and raise
    /// it, and then lets it through to the window).
    pub fn window_manager_pid(&self) -> u32 {
        self.children[1].id()
    }

    /// The window with the keyboard focus (`xdotool getwindowfocus`).
    pub fn focused_window(&self) -> String {
        String::from_utf8_lossy(&self.run("xdotool", &["getwindowfocus"]).stdout).trim().to_owned()
    }

    /// The window's pixels as (width, height, RGB bytes), captured with xwd and netpbm's xwdtopnm: a capture
    /// path independent of the bot's own (xcap).
    pub fn window_pixels(&self, window_id: &str) -> (usize, usize, Vec<u8>) {
        let pipeline = format!("xwd -silent -id {window_id} | xwdtopnm 2>/dev/null");
        let out = self.run("sh", &["-c", &pipeline]);
        assert!(out.status.success() && !out.stdout.is_empty(), "xwd | xwdtopnm failed (packages x11-apps, netpbm)");
        parse_ppm(&out.stdout)
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        for child in self.children.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Parses a binary PPM (P6) into 8-bit RGB; maxval 65535 (xwdtopnm's output for 32-bit windows, such as GTK 4's)
/// is scaled down.
pub fn parse_ppm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i] == b'#' {
            while bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P6", "not a binary PPM");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let data = match fields[3].as_str() {
        "255" => bytes[i + 1..i + 1 + w * h * 3].to_vec(),
        "65535" => {
            bytes[i + 1..i + 1 + w * h * 6].chunks(2).map(|s| (u16::from_be_bytes([s[0], s[1]]) / 257) as u8).collect()
        }
        other => panic!("PPM maxval {other} is not handled"),
    };
    (w, h, data)
}

/// `autoplay ARGS` run to its end on the desktop's display.
pub fn autoplay(desktop: &Desktop, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_autoplay")).args(args).env("DISPLAY", &desktop.display).output().unwrap()
}
