//! The capture stage: frames from a live window, the whole screen, or an image file.
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
    /// A native Wayland window, listed by the compositor (sway): captured and played through it
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

/// The variables that tell what kind of desktop session this is: `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE`,
/// `SWAYSOCK` (sway's IPC socket), `XDG_CURRENT_DESKTOP` (`GNOME`, `KDE`, …) and `HYPRLAND_INSTANCE_SIGNATURE`
/// (Hyprland's IPC).
pub fn session_env() -> [(&'static str, Option<String>); 5] {
    ["WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "SWAYSOCK", "XDG_CURRENT_DESKTOP", "HYPRLAND_INSTANCE_SIGNATURE"]
        .map(|name| (name, std::env::var(name).ok().filter(|v| !v.is_empty())))
}

/// On a Wayland session (either of the first two variables says so) other than sway's, what works and what does
/// not, by desktop: on GNOME (`mutter`: mutter's remote-desktop services answer on the session bus) the board is
/// found in the monitor and played through mutter; on KDE (`kwin`: KWin's screenshot service answers, or the
/// desktop is named so) in the workspace, through KWin where it lets the bot; on
/// other compositors windows are listed, captured and played through X11 only (programs running under XWayland),
/// and a wlroots compositor's whole output is read.
/// `None` on an X11 session, and on sway and Hyprland, whose native windows are listed and played
/// ([`crate::wlroots`]).
pub fn wayland_note(env: &[(&str, Option<String>)], mutter: bool, kwin: bool) -> Option<String> {
    let value = |name: &str| env.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_deref());
    let wayland = value("WAYLAND_DISPLAY").is_some()
        || value("XDG_SESSION_TYPE").is_some_and(|t| t.eq_ignore_ascii_case("wayland"));
    if !wayland || value("SWAYSOCK").is_some() || value("HYPRLAND_INSTANCE_SIGNATURE").is_some() {
        return None;
    }
    let kde = kwin || value("XDG_CURRENT_DESKTOP").is_some_and(|d| d.split(':').any(|d| d.eq_ignore_ascii_case("KDE")));
    Some(if mutter {
        "this is a GNOME (mutter) session on Wayland: GNOME lists its windows to no other program, so autoplay lists \
         only the windows of programs running under XWayland; with no --window, `play` finds the board in the \
         primary monitor's picture (mutter's screen cast) and plays it through mutter's remote desktop, a native \
         Wayland window's too"
            .to_string()
    } else if kde {
        "this is a KDE Plasma (KWin) session on Wayland: KWin lists its windows to no other program, so autoplay \
         lists only the windows of programs running under XWayland; with no --window, `play` finds the board in the \
         workspace's picture (KWin's screenshot service) and plays it through KWin's fake input, where KWin lets \
         autoplay use them (a .desktop file authorising it: see docs/desktops.md); else start a Qt game under \
         XWayland with QT_QPA_PLATFORM=xcb (for example `QT_QPA_PLATFORM=xcb ksudoku`), a GTK one with GDK_BACKEND=x11"
            .to_string()
    } else {
        "this is a Wayland session whose compositor lists no windows to autoplay: it sees the windows of programs \
         running under XWayland (as on X11) and, where the compositor copies its output and takes virtual input (a \
         wlroots one, such as Hyprland or labwc), the board in the whole output; native Wayland windows are not \
         listed. Where the compositor offers neither, start a GTK game under XWayland with GDK_BACKEND=x11 (for \
         example `GDK_BACKEND=x11 /usr/games/sgt-flood`), a Qt one with QT_QPA_PLATFORM=xcb"
            .to_string()
    })
}

/// Every top-level window the window manager knows, front-most first; on sway, its native Wayland windows first,
/// then the X server's (XWayland's). On a Wayland session with no X server to ask (no XWayland), the native
/// windows alone (none, where the compositor is not sway).
pub fn list_windows() -> Result<Vec<WindowInfo>> {
    let mut windows = if crate::wlroots::lists_windows() { crate::wlroots::native_windows()? } else { Vec::new() };
    match all_windows().and_then(|x11| x11.iter().map(info_of).collect::<Result<Vec<_>>>()) {
        Ok(x11) => windows.extend(x11),
        Err(_) if wayland_session() && std::env::var_os("DISPLAY").is_none() => {}
        Err(e) => return Err(e),
    }
    Ok(windows)
}

/// Whether this is a Wayland session (`WAYLAND_DISPLAY` names a compositor).
pub fn wayland_session() -> bool {
    std::env::var_os("WAYLAND_DISPLAY").is_some_and(|display| !display.is_empty())
}

/// The whole screen: on a Wayland session whose compositor copies its output for the bot (a wlroots one), every
/// output ([`crate::wlroots::OutputSource`]); on GNOME's (mutter's), its primary monitor through a screen cast
/// ([`crate::mutter::MonitorSource`]); else the X server's screen.
pub fn screen_source() -> Box<dyn FrameSource> {
    screen_sources().into_iter().last().unwrap_or_else(|| Box::new(ScreenSource))
}

/// Where a board is looked for on the screen, in turn: on a Wayland session whose compositor copies its outputs,
/// each output where there are several, then all of them ([`crate::wlroots::OutputSource::each`]); on GNOME's,
/// the primary monitor; on KDE's, the whole workspace; else the screen.
pub fn screen_sources() -> Vec<Box<dyn FrameSource>> {
    if wayland_session() {
        if let Ok(outputs) = crate::wlroots::OutputSource::each() {
            return outputs.into_iter().map(|output| Box::new(output) as Box<dyn FrameSource>).collect();
        }
        if crate::mutter::mutter_session() {
            match crate::mutter::MonitorSource::open() {
                Ok(monitor) => return vec![Box::new(monitor)],
                Err(e) => eprintln!("note: GNOME's screen cannot be seen through mutter: {e:#}"),
            }
        }
        if crate::kwin::kwin_session() {
            match crate::kwin::WorkspaceSource::open() {
                Ok(workspace) => return vec![Box::new(workspace)],
                Err(e) => eprintln!("note: KDE's screen cannot be seen through KWin: {e:#}"),
            }
        }
    }
    vec![Box::new(ScreenSource)]
}

/// The source of the window `title` names ([`find_window`]): a native Wayland window's through the compositor,
/// any other through X11.
pub fn open_window(title: &str) -> Result<Box<dyn FrameSource>> {
    let info = find_window(title).map_err(with_wayland_note)?;
    if info.wayland {
        return Ok(Box::new(crate::wlroots::NativeWindowSource::open(&info)?));
    }
    Ok(Box::new(WindowSource::of(info).map_err(with_wayland_note)?))
}

/// A window as messages name it: title, id, position and size.
pub fn describe_window(w: &WindowInfo) -> String {
    format!("'{}' (id {}, at {},{}, {}x{})", w.title, w.id, w.x, w.y, w.width, w.height)
}

/// Windows as messages name them, in a list.
fn described(windows: &[&WindowInfo]) -> String {
    windows.iter().map(|w| describe_window(w)).collect::<Vec<_>>().join(", ")
}

/// Finds a window: `id:N` names one by its id (as `autoplay windows` lists them); otherwise by title, the one
/// window with exactly that title, else the one window whose title contains it (ignoring case), else the one
/// window of a program of that class (`xterm`). Several matches, or none, are errors that list the candidates, so
/// that the user can name one by its id.
pub fn find_window(title: &str) -> Result<WindowInfo> {
    let windows = list_windows()?;
    if let Some(id) = title.strip_prefix("id:") {
        let id: u32 = id
            .trim()
            .parse()
            .with_context(|| format!("'{title}' is not a window id (id:N, from `autoplay windows`)"))?;
        return windows.into_iter().find(|w| w.id == id).with_context(|| format!("no window has id {id}"));
    }
    let exact: Vec<&WindowInfo> = windows.iter().filter(|w| w.title == title && !w.minimized).collect();
    match exact.as_slice() {
        [one] => return Ok((*one).clone()),
        [] => {}
        many => bail!("several windows are titled '{title}': {}; name one with --window id:N", described(many)),
    }
    let wanted = title.to_lowercase();
    let partial: Vec<&WindowInfo> =
        windows.iter().filter(|w| w.title.to_lowercase().contains(&wanted) && !w.minimized).collect();
    match partial.as_slice() {
        [one] => Ok((*one).clone()),
        [] => {
            // No title has it: the window's class (its program, as `autoplay windows` shows it).
            let by_class: Vec<&WindowInfo> =
                windows.iter().filter(|w| w.app.eq_ignore_ascii_case(title) && !w.minimized).collect();
            match by_class.as_slice() {
                [one] => return Ok((*one).clone()),
                [] => {}
                many => {
                    bail!("several windows of program '{title}': {}; name one with --window id:N", described(many))
                }
            }
            let titles: Vec<String> = windows.iter().map(|w| format!("'{}'", w.title)).collect();
            bail!(
                "no window titled '{title}' (windows: {})",
                if titles.is_empty() { "none".into() } else { titles.join(", ") }
            )
        }
        many => bail!(
            "several windows match '{title}': {}; give the exact title, or name one with --window id:N",
            described(many)
        ),
    }
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

/// What this desktop session means for the bot, where it is a Wayland one ([`wayland_note`]; whether it is GNOME's
/// is asked of the session bus only there).
pub fn session_note() -> Option<String> {
    let env = session_env();
    // (Not a Wayland session, or sway's: nothing to tell, and no bus to ask.)
    wayland_note(&env, false, false)?;
    let mutter = crate::mutter::mutter_session();
    wayland_note(&env, mutter, !mutter && crate::kwin::kwin_session())
}

/// An error about finding a window, with what a Wayland session means for it where this is one.
pub fn with_wayland_note(error: anyhow::Error) -> anyhow::Error {
    match session_note() {
        Some(note) => anyhow!("{error:#}; {note}"),
        None => error,
    }
}

impl WindowSource {
    /// The window `title` names (see [`find_window`]).
    pub fn new(title: &str) -> Result<Self> {
        Self::open(title).map_err(with_wayland_note)
    }

    fn open(title: &str) -> Result<Self> {
        Self::of(find_window(title)?)
    }

    /// The X11 window `info` lists.
    fn of(info: WindowInfo) -> Result<Self> {
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
        let Some(info) = list_windows().ok().and_then(|ws| ws.into_iter().find(|w| w.id == id)) else {
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
        let windows = list_windows()?;
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
        let windows = list_windows()?;
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
    fn a_wayland_session_is_told_what_works_on_its_desktop_and_how_to_start_a_game_under_xwayland() {
        let env = |wayland: Option<&str>, kind: Option<&str>, desktop: Option<&str>| {
            [
                ("WAYLAND_DISPLAY", wayland.map(String::from)),
                ("XDG_SESSION_TYPE", kind.map(String::from)),
                ("SWAYSOCK", None),
                ("XDG_CURRENT_DESKTOP", desktop.map(String::from)),
                ("HYPRLAND_INSTANCE_SIGNATURE", None),
            ]
        };
        assert_eq!(wayland_note(&env(None, None, None), false, false), None);
        assert_eq!(wayland_note(&env(None, Some("x11"), Some("GNOME")), true, false), None);
        for session in [
            env(Some("wayland-0"), None, None),
            env(None, Some("wayland"), None),
            env(Some("wayland-1"), Some("wayland"), Some("Hyprland")),
        ] {
            let note = wayland_note(&session, false, false).expect("a Wayland session");
            assert!(
                note.contains("XWayland")
                    && note.contains("GDK_BACKEND=x11")
                    && note.contains("native Wayland windows are not listed"),
                "{note}"
            );
        }
        // GNOME: the monitor is read and played through mutter.
        let gnome = wayland_note(&env(Some("wayland-0"), Some("wayland"), Some("GNOME")), true, false).unwrap();
        assert!(gnome.contains("mutter's remote desktop") && !gnome.contains("GDK_BACKEND"), "{gnome}");
        // KDE: the workspace through KWin where it lets the bot, else how to start a Qt game under XWayland.
        let kde = wayland_note(&env(Some("wayland-0"), Some("wayland"), Some("KDE")), false, false).unwrap();
        assert!(kde.contains("KWin's fake input") && kde.contains("QT_QPA_PLATFORM=xcb"), "{kde}");
        // (KWin answering says so too, whatever the desktop's name.)
        assert_eq!(wayland_note(&env(Some("wayland-0"), None, None), false, true).as_ref(), Some(&kde));
        // On sway, native windows are listed and played: nothing to tell.
        let mut sway = env(Some("wayland-1"), Some("wayland"), None);
        sway[2].1 = Some("/run/user/1000/sway-ipc.sock".into());
        assert_eq!(wayland_note(&sway, true, false), None);
        // Nor on Hyprland.
        let mut hyprland = env(Some("wayland-1"), Some("wayland"), Some("Hyprland"));
        hyprland[4].1 = Some("v0.41_1700000000_1234".into());
        assert_eq!(wayland_note(&hyprland, false, false), None);
    }

    #[test]
    fn clicks_are_clamped_to_the_window() {
        let frame = Frame { origin_x: 300, origin_y: 200, ..Frame::from_image(RgbaImage::new(100, 80)) };
        assert_eq!(frame.screen_point(10, 20), ((310, 220), false));
        assert_eq!(frame.screen_point(99, 79), ((399, 279), false));
        assert_eq!(frame.screen_point(100, 80), ((399, 279), true));
        assert_eq!(frame.screen_point(-5, 500), ((300, 279), true));
    }
}
