//! Calibration data of the Sudoku reader, one TOML file per theme under `calibration/sudoku/<theme>.toml`:
//! which pixels are grid lines, the ink colours of givens, player digits, clashes and pencil marks, and a glyph
//! template per symbol (learned at one or more cell sizes). Written by `autoplay calibrate sudoku`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::calibration::{load_theme_file, load_theme_files, parse_rgb, save_theme_file, ThemeFile};
use crate::vision::glyph::{self, Glyph};

pub use crate::vision::glyph::GLYPH_SIDE;

/// The ink colours the game draws digits in (`#rrggbb`); all but `given` are optional until learned.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InkColours {
    pub given: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pencil: Option<String>,
}

/// What a cell's ink says about its digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    Given,
    Entered,
    Clash,
    Pencil,
}

impl InkColours {
    /// The colours known, with what each means.
    pub fn known(&self) -> Result<Vec<(Ink, [u8; 3])>> {
        let mut out = vec![(Ink::Given, parse_rgb(&self.given)?)];
        for (ink, colour) in [(Ink::Entered, &self.entered), (Ink::Clash, &self.clash), (Ink::Pencil, &self.pencil)] {
            if let Some(c) = colour {
                out.push((ink, parse_rgb(c)?));
            }
        }
        Ok(out)
    }
}

/// A symbol's glyph (or, as symbol '.', a mark the game draws over an empty cell): its ink coverage in a GLYPH_SIDE² square (the glyph's bounding box scaled to fit, centred),
/// written as GLYPH_SIDE rows of hex digits 0–f, plus its height and vertical position relative to the cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GlyphTemplate {
    pub symbol: char,
    /// The cell pitch (pixels) it was learned at.
    pub pitch: f64,
    /// Glyph height / cell pitch.
    pub height: f64,
    /// (Glyph centre − cell centre) / cell pitch, vertically.
    pub centre_y: f64,
    pub rows: Vec<String>,
}

impl GlyphTemplate {
    /// The template as a glyph (with no aspect: a template keeps none).
    pub fn glyph(&self) -> Result<Glyph> {
        let coverage = glyph::coverage_of(&self.rows, &format!("'{}'", self.symbol))?;
        Ok(Glyph { coverage, aspect: 0.0, height: self.height, centre_y: self.centre_y })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SudokuTheme {
    pub game: String,
    pub theme: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// How the grid is found: from dark lines (the default), or by the search that takes any cue (lines light
    /// or dark, or the edges of tiles; [`super::discover::find_any_grid`]), for clients drawn otherwise.
    #[serde(default, skip_serializing_if = "GridCue::is_dark_lines")]
    pub grid: GridCue,
    /// A pixel whose channels are all at most this is dark (grid lines are found among dark pixels).
    pub dark_max: u8,
    /// The smallest cell side, in pixels, the reader considers.
    pub min_cell: u32,
    /// A pixel differing from its cell's background by more than this (largest channel difference) is ink.
    pub ink_threshold: u8,
    /// Cells at least this many pixels are read with templates of any size; smaller cells only with templates
    /// learned at most 5% larger (small glyphs are hinted differently at every size).
    #[serde(default = "default_min_scalable_pitch")]
    pub min_scalable_pitch: f64,
    /// A glyph matches a template when their distance is at most this...
    pub max_distance: f64,
    /// ...and the next-best symbol is at least this much further.
    pub min_margin: f64,
    pub ink: InkColours,
    /// The background of a cell holding a given, when the game marks givens by their cell (GNOME Sudoku draws
    /// givens and the player's digits in the same ink, givens on grey cells). `None`: givens are told by ink.
    /// Learned by calibration when every given's cell has one background that no other cell has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given_background: Option<String>,
    /// When pencil marks share the digits' ink (GNOME Sudoku): ink whose tallest connected mark is less tall
    /// than this share of the cell pitch is pencil marks. Learned by calibration from cells with pencil marks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pencil_max_height: Option<f64>,
    #[serde(rename = "glyph", default)]
    pub glyphs: Vec<GlyphTemplate>,
}

/// How a theme's grid is found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GridCue {
    /// Lines among the pixels no lighter than `dark_max`.
    #[default]
    DarkLines,
    /// Any cue the search with no calibration takes.
    Found,
}

impl GridCue {
    fn is_dark_lines(&self) -> bool {
        *self == GridCue::DarkLines
    }
}

fn default_min_scalable_pitch() -> f64 {
    24.0
}

impl SudokuTheme {
    pub fn new(name: &str) -> Self {
        SudokuTheme {
            game: "sudoku".into(),
            theme: name.into(),
            description: String::new(),
            grid: GridCue::DarkLines,
            dark_max: 96,
            min_cell: 10,
            ink_threshold: 24,
            min_scalable_pitch: default_min_scalable_pitch(),
            max_distance: 0.1,
            min_margin: 0.01,
            ink: InkColours { given: "#000000".into(), ..InkColours::default() },
            given_background: None,
            pencil_max_height: None,
            glyphs: Vec::new(),
        }
    }

    pub fn validate(&self, origin: &str) -> Result<()> {
        self.ink.known().with_context(|| format!("{origin}: ink colours"))?;
        if let Some(background) = &self.given_background {
            parse_rgb(background).with_context(|| format!("{origin}: given_background"))?;
        }
        if self.min_cell < 6 {
            bail!("{origin}: min_cell must be at least 6 pixels");
        }
        for g in &self.glyphs {
            g.glyph().with_context(|| origin.to_string())?;
            if g.symbol != '.' && crate::games::sudoku::symbol_value(g.symbol).is_none_or(|v| v == 0) {
                bail!(
                    "{origin}: '{}' is not a Sudoku symbol (1-9, A-G, or '.' for a mark over an empty cell)",
                    g.symbol
                );
            }
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<Self> {
        load_theme_file(path)
    }

    /// Writes the theme to `<root>/sudoku/<theme>.toml` (atomically) and returns the path.
    pub fn save(&self, root: &Path) -> Result<PathBuf> {
        save_theme_file(self, root, "sudoku")
    }
}

impl ThemeFile for SudokuTheme {
    fn name(&self) -> &str {
        &self.theme
    }

    fn validate(&self, origin: &str) -> Result<()> {
        SudokuTheme::validate(self, origin)
    }

    fn header(&self) -> String {
        format!(
            "# Calibration for reading Sudoku (theme '{}'), written by `autoplay calibrate sudoku`.\n\
             # Glyphs: ink coverage (0-f) of each symbol's bounding box scaled into {GLYPH_SIDE}x{GLYPH_SIDE}, per cell pitch learned.\n",
            self.theme
        )
    }
}

/// Every Sudoku theme under `root`, sorted by name, or only the one named.
pub fn load_themes(root: &Path, only: Option<&str>) -> Result<Vec<SudokuTheme>> {
    load_theme_files(root, "sudoku", only)
}

/// [`load_themes`], except that with no theme named, a missing or empty folder is no themes (the reader then
/// reads with the digits of common fonts alone).
pub fn load_themes_or_none(root: &Path, only: Option<&str>) -> Result<Vec<SudokuTheme>> {
    crate::calibration::load_theme_files_or_none(root, "sudoku", only)
}
