//! Reading a Sudoku that no calibration theme describes: the grid from its lines in either polarity (dark lines
//! on a light board, or light lines on a dark one, at fixed thresholds; else lines of any shade that differ from
//! the cells on both sides of them, as a dark theme draws them faintly), else from the edges of its cells (tiles
//! with gaps and no lines, as KSudoku draws them: [`crate::vision::lattice::edges`]); the boxes from thicker lines
//! or else from the grid's size; each digit by the nearest of the digits rendered from common fonts
//! ([`crate::vision::font_glyphs`]), looked for inside a tile's bevel and apart from marks that reach its edge (a
//! selection frame); and the givens told from the player's digits by what the picture shows.
//!
//! Givens and the player's digits: where many digits sit on a cell background that empty cells do not have
//! (GNOME Sudoku's grey cells, KSudoku's gold tiles; shaded tiles are grouped by nearness), those are the givens
//! — unless the background is what the client shows of its selection: a tint of the selected cell's row, column
//! and box covers empty cells too, and a tint of the cells holding the selected digit holds one digit where a
//! puzzle's givens hold all but one at least. Else, where the digits come in more than one ink, the givens are the
//! least colourful ink (clients print givens black, white or grey and the player's digits, and clashes, in a
//! colour); where neither tells them apart, every digit is a given (a game before the player's first move).

use anyhow::{bail, Result};
use image::RgbaImage;

use super::naming::{name_marks, same_drawing, shape_class_of, Givens, Mark, Unnamable};
use super::reading::{background, coverage, tallest_mark, Drawn, FoundGrid, NoGrid, SudokuReading, TILE_INSET};
use crate::games::sudoku::solver::count_solutions;
use crate::games::sudoku::SudokuGrid;
use crate::vision::colour::{luminance, max_diff, rgb_at};
use crate::vision::font_glyphs::{is_sure, FontGlyphs};
use crate::vision::glyph::{ink_box, Glyph};
use crate::vision::lattice::{self, Cue, Failure, Lattice, LatticeError};
use crate::vision::runs::flood8;

pub use crate::calibration::FOUND_THEME;

/// The smallest cell side, in pixels, looked for.
const MIN_CELL: usize = 12;
/// The smallest cell side, in pixels, of a terminal's grid: a character and the spaces around it.
const MIN_TEXT_CELL: usize = 10;
/// A mark along the edge of a tile's digit area at most this share of it across is a frame, not the digit.
const FRAME_THICKNESS: f64 = 0.2;
/// The smallest cell side, in pixels, whose digits are read with no calibration.
const MIN_PITCH: f64 = 20.0;
/// The line masks tried, in order: pixels at most this light (dark lines), then at least this light (light lines).
const DARK_LINES: [u8; 3] = [96, 160, 224];
const LIGHT_LINES: [u8; 3] = [160, 208, 112];
/// A pixel differing from its cell's background by more than this (largest channel) may be ink.
const INK_THRESHOLD: u8 = 48;
/// Ink whose tallest mark is under this share of the cell is pencil marks, not a digit.
const PENCIL_HEIGHT: f64 = 0.3;
/// Marks in pieces together no wider than `STACK_WIDTH` of the cell and at least `STACK_HEIGHT` of it tall may be
/// one digit drawn in strokes (where the bot just typed one).
const STACK_WIDTH: f64 = 0.5;
const STACK_HEIGHT: f64 = 0.4;
/// Inks (or backgrounds) within this largest channel difference are one.
const SAME_INK: u8 = 64;
const SAME_BACKGROUND: u8 = 24;
/// Backgrounds of shaded or textured tiles within this distance are grouped together.
const SAME_TILE: f64 = 48.0;

/// The digits 1–9 of the fonts of `calibration/fonts.toml`, and the marks clients draw over an empty cell (a
/// cross on a cell left with no possible digit); and the client's own digits, as it drew the digits the bot typed
/// ([`DigitShapes::teach`]).
pub struct DigitShapes {
    glyphs: FontGlyphs,
    /// Marks (glyph, ink height) the client drew for a digit the bot typed, and that digit.
    taught: Vec<(Glyph, usize, u8)>,
    /// The cell (index in reading order) the bot last typed a digit into, and the digit ([`Self::expect_typed`]).
    typed: Option<(usize, u8)>,
}

/// A mark covering more than this share of its box is a block (a cursor, a filled cell), not a drawn digit.
const FILLED: f32 = 0.6;

/// Characters that are not digits but marks over an empty cell.
const EMPTY_MARKS: &str = "×xX";

impl DigitShapes {
    pub fn load(root: &std::path::Path) -> Result<DigitShapes> {
        Ok(DigitShapes {
            glyphs: FontGlyphs::load(root, &format!("123456789{EMPTY_MARKS}"))?,
            taught: Vec::new(),
            typed: None,
        })
    }

    /// The nearest digit (0 for a mark over an empty cell), its distance, and the next-nearest other's distance,
    /// for a glyph whose ink is `height` pixels tall.
    pub(super) fn classify(&self, glyph: &Glyph, height: usize) -> (u8, f64, f64) {
        let value = |c: char| Some(c.to_digit(10).unwrap_or(0) as u8);
        self.glyphs.nearest(glyph, height, value).unwrap_or((0, f64::INFINITY, f64::INFINITY))
    }

    /// The glyph's distance to each name: 0, a mark over an empty cell; 1–9, the digits (infinite for a name no
    /// font draws); none to the digit the client drew in this shape for the bot.
    fn costs(&self, glyph: &Glyph, height: usize) -> [f64; 10] {
        let value = |c: char| Some(c.to_digit(10).unwrap_or(0) as u8);
        let mut costs = [f64::INFINITY; 10];
        for (name, d) in self.glyphs.distances(glyph, height, value) {
            costs[name as usize] = d;
        }
        if let Some(&(.., digit)) = self.taught.iter().find(|(g, h, _)| same_drawing((g, *h), (glyph, height))) {
            costs[digit as usize] = 0.0;
        }
        costs
    }

    /// The bot typed `digit` into cell `cell` (index in reading order): until the next digit typed, a mark in that
    /// cell that is no digit of the fonts at all (beyond [`super::naming::NOT_A_DIGIT`] from every one, and not a
    /// filled block) is taken for this client's drawing of the digit typed ([`Self::costs_in`]). A mark that
    /// reads as some digit is left to the fonts and the board; [`super::SudokuClient`] judges it.
    pub fn expect_typed(&mut self, cell: usize, digit: u8) {
        self.typed = Some((cell, digit));
    }

    /// Whether a mark (glyph, ink height) is a drawing this client made of a digit the bot typed.
    fn is_taught(&self, glyph: &Glyph, height: usize) -> bool {
        self.taught.iter().any(|(g, h, _)| same_drawing((g, *h), (glyph, height)))
    }

    /// The cell the bot last typed into, and the digit.
    pub fn typed(&self) -> Option<(usize, u8)> {
        self.typed
    }

    /// [`Self::costs`] for a mark in cell `cell`: none to the digit the bot typed there, where the mark is of no
    /// digit of the fonts (see [`Self::expect_typed`]).
    fn costs_in(&self, cell: usize, glyph: &Glyph, height: usize) -> [f64; 10] {
        let mut costs = self.costs(glyph, height);
        if let Some((_, digit)) = self.typed.filter(|&(c, _)| c == cell) {
            if self.of_no_digit(glyph, height) {
                costs[digit as usize] = 0.0;
            }
        }
        costs
    }

