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
enum Pressed {
    LeftButton,
    Char(char),
    Key(Key),
}

/// The live desktop.
pub struct DesktopInput {
    enigo: Enigo,
    seat: Seat,
    /// Where the bot last moved the pointer (on Wayland, the only pointer a client can know).
    moved_to: Option<(i32, i32)>,
    /// On Wayland, the key the user stops the bot by, where it could be bound.
    stop_key: Option<crate::wlroots::StopKey>,
    /// On Wayland, the bot's own virtual pointer, which moves to the layout's points on any outputs
    /// ([`crate::wlroots::VirtualPointer`]); the left button is pressed on it too.
    wayland_pointer: Option<crate::wlroots::VirtualPointer>,
    hold: Duration,
    /// The last button or key released, and when.
    released: Option<(Pressed, Instant)>,
    /// When the last click's button was released.
    clicked_at: Option<Instant>,
}

impl DesktopInput {
    /// Presses `pressed`, holds it ([`HOLD`], or as set) and releases it, with `send` sending the press or the
    /// release (at [`QUICK`], both at once). The same button or key is pressed again no sooner than [`UP`] (or the
    /// hold, if longer) after its release: a game that looks at its buttons once a frame must see one up between
    /// two presses, or it sees one long press (a move lost). (Another button or key may follow at once, as a
    /// person's other finger does.)
    fn hold(
        &mut self,
        pressed: Pressed,
        what: &str,
        mut send: impl FnMut(&mut Enigo, Option<&mut VirtualPointer>, Direction) -> Result<()>,
    ) -> Result<()> {
        if self.hold == QUICK {
            let sent = send(&mut self.enigo, self.wayland_pointer.as_mut(), Direction::Click)
                .map_err(|e| anyhow!("{what}: {e:#}"));
            self.released = Some((pressed, Instant::now()));
            return sent;
        }
        if let Some((_, at)) = self.released.filter(|&(last, _)| last == pressed) {
            sleep(self.hold.max(UP).saturating_sub(at.elapsed()));
        }
        send(&mut self.enigo, self.wayland_pointer.as_mut(), Direction::Press)
            .map_err(|e| anyhow!("{what} (pressing): {e:#}"))?;
        sleep(self.hold);
        let released = send(&mut self.enigo, self.wayland_pointer.as_mut(), Direction::Release)
            .map_err(|e| anyhow!("{what} (releasing): {e:#}"));
        self.released = Some((pressed, Instant::now()));
        released
    }
}

impl DesktopInput {
    /// Input to the X server.
    pub fn new() -> Result<Self> {
        DesktopInput::on(Seat::X11)
    }

    /// Input to `seat`: the X server's XTEST, or a Wayland compositor's virtual pointer and keyboard
    /// (`zwlr_virtual_pointer_v1`, the bot's own: [`VirtualPointer`]; `zwp_virtual_keyboard_v1`, through enigo's
    /// Wayland backend).
    pub fn on(seat: Seat) -> Result<Self> {
        let enigo = Enigo::new(&enigo_settings(seat)).map_err(|e| match seat {
            Seat::X11 => anyhow!("cannot open the input device: {e} (is DISPLAY set?)"),
            Seat::Wayland => anyhow!(
                "cannot open the compositor's virtual pointer and keyboard: {e} (is WAYLAND_DISPLAY set, and does \
                 the compositor offer wlr-virtual-pointer and virtual-keyboard, as sway does?)"
            ),
        })?;
        let wayland_pointer = match seat {
            Seat::X11 => None,
            Seat::Wayland => Some(crate::wlroots::VirtualPointer::open()?),
        };
        let stop_key = match seat {
            Seat::X11 => None,
            Seat::Wayland => match crate::wlroots::StopKey::bind() {
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
            },
        };
        Ok(DesktopInput {
            enigo,
            seat,
            moved_to: None,
            stop_key,
            wayland_pointer,
            hold: HOLD,
            released: None,
            clicked_at: None,
        })
    }
}

/// enigo's settings for input to `seat` alone. enigo sends every event to each desktop it can reach: on a Wayland
/// session with XWayland, an XWayland window would get each click twice (once from the compositor, once through
/// XTEST), so the other desktop is named as one that does not exist. No delay between events: GTK registers them
/// without it, and the play loop waits for the window to settle after every move anyway.
pub fn enigo_settings(seat: Seat) -> Settings {
    let base = Settings { linux_delay: 0, ..Settings::default() };
    match seat {
        Seat::X11 => Settings { wayland_display: Some("autoplay-sends-no-wayland-input".into()), ..base },
        Seat::Wayland => Settings { x11_display: Some(":autoplay-sends-no-x11-input".into()), ..base },
    }
}

impl InputDevice for DesktopInput {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        if let Some(clicked) = self.clicked_at {
            sleep(STILL_AFTER_CLICK.saturating_sub(clicked.elapsed()));
        }
        match &mut self.wayland_pointer {
            Some(pointer) => pointer.move_to((x, y))?,
            None => self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(|e| anyhow!("moving the pointer: {e}"))?,
        }
        self.moved_to = Some((x, y));
        Ok(())
    }

    fn click(&mut self) -> Result<()> {
        if self.hold != QUICK {
            sleep(REST);
        }
        let clicked = self.hold(Pressed::LeftButton, "clicking", |enigo, wayland_pointer, direction| {
            match (wayland_pointer, direction) {
                (Some(pointer), Direction::Click) => {
                    pointer.left_button(true).and_then(|()| pointer.left_button(false))
                }
                (Some(pointer), direction) => pointer.left_button(direction == Direction::Press),
                (None, direction) => enigo.button(Button::Left, direction).map_err(|e| anyhow!("{e}")),
            }
        });
        self.clicked_at = Some(Instant::now());
        clicked
    }

    fn type_char(&mut self, c: char) -> Result<()> {
        self.hold(Pressed::Char(c), &format!("typing '{c}'"), |enigo, _, direction| {
            enigo.key(enigo::Key::Unicode(c), direction).map_err(|e| anyhow!("{e}"))
        })
    }

    fn press_key(&mut self, key: Key) -> Result<()> {
        let code = enigo_key(key);
        self.hold(Pressed::Key(key), &format!("pressing {key}"), |enigo, _, direction| {
            enigo.key(code, direction).map_err(|e| anyhow!("{e}"))
        })
    }

    /// Where the pointer is: the X server says. A Wayland compositor tells no client where another's pointer
    /// is: there, where the bot last moved it (before that, the origin), so a user's move of the pointer is not
    /// seen (docs/desktops.md says how to stop the bot there).
    fn pointer(&self) -> Result<(i32, i32)> {
        match self.seat {
            Seat::X11 => self.enigo.location().map_err(|e| anyhow!("reading the pointer position: {e}")),
            Seat::Wayland => Ok(self.moved_to.unwrap_or((0, 0))),
        }
    }

    fn set_hold(&mut self, hold: Duration) {
        self.hold = hold;
    }

    fn click_shown(&mut self) {
        self.clicked_at = None;
    }

    fn stop_key_pressed(&self) -> Option<&'static str> {
        self.stop_key.as_ref().is_some_and(|key| key.pressed()).then_some(crate::wlroots::STOP_KEY)
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
