//! Reading a Flood-It board with no calibration: the board's colours are found from the picture itself.
//!
//! A board is a lattice of flat cells. The candidates for cell colours are the colours that fill solid areas
//! and do not touch the picture's edge (so the background around a window and gradient pages drop out), and a
//! patch of a candidate that reaches the picture's edge is no part of a board (a gradient page passing near a
//! cell colour). A few
//! of them may still be the window's own (a frame, a panel): the most frequent ones and the least cell-like ones
//! are left out in turn, fewest first, until a lattice of square cells explains the patch that is left and every
//! cell reads as one of the colours. Pixels are classified only where their colour also fills the eight pixels
//! around them, so a line one or two pixels wide (a frame drawn in a cell colour, such as a white highlight beside white
//! cells, or the corner where two such lines meet) never joins the board.
//!
//! Each colour gets a symbol from the colour alone (its hue, lightness and saturation: `R` red, `G` green, `g`
//! a pale green, …), so that the same colour has the same symbol in every picture of a game whatever other
//! colours are left; a calibrated theme's symbol is used instead where one of the themes has the colour.

use anyhow::{bail, Result};
use image::RgbaImage;

use super::reading::{how_far, largest_squares, solid_colours, SolidColour};
use super::theme::{PaletteColour, PaletteTheme};
use crate::calibration::format_rgb;
use crate::game::CellLayout;
use crate::vision::lattice::ClassMap;

pub use crate::calibration::FOUND_THEME;
/// Colours closer than this (largest channel difference) are one board colour (anti-aliasing, gradients).
const TOLERANCE: u8 = 12;
/// The smallest cell side considered.
const MIN_CELL: u32 = 8;
/// How many solid colours are considered, most frequent first.
const CANDIDATES: usize = 24;
/// The most frequent candidates, the widest and the least cell-like ones, left out in turn (window colours: see
/// [`suspects`]).
const MOST_FREQUENT: usize = 3;
const WIDEST: usize = 1;
const LEAST_CELL_LIKE: usize = 3;
/// The most candidates left out in turn: every subset of them is tried, fewest first.
const SUSPECTS: usize = 7;

/// A candidate for a cell colour: a colour that fills solid areas, and the side of the largest square it fills
/// anywhere (about a cell's for every cell colour, as each fills a whole cell somewhere; a few pixels for a frame, a
/// line or text).
struct Candidate {
    colour: SolidColour,
    largest_square: u32,
}

