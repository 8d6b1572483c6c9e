//! Finds a grid drawn as dark lines on a light background (Sudoku-style boards: cells in the background
//! colour, thin lines between cells, thick lines between boxes), with no colours or offsets known in advance.
//!
//! The dark pixels are split into connected components ([`crate::vision::runs::components`]); a component is a grid
//! when the columns that are dark over nearly all of its height, and the rows dark over nearly all of its
//! width, form N+1 equally spaced lines each way, from edge to edge. Lines wider than the thinnest are thick,
//! and where the thick lines fall gives the box shape; where every line is as thin as the others (a client that
//! draws no box lines), the boxes are the usual ones for the grid's size ([`usual_boxes`]). A solid dark patch
//! (a black desktop, a dark title bar) has no such lines and is passed over. "Dark" is whatever the caller's
//! mask marks: light lines on a dark board are found from a mask of light pixels.

use super::{Boxes, Lattice, LatticeError, Line};
use crate::game::CellLayout;
use crate::vision::runs::{components, Component};

/// Share of a component's height (width) a column (row) must be dark over to count as a grid line.
const LINE_COVER: f64 = 0.9;
/// A grid's bounding box is at most this share dark (lines are thin; a solid patch is not a grid).
const MAX_DARK_SHARE: f64 = 0.5;

/// Groups positions along one axis whose dark count reaches `need` into lines.
fn lines_in_profile(profile: &[usize], need: usize) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for (i, &count) in profile.iter().enumerate() {
        if count >= need {
            match lines.last_mut() {
                Some(line) if line.end + 1 == i => line.end = i,
                _ => lines.push(Line { start: i, end: i }),
            }
        }
    }
    lines
}

/// Checks one axis's lines: edge to edge, equally spaced, thin against the spacing; returns the spacing.
fn check_spacing(lines: &[Line], extent: usize, min_cell: usize, axis: &str) -> Result<f64, String> {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else { return Err(format!("no {axis} lines")) };
    if lines.len() < 3 {
        return Err(format!("only {} {axis} line(s)", lines.len()));
    }
    if first.start != 0 || last.end + 1 != extent {
        return Err(format!("its outermost {axis} lines are not at its edges"));
    }
    let n = lines.len() - 1;
    let pitch = (last.centre() - first.centre()) / n as f64;
    if pitch < min_cell as f64 {
        return Err(format!("its {axis} lines are {pitch:.1} pixels apart, less than a cell's {min_cell}"));
    }
    let tolerance = (0.1 * pitch).max(1.5);
    for (k, line) in lines.iter().enumerate() {
        if (line.centre() - (first.centre() + k as f64 * pitch)).abs() > tolerance {
            return Err(format!(
                "its {axis} lines are not equally spaced ({axis} line {k} is off by more than {tolerance:.1} pixels)"
            ));
        }
        if line.width() as f64 > pitch / 4.0 {
            return Err(format!(
                "{axis} line {k} is {} pixels wide, too wide for cells {pitch:.1} apart",
                line.width()
            ));
        }
    }
    Ok(pitch)
}

/// The box shape (rows, columns) a Sudoku of this side has when no box lines are drawn: the two factors nearest
/// a square, the shorter side as rows (9: 3×3, 6: 2×3, 8: 2×4, 12: 3×4); `None` for a side of 1 or a prime.
pub fn usual_boxes(size: usize) -> Option<(usize, usize)> {
    let rows = (2..size).filter(|&r| size.is_multiple_of(r) && r * r <= size).max()?;
    Some((rows, size / rows))
}

/// The box side along one axis: the thick inner lines must fall exactly every `side` lines. `None` when all the
/// inner lines are equally wide (no boxes drawn; the border may be wider).
fn box_side(lines: &[Line], axis: &str) -> Result<Option<usize>, String> {
    let n = lines.len() - 1;
    let inner = &lines[1..n];
    if inner.iter().all(|l| l.width() == inner[0].width()) {
        return Ok(None);
    }
    let thinnest = lines.iter().map(Line::width).min().expect("lines");
    let thickest = lines.iter().map(Line::width).max().expect("lines");
    let thick = |k: usize| 2 * lines[k].width() > thinnest + thickest;
    let side = (1..n).find(|&k| thick(k)).unwrap_or(n);
    if !n.is_multiple_of(side) || !(1..n).all(|k| thick(k) == k.is_multiple_of(side)) {
        return Err(format!("its thick {axis} lines do not fall at regular box boundaries"));
    }
    Ok(Some(side))
}

