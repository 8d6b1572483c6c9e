//! The Cribbage Solitaire reader that needs no calibration: cards found by their shape, ranks named by what a
//! deal must be.
//!
//! **Cards.** A card is a light, nearly grey face (white, or shaded for cards that cannot be played) with dark
//! marks on it, and an edge that sets it off from what it overlaps. The light faces are cut into *pieces*: the
//! patches of flat face (neighbours differing by little), each the part of one card that shows. A card's edge,
//! its outline, or a step of shade from another card's face is what ends a piece. Pieces inside another's box
//! (the light parts of a face card's picture) are not cards; pieces that overlap and share both edges across are
//! one face a picture split. A *fan* is a chain of pieces that follow one another along it, no more than an
//! edge's width apart, and share an edge across (a mark or picture may cut a piece short of the other): the
//! buried cards' strips, then the front card, which shows whole. Links are taken longest shared first. Fans run
//! down, up, right or left (a fan is turned where its whole card is at its start); a buried card shows the end
//! where its index is (its top left for fans down or right, its bottom right, upside down, for fans up or
//! left). Every card of a fan spans the fan's extent across.
//!
//! **Places.** The card size is the size of front cards that covers the most of the picture (light text is
//! small). An empty place (an emptied column, an empty stack) is a card-sized ring of colour steps around
//! nothing light. The four columns are the most card-sized fans and places (between as many, the most cards)
//! whose buried ends start on one line (a column shown as one card may start on either line, at either end);
//! five on a line are four at one pitch and the stack. Columns are numbered by where the previous picture showed
//! them, else by the pitch (the least gap). A card-sized fan or place off that line is the stack, as a pile; else small light
//! patches of the card's proportions (a fifth to three quarters of its width) are the stack shown as a row of
//! small cards, in reading order; else the table does not show the stack.
//!
//! **Marks.** A card's rank mark is the leftmost ink shape (8-connected) of the first line of its index: the
//! shapes level with the topmost in its corner (the suit sign comes beside the rank or under it). A "1" with a
//! shape beside it is a "10". Ink that is not the index is left out: lines across the corner (the edge of the
//! card over it, which a mark may touch), lines longer than an index is (a picture's frame), small shapes in the
//! corners of the box (rounded edges). A mark much taller than the table's marks (their median) touches what is
//! under it, and is cut at its thinnest row.
//!
//! **Ranks.** The marks are named together ([`naming`]): marks drawn alike (the same rank in the same print)
//! are one rank, marks drawn differently are different ranks, and no rank is named more often than the deal has
//! room for. The common fonts' characters ([`FontGlyphs`]) are the first guess: the cards are first named by
//! them within the counts, then regrouped, until the groups hold still, each card to the group whose mean mark
//! it is nearest (within the counts). Each group then takes a different rank: the naming of least total font
//! distance ([`naming::name_groups`]). A group whose name the fonts decide by too little is an error naming its
//! cards. The stack's small cards (another print size) are named by the fonts alone, and leave that much less
//! room.
//!
//! In play, a column's cards that an earlier picture named (the opening names all 52 under the full deal's
//! counts, the surest naming there is) keep their names unless the picture plainly says otherwise: a column
//! only loses cards from its front.
//!
//! **The control that ends a stack** is a button labelled so: a patch of flat colour off the cards, wider than
//! tall, whose label reads STACK by the fonts' capitals, one letter aside. An icon, or a button that says
//! something else, is never taken for it; a table that shows none is taken to end its stacks by itself (the
//! play loop checks that it does, and stops if not).
//!
//! **Why it holds.** Nothing here is a colour or a size learned from one table: a face is whatever is light and
//! flat, a card's size is what its fans share, a column is what lines up with three others, a rank is what the
//! deal's counts and the table's own likeness make of the fonts' guesses, and a control is what its label says.
//! What it does not know (an icon control, where the score is printed) it leaves to calibration or to watching
//! the table.

use anyhow::{anyhow, bail, Context, Result};
use image::{imageops, RgbaImage};

use super::naming;
use super::reading::{in_reading_order, RankGlyph, TablePoints, TableReading};
use crate::games::cribbage::{Card, Rank, State};
use crate::vision::colour::{luminance, max_diff, mode, rgb_at};
use crate::vision::font_glyphs::FontGlyphs;
use crate::vision::glyph;
use crate::vision::runs::{flood8, Component};

/// The lightness (luminance) from which a neutral pixel may be a card's face, tried in turn: the first that
/// shows a table is the one (faces are white, or shaded grey for cards that cannot be played).
const FACE_LIGHTNESS: [u8; 3] = [150, 120, 190];
/// A face is nearly grey: its channels differ by at most this.
const FACE_CHROMA: u8 = 48;
/// A pixel differing from its card's face by more than this is ink.
const INK_THRESHOLD: u8 = 80;
/// Ink this strong joins a mark's shape (fainter ink, the blur where two marks nearly touch, does not).
const SOLID_INK: f32 = 0.5;
/// The corner holding a card's index: this share of the card's width and height from its top left.
const CORNER: f64 = 0.45;

/// The way a fan runs, from its most buried card to its front card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Down,
    Up,
    Right,
    Left,
}

impl Run {
    /// Whether the fan runs across the picture (its pieces share their top and bottom edges).
    fn across(self) -> bool {
        matches!(self, Run::Right | Run::Left)
    }
}

/// A fan: its pieces from the most buried card to the front card, and which way it runs (none for one card).
#[derive(Clone, Debug)]
struct Fan {
    pieces: Vec<Component>,
    run: Option<Run>,
    /// An empty place: a card-sized outline with no card in it (its one piece is the outline's box).
    empty: bool,
}

impl Fan {
    /// How many cards it holds.
    fn cards(&self) -> usize {
        if self.empty {
            0
        } else {
            self.pieces.len()
        }
    }

