//! Native Wayland windows on wlroots compositors: the windows their IPC lists (sway's, Hyprland's), their pictures
//! through the compositor's screen copy (wlr-screencopy, by `libwayshot`), and (in [`crate::input`]) input through
//! its virtual pointer and keyboard; on a wlroots compositor with no IPC the bot knows, its outputs.
//!
//! A Wayland client may not look at other clients' windows, so the compositor is asked for everything:
//! - **Which windows, and where** ([`windows`]). sway's IPC tree (`swayipc`, over `$SWAYSOCK`) lists every view
//!   with its title, app id, process, shell (`xdg_shell` for a native window, `xwayland` for an X one), whether it
//!   is visible and focused, and its place on the output layout; Hyprland's IPC (`j/clients` on its instance's
//!   socket) the same facts in its own words. Windows under XWayland are left to the X11 path, which lists,
//!   captures and plays them as on any X server.
//! - **Pictures.** The compositor copies a rectangle of the layout into a buffer the bot shares with it; the
//!   rectangle is the view's, asked afresh from the tree at every capture, so a moved or resized window is
//!   followed.
//! - **Coordinates.** The layout's coordinates are the frame's: a frame's origin is its view's corner, and its
//!   pixels are the layout's points one for one. On a scaled output (a HiDPI screen at scale 2, or 1.5) the
//!   compositor copies a rectangle at the output's own resolution, which is brought down to the layout's points
//!   ([`copy`]), so the readers see the window at the size its points give. A click at layout point (x, y) goes
//!   through the bot's own virtual pointer ([`VirtualPointer`]), which names the layout's box as the extent of its
//!   absolute motion: one output or several, anywhere in the layout, at any scale.
//!
//! What a Wayland client cannot know: where the user's pointer is (no protocol tells another client's pointer),
//! so the pointer the loop checks is the one the bot moved; see [`crate::input`].

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;
use libwayshot_xcap::region::{EmbeddedRegion, LogicalRegion, Position, Region, Size};
use libwayshot_xcap::WayshotConnection;

use crate::capture::{desktop_load, Frame, FrameSource, Seat, WindowInfo};

mod pointer;
mod windows;
pub use pointer::{LayoutBox, VirtualPointer};
pub use windows::{window_list, HyprlandClients, SwayTree, View, WindowList};

fn info(view: &View) -> WindowInfo {
    let (x, y, width, height) = view.rect;
    WindowInfo {
        id: view.id,
        title: view.title.clone(),
        app: view.app.clone(),
        x,
        y,
        width: width.max(0) as u32,
        height: height.max(0) as u32,
        minimized: !view.shown,
        wayland: true,
    }
}

/// The native Wayland windows the compositor shows, as `autoplay windows` lists them (their ids are the
/// compositor's: sway's container ids, or the low 32 bits of Hyprland's addresses).
pub fn native_windows() -> Result<Vec<WindowInfo>> {
    Ok(window_list()?.views()?.iter().map(info).collect())
}

/// The layout's rectangle `region` (of `what`, for messages) as the compositor copies it, opaque, with a pixel for
/// each of the layout's points: a copy of a scaled output's rectangle, made at the output's resolution, is brought
/// down to the points' size, each pixel the mean of the output's pixels over it (at scale 2, of its two by two: a
/// line a point wide, drawn two pixels wide, stays a point wide and as dark), so that a window reads the same on
/// any output and its pixels are where its points are.
///
/// (libwayshot 0.3 copies a rectangle from every output it meets, also one it only touches, edge to edge, and then
/// asks the compositor for a copy of no pixels, which is a protocol error: a window at the left edge of an output
/// beside another. There the outputs it overlaps are copied whole, and the rectangle cut from them.)
fn copy(shots: &WayshotConnection, region: LogicalRegion, what: &str) -> Result<RgbaImage> {
    let overlap = |output: &libwayshot_xcap::output::OutputInfo| {
        EmbeddedRegion::new(region, output.into()).map(|inside| inside.inner.size.width * inside.inner.size.height)
    };
    let outputs = shots.get_all_outputs();
    let shot = if outputs.iter().any(|output| overlap(output) == Some(0)) {
        let overlapped: Vec<_> = outputs.iter().filter(|output| overlap(output).unwrap_or(0) > 0).cloned().collect();
        let around = LogicalRegion::try_from(overlapped.as_slice())
            .map_err(|e| anyhow!("{what} lies on no output of the compositor's: {e}"))?;
        let whole = shots
            .screenshot_outputs(&overlapped, false)
            .map_err(|e| anyhow!("capturing {what} through the compositor: {e}"))?;
        let scale = f64::from(whole.width()) / f64::from(around.inner.size.width.max(1));
        let at = |v: i32, origin: i32| (f64::from(v - origin) * scale).round().max(0.0) as u32;
        let (x, y) = (
            at(region.inner.position.x, around.inner.position.x),
            at(region.inner.position.y, around.inner.position.y),
        );
        let (width, height) =
            ((f64::from(region.inner.size.width) * scale) as u32, (f64::from(region.inner.size.height) * scale) as u32);
        whole.crop_imm(x, y, width, height)
    } else {
        shots.screenshot(region, false).map_err(|e| anyhow!("capturing {what} through the compositor: {e}"))?
    };
    let mut image = shot.to_rgba8();
    let size = region.inner.size;
    if (image.width(), image.height()) != (size.width, size.height) {
        image = image::imageops::thumbnail(&image, size.width, size.height);
    }
    // (The compositor leaves the fourth byte of an XRGB buffer as it was: the pictures are opaque.)
    image.pixels_mut().for_each(|p| p[3] = 255);
    Ok(image)
}

