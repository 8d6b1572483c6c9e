//! The act stage: input events sent to the desktop (enigo, over XTEST), or recorded in a dry run.

use anyhow::{anyhow, Result};
use enigo::{Button, Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};

use crate::game::Key;

/// Where input events go. Points are screen coordinates.
pub trait InputDevice {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()>;
    fn click(&mut self) -> Result<()>;
    fn type_char(&mut self, c: char) -> Result<()>;
    /// Presses and releases a key that types nothing (a cursor key, Enter).
    fn press_key(&mut self, key: Key) -> Result<()>;
    /// Where the pointer is now.
    fn pointer(&self) -> Result<(i32, i32)>;
}

/// The live desktop.
pub struct DesktopInput {
    enigo: Enigo,
}

impl DesktopInput {
    pub fn new() -> Result<Self> {
        // No artificial delay between events: GTK registers them without it, and the play loop waits for the
        // window to settle after every move anyway.
        let settings = Settings { linux_delay: 0, ..Settings::default() };
        let enigo =
            Enigo::new(&settings).map_err(|e| anyhow!("cannot open the input device: {e} (is DISPLAY set?)"))?;
        Ok(DesktopInput { enigo })
    }
}

impl InputDevice for DesktopInput {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(|e| anyhow!("moving the pointer: {e}"))
    }

    fn click(&mut self) -> Result<()> {
        self.enigo.button(Button::Left, Direction::Click).map_err(|e| anyhow!("clicking: {e}"))
    }

    fn type_char(&mut self, c: char) -> Result<()> {
        self.enigo.text(&c.to_string()).map_err(|e| anyhow!("typing '{c}': {e}"))
    }

    fn press_key(&mut self, key: Key) -> Result<()> {
        let code = match key {
            Key::Up => enigo::Key::UpArrow,
            Key::Down => enigo::Key::DownArrow,
            Key::Left => enigo::Key::LeftArrow,
            Key::Right => enigo::Key::RightArrow,
            Key::Enter => enigo::Key::Return,
        };
        self.enigo.key(code, Direction::Click).map_err(|e| anyhow!("pressing {key}: {e}"))
    }

    fn pointer(&self) -> Result<(i32, i32)> {
        self.enigo.location().map_err(|e| anyhow!("reading the pointer position: {e}"))
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
