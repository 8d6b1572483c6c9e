//! The Sudoku reader: screenshot → grid (via [`crate::vision::lattice::lines`]) → each cell's ink → symbol, by
//! glyph templates from a calibrated theme; and calibration: learning ink colours and templates from a
//! screenshot whose truth is known.

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::reading::{background, coverage, tallest_mark, NoGrid, SudokuReading};
use super::theme::{GlyphTemplate, GridCue, Ink, SudokuTheme};
use crate::calibration::{first_reading, format_rgb, parse_rgb};
use crate::games::sudoku::{symbol, symbol_value as value, SudokuGrid};
use crate::vision::colour::{max_diff, mode, rgb_at};
use crate::vision::glyph::{self, Glyph, Weights};
use crate::vision::lattice::{self, Boxes, Cue, Lattice, LatticeError};

/// The grid drawn in lines no lighter than `dark_max` (every channel), with cells of at least `min_cell` pixels.
fn find_theme_grid(image: &RgbaImage, dark_max: u8, min_cell: u32) -> Result<Lattice, LatticeError> {
    let dark: Vec<bool> = image.pixels().map(|p| p[0] <= dark_max && p[1] <= dark_max && p[2] <= dark_max).collect();
    let cue = Cue::Lines { mask: &dark, min_cell: min_cell as usize };
    lattice::find(image.width() as usize, image.height() as usize, cue)
}

/// The grid as `theme` finds it: from dark lines, or by the search with no calibration. Tiles found from their
/// edges get lines as wide as their bevels, so that each cell's interior is the tile's face.
fn theme_grid(image: &RgbaImage, theme: &SudokuTheme) -> Result<Lattice> {
    match theme.grid {
        GridCue::DarkLines => find_theme_grid(image, theme.dark_max, theme.min_cell).map_err(|e| {
            if e.found_none() {
                NoGrid(e.to_string()).into()
            } else {
                e.into()
            }
        }),
        GridCue::Found => Ok(super::discover::find_any_grid(image)?.faces()),
    }
}

/// How a cell's glyph is matched with a theme's templates: its shape, and its height and place in the cell
/// relative to the pitch (which tell `a` from `9`-like shapes at another size); the templates keep no aspect.
const TEMPLATE_WEIGHTS: Weights = Weights { aspect: 0.0, height: 4.0, centre_y: 4.0 };

/// What one cell shows.
#[derive(Clone, Debug)]
pub enum CellInk {
    Empty,
    Pencil,
    /// Ink of no colour the theme knows (its mean colour): another client's, drawn in colours alike enough for the
    /// theme to have matched the window.
    Unknown {
        rgb: [u8; 3],
    },
    /// A digit in `ink` on a cell whose background is `background`: its glyph (height and place relative to the
    /// cell's pitch), and the height of its tallest connected mark over the pitch (the glyph's height for a
    /// one-piece digit).
    Digit {
        ink: Ink,
        glyph: Glyph,
        tallest_mark: f64,
        background: [u8; 3],
    },
}

/// How a theme tells ink apart in a cell.
pub struct InkRules {
    /// The ink colours known, with what each means.
    pub inks: Vec<(Ink, [u8; 3])>,
    /// A pixel differing from the cell's background by more than this is ink.
    pub threshold: u8,
    /// Digit-coloured ink whose largest connected mark is less tall than this (relative to the cell pitch) is
    /// pencil marks (for games drawing pencil marks in the digits' colours).
    pub pencil_max_height: Option<f64>,
}

impl InkRules {
    pub fn of(theme: &SudokuTheme) -> Result<Self> {
        Ok(InkRules {
            inks: theme.ink.known()?,
            threshold: theme.ink_threshold,
            pencil_max_height: theme.pencil_max_height,
        })
    }
}

/// How far (RGB distance) the typical strongly inked pixel of a cell may lie off the line from the cell's background
/// to the theme's nearest ink, for the ink to be that one: anti-aliasing and blending stay well within it; another
/// colour (a blue digit where the theme knows a lilac pencil) does not.
const UNKNOWN_INK: f32 = 48.0;

