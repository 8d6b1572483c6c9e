//! Glyph shapes drawn from font files: each character rendered at the height of the glyph it is compared with
//! and normalised as a glyph cut from a picture is ([`super::glyph::normalise`]), so that characters in a picture
//! can be recognised without templates learned from the client, across the common fonts. Rendering at the
//! glyph's own height gives the templates the same blur as the picture's small glyphs; large glyphs share one
//! rendering. The fonts are data: `calibration/fonts.toml` lists the files.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use super::glyph::{ink_box, normalise, Glyph, Weights};

/// A glyph matches a font's character when their distance (shape and aspect: [`Weights::SHAPE`]) is at most this, and the next other character is this much further.
pub const MAX_DISTANCE: f64 = 0.09;
pub const MIN_MARGIN: f64 = 0.004;

/// Whether a match at distance `best`, the next other at `next`, is sure enough to read ([`MAX_DISTANCE`],
/// [`MIN_MARGIN`]).
pub fn is_sure(best: f64, next: f64) -> bool {
    best <= MAX_DISTANCE && next - best >= MIN_MARGIN
}

/// Glyphs at least this tall (pixels) are compared with one large rendering.
const LARGE: usize = 40;
/// The size, in pixels, large renderings are made at.
const LARGE_PX: f32 = 96.0;

/// One rendered character (or a short text drawn as one mark, such as "10").
#[derive(Clone, Debug)]
pub struct FontGlyph {
    /// The text's first character.
    pub character: char,
    pub text: String,
    /// The font file it came from (its file name), for messages.
    pub font: String,
    /// Its ink, normalised (coverage and aspect; no height or place).
    pub glyph: Glyph,
}

/// `calibration/fonts.toml`: the font files whose characters are known with no calibration.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FontList {
    fonts: Vec<String>,
}

/// Characters of the listed fonts, rendered on demand at each glyph height asked for. Nothing is read or rendered
/// until a glyph is first compared: a program that starts reads the list alone, so that its first capture is not
/// held up by the fonts (a calibrated reading may never need them).
pub struct FontGlyphs {
    /// The listed font files that exist on this machine.
    files: Vec<String>,
    texts: Vec<String>,
    /// The fonts read, and the large rendering, once first needed.
    loaded: OnceLock<Loaded>,
    rendered: Mutex<HashMap<usize, Arc<Vec<FontGlyph>>>>,
}

/// The fonts as read, with what their large rendering measured.
struct Loaded {
    fonts: Vec<(String, fontdue::Font)>,
    /// Each font's ink height of each text per pixel of font size, from the large rendering.
    ink_share: HashMap<(usize, String), f32>,
}

impl FontGlyphs {
    /// The characters `characters` of every font `root/fonts.toml` lists that exists on this machine. Fonts that
    /// are missing are passed over (and, once read, fonts that are no font); none at all is an error naming the
    /// list.
    pub fn load(root: &Path, characters: &str) -> Result<FontGlyphs> {
        let texts: Vec<String> = characters.chars().map(String::from).collect();
        Self::load_texts(root, &texts)
    }

    /// As [`Self::load`], for texts each drawn as one mark (a character, or a few set side by side as the font
    /// sets them: "10").
    pub fn load_texts(root: &Path, texts: &[String]) -> Result<FontGlyphs> {
        Self::load_list(&root.join("fonts.toml"), texts)
    }

    /// As [`Self::load_texts`], from another list of fonts (`list_path`, in the form of `fonts.toml`).
    pub fn load_list(list_path: &Path, texts: &[String]) -> Result<FontGlyphs> {
        let text = std::fs::read_to_string(list_path)
            .with_context(|| format!("cannot read the font list {}", list_path.display()))?;
        let list: FontList =
            toml::from_str(&text).with_context(|| format!("{}: not a font list", list_path.display()))?;
        let files: Vec<String> = list.fonts.into_iter().filter(|file| Path::new(file).is_file()).collect();
        if files.is_empty() {
            bail!("none of the fonts listed in {} is on this machine (install fonts-dejavu-core)", list_path.display());
        }
        Ok(FontGlyphs { files, texts: texts.to_vec(), loaded: OnceLock::new(), rendered: Mutex::new(HashMap::new()) })
    }

