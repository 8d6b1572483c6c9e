//! One window's pictures, position and title through one X connection kept open for the whole game.
//!
//! xcap (which lists the windows and is the fallback here) opens a new connection to the X server for each thing
//! it is asked: a capture of a window asked its size twice, its state, its title and its place costs about ten
//! connections, more than the picture itself on a game's small window; the play loop captures the window every
//! few milliseconds while a move shows. This asks the same questions, the same way xcap does (the window's own
//! picture from `GetImage`, its place as `TranslateCoordinates` of its corner to the root, its title from
//! `_NET_WM_NAME`), on one connection, sending every request before waiting for the first reply.
//! Anything it does not handle (a window not viewable or hidden, an unusual pixel format, an X error) it leaves to
//! xcap, whose errors say what happened.

use anyhow::{anyhow, Result};
use image::RgbaImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{Atom, AtomEnum, ConnectionExt, ImageFormat, ImageOrder, MapState, Window};
use x11rb::rust_connection::RustConnection;

/// A window's picture, its top-left corner on the screen and its title (`_NET_WM_NAME`; `None` where the window
/// has none, and xcap's other ways of finding one are for the caller to try).
pub struct Grabbed {
    pub image: RgbaImage,
    pub x: i32,
    pub y: i32,
    pub title: Option<String>,
}

/// The connection, and the atoms asked about at every capture.
pub struct X11Window {
    conn: RustConnection,
    window: Window,
    /// The root window of the window's screen.
    root: Window,
    /// How pixels of depth 24 or 32 are laid out: 32 bits each, least significant byte first (blue, green, red).
    bgrx: bool,
    net_wm_state: Atom,
    hidden: Atom,
    net_wm_name: Atom,
    utf8_string: Atom,
}

impl X11Window {
    /// Opens a connection to the display of `$DISPLAY` for window `window`; an error where that is not an X server
    /// that can be reached.
    pub fn open(window: u32) -> Result<X11Window> {
        X11Window::open_on(None, window)
    }

    /// Opens a connection to `display` (`None`: `$DISPLAY`) for window `window`.
    pub fn open_on(display: Option<&str>, window: u32) -> Result<X11Window> {
        let (conn, screen) = x11rb::connect(display).map_err(|e| anyhow!("cannot reach the X server: {e}"))?;
        let setup = conn.setup();
        let root = setup.roots[screen].root;
        let bgrx = setup.image_byte_order == ImageOrder::LSB_FIRST
            && setup.pixmap_formats.iter().any(|f| f.depth == 24 && f.bits_per_pixel == 32)
            && setup.pixmap_formats.iter().all(|f| f.depth != 32 || f.bits_per_pixel == 32);
        let atom = |name: &[u8]| conn.intern_atom(false, name);
        let cookies =
            [atom(b"_NET_WM_STATE")?, atom(b"_NET_WM_STATE_HIDDEN")?, atom(b"_NET_WM_NAME")?, atom(b"UTF8_STRING")?];
        let mut atoms = Vec::with_capacity(cookies.len());
        for cookie in cookies {
            atoms.push(cookie.reply()?.atom);
        }
        Ok(X11Window {
            conn,
            window,
            root,
            bgrx,
            net_wm_state: atoms[0],
            hidden: atoms[1],
            net_wm_name: atoms[2],
            utf8_string: atoms[3],
        })
    }

    /// Whether another program holds the pointer now ([`pointer_held`]).
    pub fn pointer_held(&self) -> Result<bool> {
        pointer_held(&self.conn, self.root)
    }

    /// The window's picture, place and title; `None` where xcap should be asked instead (the window is not
    /// viewable or is hidden, its pixels are of a layout this does not convert, or the server answered with an
    /// error).
    pub fn grab(&self) -> Option<Grabbed> {
        let (conn, window) = (&self.conn, self.window);
        let attributes = conn.get_window_attributes(window).ok()?;
        let state = conn.get_property(false, window, self.net_wm_state, AtomEnum::ATOM, 0, 12).ok()?;
        let geometry = conn.get_geometry(window).ok()?;
        let utf8_name = conn.get_property(false, window, self.net_wm_name, self.utf8_string, 0, 1024).ok()?;
        let attributes = attributes.reply().ok()?;
        let state = state.reply().ok()?;
        let geometry = geometry.reply().ok()?;
        // (A window manager may set no _NET_WM_STATE at all: then nothing says the window is hidden.)
        let hidden = state.value32().is_some_and(|mut atoms| atoms.any(|atom| atom == self.hidden));
        if attributes.map_state != MapState::VIEWABLE || hidden {
            return None;
        }
        let corner = conn.translate_coordinates(window, geometry.root, geometry.x, geometry.y).ok()?;
        let (width, height) = (geometry.width, geometry.height);
        let picture = conn.get_image(ImageFormat::Z_PIXMAP, window, 0, 0, width, height, u32::MAX).ok()?;
        let corner = corner.reply().ok()?;
        let picture = picture.reply().ok()?;
        if !self.bgrx || !matches!(picture.depth, 24 | 32) || picture.data.len() != width as usize * height as usize * 4
        {
            return None;
        }
        let rgba: Vec<u8> = picture.data.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0], 255]).collect();
        let image = RgbaImage::from_raw(width as u32, height as u32, rgba)?;
        let title = utf8_name.reply().ok().filter(|reply| !reply.value.is_empty());
        let title = title.map(|reply| String::from_utf8_lossy(&reply.value).into_owned());
        Some(Grabbed {
            image,
            x: i32::from(corner.dst_x) - i32::from(geometry.x),
            y: i32::from(corner.dst_y) - i32::from(geometry.y),
            title,
        })
    }
}

/// Whether a program holds the pointer (an active grab), so that pointer events sent now are not yet delivered
/// to the window under it: a window manager that takes every click on a window first, to focus or raise it, holds
/// the pointer until it lets the click through, while keys, which it does not take, go on to the focused window.
///
/// The question grabs nothing: it asks for a grab dated the first millisecond of the server's clock. The server
/// answers "already grabbed" (or "frozen") while another client holds the pointer, and otherwise refuses the date
/// as earlier than the last grab it saw, which every server has (its start counts as one). Were the date ever
/// taken, the grab is let go at once.
pub fn pointer_held(conn: &impl Connection, root: Window) -> Result<bool> {
    use x11rb::protocol::xproto::{EventMask, GrabMode, GrabStatus};
    let asked =
        conn.grab_pointer(false, root, EventMask::NO_EVENT, GrabMode::ASYNC, GrabMode::ASYNC, 0u32, 0u32, 1u32)?;
    let status = asked.reply()?.status;
    if status == GrabStatus::SUCCESS {
        conn.ungrab_pointer(x11rb::CURRENT_TIME)?;
        conn.flush()?;
    }
    Ok(status == GrabStatus::ALREADY_GRABBED || status == GrabStatus::FROZEN)
}