/// Finds the board's palette from the picture (see the module doc); `known` themes lend their symbols.
pub fn discover_theme(image: &RgbaImage, known: &[PaletteTheme], hint: Option<&CellLayout>) -> Result<PaletteTheme> {
    // Colours within the tolerance of a more frequent one are that colour (a window's two near greys, say), so
    // that leaving a colour out leaves out its near twins too.
    let squares = largest_squares(image);
    let mut solid: Vec<Candidate> = Vec::new();
    for colour in solid_colours(image, 1) {
        let side = squares.get(&colour.rgb).copied().unwrap_or(0);
        let near = |c: &Candidate| (0..3).all(|i| c.colour.rgb[i].abs_diff(colour.rgb[i]) <= TOLERANCE);
        match solid.iter().position(near) {
            Some(twin) => solid[twin].largest_square = solid[twin].largest_square.max(side),
            None if solid.len() < CANDIDATES => solid.push(Candidate { colour, largest_square: side }),
            None => {}
        }
    }
    leave_out_thin_colours(&mut solid);
    if solid.len() < 2 {
        bail!("no board found: fewer than two colours fill solid areas of the picture");
    }
    let colours: Vec<[u8; 3]> = solid.iter().map(|c| c.colour.rgb).collect();
    let suspects = suspects(&solid);
    // Subsets of suspects to leave out, fewest first.
    let mut subsets: Vec<u32> = (0..1u32 << suspects.len()).collect();
    subsets.sort_by_key(|s| (s.count_ones(), *s));
    let mut closest: Option<(u8, crate::vision::lattice::LatticeError)> = None;
    // The solid pixels of every candidate, found once; each subset keeps those of its colours. (A pixel within the
    // tolerance of two candidates goes to the nearer even where that one is left out: such pixels are the
    // blend along an edge between two near colours.)
    let all = solid_classes(image, &colours);
    for excluded in subsets {
        let left_out = |i: usize| suspects.iter().position(|&s| s == i).is_some_and(|bit| excluded & (1 << bit) != 0);
        let kept: Vec<[u8; 3]> = colours.iter().enumerate().filter(|(i, _)| !left_out(*i)).map(|(_, c)| *c).collect();
        let mut renumber = [0u8; 256];
        let mut next = 0u8;
        for i in (0..colours.len()).filter(|&i| !left_out(i)) {
            next += 1;
            renumber[i + 1] = next;
        }
        let mut classes: Vec<u8> = all.classes.iter().map(|&c| renumber[c as usize]).collect();
        forget_edge_patches(&mut classes, all.width, all.height);
        let map = ClassMap { width: all.width, height: all.height, classes };
        match super::reading::find_cells(image, &map, MIN_CELL, hint) {
            Ok((layout, samples)) => {
                if layout.cols * layout.rows < 4 {
                    continue;
                }
                let mut looks: Vec<([u8; 3], bool)> =
                    samples.iter().map(|s| (kept[s.class as usize - 1], s.marked)).collect();
                looks.sort_unstable();
                looks.dedup();
                return Ok(theme_of(looks, known));
            }
            Err(e) => {
                let stage = how_far(&e);
                if closest.as_ref().is_none_or(|(best, _)| stage > *best) {
                    closest = Some((stage, e));
                }
            }
        }
    }
    let error =
        closest.map_or_else(|| "no colour set gave a board of at least 2×2 cells".to_string(), |(_, e)| e.to_string());
    bail!("no lattice of flat cells found without a calibration ({} solid colours tried): {error}", colours.len())
}

/// The candidates that may be the window's own rather than the board's, to be left out in turn (at most
/// [`SUSPECTS`]): the most frequent (a window's background fills more of it than any one cell colour, where the board
/// is small in its window), the one that fills the largest square (a panel is wider than a cell; where the board
/// fills most of its window, a cell colour can be more frequent than the window's background, whose largest
/// square is still larger than a cell), and the least cell-like (the smallest share of solid pixels: text, lines).
fn suspects(solid: &[Candidate]) -> Vec<usize> {
    let mut suspects: Vec<usize> = (0..solid.len().min(MOST_FREQUENT)).collect();
    let mut by_square: Vec<usize> = (0..solid.len()).collect();
    by_square.sort_by_key(|&i| std::cmp::Reverse(solid[i].largest_square));
    let mut by_share: Vec<usize> = (0..solid.len()).collect();
    by_share.sort_by(|&a, &b| solid[a].colour.solid_share.total_cmp(&solid[b].colour.solid_share));
    let widest = by_square.into_iter().filter(|i| !suspects.contains(i)).take(WIDEST);
    suspects.extend(widest.collect::<Vec<_>>());
    let least_cell_like: Vec<usize> =
        by_share.into_iter().filter(|i| !suspects.contains(i)).take(LEAST_CELL_LIKE).collect();
    suspects.extend(least_cell_like);
    suspects.truncate(SUSPECTS);
    suspects
}

