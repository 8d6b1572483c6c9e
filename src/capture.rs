//! The capture stage: frames from a live window, the whole screen, or an image file; here, an X server's windows
//! and screen (a Wayland compositor's are in its own module; [`crate::desktop`] chooses among them).
//!
//! A [`Frame`] is an image plus the screen position of its top-left pixel, so that a point found in the image
//! maps back to the screen by adding the origin, and the window's title where there is a window (some games
//! show state there). xcap's window position is its client area's, and a window
//! capture is the client area only, so no decoration offsets enter.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;
use serde::Serialize;

/// An image, where its top-left pixel is on the screen, and the title of the window it shows (if any).
#[derive(Clone, Debug)]
pub struct Frame {
    pub image: RgbaImage,
    pub origin_x: i32,
    pub origin_y: i32,
    pub title: Option<String>,
}

impl Frame {
    /// A picture with no window: at the screen origin, with no title (a screenshot file).
    pub fn from_image(image: RgbaImage) -> Self {
        Frame { image, origin_x: 0, origin_y: 0, title: None }
    }

    /// Whether two frames show the same: the same picture at the same place under the same title.
    pub fn same_as(&self, other: &Frame) -> bool {
        self.image == other.image
            && (self.origin_x, self.origin_y) == (other.origin_x, other.origin_y)
            && self.title == other.title
    }

    /// Whether the pictures agree inside `region` (image pixels; the whole picture when `None`, with the
    /// frames' places and titles). The play loop settles on the board's region, so that a part of the window
    /// that never stops moving (a clock, an animated title) does not keep it waiting.
    pub fn same_in(&self, other: &Frame, region: Option<Region>) -> bool {
        let Some(region) = region.and_then(|r| r.within(self.image.width(), self.image.height())) else {
            return self.same_as(other);
        };
        if self.image.dimensions() != other.image.dimensions() {
            return false;
        }
        let width = self.image.width() as usize * 4;
        let (left, right) = (region.x as usize * 4, (region.x + region.width) as usize * 4);
        (region.y..region.y + region.height).all(|y| {
            let row = y as usize * width;
            self.image.as_raw()[row + left..row + right] == other.image.as_raw()[row + left..row + right]
        })
    }

    /// The screen point of an image point, clamped to the frame (the window), so that no click lands outside it.
    /// Returns the point and whether clamping moved it.
    pub fn screen_point(&self, x: i32, y: i32) -> ((i32, i32), bool) {
        let max_x = self.image.width().saturating_sub(1) as i32;
        let max_y = self.image.height().saturating_sub(1) as i32;
        let (cx, cy) = (x.clamp(0, max_x), y.clamp(0, max_y));
        ((self.origin_x + cx, self.origin_y + cy), (cx, cy) != (x, y))
    }
}

/// A rectangle of a picture, in image pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Region {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl Region {
    /// The smallest region holding every box (left, top, width, height); `None` for none.
    pub fn around(boxes: &[(i32, i32, u32, u32)]) -> Option<Region> {
        let left = boxes.iter().map(|b| b.0).min()?.max(0);
        let top = boxes.iter().map(|b| b.1).min()?.max(0);
        let right = boxes.iter().map(|b| b.0 + b.2 as i32).max()?;
        let bottom = boxes.iter().map(|b| b.1 + b.3 as i32).max()?;
        (right > left && bottom > top).then(|| Region {
            x: left as u32,
            y: top as u32,
            width: (right - left) as u32,
            height: (bottom - top) as u32,
        })
    }

    /// The part of the region inside a picture of this size; `None` when nothing of it is.
    pub fn within(self, width: u32, height: u32) -> Option<Region> {
        let right = (self.x + self.width).min(width);
        let bottom = (self.y + self.height).min(height);
        (right > self.x && bottom > self.y).then(|| Region { width: right - self.x, height: bottom - self.y, ..self })
    }
}

