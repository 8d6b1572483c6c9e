//! Finds a lattice of cells filled with flat colours ([`super::Cue::FlatColours`]).
//!
//! The caller classifies every pixel (class 0: not a board colour; 1..: a board colour). The board is the
//! largest cluster of classified pixels, where gaps of a few pixels (the dark outlines some games draw between
//! cells) do not split a cluster. The lattice is then fitted from where the class changes: every change must
//! lie on a cell boundary, and of all lattices that explain the picture the coarsest is taken, its cells square
//! where square cells explain it as well (else a window has stretched the board, and each axis has its own
//! pitch). Finally each cell is read from its central area.

use super::{Lattice, LatticeError, Line};
use crate::calibration::format_rgb;
use crate::game::CellLayout;
use image::RgbaImage;

/// The widest outline between two cells (each side of a boundary) the fit considers.
const MAX_OUTLINE: usize = 4;
/// Gaps up to twice this wide do not split a cluster of board pixels.
const BRIDGE: u8 = 2 * MAX_OUTLINE as u8;
/// Share of a cell's central area that must be one class.
const MIN_CELL_AGREEMENT: f64 = 0.9;

/// Per-pixel classes of an image.
pub struct ClassMap {
    pub width: usize,
    pub height: usize,
    pub classes: Vec<u8>,
}

impl ClassMap {
    /// Classifies each pixel by its RGB value (each distinct colour is classified about once).
    pub fn new(image: &RgbaImage, classify: impl FnMut([u8; 3]) -> u8) -> Self {
        let mut cache = ColourCache::new(classify);
        let classes = image.pixels().map(|p| cache.class([p[0], p[1], p[2]])).collect();
        ClassMap { width: image.width() as usize, height: image.height() as usize, classes }
    }

    fn at(&self, x: usize, y: usize) -> u8 {
        self.classes[y * self.width + x]
    }
}

/// Remembers the class of recently seen colours: screenshots have few distinct colours.
pub struct ColourCache<F> {
    classify: F,
    slots: Vec<Option<([u8; 3], u8)>>,
}

impl<F: FnMut([u8; 3]) -> u8> ColourCache<F> {
    const SLOTS: usize = 4096;

    pub fn new(classify: F) -> Self {
        ColourCache { classify, slots: vec![None; Self::SLOTS] }
    }

    pub fn class(&mut self, rgb: [u8; 3]) -> u8 {
        let key = (rgb[0] as usize * 961 + rgb[1] as usize * 31 + rgb[2] as usize) % Self::SLOTS;
        match self.slots[key] {
            Some((seen, class)) if seen == rgb => class,
            _ => {
                let class = (self.classify)(rgb);
                self.slots[key] = Some((rgb, class));
                class
            }
        }
    }
}

/// A rectangle of pixels, inclusive bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bounds {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Bounds {
    fn width(&self) -> usize {
        self.x1 - self.x0 + 1
    }
    fn height(&self) -> usize {
        self.y1 - self.y0 + 1
    }
}

/// The bounds of the largest cluster of classified pixels, where gaps of up to `BRIDGE` pixels (outlines
/// between cells) do not split a cluster (see [`crate::vision::runs::components`]).
fn largest_cluster(map: &ClassMap) -> Result<Bounds, LatticeError> {
    let on: Vec<bool> = map.classes.iter().map(|&c| c != 0).collect();
    let found = crate::vision::runs::components(map.width, map.height, BRIDGE as usize, |y| {
        &on[y * map.width..(y + 1) * map.width]
    });
    let mut best: Option<crate::vision::runs::Component> = None;
    for c in found {
        if best.is_none_or(|b| c.pixels > b.pixels) {
            best = Some(c);
        }
    }
    let best = best.ok_or(LatticeError::NoBoardPixels)?;
    Ok(Bounds { x0: best.x0, y0: best.y0, x1: best.x1, y1: best.y1 })
}

/// Marks where the class changes along one line of pixels (a row or a column of the bounds): `mark(i)` for a
/// change between pixel i-1 and pixel i. A run of unclassified pixels between two pixels of the same class is
/// not a change: it is a mark inside a cell (a dot, a cursor outline), and outlines only stand between
/// different classes.
fn line_changes(classes: impl Iterator<Item = u8>, mut mark: impl FnMut(usize)) {
    let mut last_class: Option<u8> = None; // the last classified pixel's class
    let mut gap_start: Option<usize> = None; // where the current run of unclassified pixels began
    for (i, class) in classes.enumerate() {
        if class == 0 {
            if gap_start.is_none() && i > 0 {
                gap_start = Some(i);
            }
            continue;
        }
        match (last_class, gap_start.take()) {
            (Some(previous), Some(start)) if previous != class => {
                mark(start);
                mark(i);
            }
            (Some(previous), None) if previous != class => mark(i),
            _ => {}
        }
        last_class = Some(class);
    }
}

