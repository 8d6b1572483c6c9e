//! Finds a grid of which only the boxes are drawn, with lines that may be dashed: a Sudoku printed in a terminal
//! with box-drawing or ASCII characters (`+-------+`, `|`), where each line is a row of characters (so a dash
//! between every two) and the cells are not drawn at all, only the characters in them.
//!
//! The lines are what a terminal grid must be: horizontal runs of line pixels (gaps between dashes bridged)
//! that start and end at the same columns, at least three of them equally spaced; vertical lines, dashes
//! allowed, over most of the height between the first and the last of those runs, at least three, equally
//! spaced, the first and last at the runs' ends. `H` horizontal and `V` vertical lines bound `(H-1)×(V-1)` boxes;
//! a Sudoku of side N with boxes of r×c cells has c rows of boxes and r columns of them, so the boxes are
//! `(V-1)×(H-1)` cells and the side is their product. A terminal prints a line as a row (column) of characters on
//! the same lattice as the cells' characters (`| 1 2 3 |`: the bar, then a cell every second character), so a
//! box of n cells spans n + 1 equal steps between its lines, one for the line, and each cell is the step
//! around its character, whatever the spacing.

use super::{Boxes, Lattice, Line};
use crate::game::CellLayout;

/// The widest gap, in pixels, always bridged within a dashed line (between two dash characters, or two rows of a
/// vertical bar).
pub const GAP: usize = 6;
/// A gap within a row of dashes is bridged up to this many times the longest dash before it: a font's dash may be
/// short against its character's width (DejaVu Sans Mono's: 5 pixels of 12), and every dash in a row is the
/// same character, so what spaces them is their own size, not a fixed number of pixels.
const GAP_PER_DASH: usize = 2;
/// A vertical line is line pixels over at least this share of the grid's height (dashes leave gaps).
const VERTICAL_COVER: f64 = 0.5;
/// A horizontal run is line pixels over at least this share of its length: a dash and a gap of twice its length
/// fill a third.
const RUN_FILL: f64 = 0.33;

/// A horizontal run of line pixels in one row, gaps bridged.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: usize,
    x0: usize,
    x1: usize,
}

/// The runs of `mask` (row-major, `width` wide) in row `y` at least `min_len` long, gaps of at most [`GAP`] or
/// [`GAP_PER_DASH`] times the longest dash before them bridged, at least [`RUN_FILL`] filled.
fn runs_in_row(mask: &[bool], width: usize, y: usize, min_len: usize, out: &mut Vec<Run>) {
    let row = &mask[y * width..(y + 1) * width];
    let mut x = 0;
    while x < width {
        if !row[x] {
            x += 1;
            continue;
        }
        let (start, mut end, mut filled) = (x, x, 0usize);
        let (mut gap, mut dash, mut longest_dash) = (0, 0, 0);
        while x < width && gap <= GAP.max(GAP_PER_DASH * longest_dash) {
            if row[x] {
                end = x;
                filled += 1;
                gap = 0;
                dash += 1;
                longest_dash = longest_dash.max(dash);
            } else {
                gap += 1;
                dash = 0;
            }
            x += 1;
        }
        let len = end - start + 1;
        if len >= min_len && filled as f64 >= RUN_FILL * len as f64 {
            out.push(Run { y, x0: start, x1: end });
        }
    }
}

/// Groups consecutive positions into lines.
fn lines_of(positions: impl IntoIterator<Item = usize>) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for p in positions {
        match lines.last_mut() {
            Some(line) if line.end + 1 == p => line.end = p,
            _ => lines.push(Line { start: p, end: p }),
        }
    }
    lines
}

/// Whether lines are equally spaced (within a tenth of their spacing, or 1.5 pixels) and thin against it;
/// their spacing.
fn equally_spaced(lines: &[Line]) -> Option<f64> {
    let (first, last) = (lines.first()?, lines.last()?);
    let n = lines.len().checked_sub(1).filter(|&n| n >= 2)?;
    let pitch = (last.centre() - first.centre()) / n as f64;
    let tolerance = (0.1 * pitch).max(1.5);
    let fits = lines.iter().enumerate().all(|(k, line)| {
        (line.centre() - (first.centre() + k as f64 * pitch)).abs() <= tolerance && (line.width() as f64) < pitch / 4.0
    });
    fits.then_some(pitch)
}