    fn front(&self) -> &Component {
        self.pieces.last().expect("a fan has a card")
    }

    /// Where the fan may start on the line of the way it runs: its buried end (none where it does not run that
    /// way; a lone card, either end).
    fn starts(&self, across: bool) -> Vec<usize> {
        let first = &self.pieces[0];
        match self.run {
            None if across => vec![first.x0, first.x1],
            None => vec![first.y0, first.y1],
            Some(run) if run.across() != across => Vec::new(),
            Some(Run::Down) => vec![first.y0],
            Some(Run::Up) => vec![first.y1],
            Some(Run::Right) => vec![first.x0],
            Some(Run::Left) => vec![first.x1],
        }
    }

    /// Where the fan stands across its line (the columns' order: left to right, or top to bottom).
    fn place(&self, across: bool) -> usize {
        let front = self.front();
        if across {
            (front.y0 + front.y1) / 2
        } else {
            (front.x0 + front.x1) / 2
        }
    }
}

/// Neighbouring face pixels differing by at most this (largest channel) are one face: a card's face is flat,
/// and one card's face meets another's at its edge, a line or a step of shade.
const FLAT: u8 = 16;

/// The patches of flat colour among the pixels `keep` takes: 4-connected neighbours within [`FLAT`] of each
/// other are one patch. Each patch's box and pixel count.
fn flat_patches(image: &RgbaImage, keep: impl Fn([u8; 3]) -> bool) -> Vec<Component> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let rgb: Vec<[u8; 3]> = image.as_raw().chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
    let kept: Vec<bool> = rgb.iter().map(|&p| keep(p)).collect();
    let mut parent: Vec<u32> = (0..(w * h) as u32).collect();
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            parent[i as usize] = parent[parent[i as usize] as usize];
            i = parent[i as usize];
        }
        i
    }
    let join = |parent: &mut Vec<u32>, a: usize, b: usize| {
        if kept[a] && kept[b] && max_diff(rgb[a], rgb[b]) <= FLAT {
            let (ra, rb) = (root(parent, a as u32), root(parent, b as u32));
            if ra != rb {
                parent[ra.max(rb) as usize] = ra.min(rb);
            }
        }
    };
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w {
                join(&mut parent, i, i + 1);
            }
            if y + 1 < h {
                join(&mut parent, i, i + w);
            }
        }
    }
    // Each patch's box, gathered by its root's place in a list (roots are numbered as first met).
    const NONE: u32 = u32::MAX;
    let mut slot = vec![NONE; w * h];
    let mut boxes: Vec<Component> = Vec::new();
    for i in (0..w * h).filter(|&i| kept[i]) {
        let (x, y) = (i % w, i / w);
        let r = root(&mut parent, i as u32) as usize;
        if slot[r] == NONE {
            slot[r] = boxes.len() as u32;
            boxes.push(Component { x0: x, y0: y, x1: x, y1: y, pixels: 0 });
        }
        let c = &mut boxes[slot[r] as usize];
        c.x0 = c.x0.min(x);
        c.x1 = c.x1.max(x);
        c.y0 = c.y0.min(y);
        c.y1 = c.y1.max(y);
        c.pixels += 1;
    }
    boxes
}

