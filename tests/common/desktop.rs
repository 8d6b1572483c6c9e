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
}

fn wait_until(what: &str, timeout: Duration, mut ready: impl FnMut() -> bool) {
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
        let mut desktop = Desktop { display: display.clone(), children: vec![xvfb] };
        wait_until("Xvfb", Duration::from_secs(20), || desktop.run("xdpyinfo", &[]).status.success());
        let wm = Command::new("openbox")
            .env("DISPLAY", &display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("openbox must be installed");
        desktop.children.push(wm);
        wait_until("openbox", Duration::from_secs(20), || {
            String::from_utf8_lossy(&desktop.run("xprop", &["-root", "_NET_SUPPORTING_WM_CHECK"]).stdout).contains("window id")
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

    /// The X id of the visible window with exactly this title, once it is mapped and drawn.
    pub fn wait_for_window(&self, title: &str) -> String {
        let pattern = format!("^{title}$");
        let mut id = String::new();
        wait_until(&format!("window '{title}'"), Duration::from_secs(20), || {
            let out = self.run("xdotool", &["search", "--onlyvisible", "--name", &pattern]);
            id = String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").to_owned();
            !id.is_empty()
        });
        // Let the game draw its first frame.
        let mut last = Vec::new();
        wait_until("the window to finish drawing", Duration::from_secs(10), || {
            let shot = self.window_pixels(&id);
            let same = shot.2 == last;
            last = shot.2;
            sleep(Duration::from_millis(150));
            same
        });
        id
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
        "65535" => bytes[i + 1..i + 1 + w * h * 6].chunks(2).map(|s| (u16::from_be_bytes([s[0], s[1]]) / 257) as u8).collect(),
        other => panic!("PPM maxval {other} is not handled"),
    };
    (w, h, data)
}