/// Positions (pixel edges, relative to the bounds' start) where the class changes along each axis inside the
/// bounds.
fn class_changes(map: &ClassMap, b: Bounds) -> (Vec<usize>, Vec<usize>) {
    let mut along_x = vec![false; b.width()];
    let mut along_y = vec![false; b.height()];
    for y in b.y0..=b.y1 {
        line_changes((b.x0..=b.x1).map(|x| map.at(x, y)), |i| along_x[i] = true);
    }
    for x in b.x0..=b.x1 {
        line_changes((b.y0..=b.y1).map(|y| map.at(x, y)), |i| along_y[i] = true);
    }
    let positions = |marks: Vec<bool>| marks.iter().enumerate().filter(|(_, &m)| m).map(|(i, _)| i).collect();
    (positions(along_x), positions(along_y))
}

/// Does every change lie within `tolerance` of an inner boundary of `count` cells of side `pitch`, starting at
/// `start` (relative to the bounds)?
fn changes_fit(changes: &[usize], start: f64, pitch: f64, count: usize, tolerance: f64) -> bool {
    changes.iter().all(|&p| {
        let k = ((p as f64 - start) / pitch).round().clamp(1.0, (count.max(2) - 1) as f64);
        count > 1 && (p as f64 - (start + k * pitch)).abs() <= tolerance
    })
}

/// One lattice that explains the picture.
struct Fit {
    cols: usize,
    rows: usize,
    outline: usize,
    pitch_x: f64,
    pitch_y: f64,
}

impl Fit {
    fn is_square(&self) -> bool {
        self.pitch_x == self.pitch_y
    }
}

/// The counts of cells (with their pitch) along one axis of `extent` pixels that put every change on a boundary.
fn axis_fits(extent: f64, changes: &[usize], outline: usize, min_cell: u32) -> Vec<(usize, f64)> {
    let (tolerance, start) = (outline as f64 + 1.0, -(outline as f64));
    (1..=(extent / min_cell as f64).floor() as usize)
        .map(|cells| (cells, extent / cells as f64))
        .filter(|&(cells, pitch)| changes_fit(changes, start, pitch, cells, tolerance))
        .collect()
}

/// Every lattice that explains the changes inside the bounds, for each possible outline width: each axis's
/// counts of cells paired, square where the two agree (the board's height within
/// [`CellLayout::SQUARE_WITHIN`] of whole square cells, the pitch then the width's).
fn fits(b: Bounds, changes: &(Vec<usize>, Vec<usize>), min_cell: u32) -> Vec<Fit> {
    let mut found = Vec::new();
    for outline in 0..=MAX_OUTLINE {
        let width = (b.width() + 2 * outline) as f64;
        let height = (b.height() + 2 * outline) as f64;
        let across = axis_fits(width, &changes.0, outline, min_cell);
        let down = axis_fits(height, &changes.1, outline, min_cell);
        for &(cols, pitch_x) in &across {
            for &(rows, pitch_y) in &down {
                let square = (rows as f64 * pitch_x - height).abs() <= CellLayout::SQUARE_WITHIN;
                let pitch_y = if square { pitch_x } else { pitch_y };
                found.push(Fit { cols, rows, outline, pitch_x, pitch_y });
            }
        }
    }
    found
}

