//! Glyphs for template matching: a mask of ink coverage (0–1 per pixel) cut to the ink's bounding box and scaled
//! into a GLYPH_SIDE² square (centred, aspect kept), and its text form in calibration files (GLYPH_SIDE rows of
//! hex digits 0–f).
//!
//! One glyph type ([`Glyph`]) and one distance ([`Glyph::distance`]) serve every reader: a Sudoku's digits, a
//! card's rank, the characters of the common fonts. What each reader weighs besides the shape (the aspect the
//! square leaves out, the ink's height and place in its cell) is its own data, a [`Weights`].

use anyhow::{bail, Context, Result};

/// Side of a normalised glyph, in samples.
pub const GLYPH_SIDE: usize = 16;

/// A mark of ink normalised for matching, and the measures the square leaves out.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// Ink coverage, GLYPH_SIDE² samples ([`normalise`]).
    pub coverage: Vec<f32>,
    /// Width over height of the ink's box.
    pub aspect: f64,
    /// Height of the ink's box, relative to what it sits in (a cell's pitch, a card's width); 0 where unmeasured.
    pub height: f64,
    /// How far the ink's centre sits below its cell's, relative to the same; 0 where unmeasured.
    pub centre_y: f64,
}

/// How much a difference in each measure adds to the distance between two glyphs (per reader: its data).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub aspect: f64,
    pub height: f64,
    pub centre_y: f64,
}

impl Weights {
    /// Shape and aspect only: glyphs of any size (the fonts' characters, rendered at a mark's height).
    pub const SHAPE: Weights = Weights { aspect: 0.05, height: 0.0, centre_y: 0.0 };
}

impl Glyph {
    /// A blank glyph (no ink, no measures), to sum glyphs into.
    pub fn blank() -> Glyph {
        Glyph { coverage: vec![0.0; GLYPH_SIDE * GLYPH_SIDE], aspect: 0.0, height: 0.0, centre_y: 0.0 }
    }

    /// The ink of `alpha` (a `w`-wide coverage mask) in its box `bbox` (x0, y0, x1, y1, inclusive), normalised,
    /// with the box's aspect; no height or place.
    pub fn cut(alpha: &[f32], w: usize, bbox: (usize, usize, usize, usize)) -> Glyph {
        let aspect = (bbox.2 - bbox.0 + 1) as f64 / (bbox.3 - bbox.1 + 1) as f64;
        Glyph { coverage: normalise(alpha, w, bbox), aspect, height: 0.0, centre_y: 0.0 }
    }

    /// The mean squared difference of the coverages, plus each measure's squared difference times its weight.
    pub fn distance(&self, other: &Glyph, weights: &Weights) -> f64 {
        mean_squared_difference(&self.coverage, &other.coverage)
            + weights.aspect * (self.aspect - other.aspect).powi(2)
            + weights.height * (self.height - other.height).powi(2)
            + weights.centre_y * (self.centre_y - other.centre_y).powi(2)
    }

    /// The mean of some glyphs.
    pub fn mean<'a>(glyphs: impl IntoIterator<Item = &'a Glyph>) -> Glyph {
        let mut sum = Glyph::blank();
        let mut n = 0usize;
        for g in glyphs {
            for (s, c) in sum.coverage.iter_mut().zip(&g.coverage) {
                *s += c;
            }
            sum.aspect += g.aspect;
            sum.height += g.height;
            sum.centre_y += g.centre_y;
            n += 1;
        }
        if n > 0 {
            let k = n as f64;
            sum.coverage.iter_mut().for_each(|c| *c /= k as f32);
            (sum.aspect, sum.height, sum.centre_y) = (sum.aspect / k, sum.height / k, sum.centre_y / k);
        }
        sum
    }
}

/// The bounding box (x0, y0, x1, y1, inclusive) of the samples of a `w`-wide mask at least `at_least`, if any.
pub fn ink_box(alpha: &[f32], w: usize, at_least: f32) -> Option<(usize, usize, usize, usize)> {
    let mut found: Option<(usize, usize, usize, usize)> = None;
    for (i, _) in alpha.iter().enumerate().filter(|(_, &a)| a >= at_least) {
        let (x, y) = (i % w, i / w);
        found = Some(match found {
            None => (x, y, x, y),
            Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
        });
    }
    found
}