    /// Whether a mark is of no digit the fonts or this client's taught shapes know, and no filled block.
    fn of_no_digit(&self, glyph: &Glyph, height: usize) -> bool {
        let nearest = self.costs(glyph, height).into_iter().fold(f64::INFINITY, f64::min);
        let fill = glyph.coverage.iter().sum::<f32>() / glyph.coverage.len().max(1) as f32;
        nearest > super::naming::NOT_A_DIGIT && fill <= FILLED
    }

    /// The mark `shape` (glyph, ink height) was read in the cell the bot typed into as the digit typed: it is the
    /// client's drawing of that digit, learned ([`Self::teach`]) so that it reads so (a stack of strokes too) after
    /// the next digit typed, when the cell is no longer the one typed into.
    pub fn learn_typed(&mut self, shape: (Glyph, usize)) {
        if let Some((_, digit)) = self.typed {
            self.teach(shape, digit);
        }
    }

    /// Learns that this client draws `digit` as `shape` (glyph, ink height): the mark that appeared where the bot
    /// typed it. Marks of that shape are read as that digit for the rest of the game.
    pub fn teach(&mut self, (glyph, height): (Glyph, usize), digit: u8) {
        if !self.taught.iter().any(|(g, h, d)| *d == digit && same_drawing((g, *h), (&glyph, height))) {
            self.taught.push((glyph, height, digit));
        }
    }
}

/// The grid, from the first line mask that shows one, else from the edges of its cells
/// ([`crate::vision::lattice::edges`]), else from boxes of a terminal's characters; else the most telling failure
/// of the line masks (a patch that is not a grid, or a grid cut off, before no candidate at all) with the others'.
pub fn find_any_grid(image: &RgbaImage) -> Result<FoundGrid> {
    find_grid_trying(image, &[Drawn::Tiles, Drawn::Text])
}

/// The grid from its lines, else drawn as `after_lines` say, in that order.
fn find_grid_trying(image: &RgbaImage, after_lines: &[Drawn]) -> Result<FoundGrid> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let light: Vec<u8> = image.pixels().map(|p| luminance([p[0], p[1], p[2]])).collect();
    let mut failure: Option<LatticeError> = None;
    for line_mask in masks() {
        let mask = line_mask.mask(image, &light);
        match lattice::find(w, h, Cue::Lines { mask: &mask, min_cell: MIN_CELL }) {
            Ok(grid) => {
                refuse_if_covered(&broken_sides(&grid, &mask, w, 0))?;
                return Ok(FoundGrid { grid, drawn: Drawn::Lines });
            }
            Err(e) => {
                let telling = |e: &LatticeError| matches!(e.failure(), Failure::NotALattice | Failure::CutOff);
                if failure.as_ref().is_none_or(|f| !telling(f) && telling(&e)) {
                    failure = Some(e);
                }
            }
        }
    }
    let failure = failure.expect("masks were tried");
    let mut failures = vec![failure.to_string()];
    for &drawn in after_lines {
        match drawn {
            Drawn::Text => match text_grid(&light, w, h) {
                Ok(grid) => return Ok(FoundGrid { grid, drawn }),
                Err(_) => failures.push("nor boxes drawn with a terminal's characters".into()),
            },
            Drawn::Tiles => {
                match lattice::find(w, h, Cue::Edges { light: &light, sizes: &TILED_SIZES, min_cell: MIN_CELL as f64 })
                {
                    Ok(grid) => {
                        refuse_if_lines_covered(&grid, &light, w)?;
                        return Ok(FoundGrid { grid, drawn });
                    }
                    Err(why) => failures.push(format!("nor are there cells without lines: {why}")),
                }
            }
            Drawn::Lines => {}
        }
    }
    // Where no mask showed a grid (one cut off by the picture's edge counts as shown) and nothing else did, no grid
    // was found.
    let message = failures.join("; ");
    if failure.found_none() {
        return Err(NoGrid(message).into());
    }
    bail!("{message}")
}

/// Cells found from their edges may be those of a grid of lines the line finder refused because something
/// covers part of it: where one mask shows lines along most cells' sides, the cells it misses are covered.
fn refuse_if_lines_covered(grid: &Lattice, light: &[u8], w: usize) -> Result<()> {
    let reach = ((grid.layout.side() * 0.06).round() as usize).max(2);
    for threshold in thresholds() {
        let mask = threshold.mask(light);
        if interior_share(grid, &mask, w, reach) > CLEAR_INTERIOR {
            continue; // not lines between cells but (parts of) the cells themselves: tiles, their bevels
        }
        let broken = broken_sides(grid, &mask, w, reach);
        if (broken.len() as f64) <= COVERED_AT_MOST * (grid.size() * grid.size()) as f64 && one_region(&broken) {
            refuse_if_covered(&broken)?;
        }
    }
    Ok(())
}

/// A grid of which only the boxes are drawn, with lines of characters (a terminal:
/// [`crate::vision::lattice::character_boxes`]), from the first line mask (of the picture's luminance `light`) that
/// shows one.
fn text_grid(light: &[u8], w: usize, h: usize) -> Result<Lattice, LatticeError> {
    let mut failure = LatticeError::NoCharacterBoxes;
    for threshold in thresholds() {
        let mask = threshold.mask(light);
        match lattice::find(w, h, Cue::CharacterBoxes { mask: &mask, min_cell: MIN_TEXT_CELL }) {
            Ok(grid) if !lines_inside_boxes(&grid, light, w) => return Ok(grid),
            Ok(_) => failure = LatticeError::NoCharacterBoxes,
            Err(e) => failure = e,
        }
    }
    Err(failure)
}

/// How far (luminance) a line inside a box must differ from the pixels [`RIDGE_REACH`] to each side of it.
const LINE_INSIDE: u8 = 12;

/// Whether a box of a grid of a terminal's characters holds a drawn line: a straight run, most of a cell long (a
/// line between cells is broken where another crosses it; no character is as long), across or down, of pixels all darker (or all lighter) by [`LINE_INSIDE`] than the pixels [`RIDGE_REACH`] to both
/// sides of it (luminance `light`, `w` wide): a ridge, whatever the cells' shades on either side. A terminal's box
/// holds characters alone; a grid of lines (GNOME Sudoku's: its thick box lines, in one mask, pass for a
/// terminal's) draws its cells' sides inside its boxes, however faintly.
fn lines_inside_boxes(grid: &Lattice, light: &[u8], w: usize) -> bool {
    let Some(boxes) = grid.boxes else { return false };
    let long = 0.8 * grid.layout.side();
    let h = light.len() / w;
    let sides = |lines: &[crate::vision::lattice::Line], per_box: usize| -> Vec<(usize, usize)> {
        let edges: Vec<_> = lines.iter().step_by(per_box.max(1)).collect();
        edges.windows(2).filter(|p| p[1].start > p[0].end + 1).map(|p| (p[0].end + 1, p[1].start)).collect()
    };
    let at = |x: usize, y: usize| light[y * w + x] as i32;
    let ridge = |here: i32, a: i32, b: i32| {
        let t = LINE_INSIDE as i32;
        (here <= a - t && here <= b - t) || (here >= a + t && here >= b + t)
    };
    let r = RIDGE_REACH;
    let across = |x: usize, y: usize| y >= r && y + r < h && ridge(at(x, y), at(x, y - r), at(x, y + r));
    let down = |x: usize, y: usize| x >= r && x + r < w && ridge(at(x, y), at(x - r, y), at(x + r, y));
    let longest = |cells: &mut dyn Iterator<Item = bool>| {
        let (mut run, mut best) = (0usize, 0usize);
        for on in cells {
            run = if on { run + 1 } else { 0 };
            best = best.max(run);
        }
        best as f64
    };
    for &(x0, x1) in &sides(&grid.verticals, boxes.cols) {
        for &(y0, y1) in &sides(&grid.horizontals, boxes.rows) {
            if (y0..y1).any(|y| longest(&mut (x0..x1).map(|x| across(x, y))) >= long)
                || (x0..x1).any(|x| longest(&mut (y0..y1).map(|y| down(x, y))) >= long)
            {
                return true;
            }
        }
    }
    false
}

