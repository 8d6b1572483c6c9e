//! The act stage: input events sent to the desktop (enigo: over XTEST to an X server, or through a Wayland
//! compositor's virtual pointer and keyboard to a native Wayland window), or recorded in a dry run.
//!
//! The desktop is given input as a person gives it: the pointer comes to rest before a press, and a button or key
//! is held down for about as long as a finger holds it ([`HOLD`]) before it is released. Games built on engines
//! that poll the mouse and keys once a frame (SDL, pygame, Love2D, Godot, Unity and the like) see a button down
//! only if it is down when they look: a press and release sent in the same instant fall between two frames and are
//! never seen. A hold longer than a frame (at 15 frames a second or more) is seen by every such game, and an
//! event-driven toolkit (GTK, Qt, Tk, a browser) takes it the same as an instant click. Likewise a released
//! button or key stays up a while ([`UP`]) before the same one is pressed again, or such a game sees two presses
//! as one.
//!
//! A client that has shown it takes a press and release sent in the same instant ([`QUICK`], learned in
//! `play::hands` by a move that showed so) is given every later press so: an event-driven client queues each event
//! and needs no rest, hold or gap, and a person-paced press costs about 0.2 s a move it does not need.

use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use enigo::{Button, Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};

use crate::capture::Seat;
use crate::game::Key;
use crate::wlroots::VirtualPointer;

/// Where input events go. Points are screen coordinates.
pub trait InputDevice {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()>;
    fn click(&mut self) -> Result<()>;
    fn type_char(&mut self, c: char) -> Result<()>;
    /// Presses and releases a key that types nothing (a cursor key, Enter).
    fn press_key(&mut self, key: Key) -> Result<()>;
    /// Where the pointer is now.
    fn pointer(&self) -> Result<(i32, i32)>;
    /// How long each button and key is held from now on ([`HOLD`] until set; [`QUICK`]: pressed and released
    /// at once, the pointer not rested).
    fn set_hold(&mut self, _hold: Duration) {}
    /// The last click has shown in the game's window: the client has it, and the pointer may leave at once (see
    /// [`STILL_AFTER_CLICK`]).
    fn click_shown(&mut self) {}
    /// Whether the user has asked the bot to stop by a key, where a move of the pointer cannot be seen (a native
    /// Wayland window: [`crate::wlroots::StopKey`]); which key.
    fn stop_key_pressed(&self) -> Option<&'static str> {
        None
    }
}

/// How long a pressed button or key is held before it is released: as a person holds one (about 80 ms), longer
/// than a frame of a game that polls its input 15 times a second or more.
pub const HOLD: Duration = Duration::from_millis(80);
/// No hold: a press and release sent in the same instant, with no rest of the pointer before it and no time up
/// before the same button or key is pressed again, as a script sends them. Used only for a client that has shown
/// a move sent so (`play::hands`): an event-driven toolkit takes every queued event, however close.
pub const QUICK: Duration = Duration::ZERO;
/// The longer hold a move is made again with where it left the board as it was (see `play::hands`).
pub const LONG_HOLD: Duration = Duration::from_millis(250);
/// How long a released button or key stays up at least before it is pressed again, as a person's finger lifts and comes
/// down again (a quick double click leaves about this much between): longer than a frame of a game that polls its
/// input 15 times a second, even when a busy desktop slows its frames by half. (Seen: the pygame Flood-It, 15
/// frames a second under `busy.sh 3`, took a press about 60 ms after the last release for the same press.)
pub const UP: Duration = Duration::from_millis(100);
/// How long the pointer stays where it clicked, at least, after the button's release (about a frame): Chromium
/// drops a click that the pointer leaves at once, as a press and release sent at once and the pointer moved off
/// the board right after. Seen on the hover page (`fixtures/tables/flood-fade.html?hover=1`): four clicks of four
/// lost with the move sent in the same millisecond as the release (also with Chromium stopped while the events
/// queued: the server's time stamps count); in whole games, one of nine lost a click with 3 ms, none of eleven
/// with 20 ms. Only a pointer move before the click has shown waits (the pointer parked off a board that outlines
/// under it, the next move's right after a quick one): once it has shown, the client has it
/// ([`InputDevice::click_shown`]).
pub const STILL_AFTER_CLICK: Duration = Duration::from_millis(20);
/// How long the pointer rests where it was moved before a button is pressed there: a frame at 30 frames a second,
/// so that a game that polls the pointer sees it arrive before it sees the press.
pub const REST: Duration = Duration::from_millis(33);

