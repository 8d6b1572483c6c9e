//! Finds an N×N lattice of square cells from where the picture changes across it, whatever draws the cell
//! boundaries: lines, gaps between tiles, or the tiles' own edges (bevelled or textured tiles with no line
//! between them). It is the reader's last resort, after the line finders ([`super::lines`]).
//!
//! The change across columns (rows) is summed into a profile per axis. A lattice along one axis is N+1 positions
//! `offset + k·pitch`; its score is the weakest of its boundaries (the profile's peak within a twentieth of a
//! cell of each position) over the mean profile between them, away from them by a fifth of a cell: every boundary of a board
//! changes much more than cell interiors (where only digits and texture change the picture), and a lattice that
//! reaches past the board has a weak boundary (a tenth as strong, or less). Of the lattices scoring at least half
//! the best, the widest is taken: a lattice of every other boundary, or of part of the board, can score better
//! than the whole board's, whose outermost boundaries are a tile's edge alone rather than a gap's two.
//! The columns are fitted over the whole picture, the rows over the columns found, and the columns again over the
//! rows found, so that other things in the picture weigh less at each step. A background whose texture changes as
//! much as the boundaries do hides a board from this search.

use super::{usual_boxes, Boxes, Lattice, LatticeError, Line};
use crate::game::CellLayout;

/// Lattices scoring under this many times their interiors' change are not boards.
const MIN_SCORE: f64 = 2.0;
/// How far from its place on the lattice (a share of the pitch) a boundary is looked for.
const REACH: f64 = 0.05;
/// Of the lattices scoring at least this share of the best, the widest is taken.
const NEAR_BEST: f64 = 0.5;

/// A lattice along one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
struct AxisLattice {
    pub cells: usize,
    pub offset: f64,
    pub pitch: f64,
    pub score: f64,
}

impl AxisLattice {
    pub fn position(&self, k: usize) -> f64 {
        self.offset + k as f64 * self.pitch
    }
}

/// The change across each column (`vertical` false: between x and x+1) or each row, summed over `range` of the
/// other axis.
fn profile(light: &[u8], width: usize, height: usize, vertical: bool, range: (usize, usize)) -> Vec<f64> {
    let along = if vertical { height } else { width };
    let mut out = vec![0.0; along];
    for other in range.0..range.1 {
        for (i, total) in out.iter_mut().enumerate().take(along.saturating_sub(1)) {
            let (a, b) = if vertical {
                (i * width + other, (i + 1) * width + other)
            } else {
                (other * width + i, other * width + i + 1)
            };
            *total += light[a].abs_diff(light[b]) as f64;
        }
    }
    out
}

/// How finely [`fit`] tries pitches.
#[derive(Clone, Copy)]
enum PitchStep {
    /// A quarter pixel.
    Fine,
    /// As coarse as keeps the last boundary within the reach of one found a step away (a first look over a wide
    /// range, which a fine look near the pitch found then refines).
    WithinReach,
}

/// The step of [`PitchStep::Fine`], in pixels.
const FINE_STEP: f64 = 0.25;

