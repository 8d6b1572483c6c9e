//! KDE Plasma on Wayland: the workspace's pictures through KWin's screenshot service (`org.kde.KWin.ScreenShot2` on
//! the session bus) and the bot's input through KWin's fake input protocol (`org_kde_kwin_fake_input`), the two
//! KWin 5.27 (Debian 12's) offers other programs without libei.
//!
//! - **Pictures.** `CaptureWorkspace` writes the raw pixels of the whole workspace (every output, where the layout
//!   has it) into a pipe the bot passes, and answers with their size, row stride and format (a `QImage` format).
//! - **Input.** The fake input's pointer moves to a point of the workspace in its logical coordinates, presses evdev's
//!   left button, and presses keys by their evdev codes (a US layout's: the games here type digits and letters).
//! - **Permission.** KWin gives both only to programs a `.desktop` file authorises (`X-KDE-DBUS-Restricted-Interfaces=
//!   org.kde.KWin.ScreenShot2`, `X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input`, its `Exec` the program's path),
//!   or to any where KWin runs with `KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1` and `KWIN_WAYLAND_NO_PERMISSION_CHECKS=1`;
//!   a refusal names what to do.
//!
//! KWin lists its windows to no other program either, so the board is found in the workspace's picture. No client
//! learns where the pointer is: the user stops the bot with Ctrl+C.

use std::io::Read;

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;
use wayland_client::{delegate_noop, EventQueue};
use wayland_protocols_plasma::fake_input::client::org_kde_kwin_fake_input::OrgKdeKwinFakeInput;
use zbus::zvariant::{OwnedValue, Value};

use crate::capture::{desktop_load, Frame, FrameSource, Seat};
use crate::game::Key;
use crate::wayland::Quiet;

const KWIN: &str = "org.kde.KWin";
const SCREENSHOT_PATH: &str = "/org/kde/KWin/ScreenShot2";
const SCREENSHOT: &str = "org.kde.KWin.ScreenShot2";
/// evdev's code of the left button (`BTN_LEFT`).
const BTN_LEFT: u32 = 0x110;
/// evdev's code of the left Shift key.
const KEY_LEFTSHIFT: u32 = 42;

/// What to do where KWin refuses the bot.
const AUTHORISE: &str = "KWin lets a program capture the screen and send input only where a .desktop file \
     authorises it: put one in ~/.local/share/applications with Exec= the full path of autoplay, \
     X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2 and X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input, \
     then run kbuildsycoca5";

/// Whether KWin's screenshot service answers on this session's bus (a KDE Plasma session on Wayland).
pub fn kwin_session() -> bool {
    zbus::blocking::Connection::session()
        .ok()
        .and_then(|connection| screenshot_version(&connection).ok())
        .is_some_and(|version| version >= 2)
}

fn screenshot_version(connection: &zbus::blocking::Connection) -> Result<u32> {
    let reply = connection
        .call_method(
            Some(KWIN),
            SCREENSHOT_PATH,
            Some("org.freedesktop.DBus.Properties"),
            "Get",
            &(SCREENSHOT, "Version"),
        )
        .map_err(|e| anyhow!("KWin's screenshot service does not answer: {e}"))?;
    let value: OwnedValue = reply.body().deserialize()?;
    u32::try_from(value).map_err(|e| anyhow!("KWin's screenshot version is not a number: {e}"))
}

/// Frames of KDE's whole workspace, from KWin's screenshot service.
pub struct WorkspaceSource {
    connection: zbus::blocking::Connection,
}

impl WorkspaceSource {
    pub fn open() -> Result<Self> {
        let connection =
            zbus::blocking::Connection::session().map_err(|e| anyhow!("cannot reach the session's D-Bus: {e}"))?;
        screenshot_version(&connection)?;
        Ok(WorkspaceSource { connection })
    }
}