/// A button or key that is pressed and released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pressed {
    LeftButton,
    Char(char),
    Key(Key),
}

/// One desktop's way of taking the bot's input: how the pointer is moved, a button or key pressed or released, and
/// whether (and how) the user's hand on the controls can be seen. [`DesktopInput`] paces the events as a person's
/// hand does; this sends each.
pub trait Devices {
    /// Moves the pointer to point `(x, y)` of the desktop.
    fn move_to(&mut self, x: i32, y: i32) -> Result<()>;
    /// Presses (`down`) or releases a button or key.
    fn press(&mut self, pressed: Pressed, down: bool) -> Result<()>;
    /// Where the pointer is, where the desktop tells a client (`None` where it does not: the user's moves of the
    /// pointer cannot be seen there).
    fn pointer(&self) -> Option<Result<(i32, i32)>>;
    /// Whether the user has pressed the key that stops the bot, where there is one; which key.
    fn stop_key_pressed(&self) -> Option<&'static str> {
        None
    }
}

/// The X server's XTEST, through enigo: an X11 window, or XWayland's.
struct XTest(Enigo);

impl Devices for XTest {
    fn move_to(&mut self, x: i32, y: i32) -> Result<()> {
        self.0.move_mouse(x, y, Coordinate::Abs).map_err(|e| anyhow!("moving the pointer: {e}"))
    }

    fn press(&mut self, pressed: Pressed, down: bool) -> Result<()> {
        enigo_press(&mut self.0, pressed, down)
    }

    fn pointer(&self) -> Option<Result<(i32, i32)>> {
        Some(self.0.location().map_err(|e| anyhow!("reading the pointer position: {e}")))
    }
}

/// enigo's press or release of `pressed` (on whichever desktop it was opened for).
fn enigo_press(enigo: &mut Enigo, pressed: Pressed, down: bool) -> Result<()> {
    let direction = if down { Direction::Press } else { Direction::Release };
    match pressed {
        Pressed::LeftButton => enigo.button(Button::Left, direction),
        Pressed::Char(c) => enigo.key(enigo::Key::Unicode(c), direction),
        Pressed::Key(key) => enigo.key(enigo_key(key), direction),
    }
    .map_err(|e| anyhow!("{e}"))
}

/// A wlroots compositor's virtual pointer (the bot's own: [`VirtualPointer`], which moves to the layout's points on
/// any outputs) and virtual keyboard (`zwp_virtual_keyboard_v1`, through enigo's Wayland backend). No client is
/// told where the pointer is; on sway a key stops the bot ([`crate::wlroots::StopKey`]).
struct Wlroots {
    keyboard: Enigo,
    pointer: VirtualPointer,
    stop_key: Option<crate::wlroots::StopKey>,
}

impl Devices for Wlroots {
    fn move_to(&mut self, x: i32, y: i32) -> Result<()> {
        self.pointer.move_to((x, y))
    }

    fn press(&mut self, pressed: Pressed, down: bool) -> Result<()> {
        match pressed {
            Pressed::LeftButton => self.pointer.left_button(down),
            _ => enigo_press(&mut self.keyboard, pressed, down),
        }
    }

    fn pointer(&self) -> Option<Result<(i32, i32)>> {
        None
    }

    fn stop_key_pressed(&self) -> Option<&'static str> {
        self.stop_key.as_ref().is_some_and(|key| key.pressed()).then_some(crate::wlroots::STOP_KEY)
    }
}

/// mutter's remote-desktop session (GNOME on Wayland): its pointer and keyboard, and the pointer's place as its
/// screen cast tells it.
struct Mutter(std::sync::Arc<crate::mutter::RemoteDesktop>);

impl Devices for Mutter {
    fn move_to(&mut self, x: i32, y: i32) -> Result<()> {
        self.0.move_to((x, y))
    }

    fn press(&mut self, pressed: Pressed, down: bool) -> Result<()> {
        match pressed {
            Pressed::LeftButton => self.0.left_button(down),
            Pressed::Char(c) => self.0.key(crate::mutter::keysym_of(c), down),
            Pressed::Key(key) => self.0.key(keysym(key), down),
        }
    }

    fn pointer(&self) -> Option<Result<(i32, i32)>> {
        self.0.pointer().map(Ok)
    }
}