/// Finds the board's lattice. `min_cell` is the smallest cell side to consider; `hint` is the layout of an earlier
/// reading of the same board, which settles the grid size when the picture alone cannot. Each boundary's line is
/// the outline the fit found (a pixel wide where there is none).
pub(super) fn find(map: &ClassMap, min_cell: u32, hint: Option<&CellLayout>) -> Result<Lattice, LatticeError> {
    let bounds = largest_cluster(map)?;
    if bounds.width() < min_cell as usize || bounds.height() < min_cell as usize {
        return Err(LatticeError::TooSmall { width: bounds.width(), height: bounds.height(), min_cell });
    }
    if bounds.x0 == 0 || bounds.y0 == 0 || bounds.x1 + 1 == map.width || bounds.y1 + 1 == map.height {
        let (x, y) = if bounds.x0 == 0 || bounds.y0 == 0 { (bounds.x0, bounds.y0) } else { (bounds.x1, bounds.y1) };
        return Err(LatticeError::CutOff { x, y });
    }
    let changes = class_changes(map, bounds);
    let candidates = fits(bounds, &changes, min_cell);
    let uniform = changes.0.is_empty() && changes.1.is_empty();
    let chosen = match hint {
        Some(h) => match candidates
            .iter()
            .filter(|f| f.cols == h.cols && f.rows == h.rows)
            .min_by_key(|f| f.is_square() != h.is_square())
        {
            Some(f) => Some(f),
            None if uniform => None,
            None => return Err(not_expected_grid(bounds, h, min_cell)),
        },
        None if uniform => return Err(LatticeError::Uniform),
        // The coarsest lattice (a fine lattice of square cells, on thick outlines, can pass through any boundary of
        // a stretched board's); among equals square cells (most boards), then the thinnest outline.
        None => candidates.iter().min_by_key(|f| (f.cols * f.rows, !f.is_square(), f.outline)),
    };
    let outline = chosen.map_or(0, |f| f.outline);
    let layout = match (chosen, hint) {
        (Some(f), _) => CellLayout {
            rows: f.rows,
            cols: f.cols,
            origin_x: bounds.x0 as f64 - f.outline as f64,
            origin_y: bounds.y0 as f64 - f.outline as f64,
            pitch_x: f.pitch_x,
            pitch_y: f.pitch_y,
        },
        // A board of one colour: keep the earlier layout if the patch still sits inside it.
        (None, Some(h)) => {
            let inside = |start: usize, end: usize, origin: f64, extent: f64| {
                start as f64 >= origin - 1.0 && end as f64 <= origin + extent + 1.0
            };
            let (width, height) = h.extent();
            if !(inside(bounds.x0, bounds.x1, h.origin_x, width) && inside(bounds.y0, bounds.y1, h.origin_y, height)) {
                return Err(LatticeError::NotExpectedGrid { cols: h.cols, rows: h.rows });
            }
            h.clone()
        }
        (None, None) => {
            return Err(LatticeError::NoLattice {
                x: bounds.x0,
                y: bounds.y0,
                width: bounds.width(),
                height: bounds.height(),
            })
        }
    };
    let boundaries = |origin: f64, cells: usize, pitch: f64, extent: usize| {
        (0..=cells)
            .map(|k| {
                let at = (origin + k as f64 * pitch).round().max(0.0) as usize;
                let start = at.saturating_sub(outline).min(extent - 1);
                Line { start, end: (at + outline.max(1) - 1).clamp(start, extent - 1) }
            })
            .collect()
    };
    let verticals = boundaries(layout.origin_x, layout.cols, layout.pitch_x, map.width);
    let horizontals = boundaries(layout.origin_y, layout.rows, layout.pitch_y, map.height);
    Ok(Lattice { layout, verticals, horizontals, boxes: None })
}

/// Why the picture does not show the grid of an earlier reading: its cells may have shrunk below the size
/// the reader needs (a window made smaller), else the board is another one.
fn not_expected_grid(bounds: Bounds, hint: &CellLayout, min_cell: u32) -> LatticeError {
    let pitch = (bounds.width() as f64 / hint.cols as f64).min(bounds.height() as f64 / hint.rows as f64);
    if pitch < min_cell as f64 {
        let (width, height) = (bounds.width(), bounds.height());
        return LatticeError::CellsTooSmall { cols: hint.cols, rows: hint.rows, width, height, pitch, min_cell };
    }
    LatticeError::NotExpectedGrid { cols: hint.cols, rows: hint.rows }
}

/// What was read in one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellSample {
    /// The cell's colour class.
    pub class: u8,
    /// The cell's very centre shows something else (a dot some games draw on a cell).
    pub marked: bool,
}

