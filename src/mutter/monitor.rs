//! GNOME's primary monitor as a frame source: the pictures of a [`RemoteDesktop`]'s screen cast, and its session as
//! the seat the bot's input goes to.

use std::sync::Arc;

use anyhow::Result;

use super::{RemoteDesktop, STREAM_BOUND};
use crate::capture::{desktop_load, Frame, FrameSource, Seat};

/// Frames of the primary monitor of a GNOME (mutter) session, from its screen cast.
pub struct MonitorSource {
    desktop: Arc<RemoteDesktop>,
}

impl MonitorSource {
    /// The monitor, through a remote-desktop session started now.
    pub fn open() -> Result<Self> {
        Ok(MonitorSource { desktop: RemoteDesktop::start()? })
    }
}

impl FrameSource for MonitorSource {
    fn grab(&mut self) -> Result<Frame> {
        let image = self.desktop.last.picture(STREAM_BOUND)?;
        let (origin_x, origin_y) = self.desktop.origin;
        Ok(Frame { image, origin_x, origin_y, title: None })
    }

    fn describe(&self) -> String {
        format!("GNOME's monitor {}", self.desktop.connector)
    }

    fn seat(&self) -> Seat {
        Seat::Mutter(self.desktop.clone())
    }

    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(desktop_load())
    }
}