impl FrameSource for WorkspaceSource {
    fn grab(&mut self) -> Result<Frame> {
        let (reader, writer) = std::io::pipe().context("making a pipe for KWin's picture")?;
        // KWin writes the pixels after it answers: read them meanwhile, so that a full pipe never stalls it.
        let reading = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let mut reader = reader;
            reader.read_to_end(&mut bytes).map(|_| bytes)
        });
        let options: std::collections::HashMap<&str, Value> =
            [("include-cursor", Value::Bool(false)), ("native-resolution", Value::Bool(false))].into();
        let reply = self
            .connection
            .call_method(
                Some(KWIN),
                SCREENSHOT_PATH,
                Some(SCREENSHOT),
                "CaptureWorkspace",
                &(options, zbus::zvariant::Fd::from(&writer)),
            )
            .map_err(|e| match e {
                zbus::Error::MethodError(name, _, _) if name.as_str().contains("NoAuthorized") => {
                    anyhow!("KWin would not give autoplay a picture of the screen: {AUTHORISE}")
                }
                e => anyhow!("KWin's screenshot of the workspace: {e}"),
            })?;
        drop(writer);
        let results: std::collections::HashMap<String, OwnedValue> = reply.body().deserialize()?;
        let number = |key: &str| -> Result<u32> {
            let value = results.get(key).with_context(|| format!("KWin's picture came without its {key}"))?;
            u32::try_from(value.try_clone()?).map_err(|e| anyhow!("KWin's picture's {key}: {e}"))
        };
        let (width, height, stride, format) =
            (number("width")?, number("height")?, number("stride")?, number("format")?);
        let bytes =
            reading.join().map_err(|_| anyhow!("reading KWin's picture failed"))?.context("reading KWin's picture")?;
        let image = from_qimage(&bytes, width, height, stride as usize, format)?;
        Ok(Frame { image, origin_x: 0, origin_y: 0, title: None })
    }

    fn describe(&self) -> String {
        "KDE's workspace".into()
    }

    fn seat(&self) -> Seat {
        Seat::Kwin
    }

    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(desktop_load())
    }
}

/// Raw pixels of a `QImage` format (the ones KWin sends: 32 bits a pixel) as an opaque RGBA picture.
fn from_qimage(bytes: &[u8], width: u32, height: u32, stride: usize, format: u32) -> Result<RgbaImage> {
    // QImage::Format_RGB32, _ARGB32, _ARGB32_Premultiplied: 0xAARRGGBB words, little-endian in memory (B, G, R, A);
    // _RGBX8888, _RGBA8888, _RGBA8888_Premultiplied: R, G, B, A bytes.
    let order: [usize; 3] = match format {
        4..=6 => [2, 1, 0],
        16..=18 => [0, 1, 2],
        other => bail!("KWin sent a picture in QImage format {other}, which the bot does not read"),
    };
    let (w, h) = (width as usize, height as usize);
    if w == 0 || h == 0 || bytes.len() < stride * (h - 1) + w * 4 {
        bail!("KWin's picture is shorter than its size says ({} bytes for {width}x{height})", bytes.len());
    }
    let mut rgba = Vec::with_capacity(w * h * 4);
    for row in 0..h {
        for pixel in bytes[row * stride..row * stride + w * 4].chunks_exact(4) {
            rgba.extend_from_slice(&[pixel[order[0]], pixel[order[1]], pixel[order[2]], 255]);
        }
    }
    RgbaImage::from_raw(width, height, rgba).context("KWin's picture")
}

delegate_noop!(Quiet: ignore OrgKdeKwinFakeInput);

/// KWin's fake input device, authenticated.
pub struct FakeInput {
    queue: EventQueue<Quiet>,
    input: OrgKdeKwinFakeInput,
}

