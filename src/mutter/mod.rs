//! GNOME on Wayland: the monitor's pictures and the bot's input through mutter's own remote-desktop services, the
//! ones GNOME's remote desktop and screen sharing are built on (`org.gnome.Mutter.RemoteDesktop` and
//! `org.gnome.Mutter.ScreenCast` on the session bus; mutter 43, Debian 12's, has both, and needs no libei).
//!
//! One [`RemoteDesktop`] is one remote-desktop session of mutter's with a screen cast linked to it:
//! - **Pictures.** The screen cast records the primary monitor into a PipeWire stream ([`stream`]); the last frame
//!   received is the monitor as it is now (mutter sends one whenever the picture changes).
//! - **Input.** The remote-desktop session's virtual pointer moves to a point of that stream (mutter places it on
//!   the monitor), presses the left button (evdev's `BTN_LEFT`), and types keys by their keysym in the session's
//!   keyboard layout.
//! - **The user's pointer.** The cursor comes as metadata of the stream, not drawn into its pictures: its place
//!   is the pointer's, whoever moved it, so a user who moves the mouse is seen as on X11.
//!
//! Every call after the sessions are made must come from the bus connection that made them (mutter checks the
//! caller), so the one connection is kept for all. mutter lists no windows to other programs (GNOME Shell's
//! window list answers only its own portals), so the board is found in the monitor's picture and clicked there.
//! The API is mutter's private one (no promise between versions): the versions it was built against are checked.

mod monitor;
mod stream;

pub use monitor::MonitorSource;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use zbus::blocking::Connection;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};

const REMOTE_DESKTOP: &str = "org.gnome.Mutter.RemoteDesktop";
const SCREEN_CAST: &str = "org.gnome.Mutter.ScreenCast";
/// How long mutter has to start the screen cast's stream, and to send its first picture.
const STREAM_BOUND: Duration = Duration::from_secs(20);
/// evdev's code of the left button (`BTN_LEFT`), which mutter's virtual pointer takes.
const BTN_LEFT: i32 = 0x110;
/// The X keysym of the left Shift key, which types nothing.
const SHIFT_L: u32 = 0xffe1;

/// Whether mutter's remote-desktop service is on this session's bus (a GNOME session on Wayland, or a bare mutter).
pub fn mutter_session() -> bool {
    let Ok(connection) = Connection::session() else { return false };
    let Ok(bus) = zbus::blocking::fdo::DBusProxy::new(&connection) else { return false };
    [REMOTE_DESKTOP, SCREEN_CAST]
        .iter()
        .all(|name| zbus::names::BusName::try_from(*name).is_ok_and(|name| bus.name_has_owner(name).unwrap_or(false)))
}

/// A remote-desktop session of mutter's with the primary monitor's screen cast linked to it; both stopped when
/// dropped.
pub struct RemoteDesktop {
    connection: Connection,
    session: OwnedObjectPath,
    /// The screen cast's stream: the point of a pointer motion is given on its pixels.
    stream: OwnedObjectPath,
    /// Where the monitor lies on the desktop's layout.
    origin: (i32, i32),
    connector: String,
    last: Arc<stream::LastFrame>,
    _frames: stream::FrameReceiver,
}

