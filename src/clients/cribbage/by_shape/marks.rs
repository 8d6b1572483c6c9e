//! Marks (see **Marks.** in the module doc of [`super`]): a card's rank mark, cut from the first line of its index.

use anyhow::{anyhow, Context, Result};
use image::{imageops, RgbaImage};

use super::cards::{Fan, Run, FACE_LIGHTNESS};
use crate::vision::colour::{luminance, max_diff, mode, rgb_at};
use crate::vision::glyph::Glyph;
use crate::vision::runs::{flood8, Component};

/// A pixel differing from its card's face by more than this is ink.
const INK_THRESHOLD: u8 = 80;

/// Ink this strong joins a mark's shape (fainter ink, the blur where two marks nearly touch, does not).
const SOLID_INK: f32 = 0.5;

/// The corner holding a card's index: this share of the card's width and height from its top left. Where it shows
/// no mark, or its mark runs on past the corner's side, the index is printed elsewhere across the top (at the
/// right, in the middle): the whole width at that height is read, and its first line's leftmost shape is the rank.
const INDEX_CORNER: (f64, f64) = (0.45, 0.45);

/// A mark cut from a card's corner: its normalised glyph and its ink height in pixels (the fonts are rendered
/// at it).
#[derive(Clone, Debug)]
pub(super) struct Mark {
    pub(super) glyph: Glyph,
    pub(super) ink_height: usize,
}

/// One card as the reader saw it: its rank mark, and a point on its index.
#[derive(Clone, Debug)]
pub(super) struct SeenCard {
    /// The first mark of the index's first band of ink.
    pub(super) mark: Mark,
    /// That mark and the next beside it, as one ("10" printed as "1" and "0" apart), where there is a next.
    pub(super) with_next: Option<Mark>,
    pub(super) point: (i32, i32),
}

/// The boxes of the 8-connected shapes of ink from [`SOLID_INK`] in a `w`-wide coverage mask.
pub(super) fn ink_boxes(alpha: &[f32], w: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut seen = vec![false; alpha.len()];
    let mut boxes = Vec::new();
    for start in 0..alpha.len() {
        let mut found: Option<(usize, usize, usize, usize)> = None;
        flood8(
            w,
            alpha.len(),
            [start],
            |i| alpha[i] >= SOLID_INK,
            &mut seen,
            |i| {
                let (x, y) = (i % w, i / w);
                found = Some(match found {
                    None => (x, y, x, y),
                    Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                });
            },
        );
        boxes.extend(found);
    }
    boxes
}

/// The ink's shapes (8-connected, from [`SOLID_INK`]) in a card's corner (`alpha`, `w` wide), each its box;
/// less a line across the whole corner (an edge, not a mark) and a small shape in a corner of the box (the
/// card's own rounded edge).
fn ink_shapes(alpha: &[f32], w: usize, card: (usize, usize)) -> Vec<(usize, usize, usize, usize)> {
    let h = alpha.len() / w;
    let rounded = (card.0 / 10).max(3);
    let in_a_corner = |(x0, y0, x1, y1): (usize, usize, usize, usize)| {
        (x1 < rounded || x0 + rounded >= w) && (y1 < rounded || y0 + rounded >= h)
    };
    ink_boxes(alpha, w)
        .into_iter()
        .filter(|&b| (b.2 - b.0 + 1) * 10 < w * 9 && (b.3 - b.1 + 1) * 10 < h * 9 && !in_a_corner(b))
        .collect()
}

/// The rank mark of a card: the part of the picture that shows of it (`piece`), turned upright when its index
/// shows upside down, cut to the part holding its index (`area`, the share of its width and height from its top
/// left, else the whole width at that height, as [`INDEX_CORNER`] says; a small card of the stack's row shows its
/// rank alone, anywhere on it). `mark_height` is the ink height of the table's marks, where known.
pub(super) fn card_mark(
    image: &RgbaImage,
    piece: &Component,
    upside_down: bool,
    card: (usize, usize),
    area: (f64, f64),
    mark_height: Option<usize>,
) -> Result<SeenCard> {
    let mut view =
        imageops::crop_imm(image, piece.x0 as u32, piece.y0 as u32, piece.width() as u32, piece.height() as u32)
            .to_image();
    if upside_down {
        view = imageops::rotate180(&view);
    }
    let h = ((area.1 * card.1 as f64).ceil() as usize).min(view.height() as usize);
    let corner = ((area.0 * card.0 as f64).ceil() as usize).min(view.width() as usize);
    let across = (view.width() as usize).min(card.0);
    match mark_in(&view, piece, upside_down, card, (corner, h), mark_height) {
        Ok((seen, false)) => Ok(seen),
        first if across <= corner => first.map(|(seen, _)| seen),
        first => mark_in(&view, piece, upside_down, card, (across, h), mark_height)
            .map(|(seen, _)| seen)
            .or_else(|e| first.map(|(seen, _)| seen).map_err(|_| e)),
    }
}