    /// The fonts, read and rendered large on first use.
    fn loaded(&self) -> &Loaded {
        self.loaded.get_or_init(|| {
            let fonts: Vec<(String, fontdue::Font)> = self
                .files
                .iter()
                .filter_map(|file| {
                    let font = fontdue::Font::from_bytes(std::fs::read(file).ok()?, fontdue::FontSettings::default());
                    let name =
                        Path::new(file).file_name().map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
                    Some((name, font.ok()?))
                })
                .collect();
            let mut ink_share = HashMap::new();
            let large = render_all(
                &fonts,
                &self.texts,
                |_, _| LARGE_PX,
                |k, text, height| {
                    ink_share.insert((k, text.to_owned()), height as f32 / LARGE_PX);
                },
            );
            self.rendered.lock().unwrap_or_else(|e| e.into_inner()).insert(LARGE, Arc::new(large));
            Loaded { fonts, ink_share }
        })
    }

    /// Every character of every font, rendered so that its ink is `height` pixels tall (large glyphs: one
    /// shared rendering).
    pub fn at_height(&self, height: usize) -> Arc<Vec<FontGlyph>> {
        let key = height.clamp(1, LARGE);
        let loaded = self.loaded();
        if let Some(found) = self.rendered.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return found.clone();
        }
        let share = |k: usize, t: &str| loaded.ink_share.get(&(k, t.to_owned())).copied().unwrap_or(0.7);
        let glyphs = Arc::new(render_all(&loaded.fonts, &self.texts, |k, t| key as f32 / share(k, t), |_, _, _| {}));
        self.rendered.lock().unwrap_or_else(|e| e.into_inner()).insert(key, glyphs.clone());
        glyphs
    }

    /// The nearest of the characters as `key` groups them (those it gives none are left out) to `glyph`, whose
    /// ink is `height` pixels tall: the key, its distance, and the next-nearest other key's (infinite where there is none). None when no character has a key.
    pub fn nearest<K: Copy + PartialEq>(
        &self,
        glyph: &Glyph,
        height: usize,
        key: impl Fn(char) -> Option<K>,
    ) -> Option<(K, f64, f64)> {
        let best = self.distances(glyph, height, key);
        let &(k, d) = best.first()?;
        Some((k, d, best.get(1).map_or(f64::INFINITY, |next| next.1)))
    }

    /// Every key's distance (its nearest character's, over all fonts) to a glyph, nearest first.
    pub fn distances<K: Copy + PartialEq>(
        &self,
        glyph: &Glyph,
        height: usize,
        key: impl Fn(char) -> Option<K>,
    ) -> Vec<(K, f64)> {
        self.distances_by_text(glyph, height, |text| {
            let mut characters = text.chars();
            let first = characters.next()?;
            characters.next().is_none().then(|| key(first)).flatten()
        })
    }

    /// As [`Self::distances`], with the texts grouped by `key` whole (for texts of more than one character).
    pub fn distances_by_text<K: Copy + PartialEq>(
        &self,
        glyph: &Glyph,
        height: usize,
        key: impl Fn(&str) -> Option<K>,
    ) -> Vec<(K, f64)> {
        let mut best: Vec<(K, f64)> = Vec::new();
        for g in self.at_height(height).iter() {
            let Some(k) = key(&g.text) else { continue };
            let d = glyph.distance(&g.glyph, &Weights::SHAPE);
            match best.iter_mut().find(|(seen, _)| *seen == k) {
                Some(entry) => entry.1 = entry.1.min(d),
                None => best.push((k, d)),
            }
        }
        best.sort_by(|a, b| a.1.total_cmp(&b.1));
        best
    }
}