/// The best lattice of `cells` cells along a profile, with pitch in `pitch_range`.
fn fit(profile: &[f64], cells: usize, pitch_range: (f64, f64), step: PitchStep) -> Option<AxisLattice> {
    let n = profile.len();
    let prefix: Vec<f64> = std::iter::once(0.0)
        .chain(profile.iter().scan(0.0, |s, &v| {
            *s += v;
            Some(*s)
        }))
        .collect();
    // A boundary may sit a little off the lattice (some clients leave wider gaps between boxes than between
    // cells): the profile's peak within `reach` of each position, kept per reach.
    let mut peaks: std::collections::HashMap<isize, Vec<f64>> = std::collections::HashMap::new();
    let mut peaks_within = |reach: isize| -> Vec<f64> {
        peaks
            .entry(reach)
            .or_insert_with(|| {
                (0..n as isize)
                    .map(|i| {
                        (i - reach..=i + reach)
                            .filter(|&j| j >= 0 && (j as usize) < n)
                            .map(|j| profile[j as usize])
                            .fold(0.0, f64::max)
                    })
                    .collect()
            })
            .clone()
    };
    let mut best: Option<AxisLattice> = None;
    let mut pitch = pitch_range.0;
    while pitch <= pitch_range.1 && pitch * cells as f64 + 1.0 < n as f64 {
        let span = pitch * cells as f64;
        let margin = (pitch / 5.0).max(1.0);
        let reach = (pitch * REACH).round().max(1.0) as isize;
        let peak = peaks_within(reach);
        // The offsets tried are whole pixels, so each boundary's pixel and each cell's inside are the offset plus
        // one figure per pitch (positions are never negative: rounded and floored by truncating).
        let boundaries: Vec<usize> = (0..=cells).map(|k| (k as f64 * pitch + 0.5) as usize).collect();
        let insides: Vec<(usize, usize)> = (0..cells)
            .map(|k| {
                let (from, to) = (k as f64 * pitch + margin, (k + 1) as f64 * pitch - margin);
                (from as usize + (((from as usize) as f64) < from) as usize, to as usize)
            })
            .filter(|(a, b)| b > a)
            .collect();
        let count = insides.iter().map(|(a, b)| b - a).sum::<usize>().max(1) as f64;
        let mut offset = 0;
        while offset as f64 + span + 1.0 < n as f64 {
            let lines = boundaries.iter().map(|&x| peak[(offset + x).min(n - 1)]).fold(f64::INFINITY, f64::min);
            let inside: f64 = insides.iter().map(|&(a, b)| prefix[offset + b] - prefix[offset + a]).sum();
            let score = lines / (inside / count + 1.0);
            if best.is_none_or(|b| score > b.score) {
                best = Some(AxisLattice { cells, offset: offset as f64, pitch, score });
            }
            offset += 1;
        }
        pitch += match step {
            PitchStep::Fine => FINE_STEP,
            PitchStep::WithinReach => (pitch * REACH / cells as f64).max(FINE_STEP),
        };
    }
    best
}

/// The best lattice of any of `sizes` cells along a profile: of those scoring near the best, the widest.
fn fit_any(profile: &[f64], sizes: &[usize], pitch_range: (f64, f64)) -> Option<AxisLattice> {
    let found: Vec<AxisLattice> =
        sizes.iter().filter_map(|&cells| fit(profile, cells, pitch_range, PitchStep::WithinReach)).collect();
    let top = found.iter().map(|l| l.score).fold(0.0, f64::max);
    found
        .into_iter()
        .filter(|l| l.score >= NEAR_BEST * top)
        .max_by(|a, b| (a.pitch * a.cells as f64).total_cmp(&(b.pitch * b.cells as f64)))
}

/// A square lattice of N×N cells (N one of `sizes`) in a picture of luminance `light` (`width`×`height`, row-major),
/// its boundaries a pixel wide and its boxes the usual ones for N, or why none was found.
pub(super) fn find(
    light: &[u8],
    width: usize,
    height: usize,
    sizes: &[usize],
    min_cell: f64,
) -> Result<Lattice, LatticeError> {
    let (columns, rows) = find_axes(light, width, height, sizes, min_cell).map_err(LatticeError::NoEdges)?;
    let size = columns.cells;
    let lines = |l: &AxisLattice| {
        (0..=size).map(|k| l.position(k).round() as usize).map(|p| Line { start: p, end: p }).collect::<Vec<_>>()
    };
    let layout = CellLayout::measured(size, size, (columns.offset, rows.offset), (columns.pitch, rows.pitch));
    Ok(Lattice {
        layout,
        verticals: lines(&columns),
        horizontals: lines(&rows),
        // (A side with no usual boxes, such as a Flood-It board's 7, has none.)
        boxes: usual_boxes(size).map(|(rows, cols)| Boxes { rows, cols, drawn: false }),
    })
}