/// KWin's fake input (KDE on Wayland): no client is told where the pointer is.
struct Kwin(crate::kwin::FakeInput);

impl Devices for Kwin {
    fn move_to(&mut self, x: i32, y: i32) -> Result<()> {
        self.0.move_to((x, y))
    }

    fn press(&mut self, pressed: Pressed, down: bool) -> Result<()> {
        match pressed {
            Pressed::LeftButton => self.0.left_button(down),
            Pressed::Char(c) => self.0.char_key(c, down),
            Pressed::Key(key) => self.0.key(crate::kwin::evdev_of_key(key), down),
        }
    }

    fn pointer(&self) -> Option<Result<(i32, i32)>> {
        None
    }
}

/// The X keysym of a key that types nothing.
fn keysym(key: Key) -> u32 {
    match key {
        Key::Left => 0xff51,
        Key::Up => 0xff52,
        Key::Right => 0xff53,
        Key::Down => 0xff54,
        Key::Enter => 0xff0d,
    }
}

/// The live desktop: events sent by its [`Devices`], paced as a person's hand.
pub struct DesktopInput {
    devices: Box<dyn Devices>,
    /// Where the bot last moved the pointer (where the desktop does not tell where it is, the only pointer known).
    moved_to: Option<(i32, i32)>,
    hold: Duration,
    /// The last button or key released, and when.
    released: Option<(Pressed, Instant)>,
    /// When the last click's button was released.
    clicked_at: Option<Instant>,
}

impl DesktopInput {
    /// Presses `pressed`, holds it ([`HOLD`], or as set) and releases it (at [`QUICK`], both at once). The same
    /// button or key is pressed again no sooner than [`UP`] (or the hold, if longer) after its release: a game that
    /// looks at its buttons once a frame must see one up between two presses, or it sees one long press (a move
    /// lost). (Another button or key may follow at once, as a person's other finger does.)
    fn hold(&mut self, pressed: Pressed, what: &str) -> Result<()> {
        if self.hold == QUICK {
            let sent = self.devices.press(pressed, true).and_then(|()| self.devices.press(pressed, false));
            self.released = Some((pressed, Instant::now()));
            return sent.map_err(|e| anyhow!("{what}: {e:#}"));
        }
        if let Some((_, at)) = self.released.filter(|&(last, _)| last == pressed) {
            sleep(self.hold.max(UP).saturating_sub(at.elapsed()));
        }
        self.devices.press(pressed, true).map_err(|e| anyhow!("{what} (pressing): {e:#}"))?;
        sleep(self.hold);
        let released = self.devices.press(pressed, false).map_err(|e| anyhow!("{what} (releasing): {e:#}"));
        self.released = Some((pressed, Instant::now()));
        released
    }
}

impl DesktopInput {
    /// Input to the X server.
    pub fn new() -> Result<Self> {
        DesktopInput::on(Seat::X11)
    }

    /// Input to `seat` ([`devices_of`]), paced as a person's hand.
    pub fn on(seat: Seat) -> Result<Self> {
        let devices = devices_of(seat)?;
        Ok(DesktopInput { devices, moved_to: None, hold: HOLD, released: None, clicked_at: None })
    }
}

/// The devices that send input to `seat`: the X server's XTEST, a wlroots compositor's virtual pointer and keyboard
/// (with the key that stops the bot on sway), mutter's remote-desktop session, or KWin's fake input.
pub fn devices_of(seat: Seat) -> Result<Box<dyn Devices>> {
    Ok(match seat {
        Seat::X11 => Box::new(XTest(
            Enigo::new(&enigo_settings(&seat))
                .map_err(|e| anyhow!("cannot open the input device: {e} (is DISPLAY set?)"))?,
        )),
        Seat::Wlroots => {
            let keyboard = Enigo::new(&enigo_settings(&seat)).map_err(|e| {
                anyhow!(
                    "cannot open the compositor's virtual keyboard: {e} (is WAYLAND_DISPLAY set, and does the \
                     compositor offer wlr-virtual-pointer and virtual-keyboard, as sway does?)"
                )
            })?;
            let pointer = VirtualPointer::open()?;
            let stop_key = match crate::wlroots::StopKey::bind() {
                Ok(key) => {
                    eprintln!(
                        "press {} to stop the bot (a move of the pointer cannot be seen here)",
                        crate::wlroots::STOP_KEY
                    );
                    Some(key)
                }
                Err(e) => {
                    eprintln!("note: no key stops the bot ({e:#}): stop it with Ctrl+C in its terminal");
                    None
                }
            };
            Box::new(Wlroots { keyboard, pointer, stop_key })
        }
        Seat::Mutter(desktop) => {
            desktop.wake_devices()?;
            Box::new(Mutter(desktop))
        }
        Seat::Kwin => {
            eprintln!("note: KWin tells no program where the pointer is: stop the bot with Ctrl+C in its terminal");
            Box::new(Kwin(crate::kwin::FakeInput::open()?))
        }
    })
}