impl RemoteDesktop {
    /// Starts the sessions; an error naming what mutter refused (on a locked screen it creates none).
    pub fn start() -> Result<Arc<RemoteDesktop>> {
        let connection = Connection::session().map_err(|e| anyhow!("cannot reach the session's D-Bus: {e}"))?;
        check_version(&connection, REMOTE_DESKTOP, "/org/gnome/Mutter/RemoteDesktop", 1)?;
        check_version(&connection, SCREEN_CAST, "/org/gnome/Mutter/ScreenCast", 4)?;
        let session: OwnedObjectPath =
            call(&connection, REMOTE_DESKTOP, "/org/gnome/Mutter/RemoteDesktop", REMOTE_DESKTOP, "CreateSession", &())
                .context("mutter would not open a remote-desktop session")?;
        let session_id: String = property(&connection, REMOTE_DESKTOP, &session, REMOTE_DESKTOP_SESSION, "SessionId")?;
        let link: HashMap<&str, Value> = HashMap::from([("remote-desktop-session-id", Value::from(session_id))]);
        let cast: OwnedObjectPath =
            call(&connection, SCREEN_CAST, "/org/gnome/Mutter/ScreenCast", SCREEN_CAST, "CreateSession", &(link,))
                .context("mutter would not open a screen cast")?;
        // The cursor as metadata (2): not drawn into the pictures, its place sent with them.
        let options: HashMap<&str, Value> = HashMap::from([("cursor-mode", Value::U32(2))]);
        let stream: OwnedObjectPath = call(
            &connection,
            SCREEN_CAST,
            &cast,
            "org.gnome.Mutter.ScreenCast.Session",
            "RecordMonitor",
            &("", options),
        )
        .context("mutter would not record its primary monitor")?;
        // The stream's PipeWire node is announced once the session starts: listened for before.
        let added = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .interface(SCREEN_CAST_STREAM)?
            .member("PipeWireStreamAdded")?
            .path(stream.as_str())?
            .build();
        let mut announcements = zbus::blocking::MessageIterator::for_match_rule(added, &connection, Some(4))
            .map_err(|e| anyhow!("cannot listen for mutter's stream: {e}"))?;
        let (node_sender, node) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            if let Some(Ok(message)) = announcements.next() {
                let _ = node_sender.send(message.body().deserialize::<u32>().ok());
            }
        });
        call::<()>(&connection, REMOTE_DESKTOP, &session, REMOTE_DESKTOP_SESSION, "Start", &())
            .context("mutter would not start the remote-desktop session")?;
        let started = RemoteDesktop::stop_on_error(&connection, &session);
        let node = node.recv_timeout(STREAM_BOUND).ok().flatten().ok_or_else(|| {
            anyhow!("mutter did not start the screen cast's stream within {} s", STREAM_BOUND.as_secs())
        })?;
        let parameters: HashMap<String, OwnedValue> =
            property(&connection, SCREEN_CAST, &stream, SCREEN_CAST_STREAM, "Parameters")?;
        let origin =
            parameters.get("position").and_then(|p| <(i32, i32)>::try_from(p.try_clone().ok()?).ok()).unwrap_or((0, 0));
        let connector = parameters
            .get("output-name")
            .and_then(|name| String::try_from(name.try_clone().ok()?).ok())
            .unwrap_or_else(|| "primary".into());
        let last = Arc::new(stream::LastFrame::default());
        let frames = stream::FrameReceiver::start(node, last.clone())
            .context("cannot receive the pictures of mutter's screen cast (is PipeWire running, with a session manager such as WirePlumber?)")?;
        std::mem::forget(started);
        Ok(Arc::new(RemoteDesktop { connection, session, stream, origin, connector, last, _frames: frames }))
    }

    /// Makes the session's virtual pointer and keyboard, by an event of each that changes nothing: a motion by no
    /// distance, and Shift pressed and released; called before the bot's first input (not in a dry run, which sends
    /// none). mutter makes each device at its first event, and that event is lost (seen: the first key typed into
    /// sgt-solo never showed, the second did; the first click of a game was lost now and then), so that the bot's
    /// first click or key would be a move the game never got.
    pub fn wake_devices(&self) -> Result<()> {
        self.notify("NotifyPointerMotionRelative", &(0.0f64, 0.0f64))?;
        self.key(SHIFT_L, true)?;
        self.key(SHIFT_L, false)
    }

    /// A guard that stops `session` if the start fails after it was started.
    fn stop_on_error<'a>(connection: &'a Connection, session: &'a OwnedObjectPath) -> impl Drop + 'a {
        struct Stop<'a>(&'a Connection, &'a OwnedObjectPath);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                let _ = call::<()>(self.0, REMOTE_DESKTOP, self.1, REMOTE_DESKTOP_SESSION, "Stop", &());
            }
        }
        Stop(connection, session)
    }

    fn notify<B>(&self, method: &str, body: &B) -> Result<()>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        call::<()>(&self.connection, REMOTE_DESKTOP, &self.session, REMOTE_DESKTOP_SESSION, method, body)
            .with_context(|| format!("mutter did not take the input ({method})"))
    }

    /// Moves the pointer to point `(x, y)` of the desktop's layout.
    pub fn move_to(&self, (x, y): (i32, i32)) -> Result<()> {
        let (on_x, on_y) = (f64::from(x - self.origin.0), f64::from(y - self.origin.1));
        self.notify("NotifyPointerMotionAbsolute", &(self.stream.as_str(), on_x, on_y))
    }

    /// Presses (`down`) or releases the left button.
    pub fn left_button(&self, down: bool) -> Result<()> {
        self.notify("NotifyPointerButton", &(BTN_LEFT, down))
    }

    /// Presses or releases the key of X keysym `keysym`, found in the session's keyboard layout.
    pub fn key(&self, keysym: u32, down: bool) -> Result<()> {
        self.notify("NotifyKeyboardKeysym", &(keysym, down))
    }

    /// Where the pointer is on the layout, once mutter has said (it says with the first frame where the pointer is
    /// over the monitor, and at every move).
    pub fn pointer(&self) -> Option<(i32, i32)> {
        self.last.cursor().map(|(x, y)| (x + self.origin.0, y + self.origin.1))
    }
}