/// Tests one component of dark pixels (`dark` is the whole picture's mask).
fn grid_in(c: &Component, dark: &[bool], width: usize, min_cell: usize) -> Result<Lattice, String> {
    let (w, h) = (c.width(), c.height());
    let share = c.pixels as f64 / (w * h) as f64;
    if share > MAX_DARK_SHARE {
        return Err(format!("{:.0}% of it is dark, a solid patch rather than lines", share * 100.0));
    }
    let mut column_counts = vec![0usize; w];
    let mut row_counts = vec![0usize; h];
    for y in c.y0..=c.y1 {
        let row = &dark[y * width + c.x0..=y * width + c.x1];
        for (x, _) in row.iter().enumerate().filter(|(_, &d)| d) {
            column_counts[x] += 1;
            row_counts[y - c.y0] += 1;
        }
    }
    let verticals = lines_in_profile(&column_counts, (LINE_COVER * h as f64).ceil() as usize);
    let horizontals = lines_in_profile(&row_counts, (LINE_COVER * w as f64).ceil() as usize);
    let pitch_x = check_spacing(&verticals, w, min_cell, "vertical")?;
    let pitch_y = check_spacing(&horizontals, h, min_cell, "horizontal")?;
    if verticals.len() != horizontals.len() {
        return Err(format!("{} columns but {} rows of cells", verticals.len() - 1, horizontals.len() - 1));
    }
    let size = verticals.len() - 1;
    let (box_rows, box_cols, boxes_drawn) = match (
        box_side(&horizontals, "horizontal")?,
        box_side(&verticals, "vertical")?,
    ) {
        (Some(rows), Some(cols)) => (rows, cols, true),
        (None, None) => {
            let (rows, cols) = usual_boxes(size)
                .ok_or_else(|| format!("all its lines are equally wide, so no boxes can be seen, and {size} cells a side have no usual boxes"))?;
            (rows, cols, false)
        }
        _ => return Err("thicker lines show boxes one way but not the other".into()),
    };
    if box_rows * box_cols != size {
        return Err(format!("boxes of {box_rows}×{box_cols} cells do not make a side of {size}"));
    }
    let shift = |lines: Vec<Line>, by: usize| {
        lines.into_iter().map(|l| Line { start: l.start + by, end: l.end + by }).collect::<Vec<_>>()
    };
    let (verticals, horizontals) = (shift(verticals, c.x0), shift(horizontals, c.y0));
    let origin = (verticals[0].centre() + 0.5, horizontals[0].centre() + 0.5);
    let layout = CellLayout::measured(size, size, origin, (pitch_x, pitch_y));
    let boxes = Some(Boxes { rows: box_rows, cols: box_cols, drawn: boxes_drawn });
    Ok(Lattice { layout, verticals, horizontals, boxes })
}

/// How much wider than tall (or taller than wide) a grid may be: a window that stretches its board to fill it.
const MAX_STRETCH: f64 = 2.0;

