//! Flood-It's reader: screenshot → board + cell layout, with colours from a calibrated palette theme, and
//! calibration: learning a theme's palette from a screenshot whose truth is known.

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::board::FloodBoard;
use crate::calibration::{format_rgb, PaletteColour, PaletteTheme};
use crate::game::{CellLayout, Reading};
use crate::vision::{find_board, ClassMap, LatticeError};

/// A palette theme prepared for matching pixels.
struct Matcher<'a> {
    theme: &'a PaletteTheme,
    rgbs: Vec<[u8; 3]>,
}

impl<'a> Matcher<'a> {
    fn new(theme: &'a PaletteTheme) -> Result<Self> {
        let rgbs = theme.colours.iter().map(PaletteColour::rgb).collect::<Result<_>>()?;
        Ok(Matcher { theme, rgbs })
    }

    /// 0 for no palette colour, else 1 + the palette index of the closest colour within tolerance.
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
        image.pixels().step_by(7).filter(|p| self.classify([p[0], p[1], p[2]]) > 0).count()
    }

    fn read(&self, image: &RgbaImage, hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>, LatticeError> {
        let map = ClassMap::new(image, |rgb| self.classify(rgb));
        let (layout, classes) = find_board(image, &map, self.theme.min_cell, hint)?;
        let cells = classes.iter().map(|&c| self.theme.colours[c as usize - 1].symbol as u8).collect();
        let board = FloodBoard { width: layout.cols, height: layout.rows, cells };
        Ok(Reading { board, layout, theme: self.theme.theme.clone() })
    }
}

/// Reads a Flood-It board from a screenshot. The theme is the one named, or else the one whose palette matches
/// most of the picture (trying the others in turn if it fails).
pub fn read(image: &RgbaImage, themes: &[PaletteTheme], hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>> {
    if themes.is_empty() {
        bail!("no calibration theme to read with");
    }
    let matchers: Vec<Matcher> = themes.iter().map(Matcher::new).collect::<Result<_>>()?;
    let mut order: Vec<(usize, &Matcher)> = matchers.iter().map(|m| (m.sample_matches(image), m)).collect();
    order.sort_by_key(|(matches, _)| std::cmp::Reverse(*matches));
    let mut first_error = None;
    for (_, matcher) in &order {
        match matcher.read(image, hint) {
            Ok(reading) => return Ok(reading),
            Err(e) => {
                first_error.get_or_insert((e, matcher.theme.theme.clone()));
            }
        }
    }
    let (error, theme) = first_error.expect("at least one theme was tried");
    Err(anyhow::Error::new(error).context(format!("reading Flood-It with theme '{theme}'")))
}

/// Reads with one theme, adding every cell colour missing from its palette as a new colour with a fresh
/// symbol. Returns the reading and the extended theme (unchanged when nothing was missing).
pub fn read_learning(image: &RgbaImage, theme: &PaletteTheme, hint: Option<&CellLayout>) -> Result<(Reading<FloodBoard>, PaletteTheme)> {
    let mut theme = theme.clone();
    loop {
        match Matcher::new(&theme)?.read(image, hint) {
            Ok(reading) => return Ok((reading, theme)),
            Err(LatticeError::UnknownColour { rgb, .. }) => {
                let symbol = fresh_symbol(&theme).context("no free symbol left for a new colour")?;
                theme.colours.push(PaletteColour { symbol, rgb, game_index: None, name: String::new() });
            }
            Err(e) => return Err(e.into()),
        }
    }
}

fn fresh_symbol(theme: &PaletteTheme) -> Option<char> {
    ('A'..='Z').chain('a'..='z').chain('0'..='9').find(|s| theme.colours.iter().all(|c| c.symbol != *s))
}

/// Colours of flat pixels (equal to their right and lower neighbours), most frequent first.
fn flat_colours(image: &RgbaImage) -> Vec<[u8; 3]> {
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    let (w, h) = (image.width(), image.height());
    for y in 0..h.saturating_sub(1) {
        for x in 0..w.saturating_sub(1) {
            let p = image.get_pixel(x, y);
            if p == image.get_pixel(x + 1, y) && p == image.get_pixel(x, y + 1) {
                *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
            }
        }
    }
    let mut colours: Vec<([u8; 3], usize)> = counts.into_iter().collect();
    colours.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    colours.into_iter().map(|(c, _)| c).collect()
}

/// Learns the colour of each symbol of `truth` from a screenshot of that board, without any palette: the board
/// colours are found as the set of flat colours whose cells form a grid with the truth's size and pattern (the
/// picture's background colours are the frequent flat colours left out).
pub fn learn_palette(image: &RgbaImage, truth: &FloodBoard, min_cell: u32) -> Result<Vec<(u8, [u8; 3])>> {
    const CANDIDATES: usize = 40;
    const BACKGROUND_CANDIDATES: usize = 5;
    let colours: Vec<[u8; 3]> = flat_colours(image).into_iter().take(CANDIDATES).collect();
    let hint = None;
    for excluded in 0u32..(1 << BACKGROUND_CANDIDATES.min(colours.len())) {
        let class_of: HashMap<[u8; 3], u8> = colours
            .iter()
            .enumerate()
            .filter(|(i, _)| *i >= BACKGROUND_CANDIDATES || excluded & (1 << i) == 0)
            .map(|(i, c)| (*c, i as u8 + 1))
            .collect();
        let map = ClassMap::new(image, |rgb| class_of.get(&rgb).copied().unwrap_or(0));
        let Ok((layout, classes)) = find_board(image, &map, min_cell, hint) else { continue };
        if (layout.cols, layout.rows) != (truth.width, truth.height) {
            continue;
        }
        // The classes must correspond one to one with the truth's symbols.
        let mut symbol_of: HashMap<u8, u8> = HashMap::new();
        let mut class_for: HashMap<u8, u8> = HashMap::new();
        let consistent = classes.iter().zip(&truth.cells).all(|(&class, &symbol)| {
            *symbol_of.entry(class).or_insert(symbol) == symbol && *class_for.entry(symbol).or_insert(class) == class
        });
        if consistent {
            let mut learned: Vec<(u8, [u8; 3])> =
                symbol_of.iter().map(|(&class, &symbol)| (symbol, colours[class as usize - 1])).collect();
            learned.sort();
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
pub fn merge_learned(theme: &mut PaletteTheme, learned: &[(u8, [u8; 3])], game_index_of: &HashMap<u8, u32>) {
    for &(symbol, rgb) in learned {
        let symbol = symbol as char;
        match theme.colours.iter_mut().find(|c| c.symbol == symbol) {
            Some(colour) => colour.rgb = format_rgb(rgb),
            None => theme.colours.push(PaletteColour {
                symbol,
                rgb: format_rgb(rgb),
                game_index: game_index_of.get(&(symbol as u8)).copied(),
                name: String::new(),
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