/// Reads a cell's ink: which ink colour dominates its strongly inked pixels (none the theme knows where they lie
/// far from every ink's colour), and that ink's glyph.
pub fn cell_ink(image: &RgbaImage, grid: &Lattice, row: usize, col: usize, rules: &InkRules) -> CellInk {
    let (inks, threshold) = (&rules.inks, rules.threshold);
    let (x0, y0, x1, y1) = grid.interior(row, col);
    if x1 < x0 + 2 || y1 < y0 + 2 {
        return CellInk::Empty;
    }
    let bg = background(image, (x0, y0, x1, y1));
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    // Per pixel: the closest ink and its coverage (0 for background-like pixels).
    let mut best: Vec<(u8, f32)> = vec![(0, 0.0); w * h];
    let mut strong = [0usize; 4];
    // Per ink: how many of its strongly inked pixels lie far off the line from the background to it, and the sum
    // of their colours.
    let mut far_off = [0usize; 4];
    let mut colour_sum = [[0u32; 3]; 4];
    for y in 0..h {
        for x in 0..w {
            let p = rgb_at(image, x0 + x, y0 + y);
            if max_diff(p, bg) <= threshold {
                continue;
            }
            let (k, (a, residual)) = inks
                .iter()
                .enumerate()
                .map(|(k, &(_, ink))| (k, coverage(p, bg, ink)))
                .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
                .expect("at least the given ink");
            best[y * w + x] = (k as u8, a);
            if a >= 0.5 {
                strong[k] += 1;
                far_off[k] += usize::from(residual.sqrt() > UNKNOWN_INK);
                (0..3).for_each(|c| colour_sum[k][c] += p[c] as u32);
            }
        }
    }
    let Some((k, &count)) = strong.iter().enumerate().max_by_key(|(_, &n)| n) else { return CellInk::Empty };
    if count < 3 {
        return CellInk::Empty;
    }
    // The typical (median) strong pixel lies far off: at least half of them do.
    if far_off[k] >= count - count / 2 {
        return CellInk::Unknown { rgb: colour_sum[k].map(|s| (s / count as u32) as u8) };
    }
    let ink = inks[k].0;
    if ink == Ink::Pencil {
        return CellInk::Pencil;
    }
    let alpha: Vec<f32> = best.iter().map(|&(kk, a)| if kk as usize == k { a } else { 0.0 }).collect();
    // Heights are relative to the cell's height (a glyph's size follows it where a window stretches the cells).
    let pitch = grid.layout.pitch_y;
    let strong: Vec<bool> = alpha.iter().map(|&a| a >= 0.5).collect();
    let tallest_mark = tallest_mark(&strong, w) as f64 / pitch;
    if rules.pencil_max_height.is_some_and(|limit| tallest_mark < limit) {
        return CellInk::Pencil;
    }
    let Some((bx0, by0, bx1, by1)) = glyph::ink_box(&alpha, w, 0.5) else { return CellInk::Empty };
    let out = glyph::normalise(&alpha, w, (bx0, by0, bx1, by1));
    let bh = by1 - by0 + 1;
    let cell_centre_y = (grid.horizontals[row].centre() + grid.horizontals[row + 1].centre()) / 2.0;
    let glyph_centre_y = y0 as f64 + (by0 + by1) as f64 / 2.0;
    let glyph = Glyph {
        coverage: out,
        aspect: (bx1 - bx0 + 1) as f64 / bh as f64,
        height: bh as f64 / pitch,
        centre_y: (glyph_centre_y - cell_centre_y) / pitch,
    };
    CellInk::Digit { ink, glyph, tallest_mark, background: bg }
}

/// Templates prepared for matching.
struct Matcher<'a> {
    theme: &'a SudokuTheme,
    rules: InkRules,
    given_background: Option<[u8; 3]>,
    templates: Vec<(&'a GlyphTemplate, Glyph)>,
}