/// The light, nearly grey pixels of a picture from `lightness` up, cut into pieces of one flat face
/// ([`flat_patches`]) at least 6 pixels each way, less those inside another piece's box, and with the pieces of
/// one face a picture split joined.
fn pieces(image: &RgbaImage, lightness: u8) -> Vec<Component> {
    let face = |p: [u8; 3]| {
        let chroma = p.iter().max().unwrap_or(&0) - p.iter().min().unwrap_or(&0);
        luminance(p) >= lightness && chroma <= FACE_CHROMA
    };
    let boxes = flat_patches(image, face);
    let mut found: Vec<Component> = boxes.into_iter().filter(|c| c.width() >= 6 && c.height() >= 6).collect();
    found.sort_by_key(|c| (c.y0, c.x0));
    // A face a picture splits (its margins too thin to join around it) shows as pieces whose boxes overlap and
    // share both edges across: one card.
    let near = |p: usize, q: usize| p.abs_diff(q) <= 2;
    // (Overlapping by a quarter of the shorter: the boxes of a fan's strips overlap by a row or two at most, where
    // a rounded corner lets a strip's face reach beside the next card's edge.)
    let overlap = |(p0, p1): (usize, usize), (q0, q1): (usize, usize)| {
        let shared = (p1.min(q1) + 1).saturating_sub(p0.max(q0));
        shared * 4 >= (p1 - p0 + 1).min(q1 - q0 + 1) && p0 != q0
    };
    let one_face = |p: &Component, q: &Component| {
        (near(p.x0, q.x0) && near(p.x1, q.x1) && overlap((p.y0, p.y1), (q.y0, q.y1)))
            || (near(p.y0, q.y0) && near(p.y1, q.y1) && overlap((p.x0, p.x1), (q.x0, q.x1)))
    };
    let mut group: Vec<usize> = (0..found.len()).collect();
    fn group_of(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for a in 0..found.len() {
        for b in a + 1..found.len() {
            if one_face(&found[a], &found[b]) {
                let (ga, gb) = (group_of(&mut group, a), group_of(&mut group, b));
                group[ga.max(gb)] = ga.min(gb);
            }
        }
    }
    let mut faces: std::collections::BTreeMap<usize, Component> = std::collections::BTreeMap::new();
    for (i, piece) in found.iter().enumerate() {
        faces
            .entry(group_of(&mut group, i))
            .and_modify(|c| {
                *c = Component {
                    x0: c.x0.min(piece.x0),
                    y0: c.y0.min(piece.y0),
                    x1: c.x1.max(piece.x1),
                    y1: c.y1.max(piece.y1),
                    pixels: c.pixels + piece.pixels,
                }
            })
            .or_insert(*piece);
    }
    let found: Vec<Component> = faces.into_values().collect();
    let inside = |a: &Component, b: &Component| {
        a != b && a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1 && a.pixels < b.pixels
    };
    found.iter().filter(|a| !found.iter().any(|b| inside(a, b))).copied().collect()
}

/// How well `b` follows `a` in a fan running `run`: `b` starts within `gap` after `a` ends, and they share an
/// edge across (a piece a mark or picture cut short shares one); the length they share across, or none.
fn follows(a: &Component, b: &Component, run: Run, gap: usize) -> Option<usize> {
    let near = |p: usize, q: usize| p.abs_diff(q) <= gap.max(2);
    let next = |end: usize, start: usize| start + 1 >= end && start <= end + gap;
    let shared = |(a0, a1): (usize, usize), (b0, b1): (usize, usize)| {
        (near(a0, b0) || near(a1, b1)).then(|| (a1.min(b1) + 1).saturating_sub(a0.max(b0))).filter(|&s| s > 0)
    };
    let (xs, ys) = (((a.x0, a.x1), (b.x0, b.x1)), ((a.y0, a.y1), (b.y0, b.y1)));
    match run {
        Run::Down if next(a.y1, b.y0) => shared(xs.0, xs.1),
        Run::Up if next(b.y1, a.y0) => shared(xs.0, xs.1),
        Run::Right if next(a.x1, b.x0) => shared(ys.0, ys.1),
        Run::Left if next(b.x1, a.x0) => shared(ys.0, ys.1),
        _ => None,
    }
}

/// The pieces chained into fans: each piece followed by the one that shares the most with it across;
/// each card's piece then spans the fan's extent across (a mark or picture may cut a piece short).
fn fans(pieces: &[Component]) -> Vec<Fan> {
    let n = pieces.len();
    let mut next: Vec<Option<(usize, Run)>> = vec![None; n];
    let mut has_previous = vec![false; n];
    // Every link a piece may make, the longest shared first: taken where both ends are free. Chains are
    // found downwards and rightwards, and turned where the whole card is at their start.
    let mut links: Vec<(usize, usize, usize, Run)> = Vec::new();
    for (a, pa) in pieces.iter().enumerate() {
        let gap = (pa.width().min(pa.height()) / 12).max(4);
        for run in [Run::Down, Run::Right] {
            for (b, pb) in pieces.iter().enumerate().filter(|&(b, _)| b != a) {
                if let Some(shared) = follows(pa, pb, run, gap) {
                    links.push((shared, a, b, run));
                }
            }
        }
    }
    links.sort_by_key(|&(shared, a, b, _)| (std::cmp::Reverse(shared), a, b));
    for (_, a, b, run) in links {
        if next[a].is_none() && !has_previous[b] {
            next[a] = Some((b, run));
            has_previous[b] = true;
        }
    }
    let mut out = Vec::new();
    for start in (0..n).filter(|&i| !has_previous[i]) {
        let mut fan = Fan { pieces: vec![pieces[start]], run: None, empty: false };
        let mut at = start;
        while let Some((b, run)) = next[at] {
            if fan.run.is_some_and(|r| r != run) || fan.pieces.len() > 60 {
                break;
            }
            fan.run = Some(run);
            fan.pieces.push(pieces[b]);
            at = b;
        }
        let area = |c: &Component| c.width() * c.height();
        if fan.pieces.len() > 1 && area(&fan.pieces[0]) > area(fan.front()) {
            fan.pieces.reverse();
            fan.run = fan.run.map(|run| if run == Run::Down { Run::Up } else { Run::Left });
        }
        // The fan's extent across: all its pieces' (a piece a picture cuts short spans less).
        let extent = fan_box(&fan);
        for piece in fan.pieces.iter_mut() {
            match fan.run {
                Some(Run::Down | Run::Up) => (piece.x0, piece.x1) = (extent.x0, extent.x1),
                Some(Run::Right | Run::Left) => (piece.y0, piece.y1) = (extent.y0, extent.y1),
                None => {}
            }
        }
        out.push(fan);
    }
    out
}

/// The card size (width, height) of a table: of the fans' front cards taller than wide, the size (within a
/// twentieth) that covers the most of the picture (cards are the large light shapes; light text is small).
fn card_size(fans: &[Fan]) -> Option<(usize, usize)> {
    let fronts: Vec<&Component> = fans
        .iter()
        .map(Fan::front)
        .filter(|c| c.width() >= 16 && (1.15..=1.9).contains(&(c.height() as f64 / c.width() as f64)))
        .collect();
    let alike = |a: &Component, b: &Component| {
        a.width().abs_diff(b.width()) * 20 <= a.width() && a.height().abs_diff(b.height()) * 20 <= a.height()
    };
    fronts
        .iter()
        .max_by_key(|a| (fronts.iter().filter(|b| alike(a, b)).count() * a.width() * a.height(), a.width()))
        .map(|c| (c.width(), c.height()))
}

/// A mark cut from a card's corner: its normalised glyph and its ink height in pixels (the fonts are rendered
/// at it).
#[derive(Clone, Debug)]
struct Mark {
    glyph: RankGlyph,
    ink_height: usize,
}

/// One card as the reader saw it: its rank mark, and a point on its index.
#[derive(Clone, Debug)]
struct SeenCard {
    /// The first mark of the index's first band of ink.
    mark: Mark,
    /// That mark and the next beside it, as one ("10" printed as "1" and "0" apart), where there is a next.
    with_next: Option<Mark>,
    point: (i32, i32),
}

/// The boxes of the 8-connected shapes of ink from [`SOLID_INK`] in a `w`-wide coverage mask.
fn ink_boxes(alpha: &[f32], w: usize) -> Vec<(usize, usize, usize, usize)> {
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
/// shows upside down, cut to the card's corner (`corner` of its width and height: a small card of the stack's
/// row shows its rank alone, anywhere on it). `mark_height` is the ink height of the table's marks, where known.
fn card_mark(
    image: &RgbaImage,
    piece: &Component,
    upside_down: bool,
    card: (usize, usize),
    corner: f64,
    mark_height: Option<usize>,
) -> Result<SeenCard> {
    let mut view =
        imageops::crop_imm(image, piece.x0 as u32, piece.y0 as u32, piece.width() as u32, piece.height() as u32)
            .to_image();
    if upside_down {
        view = imageops::rotate180(&view);
    }
    let w = ((corner * card.0 as f64).ceil() as usize).min(view.width() as usize);
    let h = ((corner * card.1 as f64).ceil() as usize).min(view.height() as usize);
    let face = mode(
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| rgb_at(&view, x, y))
            .filter(|&p| luminance(p) >= FACE_LIGHTNESS[1]),
    )
    .ok_or_else(|| anyhow!("its corner shows no face"))?;
    let mut alpha: Vec<f32> = (0..w * h)
        .map(|i| {
            let d = max_diff(rgb_at(&view, i % w, i / w), face);
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
        let (gw, gh) = (x1 - x0 + 1, y1 - y0 + 1);
        let mark = Mark {
            glyph: RankGlyph {
                coverage: glyph::normalise(&own, w, (x0, y0, x1, y1)),
                aspect: gw as f64 / gh as f64,
                height: gh as f64 / card.0 as f64,
            },
            ink_height: gh,
        };
        (mark, ((x0 + x1) / 2, (y0 + y1) / 2))
    };
    let (mark, (mx, my)) = cut(runs[0]);
    let with_next = runs.get(1).map(|next| {
        let first = runs[0];
        cut((first.0, first.1.min(next.1), next.2, first.3.max(next.3))).0
    });
    // The mark's middle, in the picture.
    let point = if upside_down { (piece.x1 - mx, piece.y1 - my) } else { (piece.x0 + mx, piece.y0 + my) };
    Ok(SeenCard { mark, with_next, point: (point.0 as i32, point.1 as i32) })
}

/// The cards of a fan, most buried first (`mark_height` as for [`card_mark`]).
fn fan_cards(image: &RgbaImage, fan: &Fan, card: (usize, usize), mark_height: Option<usize>) -> Result<Vec<SeenCard>> {
    if fan.empty {
        return Ok(Vec::new());
    }
    let upside_down = matches!(fan.run, Some(Run::Up | Run::Left));
    let last = fan.pieces.len() - 1;
    fan.pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            card_mark(image, piece, upside_down && i < last, card, CORNER, mark_height)
                .with_context(|| format!("the card at ({}, {})", piece.x0, piece.y0))
        })
        .collect()
}