/// enigo's settings for input to `seat` alone. enigo sends every event to each desktop it can reach: on a Wayland
/// session with XWayland, an XWayland window would get each click twice (once from the compositor, once through
/// XTEST), so the other desktop is named as one that does not exist. No delay between events: GTK registers them
/// without it, and the play loop waits for the window to settle after every move anyway. (mutter and KWin take
/// no input from enigo: theirs is sent by [`crate::mutter`] and [`crate::kwin`].)
pub fn enigo_settings(seat: &Seat) -> Settings {
    let base = Settings { linux_delay: 0, ..Settings::default() };
    match seat {
        Seat::X11 => Settings { wayland_display: Some("autoplay-sends-no-wayland-input".into()), ..base },
        Seat::Wlroots | Seat::Mutter(_) | Seat::Kwin => {
            Settings { x11_display: Some(":autoplay-sends-no-x11-input".into()), ..base }
        }
    }
}

impl InputDevice for DesktopInput {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        if let Some(clicked) = self.clicked_at {
            sleep(STILL_AFTER_CLICK.saturating_sub(clicked.elapsed()));
        }
        self.devices.move_to(x, y)?;
        self.moved_to = Some((x, y));
        Ok(())
    }

    fn click(&mut self) -> Result<()> {
        if self.hold != QUICK {
            sleep(REST);
        }
        let clicked = self.hold(Pressed::LeftButton, "clicking");
        self.clicked_at = Some(Instant::now());
        clicked
    }

    fn type_char(&mut self, c: char) -> Result<()> {
        self.hold(Pressed::Char(c), &format!("typing '{c}'"))
    }

    fn press_key(&mut self, key: Key) -> Result<()> {
        self.hold(Pressed::Key(key), &format!("pressing {key}"))
    }

    /// Where the pointer is, where the desktop tells (the X server; mutter's screen cast). A wlroots compositor
    /// tells no client where another's pointer is: there, where the bot last moved it (before that, the origin),
    /// so a user's move of the pointer is not seen (docs/desktops.md says how to stop the bot there).
    fn pointer(&self) -> Result<(i32, i32)> {
        self.devices.pointer().unwrap_or_else(|| Ok(self.moved_to.unwrap_or((0, 0))))
    }

    fn set_hold(&mut self, hold: Duration) {
        self.hold = hold;
    }

    fn click_shown(&mut self) {
        self.clicked_at = None;
    }

    fn stop_key_pressed(&self) -> Option<&'static str> {
        self.devices.stop_key_pressed()
    }
}

/// The enigo key that `key` names.
pub fn enigo_key(key: Key) -> enigo::Key {
    match key {
        Key::Up => enigo::Key::UpArrow,
        Key::Down => enigo::Key::DownArrow,
        Key::Left => enigo::Key::LeftArrow,
        Key::Right => enigo::Key::RightArrow,
        Key::Enter => enigo::Key::Return,
    }
}

/// Records what would be sent, and sends nothing.
#[derive(Default)]
pub struct DryRunInput {
    pub position: (i32, i32),
    pub log: Vec<String>,
}

impl InputDevice for DryRunInput {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        self.position = (x, y);
        Ok(())
    }

    fn click(&mut self) -> Result<()> {
        let (x, y) = self.position;
        self.log.push(format!("click {x} {y}"));
        Ok(())
    }

    fn type_char(&mut self, c: char) -> Result<()> {
        self.log.push(format!("type {c}"));
        Ok(())
    }

    fn press_key(&mut self, key: Key) -> Result<()> {
        self.log.push(format!("key {key}"));
        Ok(())
    }

    fn pointer(&self) -> Result<(i32, i32)> {
        Ok(self.position)
    }
}
