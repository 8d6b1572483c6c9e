//! Flood-It's reader: screenshot → board + cell layout, with colours from a calibrated palette theme, and
//! calibration: learning a theme's palette from a screenshot whose truth is known.

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::reading::{how_far, solid_colours, SolidColour};
use super::theme::{PaletteColour, PaletteTheme};
use crate::calibration::format_rgb;
use crate::game::{CellLayout, Reading};
use crate::games::flood::board::FloodBoard;
use crate::vision::lattice::{CellSample, ClassMap, ColourCache, LatticeError};

/// A palette theme prepared for matching pixels.
struct Matcher<'a> {
    theme: &'a PaletteTheme,
    /// The distinct colours drawn (a marked colour shares its colour with a plain one).
    rgbs: Vec<[u8; 3]>,
}

impl<'a> Matcher<'a> {
    fn new(theme: &'a PaletteTheme) -> Result<Self> {
        let mut rgbs: Vec<[u8; 3]> = Vec::new();
        for colour in &theme.colours {
            let rgb = colour.rgb()?;
            if !rgbs.contains(&rgb) {
                rgbs.push(rgb);
            }
        }
        Ok(Matcher { theme, rgbs })
    }

    /// The symbol of a cell read as drawn colour `class` (1-based), marked or not.
    fn symbol(&self, sample: CellSample, row: usize, col: usize) -> Result<u8, LatticeError> {
        let rgb = self.rgbs[sample.class as usize - 1];
        self.theme
            .colours
            .iter()
            .find(|c| c.rgb().ok() == Some(rgb) && c.marked == sample.marked)
            .map(|c| c.symbol as u8)
            .ok_or_else(|| LatticeError::UnexpectedMark { row, col, rgb: format_rgb(rgb) })
    }

    /// 0 for no palette colour, else 1 + the index of the closest drawn colour within tolerance.
    fn classify(&self, rgb: [u8; 3]) -> u8 {
        let distance = |c: &[u8; 3]| (0..3).map(|i| c[i].abs_diff(rgb[i])).max().unwrap_or(0);
        self.rgbs
            .iter()
            .enumerate()
            .map(|(i, c)| (distance(c), i))
            .filter(|&(d, _)| d <= self.theme.tolerance)
            .min()
            .map_or(0, |(_, i)| i as u8 + 1)
    }

    /// How many of a sample of pixels match the palette: a quick measure of which theme a picture is in.
    fn sample_matches(&self, image: &RgbaImage) -> usize {
        let mut cache = ColourCache::new(|rgb| self.classify(rgb));
        image.pixels().step_by(7).filter(|p| cache.class([p[0], p[1], p[2]]) > 0).count()
    }