impl<'a> Matcher<'a> {
    fn new(theme: &'a SudokuTheme) -> Result<Self> {
        let templates = theme.glyphs.iter().map(|g| Ok((g, g.glyph()?))).collect::<Result<_>>()?;
        let given_background = theme.given_background.as_deref().map(parse_rgb).transpose()?;
        Ok(Matcher { theme, rules: InkRules::of(theme)?, given_background, templates })
    }

    /// The best symbol (value), its distance, and the next-best other symbol's distance.
    fn classify(&self, glyph: &Glyph, size: usize) -> Option<(u8, f64, f64)> {
        let mut per_symbol: HashMap<u8, f64> = HashMap::new();
        for (template, known) in &self.templates {
            let v = value(template.symbol)?;
            if v as usize > size {
                continue;
            }
            let d = glyph.distance(known, &TEMPLATE_WEIGHTS);
            let entry = per_symbol.entry(v).or_insert(f64::INFINITY);
            *entry = entry.min(d);
        }
        let mut ranked: Vec<(u8, f64)> = per_symbol.into_iter().collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (v, d) = *ranked.first()?;
        Some((v, d, ranked.get(1).map_or(f64::INFINITY, |r| r.1)))
    }

    fn read(&self, image: &RgbaImage) -> Result<SudokuReading> {
        let theme = self.theme;
        let grid = theme_grid(image, theme)?;
        // Small glyphs are drawn differently at each size (font hinting): small cells are read only with
        // templates learned at about that size or smaller, else templates could match the wrong symbol.
        let smallest = self.templates.iter().map(|(t, _)| t.pitch).fold(f64::INFINITY, f64::min);
        let pitch = grid.layout.pitch_y;
        if pitch < theme.min_scalable_pitch && pitch < 0.95 * smallest {
            bail!(
                "the cells are {pitch:.1} pixels, smaller than any theme '{}' has learned ({smallest:.0}), and glyphs this \
                 small must be learned at their size: calibrate at this size (`autoplay calibrate sudoku`)",
                theme.theme
            );
        }
        if let Some(given) = self.given_background {
            // Cheap first: a picture of this theme's game shows some given's cell.
            let cells = (0..grid.size() * grid.size()).map(|i| grid.interior(i / grid.size(), i % grid.size()));
            if !cells.map(|c| background(image, c)).any(|bg| max_diff(bg, given) <= theme.ink_threshold) {
                bail!(
                    "no cell shows a given's background {} (the picture is not drawn the way theme '{}' knows)",
                    format_rgb(given),
                    theme.theme
                );
            }
        }
        let mut board = SudokuGrid::empty(grid.boxes().rows, grid.boxes().cols);
        let (mut pencil, mut clashes) = (Vec::new(), Vec::new());
        for row in 0..grid.size() {
            for col in 0..grid.size() {
                match cell_ink(image, &grid, row, col, &self.rules) {
                    CellInk::Empty => {}
                    CellInk::Pencil => pencil.push((row, col)),
                    CellInk::Unknown { rgb } => {
                        let (x, y) = grid.layout.centre(row, col);
                        bail!(
                            "cell (row {row}, column {col}) at ({x}, {y}) shows ink {} of no colour theme '{}' knows (the \
                             picture is not drawn the way the theme knows)",
                            format_rgb(rgb),
                            theme.theme
                        );
                    }
                    CellInk::Digit { ink, glyph, background, .. } => {
                        let (x, y) = grid.layout.centre(row, col);
                        let Some((v, best, next)) = self.classify(&glyph, grid.size()) else {
                            bail!(
                                "theme '{}' has no glyph templates for a {}×{} grid (see `autoplay calibrate sudoku`)",
                                theme.theme,
                                grid.size(),
                                grid.size()
                            );
                        };
                        if best > theme.max_distance || next - best < theme.min_margin {
                            bail!(
                                "cell (row {row}, column {col}) at ({x}, {y}) shows a glyph that matches no symbol well enough \
                                 (closest '{}' at distance {best:.3}, limit {:.3}; next at {next:.3})",
                                symbol(v),
                                theme.max_distance
                            );
                        }
                        if v == 0 {
                            continue; // a mark the game draws over an empty cell
                        }
                        let i = row * grid.size() + col;
                        board.cells[i] = v;
                        board.given[i] = match self.given_background {
                            Some(given) => max_diff(background, given) <= theme.ink_threshold,
                            None => ink == Ink::Given,
                        };
                        if ink == Ink::Clash && !board.given[i] {
                            clashes.push((row, col));
                        }
                    }
                }
            }
        }
        if !board.given.iter().any(|&g| g) {
            bail!(
                "no cell shows a given (the picture is not drawn the way theme '{}' knows, or the grid is empty)",
                theme.theme
            );
        }
        Ok(SudokuReading {
            grid: board,
            layout: grid.layout,
            theme: theme.theme.clone(),
            pencil,
            clashes,
            cursor: None,
            found: None,
            shapes: Vec::new(),
        })
    }
}