/// The longest stretch of consecutive `lines` that are equally spaced ([`equally_spaced`]; the first of the
/// longest), and their spacing.
fn longest_equally_spaced(lines: &[Line]) -> Option<(Vec<Line>, f64)> {
    let mut best: Option<(Vec<Line>, f64)> = None;
    for from in 0..lines.len() {
        for to in (from + 2..lines.len()).rev() {
            if best.as_ref().is_some_and(|(b, _)| b.len() > to - from) {
                break;
            }
            if let Some(pitch) = equally_spaced(&lines[from..=to]) {
                best = Some((lines[from..=to].to_vec(), pitch));
                break;
            }
        }
    }
    best
}

/// The largest grid of drawn boxes among the line pixels of a `width`×`height` picture (`mask`: row-major), with
/// cells at least `min_cell` pixels each way; `None` where there is none.
pub(super) fn find(width: usize, height: usize, mask: &[bool], min_cell: usize) -> Option<Lattice> {
    assert_eq!(mask.len(), width * height);
    // A board of at least 2×2 boxes of at least 2×2 cells.
    let min_len = 4 * min_cell;
    let mut runs = Vec::new();
    for y in 0..height {
        runs_in_row(mask, width, y, min_len, &mut runs);
    }
    // Runs with the same ends, within a gap, are the candidate sets of horizontal lines; the widest first.
    let mut extents: Vec<(usize, usize)> = Vec::new();
    for run in &runs {
        if !extents.iter().any(|&(x0, x1)| x0.abs_diff(run.x0) <= GAP && x1.abs_diff(run.x1) <= GAP) {
            extents.push((run.x0, run.x1));
        }
    }
    extents.sort_by_key(|&(x0, x1)| std::cmp::Reverse(x1 - x0));
    extents.into_iter().find_map(|(x0, x1)| {
        let rows = runs.iter().filter(|r| r.x0.abs_diff(x0) <= GAP && r.x1.abs_diff(x1) <= GAP).map(|r| r.y);
        grid_of_lines(width, mask, (x0, x1), lines_of(rows), min_cell)
    })
}