/// The empty places a table outlines (an emptied column, an empty stack): card-sized rings of edges (where
/// the colour steps) around nothing light, away from every card.
fn empty_places(image: &RgbaImage, card: (usize, usize), pieces: &[Component]) -> Vec<Component> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let step = |i: usize, j: usize| (0..3).any(|k| raw[4 * i + k].abs_diff(raw[4 * j + k]) > 24);
    let edges: Vec<bool> = (0..w * h)
        .map(|i| {
            let x = i % w;
            (x + 1 < w && step(i, i + 1)) || (i + w < w * h && step(i, i + w))
        })
        .collect();
    let overlaps = |a: &Component, b: &Component| a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
    crate::vision::runs::components(w, h, 1, |y| &edges[y * w..(y + 1) * w])
        .into_iter()
        .filter(|c| c.width().abs_diff(card.0) * 12 <= card.0 && c.height().abs_diff(card.1) * 12 <= card.1)
        .filter(|c| c.pixels * 4 <= c.width() * c.height())
        .filter(|c| !pieces.iter().any(|p| p.width() * 4 >= card.0 && overlaps(c, p)))
        .collect()
}

/// The table's layout: the columns' fans (by column), the stack's fan or small cards, the card size, and the
/// columns' line.
struct Layout {
    columns: [Option<Fan>; 4],
    stack_pile: Option<Fan>,
    stack_row: Vec<Component>,
    card: (usize, usize),
}