impl FakeInput {
    pub fn open() -> Result<FakeInput> {
        let (globals, queue) = crate::wayland::join()?;
        let input: OrgKdeKwinFakeInput = globals
            .bind(&queue.handle(), 4..=4, ())
            .map_err(|e| anyhow!("KWin offers autoplay no fake input ({e}): {AUTHORISE}"))?;
        input.authenticate("autoplay".into(), "plays the game on the screen".into());
        let mut made = FakeInput { queue, input };
        made.sync("asking KWin for its fake input")?;
        Ok(made)
    }

    /// Moves the pointer to point `(x, y)` of the workspace.
    pub fn move_to(&mut self, (x, y): (i32, i32)) -> Result<()> {
        self.input.pointer_motion_absolute(f64::from(x) + 0.5, f64::from(y) + 0.5);
        self.sync("moving the pointer")
    }

    /// Presses (`down`) or releases the left button.
    pub fn left_button(&mut self, down: bool) -> Result<()> {
        self.input.button(BTN_LEFT, u32::from(down));
        self.sync("pressing the button")
    }

    /// Presses or releases the key that types `c` (with Shift for a capital).
    pub fn char_key(&mut self, c: char, down: bool) -> Result<()> {
        let (code, shift) =
            evdev_of_char(c).with_context(|| format!("no key types '{c}' through KWin's fake input"))?;
        if shift && down {
            self.key(KEY_LEFTSHIFT, true)?;
        }
        self.key(code, down)?;
        if shift && !down {
            self.key(KEY_LEFTSHIFT, false)?;
        }
        Ok(())
    }

    /// Presses or releases the key with evdev code `code`.
    pub fn key(&mut self, code: u32, down: bool) -> Result<()> {
        self.input.keyboard_key(code, u32::from(down));
        self.sync("pressing a key")
    }

    fn sync(&mut self, what: &str) -> Result<()> {
        crate::wayland::roundtrip(&mut self.queue, what)
    }
}

/// The evdev code of a key that types nothing.
pub fn evdev_of_key(key: Key) -> u32 {
    match key {
        Key::Up => 103,
        Key::Left => 105,
        Key::Right => 106,
        Key::Down => 108,
        Key::Enter => 28,
    }
}

/// The evdev code that types `c` on a US layout, and whether Shift is held for it.
fn evdev_of_char(c: char) -> Option<(u32, bool)> {
    const ROWS: [(&str, u32); 4] = [("1234567890", 2), ("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)];
    if c == ' ' {
        return Some((57, false));
    }
    let lower = c.to_ascii_lowercase();
    ROWS.iter().find_map(|(row, first)| row.find(lower).map(|i| (first + i as u32, c.is_ascii_uppercase())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kwins_pictures_in_either_byte_order_become_opaque_rgba() {
        // Two pixels, rows 12 bytes apart.
        let bgra = [10, 20, 30, 0, 40, 50, 60, 0, 9, 9, 9, 9, 1, 2, 3, 0, 4, 5, 6, 0];
        let picture = from_qimage(&bgra, 2, 2, 12, 5).unwrap();
        assert_eq!(picture.get_pixel(0, 0).0, [30, 20, 10, 255]);
        assert_eq!(picture.get_pixel(1, 1).0, [6, 5, 4, 255]);
        let rgba = from_qimage(&bgra, 2, 2, 12, 17).unwrap();
        assert_eq!(rgba.get_pixel(0, 0).0, [10, 20, 30, 255]);
        assert!(from_qimage(&bgra, 2, 3, 12, 5).is_err(), "too short");
        assert!(from_qimage(&bgra, 2, 2, 12, 13).is_err(), "a format the bot does not read");
    }

    #[test]
    fn characters_are_typed_by_a_us_layouts_keys() {
        assert_eq!(evdev_of_char('1'), Some((2, false)));
        assert_eq!(evdev_of_char('9'), Some((10, false)));
        assert_eq!(evdev_of_char('0'), Some((11, false)));
        assert_eq!(evdev_of_char('r'), Some((19, false)));
        assert_eq!(evdev_of_char('G'), Some((34, true)));
        assert_eq!(evdev_of_char('é'), None);
    }
}