/// [`card_mark`] in the top left `w` by `h` of the card's `view`; and whether the mark runs on to the area's
/// right side (it may go on past it).
fn mark_in(
    view: &RgbaImage,
    piece: &Component,
    upside_down: bool,
    card: (usize, usize),
    (w, h): (usize, usize),
    mark_height: Option<usize>,
) -> Result<(SeenCard, bool)> {
    let face = mode(
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| rgb_at(view, x, y))
            .filter(|&p| luminance(p) >= FACE_LIGHTNESS[1]),
    )
    .ok_or_else(|| anyhow!("its corner shows no face"))?;
    let mut alpha: Vec<f32> = (0..w * h)
        .map(|i| {
            let d = max_diff(rgb_at(view, i % w, i / w), face);
            if d > INK_THRESHOLD {
                (d as f32 / 160.0).min(1.0)
            } else {
                0.0
            }
        })
        .collect();
    // Lines across the corner (the edges of cards over it, which a mark may touch) and lines longer than an
    // index is (a picture's frame) are cleared: a run across 0.9 of the corner, or 0.45 of a card's width, or down
    // 0.3 of its height.
    let longest_run = |cells: &mut dyn Iterator<Item = f32>| {
        let (mut run, mut longest) = (0, 0);
        for a in cells {
            run = if a >= 0.5 { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        longest
    };
    let edge_rows: Vec<usize> = (0..h)
        .filter(|&y| longest_run(&mut (0..w).map(|x| alpha[y * w + x])) * 100 >= (w * 90).min(card.0 * 45))
        .collect();
    let edge_columns: Vec<usize> = (0..w)
        .filter(|&x| longest_run(&mut (0..h).map(|y| alpha[y * w + x])) * 100 >= (h * 90).min(card.1 * 30))
        .collect();
    for &y in &edge_rows {
        alpha[y * w..(y + 1) * w].fill(0.0);
    }
    for &x in &edge_columns {
        (0..h).for_each(|y| alpha[y * w + x] = 0.0);
    }
    let mut shapes = ink_shapes(&alpha, w, card);
    // A mark much taller than the table's marks touches what is under it (a suit sign): cut at its thinnest row.
    let tallest = |shapes: &[(usize, usize, usize, usize)]| shapes.iter().min_by_key(|s| (s.1, s.0)).copied();
    if let (Some(limit), Some(top)) = (mark_height, tallest(&shapes)) {
        if (top.3 - top.1 + 1) * 100 > limit * 135 {
            let ink = |y: usize| (top.0..=top.2).filter(|&x| alpha[y * w + x] >= SOLID_INK).count();
            let (from, to) = (top.1 + limit * 7 / 10, (top.1 + limit * 135 / 100).min(top.3));
            if let Some(neck) = (from..=to).min_by_key(|&y| (ink(y), y)) {
                for y in neck..=top.3 {
                    (top.0..=top.2).for_each(|x| alpha[y * w + x] = 0.0);
                }
                shapes = ink_shapes(&alpha, w, card);
            }
        }
    }
    // The index's first line: the shapes level with the topmost (sharing half the smaller height), left to
    // right; a shape within another's columns is part of it (a stroke the ink threshold broke).
    let top = tallest(&shapes).ok_or_else(|| anyhow!("its corner shows no mark"))?;
    let level = |s: &(usize, usize, usize, usize)| {
        let overlap = (s.3.min(top.3) + 1).saturating_sub(s.1.max(top.1));
        overlap * 2 >= (s.3 - s.1 + 1).min(top.3 - top.1 + 1)
    };
    let mut line: Vec<(usize, usize, usize, usize)> = shapes.iter().filter(|s| level(s)).copied().collect();
    line.sort_by_key(|s| s.0);
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
    for s in line {
        match runs.last_mut() {
            Some(r) if s.2 <= r.2 => *r = (r.0, r.1.min(s.1), r.2, r.3.max(s.3)),
            _ => runs.push(s),
        }
    }
    let cut = |(x0, y0, x1, y1): (usize, usize, usize, usize)| {
        // Only the ink of the line's shapes counts (not a suit sign or pip reaching into the box).
        let own: Vec<f32> = alpha
            .iter()
            .enumerate()
            .map(|(i, &a)| if (x0..=x1).contains(&(i % w)) && (y0..=y1).contains(&(i / w)) { a } else { 0.0 })
            .collect();
        let gh = y1 - y0 + 1;
        let mark = Mark {
            glyph: Glyph { height: gh as f64 / card.0 as f64, ..Glyph::cut(&own, w, (x0, y0, x1, y1)) },
            ink_height: gh,
        };
        (mark, ((x0 + x1) / 2, (y0 + y1) / 2))
    };
    let (mark, (mx, my)) = cut(runs[0]);
    let runs_on = runs[0].2 + 2 >= w;
    let with_next = runs.get(1).map(|next| {
        let first = runs[0];
        cut((first.0, first.1.min(next.1), next.2, first.3.max(next.3))).0
    });
    // The mark's middle, in the picture.
    let point = if upside_down { (piece.x1 - mx, piece.y1 - my) } else { (piece.x0 + mx, piece.y0 + my) };
    Ok((SeenCard { mark, with_next, point: (point.0 as i32, point.1 as i32) }, runs_on))
}

/// The cards of a fan, most buried first (`mark_height` as for [`card_mark`]).
pub(super) fn fan_cards(
    image: &RgbaImage,
    fan: &Fan,
    card: (usize, usize),
    mark_height: Option<usize>,
) -> Result<Vec<SeenCard>> {
    if fan.empty {
        return Ok(Vec::new());
    }
    let upside_down = matches!(fan.run, Some(Run::Up | Run::Left));
    let last = fan.pieces.len() - 1;
    fan.pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            card_mark(image, piece, upside_down && i < last, card, INDEX_CORNER, mark_height)
                .with_context(|| format!("the card at ({}, {})", piece.x0, piece.y0))
        })
        .collect()
}
