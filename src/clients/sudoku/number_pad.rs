//! A Sudoku client's number pad: buttons labelled with the digits, beside or below the board, that enter a
//! digit into the selected cell where typing does nothing.
//!
//! The pad is found with no calibration, from the idea of one: outside the grid, one mark per digit 1..size
//! that the digits of the known fonts ([`DigitShapes`]) read as that digit, all of about one height. Marks are
//! the connected pixels much darker or much lighter than their surroundings (a local mean over about a cell, at
//! two contrasts), so a pad of any colours is found, dark digits on light buttons or light on dark. Marks
//! closer together than their height are parts of one button (a bar of its bevel reads as a 1), and only the
//! one most like a digit counts. Where a digit shows more than once outside the grid (a clock, a score), the
//! mark in line with most of the others is taken, as buttons stand in a row, a column or a block. A click on
//! the middle of a digit's mark presses its button.

use image::{GrayImage, Luma, RgbaImage};
use imageproc::integral_image::{integral_image, sum_image_pixels};

use super::discover::DigitShapes;
use crate::game::CellLayout;
use crate::vision::colour::luminance;
use crate::vision::font_glyphs::is_sure;
use crate::vision::glyph::{ink_box, Glyph};
use crate::vision::runs::components;

/// How far (in luminance) a mark differs from the mean around it: each is tried (a digit may touch a button's
/// bevel at the lower, and lose thin strokes at the higher).
const CONTRASTS: [i32; 2] = [40, 80];
/// The mean is taken over a square of this many cell pitches a side.
const SURROUNDINGS: f64 = 1.2;
/// A mark's height, in cell pitches: at least, at most.
const SHORTEST: f64 = 0.2;
const TALLEST: f64 = 1.5;
/// How far the marks' heights may be from their median, as a share of it.
const SAME_HEIGHT: f64 = 0.3;

/// The click point of each digit's button, indexed by digit (index 0 unused).
#[derive(Clone, Debug, PartialEq)]
pub struct NumberPad {
    pub buttons: Vec<(i32, i32)>,
}

impl NumberPad {
    /// The point to click for `digit`, if the pad has it.
    pub fn button(&self, digit: u8) -> Option<(i32, i32)> {
        self.buttons.get(digit as usize).copied().filter(|_| digit > 0)
    }
}

/// A mark outside the grid read as a digit: the digit, its box's centre and height, and how far it is from the
/// digit's shape.
struct Mark {
    digit: u8,
    centre: (f64, f64),
    height: usize,
    distance: f64,
}

/// The number pad of a `size`×`size` Sudoku whose cells are `cells`, if the picture shows one.
pub fn find(image: &RgbaImage, cells: &CellLayout, size: usize, shapes: &DigitShapes) -> Option<NumberPad> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let lightness = GrayImage::from_fn(image.width(), image.height(), |x, y| {
        let p = image.get_pixel(x, y);
        Luma([luminance([p[0], p[1], p[2]])])
    });
    let light: Vec<i32> = lightness.as_raw().iter().map(|&l| l as i32).collect();
    let mean = local_means(&lightness, ((cells.side() * SURROUNDINGS / 2.0).round() as u32).max(4));
    // The grid and half a cell around it are not the pad.
    let (margin, (width, height)) = (cells.side() / 2.0, cells.extent());
    let grid = (
        cells.origin_x - margin,
        cells.origin_y - margin,
        cells.origin_x + width + margin,
        cells.origin_y + height + margin,
    );
    let mut marks = Vec::new();
    for (darker, contrast) in [true, false].into_iter().flat_map(|d| CONTRASTS.map(|c| (d, c))) {
        let mask: Vec<bool> = (0..w * h)
            .map(|i| if darker { light[i] < mean[i] - contrast } else { light[i] > mean[i] + contrast })
            .collect();
        for c in components(w, h, 0, |y| &mask[y * w..(y + 1) * w]) {
            let (bw, bh) = (c.x1 - c.x0 + 1, c.y1 - c.y0 + 1);
            let tall_enough = bh as f64 >= (SHORTEST * cells.pitch_y).max(8.0) && bh as f64 <= TALLEST * cells.pitch_y;
            let inside = (c.x1 as f64) >= grid.0
                && (c.x0 as f64) <= grid.2
                && (c.y1 as f64) >= grid.1
                && (c.y0 as f64) <= grid.3;
            if !tall_enough || bw as f64 > 1.2 * bh as f64 || inside {
                continue;
            }
            // The mark's own pixels in its box (other marks reaching into the box are left out of it).
            let alpha: Vec<f32> =
                (0..bw * bh).map(|i| if mask[(c.y0 + i / bw) * w + c.x0 + i % bw] { 1.0 } else { 0.0 }).collect();
            let Some(bbox) = ink_box(&alpha, bw, 0.5) else { continue };
            let aspect = bw as f64 / bh as f64;
            let glyph = Glyph { aspect, ..Glyph::cut(&alpha, bw, bbox) };
            let (digit, best, next) = shapes.classify(&glyph, bh);
            if digit >= 1 && digit as usize <= size && is_sure(best, next) {
                marks.push(Mark {
                    digit,
                    centre: ((c.x0 + c.x1) as f64 / 2.0, (c.y0 + c.y1) as f64 / 2.0),
                    height: bh,
                    distance: best,
                });
            }
        }
    }
    pad_of(marks, size)
}