fn layout(image: &RgbaImage, lightness: u8, hint: Option<&TablePoints>) -> Result<Layout> {
    let pieces = pieces(image, lightness);
    let fans = fans(&pieces);
    let card = card_size(&fans).context("no card found: nothing light and card-shaped stands out")?;
    let full = |c: &Component| c.width().abs_diff(card.0) * 12 <= card.0 && c.height().abs_diff(card.1) * 12 <= card.1;
    let places: Vec<Fan> = empty_places(image, card, &pieces)
        .into_iter()
        .map(|outline| Fan { pieces: vec![outline], run: None, empty: true })
        .collect();
    let whole: Vec<&Fan> = fans.iter().filter(|f| full(f.front())).chain(&places).collect();
    // The columns: the most fans (at most four) that start on one line, one way.
    let tolerance = (card.0 / 10).max(3);
    let mut best: Option<(bool, Vec<&Fan>)> = None;
    for across in [false, true] {
        for line in whole.iter().flat_map(|anchor| anchor.starts(across)) {
            let on_line: Vec<&Fan> = whole
                .iter()
                .filter(|f| f.starts(across).iter().any(|s| s.abs_diff(line) <= tolerance))
                .copied()
                .collect();
            // Most fans; between as many, most cards (a lone column beside the stack holds more, as a rule).
            let cards = |fans: &[&Fan]| fans.iter().map(|f| f.cards()).sum::<usize>();
            let better = match &best {
                None => true,
                Some((_, fans)) => (on_line.len(), cards(&on_line)) > (fans.len(), cards(fans)),
            };
            if better {
                best = Some((across, on_line));
            }
        }
    }
    let (across, mut on_line) = best.context("no column of cards found")?;
    on_line.sort_by_key(|f| f.place(across));
    if on_line.len() > 5 {
        bail!("{} fans of cards start on one line; a table has four columns (and a stack)", on_line.len());
    }
    let mut stack_pile = None;
    if on_line.len() == 5 {
        // Four at one pitch, and the stack beside them: the one whose leaving makes the pitch most even.
        let spread = |fans: &[&Fan]| {
            let gaps: Vec<usize> = fans.windows(2).map(|p| p[1].place(across) - p[0].place(across)).collect();
            gaps.iter().max().unwrap_or(&0) - gaps.iter().min().unwrap_or(&0)
        };
        let drop_last = spread(&on_line[..4]) <= spread(&on_line[1..]);
        stack_pile = Some(if drop_last { on_line.remove(4) } else { on_line.remove(0) }.clone());
    }
    let columns = number_columns(&on_line, across, hint)?;
    if stack_pile.is_none() {
        let others: Vec<&Fan> =
            whole.iter().filter(|f| !on_line.iter().any(|c| std::ptr::eq(*c, **f))).copied().collect();
        match others.as_slice() {
            [] => {}
            [one] => stack_pile = Some((*one).clone()),
            more => bail!(
                "{} piles of cards stand off the columns' line; a table shows at most one (the stack)",
                more.len()
            ),
        }
    }
    let stack_row = if stack_pile.is_none() {
        let aspect = card.1 as f64 / card.0 as f64;
        let small: Vec<Component> = fans
            .iter()
            .filter(|f| f.pieces.len() == 1)
            .map(|f| f.pieces[0])
            .filter(|c| {
                let share = c.width() as f64 / card.0 as f64;
                let own = c.height() as f64 / c.width() as f64;
                c.width() >= 8
                    && (0.2..0.75).contains(&share)
                    && (own / aspect - 1.0).abs() <= 0.15
                    && c.pixels as f64 >= 0.8 * (c.width() * c.height()) as f64
            })
            .collect();
        in_reading_order(small)
    } else {
        Vec::new()
    };
    Ok(Layout { columns, stack_pile, stack_row, card })
}

/// The columns' numbers of the fans on the columns' line (in order): where the previous picture's columns were,
/// if it is given; else by the pitch (the least gap), the first fan column 1 where the gaps leave it open.
fn number_columns(fans: &[&Fan], across: bool, hint: Option<&TablePoints>) -> Result<[Option<Fan>; 4]> {
    let mut columns: [Option<Fan>; 4] = Default::default();
    if let Some(anchors) = hint.and_then(|h| h.columns) {
        for fan in fans {
            let place = fan.place(across) as i64;
            let at = |c: usize| {
                let (x, y) = anchors[c];
                if across {
                    y as i64
                } else {
                    x as i64
                }
            };
            let c = (0..4).min_by_key(|&c| (at(c) - place).abs()).expect("four columns");
            if columns[c].is_some() {
                bail!("two piles of cards stand where column {} stood", c + 1);
            }
            columns[c] = Some((*fan).clone());
        }
        return Ok(columns);
    }
    let places: Vec<usize> = fans.iter().map(|f| f.place(across)).collect();
    let pitch = places.windows(2).map(|p| p[1] - p[0]).min();
    for (fan, place) in fans.iter().zip(&places) {
        let index = match pitch {
            Some(pitch) if pitch > 0 => ((place - places[0]) as f64 / pitch as f64).round() as usize,
            _ => 0,
        };
        if index > 3 || columns[index].is_some() {
            bail!(
                "the columns do not stand at one pitch (a pile of cards stands {index} pitches from the first, where the gaps are {:?})",
                places.windows(2).map(|p| p[1] - p[0]).collect::<Vec<_>>()
            );
        }
        columns[index] = Some((*fan).clone());
    }
    Ok(columns)
}

/// How far apart two marks of a table are: the mean squared difference of their coverage, plus the aspects'
/// and the heights' squared differences.
fn mark_distance(a: &Mark, b: &Mark) -> f64 {
    glyph::mean_squared_difference(&a.glyph.coverage, &b.glyph.coverage)
        + 0.05 * (a.glyph.aspect - b.glyph.aspect).powi(2)
        + 4.0 * (a.glyph.height - b.glyph.height).powi(2)
}

/// The mean of some marks.
fn mean_mark(marks: &[&Mark]) -> Mark {
    let n = marks.len() as f64;
    let mut coverage = vec![0f32; marks[0].glyph.coverage.len()];
    for m in marks {
        for (sum, c) in coverage.iter_mut().zip(&m.glyph.coverage) {
            *sum += c / n as f32;
        }
    }
    Mark {
        glyph: RankGlyph {
            coverage,
            aspect: marks.iter().map(|m| m.glyph.aspect).sum::<f64>() / n,
            height: marks.iter().map(|m| m.glyph.height).sum::<f64>() / n,
        },
        ink_height: (marks.iter().map(|m| m.ink_height).sum::<usize>() as f64 / n).round() as usize,
    }
}

