//! What a Sudoku reads as, whichever reader read it (the calibrated one, [`super::reader`], or the one with no
//! calibration, [`super::discover`]): the grid with its layout and what the picture showed besides digits
//! ([`SudokuReading`]), the grid found with no calibration ([`FoundGrid`]), and the measures of a cell's pixels both
//! readers take (its background, a pixel's ink coverage, the tallest mark of ink).

use image::RgbaImage;

use crate::game::CellLayout;
use crate::games::sudoku::SudokuGrid;
use crate::vision::colour::rgb_at;
use crate::vision::glyph::Glyph;
use crate::vision::lattice::{Lattice, Line};
use crate::vision::runs::flood8;

/// A reader's failure to find any grid in the picture, as against a grid found that does not read (or is cut off,
/// or covered): where the themes find no grid and the search with no calibration finds one, the search's failure
/// is the one reported ([`super::read_any`]). It says what the reader found, in the reader's own words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NoGrid(pub String);

/// A Sudoku read from a picture.
#[derive(Clone, Debug)]
pub struct SudokuReading {
    pub grid: SudokuGrid,
    pub layout: CellLayout,
    pub theme: String,
    /// Empty cells showing pencil marks, (row, column).
    pub pencil: Vec<(usize, usize)>,
    /// Cells drawn in the clash colour, (row, column).
    pub clashes: Vec<(usize, usize)>,
    /// The one cell a keyboard cursor highlights (reverse video, a block or frame of its own), (row, column),
    /// where the picture shows one.
    pub cursor: Option<(usize, usize)>,
    /// The grid the digits were read on, where it was found with no calibration.
    pub found: Option<FoundGrid>,
    /// Each cell's mark (its glyph and ink height), where it was read with no calibration: what a digit the bot
    /// typed looks like in this client ([`super::discover::DigitShapes::teach`]). Empty otherwise.
    pub shapes: Vec<Option<(Glyph, usize)>>,
}

/// A grid found with no calibration, and how it was drawn.
#[derive(Clone, Debug)]
pub struct FoundGrid {
    pub grid: Lattice,
    pub drawn: Drawn,
}

/// How a grid found with no calibration is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// Lines between all the cells.
    Lines,
    /// Tiles: bevelled or textured cells whose borders are not lines, read from further inside.
    Tiles,
    /// Only the boxes, with lines of characters in a terminal ([`crate::vision::lattice::character_boxes`]); the cells are
    /// the characters inside, which may be small.
    Text,
}

impl FoundGrid {
    /// The grid with each cell's interior where its digit is looked for (a tile's face, past its bevel).
    pub fn faces(self) -> Lattice {
        match self.drawn {
            Drawn::Tiles => faces_of_tiles(self.grid),
            Drawn::Lines | Drawn::Text => self.grid,
        }
    }
}

/// How far inside a tile's edge (a share of the pitch) its digit is looked for: past the bevel.
pub(super) const TILE_INSET: f64 = 0.18;

/// The grid of tiles with each line widened by the tiles' bevels, so that a cell's interior is its tile's face.
pub fn faces_of_tiles(mut grid: Lattice) -> Lattice {
    let inset = (grid.layout.side() * TILE_INSET).round() as usize;
    for line in grid.verticals.iter_mut().chain(grid.horizontals.iter_mut()) {
        *line = Line { start: line.start.saturating_sub(inset), end: line.end + inset };
    }
    grid
}

/// The most common colour on the ring of pixels just inside a cell's lines: the cell's background.
pub(super) fn background(image: &RgbaImage, (x0, y0, x1, y1): (usize, usize, usize, usize)) -> [u8; 3] {
    let mut counts: Vec<([u8; 3], usize)> = Vec::with_capacity(8);
    let mut add = |rgb: [u8; 3]| match counts.iter_mut().find(|(c, _)| *c == rgb) {
        Some(entry) => entry.1 += 1,
        None => counts.push((rgb, 1)),
    };
    for x in x0..=x1 {
        add(rgb_at(image, x, y0));
        add(rgb_at(image, x, y1));
    }
    for y in y0 + 1..y1 {
        add(rgb_at(image, x0, y));
        add(rgb_at(image, x1, y));
    }
    counts.iter().max_by_key(|(_, n)| *n).map(|(c, _)| *c).unwrap_or([255; 3])
}

/// How far along from `bg` towards `ink` a pixel is (its ink coverage), and how far off that line it lies.
pub(super) fn coverage(p: [u8; 3], bg: [u8; 3], ink: [u8; 3]) -> (f32, f32) {
    let d: [f32; 3] = std::array::from_fn(|i| ink[i] as f32 - bg[i] as f32);
    let v: [f32; 3] = std::array::from_fn(|i| p[i] as f32 - bg[i] as f32);
    let dd = d.iter().map(|x| x * x).sum::<f32>().max(1.0);
    let a = (v.iter().zip(&d).map(|(a, b)| a * b).sum::<f32>() / dd).clamp(0.0, 1.0);
    let residual = (0..3).map(|i| (v[i] - a * d[i]).powi(2)).sum::<f32>();
    (a, residual)
}

/// The height, in pixels, of the tallest 8-connected group of `true` pixels of a `w`-wide mask.
pub(super) fn tallest_mark(mask: &[bool], w: usize) -> usize {
    let mut seen = vec![false; mask.len()];
    let mut tallest = 0;
    for start in 0..mask.len() {
        let (mut top, mut bottom) = (usize::MAX, 0);
        flood8(
            w,
            mask.len(),
            [start],
            |i| mask[i],
            &mut seen,
            |i| {
                top = top.min(i / w);
                bottom = bottom.max(i / w);
            },
        );
        if top != usize::MAX {
            tallest = tallest.max(bottom - top + 1);
        }
    }
    tallest
}
