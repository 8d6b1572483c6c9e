//! Glyphs for template matching: a mask of ink coverage (0–1 per pixel) cut to the ink's bounding box and scaled
//! into a GLYPH_SIDE² square (centred, aspect kept), and its text form in calibration files (GLYPH_SIDE rows of
//! hex digits 0–f).

use anyhow::{bail, Context, Result};

/// Side of a normalised glyph, in samples.
pub const GLYPH_SIDE: usize = 16;

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

/// Mean squared difference of two normalised glyphs.
pub fn mean_squared_difference(a: &[f32], b: &[f32]) -> f64 {
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
        assert!(coverage_of(&["0".repeat(16)], "short").is_err());
        assert!(ink_box(&[0.0; 4], 2, 0.5).is_none());
    }
}