/// The marks grouped by likeness as a deal allows (at most `room[rank]` in a group): first as the fonts name
/// them (each card its nearest rank, within the counts), then, until the groups hold still, each card to the
/// group whose mean mark it is nearest (a group with no card yet by the fonts' distance), within the counts.
/// The groups are what this table's print says is alike; which rank each is, is named after.
fn groups_by_likeness(
    marks: &[&Mark],
    font_costs: &[[f64; naming::RANKS]],
    room: &[usize; naming::RANKS],
) -> Result<Vec<Vec<usize>>> {
    let mut labels = naming::name_by_deal(font_costs, room, 1.0)?.ranks;
    for _ in 0..20 {
        let means: Vec<Option<Mark>> = (0..naming::RANKS)
            .map(|r| {
                let members: Vec<&Mark> = labels.iter().zip(marks).filter(|(l, _)| **l == r).map(|(_, m)| *m).collect();
                (!members.is_empty()).then(|| mean_mark(&members))
            })
            .collect();
        let costs: Vec<[f64; naming::RANKS]> = marks
            .iter()
            .zip(font_costs)
            .map(|(m, font)| std::array::from_fn(|r| means[r].as_ref().map_or(font[r], |mean| mark_distance(m, mean))))
            .collect();
        let next = naming::name_by_deal(&costs, room, 1.0)?.ranks;
        if next == labels {
            break;
        }
        labels = next;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for r in 0..naming::RANKS {
        let members: Vec<usize> = (0..marks.len()).filter(|&i| labels[i] == r).collect();
        if !members.is_empty() {
            groups.push(members);
        }
    }
    Ok(groups)
}

/// The texts a rank's mark can be, each drawn as one: "1" is "10" printed apart.
pub fn rank_texts() -> Vec<String> {
    "A23456789JQK".chars().map(String::from).chain(["10".to_owned(), "1".to_owned()]).collect()
}

/// The rank a font text names ("1" and "10": ten).
fn rank_of_text(text: &str) -> Option<Rank> {
    match text {
        "10" | "1" => Rank::new(9),
        _ if text.chars().count() == 1 => Rank::from_char(text.chars().next()?),
        _ => None,
    }
}

/// Per rank (A … K), a mark's distance to the nearest font text of the rank; infinite where no font has one.
fn font_costs(fonts: &FontGlyphs, mark: &Mark) -> [f64; naming::RANKS] {
    let mut costs = [f64::INFINITY; naming::RANKS];
    for (rank, d) in fonts.distances_by_text(&mark.glyph.coverage, mark.glyph.aspect, mark.ink_height, rank_of_text) {
        costs[rank.index() as usize] = d;
    }
    costs
}

/// The mark that names a card, and its distance to each rank: its first mark, or its first two as one where
/// the first is nearest a "1" of the fonts (a ten printed "1" "0" apart), so that every ten of a table is one
/// mark; such a card is as near a ten as its "1" is to the fonts' (however the table squeezes its "10").
fn rank_mark<'a>(fonts: &FontGlyphs, card: &'a SeenCard) -> (&'a Mark, [f64; naming::RANKS]) {
    let first = &card.mark;
    let Some(both) = &card.with_next else { return (first, font_costs(fonts, first)) };
    let nearest = fonts.distances_by_text(&first.glyph.coverage, first.glyph.aspect, first.ink_height, |t| {
        (rank_of_text(t).is_some() && t != "10").then_some(t == "1")
    });
    match nearest.first() {
        Some(&(true, one)) => {
            let mut costs = font_costs(fonts, both);
            let ten = &mut costs[9];
            *ten = ten.min(one);
            (both, costs)
        }
        _ => (first, font_costs(fonts, first)),
    }
}

/// What naming a card otherwise than an earlier picture named it costs (a whole font distance and more: only
/// groups of cards the earlier naming split can be renamed).
const KNOWN_RANK: f64 = 1.0;

/// A group of marks whose naming is closer than this (in total font distance) to another is not named.
const GROUP_MARGIN: f64 = 0.004;

/// Names the cards: groups of alike marks, each a rank of its own, by the fonts' distances and the deal's room.
/// Returns each card's rank, in the order given.
fn name(
    fonts: &FontGlyphs,
    cards: &[(String, &SeenCard)],
    known: &[Option<Rank>],
    room: &[usize; naming::RANKS],
) -> Result<Vec<Rank>> {
    let (marks, mut costs): (Vec<&Mark>, Vec<[f64; naming::RANKS]>) =
        cards.iter().map(|(_, c)| rank_mark(fonts, c)).unzip();
    // A card named before (by an earlier picture) is that rank unless the picture says otherwise plainly: every
    // other rank costs it a whole unit more.
    for (cost, known) in costs.iter_mut().zip(known) {
        if let Some(rank) = known {
            for (r, c) in cost.iter_mut().enumerate() {
                if r != rank.index() as usize {
                    *c += KNOWN_RANK;
                }
            }
        }
    }
    let groups = groups_by_likeness(&marks, &costs, room).with_context(|| format!("{} cards seen", cards.len()))?;
    let group_costs: Vec<[f64; naming::RANKS]> =
        groups.iter().map(|g| std::array::from_fn(|r| g.iter().map(|&i| costs[i][r]).sum())).collect();
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    let named =
        naming::name_groups(&group_costs, &sizes, room, 1.0).with_context(|| format!("{} cards seen", cards.len()))?;
    let mut ranks = vec![Rank::ACE; cards.len()];
    for (g, members) in groups.iter().enumerate() {
        let rank = Rank::new(named.ranks[g] as u8).expect("a rank index");
        if named.margins[g] < GROUP_MARGIN * members.len() as f64 {
            let which: Vec<&str> = members.iter().map(|&i| cards[i].0.as_str()).collect();
            bail!(
                "the mark of {} is not told apart from another rank: named '{}' by the fonts and the deal with a margin of {:.4} (at least {:.4} needed)",
                which.join(", "),
                rank.to_char(),
                named.margins[g],
                GROUP_MARGIN * members.len() as f64
            );
        }
        for &i in members {
            ranks[i] = rank;
        }
    }
    Ok(ranks)
}

/// The rank marks of the common fonts, which a table read with no calibration is named by, and their capital
/// letters, which a control's label is read with.
pub struct RankShapes {
    fonts: FontGlyphs,
    letters: FontGlyphs,
}