/// The largest share of a grid's cells that may lack drawn sides for the grid to count as one of lines with
/// something over it (tiles separated by gaps miss a side in most cells in every mask).
const COVERED_AT_MOST: f64 = 0.25;

/// The largest share of the cells' interiors a mask of lines between them may hold.
const CLEAR_INTERIOR: f64 = 0.05;

/// Whether the cells form one region, side by side (a window over a board hides one patch of it).
fn one_region(cells: &[(usize, usize)]) -> bool {
    let Some(&first) = cells.first() else { return false };
    let mut reached = vec![first];
    let mut at = 0;
    while at < reached.len() {
        let (r, c) = reached[at];
        at += 1;
        for &next in cells {
            if !reached.contains(&next) && r.abs_diff(next.0) + c.abs_diff(next.1) == 1 {
                reached.push(next);
            }
        }
    }
    reached.len() == cells.len()
}

/// An error naming the cells whose lines are missing, if any.
fn refuse_if_covered(broken: &[(usize, usize)]) -> Result<()> {
    if let Some(&(row, col)) = broken.first() {
        bail!(
            "the grid's lines are missing around {} cell(s), the first at row {}, column {}: something covers part \
             of the board (a popup or another window?)",
            broken.len(),
            row + 1,
            col + 1
        );
    }
    Ok(())
}

/// The share of the pixels inside the grid's cells, `reach` pixels clear of its lines, that are in the mask.
fn interior_share(grid: &Lattice, mask: &[bool], width: usize, reach: usize) -> f64 {
    let (mut inside, mut all) = (0usize, 0usize);
    for row in 0..grid.size() {
        for col in 0..grid.size() {
            let (xs, ys) = clear_of_lines(grid, row, col, reach);
            for y in ys {
                inside += xs.clone().filter(|&x| mask[y * width + x]).count();
                all += xs.len();
            }
        }
    }
    inside as f64 / all.max(1) as f64
}

/// The columns and rows of a cell's interior ([`Lattice::interior`]) at least `reach` pixels clear of its lines.
fn clear_of_lines(
    grid: &Lattice,
    row: usize,
    col: usize,
    reach: usize,
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let (x0, y0, x1, y1) = grid.interior(row, col);
    (x0 + reach..(x1 + 1).saturating_sub(reach), y0 + reach..(y1 + 1).saturating_sub(reach))
}

/// Pixels at most (`dark`) or at least `t` light: lines drawn plainly.
#[derive(Clone, Copy, Debug)]
struct Threshold {
    dark: bool,
    t: u8,
}

impl Threshold {
    /// The mask over a picture's luminance.
    fn mask(self, light: &[u8]) -> Vec<bool> {
        light.iter().map(|&l| if self.dark { l <= self.t } else { l >= self.t }).collect()
    }
}

/// How the pixels of a grid's lines are told from the rest of a picture.
#[derive(Clone, Copy, Debug)]
enum LineMask {
    Threshold(Threshold),
    /// Pixels of another colour (by at least [`FAINT_LINE`], largest channel) than the pixels [`RIDGE_REACH`]
    /// away on both sides, across or down (or on all four diagonals, where lines cross): lines drawn faintly,
    /// whatever the cells' shade. A dark theme draws its lines between cells at luminance 43 on cells of 33, under
    /// every fixed threshold but the one that takes its digits too, and its selection tints some cells as light as
    /// the lines (in another hue). A tint's edge is a step, which differs from one side only.
    Ridge,
}

/// A faint line's least difference from the cells on both sides of it, largest channel.
const FAINT_LINE: u8 = 6;
/// How far to each side of a pixel the cells are looked at: past a line up to `2 × RIDGE_REACH − 1` pixels wide.
const RIDGE_REACH: usize = 3;

impl LineMask {
    /// The mask over a picture whose luminance is `light`.
    fn mask(self, image: &RgbaImage, light: &[u8]) -> Vec<bool> {
        match self {
            LineMask::Threshold(threshold) => threshold.mask(light),
            LineMask::Ridge => {
                let (w, h) = (image.width() as usize, image.height() as usize);
                let rgb: Vec<[u8; 3]> = image.pixels().map(|p| [p[0], p[1], p[2]]).collect();
                let off = |i: usize, j: usize| max_diff(rgb[i], rgb[j]) >= FAINT_LINE;
                let (r, rw) = (RIDGE_REACH, RIDGE_REACH * w);
                (0..rgb.len())
                    .map(|i| {
                        let (x, y) = (i % w, i / w);
                        let across_in = x >= r && x + r < w;
                        let down_in = y >= r && y + r < h;
                        (across_in && off(i, i - r) && off(i, i + r))
                            || (down_in && off(i, i - rw) && off(i, i + rw))
                            || (across_in
                                && down_in
                                && [i - rw - r, i - rw + r, i + rw - r, i + rw + r].into_iter().all(|j| off(i, j)))
                    })
                    .collect()
            }
        }
    }
}

/// The line masks tried in turn to find a grid: dark lines at each threshold, then light ones; then faint lines.
fn masks() -> impl Iterator<Item = LineMask> {
    thresholds().map(LineMask::Threshold).chain([LineMask::Ridge])
}

/// The line masks of a fixed threshold: dark lines at each, then light ones (a terminal's characters, and the
/// lines that something may cover, are drawn plainly).
fn thresholds() -> impl Iterator<Item = Threshold> {
    let dark = DARK_LINES.iter().map(|&t| Threshold { dark: true, t });
    dark.chain(LIGHT_LINES.iter().map(|&t| Threshold { dark: false, t }))
}

/// The cells (row, column) whose top or left side is not drawn along at least half its length within `reach`
/// pixels of the grid's line (the bottom and right sides are the next cells' top and left, or the grid's
/// border): where something covers a board of lines, its lines break there.
fn broken_sides(grid: &Lattice, mask: &[bool], width: usize, reach: usize) -> Vec<(usize, usize)> {
    let height = mask.len() / width;
    let on_line = |x: usize, ys: std::ops::RangeInclusive<usize>| ys.into_iter().any(|y| mask[y * width + x]);
    let on_column = |y: usize, xs: std::ops::RangeInclusive<usize>| xs.into_iter().any(|x| mask[y * width + x]);
    let mut broken = Vec::new();
    for row in 0..grid.size() {
        for col in 0..grid.size() {
            let (top, left) = (grid.horizontals[row], grid.verticals[col]);
            let (xs, ys) = clear_of_lines(grid, row, col, reach);
            let drawn = |n: usize, total: usize| total == 0 || 2 * n >= total;
            let top_drawn = xs
                .clone()
                .filter(|&x| on_line(x, top.start.saturating_sub(reach)..=(top.end + reach).min(height - 1)))
                .count();
            let left_drawn = ys
                .clone()
                .filter(|&y| on_column(y, left.start.saturating_sub(reach)..=(left.end + reach).min(width - 1)))
                .count();
            if !drawn(top_drawn, xs.len()) || !drawn(left_drawn, ys.len()) {
                broken.push((row, col));
            }
        }
    }
    broken
}

