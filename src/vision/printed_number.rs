//! A whole number printed as text ("Stack Total: 27"), read at a point on it: the line of text is the band of
//! the ink shape nearest the point, the number the run of shapes beside it, one digit each, that the digits of
//! the common fonts ([`FontGlyphs`]) read with a clear margin. Ink is what differs strongly in lightness from
//! the middle lightness around the point, so light text on dark and dark on light read alike.

use std::path::Path;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::colour::luminance;
use super::font_glyphs::{is_sure, FontGlyphs};
use super::glyph::{normalise, Glyph};
use super::runs::{components, Component};

/// How much lighter or darker than the surroundings' middle lightness ink is.
const INK_CONTRAST: i32 = 60;
/// Digits of one number are at most this share of their height apart.
const DIGIT_GAP: f64 = 0.5;

/// Reads numbers printed in the common fonts.
pub struct NumberReader {
    digits: FontGlyphs,
}

impl NumberReader {
    /// The digits of the fonts `root/fonts.toml` lists.
    pub fn load(root: &Path) -> Result<NumberReader> {
        Ok(NumberReader { digits: FontGlyphs::load(root, "0123456789")? })
    }

    /// The number printed at `point`, looked for within `reach` pixels across (half that up and down).
    pub fn read(&self, image: &RgbaImage, point: (i32, i32), reach: usize) -> Result<u32> {
        let (w, h) = (image.width() as i64, image.height() as i64);
        if w == 0 || h == 0 {
            bail!("an empty picture has no number");
        }
        let (px, py) = (point.0 as i64, point.1 as i64);
        let clip = |v: i64, most: i64| v.clamp(0, most - 1) as usize;
        let (x0, x1) = (clip(px - reach as i64, w), clip(px + reach as i64, w));
        let (y0, y1) = (clip(py - reach as i64 / 2, h), clip(py + reach as i64 / 2, h));
        if x1 <= x0 || y1 <= y0 || px < 0 || py < 0 || px >= w || py >= h {
            bail!("the point ({}, {}) is outside the {}x{} picture", point.0, point.1, w, h);
        }
        let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
        let light: Vec<i32> = (0..bw * bh)
            .map(|i| {
                let p = image.get_pixel((x0 + i % bw) as u32, (y0 + i / bw) as u32);
                luminance([p[0], p[1], p[2]]) as i32
            })
            .collect();
        let mut sorted = light.clone();
        sorted.sort_unstable();
        let middle = sorted[sorted.len() / 2];
        let ink: Vec<bool> = light.iter().map(|&l| (l - middle).abs() > INK_CONTRAST).collect();
        let shapes: Vec<Component> =
            components(bw, bh, 0, |y| &ink[y * bw..(y + 1) * bw]).into_iter().filter(|c| c.height() >= 5).collect();
        let (lx, ly) = ((px as usize - x0) as i64, (py as usize - y0) as i64);
        let away = |c: &Component| {
            let dx = (c.x0 as i64 - lx).max(lx - c.x1 as i64).max(0);
            let dy = (c.y0 as i64 - ly).max(ly - c.y1 as i64).max(0);
            dx * dx + dy * dy
        };
        let seed = *shapes
            .iter()
            .min_by_key(|c| away(c))
            .with_context(|| format!("no text near ({}, {})", point.0, point.1))?;
        if away(&seed) as f64 > (seed.height() as f64 * 2.0).powi(2) {
            bail!(
                "no text at ({}, {}): the nearest mark is {} pixels away",
                point.0,
                point.1,
                (away(&seed) as f64).sqrt().round()
            );
        }
        // The shapes of the seed's line, of a digit's height, left to right.
        let band = |c: &Component| {
            c.y0.max(seed.y0) as f64 <= c.y1.min(seed.y1) as f64 - 0.5 * c.height() as f64
                && c.height() * 10 >= seed.height() * 6
        };
        let mut line: Vec<Component> = shapes.iter().filter(|c| band(c)).copied().collect();
        line.sort_by_key(|c| c.x0);
        let at = line.iter().position(|c| *c == seed).context("the seed is on its own line")?;
        let digit = |c: &Component| self.digit(&ink, bw, c);
        let first = digit(&seed).with_context(|| format!("the text at ({}, {}) is not a number", point.0, point.1))?;
        let gap = |a: &Component, b: &Component| (b.x0 as f64 - a.x1 as f64) <= DIGIT_GAP * seed.height() as f64;
        let mut digits = vec![first];
        for pair in line[at..].windows(2) {
            match digit(&pair[1]) {
                Some(d) if gap(&pair[0], &pair[1]) => digits.push(d),
                _ => break,
            }
        }
        for pair in line[..=at].windows(2).rev() {
            match digit(&pair[0]) {
                Some(d) if gap(&pair[0], &pair[1]) => digits.insert(0, d),
                _ => break,
            }
        }
        let text: String = digits.iter().collect();
        text.parse().with_context(|| format!("{text} is too large a number"))
    }

    /// The digit a shape is, if the fonts read it with a clear margin.
    fn digit(&self, ink: &[bool], width: usize, c: &Component) -> Option<char> {
        let (w, h) = (c.width(), c.height());
        let alpha: Vec<f32> =
            (0..w * h).map(|i| if ink[(c.y0 + i / w) * width + c.x0 + i % w] { 1.0 } else { 0.0 }).collect();
        let coverage = normalise(&alpha, w, (0, 0, w - 1, h - 1));
        let glyph = Glyph { coverage, aspect: w as f64 / h as f64, height: 0.0, centre_y: 0.0 };
        let (digit, best, next) = self.digits.nearest(&glyph, h, |c| c.is_ascii_digit().then_some(c))?;
        is_sure(best, next).then_some(digit)
    }
}
