//! What both of Flood-It's readers use, the calibrated one ([`super::reader`]) and the one that finds the board's
//! colours in the picture ([`super::discover`]): the colours that fill solid areas of a picture (the candidates
//! for cell colours), and how far a reading that failed got.

use std::collections::HashMap;

use image::RgbaImage;

use crate::game::CellLayout;
use crate::vision::lattice::{self, sample_cells, CellSample, ClassMap, Cue, Failure, LatticeError};

/// The board's lattice, found from its cells' colours (`map`), and what each cell shows (row-major).
pub(super) fn find_cells(
    image: &RgbaImage,
    map: &ClassMap,
    min_cell: u32,
    hint: Option<&CellLayout>,
) -> Result<(CellLayout, Vec<CellSample>), LatticeError> {
    let found = lattice::find(map.width, map.height, Cue::FlatColours { map, min_cell, hint })?;
    let cells = sample_cells(image, map, &found.layout)?;
    Ok((found.layout, cells))
}

/// How far a reading got before it failed: 0, no board colour at all; 1, a patch too small, of one colour or cut
/// off; 2, a patch with no lattice, or not the expected one; 3, a lattice whose cells could not all be read.
pub(super) fn how_far(error: &LatticeError) -> u8 {
    match error.failure() {
        Failure::NothingShown => 0,
        Failure::NoPatch | Failure::Uniform | Failure::CutOff => 1,
        Failure::NotALattice | Failure::OtherLattice => 2,
        Failure::Cells => 3,
    }
}

/// A colour that fills solid areas somewhere in a picture.
pub(super) struct SolidColour {
    pub(super) rgb: [u8; 3],
    /// Pixels of the colour that are solid.
    solid: usize,
    /// Share of all its pixels that are solid: high for cells, low for lines, bevels and text.
    pub(super) solid_share: f64,
}

/// Colours that fill solid areas (a pixel with at least `reach` pixels of its colour on each side, across and
/// down) and that do not touch the picture's edge, most frequent first: the candidates for cell colours. Thin
/// lines, text and the background around a window drop out.
pub(super) fn solid_colours(image: &RgbaImage, reach: u32) -> Vec<SolidColour> {
    let (w, h) = (image.width(), image.height());
    let rgb = |x: u32, y: u32| {
        let p = image.get_pixel(x, y);
        [p[0], p[1], p[2]]
    };
    let mut edge: std::collections::HashSet<[u8; 3]> = std::collections::HashSet::new();
    for x in 0..w {
        edge.insert(rgb(x, 0));
        edge.insert(rgb(x, h - 1));
    }
    for y in 0..h {
        edge.insert(rgb(0, y));
        edge.insert(rgb(w - 1, y));
    }
    let mut counts: HashMap<[u8; 3], (usize, usize)> = HashMap::new();
    for y in reach..h.saturating_sub(reach) {
        for x in reach..w.saturating_sub(reach) {
            let c = rgb(x, y);
            if edge.contains(&c) {
                continue;
            }
            let solid = (1..=reach)
                .all(|d| rgb(x - d, y) == c && rgb(x + d, y) == c && rgb(x, y - d) == c && rgb(x, y + d) == c);
            let entry = counts.entry(c).or_default();
            entry.0 += usize::from(solid);
            entry.1 += 1;
        }
    }
    let mut colours: Vec<SolidColour> = counts
        .into_iter()
        .filter(|(_, (solid, _))| *solid > 0)
        .map(|(rgb, (solid, all))| SolidColour { rgb, solid, solid_share: solid as f64 / all as f64 })
        .collect();
    colours.sort_by(|a, b| b.solid.cmp(&a.solid).then(a.rgb.cmp(&b.rgb)));
    colours
}

/// For each colour of `image`, the side of the largest square of pixels of exactly that colour (the classic
/// dynamic programme: a pixel's square is one more than the least of its three neighbours' above and left, where
/// all four are its colour), one row kept at a time.
pub(super) fn largest_squares(image: &RgbaImage) -> HashMap<[u8; 3], u32> {
    let w = image.width() as usize;
    let packed: Vec<u32> =
        image.pixels().map(|p| u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2])).collect();
    let mut largest: HashMap<u32, u32> = HashMap::new();
    let (mut above, mut here) = (vec![0u32; w], vec![0u32; w]);
    for (y, row) in packed.chunks_exact(w.max(1)).enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let grows =
                x > 0 && y > 0 && row[x - 1] == c && packed[(y - 1) * w + x] == c && packed[(y - 1) * w + x - 1] == c;
            here[x] = if grows { 1 + here[x - 1].min(above[x]).min(above[x - 1]) } else { 1 };
            if !grows || x + 1 == w || row[x + 1] != c {
                let best = largest.entry(c).or_insert(0);
                *best = (*best).max(here[x]);
            }
        }
        std::mem::swap(&mut above, &mut here);
    }
    largest.into_iter().map(|(c, side)| ([(c >> 16) as u8, (c >> 8) as u8, c as u8], side)).collect()
}