/// The grid sizes looked for as tiles.
const TILED_SIZES: [usize; 3] = [4, 6, 9];

/// A mark's glyph, its ink's height in pixels and its distance to each name (see [`DigitShapes::costs`]).
struct Shape {
    glyph: Glyph,
    ink_height: usize,
    costs: [f64; 10],
    /// Its stroke width, in pixels ([`stroke_width`]).
    weight: f64,
}

/// What one cell shows.
/// (`cursor`: the cell shows a keyboard cursor's highlight, which the rest of it was read through.)
enum Seen {
    Empty {
        background: [u8; 3],
        cursor: bool,
    },
    Pencil {
        background: [u8; 3],
        cursor: bool,
    },
    /// A digit-sized mark: its fonts' nearest digit until the marks are named ([`super::naming`]), and its shape.
    Digit {
        value: u8,
        ink: [u8; 3],
        background: [u8; 3],
        shape: Box<Shape>,
        cursor: bool,
    },
}

impl Seen {
    fn cursor(&self) -> bool {
        match *self {
            Seen::Empty { cursor, .. } | Seen::Pencil { cursor, .. } | Seen::Digit { cursor, .. } => cursor,
        }
    }
}

/// Reads a Sudoku with no calibration: on the grid of lines found; else on boxes of a terminal's characters, and
/// where the picture shows none or they do not read, on a lattice of cells' edges (tiles). (The characters are
/// tried first: reading them costs less than finding a lattice, and a terminal's characters can look like one.)
pub fn read(image: &RgbaImage, shapes: &DigitShapes) -> Result<SudokuReading> {
    let found = find_grid_trying(image, &[Drawn::Text, Drawn::Tiles])?;
    if found.drawn != Drawn::Text {
        return read_grid(image, found, shapes);
    }
    let (x, y) = (found.grid.layout.origin_x, found.grid.layout.origin_y);
    read_grid(image, found, shapes).or_else(|text| {
        let tiles = find_grid_trying(image, &[Drawn::Tiles]).and_then(|tiles| read_grid(image, tiles, shapes));
        tiles.map_err(|error| {
            anyhow::anyhow!(
                "{error:#}; nor do the boxes drawn with characters at ({x:.0}, {y:.0}) read as a Sudoku: {text:#}"
            )
        })
    })
}

/// Reads a Sudoku on a grid found with no calibration: in a picture of a window whose grid an earlier picture
/// showed, that grid, without looking for it again (what a client draws over its board for the selection, a
/// tinted row, column and box, can show lines that are no grid's).
pub fn read_on(image: &RgbaImage, found: &FoundGrid, shapes: &DigitShapes) -> Result<SudokuReading> {
    let inside = |line: &crate::vision::lattice::Line, side: u32| line.end < side as usize;
    let (last_column, last_row) = (found.grid.verticals.last(), found.grid.horizontals.last());
    if !last_column.is_some_and(|l| inside(l, image.width())) || !last_row.is_some_and(|l| inside(l, image.height())) {
        bail!("the picture no longer holds the grid found earlier");
    }
    read_grid(image, found.clone(), shapes)
}

/// Reads a Sudoku on a grid found with no calibration.
fn read_grid(image: &RgbaImage, FoundGrid { grid, drawn }: FoundGrid, shapes: &DigitShapes) -> Result<SudokuReading> {
    let found = FoundGrid { grid: grid.clone(), drawn };
    if grid.size() > 9 {
        bail!(
            "a {0}×{0} grid has symbols beyond 9, which are known only from a calibration theme (`autoplay calibrate sudoku`)",
            grid.size()
        );
    }
    // (A terminal's characters are named together by the rules whatever their size: see below.)
    if drawn != Drawn::Text && grid.layout.side() < MIN_PITCH {
        bail!(
            "the cells are {:.1} pixels, and digits in cells under {MIN_PITCH} pixels are hinted too differently by every \
             font to read without a calibration theme learned at their size (`autoplay calibrate sudoku`)",
            grid.layout.side()
        );
    }
    let mut seen = Vec::with_capacity(grid.size() * grid.size());
    for row in 0..grid.size() {
        for col in 0..grid.size() {
            seen.push(read_cell(image, &grid, drawn, row, col, shapes)?);
        }
    }
    let mut board = SudokuGrid::empty(grid.boxes().rows, grid.boxes().cols);
    let mut pencil = Vec::new();
    for (i, s) in seen.iter().enumerate() {
        match s {
            Seen::Digit { value, .. } => board.cells[i] = *value,
            Seen::Pencil { .. } => pencil.push((i / grid.size(), i % grid.size())),
            Seen::Empty { .. } => {}
        }
    }
    board.given = givens(&seen, grid.size());
    // The marks named together, by what the board must be (the fonts' nearest digits as the first guess).
    let marks: Vec<Mark> = seen
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Seen::Digit { shape, .. } => Some(Mark {
                cell: i,
                glyph: shape.glyph.clone(),
                ink_height: shape.ink_height,
                given: board.given[i],
                costs: shape.costs,
            }),
            _ => None,
        })
        .collect();
    // A digit under the cursor, seen through its highlight, is held to no rule while the marks are named (its
    // look does not tell whether it is a given); it is a given when the most of the others of its shape are, or
    // where only as a given does it make the givens a puzzle of one solution (as a puzzle is set).
    let classes = shape_class_of(&marks);
    let mut marks = marks;
    let mut under_cursor = None;
    let cursor_marks: Vec<usize> = (0..marks.len()).filter(|&k| seen[marks[k].cell].cursor()).collect();
    for k in cursor_marks {
        let mates: Vec<bool> =
            (0..marks.len()).filter(|&j| j != k && classes[j] == classes[k]).map(|j| marks[j].given).collect();
        marks[k].given = !mates.is_empty() && 2 * mates.iter().filter(|&&g| g).count() > mates.len();
        under_cursor = Some(k);
    }
    let mut board = named_board(&board, &marks, &grid, Givens::Solvable)?;
    if let Some(k) = under_cursor.filter(|&k| !marks[k].given) {
        if !has_one_solution(&board) {
            marks[k].given = true;
            if let Ok(as_given) = named_board(&board, &marks, &grid, Givens::OneSolution) {
                board = as_given;
            }
        }
    }
    let cursors: Vec<usize> = (0..seen.len()).filter(|&i| seen[i].cursor()).collect();
    let cursor = match cursors[..] {
        [i] => Some((i / grid.size(), i % grid.size())),
        _ => None,
    };
    if !board.given.iter().any(|&g| g) {
        bail!(
            "no Sudoku found: the {0} ({1}×{1} cells at ({2:.0}, {3:.0})) shows no digit",
            if drawn == Drawn::Tiles { "lattice of cells" } else { "grid" },
            grid.size(),
            grid.layout.origin_x,
            grid.layout.origin_y
        );
    }
    let shapes = seen
        .iter()
        .map(|s| match s {
            Seen::Digit { shape, .. } => Some((shape.glyph.clone(), shape.ink_height)),
            _ => None,
        })
        .collect();
    Ok(SudokuReading {
        grid: board,
        layout: grid.layout,
        theme: FOUND_THEME.into(),
        pencil,
        clashes: Vec::new(),
        cursor,
        found: Some(found),
        shapes,
    })
}