impl RankShapes {
    /// The fonts cards are printed in, as `root/card-fonts.toml` lists them (the common fonts and the serifs card
    /// corners are often set in), else those of `root/fonts.toml` (see [`FontGlyphs::load`]).
    pub fn load(root: &std::path::Path) -> Result<RankShapes> {
        let card_fonts = root.join("card-fonts.toml");
        let fonts = if card_fonts.exists() {
            FontGlyphs::load_list(&card_fonts, &rank_texts())?
        } else {
            FontGlyphs::load_texts(root, &rank_texts())?
        };
        Ok(RankShapes { fonts, letters: FontGlyphs::load(root, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")? })
    }
}

/// The word a control that ends a stack is labelled with ("NEXT STACK", "END STACK").
const STACK_WORD: &str = "STACK";

/// The control that ends a stack, where the table labels one so: a button (a patch of flat colour off the cards,
/// at least twice as wide as tall, an eighth to half a card tall, filling half its box or more) whose label reads
/// [`STACK_WORD`] ([`says`]; each letter the fonts' nearest capital). None where no control says so: the
/// table then ends its stacks by itself, or the control is named by calibration; a control that is not labelled
/// so is never taken for it.
fn stack_control(
    image: &RgbaImage,
    card: (usize, usize),
    cards: &[Component],
    letters: &FontGlyphs,
) -> Option<(i32, i32)> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let overlaps = |a: &Component, b: &Component| a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
    let buttons = flat_patches(image, |_| true).into_iter().filter(|c| {
        c.width() >= 2 * c.height()
            && c.height() * 8 >= card.0
            && c.height() * 2 <= card.1
            && c.width() <= 4 * card.0
            && c.pixels * 2 >= c.width() * c.height()
            && !c.touches_edge(w, h)
            && !cards.iter().any(|card| overlaps(c, card))
    });
    buttons
        .filter(|b| says(&label(image, b, letters), STACK_WORD))
        .max_by_key(|b| b.pixels)
        .map(|b| (((b.x0 + b.x1) / 2) as i32, ((b.y0 + b.y1) / 2) as i32))
}

/// Whether a label holds `word`, one letter of it changed, added or left out (letters only: a wide gap in a
/// word, "ST ACK", is no break).
fn says(label: &str, word: &str) -> bool {
    let letters: Vec<char> = label.chars().filter(|c| !c.is_whitespace()).collect();
    let n = word.chars().count();
    (n.saturating_sub(1)..=n + 1).any(|len| {
        letters.windows(len.max(1)).any(|part| differs_by_at_most_one(&part.iter().collect::<String>(), word))
    })
}

/// Whether two words are the same but for one letter changed, added or left out.
fn differs_by_at_most_one(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    match long.len() - short.len() {
        0 => a.iter().zip(&b).filter(|(x, y)| x != y).count() <= 1,
        1 => (0..long.len())
            .any(|skip| long.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, c)| c).eq(short.iter())),
        _ => false,
    }
}

/// The text on a button (its box): the ink that differs from the button's colour (by at least half the most any
/// pixel does, and at least 30), in shapes, each read as the fonts' nearest capital, words split where the gap is
/// over half a letter's height.
fn label(image: &RgbaImage, button: &Component, letters: &FontGlyphs) -> String {
    let (w, h) = (button.width(), button.height());
    let pixel = |i: usize| rgb_at(image, button.x0 + i % w, button.y0 + i / w);
    let Some(colour) = mode((0..w * h).map(pixel)) else { return String::new() };
    // A label may be faint (a button greyed while it cannot be used): ink is measured against the strongest.
    let differences: Vec<u8> = (0..w * h).map(|i| max_diff(pixel(i), colour)).collect();
    let strongest = differences.iter().copied().max().unwrap_or(0).max(1);
    if strongest < 30 {
        return String::new();
    }
    let alpha: Vec<f32> = differences.iter().map(|&d| d as f32 / strongest as f32).collect();
    let mut shapes: Vec<(usize, usize, usize, usize)> =
        ink_boxes(&alpha, w).into_iter().filter(|b| b.0 > 0 && b.1 > 0 && b.2 + 1 < w && b.3 + 1 < h).collect();
    let tallest = shapes.iter().map(|s| s.3 - s.1 + 1).max().unwrap_or(0);
    shapes.retain(|s| (s.3 - s.1 + 1) * 10 >= tallest * 6);
    shapes.sort_by_key(|s| s.0);
    let mut text = String::new();
    for (k, &(x0, y0, x1, y1)) in shapes.iter().enumerate() {
        if k > 0 && (x0 - shapes[k - 1].2) * 2 > tallest {
            text.push(' ');
        }
        let coverage = glyph::normalise(&alpha, w, (x0, y0, x1, y1));
        let aspect = (x1 - x0 + 1) as f64 / (y1 - y0 + 1) as f64;
        if let Some((letter, _, _)) = letters.nearest(&coverage, aspect, y1 - y0 + 1, Some) {
            text.push(letter);
        }
    }
    text
}