/// Leaves out the colours that fill no square near a cell's size: every cell colour fills a whole cell somewhere,
/// and the cells are all one size, so most candidates fill a square about a cell's side; a frame around the board
/// (sgt-flood draws one of two colours a few pixels wide, which joins the board's patch across the dark outline
/// and skews its lattice), a line or text fills one of a few pixels. Taken as a cell's side: the median of the
/// candidates' largest squares; a colour whose largest square is under half that is no cell colour. (With more
/// such colours than cell colours the median is small, and few are left out: then the subsets below do the work.)
fn leave_out_thin_colours(solid: &mut Vec<Candidate>) {
    let mut sides: Vec<u32> = solid.iter().map(|c| c.largest_square).collect();
    sides.sort_unstable();
    let Some(&cell) = sides.get(sides.len() / 2) else { return };
    let wide: Vec<bool> = solid.iter().map(|c| c.largest_square * 2 >= cell).collect();
    if wide.iter().filter(|&&w| w).count() >= 2 {
        let mut keep = wide.into_iter();
        solid.retain(|_| keep.next().unwrap_or(true));
    }
}

/// The class of each pixel: 1 + the index of the kept colour within tolerance, where the eight pixels around it
/// match it too and its patch of the class does not reach the picture's edge; else 0.
pub(super) fn solid_class_map(image: &RgbaImage, kept: &[[u8; 3]]) -> ClassMap {
    let mut map = solid_classes(image, kept);
    forget_edge_patches(&mut map.classes, map.width, map.height);
    map
}

/// As [`solid_class_map`], with the patches that reach the picture's edge still in.
fn solid_classes(image: &RgbaImage, kept: &[[u8; 3]]) -> ClassMap {
    let colour_map = ClassMap::new(image, |rgb| closest(kept, rgb));
    let (w, h) = (colour_map.width, colour_map.height);
    let near = &colour_map.classes;
    // All nine pixels of the 3×3 square around it: the corner of an L of thin lines drops out too. First whether
    // a pixel and its left and right neighbours have one class, then that for the rows above and below.
    let mut row_alike = vec![false; w * h];
    for (row, alike) in near.chunks_exact(w).zip(row_alike.chunks_exact_mut(w)) {
        for x in 1..w.saturating_sub(1) {
            alike[x] = row[x] != 0 && row[x - 1] == row[x] && row[x + 1] == row[x];
        }
    }
    let mut classes = vec![0u8; w * h];
    for y in 1..h.saturating_sub(1) {
        for x in 1..w.saturating_sub(1) {
            let i = y * w + x;
            let c = near[i];
            if row_alike[i] && row_alike[i - w] && row_alike[i + w] && near[i - w] == c && near[i + w] == c {
                classes[i] = c;
            }
        }
    }
    ClassMap { width: w, height: h, classes }
}

/// Unclassifies every patch of one class that reaches the picture's edge (the picture's outer ring of classified
/// pixels): a page whose gradient passes within the tolerance of a board colour is no board, even where that band
/// of the page runs beside the board's own cells of the colour.
fn forget_edge_patches(classes: &mut [u8], w: usize, h: usize) {
    if w < 3 || h < 3 {
        return;
    }
    // Each pixel is unclassified as it is pushed, so none is pushed twice.
    let mut stack: Vec<(usize, u8)> = Vec::new();
    let ring =
        (1..w - 1).flat_map(|x| [w + x, (h - 2) * w + x]).chain((1..h - 1).flat_map(|y| [y * w + 1, y * w + w - 2]));
    for i in ring {
        let class = classes[i];
        if class != 0 {
            classes[i] = 0;
            stack.push((i, class));
        }
    }
    while let Some((i, class)) = stack.pop() {
        let (x, y) = (i % w, i / w);
        for (nx, ny) in [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)] {
            if nx < w && ny < h && classes[ny * w + nx] == class {
                classes[ny * w + nx] = 0;
                stack.push((ny * w + nx, class));
            }
        }
    }
}

fn closest(colours: &[[u8; 3]], rgb: [u8; 3]) -> u8 {
    let distance = |c: &[u8; 3]| (0..3).map(|i| c[i].abs_diff(rgb[i])).max().unwrap_or(0);
    colours
        .iter()
        .enumerate()
        .map(|(i, c)| (distance(c), i))
        .filter(|&(d, _)| d <= TOLERANCE)
        .min()
        .map_or(0, |(_, i)| i as u8 + 1)
}