impl Drop for RemoteDesktop {
    fn drop(&mut self) {
        let _ = call::<()>(&self.connection, REMOTE_DESKTOP, &self.session, REMOTE_DESKTOP_SESSION, "Stop", &());
    }
}

const REMOTE_DESKTOP_SESSION: &str = "org.gnome.Mutter.RemoteDesktop.Session";
const SCREEN_CAST_STREAM: &str = "org.gnome.Mutter.ScreenCast.Stream";

/// Calls `method` of `interface` at `path` of `service`, and reads its reply as `R`.
fn call<R>(
    connection: &Connection,
    service: &str,
    path: &str,
    interface: &str,
    method: &str,
    body: &(impl serde::Serialize + zbus::zvariant::DynamicType),
) -> Result<R>
where
    R: for<'d> zbus::zvariant::DynamicDeserialize<'d>,
{
    let reply = connection
        .call_method(Some(service), path, Some(interface), method, body)
        .map_err(|e| anyhow!("{service} {method}: {e}"))?;
    reply
        .body()
        .deserialize::<R>()
        .map_err(|e| anyhow!("{service} {method} answered with what the bot cannot read: {e}"))
}

/// The property `name` of `interface` at `path` of `service`.
fn property<R>(connection: &Connection, service: &str, path: &str, interface: &str, name: &str) -> Result<R>
where
    R: TryFrom<OwnedValue>,
    R::Error: std::fmt::Display,
{
    let value: OwnedValue =
        call(connection, service, path, "org.freedesktop.DBus.Properties", "Get", &(interface, name))?;
    R::try_from(value).map_err(|e| anyhow!("{service}'s {name} is not what the bot reads: {e}"))
}

/// Checks the API version of mutter's `service` is the one the bot speaks (its calls and their meaning change
/// between versions: mutter promises nothing of its private API).
fn check_version(connection: &Connection, service: &str, path: &str, speaks: i32) -> Result<()> {
    let version: i32 = property(connection, service, path, service, "Version")
        .with_context(|| format!("is mutter running? ({service} does not answer)"))?;
    if version != speaks {
        bail!(
            "this mutter's {service} is version {version}; the bot speaks version {speaks} (mutter 43, GNOME 43), \
             whose calls may mean something else in another"
        );
    }
    Ok(())
}

/// The X keysym of a typed character: Latin-1's are their code points, others the Unicode keysym range's.
pub fn keysym_of(c: char) -> u32 {
    match c as u32 {
        code @ (0x20..=0x7e | 0xa0..=0xff) => code,
        code => 0x0100_0000 + code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_typed_by_their_keysyms() {
        assert_eq!(keysym_of('7'), 0x37);
        assert_eq!(keysym_of('a'), 0x61);
        assert_eq!(keysym_of('é'), 0xe9);
        assert_eq!(keysym_of('€'), 0x0100_20ac);
    }
}