/// Every text of every font rendered at `size` pixels (by font number and text), each with its ink height told to
/// `measured`.
fn render_all(
    fonts: &[(String, fontdue::Font)],
    texts: &[String],
    size: impl Fn(usize, &str) -> f32,
    mut measured: impl FnMut(usize, &str, usize),
) -> Vec<FontGlyph> {
    let mut out = Vec::new();
    for (k, (name, font)) in fonts.iter().enumerate() {
        for text in texts {
            if text.chars().any(|c| font.lookup_glyph_index(c) == 0) {
                continue;
            }
            if let Some((glyph, height)) = render(font, text, size(k, text), name) {
                measured(k, text, height);
                out.push(glyph);
            }
        }
    }
    out
}

/// A text at `px`, its characters set side by side as the font spaces them, normalised, and its ink height in
/// pixels.
fn render(font: &fontdue::Font, text: &str, px: f32, name: &str) -> Option<(FontGlyph, usize)> {
    // Each character's bitmap and where its top left falls (x right, y down from the baseline).
    let mut placed = Vec::new();
    let mut pen = 0.0f32;
    let mut previous = None;
    for c in text.chars() {
        if let Some(p) = previous {
            pen += font.horizontal_kern(p, c, px).unwrap_or(0.0);
        }
        let (metrics, bitmap) = font.rasterize(c, px);
        let left = (pen + metrics.xmin as f32).round() as i32;
        let top = -(metrics.ymin + metrics.height as i32);
        placed.push((left, top, metrics.width, metrics.height, bitmap));
        pen += metrics.advance_width;
        previous = Some(c);
    }
    let x_min = placed.iter().map(|p| p.0).min()?;
    let y_min = placed.iter().map(|p| p.1).min()?;
    let w = (placed.iter().map(|p| p.0 + p.2 as i32).max()? - x_min).max(1) as usize;
    let h = (placed.iter().map(|p| p.1 + p.3 as i32).max()? - y_min).max(1) as usize;
    let mut alpha = vec![0f32; w * h];
    for (left, top, bw, bh, bitmap) in &placed {
        for (i, &a) in bitmap.iter().enumerate() {
            let (x, y) = ((left - x_min) as usize + i % bw, (top - y_min) as usize + i / bw);
            let cell = &mut alpha[y * w + x];
            *cell = (*cell + a as f32 / 255.0).min(1.0);
        }
        let _ = bh;
    }
    let bbox = ink_box(&alpha, w, 0.5)?;
    let (x0, y0, x1, y1) = bbox;
    let glyph = FontGlyph {
        character: text.chars().next()?,
        text: text.to_owned(),
        font: name.to_string(),
        glyph: Glyph {
            coverage: normalise(&alpha, w, bbox),
            aspect: (x1 - x0 + 1) as f64 / (y1 - y0 + 1) as f64,
            height: 0.0,
            centre_y: 0.0,
        },
    };
    Some((glyph, y1 - y0 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list whose only file exists is taken at once without reading it (nothing is read before a glyph is
    /// compared); a file that is no font is then passed over like a missing one. A list of files none of which
    /// exists is an error at once.
    #[test]
    fn fonts_are_read_only_when_a_glyph_is_first_compared() {
        let dir = tempfile::tempdir().unwrap();
        let not_a_font = dir.path().join("not-a-font.ttf");
        std::fs::write(&not_a_font, b"no font at all").unwrap();
        let list = dir.path().join("fonts.toml");
        std::fs::write(&list, format!("fonts = [{:?}, \"/nowhere/missing.ttf\"]\n", not_a_font.display().to_string()))
            .unwrap();
        let glyphs = FontGlyphs::load_list(&list, &["7".to_string()]).expect("a listed file exists");
        assert!(glyphs.loaded.get().is_none(), "nothing read yet");
        assert!(glyphs.at_height(20).is_empty());
        assert!(glyphs.loaded.get().is_some_and(|loaded| loaded.fonts.is_empty()));

        std::fs::write(&list, "fonts = [\"/nowhere/missing.ttf\"]\n").unwrap();
        let error = FontGlyphs::load_list(&list, &["7".to_string()]).err().expect("no font on this machine");
        assert!(format!("{error:#}").contains("is on this machine"), "{error:#}");
    }
}