/// Finds the largest grid among the dark pixels of a `width`×`height` picture (`dark`: row-major mask).
/// `min_cell` is the smallest cell side considered. A grid is as many cells across as down, its cells square or
/// stretched by the window up to [`MAX_STRETCH`].
pub(super) fn find(width: usize, height: usize, dark: &[bool], min_cell: usize) -> Result<Lattice, LatticeError> {
    assert_eq!(dark.len(), width * height);
    let min_side = 2 * min_cell;
    let mut candidates: Vec<Component> = components(width, height, 0, |y| &dark[y * width..(y + 1) * width])
        .into_iter()
        .filter(|c| {
            let (w, h) = (c.width(), c.height());
            w >= min_side && h >= min_side && w.max(h) as f64 <= MAX_STRETCH * w.min(h) as f64
        })
        .collect();
    if candidates.is_empty() {
        return Err(if dark.iter().any(|&d| d) {
            LatticeError::NoCandidate { min_side }
        } else {
            LatticeError::NoDarkPixels
        });
    }
    candidates.sort_by_key(|c| std::cmp::Reverse(c.width() * c.height()));
    let mut first_failure = None;
    for c in &candidates {
        match grid_in(c, dark, width, min_cell) {
            Ok(grid) => {
                if c.touches_edge(width, height) && !whole_at_edges(&grid, c, width, height) {
                    return Err(LatticeError::GridCutOff {
                        x: if c.x0 == 0 { c.x0 } else { c.x1 },
                        y: if c.y0 == 0 { c.y0 } else { c.y1 },
                    });
                }
                return Ok(grid);
            }
            Err(why) => {
                first_failure.get_or_insert(LatticeError::NotAGrid {
                    x: c.x0,
                    y: c.y0,
                    width: c.width(),
                    height: c.height(),
                    why,
                });
            }
        }
    }
    Err(first_failure.expect("at least one candidate"))
}

