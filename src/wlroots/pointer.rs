//! The bot's own virtual pointer on a wlroots compositor (`zwlr_virtual_pointer_v1`): where a click goes is given
//! as a point of the layout, whatever the outputs are.
//!
//! The protocol's absolute motion is a point of an extent the client names (`x` of `x_extent`), which the
//! compositor spreads over the box of its whole layout (every output; a pointer bound to no output). So the extent
//! named here is that box, in points, at twice their count, and point (x, y) of the layout is sent as the middle of
//! its square: the same on one output or several, at any scale and any place, with nothing to guess. (enigo's
//! Wayland pointer names the first output's current mode as its extent instead: on several outputs it spreads the
//! first one's pixels over the whole layout, and enigo 0.6.1 misses a current mode that is also the output's
//! preferred one, as a monitor's usually is, and then names an extent of 0, with which the compositor does not move
//! the pointer at all: enigo-rs/enigo#554, not in a release.)
//!
//! Each event is followed by a round trip: the compositor has handled it before the next goes, so a press never
//! overtakes the move that puts the pointer where it is meant to land.

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use libwayshot_xcap::output::OutputInfo;
use libwayshot_xcap::WayshotConnection;
use wayland_client::protocol::{wl_pointer::ButtonState, wl_seat::WlSeat};
use wayland_client::{delegate_noop, EventQueue};
use wayland_protocols_wlr::virtual_pointer::v1::client::zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1;
use wayland_protocols_wlr::virtual_pointer::v1::client::zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1;

use crate::wayland::Quiet;

/// The left button's code (linux/input-event-codes.h: `BTN_LEFT`).
const BTN_LEFT: u32 = 0x110;

/// The box of the compositor's layout, in points: every output's rectangle, and the space between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutBox {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

impl LayoutBox {
    /// The smallest box holding every rectangle of `outputs` (x, y, width, height); `None` for none.
    pub fn around(outputs: impl IntoIterator<Item = (i32, i32, u32, u32)>) -> Option<LayoutBox> {
        let mut edges: Option<(i32, i32, i32, i32)> = None;
        for (x, y, width, height) in outputs {
            let (right, bottom) = (x + width as i32, y + height as i32);
            edges = Some(match edges {
                None => (x, y, right, bottom),
                Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(right), b.max(bottom)),
            });
        }
        let (left, top, right, bottom) = edges?;
        Some(LayoutBox { x: left, y: top, width: (right - left) as u32, height: (bottom - top) as u32 })
    }

    /// The smallest box holding every output of `outputs`, each by its place on the layout (xdg-output's logical
    /// rectangle); `None` for none.
    pub fn of_outputs<'a>(outputs: impl IntoIterator<Item = &'a OutputInfo>) -> Option<LayoutBox> {
        LayoutBox::around(outputs.into_iter().map(|output| {
            let region = output.logical_region.inner;
            (region.position.x, region.position.y, region.size.width, region.size.height)
        }))
    }

    /// The compositor's layout, as its outputs tell it.
    pub fn of_compositor() -> Result<LayoutBox> {
        let shots = WayshotConnection::new()
            .map_err(|e| anyhow!("cannot ask the compositor for its outputs (wlr-screencopy, xdg-output): {e}"))?;
        match LayoutBox::of_outputs(shots.get_all_outputs()) {
            Some(layout) if layout.width > 0 && layout.height > 0 => Ok(layout),
            _ => bail!("the compositor has no output"),
        }
    }

    /// The extent the absolute motion is given in: twice the box's points each way.
    pub fn extent(&self) -> (u32, u32) {
        (self.width * 2, self.height * 2)
    }

    /// The absolute coordinates of point `(x, y)` of the layout: the middle of its square, in [`Self::extent`]; a
    /// point outside the box is brought to its edge.
    pub fn absolute(&self, (x, y): (i32, i32)) -> (u32, u32) {
        let along = |v: i32, origin: i32, points: u32| {
            let inside = (i64::from(v) - i64::from(origin)).clamp(0, i64::from(points.max(1)) - 1);
            (inside * 2 + 1) as u32
        };
        (along(x, self.x, self.width), along(y, self.y, self.height))
    }
}

delegate_noop!(Quiet: ignore WlSeat);
delegate_noop!(Quiet: ZwlrVirtualPointerManagerV1);
delegate_noop!(Quiet: ZwlrVirtualPointerV1);