/// How well one cell's digit matched.
#[derive(Clone, Copy, Debug)]
pub struct MatchScore {
    pub row: usize,
    pub col: usize,
    pub symbol: char,
    /// Distance to the best template, and to the next-best symbol's.
    pub best: f64,
    pub next: f64,
}

/// How well each digit of a picture matched, for checking a calibration's headroom.
pub fn match_scores(image: &RgbaImage, theme: &SudokuTheme) -> Result<Vec<MatchScore>> {
    let matcher = Matcher::new(theme)?;
    let grid = theme_grid(image, theme)?;
    let mut scores = Vec::new();
    for row in 0..grid.size() {
        for col in 0..grid.size() {
            if let CellInk::Digit { glyph, .. } = cell_ink(image, &grid, row, col, &matcher.rules) {
                if let Some((v, best, next)) = matcher.classify(&glyph, grid.size()) {
                    scores.push(MatchScore { row, col, symbol: symbol(v), best, next });
                }
            }
        }
    }
    Ok(scores)
}

/// Reads a Sudoku from a screenshot with the first theme that reads it.
pub fn read(image: &RgbaImage, themes: &[SudokuTheme]) -> Result<SudokuReading> {
    first_reading(themes, "Sudoku", |theme| Matcher::new(theme)?.read(image))
}

/// What calibration learned.
#[derive(Debug)]
pub struct Learned {
    pub size: usize,
    pub pitch: f64,
    pub symbols: Vec<char>,
}

/// Ink in a cell the truth leaves empty whose tallest mark is at least this share of the shortest digit's is a
/// mark over an empty cell (learned as the template '.'), not pencil marks.
const EMPTY_MARK_SHARE: f64 = 0.75;

/// The lightest grid-line darkness calibration tries: lines are found among pixels no lighter than this.
const LIGHTEST_LINES: u8 = 224;