/// Anything frames can be grabbed from.
pub trait FrameSource {
    fn grab(&mut self) -> Result<Frame>;
    /// A short name for messages ("window 'Flood'", "screen", a file name).
    fn describe(&self) -> String;
    /// The titles of windows the game's program has opened since the source was made (a dialog such as
    /// "Well done"), where the source can know; none otherwise.
    fn windows_opened(&mut self) -> Result<Vec<String>> {
        Ok(Vec::new())
    }
    /// When other windows cover the game's window, brings it to the front and names them (a picture read badly
    /// may be a covered one); none otherwise, or where there is no window.
    fn uncover(&mut self) -> Result<Vec<String>> {
        Ok(Vec::new())
    }
    /// Whether the game's window has the keyboard's input focus (keys typed now reach it); `None` where the
    /// source cannot tell (a picture, the whole screen). The play loop waits for it before typing.
    fn focused(&mut self) -> Result<Option<bool>> {
        Ok(None)
    }
    /// Whether another program holds the pointer now, so that a click sent to the game has not yet reached it
    /// (`Some(true)`): a window manager that takes every click on a window first (to focus or raise it) and then
    /// lets it through, while keys go on to the focused window at once. `None` where the source cannot tell. The
    /// play loop types nothing after a click until the pointer is let go.
    fn pointer_held(&mut self) -> Result<Option<bool>> {
        Ok(None)
    }
    /// How busy the desktop is: the processes ready to run per processor (the one-minute load average over the
    /// processor count), where the source can tell; the play loop waits longer for a move on a busy desktop.
    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(None)
    }
    /// The windows above the game's that cover any of these screen points (input sent there goes to them, not
    /// to the game), named; none where there are none or the source cannot tell.
    fn covering_at(&mut self, _points: &[(i32, i32)]) -> Result<Vec<String>> {
        Ok(Vec::new())
    }
    /// The time on the source's clock: by default the real time since the program started. Every wait of the
    /// capture and play stages asks the source, so that a recorded session replays with its recorded times.
    fn now(&mut self) -> Duration {
        real_time()
    }
    /// Waits on the source's clock: by default really.
    fn sleep(&mut self, duration: Duration) {
        std::thread::sleep(duration)
    }
    /// Where input for this source's window goes: by default the X server.
    fn seat(&self) -> Seat {
        Seat::X11
    }
}

/// Where the bot's input goes: the desktop a window is shown by.
#[derive(Clone)]
pub enum Seat {
    /// The X server (XTEST): an X11 window, or XWayland's on a Wayland session.
    X11,
    /// A wlroots compositor's virtual pointer and keyboard: a native Wayland window there ([`crate::wlroots`]).
    Wlroots,
    /// mutter's remote-desktop session whose screen cast the pictures come from: GNOME on Wayland
    /// ([`crate::mutter`]).
    Mutter(std::sync::Arc<crate::mutter::RemoteDesktop>),
    /// KWin's fake input: KDE Plasma on Wayland ([`crate::kwin`]).
    Kwin,
}

/// The desktop's load: the one-minute load average (`/proc/loadavg`) over the processors this program may use;
/// `None` where the system does not tell.
pub fn desktop_load() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let load: f64 = text.split_whitespace().next()?.parse().ok()?;
    let processors = std::thread::available_parallelism().map_or(1, |n| n.get());
    Some(load / processors as f64)
}