/// Is a grid that runs into the picture's edge whole there — a window the board fills, captured whole — rather
/// than cut off? Its boxes are drawn with thicker lines, so that the part of a grid a cut would leave shows boxes
/// that make no whole board (the finder refuses those), and on every side it touches, its outermost line lies on
/// the edge (a grid cut between lines ends in none there).
fn whole_at_edges(grid: &Lattice, c: &Component, width: usize, height: usize) -> bool {
    let (verticals, horizontals) = (&grid.verticals, &grid.horizontals);
    grid.boxes.is_some_and(|b| b.drawn)
        && (c.x0 != 0 || verticals.first().is_some_and(|l| l.start == 0))
        && (c.x1 + 1 != width || verticals.last().is_some_and(|l| l.end + 1 == width))
        && (c.y0 != 0 || horizontals.first().is_some_and(|l| l.start == 0))
        && (c.y1 + 1 != height || horizontals.last().is_some_and(|l| l.end + 1 == height))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture (as a dark mask) of a light background with a grid: `size` cells of side `pitch` in boxes of
    /// `box_rows`×`box_cols`, thin lines `thin` wide and box lines `thick` wide, its top-left line at `at`.
    struct Picture {
        width: usize,
        height: usize,
        dark: Vec<bool>,
    }

    impl Picture {
        fn new(width: usize, height: usize) -> Self {
            Picture { width, height, dark: vec![false; width * height] }
        }
        fn fill(&mut self, x0: usize, y0: usize, w: usize, h: usize) {
            for y in y0..(y0 + h).min(self.height) {
                for x in x0..(x0 + w).min(self.width) {
                    self.dark[y * self.width + x] = true;
                }
            }
        }
        #[allow(clippy::too_many_arguments)]
        fn grid(
            &mut self,
            size: usize,
            box_rows: usize,
            box_cols: usize,
            (pitch_x, pitch_y): (usize, usize),
            thin: usize,
            thick: usize,
            at: (usize, usize),
        ) {
            // The outer lines are thick: the grid spans from the first line's start to the last line's end.
            let begin = |at: usize| at + thin / 2 - thick / 2;
            let (width, height) = (size * pitch_x + thick, size * pitch_y + thick);
            for k in 0..=size {
                let vertical_width = if k % box_cols == 0 { thick } else { thin };
                let horizontal_width = if k % box_rows == 0 { thick } else { thin };
                let (x, y) = (k * pitch_x + thin / 2, k * pitch_y + thin / 2);
                self.fill(at.0 + x - vertical_width / 2, begin(at.1), vertical_width, height);
                self.fill(begin(at.0), at.1 + y - horizontal_width / 2, width, horizontal_width);
            }
        }
        fn find(&self) -> Result<Lattice, LatticeError> {
            super::super::find(self.width, self.height, super::super::Cue::Lines { mask: &self.dark, min_cell: 8 })
        }
    }

    #[test]
    fn finds_grids_of_every_box_shape_pitch_offset_and_line_width() {
        for (size, box_rows, box_cols) in [(4, 2, 2), (6, 2, 3), (9, 3, 3), (12, 3, 4), (16, 4, 4), (6, 3, 2)] {
            for (pitch, thin, thick, at) in
                [(16, 1, 3, (20, 30)), (32, 1, 3, (5, 61)), (48, 1, 5, (100, 7)), (64, 2, 6, (13, 13))]
            {
                let mut picture = Picture::new(at.0 + size * pitch + 40, at.1 + size * pitch + 25);
                picture.grid(size, box_rows, box_cols, (pitch, pitch), thin, thick, at);
                // Glyph-like marks inside cells do not disturb it.
                picture.fill(at.0 + pitch / 3, at.1 + pitch / 4, pitch / 3, pitch / 2);
                let grid = picture.find().unwrap_or_else(|e| panic!("{size} {box_rows}x{box_cols} pitch {pitch}: {e}"));
                assert_eq!(
                    (grid.size(), grid.boxes().rows, grid.boxes().cols),
                    (size, box_rows, box_cols),
                    "pitch {pitch}"
                );
                assert!(grid.layout.is_square() && (grid.layout.pitch_x - pitch as f64).abs() < 0.01);
                let (cx, cy) = grid.layout.centre(0, 0);
                assert!(
                    (cx - (at.0 + pitch / 2) as i32).abs() <= 1 && (cy - (at.1 + pitch / 2) as i32).abs() <= 1,
                    "centre ({cx}, {cy})"
                );
                let (x0, y0, x1, y1) = grid.interior(size - 1, size - 1);
                assert_eq!(x1 - x0 + 1, pitch - thin - (thick - thin) / 2, "interior width");
                assert!(y1 > y0);
            }
        }
    }

    /// A window that stretches its board (a grid of widgets filling a frame) draws cells wider than tall: each
    /// axis keeps its own pitch, and cell centres are each cell's own.
    #[test]
    fn finds_grids_stretched_by_their_window() {
        for (pitch_x, pitch_y) in [(70, 45), (40, 64), (50, 48)] {
            let at = (30, 20);
            let mut picture = Picture::new(at.0 + 9 * pitch_x + 40, at.1 + 9 * pitch_y + 40);
            picture.grid(9, 3, 3, (pitch_x, pitch_y), 1, 3, at);
            let grid = picture.find().unwrap_or_else(|e| panic!("{pitch_x}×{pitch_y}: {e}"));
            assert_eq!(grid.size(), 9);
            assert!(!grid.layout.is_square(), "{pitch_x}×{pitch_y}");
            assert!(
                (grid.layout.pitch_x - pitch_x as f64).abs() < 0.01
                    && (grid.layout.pitch_y - pitch_y as f64).abs() < 0.01
            );
            let (cx, cy) = grid.layout.centre(8, 8);
            assert!((cx - (at.0 + 8 * pitch_x + pitch_x / 2) as i32).abs() <= 1, "{cx}");
            assert!((cy - (at.1 + 8 * pitch_y + pitch_y / 2) as i32).abs() <= 1, "{cy}");
        }
        // Twice as wide as tall, or more, is not taken for a board.
        let mut picture = Picture::new(9 * 100 + 60, 9 * 45 + 60);
        picture.grid(9, 3, 3, (100, 45), 1, 3, (20, 20));
        assert!(picture.find().is_err());
    }

    #[test]
    fn a_black_desktop_is_not_a_grid_and_does_not_hide_one() {
        let mut picture = Picture::new(400, 300);
        picture.fill(0, 0, 400, 300);
        // A light window with a grid in it.
        for y in 50..250 {
            for x in 120..330 {
                picture.dark[y * 400 + x] = false;
            }
        }
        picture.grid(9, 3, 3, (16, 16), 1, 3, (140, 70));
        let grid = picture.find().unwrap();
        assert_eq!(grid.size(), 9);
        assert_eq!(grid.verticals[0].start, 139);
        // The desktop alone is refused, with the reason.
        let mut desktop = Picture::new(300, 300);
        desktop.fill(0, 0, 300, 300);
        assert!(matches!(desktop.find(), Err(LatticeError::NotAGrid { .. })), "{:?}", desktop.find());
    }

    #[test]
    fn refuses_pictures_without_a_grid() {
        assert_eq!(Picture::new(50, 50).find().unwrap_err(), LatticeError::NoDarkPixels);
        let mut box_only = Picture::new(100, 100);
        box_only.fill(10, 10, 60, 1);
        box_only.fill(10, 69, 60, 1);
        box_only.fill(10, 10, 1, 60);
        box_only.fill(69, 10, 1, 60);
        assert!(matches!(box_only.find(), Err(LatticeError::NotAGrid { .. })));
        // Uneven lines.
        let mut uneven = Picture::new(200, 200);
        for k in [0usize, 20, 30, 70, 100] {
            uneven.fill(10 + k, 10, 1, 101);
            uneven.fill(10, 10 + k, 101, 1);
        }
        assert!(matches!(uneven.find(), Err(LatticeError::NotAGrid { .. })));
        // All lines alike, five cells a side: no boxes can be seen or assumed.
        let mut plain = Picture::new(200, 200);
        for k in 0..=5 {
            plain.fill(10 + 20 * k, 10, 1, 101);
            plain.fill(10, 10 + 20 * k, 101, 1);
        }
        match plain.find().unwrap_err() {
            LatticeError::NotAGrid { why, .. } => assert!(why.contains("no boxes"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_grid_with_no_box_lines_has_the_usual_boxes_for_its_size() {
        for (size, boxes) in [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4))] {
            assert_eq!(usual_boxes(size), Some(boxes));
            let mut plain = Picture::new(500, 500);
            plain.grid(size, boxes.0, boxes.1, (24, 24), 2, 2, (20, 20));
            let grid = plain.find().unwrap();
            assert_eq!(
                (grid.size(), grid.boxes().rows, grid.boxes().cols, grid.boxes().drawn),
                (size, boxes.0, boxes.1, false)
            );
        }
        assert_eq!(usual_boxes(7), None);
        // A thicker border alone draws no boxes.
        let mut bordered = Picture::new(500, 500);
        bordered.grid(9, 9, 9, (24, 24), 1, 3, (20, 20));
        let grid = bordered.find().unwrap();
        assert_eq!((grid.boxes().rows, grid.boxes().cols, grid.boxes().drawn), (3, 3, false));
        let mut drawn = Picture::new(500, 500);
        drawn.grid(6, 3, 2, (24, 24), 1, 3, (20, 20));
        let grid = drawn.find().unwrap();
        assert_eq!((grid.boxes().rows, grid.boxes().cols, grid.boxes().drawn), (3, 2, true));
    }

    /// A grid the picture's edge cuts inside its cells is refused, and so is one that ends on the edge with no
    /// boxes drawn (its part would pass for a smaller grid) as cut off; one with its boxes drawn and its border
    /// lines on the edges (a window the board fills, captured whole; or its border line cut through, every cell
    /// still shown whole) is read.
    #[test]
    fn a_grid_cut_off_by_the_edge_is_refused_and_one_filling_the_picture_is_read() {
        // The right-hand line spans x 99..=101; the last column of cells x 81..=98.
        let drawn_to = |width: usize| {
            let mut picture = Picture::new(width, 200);
            picture.grid(4, 2, 2, (20, 20), 1, 3, (20, 30));
            picture.find()
        };
        assert!(drawn_to(90).is_err(), "{:?}", drawn_to(90));
        assert_eq!(drawn_to(100).map(|g| g.size()).ok(), Some(4), "{:?}", drawn_to(100).err());
        let mut plain = Picture::new(81, 200);
        plain.grid(4, 2, 2, (20, 20), 1, 1, (0, 30));
        assert!(matches!(plain.find(), Err(LatticeError::GridCutOff { .. })), "{:?}", plain.find());
        let mut filling = Picture::new(83, 83);
        filling.grid(4, 2, 2, (20, 20), 1, 3, (1, 1));
        assert_eq!(filling.find().map(|g| g.size()).ok(), Some(4), "{:?}", filling.find().err());
    }
}