/// Reads each cell: its class from a ring around the centre (clear of outlines, highlights and centre marks),
/// or where no colour of the palette fills the ring (a keyboard cursor's frame drawn over it), from the whole
/// cell where its middle shows the same colour; and whether its centre is marked.
pub fn sample_cells(image: &RgbaImage, map: &ClassMap, layout: &CellLayout) -> Result<Vec<CellSample>, LatticeError> {
    let outer = ((layout.side() * 0.3) as i64).max(1);
    let inner = ((layout.side() * 0.2) as i64).min(outer - 1);
    let mut cells = Vec::with_capacity(layout.rows * layout.cols);
    for row in 0..layout.rows {
        for col in 0..layout.cols {
            let (cx, cy) = layout.centre(row, col);
            let (cx, cy) = (cx as i64, cy as i64);
            let mut counts = [0usize; 256];
            let mut total = 0usize;
            for y in (cy - outer).max(0)..=(cy + outer).min(map.height as i64 - 1) {
                for x in (cx - outer).max(0)..=(cx + outer).min(map.width as i64 - 1) {
                    if (x - cx).abs() > inner || (y - cy).abs() > inner {
                        counts[map.at(x as usize, y as usize) as usize] += 1;
                        total += 1;
                    }
                }
            }
            let (ring_class, &count) = counts.iter().enumerate().max_by_key(|(_, &c)| c).expect("256 classes");
            let (x, y) = (cx.clamp(0, map.width as i64 - 1) as u32, cy.clamp(0, map.height as i64 - 1) as u32);
            let class = if ring_class != 0 {
                if total == 0 || (count as f64) < MIN_CELL_AGREEMENT * total as f64 {
                    return Err(LatticeError::MixedCell { row, col, x, y });
                }
                ring_class
            } else if let Some(class) = main_class(map, (cx, cy), ((layout.side() * 0.45) as i64).max(1))
                .filter(|&class| main_class(map, (cx, cy), (inner / 2).max(1)) == Some(class))
            {
                // A frame drawn over the ring (a keyboard cursor's): the colour most of the cell shows, which
                // its middle shows too.
                class
            } else {
                let (rx, ry) = ((cx - outer).max(0) as u32, cy as u32);
                let p = image.get_pixel(rx.min(map.width as u32 - 1), ry.min(map.height as u32 - 1));
                return Err(LatticeError::UnknownColour {
                    row,
                    col,
                    x: rx,
                    y: ry,
                    rgb: format_rgb([p[0], p[1], p[2]]),
                });
            };
            let marked = map.at(x as usize, y as usize) != class as u8;
            cells.push(CellSample { class: class as u8, marked });
        }
    }
    Ok(cells)
}