/// Finds the grid to calibrate from: with the theme's line darkness if that shows a grid of the truth's box
/// shape, else with the darkest threshold (from the theme's up to [`LIGHTEST_LINES`], in steps of 32) that
/// does, which then becomes the theme's (some games draw the lines between cells in a light grey); else, for a
/// client drawn otherwise (light lines on dark, tiles), the grid as found with no calibration, which the theme
/// then keeps finding that way (`grid = "found"`, boxes of the usual shape where no thicker lines show them).
fn calibration_grid(image: &RgbaImage, truth: &SudokuGrid, theme: &mut SudokuTheme) -> Result<Lattice> {
    let shape = (truth.box_rows, truth.box_cols);
    let mut first_error = None;
    for dark_max in std::iter::once(theme.dark_max).chain((theme.dark_max..=LIGHTEST_LINES).step_by(32).skip(1)) {
        match find_theme_grid(image, dark_max, theme.min_cell) {
            Ok(grid) if (grid.boxes().rows, grid.boxes().cols) == shape => {
                theme.dark_max = dark_max;
                theme.grid = GridCue::DarkLines;
                return Ok(grid);
            }
            Ok(grid) => {
                first_error.get_or_insert(anyhow::anyhow!(
                    "the screenshot shows boxes of {}×{} cells but the truth has {}×{}",
                    grid.boxes().rows,
                    grid.boxes().cols,
                    truth.box_rows,
                    truth.box_cols
                ));
            }
            Err(e) => {
                first_error.get_or_insert(anyhow::Error::new(e).context("finding the grid to calibrate from"));
            }
        }
    }
    // A client drawn otherwise (light lines on dark, tiles): the grid as found with no calibration, boxes as the
    // truth has them where thicker lines do not show them.
    if let Ok(mut found) = super::discover::find_any_grid(image) {
        let grid = &mut found.grid;
        if grid.size() == truth.size && (!grid.boxes().drawn || (grid.boxes().rows, grid.boxes().cols) == shape) {
            grid.boxes = Some(Boxes { rows: shape.0, cols: shape.1, drawn: grid.boxes().drawn });
            theme.grid = GridCue::Found;
            return Ok(found.faces());
        }
    }
    Err(first_error.expect("at least one threshold tried"))
}

/// The background of the givens' cells, when it tells them from every other cell (else `None`).
fn learned_given_background(backgrounds: &[[u8; 3]], truth: &SudokuGrid, threshold: u8) -> Option<[u8; 3]> {
    let givens: Vec<[u8; 3]> = (0..backgrounds.len()).filter(|&i| truth.given[i]).map(|i| backgrounds[i]).collect();
    let candidate = mode(givens.iter().copied())?;
    let matches = |bg: [u8; 3]| max_diff(bg, candidate) <= threshold;
    let all_givens = givens.iter().all(|&bg| matches(bg));
    let no_others = (0..backgrounds.len()).filter(|&i| !truth.given[i]).all(|i| !matches(backgrounds[i]));
    (all_givens && no_others).then_some(candidate)
}