/// One mark per digit 1..size, of about one height, in line with the others where a digit shows twice. Marks
/// closer together than that height are parts of one button (a digit and a bar of its bevel, which reads as a
/// 1): only the one nearest a digit's shape counts.
fn pad_of(mut marks: Vec<Mark>, size: usize) -> Option<NumberPad> {
    let mut heights: Vec<usize> = marks.iter().map(|m| m.height).collect();
    heights.sort_unstable();
    let median = *heights.get(heights.len() / 2)? as f64;
    marks.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    let mut alike: Vec<&Mark> = Vec::new();
    for m in marks.iter().filter(|m| (m.height as f64 - median).abs() <= SAME_HEIGHT * median) {
        if alike.iter().all(|kept| distance(kept.centre, m.centre) >= median) {
            alike.push(m);
        }
    }
    // Buttons stand in a row, a column or a block: where a digit shows more than once, the mark in line
    // (across or down) with the most marks of the digits that show once is its button, then the nearest to them.
    let once: Vec<&Mark> =
        alike.iter().copied().filter(|m| alike.iter().filter(|o| o.digit == m.digit).count() == 1).collect();
    let in_line = |m: &Mark| {
        once.iter()
            .filter(|o| {
                (o.centre.0 - m.centre.0).abs() < median / 2.0 || (o.centre.1 - m.centre.1).abs() < median / 2.0
            })
            .count()
    };
    let nearest = |m: &Mark| once.iter().map(|o| distance(o.centre, m.centre)).fold(f64::INFINITY, f64::min);
    let mut found: Vec<Option<(f64, f64)>> = vec![None; size + 1];
    for digit in 1..=size as u8 {
        found[digit as usize] = alike
            .iter()
            .filter(|m| m.digit == digit)
            .max_by(|a, b| in_line(a).cmp(&in_line(b)).then(nearest(b).total_cmp(&nearest(a))))
            .map(|m| m.centre);
    }
    let buttons = regular_buttons(&found, median / 2.0)?;
    Some(NumberPad { buttons: buttons.into_iter().map(|(x, y)| (x.round() as i32, y.round() as i32)).collect() })
}

/// The arrangements a pad's buttons may have, as the coordinates of digit d (from 1) on the pad: one line
/// (a row or a column), or blocks of three (a 3×3 pad, in either vertical order).
const ARRANGEMENTS: [fn(usize) -> [f64; 2]; 2] =
    [|d| [(d - 1) as f64, 0.0], |d| [((d - 1) % 3) as f64, ((d - 1) / 3) as f64]];

/// The buttons' points (index = digit; index 0 unused), where the digits found (at most one missing) lie on one
/// of the [`ARRANGEMENTS`] evenly, within `tolerance` pixels: a missing digit (one that touches its button's
/// bevel, say) is put where the arrangement has it. None when no arrangement fits.
fn regular_buttons(found: &[Option<(f64, f64)>], tolerance: f64) -> Option<Vec<(f64, f64)>> {
    let digits: Vec<usize> = (1..found.len()).filter(|&d| found[d].is_some()).collect();
    if digits.len() + 1 < found.len() - 1 || digits.len() < 3 {
        return None;
    }
    ARRANGEMENTS.iter().find_map(|place| {
        // Least squares of each coordinate against (1, u, v): the point of digit d is origin + u·step_u + v·step_v.
        let rows: Vec<[f64; 3]> = digits.iter().map(|&d| [1.0, place(d)[0], place(d)[1]]).collect();
        let fit = |coordinate: fn((f64, f64)) -> f64| {
            let values: Vec<f64> = digits.iter().map(|&d| coordinate(found[d].expect("found"))).collect();
            least_squares(&rows, &values)
        };
        let (fx, fy) = (fit(|p| p.0)?, fit(|p| p.1)?);
        let at = |d: usize| {
            let [u, v] = place(d);
            (fx[0] + fx[1] * u + fx[2] * v, fy[0] + fy[1] * u + fy[2] * v)
        };
        let fits = digits.iter().all(|&d| distance(at(d), found[d].expect("found")) <= tolerance);
        fits.then(|| {
            (0..found.len()).map(|d| if d == 0 { (0.0, 0.0) } else { found[d].unwrap_or_else(|| at(d)) }).collect()
        })
    })
}