/// The class most of the square of half-side `reach` around `centre` shows, where it is most of the classified
/// pixels (by [`MIN_CELL_AGREEMENT`]) and they are at least a quarter of the square.
fn main_class(map: &ClassMap, (cx, cy): (i64, i64), reach: i64) -> Option<usize> {
    let mut counts = [0usize; 256];
    let mut all = 0usize;
    for y in (cy - reach).max(0)..=(cy + reach).min(map.height as i64 - 1) {
        for x in (cx - reach).max(0)..=(cx + reach).min(map.width as i64 - 1) {
            counts[map.at(x as usize, y as usize) as usize] += 1;
            all += 1;
        }
    }
    let classified = all - counts[0];
    let (class, &count) = counts.iter().enumerate().skip(1).max_by_key(|(_, &c)| c)?;
    (classified * 4 >= all && count as f64 >= MIN_CELL_AGREEMENT * classified as f64).then_some(class)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// Draws a board of `cells` (classes 1..) with the given cell side and outline, at an offset on a grey
    /// background; class k is drawn as colour (k*40, 0, 0).
    fn draw(cols: usize, rows: usize, cells: &[u8], side: u32, outline: u32, at: (u32, u32)) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(
            at.0 * 2 + side * cols as u32,
            at.1 * 2 + side * rows as u32,
            Rgba([200, 200, 200, 255]),
        );
        for r in 0..rows {
            for c in 0..cols {
                let colour = Rgba([cells[r * cols + c] * 40, 0, 0, 255]);
                for dy in 0..side {
                    for dx in 0..side {
                        let edge = dx < outline || dy < outline || dx >= side - outline || dy >= side - outline;
                        let p = if edge { Rgba([0, 0, 0, 255]) } else { colour };
                        img.put_pixel(at.0 + c as u32 * side + dx, at.1 + r as u32 * side + dy, p);
                    }
                }
            }
        }
        img
    }

    /// The board's layout through the one entry, and its cells.
    fn find_board(
        img: &RgbaImage,
        map: &ClassMap,
        min_cell: u32,
        hint: Option<&CellLayout>,
    ) -> Result<(CellLayout, Vec<CellSample>), LatticeError> {
        let cue = super::super::Cue::FlatColours { map, min_cell, hint };
        let lattice = super::super::find(map.width, map.height, cue)?;
        let cells = sample_cells(img, map, &lattice.layout)?;
        Ok((lattice.layout, cells))
    }

    fn classify(rgb: [u8; 3]) -> u8 {
        if rgb[1] == 0 && rgb[2] == 0 && rgb[0] > 0 && rgb[0].is_multiple_of(40) {
            rgb[0] / 40
        } else {
            0
        }
    }

    fn read(img: &RgbaImage, hint: Option<&CellLayout>) -> Result<(CellLayout, Vec<u8>), LatticeError> {
        let (layout, cells) = find_board(img, &ClassMap::new(img, classify), 6, hint)?;
        assert!(cells.iter().all(|c| !c.marked));
        Ok((layout, cells.iter().map(|c| c.class).collect()))
    }

    #[test]
    fn finds_grids_of_several_sizes_sides_and_offsets() {
        let cells: Vec<u8> = (0..35).map(|i| (i * 7 % 5 + 1) as u8).collect();
        for (side, outline, at) in [(12, 0, (1, 1)), (20, 0, (33, 7)), (32, 1, (100, 50)), (64, 2, (5, 300))] {
            let img = draw(7, 5, &cells, side, outline, at);
            let (layout, read_cells) = read(&img, None).unwrap();
            assert_eq!((layout.cols, layout.rows), (7, 5), "side {side}");
            assert_eq!((layout.pitch_x, layout.pitch_y), (side as f64, side as f64));
            assert_eq!((layout.origin_x, layout.origin_y), (at.0 as f64, at.1 as f64));
            assert_eq!(read_cells, cells);
        }
    }

    /// A board a window stretches to fill it: cells `width`×`height` pixels in all, each cell's edges rounded
    /// from a fractional pitch (53.3 pixels and the like), no outline.
    fn draw_stretched(
        cols: usize,
        rows: usize,
        cells: &[u8],
        (width, height): (u32, u32),
        at: (u32, u32),
    ) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(at.0 * 2 + width, at.1 * 2 + height, Rgba([200, 200, 200, 255]));
        for y in 0..height {
            for x in 0..width {
                let (c, r) = ((x as usize * cols) / width as usize, (y as usize * rows) / height as usize);
                img.put_pixel(at.0 + x, at.1 + y, Rgba([cells[r * cols + c] * 40, 0, 0, 255]));
            }
        }
        img
    }

    #[test]
    fn finds_boards_stretched_by_their_window_with_a_pitch_each_way() {
        let cells: Vec<u8> = (0..100u32).map(|i| ((i * i * 11 + i * 37 + i / 10) % 5 + 1) as u8).collect();
        for (width, height) in [(533, 417), (700, 450), (380, 520)] {
            let img = draw_stretched(10, 10, &cells, (width, height), (25, 40));
            let (layout, read_cells) = read(&img, None).unwrap_or_else(|e| panic!("{width}×{height}: {e}"));
            assert_eq!((layout.cols, layout.rows), (10, 10), "{width}×{height}");
            assert!((layout.pitch_x - width as f64 / 10.0).abs() < 0.01, "{layout:?}");
            assert!((layout.pitch_y - height as f64 / 10.0).abs() < 0.01, "{layout:?}");
            assert_eq!(read_cells, cells, "{width}×{height}");
        }
        // Square cells stay exactly square (one pitch, as boards always were read).
        let img = draw_stretched(10, 10, &cells, (400, 400), (25, 40));
        let (layout, _) = read(&img, None).unwrap();
        assert!(layout.is_square() && layout.pitch_x == 40.0, "{layout:?}");
    }

    #[test]
    fn a_board_shrunk_under_the_smallest_cell_is_named_as_such() {
        let cells: Vec<u8> = (0..64).map(|i| (i * 7 % 5 + 1) as u8).collect();
        let before = CellLayout::square(8, 8, (10.0, 10.0), 20.0);
        let shrunk = draw(8, 8, &cells, 4, 0, (10, 10));
        match read(&shrunk, Some(&before)) {
            Err(LatticeError::CellsTooSmall { cols: 8, rows: 8, pitch, min_cell: 6, .. }) => assert_eq!(pitch, 4.0),
            other => panic!("{other:?}"),
        }
        // Cells large enough but another grid: not the same fault.
        let other = draw(8, 8, &cells, 12, 0, (10, 10));
        let five = CellLayout { rows: 5, cols: 5, ..before };
        assert_eq!(read(&other, Some(&five)).unwrap_err(), LatticeError::NotExpectedGrid { cols: 5, rows: 5 });
    }

    #[test]
    fn a_coarser_looking_board_takes_its_size_from_the_hint() {
        // Every 2×2 block one colour: alone it reads as 2×2 cells of twice the side.
        let cells = [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 1, 1, 3, 3, 1, 1];
        let img = draw(4, 4, &cells, 12, 0, (10, 10));
        let (alone, _) = read(&img, None).unwrap();
        assert_eq!((alone.cols, alone.rows), (2, 2));
        let hint = CellLayout::square(4, 4, (10.0, 10.0), 12.0);
        let (layout, read_cells) = read(&img, Some(&hint)).unwrap();
        assert_eq!(layout, hint);
        assert_eq!(read_cells, cells);
    }

    #[test]
    fn a_one_colour_board_needs_a_hint() {
        let img = draw(3, 3, &[2; 9], 16, 0, (4, 4));
        assert_eq!(read(&img, None).unwrap_err(), LatticeError::Uniform);
        let hint = CellLayout::square(3, 3, (4.0, 4.0), 16.0);
        assert_eq!(read(&img, Some(&hint)).unwrap().1, vec![2; 9]);
    }

    #[test]
    fn an_unknown_colour_inside_the_board_is_named() {
        let mut cells: Vec<u8> = (0..16).map(|i| (i % 3 + 1) as u8).collect();
        cells[5] = 5; // drawn as (200, 0, 0) — classify knows it...
        let mut img = draw(4, 4, &cells, 16, 0, (8, 8));
        // ...so paint that cell an unknown colour.
        for dy in 0..16 {
            for dx in 0..16 {
                img.put_pixel(8 + 16 + dx, 8 + 16 + dy, Rgba([1, 2, 3, 255]));
            }
        }
        match read(&img, None).unwrap_err() {
            LatticeError::UnknownColour { row: 1, col: 1, rgb, .. } => assert_eq!(rgb, "#010203"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_board_cut_off_by_the_picture_edge_is_refused() {
        let cells: Vec<u8> = (0..16).map(|i| (i % 3 + 1) as u8).collect();
        let img = draw(4, 4, &cells, 16, 0, (8, 8));
        let cut = image::imageops::crop_imm(&img, 0, 0, 8 + 16 * 3 + 5, img.height()).to_image();
        assert!(matches!(read(&cut, None).unwrap_err(), LatticeError::CutOff { .. }));
    }

    #[test]
    fn a_marked_cell_is_read_as_marked_and_does_not_split_the_grid() {
        let cells: Vec<u8> = (0..16).map(|i| (i % 3 + 1) as u8).collect();
        let mut img = draw(4, 4, &cells, 32, 1, (8, 8));
        // A dark dot in the middle of cell (2, 1).
        for dy in -5i32..=5 {
            for dx in -5i32..=5 {
                if dx * dx + dy * dy <= 25 {
                    img.put_pixel((8 + 32 + 16 + dx) as u32, (8 + 64 + 16 + dy) as u32, Rgba([0, 0, 0, 255]));
                }
            }
        }
        let (layout, samples) = find_board(&img, &ClassMap::new(&img, classify), 6, None).unwrap();
        assert_eq!((layout.cols, layout.rows), (4, 4));
        let marked: Vec<usize> = samples.iter().enumerate().filter(|(_, s)| s.marked).map(|(i, _)| i).collect();
        assert_eq!(marked, vec![2 * 4 + 1]);
        assert_eq!(samples.iter().map(|s| s.class).collect::<Vec<_>>(), cells);
    }

    #[test]
    fn pictures_without_a_board_are_refused() {
        let blank = RgbaImage::from_pixel(50, 50, Rgba([200, 200, 200, 255]));
        assert_eq!(read(&blank, None).unwrap_err(), LatticeError::NoBoardPixels);
        let mut speck = blank.clone();
        speck.put_pixel(3, 3, Rgba([40, 0, 0, 255]));
        assert!(matches!(read(&speck, None).unwrap_err(), LatticeError::TooSmall { .. }));
        // A triangle of a board colour is no grid of square cells.
        let mut triangle = blank.clone();
        for y in 0..50 {
            for x in 0..y {
                triangle.put_pixel(x, y, Rgba([80, 0, 0, 255]));
            }
        }
        assert!(read(&triangle, None).is_err());
    }
}
