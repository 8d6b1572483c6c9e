//! Cribbage Solitaire on screen: reading a table (the columns, the stack, where to click) with calibrated rank
//! glyphs, and playing it.

pub mod commands;
pub mod play;
pub mod reader;
pub mod theme;

pub use commands::{calibrate_command, read_command, state_text};
pub use play::{Cribbage, Table};
pub use reader::{read, TablePoints, TableReading};
pub use theme::{load_themes, TableTheme};