/// The grid whose horizontal lines are `horizontals` across `x0..=x1`, if vertical lines bound its boxes.
fn grid_of_lines(
    width: usize,
    mask: &[bool],
    (x0, x1): (usize, usize),
    horizontals: Vec<Line>,
    min_cell: usize,
) -> Option<Lattice> {
    // (A row of text under the grid may join into a run as long as its lines: the lines are those equally spaced.)
    let (horizontals, pitch_y) = longest_equally_spaced(&horizontals)?;
    let (top, bottom) = (horizontals[0].start, horizontals.last()?.end);
    let need = (VERTICAL_COVER * (bottom - top + 1) as f64).ceil() as usize;
    let (from, to) = (x0.saturating_sub(GAP), (x1 + GAP).min(width - 1));
    let columns = (from..=to).filter(|&x| (top..=bottom).filter(|&y| mask[y * width + x]).count() >= need);
    // (A frame drawn right beside the grid, a window's border a pixel or two from the line's first character,
    // joins the runs at their ends and stands as one more vertical line there.)
    let (verticals, pitch_x) = longest_equally_spaced(&lines_of(columns))?;
    let (first, last) = (verticals[0], *verticals.last()?);
    // The runs end at the first and last lines, within a gap or half a cell's step (a frame joined to the runs
    // lies before the line's first character, whose bar is in its middle).
    let reach = GAP.max((pitch_x / (2 * horizontals.len()) as f64) as usize);
    if first.start.abs_diff(x0) > reach || last.end.abs_diff(x1) > reach {
        return None;
    }
    // Boxes of (V-1)×(H-1) cells: c rows of boxes, r columns of them. A box line is a row (column) of characters
    // on the cells' own lattice, so a box spans its cells and one line: n + 1 steps.
    let (box_rows, box_cols) = (verticals.len() - 1, horizontals.len() - 1);
    let size = box_rows * box_cols;
    let (cell_w, cell_h) = (pitch_x / (box_cols + 1) as f64, pitch_y / (box_rows + 1) as f64);
    if !(4..=16).contains(&size)
        || cell_w.min(cell_h) < min_cell as f64
        || cell_w.max(cell_h) > 2.5 * cell_w.min(cell_h)
    {
        return None;
    }
    // A line of characters is thinner than half a character.
    let thin = |lines: &[Line], step: f64| lines.iter().all(|l| l.width() as f64 <= step / 2.0);
    if !thin(&verticals, cell_w) || !thin(&horizontals, cell_h) {
        return None;
    }
    // The cells' sides: halfway between lattice steps; the steps on the box lines are lines (wide ones, the
    // line's character), the others one pixel.
    let cut = |lines: &[Line], per_box: usize| {
        let mut all: Vec<Line> = Vec::with_capacity(size + 1);
        let step = |pair: &[Line]| (pair[1].centre() - pair[0].centre()) / (per_box + 1) as f64;
        for (b, pair) in lines.windows(2).enumerate() {
            let (at, p) = (pair[0].centre(), step(pair));
            let first_side = (at + 0.5 * p).round() as usize;
            if b == 0 {
                all.push(Line { start: pair[0].start.min(first_side), end: first_side });
            } else {
                all.last_mut().expect("a line before").end = first_side;
            }
            for k in 1..per_box {
                let side = (at + (k as f64 + 0.5) * p).round() as usize;
                all.push(Line { start: side, end: side });
            }
            let last_side = (at + (per_box as f64 + 0.5) * p).round() as usize;
            all.push(Line { start: last_side, end: last_side.max(pair[1].end) });
        }
        all
    };
    // The mean spacing of the cells each way (they skip a step at each box line): a point at the lattice's centre
    // for a cell is within a third of a step of the cell's own.
    let pitches = (
        (last.centre() - first.centre()) / size as f64,
        (horizontals[box_cols].centre() - horizontals[0].centre()) / size as f64,
    );
    let layout = CellLayout::measured(size, size, (first.centre() + 0.5, horizontals[0].centre() + 0.5), pitches);
    Some(Lattice {
        layout,
        verticals: cut(&verticals, box_cols),
        horizontals: cut(&horizontals, box_rows),
        boxes: Some(Boxes { rows: box_rows, cols: box_cols, drawn: true }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal grid as line pixels: boxes of `r`×`c` cells, characters `cw`×`lh` pixels, each cell two
    /// characters wide, dashes with one-pixel gaps, bars with `gap`-pixel gaps between rows of text; at (x, y).
    fn terminal(r: usize, c: usize, cw: usize, lh: usize, gap: usize, at: (usize, usize)) -> (usize, usize, Vec<bool>) {
        terminal_with_dashes(r, c, (cw, cw - 1), lh, gap, at)
    }

    /// [`terminal`] with dashes `dash` pixels long, centred in their characters (`cw` pixels wide).
    fn terminal_with_dashes(
        r: usize,
        c: usize,
        (cw, dash): (usize, usize),
        lh: usize,
        gap: usize,
        at: (usize, usize),
    ) -> (usize, usize, Vec<bool>) {
        let chars_across = r * (2 * c + 2) + 1; // per box: '|' then " 1 2 3 " as 2c+1 chars
        let lines_down = c * (r + 1) + 1;
        let (w, h) = (at.0 + chars_across * cw + 10, at.1 + lines_down * lh + 10);
        let mut mask = vec![false; w * h];
        let mut set = |x: usize, y: usize| mask[(at.1 + y) * w + at.0 + x] = true;
        for line in 0..lines_down {
            let horizontal = line % (r + 1) == 0;
            for ch in 0..chars_across {
                let bar = ch % (2 * c + 2) == 0;
                let (x0, y0) = (ch * cw, line * lh);
                if horizontal {
                    let from = x0 + (cw - 1 - dash) / 2;
                    for x in from..from + dash {
                        set(x, y0 + lh / 2);
                    }
                }
                if bar {
                    let (from, to) =
                        if horizontal { (lh / 2 - 2, lh / 2 + 2) } else { (gap / 2, lh - (gap - gap / 2)) };
                    for y in from..to {
                        set(x0 + cw / 2, y0 + y);
                    }
                } else if !horizontal && ch % 2 == 0 {
                    // A digit-like mark in the cell's character.
                    for y in lh / 4..lh * 3 / 4 {
                        set(x0 + 1, y0 + y);
                        set(x0 + cw - 2, y0 + y);
                    }
                }
            }
        }
        (w, h, mask)
    }

    #[test]
    fn a_terminal_grid_of_dashes_and_bars_is_found_with_its_cells_inside_its_boxes() {
        for (cw, lh, gap) in [(6, 13, 3), (9, 18, 2), (12, 22, 5)] {
            let (w, h, mask) = terminal(3, 3, cw, lh, gap, (17, 23));
            let grid = find(w, h, &mask, 8).unwrap_or_else(|| panic!("{cw}x{lh}"));
            assert_eq!((grid.size(), grid.boxes().rows, grid.boxes().cols), (9, 3, 3));
            assert_eq!((grid.verticals.len(), grid.horizontals.len()), (10, 10));
            // Every cell's character (columns 2, 4, 6 of a box's 8) lies inside the cell's interior.
            for col in 0..9 {
                let (x0, _, x1, _) = grid.interior(0, col);
                let ch = 17 + (col / 3) * 8 * cw + (2 + 2 * (col % 3)) * cw;
                assert!(x0 <= ch && ch + cw - 1 <= x1, "{cw}: column {col}: {x0}..{x1} vs {ch}");
            }
        }
    }

    /// DejaVu Sans Mono's dash is 5 pixels of a 12-pixel character: 7-pixel gaps, a row of dashes less than half
    /// filled.
    #[test]
    fn a_grid_of_dashes_short_against_their_characters_is_found() {
        for (cw, dash) in [(12, 5), (9, 3), (16, 6)] {
            let (w, h, mask) = terminal_with_dashes(3, 3, (cw, dash), 24, 5, (30, 40));
            let grid = find(w, h, &mask, 8).unwrap_or_else(|| panic!("dashes of {dash} in {cw}"));
            assert_eq!((grid.size(), grid.boxes().rows, grid.boxes().cols), (9, 3, 3));
        }
    }

    /// xterm's window border, two pixels from the first dash, joins every row of dashes; so may another frame at the
    /// other end.
    #[test]
    fn a_frame_right_beside_the_grid_is_no_line_of_it() {
        for both in [false, true] {
            let (cw, at) = (12, (30, 40));
            let (w, h, mut mask) = terminal_with_dashes(3, 3, (cw, 5), 24, 5, at);
            let right = at.0 + (3 * 8 + 1) * cw + 1;
            for y in 0..h {
                mask[y * w + at.0 - 2] = true;
                if both {
                    mask[y * w + right] = true;
                }
            }
            let grid = find(w, h, &mask, 8).unwrap_or_else(|| panic!("a frame at both ends: {both}"));
            assert_eq!(grid.size(), 9);
            assert!(grid.verticals[0].start > at.0 - 2 && grid.verticals[9].end < right, "{both}");
        }
    }

    /// A line of text under the grid whose letters join into a run as long as the grid's lines (xterm's `fixed`
    /// font, a status line a line and a half below): no line of the grid.
    #[test]
    fn a_run_of_text_as_long_as_the_lines_under_the_grid_is_no_line_of_it() {
        let (cw, lh, at) = (6, 13, (20, 20));
        let (w, h, mut mask) = terminal(3, 3, cw, lh, 3, at);
        let mut tall = vec![false; w * (h + 2 * lh)];
        tall[..mask.len()].copy_from_slice(&mask);
        let (right, below) = (at.0 + (3 * 8 + 1) * cw - 2, at.1 + 13 * lh + lh / 2 + 2);
        for x in at.0 + 2..right {
            tall[below * w + x] = true;
        }
        mask = tall;
        let grid = find(w, h + 2 * lh, &mask, 8).expect("the grid above the text");
        assert_eq!(grid.size(), 9);
        assert!(grid.horizontals[9].end < below);
    }

    #[test]
    fn boxes_of_two_by_three_make_a_six_by_six_grid() {
        let (w, h, mask) = terminal(2, 3, 8, 16, 3, (5, 5));
        let grid = find(w, h, &mask, 8).unwrap();
        assert_eq!((grid.size(), grid.boxes().rows, grid.boxes().cols), (6, 2, 3));
    }

    #[test]
    fn lines_not_of_one_length_or_not_evenly_spaced_are_no_grid() {
        let (w, h, mut mask) = terminal(3, 3, 6, 13, 3, (10, 10));
        // Rub out the middle horizontal lines but one: spacing broken.
        let lh = 13;
        for line in [4 * lh + lh / 2] {
            for x in 0..w {
                mask[(10 + line) * w + x] = false;
            }
        }
        assert!(find(w, h, &mask, 8).is_none());
        assert!(find(50, 50, &[false; 2500], 8).is_none());
    }
}