/// `board` with the marks as named (see [`name_marks`]), each a given as marked.
fn named_board(board: &SudokuGrid, marks: &[Mark], grid: &Lattice, givens: Givens) -> Result<SudokuGrid> {
    let mut board = board.clone();
    let named = name_marks(marks, grid.boxes().rows, grid.boxes().cols, givens);
    // (Marks no naming makes a Sudoku of are told with the lattice they were found on.)
    let names = named.map_err(|error| match error.downcast::<Unnamable>() {
        Ok(unnamable) => unnamable.on(&grid.layout).into(),
        Err(error) => error,
    })?;
    for (mark, name) in marks.iter().zip(names) {
        board.cells[mark.cell] = name;
        board.given[mark.cell] = mark.given && name != 0;
    }
    Ok(board)
}

/// Whether the board's givens have exactly one solution.
fn has_one_solution(board: &SudokuGrid) -> bool {
    board.givens_grid().is_ok_and(|grid| count_solutions(&grid, 2) == 1)
}

/// Which digits are givens (see the module's documentation).
fn givens(seen: &[Seen], size: usize) -> Vec<bool> {
    let digits: Vec<(usize, [u8; 3], [u8; 3])> = seen
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match *s {
            // (A digit seen through a cursor's highlight has the highlight's colours, not its own.)
            Seen::Digit { ink, background, cursor: false, .. } => Some((i, ink, background)),
            _ => None,
        })
        .collect();
    // The inks, grouped greedily (each joins the first group whose first ink is near).
    let mut inks: Vec<([u8; 3], usize)> = Vec::new();
    let group: Vec<usize> = digits
        .iter()
        .map(|&(_, ink, _)| match inks.iter().position(|&(first, _)| max_diff(first, ink) <= SAME_INK) {
            Some(k) => {
                inks[k].1 += 1;
                k
            }
            None => {
                inks.push((ink, 1));
                inks.len() - 1
            }
        })
        .collect();
    let plainest = (0..inks.len())
        .min_by(|&a, &b| saturation(inks[a].0).total_cmp(&saturation(inks[b].0)).then(inks[b].1.cmp(&inks[a].1)));
    let mut given = vec![false; seen.len()];
    // A background that empty cells do not have, shared by enough digits to be the givens' (a puzzle has at
    // least about half a side of givens), not a highlighted cell or two: the givens are on it. Backgrounds are
    // compared by which of the two they are nearer, as shaded or textured tiles differ a little from cell to cell.
    // What a client shows of its selection is no such background: a tint over the selected cell's row, column
    // and box covers empty cells too (at most one empty cell, the selected one, may share the givens'), and a
    // tint over the cells holding the selected digit holds one digit, where the givens of a puzzle of one
    // solution hold all digits but one at least.
    let empty: Vec<[u8; 3]> = seen
        .iter()
        .filter_map(|s| match *s {
            Seen::Empty { background, .. } | Seen::Pencil { background, .. } => Some(background),
            Seen::Digit { .. } => None,
        })
        .collect();
    if let Some(empty_background) = median(&empty) {
        // The digits' backgrounds off the empty cells', grouped greedily; the largest group is the candidate.
        let mut groups: Vec<Vec<[u8; 3]>> = Vec::new();
        for bg in digits.iter().map(|d| d.2).filter(|&bg| distance(bg, empty_background) >= SAME_BACKGROUND as f64) {
            match groups.iter_mut().find(|g| distance(g[0], bg) < SAME_TILE) {
                Some(group) => group.push(bg),
                None => groups.push(vec![bg]),
            }
        }
        let largest = groups.into_iter().max_by_key(Vec::len).unwrap_or_default();
        if let Some(given_background) = median(&largest) {
            let on_given = |bg: [u8; 3]| {
                let d = distance(bg, given_background);
                d < SAME_TILE && d < distance(bg, empty_background)
            };
            let empty_on_it = empty.iter().filter(|&&bg| on_given(bg)).count();
            let mut values: Vec<u8> = digits.iter().filter(|d| on_given(d.2)).map(|d| value_of(&seen[d.0])).collect();
            values.sort_unstable();
            values.dedup();
            if digits.iter().filter(|d| on_given(d.2)).count() >= (size / 2).max(2)
                && empty_on_it <= 1
                && values.len() + 1 >= size
            {
                for &(i, _, bg) in &digits {
                    given[i] = on_given(bg);
                }
                return given;
            }
        }
    }
    if inks.len() == 1 {
        // One ink: where the marks of one shape come in two weights (a terminal prints the givens bold, the
        // player's digits plain), the plain ones are the player's. (Weights are compared only between marks the
        // fonts take for one digit: a stroke's width depends on the digit.)
        let mut split = false;
        for value in 1..=9 {
            let alike: Vec<(usize, f64)> = digits
                .iter()
                .filter(|&&(i, ..)| matches!(seen[i], Seen::Digit { value: v, .. } if v == value))
                .map(|&(i, ..)| (i, weight_of(&seen[i])))
                .collect();
            let weights: Vec<f64> = alike.iter().map(|&(_, w)| w).collect();
            if let Some(bold_from) = bold_threshold(&weights) {
                split = true;
                for &(i, weight) in &alike {
                    given[i] = weight >= bold_from;
                }
            } else {
                for &(i, _) in &alike {
                    given[i] = true;
                }
            }
        }
        if split {
            return given;
        }
    }
    for (&(i, _, _), &k) in digits.iter().zip(&group) {
        given[i] = Some(k) == plainest;
    }
    given
}

/// Two stroke weights are told apart when the bolder's median is at least this many times the lighter's, and
/// no weight lies between them closer than this ratio to either.
const BOLDER: f64 = 1.25;
const WEIGHT_GAP: f64 = 1.15;

/// A digit's first guess (the fonts' nearest digit).
fn value_of(seen: &Seen) -> u8 {
    match seen {
        Seen::Digit { value, .. } => *value,
        _ => 0,
    }
}

fn weight_of(seen: &Seen) -> f64 {
    match seen {
        Seen::Digit { shape, .. } => shape.weight,
        _ => 0.0,
    }
}

/// Where the weights (of marks of one shape) fall in two groups (see [`BOLDER`]), the least weight of the bolder
/// group.
fn bold_threshold(weights: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = weights.to_vec();
    sorted.sort_by(f64::total_cmp);
    let k = (1..sorted.len()).max_by(|&a, &b| (sorted[a] / sorted[a - 1]).total_cmp(&(sorted[b] / sorted[b - 1])))?;
    let (light, bold) = (&sorted[..k], &sorted[k..]);
    let median = |v: &[f64]| v[v.len() / 2];
    (sorted[k] / sorted[k - 1] >= WEIGHT_GAP && median(bold) >= BOLDER * median(light)).then_some(sorted[k])
}