/// The real time since the first call.
pub fn real_time() -> Duration {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// One desktop window as listed by `autoplay windows`.
#[derive(Clone, Debug, Serialize)]
pub struct WindowInfo {
    pub id: u32,
    pub title: String,
    pub app: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    pub minimized: bool,
    /// A native Wayland window, listed by the compositor (sway, Hyprland): captured and played through it
    /// ([`crate::wlroots`]), its id being the compositor's. Otherwise an X11 window (XWayland's, on Wayland).
    pub wayland: bool,
}

fn info_of(window: &xcap::Window) -> Result<WindowInfo> {
    let id = window.id()?;
    let title = match window.title()? {
        // A program that sets only the old WM_NAME, as a STRING (xterm, and what runs in it): xcap asks for it as
        // COMPOUND_TEXT only, and gets nothing.
        title if title.is_empty() => old_wm_name(id).unwrap_or_default(),
        title => title,
    };
    Ok(WindowInfo {
        id,
        title,
        app: window.app_name().unwrap_or_default(),
        x: window.x()?,
        y: window.y()?,
        width: window.width()?,
        height: window.height()?,
        minimized: window.is_minimized().unwrap_or(false),
        wayland: false,
    })
}

/// Window `id`'s ICCCM `WM_NAME`, of whatever type it was set with (STRING is Latin-1; UTF8_STRING, and
/// COMPOUND_TEXT of ASCII, are read as UTF-8); `None` where it has none or the server cannot be asked.
fn old_wm_name(id: u32) -> Option<String> {
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt};
    let (conn, _) = x11rb::connect(None).ok()?;
    let reply = conn.get_property(false, id, AtomEnum::WM_NAME, AtomEnum::ANY, 0, 1024).ok()?.reply().ok()?;
    if reply.value.is_empty() {
        return None;
    }
    Some(if reply.type_ == u32::from(AtomEnum::STRING) {
        reply.value.iter().map(|&b| b as char).collect()
    } else {
        String::from_utf8_lossy(&reply.value).into_owned()
    })
}

fn all_windows() -> Result<Vec<xcap::Window>> {
    xcap::Window::all().map_err(|e| {
        anyhow!("cannot list windows: {e} (is DISPLAY set, and is an EWMH window manager such as openbox running?)")
    })
}

/// Every top-level window the X server's window manager knows, front-most first (on a Wayland session, XWayland's;
/// a native Wayland window is known to no X client: [`crate::desktop::Desktop::list_windows`] lists those too).
pub fn x11_windows() -> Result<Vec<WindowInfo>> {
    all_windows()?.iter().map(info_of).collect()
}

/// A window as messages name it: title, id, position and size.
pub fn describe_window(w: &WindowInfo) -> String {
    format!("'{}' (id {}, at {},{}, {}x{})", w.title, w.id, w.x, w.y, w.width, w.height)
}

/// Frames of one window. Its position is asked afresh at every grab, so a moved window is still followed.
pub struct WindowSource {
    window: xcap::Window,
    /// The same window through one X connection kept open, where it can be had: captures without xcap's
    /// connection for every question ([`crate::x11_window`]).
    kept: Option<crate::x11_window::X11Window>,
    title: String,
    /// The windows of the same program when the source was made.
    siblings_at_start: Vec<u32>,
}

/// The ids and titles of the windows of program `pid`.
fn windows_of(windows: &[xcap::Window], pid: u32) -> Vec<(u32, String)> {
    windows
        .iter()
        .filter(|w| w.pid().ok() == Some(pid))
        .filter_map(|w| Some((w.id().ok()?, w.title().unwrap_or_default())))
        .collect()
}

impl WindowSource {
    /// The X11 window `info` lists.
    pub fn of(info: WindowInfo) -> Result<Self> {
        if info.wayland {
            bail!("window '{}' is a native Wayland window, not an X11 one", info.title);
        }
        let windows = all_windows()?;
        let window = windows
            .iter()
            .find(|w| w.id().ok() == Some(info.id))
            .cloned()
            .ok_or_else(|| anyhow!("window '{}' (id {}) closed as it was found", info.title, info.id))?;
        let siblings_at_start = match window.pid() {
            Ok(pid) => windows_of(&windows, pid).into_iter().map(|(id, _)| id).collect(),
            Err(_) => Vec::new(),
        };
        let kept = crate::x11_window::X11Window::open(info.id).ok();
        Ok(WindowSource { window, kept, title: info.title, siblings_at_start })
    }
}