    fn read(&self, image: &RgbaImage, hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>, LatticeError> {
        self.read_map(image, &ClassMap::new(image, |rgb| self.classify(rgb)), hint)
    }

    /// Reads with pixels classified only where their colour fills the pixels beside them too (thin lines in a
    /// cell colour left out), as for colours found in the picture.
    fn read_solid(&self, image: &RgbaImage, hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>, LatticeError> {
        self.read_map(image, &super::discover::solid_class_map(image, &self.rgbs), hint)
    }

    fn read_map(
        &self,
        image: &RgbaImage,
        map: &ClassMap,
        hint: Option<&CellLayout>,
    ) -> Result<Reading<FloodBoard>, LatticeError> {
        let (layout, samples) = super::reading::find_cells(image, map, self.theme.min_cell, hint)?;
        let cells = samples
            .iter()
            .enumerate()
            .map(|(i, &sample)| self.symbol(sample, i / layout.cols, i % layout.cols))
            .collect::<Result<_, _>>()?;
        let board = FloodBoard { width: layout.cols, height: layout.rows, cells, start: 0 };
        Ok(Reading { board, layout, theme: self.theme.theme.clone() })
    }
}

/// Reads with a palette found in a picture (of this window, earlier).
pub fn read_found(image: &RgbaImage, found: &PaletteTheme, hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>> {
    Matcher::new(found)?
        .read_solid(image, hint)
        .map_err(|e| anyhow::Error::new(e).context("reading Flood-It with colours found in the picture"))
}

/// Reads with the calibrated themes, the one whose palette matches most of the picture first and the others in
/// turn; where none reads it, the failure that got furthest.
pub fn read_themed(
    image: &RgbaImage,
    themes: &[PaletteTheme],
    hint: Option<&CellLayout>,
) -> Result<Reading<FloodBoard>> {
    let matchers: Vec<Matcher> = themes.iter().map(Matcher::new).collect::<Result<_>>()?;
    let mut order: Vec<(usize, &Matcher)> = matchers.iter().map(|m| (m.sample_matches(image), m)).collect();
    order.sort_by_key(|(matches, _)| std::cmp::Reverse(*matches));
    // Of the failures, the one that got furthest is reported (among equals, the theme matching most pixels):
    // it names the real cause better than a theme that found no board at all.
    let mut closest: Option<(u8, LatticeError, String)> = None;
    for (_, matcher) in &order {
        match matcher.read(image, hint) {
            Ok(reading) => return Ok(reading),
            Err(e) => {
                let stage = how_far(&e);
                if closest.as_ref().is_none_or(|(best, _, _)| stage > *best) {
                    closest = Some((stage, e, matcher.theme.theme.clone()));
                }
            }
        }
    }
    let (_, error, theme) = closest.expect("at least one theme was tried");
    Err(anyhow::Error::new(error).context(format!("reading Flood-It with theme '{theme}'")))
}

/// Reads with one theme, adding every cell colour missing from its palette as a new colour with a fresh
/// symbol. Returns the reading and the extended theme (unchanged when nothing was missing).
pub fn read_learning(
    image: &RgbaImage,
    theme: &PaletteTheme,
    hint: Option<&CellLayout>,
) -> Result<(Reading<FloodBoard>, PaletteTheme)> {
    let mut theme = theme.clone();
    loop {
        match Matcher::new(&theme)?.read(image, hint) {
            Ok(reading) => return Ok((reading, theme)),
            Err(LatticeError::UnknownColour { rgb, .. }) => {
                let symbol = fresh_symbol(&theme).context("no free symbol left for a new colour")?;
                theme.colours.push(PaletteColour {
                    symbol,
                    rgb,
                    game_index: None,
                    name: String::new(),
                    marked: false,
                    playable: true,
                });
            }
            Err(e) => return Err(e.into()),
        }
    }
}

fn fresh_symbol(theme: &PaletteTheme) -> Option<char> {
    ('A'..='Z').chain('a'..='z').chain('0'..='9').find(|s| theme.colours.iter().all(|c| c.symbol != *s))
}

/// A symbol's look, learned from a screenshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedColour {
    pub symbol: u8,
    pub rgb: [u8; 3],
    pub marked: bool,
}

/// Learns the colour of each symbol of `truth` from a screenshot of that board, without any palette: the board
/// colours are found as the set of solid colours whose cells form a grid with the truth's size and pattern (the
/// window's own colours are among the most frequent ones, and sets of those are left out in turn).
pub fn learn_palette(image: &RgbaImage, truth: &FloodBoard, min_cell: u32) -> Result<Vec<LearnedColour>> {
    const CANDIDATES: usize = 40;
    // Colours that may belong to the window rather than the board, to leave out in every combination: the most
    // frequent ones (window and desktop backgrounds) and the least cell-like ones (bevels, lines).
    const MOST_FREQUENT: usize = 3;
    const LEAST_CELL_LIKE: usize = 4;
    let solid: Vec<SolidColour> = solid_colours(image, (min_cell / 4).max(1)).into_iter().take(CANDIDATES).collect();
    let colours: Vec<[u8; 3]> = solid.iter().map(|c| c.rgb).collect();
    let mut suspects: Vec<usize> = (0..solid.len().min(MOST_FREQUENT)).collect();
    let mut by_share: Vec<usize> = (0..solid.len()).collect();
    by_share.sort_by(|&a, &b| solid[a].solid_share.total_cmp(&solid[b].solid_share));
    suspects.extend(by_share.into_iter().filter(|i| *i >= MOST_FREQUENT).take(LEAST_CELL_LIKE));
    let hint = None;
    for excluded in 0u32..(1 << suspects.len()) {
        let left_out = |i: usize| suspects.iter().position(|&s| s == i).is_some_and(|bit| excluded & (1 << bit) != 0);
        let class_of: HashMap<[u8; 3], u8> =
            colours.iter().enumerate().filter(|(i, _)| !left_out(*i)).map(|(i, c)| (*c, i as u8 + 1)).collect();
        let map = ClassMap::new(image, |rgb| class_of.get(&rgb).copied().unwrap_or(0));
        let (layout, samples) = match super::reading::find_cells(image, &map, min_cell, hint) {
            Ok(found) => found,
            Err(e) => {
                log::debug!("calibrate: leaving out colour set {excluded:#b}: {e}");
                continue;
            }
        };
        if (layout.cols, layout.rows) != (truth.width, truth.height) {
            log::debug!("calibrate: leaving out colour set {excluded:#b}: a {}x{} grid", layout.cols, layout.rows);
            continue;
        }
        // The cell looks (colour, mark) must correspond one to one with the truth's symbols.
        let mut symbol_of: HashMap<CellSample, u8> = HashMap::new();
        let mut look_of: HashMap<u8, CellSample> = HashMap::new();
        let consistent = samples.iter().zip(&truth.cells).all(|(&look, &symbol)| {
            *symbol_of.entry(look).or_insert(symbol) == symbol && *look_of.entry(symbol).or_insert(look) == look
        });
        if consistent {
            let mut learned: Vec<LearnedColour> = symbol_of
                .iter()
                .map(|(look, &symbol)| LearnedColour {
                    symbol,
                    rgb: colours[look.class as usize - 1],
                    marked: look.marked,
                })
                .collect();
            learned.sort_by_key(|l| l.symbol);
            return Ok(learned);
        }
    }
    bail!(
        "cannot find a {}×{} board matching the truth in the screenshot (is it the right picture and truth?)",
        truth.width,
        truth.height
    )
}

/// Updates (or creates) a theme with learned colours: a symbol already in the theme gets its colour replaced,
/// a new symbol is added with the game's colour number if known.
pub fn merge_learned(theme: &mut PaletteTheme, learned: &[LearnedColour], game_index_of: &HashMap<u8, u32>) {
    for l in learned {
        let symbol = l.symbol as char;
        match theme.colours.iter_mut().find(|c| c.symbol == symbol) {
            Some(colour) => {
                colour.rgb = format_rgb(l.rgb);
                colour.marked = l.marked;
            }
            None => theme.colours.push(PaletteColour {
                symbol,
                rgb: format_rgb(l.rgb),
                game_index: game_index_of.get(&l.symbol).copied(),
                name: String::new(),
                marked: l.marked,
                playable: true,
            }),
        }
        if let Some(&index) = game_index_of.get(&(symbol as u8)) {
            if let Some(colour) = theme.colours.iter_mut().find(|c| c.symbol == symbol) {
                colour.game_index = Some(index);
            }
        }
    }
    theme.colours.sort_by_key(|c| (c.game_index.unwrap_or(u32::MAX), c.symbol));
}