/// The lattice's columns and rows, or why none was found.
fn find_axes(
    light: &[u8],
    width: usize,
    height: usize,
    sizes: &[usize],
    min_cell: f64,
) -> Result<(AxisLattice, AxisLattice), String> {
    let max_pitch = width.min(height) as f64 / *sizes.iter().min().unwrap_or(&4) as f64;
    let whole_height = profile(light, width, height, false, (0, height));
    let columns = fit_any(&whole_height, sizes, (min_cell, max_pitch)).ok_or("the picture is too small for a board")?;
    let pitch_near = |l: &AxisLattice| ((l.pitch * 0.9).max(min_cell), l.pitch * 1.1);
    // The first look's pitch made fine (the rows are looked for under these columns), on the pitches a fine look
    // over the whole range would try (from `min_cell` in fine steps), so that the lattice is the one it finds.
    let (low, high) = pitch_near(&columns);
    let low = min_cell + ((low - min_cell) / FINE_STEP).ceil() * FINE_STEP;
    let columns = fit(&whole_height, columns.cells, (low, high), PitchStep::Fine).unwrap_or(columns);
    let x_range = |c: &AxisLattice| (c.offset.max(0.0) as usize, (c.position(c.cells) as usize + 1).min(width));
    let rows = fit(
        &profile(light, width, height, true, x_range(&columns)),
        columns.cells,
        pitch_near(&columns),
        PitchStep::Fine,
    )
    .ok_or("no rows of cells under the columns found")?;
    let y_range = (rows.offset.max(0.0) as usize, (rows.position(rows.cells) as usize + 1).min(height));
    let columns = fit(&profile(light, width, height, false, y_range), rows.cells, pitch_near(&rows), PitchStep::Fine)
        .unwrap_or(columns);
    if columns.score < MIN_SCORE || rows.score < MIN_SCORE {
        return Err(format!(
            "no lattice of cells: the best, {0}×{0} cells of {1:.1} pixels at ({2:.0}, {3:.0}), changes only {4:.1} times as much at \
             its cell boundaries as inside its cells (a board's change at least {MIN_SCORE} times)",
            columns.cells,
            columns.pitch,
            columns.offset,
            rows.offset,
            columns.score.min(rows.score)
        ));
    }
    Ok((columns, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::colour::luminance;
    use image::RgbaImage;

    fn find_edge_lattice(
        image: &RgbaImage,
        sizes: &[usize],
        min_cell: f64,
    ) -> Result<(AxisLattice, AxisLattice), String> {
        let light: Vec<u8> = image.pixels().map(|p| luminance([p[0], p[1], p[2]])).collect();
        find_axes(&light, image.width() as usize, image.height() as usize, sizes, min_cell)
    }

    /// A picture of bevelled tiles with gaps between them and no lines, on a lightly textured board, beside a
    /// column of other tiles (a number pad): the board's lattice is found.
    #[test]
    fn tiles_with_gaps_and_no_lines_are_found_among_other_things() {
        let (w, h) = (700, 600);
        let mut image = RgbaImage::from_fn(w, h, |x, y| {
            let t = ((x * 7 + y * 13) % 23 / 3) as u8;
            image::Rgba([90 + t, 70 + t, 30, 255])
        });
        let (ox, oy, pitch, gap) = (130u32, 60u32, 56u32, 5u32);
        let mut tile = |x0: u32, y0: u32, side: u32, shade: u8| {
            for y in y0..y0 + side {
                for x in x0..x0 + side {
                    let bevel = if x - x0 < 3 || y - y0 < 3 { 40 } else { 0 };
                    image.put_pixel(x, y, image::Rgba([shade + bevel, shade + bevel, shade / 2, 255]));
                }
            }
        };
        for r in 0..9 {
            for c in 0..9 {
                tile(
                    ox + c * pitch + gap / 2,
                    oy + r * pitch + gap / 2,
                    pitch - gap,
                    if (r + c) % 3 == 0 { 180 } else { 110 },
                );
            }
            tile(20, 40 + r * 58, 50, 150);
        }
        let (columns, rows) = find_edge_lattice(&image, &[4, 6, 9], 12.0).unwrap();
        assert_eq!((columns.cells, rows.cells), (9, 9));
        assert!(
            (columns.pitch - pitch as f64).abs() < 1.0 && (rows.pitch - pitch as f64).abs() < 1.0,
            "{columns:?} {rows:?}"
        );
        assert!(
            (columns.offset - ox as f64).abs() <= 3.0 && (rows.offset - oy as f64).abs() <= 3.0,
            "{columns:?} {rows:?}"
        );
    }

    #[test]
    fn a_picture_with_no_lattice_is_refused() {
        let image = RgbaImage::from_fn(300, 300, |x, y| image::Rgba([(x * y % 251) as u8, 0, 0, 255]));
        assert!(find_edge_lattice(&image, &[4, 6, 9], 12.0).is_err());
        let flat = RgbaImage::from_pixel(300, 300, image::Rgba([200, 200, 200, 255]));
        assert!(find_edge_lattice(&flat, &[4, 6, 9], 12.0).is_err());
    }
}
