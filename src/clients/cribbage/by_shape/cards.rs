//! Cards (see **Cards.** in the module doc of [`super`]): the light, nearly grey faces of a picture cut into pieces of
//! one flat face, the pieces chained into fans, and the table's card size.

use std::cmp::Reverse;

use image::RgbaImage;

use super::super::reading::Bands;
use crate::vision::colour::{luminance, max_diff, mode, rgb_at};
use crate::vision::patches;
use crate::vision::runs::Component;

/// The lightness (luminance) from which a neutral pixel may be a card's face, tried in turn: the first that
/// shows a table is the one (faces are white, or shaded grey for cards that cannot be played).
pub(super) const FACE_LIGHTNESS: [u8; 3] = [150, 120, 190];

/// What a card's face looks like, as one reading takes it: light from `lightness`, and where `felt_apart`, not
/// the felt's colour (light felt is as light and as grey as a face; the felt is the picture's commonest colour).
#[derive(Clone, Copy, Debug)]
pub(super) struct FaceLook {
    pub(super) lightness: u8,
    pub(super) felt_apart: bool,
}

impl FaceLook {
    /// The looks tried in turn: each lightness as it is, then apart from the felt.
    pub(super) fn all() -> impl Iterator<Item = FaceLook> {
        [false, true]
            .into_iter()
            .flat_map(|felt_apart| FACE_LIGHTNESS.into_iter().map(move |lightness| FaceLook { lightness, felt_apart }))
    }
}

/// A face is nearly grey: its channels differ by at most this.
const FACE_CHROMA: u8 = 48;

/// A tinted face (or a highlighted one) off the felt's colour: its channels differ by at most this.
const TINTED_FACE_CHROMA: u8 = 100;

/// The way a fan runs, from its most buried card to its front card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Run {
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
pub(super) struct Fan {
    pub(super) pieces: Vec<Component>,
    pub(super) run: Option<Run>,
    /// An empty place: a card-sized outline with no card in it (its one piece is the outline's box).
    pub(super) empty: bool,
}

impl Fan {
    /// How many cards it holds.
    pub(super) fn cards(&self) -> usize {
        if self.empty {
            0
        } else {
            self.pieces.len()
        }
    }

    pub(super) fn front(&self) -> &Component {
        self.pieces.last().expect("a fan has a card")
    }