/// Learns ink colours and glyph templates into `theme` from a screenshot whose truth is known: `truth` gives
/// every digit shown and which are givens. Clashing player digits (by the rules) teach the clash colour;
/// ink in cells the truth leaves empty teaches the pencil-mark colour, or, when pencil marks share a digit
/// ink, the height below which ink is pencil marks. The grid-line darkness is found if the theme's does not
/// show the grid, and a given background is learned when the givens' cells alone share one. Templates
/// learned at about this cell pitch (to half a pixel) replace the theme's old ones for those symbols; other
/// pitches' templates are kept.
pub fn learn(image: &RgbaImage, truth: &SudokuGrid, theme: &mut SudokuTheme) -> Result<Learned> {
    let grid = calibration_grid(image, truth, theme)?;
    let cells = grid.size() * grid.size();
    let backgrounds: Vec<[u8; 3]> =
        (0..cells).map(|i| background(image, grid.interior(i / grid.size(), i % grid.size()))).collect();
    // Ink colours: the commonest strongly inked colour of each kind of cell.
    let clashes = truth.clashes();
    let mut samples: HashMap<&str, Vec<[u8; 3]>> = HashMap::new();
    for row in 0..grid.size() {
        for col in 0..grid.size() {
            let i = row * grid.size() + col;
            let kind = match (truth.cells[i], truth.given[i]) {
                (0, _) => "pencil",
                (_, true) => "given",
                _ if clashes.contains(&(row, col)) => "clash",
                _ => "entered",
            };
            let (x0, y0, x1, y1) = grid.interior(row, col);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let p = rgb_at(image, x, y);
                    if max_diff(p, backgrounds[i]) > 96 {
                        samples.entry(kind).or_default().push(p);
                    }
                }
            }
        }
    }
    let learned_colour = |kind: &str| samples.get(kind).and_then(|s| mode(s.iter().copied()));
    theme.ink.given =
        format_rgb(learned_colour("given").context("the truth has no givens to learn the given ink from")?);
    for (kind, slot) in [("entered", &mut theme.ink.entered), ("clash", &mut theme.ink.clash)] {
        if let Some(c) = learned_colour(kind) {
            *slot = Some(format_rgb(c));
        }
    }
    theme.given_background = learned_given_background(&backgrounds, truth, theme.ink_threshold).map(format_rgb);
    // Pencil marks in a colour of their own are told by it; in a digit's colour, by their size.
    let mut pencil_by_size = false;
    if let Some(pencil) = learned_colour("pencil") {
        let digit_inks = theme.ink.known()?;
        if digit_inks.iter().any(|&(_, ink)| max_diff(ink, pencil) <= theme.ink_threshold) {
            pencil_by_size = true;
            theme.ink.pencil = None;
        } else {
            theme.ink.pencil = Some(format_rgb(pencil));
        }
    }
    let mut rules = InkRules::of(theme)?;
    rules.pencil_max_height = None;
    // Each inked cell's glyph. In cells the truth leaves empty, ink is pencil marks (small) or a mark the game
    // draws over an empty cell (digit-sized, such as GNOME Sudoku's cross on a cell left without a possible digit).
    let mut inked: Vec<(usize, Glyph, f64)> = Vec::new();
    for i in 0..cells {
        let (row, col) = (i / grid.size(), i % grid.size());
        match cell_ink(image, &grid, row, col, &rules) {
            CellInk::Digit { glyph, tallest_mark, .. } => inked.push((i, glyph, tallest_mark)),
            _ if truth.cells[i] != 0 => {
                bail!("cell (row {row}, column {col}) should show '{}' but shows no digit", symbol(truth.cells[i]))
            }
            _ => {}
        }
    }
    let shortest_digit =
        inked.iter().filter(|(i, ..)| truth.cells[*i] != 0).map(|&(.., tallest)| tallest).fold(f64::INFINITY, f64::min);
    let is_empty_mark = |tallest_mark: f64| tallest_mark >= EMPTY_MARK_SHARE * shortest_digit;
    if pencil_by_size {
        let tallest_pencil = inked
            .iter()
            .filter(|&&(i, _, tallest)| truth.cells[i] == 0 && !is_empty_mark(tallest))
            .map(|&(.., tallest)| tallest)
            .fold(0.0, f64::max);
        theme.pencil_max_height = Some(((tallest_pencil + shortest_digit) / 2.0 * 1e4).round() / 1e4);
    }
    // Glyphs: the mean of every instance of each symbol ('.' for the marks over empty cells).
    let mut instances: HashMap<u8, Vec<&Glyph>> = HashMap::new();
    for (i, glyph, tallest) in &inked {
        let v = truth.cells[*i];
        if v == 0 && !is_empty_mark(*tallest) {
            continue;
        }
        instances.entry(v).or_default().push(glyph);
    }
    let pitch = grid.layout.pitch_y;
    let mut symbols: Vec<u8> = instances.keys().copied().collect();
    symbols.sort_unstable();
    for &v in &symbols {
        let mean = Glyph::mean(instances[&v].iter().copied());
        let template = GlyphTemplate {
            symbol: symbol(v),
            pitch: (pitch * 10.0).round() / 10.0,
            height: (mean.height * 1e4).round() / 1e4,
            centre_y: (mean.centre_y * 1e4).round() / 1e4,
            rows: glyph::rows_of(&mean.coverage),
        };
        theme.glyphs.retain(|g| !(g.symbol == template.symbol && (g.pitch - template.pitch).abs() < 0.5));
        theme.glyphs.push(template);
    }
    theme.glyphs.sort_by(|a, b| (value(a.symbol), a.pitch).partial_cmp(&(value(b.symbol), b.pitch)).expect("finite"));
    Ok(Learned { size: grid.size(), pitch, symbols: symbols.into_iter().map(symbol).collect() })
}