/// A virtual pointer of the bot's own on the compositor `$WAYLAND_DISPLAY` names, on its first seat.
pub struct VirtualPointer {
    queue: EventQueue<Quiet>,
    pointer: ZwlrVirtualPointerV1,
    layout: LayoutBox,
    /// The clock of the events' time stamps (milliseconds since the pointer was made).
    start: Instant,
}

impl VirtualPointer {
    pub fn open() -> Result<VirtualPointer> {
        let layout = LayoutBox::of_compositor()?;
        let (globals, queue) = crate::wayland::join()?;
        let handle = queue.handle();
        let seat: WlSeat = globals.bind(&handle, 1..=1, ()).map_err(|e| anyhow!("the compositor has no seat: {e}"))?;
        let manager: ZwlrVirtualPointerManagerV1 = globals
            .bind(&handle, 1..=1, ())
            .map_err(|e| anyhow!("the compositor offers no virtual pointer (wlr-virtual-pointer): {e}"))?;
        let pointer = manager.create_virtual_pointer(Some(&seat), &handle, ());
        let mut made = VirtualPointer { queue, pointer, layout, start: Instant::now() };
        made.sync("making the virtual pointer")?;
        Ok(made)
    }

    /// The layout the pointer's moves are spread over.
    pub fn layout(&self) -> LayoutBox {
        self.layout
    }

    /// Moves the pointer to point `(x, y)` of the layout.
    pub fn move_to(&mut self, point: (i32, i32)) -> Result<()> {
        let (x, y) = self.layout.absolute(point);
        let (width, height) = self.layout.extent();
        self.pointer.motion_absolute(self.time(), x, y, width, height);
        self.pointer.frame();
        self.sync("moving the pointer")
    }

    /// Presses the left button, or releases it.
    pub fn left_button(&mut self, pressed: bool) -> Result<()> {
        let state = if pressed { ButtonState::Pressed } else { ButtonState::Released };
        self.pointer.button(self.time(), BTN_LEFT, state);
        self.pointer.frame();
        self.sync(if pressed { "pressing the button" } else { "releasing the button" })
    }

    fn time(&self) -> u32 {
        self.start.elapsed().as_millis() as u32
    }

    /// Sends what is queued and waits until the compositor has handled it.
    fn sync(&mut self, what: &str) -> Result<()> {
        crate::wayland::roundtrip(&mut self.queue, what)
    }
}

impl Drop for VirtualPointer {
    fn drop(&mut self) {
        self.pointer.destroy();
        let _ = self.queue.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One output at the origin, or two side by side, one of them not at the origin or left of it: every point is
    /// sent as the middle of its square in twice the box's points, so the compositor's spread lands on it.
    #[test]
    fn a_layout_point_is_sent_as_the_middle_of_its_square_in_the_box_of_every_output() {
        let one = LayoutBox::around([(0, 0, 1280, 800)]).unwrap();
        assert_eq!(one, LayoutBox { x: 0, y: 0, width: 1280, height: 800 });
        assert_eq!(
            (one.extent(), one.absolute((0, 0)), one.absolute((1279, 799))),
            ((2560, 1600), (1, 1), (2559, 1599))
        );
        let two = LayoutBox::around([(0, 0, 1280, 720), (1280, 100, 1024, 768)]).unwrap();
        assert_eq!(two, LayoutBox { x: 0, y: 0, width: 2304, height: 868 });
        let left = LayoutBox::around([(-1024, 0, 1024, 768), (0, 0, 1280, 720)]).unwrap();
        assert_eq!((left.x, left.width), (-1024, 2304));
        for layout in [one, two, left] {
            let (ex, ey) = layout.extent();
            for point in [(layout.x, layout.y), (layout.x + 7, layout.y + 3), (1279, 700), (1300, 150)] {
                let (ax, ay) = layout.absolute(point);
                // Where the compositor puts it: the box's corner plus the fraction of the box.
                let landed = |a: u32, e: u32, origin: i32, points: u32| {
                    (f64::from(origin) + f64::from(a) / f64::from(e) * f64::from(points)).floor() as i32
                };
                let at = (landed(ax, ex, layout.x, layout.width), landed(ay, ey, layout.y, layout.height));
                let inside = (
                    point.0.clamp(layout.x, layout.x + layout.width as i32 - 1),
                    point.1.clamp(layout.y, layout.y + layout.height as i32 - 1),
                );
                assert_eq!(at, inside, "{point:?} in {layout:?}");
            }
        }
        // Outside the box: at its edge.
        assert_eq!(one.absolute((-5, 900)), (1, 1599));
        assert!(LayoutBox::around([]).is_none());
    }
}