    /// Where the fan may start on the line of the way it runs: its buried end (none where it does not run that
    /// way; a lone card, either end).
    pub(super) fn starts(&self, across: bool) -> Vec<usize> {
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
    pub(super) fn place(&self, across: bool) -> usize {
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
/// other are one patch ([`patches::flat_patches`]). Each patch's box and pixel count.
pub(super) fn flat_patches(image: &RgbaImage, keep: impl Fn([u8; 3]) -> bool) -> Vec<Component> {
    patches::flat_patches(image, FLAT, |_, _, rgb| keep(rgb)).into_iter().map(|p| p.area).collect()
}

/// The light, nearly grey pixels of a picture from `lightness` up, cut into pieces of one flat face
/// ([`flat_patches`]) at least 6 pixels each way, less those inside another face's box, and with the pieces of
/// one face a picture split joined.
pub(super) fn pieces(image: &RgbaImage, look: FaceLook, known: Option<Bands>) -> (Vec<Component>, Option<Bands>) {
    // The felt: the commonest colour (of every third pixel each way) but for the darkest (a screen's black around
    // a window is no table). A face tinted more than faces usually are (cream, a hovered card's yellow) is a face
    // where it is far from the felt: light felt is as tinted.
    let felt = mode(
        (0..image.height() as usize)
            .step_by(3)
            .flat_map(|y| (0..image.width() as usize).step_by(3).map(move |x| rgb_at(image, x, y)))
            .filter(|&p| luminance(p) >= 60),
    );
    let face = |p: [u8; 3]| {
        let chroma = p.iter().max().unwrap_or(&0) - p.iter().min().unwrap_or(&0);
        let from_felt = felt.map_or(u8::MAX, |felt| max_diff(p, felt));
        luminance(p) >= look.lightness
            && (chroma <= FACE_CHROMA || (chroma <= TINTED_FACE_CHROMA && from_felt > FACE_CHROMA))
            && (!look.felt_apart || from_felt > FLAT)
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
        faces.entry(group_of(&mut group, i)).and_modify(|c| *c = c.joined(piece)).or_insert(*piece);
    }
    let found: Vec<Component> = faces.into_values().collect();
    // (Inside a face: a piece that covers a quarter of its box at least. A light ring, a window's frame, is no
    // face, and what it rings is not its picture.)
    let inside = |a: &Component, b: &Component| {
        a != b
            && a.x0 >= b.x0
            && a.x1 <= b.x1
            && a.y0 >= b.y0
            && a.y1 <= b.y1
            && a.pixels < b.pixels
            && b.pixels * 4 >= b.width() * b.height()
    };
    let whole: Vec<Component> = found.iter().filter(|a| !found.iter().any(|b| inside(a, b))).copied().collect();
    // Bands too tall for a card first; then pieces of a card's height or a little more, cut at the long bands'
    // pitch and only where their front card is the size of the long bands' (a lone card whose suit sits under its
    // rank is not cut).
    let tall = |p: &Component| p.width() >= 16 && p.height() as f64 > TALLEST_CARD * p.width() as f64;
    let cut: Vec<Option<Vec<Component>>> =
        whole.iter().map(|p| if tall(p) { split_band(image, p, &face, None) } else { None }).collect();
    let mut fronts: Vec<Component> = cut.iter().flatten().filter_map(|cards| cards.last().copied()).collect();
    let mut pitches: Vec<usize> = cut.iter().flatten().filter_map(|cards| cards.first().map(|c| c.height())).collect();
    pitches.sort_unstable();
    // This picture's bands, else an earlier picture's (late in a game no column is long).
    let bands = match (pitches.get(pitches.len() / 2), fronts.first()) {
        (Some(&pitch), Some(front)) => Some(Bands { pitch, front: (front.width(), front.height()) }),
        _ => known,
    };
    let pitch = bands.map(|b| b.pitch);
    if fronts.is_empty() {
        if let Some(Bands { front: (width, height), .. }) = bands {
            fronts.push(Component { x0: 0, y0: 0, x1: width - 1, y1: height - 1, pixels: width * height });
        }
    }
    let cut = whole
        .iter()
        .zip(cut)
        .flat_map(|(piece, cut)| {
            cut.or_else(|| {
                split_band(image, piece, &face, pitch)
                    .filter(|cards| cards.last().is_some_and(|front| fronts.iter().any(|f| alike(f, front))))
            })
            .unwrap_or_else(|| vec![*piece])
        })
        .collect();
    (cut, bands)
}

/// A piece far taller than any card (more than [`TALLEST_CARD`] times its width) is a *band*: a fan running
/// down whose cards have no edge between them, so that their faces make one. It is cut into its cards by their
/// indexes: the rows of ink down one side (inside the rounded corners, within [`INDEX_SIDE`] of its width from
/// the left edge, else from the right edge, else across the middle: an index is printed left, right or centred)
/// start at one pitch, one index per card, and the last of them is the front card's, which runs to the band's end
/// and must be card-shaped. Anything else (no run of at least two indexes at one pitch, a front card of another
/// shape) is not cut: `None`.
fn split_band(
    image: &RgbaImage,
    band: &Component,
    face: &impl Fn([u8; 3]) -> bool,
    pitch: Option<usize>,
) -> Option<Vec<Component>> {
    let width = band.width();
    if width < 16 || band.height() < width {
        return None;
    }
    let side = (width as f64 * INDEX_SIDE) as usize;
    let middle = band.x0 + width / 2;
    [(band.x0 + 4, band.x0 + side), (band.x1 - side, band.x1 - 4), (middle - side / 2, middle + side / 2)]
        .into_iter()
        .find_map(|columns| split_band_by(image, band, face, pitch, columns))
}

/// [`split_band`] by the ink between the columns `left..=right`.
fn split_band_by(
    image: &RgbaImage,
    band: &Component,
    face: &impl Fn([u8; 3]) -> bool,
    pitch: Option<usize>,
    (left, right): (usize, usize),
) -> Option<Vec<Component>> {
    let width = band.width();
    let inked =
        |y: usize| (left..=right).any(|x| !face(image.get_pixel(x as u32, y as u32).0[..3].try_into().unwrap()));
    // Where each run of inked rows starts.
    let mut starts = Vec::new();
    for y in band.y0..=band.y1 {
        if inked(y) && (y == band.y0 || !inked(y - 1)) {
            starts.push(y);
        }
    }
    let steps: Vec<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    // The pitch: the table's, where known, else the step most steps are within a pixel of (the least of those).
    let pitch = pitch.or_else(|| {
        steps.iter().copied().max_by_key(|&d| (steps.iter().filter(|&&e| e.abs_diff(d) <= 1).count(), Reverse(d)))
    })?;
    // The indexes at that pitch from the first: each card's.
    let mut tops = vec![starts[0]];
    for &start in &starts[1..] {
        let last = *tops.last().expect("one at least");
        if start.abs_diff(last + pitch) <= 2 {
            tops.push(start);
        } else if start > last + pitch + 2 {
            break;
        }
    }
    let offset = starts[0] - band.y0;
    let front_height = |tops: &[usize]| band.y1 + 1 - (tops[tops.len() - 1] - offset);
    // The front card's own ink (a pip, a picture) may fall at the pitch below its index: the tops from the end
    // that leave the front card too short for a card are not indexes.
    while tops.len() > 2 && (front_height(&tops) as f64) < 1.15 * width as f64 {
        tops.pop();
    }
    let front_top = tops[tops.len() - 1] - offset;
    let front_height = front_height(&tops);
    if tops.len() < 2 || !(1.15..=TALLEST_CARD).contains(&(front_height as f64 / width as f64)) {
        return None;
    }
    let piece = |y0: usize, y1: usize| Component { x0: band.x0, y0, x1: band.x1, y1, pixels: width * (y1 + 1 - y0) };
    let mut cards: Vec<Component> = tops.windows(2).map(|w| piece(w[0] - offset, w[1] - offset - 1)).collect();
    cards.push(piece(front_top, band.y1));
    Some(cards)
}

/// A card is at most this many times as tall as it is wide (and as wide as tall, turned).
const TALLEST_CARD: f64 = 1.9;

/// A card's index lies within this part of its width, from its left edge.
const INDEX_SIDE: f64 = 0.45;

/// How well `b` follows `a` in a fan running `run`: `b` starts within `gap` after `a` ends, and they share an
/// edge across (a piece a mark or picture cut short shares one); the length they share across, or none.
fn follows(a: &Component, b: &Component, run: Run, gap: usize) -> Option<usize> {
    let near = |p: usize, q: usize| p.abs_diff(q) <= gap.max(2);
    // `b` starts in the later half of `a` at the earliest: beside a rounded corner of the card over it, a strip's
    // face reaches past that card's edge by the corner's radius (up to a sixth of the card across).
    let corner = match run {
        Run::Down | Run::Up => a.width().min(b.width()),
        Run::Right | Run::Left => a.height().min(b.height()),
    } / 6;
    let next = |(a0, a1): (usize, usize), start: usize| {
        start + 1 + corner.min((a1 - a0) / 2) >= a1 && start <= a1 + gap && start > a0
    };
    let shared = |(a0, a1): (usize, usize), (b0, b1): (usize, usize)| {
        (near(a0, b0) || near(a1, b1)).then(|| (a1.min(b1) + 1).saturating_sub(a0.max(b0))).filter(|&s| s > 0)
    };
    let (xs, ys) = (((a.x0, a.x1), (b.x0, b.x1)), ((a.y0, a.y1), (b.y0, b.y1)));
    match run {
        Run::Down if next((a.y0, a.y1), b.y0) => shared(xs.0, xs.1),
        Run::Right if next((a.x0, a.x1), b.x0) => shared(ys.0, ys.1),
        _ => None,
    }
}

/// The pieces chained into fans: each piece followed by the one that shares the most with it across;
/// each card's piece then spans the fan's extent across (a mark or picture may cut a piece short).
pub(super) fn fans(pieces: &[Component]) -> Vec<Fan> {
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

/// Whether two boxes are one size, within a twentieth each way.
fn alike(a: &Component, b: &Component) -> bool {
    a.width().abs_diff(b.width()) * 20 <= a.width() && a.height().abs_diff(b.height()) * 20 <= a.height()
}

/// The box a fan covers.
pub(super) fn fan_box(fan: &Fan) -> Component {
    let empty = Component { x0: 0, y0: 0, x1: 0, y1: 0, pixels: 0 };
    fan.pieces.iter().copied().reduce(|a, b| a.joined(&b)).unwrap_or(empty)
}

/// The card size (width, height) of a table: of the fans' front cards taller than wide, the size (within a
/// twentieth) that covers the most of the picture (cards are the large light shapes; light text is small).
pub(super) fn card_size(fans: &[Fan]) -> Option<(usize, usize)> {
    let fronts: Vec<&Component> = fans
        .iter()
        .map(Fan::front)
        .filter(|c| c.width() >= 16 && (1.15..=TALLEST_CARD).contains(&(c.height() as f64 / c.width() as f64)))
        .collect();
    fronts
        .iter()
        .max_by_key(|a| (fronts.iter().filter(|b| alike(a, b)).count() * a.width() * a.height(), a.width()))
        .map(|c| (c.width(), c.height()))
}