impl WindowSource {
    /// Why a capture failed, as far as can be told: the window is gone (closed), or minimised (X draws nothing
    /// of an unmapped window), or it reaches past the screen's edge (X cannot capture what is off the screen),
    /// or the error as it came.
    fn why_not_captured(&self, error: xcap::XCapError) -> anyhow::Error {
        let Ok(id) = self.window.id() else { return anyhow!("window '{}' is gone ({error})", self.title) };
        match window_shown(id) {
            Ok(Shown::Gone) => return anyhow!("window '{}' is gone: it was closed", self.title),
            Ok(Shown::Hidden) => {
                return anyhow!(
                    "window '{}' is minimised (or hidden), so it cannot be seen; restore it and run the command again",
                    self.title
                )
            }
            Ok(Shown::Mapped) | Err(_) => {}
        }
        let Some(info) = x11_windows().ok().and_then(|ws| ws.into_iter().find(|w| w.id == id)) else {
            return anyhow!("window '{}' cannot be captured ({error})", self.title);
        };
        let screen = xcap::Monitor::all()
            .ok()
            .and_then(|ms| ms.into_iter().next())
            .and_then(|m| Some((m.x().ok()?, m.y().ok()?, m.width().ok()?, m.height().ok()?)));
        if let Some((sx, sy, sw, sh)) = screen {
            let inside = info.x >= sx
                && info.y >= sy
                && info.x + info.width as i32 <= sx + sw as i32
                && info.y + info.height as i32 <= sy + sh as i32;
            if !inside {
                return anyhow!(
                    "window '{}' is partly off the screen (at {},{}, {}x{}, on a {sw}x{sh} screen) and cannot be captured; move it back onto the screen",
                    self.title, info.x, info.y, info.width, info.height
                );
            }
        }
        anyhow!("window '{}' cannot be captured ({error})", self.title)
    }
}

/// Whether a top-level window still exists and is shown, as the X server says.
enum Shown {
    /// No such window any more.
    Gone,
    /// It exists but is not drawn: unmapped, or iconic (minimised) by ICCCM's `WM_STATE`.
    Hidden,
    Mapped,
}

/// Asks the X server about window `id`. The window manager may have reparented it into a frame that it unmaps
/// when minimising, so both the window's own map state and its `WM_STATE` (Iconic = 3) are looked at.
fn window_shown(id: u32) -> Result<Shown> {
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt, MapState};
    let (conn, _) = x11rb::connect(None).map_err(|e| anyhow!("cannot reach the X server: {e}"))?;
    let Ok(attributes) = conn.get_window_attributes(id)?.reply() else { return Ok(Shown::Gone) };
    let wm_state = conn.intern_atom(false, b"WM_STATE")?.reply()?.atom;
    let iconic = conn
        .get_property(false, id, wm_state, AtomEnum::ANY, 0, 1)?
        .reply()
        .ok()
        .and_then(|p| p.value32().and_then(|mut v| v.next()))
        == Some(3);
    Ok(if iconic || attributes.map_state != MapState::VIEWABLE { Shown::Hidden } else { Shown::Mapped })
}

impl FrameSource for WindowSource {
    fn grab(&mut self) -> Result<Frame> {
        if let Some(grabbed) = self.kept.as_ref().and_then(|kept| kept.grab()) {
            let title = grabbed.title.or_else(|| self.window.title().ok());
            return Ok(Frame { image: grabbed.image, origin_x: grabbed.x, origin_y: grabbed.y, title });
        }
        let minimised = self.window.is_minimized().map_err(|e| self.why_not_captured(e))?;
        if minimised {
            bail!("window '{}' is minimised, so it cannot be seen; restore it and run the command again", self.title);
        }
        let image = self.window.capture_image().map_err(|e| self.why_not_captured(e))?;
        let title = self.window.title().ok();
        let origin_x = self.window.x().map_err(|e| self.why_not_captured(e))?;
        let origin_y = self.window.y().map_err(|e| self.why_not_captured(e))?;
        Ok(Frame { image, origin_x, origin_y, title })
    }

