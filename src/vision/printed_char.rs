//! One character printed on a patch of flat colour (a key's letter on a colour swatch, a digit on a tile), read
//! with no calibration by the common fonts' letters and digits ([`FontGlyphs`]).
//!
//! The character's ink is what differs in lightness from the patch's own colour by [`INK_CONTRAST`] or more,
//! inside the patch's box: dark print on a light patch and light print on a dark one read alike. Shapes of ink
//! that touch the box's border are the patch's outline, shadow or rounded corners, not print, and are left out;
//! the rest, together, are the character (an `i` or a `j` has two shapes). The name is a first guess, not a
//! gate: a reading says how near the fonts' character is, and what the character does is proved by pressing it.

use std::path::Path;

use anyhow::Result;
use image::RgbaImage;

use super::colour::luminance;
use super::font_glyphs::FontGlyphs;
use super::glyph::{normalise, Glyph};
use super::runs::{components, Component};

/// How much lighter or darker than the patch print is.
const INK_CONTRAST: i32 = 60;
/// A mark further than this from every character of the fonts is no character (an icon, a picture).
const NOT_A_CHARACTER: f64 = 0.2;
/// The smallest height of a printed character, in pixels.
const MIN_HEIGHT: usize = 6;
/// The characters a key may be printed as.
const CHARACTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A character read on a patch: the key it names (a lower-case letter or a digit) and how far its shape is from
/// the fonts' nearest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrintedChar {
    pub key: char,
    pub distance: f64,
}

/// Reads characters printed in the common fonts.
pub struct CharReader {
    glyphs: FontGlyphs,
}

impl CharReader {
    /// The letters and digits of the fonts `root/fonts.toml` lists.
    pub fn load(root: &Path) -> Result<CharReader> {
        Ok(CharReader { glyphs: FontGlyphs::load(root, CHARACTERS)? })
    }

    /// The character printed inside the box `(x0, y0, x1, y1)` (inclusive) of a patch of colour `patch`, if
    /// there is one that reads as a letter or digit; upper and lower case name the same key.
    pub fn read_on(
        &self,
        image: &RgbaImage,
        (x0, y0, x1, y1): (usize, usize, usize, usize),
        patch: [u8; 3],
    ) -> Option<PrintedChar> {
        let (x1, y1) = (x1.min(image.width() as usize - 1), y1.min(image.height() as usize - 1));
        if x1 < x0 + MIN_HEIGHT || y1 < y0 + MIN_HEIGHT {
            return None;
        }
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        let ground = luminance(patch) as i32;
        let ink: Vec<bool> = (0..w * h)
            .map(|i| {
                let p = image.get_pixel((x0 + i % w) as u32, (y0 + i / w) as u32);
                (luminance([p[0], p[1], p[2]]) as i32 - ground).abs() >= INK_CONTRAST
            })
            .collect();
        let print: Vec<Component> =
            components(w, h, 0, |y| &ink[y * w..(y + 1) * w]).into_iter().filter(|c| !c.touches_edge(w, h)).collect();
        let mark = print.iter().copied().reduce(|a, b| a.joined(&b))?;
        if mark.height() < MIN_HEIGHT {
            return None;
        }
        let (mw, mh) = (mark.width(), mark.height());
        let alpha: Vec<f32> =
            (0..mw * mh).map(|i| if ink[(mark.y0 + i / mw) * w + mark.x0 + i % mw] { 1.0 } else { 0.0 }).collect();
        let coverage = normalise(&alpha, mw, (0, 0, mw - 1, mh - 1));
        let glyph = Glyph { coverage, aspect: mw as f64 / mh as f64, height: 0.0, centre_y: 0.0 };
        let (key, distance, _) =
            self.glyphs.nearest(&glyph, mh, |c| c.is_ascii_alphanumeric().then(|| c.to_ascii_lowercase()))?;
        (distance <= NOT_A_CHARACTER).then_some(PrintedChar { key, distance })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn reader() -> CharReader {
        CharReader::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration")).expect("the fonts are installed")
    }

    /// A swatch of `colour` with an outline, and `character` drawn on it in `ink` by DejaVu Sans Bold.
    fn swatch(character: char, colour: [u8; 3], ink: [u8; 3]) -> RgbaImage {
        let font = fontdue::Font::from_bytes(
            std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf").expect("DejaVu Sans Bold"),
            fontdue::FontSettings::default(),
        )
        .expect("a font");
        let (metrics, bitmap) = font.rasterize(character, 26.0);
        let mut image = RgbaImage::from_pixel(60, 44, Rgba([40, 40, 40, 255]));
        for y in 1..43 {
            for x in 1..59 {
                image.put_pixel(x, y, Rgba([colour[0], colour[1], colour[2], 255]));
            }
        }
        let (ox, oy) = (30 - metrics.width / 2, 22 - metrics.height / 2);
        for y in 0..metrics.height {
            for x in 0..metrics.width {
                let a = bitmap[y * metrics.width + x] as f32 / 255.0;
                let mix = |i: usize| (colour[i] as f32 * (1.0 - a) + ink[i] as f32 * a).round() as u8;
                image.put_pixel((ox + x) as u32, (oy + y) as u32, Rgba([mix(0), mix(1), mix(2), 255]));
            }
        }
        image
    }

    #[test]
    fn a_key_printed_on_a_swatch_is_read_dark_on_light_and_light_on_dark() {
        let reader = reader();
        for (character, colour, ink, key) in [
            ('Q', [241, 196, 15], [0, 0, 0], 'q'),
            ('W', [31, 119, 180], [255, 255, 255], 'w'),
            ('E', [214, 39, 40], [255, 255, 255], 'e'),
            ('7', [44, 160, 44], [0, 0, 0], '7'),
        ] {
            let image = swatch(character, colour, ink);
            let read = reader.read_on(&image, (0, 0, 59, 43), colour);
            assert_eq!(read.map(|r| r.key), Some(key), "{character} on {colour:?}: {read:?}");
        }
    }

    #[test]
    fn a_plain_swatch_has_no_key() {
        let colour = [148, 103, 189];
        let image = swatch(' ', colour, [0, 0, 0]);
        assert_eq!(reader().read_on(&image, (0, 0, 59, 43), colour), None);
    }
}