/// A glyph's stroke width in pixels: the ink across a run of it along a row, the lower third of them (the runs
/// across its upright and curved strokes, which a bold face widens, and a font made bold by smearing widens
/// alone; not along its bars).
fn stroke_width(alpha: &[f32], w: usize) -> f64 {
    let mut runs: Vec<f64> = Vec::new();
    for row in alpha.chunks(w) {
        let mut run = 0.0;
        for &a in row.iter().chain([&0.0]) {
            if a >= 0.25 {
                run += a as f64;
            } else if run > 0.0 {
                runs.push(run);
                run = 0.0;
            }
        }
    }
    runs.sort_by(f64::total_cmp);
    runs.get(runs.len() / 3).copied().unwrap_or(0.0)
}

/// The per-channel median of some colours, if any.
fn median(colours: &[[u8; 3]]) -> Option<[u8; 3]> {
    if colours.is_empty() {
        return None;
    }
    Some(std::array::from_fn(|c| {
        let mut channel: Vec<u8> = colours.iter().map(|p| p[c]).collect();
        channel.sort_unstable();
        channel[channel.len() / 2]
    }))
}

/// The per-channel median of the pixels on a box's border.
fn median_border(image: &RgbaImage, (x0, y0, x1, y1): (usize, usize, usize, usize)) -> [u8; 3] {
    let mut border: Vec<[u8; 3]> = Vec::new();
    for x in x0..=x1 {
        border.push(rgb_at(image, x, y0));
        border.push(rgb_at(image, x, y1));
    }
    for y in y0 + 1..y1 {
        border.push(rgb_at(image, x0, y));
        border.push(rgb_at(image, x1, y));
    }
    median(&border).expect("a box has a border")
}

/// Saturation (HSV), 0–1.
fn saturation(rgb: [u8; 3]) -> f64 {
    let max = *rgb.iter().max().expect("3") as f64;
    let min = *rgb.iter().min().expect("3") as f64;
    if max == 0.0 {
        0.0
    } else {
        (max - min) / max
    }
}

fn distance(a: [u8; 3], b: [u8; 3]) -> f64 {
    (0..3).map(|i| (a[i] as f64 - b[i] as f64).powi(2)).sum::<f64>().sqrt()
}

fn read_cell(
    image: &RgbaImage,
    grid: &Lattice,
    drawn: Drawn,
    row: usize,
    col: usize,
    shapes: &DigitShapes,
) -> Result<Seen> {
    let (x0, y0, x1, y1) = grid.interior(row, col);
    // In from the lines, which may be blended into the cell: one pixel; from a tile's edge, past its bevel.
    let inset = match drawn {
        Drawn::Tiles => (grid.layout.side() * TILE_INSET).round() as usize,
        Drawn::Lines => 1,
        // (A cell is the step around its character, and the lines are characters apart.)
        Drawn::Text => 0,
    };
    let (x0, y0, x1, y1) = (x0 + inset, y0 + inset, x1.saturating_sub(inset), y1.saturating_sub(inset));
    if x1 < x0 + 4 || y1 < y0 + 4 {
        bail!("the cells are too small to read ({:.1} pixels)", grid.layout.side());
    }
    // A tile may be shaded or textured: its background is its border's median, not its commonest colour.
    let tiled = drawn == Drawn::Tiles;
    let bg = if tiled { median_border(image, (x0, y0, x1, y1)) } else { background(image, (x0, y0, x1, y1)) };
    let empty_background = bg;
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut pixels: Vec<[u8; 3]> = (0..w * h).map(|i| rgb_at(image, x0 + i % w, y0 + i / w)).collect();
    // A keyboard cursor's highlight is neither a digit nor a given: inside a block the block is the background;
    // a frame is rubbed out.
    // (A tile's face is read apart from its bevel and frames below.)
    let highlight = if tiled { None } else { cursor_highlight(&pixels, w, bg) };
    if drawn == Drawn::Text && highlight.is_none() {
        rub_out_slivers(&mut pixels, w, bg);
        rub_out_line_cursor(&mut pixels, w, bg);
    }
    let (w, h, pixels, bg) = match highlight {
        Some(Highlight::Block { x0, y0, x1, y1, colour }) => {
            let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
            let inside = (0..bw * bh).map(|i| pixels[(y0 + i / bw) * w + x0 + i % bw]).collect();
            (bw, bh, inside, colour)
        }
        Some(Highlight::Frame { ref rubbed }) => {
            for &i in rubbed {
                pixels[i] = bg;
            }
            (w, h, pixels, bg)
        }
        None => (w, h, pixels, bg),
    };
    let cursor = highlight.is_some();
    let empty = Seen::Empty { background: empty_background, cursor };
    let far = pixels.iter().map(|&p| distance(p, bg)).fold(0.0, f64::max);
    if !pixels.iter().any(|&p| max_diff(p, bg) > INK_THRESHOLD) {
        return Ok(empty);
    }
    // The ink: the mean of the pixels furthest from the background.
    let inked: Vec<[u8; 3]> = pixels.iter().copied().filter(|&p| distance(p, bg) >= 0.85 * far).collect();
    let ink: [u8; 3] =
        std::array::from_fn(|c| (inked.iter().map(|p| p[c] as u32).sum::<u32>() / inked.len() as u32) as u8);
    let mut alpha: Vec<f32> = pixels
        .iter()
        .map(|&p| if max_diff(p, bg) > INK_THRESHOLD / 2 { coverage(p, bg, ink).0 } else { 0.0 })
        .collect();
    if tiled {
        // Thin marks along the edge of where the digit is looked for are the tile's bevel or frame, or a
        // selection outline, not the digit (which may touch the edge where the lattice sits a little off).
        let border: Vec<usize> =
            (0..w).flat_map(|x| [x, (h - 1) * w + x]).chain((0..h).flat_map(|y| [y * w, y * w + w - 1])).collect();
        let mut seen = vec![false; w * h];
        for &seed in &border {
            if seen[seed] || alpha[seed] < 0.5 {
                continue;
            }
            let mut mark = Vec::new();
            flood8(w, w * h, [seed], |i| alpha[i] >= 0.5, &mut seen, |i| mark.push(i));
            let (xs, ys) = (mark.iter().map(|&i| i % w), mark.iter().map(|&i| i / w));
            let across = (xs.clone().max().unwrap_or(0) - xs.min().unwrap_or(0) + 1)
                .min(ys.clone().max().unwrap_or(0) - ys.min().unwrap_or(0) + 1);
            if (across as f64) <= FRAME_THICKNESS * w.min(h) as f64 {
                for i in mark {
                    alpha[i] = 0.0;
                }
            }
        }
    }
    let strong: Vec<bool> = alpha.iter().map(|&a| a >= 0.5).collect();
    if strong.iter().filter(|&&s| s).count() < 3 {
        return Ok(empty);
    }
    let pitch = grid.layout.pitch_y;
    // In the cell the bot just typed into, small marks stacked into a digit's height and width are one digit drawn
    // in pieces (a seven-segment digit's strokes), not pencil marks.
    // Elsewhere, such a stack of one of the shapes the client drew for a digit typed is that digit.
    let typed_here = shapes.typed().is_some_and(|(cell, _)| cell == row * grid.size() + col);
    let stacked = ink_box(&alpha, w, 0.5)
        .filter(|&(bx0, by0, bx1, by1)| {
            (by1 - by0 + 1) as f64 >= STACK_HEIGHT * pitch && ((bx1 - bx0 + 1) as f64) <= STACK_WIDTH * pitch
        })
        .is_some_and(|bbox| typed_here || shapes.is_taught(&Glyph::cut(&alpha, w, bbox), bbox.3 - bbox.1 + 1));
    if (tallest_mark(&strong, w) as f64) < PENCIL_HEIGHT * pitch && !stacked {
        // One small dot is the client's mark of an empty cell (a terminal's '.'); pencil marks are several.
        if one_mark(&strong, w) {
            return Ok(empty);
        }
        return Ok(Seen::Pencil { background: empty_background, cursor });
    }
    let Some(bbox) = ink_box(&alpha, w, 0.5) else { return Ok(empty) };
    let (glyph, ink_height) = (Glyph::cut(&alpha, w, bbox), bbox.3 - bbox.1 + 1);
    let costs = shapes.costs_in(row * grid.size() + col, &glyph, ink_height);
    let mut order: Vec<usize> = (0..10).collect();
    order.sort_by(|&a, &b| costs[a].total_cmp(&costs[b]));
    // A sure mark over an empty cell (a cross on a cell with no possible digit) is no digit; every other mark is
    // named with the others, by what the board must be.
    if order[0] == 0 && is_sure(costs[0], costs[order[1]]) {
        return Ok(empty);
    }
    let weight = stroke_width(&alpha, w);
    let shape = Box::new(Shape { glyph, ink_height, costs, weight });
    Ok(Seen::Digit { value: order[0] as u8, ink, background: empty_background, shape, cursor })
}