/// Frames of one native Wayland window, captured by the compositor.
pub struct NativeWindowSource {
    id: u32,
    title: String,
    pid: Option<i32>,
    list: Box<dyn WindowList>,
    shots: WayshotConnection,
    /// The windows of the same program when the source was made.
    siblings_at_start: Vec<u32>,
}

impl NativeWindowSource {
    /// The window `window` (listed by [`native_windows`]).
    pub fn open(window: &WindowInfo) -> Result<Self> {
        let list = window_list()?;
        let shots = WayshotConnection::new()
            .map_err(|e| anyhow!("cannot use the compositor's screen copy (wlr-screencopy): {e}"))?;
        if shots.get_all_outputs().is_empty() {
            bail!("the compositor has no output to capture");
        }
        let mut source = NativeWindowSource {
            id: window.id,
            title: window.title.clone(),
            pid: None,
            list,
            shots,
            siblings_at_start: Vec::new(),
        };
        let view = source.view()?;
        source.pid = view.pid;
        source.siblings_at_start = source.siblings()?.iter().map(|v| v.id).collect();
        Ok(source)
    }

    /// The window as the compositor has it now.
    fn view(&mut self) -> Result<View> {
        let id = self.id;
        self.list
            .views()?
            .into_iter()
            .find(|v| v.id == id)
            .with_context(|| format!("window '{}' is gone: it was closed", self.title))
    }

    /// The other windows of the same program.
    fn siblings(&mut self) -> Result<Vec<View>> {
        let (id, pid) = (self.id, self.pid);
        Ok(self.list.views()?.into_iter().filter(|v| v.id != id && pid.is_some() && v.pid == pid).collect())
    }
}

impl FrameSource for NativeWindowSource {
    fn grab(&mut self) -> Result<Frame> {
        let view = self.view()?;
        if !view.shown {
            bail!(
                "window '{}' is not shown (on another workspace, or in the scratchpad), so it cannot be seen; show \
                 it and run the command again",
                self.title
            );
        }
        let (x, y, width, height) = view.rect;
        if width <= 0 || height <= 0 {
            bail!("window '{}' has no area to capture ({width}x{height})", self.title);
        }
        let region = LogicalRegion {
            inner: Region { position: Position { x, y }, size: Size { width: width as u32, height: height as u32 } },
        };
        let image = copy(&self.shots, region, &self.describe())?;
        Ok(Frame { image, origin_x: x, origin_y: y, title: Some(view.title) })
    }

    fn describe(&self) -> String {
        format!("window '{}'", self.title)
    }

    fn seat(&self) -> Seat {
        Seat::Wlroots
    }

    fn windows_opened(&mut self) -> Result<Vec<String>> {
        let start = self.siblings_at_start.clone();
        Ok(self
            .siblings()?
            .into_iter()
            .filter(|v| !start.contains(&v.id))
            .map(|v| if v.title.is_empty() { "(untitled)".to_string() } else { format!("'{}'", v.title) })
            .collect())
    }

    /// A window the compositor does not have focused is focused (as a user's key binding would); the tiled
    /// windows of sway and Hyprland cover none, so none is named.
    fn uncover(&mut self) -> Result<Vec<String>> {
        let view = self.view()?;
        if !view.focused {
            self.list.focus(&view)?;
        }
        Ok(Vec::new())
    }

    fn focused(&mut self) -> Result<Option<bool>> {
        Ok(Some(self.view()?.focused))
    }

    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(desktop_load())
    }
}