/// Reads a table with no calibration (see the module doc): the columns and stack, and where to click. `hint` is
/// the previous reading's places, where there is one (it numbers the columns when one is emptied).
pub fn read(image: &RgbaImage, shapes: &RankShapes, hint: Option<&TablePoints>) -> Result<TableReading> {
    let mut first_error = None;
    for lightness in FACE_LIGHTNESS {
        match read_at(image, &shapes.fonts, &shapes.letters, hint, lightness) {
            Ok(reading) => return Ok(reading),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.expect("lightness levels tried"))
}

fn read_at(
    image: &RgbaImage,
    fonts: &FontGlyphs,
    letters: &FontGlyphs,
    hint: Option<&TablePoints>,
    lightness: u8,
) -> Result<TableReading> {
    let layout = layout(image, lightness, hint)?;
    // The fans' cards, seen twice where some mark stands much taller than the table's marks do (the median).
    let see = |mark_height: Option<usize>| -> Result<Vec<(String, Vec<SeenCard>)>> {
        let mut seen = Vec::new();
        for (c, fan) in layout.columns.iter().enumerate() {
            let cards = match fan {
                Some(fan) => {
                    fan_cards(image, fan, layout.card, mark_height).with_context(|| format!("column {}", c + 1))?
                }
                None => Vec::new(),
            };
            seen.push((format!("column {}", c + 1), cards));
        }
        if let Some(fan) = &layout.stack_pile {
            seen.push(("the stack".to_owned(), fan_cards(image, fan, layout.card, mark_height).context("the stack")?));
        }
        Ok(seen)
    };
    let mut piles = see(None)?;
    let mut heights: Vec<usize> = piles.iter().flat_map(|(_, cards)| cards.iter().map(|c| c.mark.ink_height)).collect();
    heights.sort_unstable();
    if let Some(&median) = heights.get(heights.len() / 2) {
        if heights.last().is_some_and(|&tallest| tallest * 100 > median * 135) {
            piles = see(Some(median))?;
        }
    }
    let counts: Vec<usize> = piles.iter().map(|(_, cards)| cards.len()).collect();
    let points: [Vec<(i32, i32)>; 4] = std::array::from_fn(|c| piles[c].1.iter().map(|card| card.point).collect());
    let seen: Vec<(String, SeenCard)> = piles
        .into_iter()
        .flat_map(|(place, cards)| {
            cards.into_iter().enumerate().map(move |(i, card)| (format!("card {} of {place}", i + 1), card))
        })
        .collect();
    // The stack's small cards: named on their own (their print is of another size), by the fonts alone.
    let mut room = [naming::PER_RANK; naming::RANKS];
    let mut row = Vec::new();
    for (i, small) in layout.stack_row.iter().enumerate() {
        let card = card_mark(image, small, false, (small.width(), small.height()), 1.0, None)
            .with_context(|| format!("the stack's small card at ({}, {})", small.x0, small.y0))?;
        let named = name(fonts, &[(format!("the stack's small card {}", i + 1), &card)], &[None], &room)?;
        room[named[0].index() as usize] -= 1;
        row.push(Card::new(named[0]));
    }
    let cards: Vec<(String, &SeenCard)> = seen.iter().map(|(place, card)| (place.clone(), card)).collect();
    // The columns' cards the previous picture named: a column only loses cards from its front, so its cards that
    // are still there are where they were (where it holds no more cards than it did).
    let known: Vec<Option<Rank>> = counts
        .iter()
        .enumerate()
        .flat_map(|(c, &count)| {
            let before = hint.and_then(|h| h.ranks.as_ref()).and_then(|r| r.get(c)).filter(|b| count <= b.len());
            (0..count).map(move |i| before.map(|b| b[i]))
        })
        .collect();
    let mut ranks = name(fonts, &cards, &known, &room)?.into_iter();
    let columns: [Vec<Card>; 4] =
        std::array::from_fn(|c| (0..counts[c]).map(|_| Card::new(ranks.next().expect("a rank a card"))).collect());
    let (stack, stack_shown) = if layout.stack_pile.is_some() {
        ((0..counts[4]).map(|_| Card::new(ranks.next().expect("a rank a card"))).collect(), true)
    } else if !row.is_empty() {
        (row, true)
    } else {
        (Vec::new(), false)
    };
    let state = State::new(columns, stack, 0).context("the cards read are not a possible game position")?;
    let anchors = hint.and_then(|h| h.columns).or_else(|| column_anchors(&layout));
    // The control stays where it is, and a table shows one from the start or never: the previous picture's (or
    // none), else looked for.
    let next_stack = hint.map(|h| h.next_stack).unwrap_or_else(|| {
        let cards: Vec<Component> = layout
            .columns
            .iter()
            .flatten()
            .chain(&layout.stack_pile)
            .map(fan_box)
            .chain(layout.stack_row.iter().copied())
            .collect();
        stack_control(image, layout.card, &cards, letters)
    });
    let ranks = Some(std::array::from_fn(|c| state.columns[c].iter().map(|card| card.rank).collect()));
    let points = TablePoints { cards: points, next_stack, card_width: layout.card.0, columns: anchors, ranks };
    Ok(TableReading {
        state,
        points,
        theme: "by shape".into(),
        stack_shown,
        // A table with no control for it can end a stack no other way (the play loop checks that it does).
        ends_stacks_itself: next_stack.is_none(),
        total: None,
        score: None,
    })
}

/// The box a fan covers.
fn fan_box(fan: &Fan) -> Component {
    let p = &fan.pieces;
    Component {
        x0: p.iter().map(|c| c.x0).min().unwrap_or(0),
        y0: p.iter().map(|c| c.y0).min().unwrap_or(0),
        x1: p.iter().map(|c| c.x1).max().unwrap_or(0),
        y1: p.iter().map(|c| c.y1).max().unwrap_or(0),
        pixels: p.iter().map(|c| c.pixels).sum(),
    }
}

/// A point on each column's line, where all four are seen (else none: the next picture numbers them anew).
fn column_anchors(layout: &Layout) -> Option<[(i32, i32); 4]> {
    let mut anchors = [(0, 0); 4];
    for (c, fan) in layout.columns.iter().enumerate() {
        let first = fan.as_ref()?.pieces[0];
        anchors[c] = (((first.x0 + first.x1) / 2) as i32, ((first.y0 + first.y1) / 2) as i32);
    }
    Some(anchors)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label says STACK with one letter misread, added or missing, or split by a wide gap; other words, or
    /// STACK with two letters wrong, do not.
    #[test]
    fn a_label_says_stack_within_one_letter() {
        for label in ["NEXT STACK", "NEXT ST ACK", "END STAOK", "NEXTSTACKS", "STAK", "NEW STACK"] {
            assert!(says(label, STACK_WORD), "{label}");
        }
        for label in ["NEW GAME", "UNDO", "SETTINGS", "SHACO", "", "ST"] {
            assert!(!says(label, STACK_WORD), "{label}");
        }
    }
}
