//! Calibration data of the Cribbage Solitaire reader, one TOML file per rendering under
//! `calibration/cribbage/<theme>.toml`: the table's colour, how dark card outlines are, and a glyph template per
//! rank. Written by `autoplay calibrate cribbage`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

use crate::calibration::{load_theme_files, parse_rgb, save_theme_file, ThemeFile};
use crate::games::cribbage::Rank;
use crate::vision::glyph::{self, Glyph};

/// A rank's glyph as printed in a card's corner (the suit sign left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankTemplate {
    /// `A23456789TJQK`.
    pub rank: char,
    /// Width / height of the glyph's ink ("10" is wide, "1"-like shapes narrow).
    pub aspect: f64,
    /// Glyph height / card width (the corner's size on the card).
    pub height: f64,
    pub rows: Vec<String>,
}

impl RankTemplate {
    /// The template as a glyph.
    pub fn glyph(&self) -> Result<Glyph> {
        let coverage = glyph::coverage_of(&self.rows, &format!("'{}'", self.rank))?;
        Ok(Glyph { coverage, aspect: self.aspect, height: self.height, centre_y: 0.0 })
    }
}

/// The columns' places on the felt (see [`TableTheme::columns`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColumnPlaces {
    pub left: [f64; 4],
    pub card_width: f64,
    /// The felt's bounding box, width over height: a felt with no card on it (every column played) counts as
    /// the table only with this shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_aspect: Option<f64>,
}

fn drawn() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableTheme {
    pub game: String,
    pub theme: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The table's colour (`#rrggbb`): everything else on it is a card, a slot, text or a button.
    pub felt: String,
    /// A pixel within this (largest channel difference) of the felt is felt.
    pub felt_tolerance: u8,
    /// A pixel of a card pile this dark (luminance) or darker, in a row-long run, is a card's outline.
    pub outline_max: u8,
    /// A pixel differing from its card's face by more than this is ink.
    pub ink_threshold: u8,
    /// A glyph matches a rank when their distance is at most this and the next rank is `min_margin` further.
    pub max_distance: f64,
    pub min_margin: f64,
    /// Whether the table draws the stack as a pile right of the columns; where it does not, the bot keeps the
    /// stack from the cards it played.
    #[serde(default = "drawn")]
    pub stack_pile: bool,
    /// Where the four columns stand, as shares of the felt's bounding box: each column's left edge across it,
    /// and the card width. Learned by calibration; absent (themes learned before), the table must show five
    /// piles: the four columns (an empty one outlined) and the stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<ColumnPlaces>,
    /// The control that ends a stack, where the picture does not show one the reader knows (a small icon), as
    /// shares of the felt's bounding box; absent, it is the widest solid button right of the columns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_stack: Option<[f64; 2]>,
    /// The table ends a stack by itself once no card fits, and has no control for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ends_stacks_itself: bool,
    /// The face of a playable card (`#rrggbb`), on a table that draws no stack pile: small cards of this face
    /// off the felt are the stack, shown as a row (in play order, left to right and down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_face: Option<String>,
    /// Where the table prints the stack's running total and the score as text (a point on each number, as
    /// shares of the felt's bounding box), where it does; read with the digits of the common fonts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_at: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_at: Option<[f64; 2]>,
    /// The word the table's window title puts before the score ("score" in "Cribbage Solitaire — deal 30 —
    /// score 42"), where its title shows the score: learned by `calibrate` from the shot's title. Absent, no
    /// title is read for a score (another program's title may hold those words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_in_title: Option<String>,
    #[serde(rename = "glyph", default)]
    pub glyphs: Vec<RankTemplate>,
}

impl TableTheme {
    pub fn new(name: &str) -> Self {
        TableTheme {
            game: "cribbage".into(),
            theme: name.into(),
            description: String::new(),
            felt: "#000000".into(),
            felt_tolerance: 24,
            outline_max: 96,
            ink_threshold: 80,
            max_distance: 0.1,
            min_margin: 0.01,
            stack_pile: true,
            columns: None,
            end_stack: None,
            ends_stacks_itself: false,
            card_face: None,
            total_at: None,
            score_at: None,
            score_in_title: None,
            glyphs: Vec::new(),
        }
    }

    /// Writes the theme to `<root>/cribbage/<theme>.toml` (atomically) and returns the path.
    pub fn save(&self, root: &Path) -> Result<PathBuf> {
        save_theme_file(self, root, "cribbage")
    }
}

impl ThemeFile for TableTheme {
    fn name(&self) -> &str {
        &self.theme
    }

    fn validate(&self, origin: &str) -> Result<()> {
        parse_rgb(&self.felt).map_err(|e| e.context(format!("{origin}: felt")))?;
        if let Some(places) = &self.columns {
            let on_felt = |v: f64| (-1.0..=2.0).contains(&v);
            let sensible =
                places.card_width > 0.0 && places.card_width < 1.0 && places.left.iter().all(|&l| on_felt(l));
            if !sensible {
                bail!("{origin}: columns: card_width must be a share of the felt's width (0 to 1), and each left near the felt");
            }
        }
        if let Some(face) = &self.card_face {
            parse_rgb(face).map_err(|e| e.context(format!("{origin}: card_face")))?;
        }
        for g in &self.glyphs {
            if Rank::from_char(g.rank).is_none() {
                bail!("{origin}: '{}' is not a rank (A23456789TJQK)", g.rank);
            }
            g.glyph().map_err(|e| e.context(origin.to_string()))?;
        }
        Ok(())
    }

    fn header(&self) -> String {
        format!(
            "# Calibration for reading Cribbage Solitaire tables (theme '{}'), written by `autoplay calibrate cribbage`.\n\
             # Glyphs: ink coverage (0-f) of each rank's corner glyph, its bounding box scaled into {side}x{side}.\n",
            self.theme,
            side = glyph::GLYPH_SIDE
        )
    }
}

/// Every cribbage theme under `root`, sorted by name, or only the one named.
pub fn load_themes(root: &Path, only: Option<&str>) -> Result<Vec<TableTheme>> {
    load_theme_files(root, "cribbage", only)
}