/// The box (x0, y0, x1, y1) of a `w`-wide coverage mask scaled into a GLYPH_SIDE² square: the longer side fills
/// it, the shorter is centred; each sample is the mean of 4×4 points.
pub fn normalise(alpha: &[f32], w: usize, (x0, y0, x1, y1): (usize, usize, usize, usize)) -> Vec<f32> {
    let h = alpha.len() / w;
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    let side = bw.max(bh) as f32;
    let (sx0, sy0) = (x0 as f32 - (side - bw as f32) / 2.0, y0 as f32 - (side - bh as f32) / 2.0);
    const SUB: usize = 4;
    let step = side / (GLYPH_SIDE * SUB) as f32;
    let mut out = vec![0f32; GLYPH_SIDE * GLYPH_SIDE];
    for (i, cell) in out.iter_mut().enumerate() {
        let (gy, gx) = (i / GLYPH_SIDE, i % GLYPH_SIDE);
        let mut sum = 0.0;
        for u in 0..SUB {
            let y = sy0 + ((gy * SUB + u) as f32 + 0.5) * step;
            for v in 0..SUB {
                let x = sx0 + ((gx * SUB + v) as f32 + 0.5) * step;
                if x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h {
                    sum += alpha[y as usize * w + x as usize];
                }
            }
        }
        *cell = sum / (SUB * SUB) as f32;
    }
    out
}

/// Mean squared difference of two normalised glyphs' coverage.
fn mean_squared_difference(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| ((x - y) * (x - y)) as f64).sum::<f64>() / (GLYPH_SIDE * GLYPH_SIDE) as f64
}

/// The text form of a normalised glyph: GLYPH_SIDE rows of hex digits.
pub fn rows_of(coverage: &[f32]) -> Vec<String> {
    coverage
        .chunks(GLYPH_SIDE)
        .map(|row| {
            row.iter()
                .map(|&a| char::from_digit((a.clamp(0.0, 1.0) * 15.0).round() as u32, 16).expect("0..=15"))
                .collect()
        })
        .collect()
}

/// A normalised glyph from its text form; `what` names it in errors.
pub fn coverage_of(rows: &[String], what: &str) -> Result<Vec<f32>> {
    if rows.len() != GLYPH_SIDE || rows.iter().any(|r| r.chars().count() != GLYPH_SIDE) {
        bail!("glyph {what} must be {GLYPH_SIDE} rows of {GLYPH_SIDE} hex digits");
    }
    rows.iter()
        .flat_map(|r| r.chars())
        .map(|c| {
            c.to_digit(16).map(|d| d as f32 / 15.0).with_context(|| format!("glyph {what}: '{c}' is not a hex digit"))
        })
        .collect()
}

#[cfg(test)]
impl Glyph {
    /// The glyph of a mark drawn as `rows` ('#' ink), and its ink's height: a mark for tests.
    pub fn drawn(rows: &[&str]) -> (Glyph, usize) {
        let w = rows[0].len();
        let alpha: Vec<f32> = rows.iter().flat_map(|r| r.chars().map(|c| if c == '#' { 1.0 } else { 0.0 })).collect();
        (Glyph::cut(&alpha, w, (0, 0, w - 1, rows.len() - 1)), rows.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glyph_survives_its_text_form_and_fills_the_square() {
        // A 3-wide, 6-tall bar in a 10×10 mask: the tall side fills the square, the bar stays centred.
        let mut alpha = vec![0f32; 100];
        for y in 2..8 {
            for x in 4..7 {
                alpha[y * 10 + x] = 1.0;
            }
        }
        let bbox = ink_box(&alpha, 10, 0.5).unwrap();
        assert_eq!(bbox, (4, 2, 6, 7));
        let glyph = normalise(&alpha, 10, bbox);
        assert_eq!(glyph[8 * GLYPH_SIDE + 8], 1.0, "centre inked");
        assert_eq!(glyph[8 * GLYPH_SIDE], 0.0, "left edge blank");
        assert_eq!(glyph[GLYPH_SIDE / 2], 1.0, "top row inked in the middle");
        let back = coverage_of(&rows_of(&glyph), "bar").unwrap();
        assert!(mean_squared_difference(&glyph, &back) < 1e-3);
        let (a, b) = (Glyph { coverage: glyph, aspect: 0.5, height: 0.6, centre_y: 0.1 }, Glyph::blank());
        let shape_only = Weights { aspect: 0.0, height: 0.0, centre_y: 0.0 };
        assert!(a.distance(&b, &Weights::SHAPE) > a.distance(&b, &shape_only));
        assert_eq!(a.distance(&a, &Weights { aspect: 1.0, height: 1.0, centre_y: 1.0 }), 0.0);
        assert_eq!(Glyph::mean([&a, &a]), a);
        assert!(coverage_of(&["0".repeat(16)], "short").is_err());
        assert!(ink_box(&[0.0; 4], 2, 0.5).is_none());
    }
}