/// A keyboard cursor's highlight in a cell (see [`cursor_highlight`]).
#[derive(Clone, Debug, PartialEq)]
enum Highlight {
    /// A block of another colour (reverse video, a character cell's coloured background): the box it fills, and
    /// its colour, the background of what is inside.
    Block { x0: usize, y0: usize, x1: usize, y1: usize, colour: [u8; 3] },
    /// A frame around the character: the frame's pixels (indices into the cell's).
    Frame { rubbed: Vec<usize> },
}

/// A side of a box is drawn when at least this share of it is off the background.
const SIDE_DRAWN: f64 = 0.9;
/// A highlight is at least this share of the cell's height; a block, this share (a digit is shorter than its
/// cell).
const HIGHLIGHT_HEIGHT: f64 = 0.5;
const BLOCK_HEIGHT: f64 = 0.85;

/// The cursor's highlight among the cell's pixels (`w` wide) on background `bg`: the largest mark off the
/// background, at least half the cell tall, whose box is drawn along all four sides (no digit is: a digit's
/// corners are open or rounded) is a frame; one nearly as tall as the cell and mostly filled is a block.
fn cursor_highlight(pixels: &[[u8; 3]], w: usize, bg: [u8; 3]) -> Option<Highlight> {
    let h = pixels.len() / w;
    let off: Vec<bool> = pixels.iter().map(|&p| max_diff(p, bg) > INK_THRESHOLD).collect();
    let box_of = |marked: &mut dyn Iterator<Item = usize>| {
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for i in marked {
            (x0, y0, x1, y1) = (x0.min(i % w), y0.min(i / w), x1.max(i % w), y1.max(i / w));
        }
        (x0 <= x1).then_some((x0, y0, x1, y1))
    };
    let filled = |(x0, y0, x1, y1): (usize, usize, usize, usize)| {
        let inside = (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| y * w + x));
        inside.clone().filter(|&i| off[i]).count() as f64 / inside.count() as f64
    };
    // A block: a character cell's highlight, as tall as the cell (a terminal's line is taller than its digits) and
    // mostly filled; all of the cell's marks together, as a reverse-video digit may cut its block in pieces.
    let all = box_of(&mut (0..off.len()).filter(|&i| off[i]))?;
    if (all.3 - all.1 + 1) as f64 >= BLOCK_HEIGHT * h as f64 && all.2 >= all.0 + 2 && filled(all) > 0.5 {
        let (x0, y0, x1, y1) = all;
        let inside: Vec<[u8; 3]> =
            (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| y * w + x)).filter(|&i| off[i]).map(|i| pixels[i]).collect();
        let colour = median(&inside).expect("a block has pixels");
        return Some(Highlight::Block { x0, y0, x1, y1, colour });
    }
    // A frame: the largest mark, at least half the cell tall, drawn along all four sides of its box.
    // (The first of the largest, as `max_by_key` keeps the last.)
    let largest = marks_from(&off, w, 0..off.len()).into_iter().rev().max_by_key(Vec::len)?;
    let (x0, y0, x1, y1) = box_of(&mut largest.iter().copied())?;
    if x1 < x0 + 2 || ((y1 - y0 + 1) as f64) < HIGHLIGHT_HEIGHT * h as f64 {
        return None;
    }
    let drawn = |cells: &mut dyn Iterator<Item = (usize, usize)>, len: usize| {
        cells.filter(|&(x, y)| off[y * w + x]).count() as f64 >= SIDE_DRAWN * len as f64
    };
    let sides_drawn = |x0: usize, y0: usize, x1: usize, y1: usize| {
        drawn(&mut (x0..=x1).map(|x| (x, y0)), x1 - x0 + 1)
            && drawn(&mut (x0..=x1).map(|x| (x, y1)), x1 - x0 + 1)
            && drawn(&mut (y0..=y1).map(|y| (x0, y)), y1 - y0 + 1)
            && drawn(&mut (y0..=y1).map(|y| (x1, y)), y1 - y0 + 1)
    };
    if !sides_drawn(x0, y0, x1, y1) {
        return None;
    }
    // Its sides peeled off while they are drawn (a frame a few pixels thick).
    let (mut a, mut b, mut c, mut d) = (x0, y0, x1, y1);
    let mut rubbed = Vec::new();
    while c > a + 2 && d > b + 2 && sides_drawn(a, b, c, d) {
        rubbed.extend((a..=c).flat_map(|x| [b * w + x, d * w + x]));
        rubbed.extend((b..=d).flat_map(|y| [y * w + a, y * w + c]));
        (a, b, c, d) = (a + 1, b + 1, c - 1, d - 1);
    }
    Some(Highlight::Frame { rubbed })
}

/// Rubs out the marks one pixel tall along the top or bottom edge of a terminal cell that shows no highlight of
/// its own: the edge of a neighbour's (a line of characters is cut between pixels only to within one).
fn rub_out_slivers(pixels: &mut [[u8; 3]], w: usize, bg: [u8; 3]) {
    let h = pixels.len() / w;
    let off: Vec<bool> = pixels.iter().map(|&p| max_diff(p, bg) > INK_THRESHOLD).collect();
    for mark in marks_from(&off, w, (0..w).chain((h - 1) * w..h * w)) {
        let (top, bottom) = (mark.iter().map(|&i| i / w).min(), mark.iter().map(|&i| i / w).max());
        if let (Some(top), Some(bottom)) = (top, bottom) {
            if bottom == top {
                for i in mark {
                    pixels[i] = bg;
                }
            }
        }
    }
}