    fn describe(&self) -> String {
        format!("window '{}'", self.title)
    }

    fn uncover(&mut self) -> Result<Vec<String>> {
        let id = self.window.id()?;
        let windows = x11_windows()?;
        let Some(at) = windows.iter().position(|w| w.id == id) else { return Ok(Vec::new()) };
        let ours = &windows[at];
        let overlaps = |w: &WindowInfo| {
            w.x < ours.x + ours.width as i32
                && ours.x < w.x + w.width as i32
                && w.y < ours.y + ours.height as i32
                && ours.y < w.y + w.height as i32
        };
        let covering: Vec<String> =
            windows[..at].iter().filter(|w| !w.minimized && overlaps(w)).map(describe_window).collect();
        if !covering.is_empty() {
            activate(id)?;
        }
        Ok(covering)
    }

    fn focused(&mut self) -> Result<Option<bool>> {
        has_focus(self.window.id()?).map(Some)
    }

    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(desktop_load())
    }

    fn pointer_held(&mut self) -> Result<Option<bool>> {
        let held = match &self.kept {
            Some(kept) => kept.pointer_held()?,
            None => {
                let (conn, screen) = x11rb::connect(None).map_err(|e| anyhow!("cannot reach the X server: {e}"))?;
                let root = x11rb::connection::Connection::setup(&conn).roots[screen].root;
                crate::x11_window::pointer_held(&conn, root)?
            }
        };
        Ok(Some(held))
    }

    fn covering_at(&mut self, points: &[(i32, i32)]) -> Result<Vec<String>> {
        let id = self.window.id()?;
        let windows = x11_windows()?;
        let Some(at) = windows.iter().position(|w| w.id == id) else { return Ok(Vec::new()) };
        let over = |w: &WindowInfo, &(x, y): &(i32, i32)| {
            x >= w.x && y >= w.y && x < w.x + w.width as i32 && y < w.y + w.height as i32
        };
        Ok(windows[..at]
            .iter()
            .filter(|w| !w.minimized && points.iter().any(|p| over(w, p)))
            .map(describe_window)
            .collect())
    }

    fn windows_opened(&mut self) -> Result<Vec<String>> {
        let Ok(pid) = self.window.pid() else { return Ok(Vec::new()) };
        let opened =
            windows_of(&all_windows()?, pid).into_iter().filter(|(id, _)| !self.siblings_at_start.contains(id));
        Ok(opened
            .map(|(_, title)| if title.is_empty() { "(untitled)".to_string() } else { format!("'{title}'") })
            .collect())
    }
}

/// Whether the X server's input focus is on window `id` or inside it. Focus "PointerRoot" sends keys to the
/// window under the pointer, which the bot has just clicked: that counts as focused; so does a focus on an
/// override-redirect window (a toolkit's popup, such as GNOME Sudoku's number picker, which the window manager
/// does not manage and which passes the keys to its game). No focus, or another managed window's, does not.
fn has_focus(id: u32) -> Result<bool> {
    use x11rb::protocol::xproto::{ConnectionExt, InputFocus};
    let (conn, _) = x11rb::connect(None).map_err(|e| anyhow!("cannot reach the X server: {e}"))?;
    let mut window = conn.get_input_focus()?.reply()?.focus;
    if window == u32::from(InputFocus::POINTER_ROOT) {
        return Ok(true);
    }
    // Up from the focused window (a toolkit may focus a child of its top-level window) to the root.
    while window != u32::from(InputFocus::NONE) {
        if window == id {
            return Ok(true);
        }
        let Ok(tree) = conn.query_tree(window)?.reply() else { return Ok(false) };
        if tree.parent == tree.root || tree.parent == 0 {
            let popup = conn.get_window_attributes(window)?.reply().is_ok_and(|a| a.override_redirect);
            return Ok(popup);
        }
        window = tree.parent;
    }
    Ok(false)
}

