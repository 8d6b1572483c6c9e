//! Flood-It's calibration data: a palette theme (one file `calibration/flood/<theme>.toml`), naming each colour
//! a client draws cells in with its board symbol and, where the game has one, its own colour number.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::actions::FloodWay;
use crate::calibration::{load_theme_file, parse_rgb, save_theme_file, ThemeFile};
use crate::games::flood::FloodBoard;

/// One colour of a palette and the board symbol it stands for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaletteColour {
    /// The board-text symbol (one printable character).
    pub symbol: char,
    /// `#rrggbb` as the game draws it.
    pub rgb: String,
    /// The game's own number for this colour, where it has one (sgt-flood's game-ID digit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_index: Option<u32>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The game draws this colour as `rgb` with a dark mark at the cell's centre (sgt-flood, with more than six
    /// colours, draws colour 6 as red with a dot), which tells it apart from the plain colour.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub marked: bool,
    /// false when picking this colour in the game is known to break it (the theme's description says why);
    /// the bot then refuses to play a board that needs it.
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub playable: bool,
}

fn yes() -> bool {
    true
}

impl PaletteColour {
    pub fn rgb(&self) -> Result<[u8; 3]> {
        parse_rgb(&self.rgb)
    }
}

/// A theme of a colour-cell game: the palette and how closely a pixel must match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaletteTheme {
    pub game: String,
    pub theme: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The largest per-channel difference at which a pixel still matches a palette colour.
    pub tolerance: u8,
    /// The smallest cell side, in pixels, the reader will consider.
    pub min_cell: u32,
    /// Where the client's flood grows from, where that is not the top-left corner: `"centre"` (learned by
    /// `calibrate` from a truth whose board text says `start: centre`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<ThemeStart>,
    /// How the client takes moves where it does not take a click on a cell: learned in play, the first time
    /// another way worked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_by: Option<MovesBy>,
    #[serde(rename = "colour")]
    pub colours: Vec<PaletteColour>,
}

impl PaletteTheme {
    /// The board an sgt-flood game ID describes, in this theme's symbols: each game colour number through the
    /// palette's `game_index`.
    pub fn board_of(&self, id: &crate::games::flood::sgt_id::SgtFloodId) -> Result<FloodBoard> {
        let cells = id
            .colours
            .iter()
            .map(|&n| {
                self.colours
                    .iter()
                    .find(|c| c.game_index == Some(n))
                    .map(|c| c.symbol as u8)
                    .with_context(|| format!("theme '{}' has no colour with game_index {n}", self.theme))
            })
            .collect::<Result<_>>()?;
        Ok(FloodBoard { width: id.width, height: id.height, cells, start: 0 })
    }

    /// The colours a client draws plain (marked ones left out), each with its symbol as a byte: what its colour
    /// buttons may show.
    pub fn plain_colours(&self) -> Vec<(u8, [u8; 3])> {
        self.colours.iter().filter(|c| !c.marked).filter_map(|c| Some((c.symbol as u8, c.rgb().ok()?))).collect()
    }
}

/// A way of making moves other than clicking a cell of the colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MovesBy {
    /// A click on the colour's button (see `buttons`).
    ColourButtons,
    /// A keyboard cursor moved to a cell of the colour, and Enter.
    CursorKeys,
    /// A number key per colour.
    NumberKeys,
}

impl MovesBy {
    /// The way of making moves this is.
    pub fn way(self) -> FloodWay {
        match self {
            MovesBy::ColourButtons => FloodWay::ColourButton,
            MovesBy::CursorKeys => FloodWay::CursorKeys,
            MovesBy::NumberKeys => FloodWay::NumberKey,
        }
    }

    /// How a theme names the way `way` (none for the usual cell clicks).
    pub fn of_way(way: FloodWay) -> Option<MovesBy> {
        [MovesBy::ColourButtons, MovesBy::CursorKeys, MovesBy::NumberKeys].into_iter().find(|m| m.way() == way)
    }

    /// How the log names it.
    pub fn name(self) -> &'static str {
        match self {
            MovesBy::ColourButtons => "its colour buttons",
            MovesBy::CursorKeys => "its cursor keys and Enter",
            MovesBy::NumberKeys => "its number keys",
        }
    }
}

/// A client's start cell, for boards of any size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeStart {
    Corner,
    Centre,
}

impl PaletteTheme {
    /// Checks the data once so that readers can rely on it.
    pub fn validate(&self, origin: &str) -> Result<()> {
        if self.colours.is_empty() {
            bail!("{origin}: the palette has no colours");
        }
        if self.min_cell < 3 {
            bail!("{origin}: min_cell must be at least 3 pixels");
        }
        for (i, c) in self.colours.iter().enumerate() {
            c.rgb().with_context(|| format!("{origin}: colour {}", i + 1))?;
            if !c.symbol.is_ascii_graphic() || c.symbol == '#' {
                bail!("{origin}: symbol '{}' must be a printable ASCII character other than '#'", c.symbol);
            }
            if self.colours[..i].iter().any(|o| o.symbol == c.symbol) {
                bail!("{origin}: symbol '{}' is used twice", c.symbol);
            }
            if self.colours[..i].iter().any(|o| o.rgb.eq_ignore_ascii_case(&c.rgb) && o.marked == c.marked) {
                bail!("{origin}: colour {}{} is listed twice", c.rgb, if c.marked { " (marked)" } else { "" });
            }
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<Self> {
        load_theme_file(path)
    }

    /// Writes the theme to `<root>/<game>/<theme>.toml` (atomically) and returns the path.
    pub fn save(&self, root: &Path) -> Result<PathBuf> {
        save_theme_file(self, root, &self.game)
    }
}

impl ThemeFile for PaletteTheme {
    fn name(&self) -> &str {
        &self.theme
    }

    fn validate(&self, origin: &str) -> Result<()> {
        PaletteTheme::validate(self, origin)
    }

    fn header(&self) -> String {
        format!("# Calibration for {} (theme '{}'), written by `autoplay calibrate`.\n", self.game, self.theme)
    }
}

/// Every palette theme of Flood-It under `root`, sorted by name, or only the one named.
/// With no theme named, a missing or empty folder is no themes: the reader then finds the colours in the picture.
pub fn load_themes(root: &Path, only: Option<&str>) -> Result<Vec<PaletteTheme>> {
    crate::calibration::load_theme_files_or_none(root, "flood", only)
}