/// The key that stops the bot on sway, where a user's move of the pointer cannot be seen: Pause, the key no game
/// here uses. It is bound in sway (`bindsym --no-repeat Pause nop …`, which reaches no application while bound)
/// only while the bot plays, and only where the user's configuration binds nothing to it; sway reports each
/// press of a bound key on its IPC (a `binding` event), which a thread of the bot watches.
pub struct StopKey {
    pressed: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// The key [`StopKey`] binds, as sway names it.
pub const STOP_KEY: &str = "Pause";

impl StopKey {
    /// Binds the key and watches for it; an error where the user's configuration binds it already (it is then
    /// left alone) or sway does not take the binding.
    pub fn bind() -> Result<StopKey> {
        let mut ipc = windows::connect_sway()?;
        let config = ipc.get_config().map_err(|e| anyhow!("asking sway for its configuration: {e}"))?.config;
        let bound_already = config.lines().any(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            words.first().is_some_and(|w| *w == "bindsym")
                && words
                    .iter()
                    .skip(1)
                    .find(|w| !w.starts_with("--"))
                    .is_some_and(|key| key.eq_ignore_ascii_case(STOP_KEY))
        });
        if bound_already {
            bail!("sway's configuration binds {STOP_KEY} already, so the bot does not take it");
        }
        let command = format!("nop autoplay stops {}", std::process::id());
        let pressed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let events = windows::connect_sway()?
            .subscribe([swayipc::EventType::Binding])
            .map_err(|e| anyhow!("watching sway's key bindings: {e}"))?;
        let seen = pressed.clone();
        let wanted = command.clone();
        std::thread::spawn(move || {
            for event in events {
                match event {
                    Ok(swayipc::Event::Binding(binding)) if binding.binding.command == wanted => {
                        seen.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
        });
        for outcome in ipc
            .run_command(format!("bindsym --no-repeat {STOP_KEY} {command}"))
            .map_err(|e| anyhow!("binding {STOP_KEY} in sway: {e}"))?
        {
            outcome.map_err(|e| anyhow!("sway would not bind {STOP_KEY}: {e}"))?;
        }
        Ok(StopKey { pressed })
    }

    /// Whether the user has pressed the key since it was bound.
    pub fn pressed(&self) -> bool {
        self.pressed.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for StopKey {
    /// Gives the key back to the applications.
    fn drop(&mut self) {
        if let Ok(mut ipc) = windows::connect_sway() {
            let _ = ipc.run_command(format!("unbindsym {STOP_KEY}"));
        }
    }
}

/// Frames of the whole screen, or of one of its outputs, copied by a wlroots compositor (wlr-screencopy): the screen
/// of a Wayland session whose compositor lists no windows to the bot (any wlroots compositor but sway), where the
/// board is found in the picture and clicked at the layout's coordinates. At any scale (see [`copy`]).
pub struct OutputSource {
    shots: WayshotConnection,
    /// The output copied, by name; `None`: every output, each where the layout has it.
    output: Option<String>,
}

impl OutputSource {
    /// The whole screen of the compositor `$WAYLAND_DISPLAY` names; an error where it offers no screen copy.
    pub fn open() -> Result<Self> {
        // (libwayshot lists the outputs of any compositor, and finds out at the first copy whether it copies them.)
        if !crate::wayland::compositor_offers("zwlr_screencopy_manager_v1")? {
            bail!("the compositor offers no screen copy (wlr-screencopy): it is not a wlroots one");
        }
        let shots = WayshotConnection::new()
            .map_err(|e| anyhow!("cannot use the compositor's screen copy (wlr-screencopy): {e}"))?;
        if shots.get_all_outputs().is_empty() {
            bail!("the compositor has no output to capture");
        }
        Ok(OutputSource { shots, output: None })
    }

    /// Where a board is looked for: each output on its own where there are several (a person looks at one screen
    /// at a time, and a window lies on one; another output's wallpaper or windows stay out of its picture), then the
    /// whole screen (a window across two outputs); the whole screen where there is one.
    pub fn each() -> Result<Vec<Self>> {
        let whole = OutputSource::open()?;
        let names: Vec<String> = whole.shots.get_all_outputs().iter().map(|o| o.name.clone()).collect();
        let mut sources = Vec::new();
        if names.len() > 1 {
            for name in names {
                sources.push(OutputSource { output: Some(name), ..OutputSource::open()? });
            }
        }
        sources.push(whole);
        Ok(sources)
    }

    /// The rectangle copied, in the layout's points: the output's, or the box of every output.
    fn rectangle(&self) -> Result<LayoutBox> {
        let outputs = self.shots.get_all_outputs().iter().filter(|o| self.output.as_ref().is_none_or(|n| *n == o.name));
        LayoutBox::of_outputs(outputs).ok_or_else(|| anyhow!("{} is gone", self.describe()))
    }
}

impl FrameSource for OutputSource {
    fn grab(&mut self) -> Result<Frame> {
        let layout = self.rectangle()?;
        let region = LogicalRegion {
            inner: Region {
                position: Position { x: layout.x, y: layout.y },
                size: Size { width: layout.width, height: layout.height },
            },
        };
        let image = copy(&self.shots, region, &self.describe())?;
        Ok(Frame { image, origin_x: layout.x, origin_y: layout.y, title: None })
    }

    fn describe(&self) -> String {
        match (&self.output, self.shots.get_all_outputs()) {
            (Some(name), _) => format!("the Wayland output {name}"),
            (None, [_]) => "the Wayland output".into(),
            (None, outputs) => {
                let names: Vec<&str> = outputs.iter().map(|o| o.name.as_str()).collect();
                format!("the Wayland outputs {}", names.join(" and "))
            }
        }
    }

    fn seat(&self) -> Seat {
        Seat::Wlroots
    }

    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(desktop_load())
    }
}