/// The coefficients c minimising Σ (rows·c − values)², by the normal equations; a column that is zero throughout
/// (an arrangement with one direction only) gets 0. None when the points do not determine them.
fn least_squares(rows: &[[f64; 3]], values: &[f64]) -> Option<[f64; 3]> {
    let used: Vec<usize> = (0..3).filter(|&j| rows.iter().any(|r| r[j] != 0.0)).collect();
    let n = used.len();
    // The augmented normal equations over the used columns, solved by Gauss-Jordan elimination.
    let mut m = vec![vec![0.0; n + 1]; n];
    for (r, &value) in rows.iter().zip(values) {
        for (i, &a) in used.iter().enumerate() {
            for (j, &b) in used.iter().enumerate() {
                m[i][j] += r[a] * r[b];
            }
            m[i][n] += r[a] * value;
        }
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (row, equation) in m.iter_mut().enumerate() {
            if row != col {
                let factor = equation[col] / pivot_row[col];
                for (a, b) in equation.iter_mut().zip(&pivot_row).skip(col) {
                    *a -= factor * b;
                }
            }
        }
    }
    let mut c = [0.0; 3];
    for (i, &j) in used.iter().enumerate() {
        c[j] = m[i][n] / m[i][i];
    }
    Some(c)
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// The mean of each pixel's square of side 2·radius+1 (clipped to the picture), row by row, from imageproc's
/// summed-area table.
fn local_means(light: &GrayImage, radius: u32) -> Vec<i32> {
    let table: image::ImageBuffer<Luma<u32>, Vec<u32>> = integral_image(light);
    let (w, h) = light.dimensions();
    let mut means = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(radius), (y + radius).min(h - 1));
        for x in 0..w {
            let (x0, x1) = (x.saturating_sub(radius), (x + radius).min(w - 1));
            let sum = sum_image_pixels(&table, x0, y0, x1, y1)[0];
            means.push((sum / ((x1 - x0 + 1) * (y1 - y0 + 1))) as i32);
        }
    }
    means
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_means_are_the_means_of_the_clipped_squares() {
        let values = GrayImage::from_fn(4, 3, |x, y| Luma([(y * 4 + x) as u8])); // 0..12, 4 wide
        let means = local_means(&values, 1);
        assert_eq!(means[0], 10 / 4); // 0 1 4 5
        assert_eq!(means[5], 45 / 9); // 0 1 2 4 5 6 8 9 10
        assert_eq!(means[11], 34 / 4); // 6 7 10 11
    }

    #[test]
    fn a_digit_shown_twice_is_taken_where_it_is_in_line_with_the_others() {
        let mark = |digit, x, y| Mark { digit, centre: (x, y), height: 20, distance: 0.01 };
        let mut marks: Vec<Mark> = (1..=4).map(|d| mark(d, 100.0 + 30.0 * d as f64, 500.0)).collect();
        marks.push(mark(3, 900.0, 20.0)); // a clock's 3, far away
        let pad = pad_of(marks, 4).unwrap();
        assert_eq!(pad.button(3), Some((190, 500)));
        assert_eq!(pad.button(0), None);
        let missing: Vec<Mark> = (1..=2).map(|d| mark(d, 30.0 * d as f64, 0.0)).collect();
        assert!(pad_of(missing, 4).is_none(), "two of four digits are no pad");
        // A bar of the 2's button read as a 1, less like one than the 2 is like a 2: the 2 stands, the 1 is not
        // found there.
        let mut beside: Vec<Mark> = (2..=4).map(|d| mark(d, 100.0 + 30.0 * d as f64, 500.0)).collect();
        beside.push(Mark { distance: 0.05, ..mark(1, 168.0, 500.0) });
        assert_eq!(pad_of(beside, 4).unwrap().button(1), Some((130, 500)), "the 1 is put where the row has it");
    }

    /// A 3×3 pad with its 5 missing gets the 5 in the middle; marks in no regular arrangement are no pad.
    #[test]
    fn a_missing_digit_is_put_where_the_pad_s_arrangement_has_it() {
        let block = |d: usize| (200.0 + 40.0 * ((d - 1) % 3) as f64, 300.0 - 40.0 * ((d - 1) / 3) as f64);
        let found: Vec<Option<(f64, f64)>> = (0..=9).map(|d| (d > 0 && d != 5).then(|| block(d.max(1)))).collect();
        let buttons = regular_buttons(&found, 5.0).unwrap();
        assert!(distance(buttons[5], (240.0, 260.0)) < 1e-6, "{:?}", buttons[5]);
        let scattered: Vec<Option<(f64, f64)>> =
            (0..=4).map(|d| Some(((d * d * 37 % 101) as f64, (d * 53 % 71) as f64))).collect();
        assert!(regular_buttons(&scattered, 5.0).is_none());
    }
}