/// A theme of the found colours (each a colour, and whether its cells are marked at the centre), each with its
/// symbol.
pub(super) fn theme_of(looks: Vec<([u8; 3], bool)>, known: &[PaletteTheme]) -> PaletteTheme {
    let mut colours: Vec<PaletteColour> = Vec::new();
    for (rgb, marked) in looks {
        let from_theme =
            known.iter().flat_map(|t| t.colours.iter().map(move |c| (t.tolerance, c))).find_map(|(tolerance, c)| {
                let near = c.rgb().ok().is_some_and(|k| (0..3).all(|i| k[i].abs_diff(rgb[i]) <= tolerance));
                (near && c.marked == marked).then_some(c.symbol)
            });
        let taken = |s: char| colours.iter().any(|c| c.symbol == s);
        // A marked colour, unknown to the themes, takes a digit: letters stand for the plain colours.
        let by_look = if marked { None } else { Some(colour_letter(rgb)) };
        let symbol =
            from_theme.filter(|&s| !taken(s)).or_else(|| by_look.filter(|&s| !taken(s))).unwrap_or_else(|| {
                let letters = ('A'..='Z').chain('a'..='z');
                let mut order: Box<dyn Iterator<Item = char>> =
                    if marked { Box::new(('1'..='9').chain(letters)) } else { Box::new(letters.chain('1'..='9')) };
                order.find(|&s| !taken(s)).expect("at most 48 looks")
            });
        colours.push(PaletteColour {
            symbol,
            rgb: format_rgb(rgb),
            game_index: None,
            name: String::new(),
            marked,
            playable: true,
        });
    }
    PaletteTheme {
        game: "flood".into(),
        theme: FOUND_THEME.into(),
        description: "colours found in the picture, with no calibration".into(),
        tolerance: TOLERANCE,
        min_cell: MIN_CELL,
        start: None,
        moves_by: None,
        colours,
    }
}

/// A letter for a colour from its hue, saturation and lightness alone: upper case for a strong colour, lower
/// case for a pale one; `W`, `E` (grey) and `K` for white, grey and black; `N` for brown.
pub fn colour_letter(rgb: [u8; 3]) -> char {
    let [r, g, b] = rgb.map(|c| c as f64 / 255.0);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let saturation = if max == 0.0 { 0.0 } else { (max - min) / max };
    if saturation < 0.2 {
        return if max > 0.85 {
            'W'
        } else if max < 0.2 {
            'K'
        } else {
            'E'
        };
    }
    let delta = max - min;
    let hue = if max == r {
        60.0 * ((g - b) / delta).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / delta + 2.0)
    } else {
        60.0 * ((r - g) / delta + 4.0)
    };
    let letter = match hue {
        h if !(15.0..345.0).contains(&h) => 'R',
        h if h < 45.0 => {
            if max < 0.6 {
                'N'
            } else {
                'O'
            }
        }
        h if h < 70.0 => 'Y',
        h if h < 165.0 => 'G',
        h if h < 195.0 => 'C',
        h if h < 255.0 => 'B',
        h if h < 290.0 => 'P',
        _ => 'M',
    };
    if saturation < 0.65 && max > 0.7 {
        letter.to_ascii_lowercase()
    } else {
        letter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_named_by_their_look_alone() {
        let names: String = [
            [0xff, 0, 0],
            [0xff, 0xff, 0],
            [0, 0xff, 0],
            [0x33, 0x4c, 0xff],
            [0xff, 0x80, 0],
            [0x80, 0, 0xb3],
            [0x66, 0xcc, 0xff],
            [0xb3, 0xff, 0xb3],
            [0xff, 0x99, 0xff],
            [0x00, 0xa0, 0xa0],
            [0xff, 0xff, 0xff],
            [0x7f, 0x3f, 0x00],
        ]
        .map(colour_letter)
        .iter()
        .collect();
        assert_eq!(names, "RYGBOPbgmCWN");
    }
}