/// Rubs out a terminal's own cursor drawn as a line in a character cell (`w` wide): an underline — a flat stroke,
/// at most an eighth of the cell tall and three times as wide as tall, under every other mark (a digit's own
/// strokes join it; no digit is a flat stroke alone) — or a bar — a thin upright stroke left of every other mark
/// and taller than all of them (a terminal's line is taller than its digits, and a `1` is no taller than other
/// digits).
fn rub_out_line_cursor(pixels: &mut [[u8; 3]], w: usize, bg: [u8; 3]) {
    let h = pixels.len() / w;
    let off: Vec<bool> = pixels.iter().map(|&p| max_diff(p, bg) > INK_THRESHOLD).collect();
    let marks = marks_from(&off, w, 0..off.len());
    let boxes: Vec<(usize, usize, usize, usize)> = marks
        .iter()
        .map(|m| {
            let (xs, ys) = (m.iter().map(|&i| i % w), m.iter().map(|&i| i / w));
            (xs.clone().min().unwrap_or(0), ys.clone().min().unwrap_or(0), xs.max().unwrap_or(0), ys.max().unwrap_or(0))
        })
        .collect();
    let others = |k: usize| boxes.iter().enumerate().filter(move |&(j, _)| j != k).map(|(_, b)| *b);
    let line = (0..marks.len()).find(|&k| {
        let (x0, y0, x1, y1) = boxes[k];
        let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
        let underline = bh * 8 <= h.max(16) && bw >= 3 * bh && bw * 4 >= w && others(k).all(|o| o.3 < y0);
        let bar = bw * 8 <= w.max(16)
            && bh >= 3 * bw
            && others(k).next().is_some()
            && others(k).all(|o| o.0 > x1 && y0 < o.1 && y1 > o.3);
        underline || bar
    });
    if let Some(k) = line {
        for &i in &marks[k] {
            pixels[i] = bg;
        }
    }
}

/// The 8-connected marks of a `w`-wide mask that include one of `starts` (each mark's pixel indices).
fn marks_from(mask: &[bool], w: usize, starts: impl IntoIterator<Item = usize>) -> Vec<Vec<usize>> {
    let mut seen = vec![false; mask.len()];
    let mut marks = Vec::new();
    for start in starts {
        if mask[start] && !seen[start] {
            let mut mark = Vec::new();
            flood8(w, mask.len(), [start], |i| mask[i], &mut seen, |i| mark.push(i));
            marks.push(mark);
        }
    }
    marks
}

/// Whether the mask holds a single connected mark.
fn one_mark(mask: &[bool], w: usize) -> bool {
    marks_from(mask, w, 0..mask.len()).len() == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: [u8; 3] = [255; 3];
    const BLACK: [u8; 3] = [0; 3];

    /// A `w`×`h` cell of white, with the pixels `f(x, y)` says black.
    fn cell(w: usize, h: usize, f: impl Fn(usize, usize) -> bool) -> Vec<[u8; 3]> {
        (0..w * h).map(|i| if f(i % w, i / w) { BLACK } else { WHITE }).collect()
    }

    /// A '7' drawn as a bar and a stem: no highlight, whatever its weight.
    fn seven(x: usize, y: usize) -> bool {
        (2..=8).contains(&x) && (2..=3).contains(&y) || (7..=8).contains(&x) && (2..=12).contains(&y)
    }

    /// A terminal's underline cursor under a '7', or alone in an empty cell, and a bar cursor before it, are rubbed
    /// out; the '7' is not, nor a '1' (a thin upright stroke no taller than the other marks).
    #[test]
    fn a_terminals_underline_or_bar_cursor_is_rubbed_out_and_no_digit_is() {
        let (w, h) = (24, 24);
        let rubbed = |f: &dyn Fn(usize, usize) -> bool| {
            let mut pixels = cell(w, h, f);
            rub_out_line_cursor(&mut pixels, w, WHITE);
            pixels.iter().filter(|&&p| p == BLACK).count()
        };
        let seven_in = |x: usize, y: usize| x >= 6 && y >= 4 && seven(x - 6, y - 4);
        let sevens = rubbed(&seven_in);
        assert_eq!(rubbed(&|x, y| seven_in(x, y) || (y == 20 && (6..=16).contains(&x))), sevens, "an underline");
        assert_eq!(rubbed(&|x, y| seven_in(x, y) || (x == 4 && (1..=22).contains(&y))), sevens, "a bar");
        assert_eq!(rubbed(&|x, y| y == 20 && (6..=16).contains(&x)), 0, "an underline alone");
        let one = |x: usize, y: usize| (11..=12).contains(&x) && (6..=16).contains(&y);
        assert_eq!(rubbed(&one), rubbed(&|_, _| false) + 22, "a 1 is no bar");
    }

    #[test]
    fn a_reverse_video_block_is_the_background_of_what_is_inside_it() {
        // A block as tall as the cell, columns 3–9, with a white '7' cut out of it (reaching its side).
        let pixels = cell(14, 15, |x, y| (3..=9).contains(&x) && !seven(x, y));
        match cursor_highlight(&pixels, 14, WHITE) {
            Some(Highlight::Block { x0, y0, x1, y1, colour }) => {
                assert_eq!((x0, y0, x1, y1, colour), (3, 0, 9, 14, BLACK));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_frame_is_rubbed_out_and_a_digit_is_no_highlight() {
        let inside = |v: usize| (1..=14).contains(&v);
        let framed =
            cell(16, 16, |x, y| inside(x) && inside(y) && (x == 1 || x == 14 || y == 1 || y == 14) || seven(x, y));
        let found = cursor_highlight(&framed, 16, WHITE);
        let Some(Highlight::Frame { rubbed }) = found else { panic!("no frame: {found:?}") };
        assert!(rubbed.contains(&(16 + 1)) && !rubbed.contains(&(3 * 16 + 5)), "the frame, not the digit");
        assert_eq!(cursor_highlight(&cell(16, 16, seven), 16, WHITE), None);
        // A bold '0' fills its box's sides but not its corners.
        let zero = cell(16, 16, |x, y| {
            let (dx, dy) = (x as f64 - 7.5, (y as f64 - 7.5) / 1.3);
            (2.5..=4.5).contains(&(dx * dx + dy * dy).sqrt())
        });
        assert_eq!(cursor_highlight(&zero, 16, WHITE), None);
    }

    #[test]
    fn two_weights_of_one_shape_split_and_one_weight_does_not() {
        assert_eq!(bold_threshold(&[1.0, 2.0, 2.0, 1.0, 2.1]), Some(2.0));
        assert_eq!(bold_threshold(&[2.3, 2.4, 2.2, 2.5]), None);
        assert_eq!(bold_threshold(&[2.0]), None);
    }

    /// A shape taught for a digit costs nothing as that digit from then on; a shape of another look is read by the
    /// fonts as before.
    #[test]
    fn a_taught_shape_is_read_as_its_digit_and_no_other_shape_is() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration");
        let mut shapes = DigitShapes::load(&root).unwrap();
        let taught = Glyph::drawn(&["#....#", "#....#", "######", ".....#", ".....#", ".....#"]);
        let other = Glyph::drawn(&["######", ".....#", "######", "#.....", "#.....", "######"]);
        let (taught_before, other_before) = (shapes.costs(&taught.0, 6), shapes.costs(&other.0, 6));
        assert!(taught_before[4] > 0.0);
        shapes.teach(taught.clone(), 4);
        let after = shapes.costs(&taught.0, 6);
        assert_eq!(after[4], 0.0);
        assert_eq!(&after[..4], &taught_before[..4]);
        assert_eq!(shapes.costs(&other.0, 6), other_before);
    }
}