/// Asks the window manager to bring window `id` to the front and focus it (EWMH `_NET_ACTIVE_WINDOW`, as a
/// pager would).
fn activate(id: u32) -> Result<()> {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask};
    let (conn, screen) = x11rb::connect(None).map_err(|e| anyhow!("cannot reach the X server: {e}"))?;
    let root = conn.setup().roots[screen].root;
    let active = conn.intern_atom(false, b"_NET_ACTIVE_WINDOW")?.reply()?.atom;
    let event = ClientMessageEvent::new(32, id, active, [2u32, x11rb::CURRENT_TIME, 0, 0, 0]);
    conn.send_event(false, root, EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY, event)?;
    // A round trip, so that the server has the message before the connection closes.
    conn.get_input_focus()?.reply()?;
    Ok(())
}

/// Frames of the primary monitor (or the first one).
pub struct ScreenSource;

impl FrameSource for ScreenSource {
    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(desktop_load())
    }

    fn grab(&mut self) -> Result<Frame> {
        let monitors = xcap::Monitor::all().map_err(|e| anyhow!("cannot list monitors: {e} (is DISPLAY set?)"))?;
        let monitor = monitors
            .iter()
            .find(|m| m.is_primary().unwrap_or(false))
            .or(monitors.first())
            .ok_or_else(|| anyhow!("no monitor found"))?;
        let image = monitor.capture_image().context("capturing the screen")?;
        Ok(Frame { image, origin_x: monitor.x()?, origin_y: monitor.y()?, title: None })
    }

    fn describe(&self) -> String {
        "screen".into()
    }
}

/// Frames from an image file, placed at the screen origin; every grab returns the same picture.
pub struct ImageFileSource {
    path: PathBuf,
    image: RgbaImage,
}

impl ImageFileSource {
    pub fn open(path: &std::path::Path) -> Result<Self> {
        Ok(ImageFileSource { path: path.to_owned(), image: crate::imageio::load_image(path)? })
    }
}

impl FrameSource for ImageFileSource {
    fn grab(&mut self) -> Result<Frame> {
        Ok(Frame::from_image(self.image.clone()))
    }

    fn describe(&self) -> String {
        format!("image {}", self.path.display())
    }
}

/// How a game's window settles after an input event: how often to look, how long the board must hold still,
/// and how long to let a click land before the next event. How long to wait for a move at all is the play
/// loop's, learned from the client's pace.
#[derive(Clone, Debug)]
pub struct Settle {
    /// Time between two captures: a capture of a game's window costs about a millisecond, so a few milliseconds
    /// find a repaint about as soon as it shows, at a small share of a processor.
    pub interval: Duration,
    /// The board must stay the same for this long to count as settled (animations have ended); at least two
    /// captures in a row must agree.
    pub quiet: Duration,
    /// The pause after each click before the next input event (a key typed at once can be lost).
    pub after_click: Duration,
}

impl Default for Settle {
    fn default() -> Self {
        Settle {
            interval: Duration::from_millis(3),
            quiet: Duration::from_millis(120),
            after_click: Duration::from_millis(40),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_are_clamped_to_the_window() {
        let frame = Frame { origin_x: 300, origin_y: 200, ..Frame::from_image(RgbaImage::new(100, 80)) };
        assert_eq!(frame.screen_point(10, 20), ((310, 220), false));
        assert_eq!(frame.screen_point(99, 79), ((399, 279), false));
        assert_eq!(frame.screen_point(100, 80), ((399, 279), true));
        assert_eq!(frame.screen_point(-5, 500), ((300, 279), true));
    }
}
