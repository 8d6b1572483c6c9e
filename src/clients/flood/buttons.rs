//! Colour buttons found by their shape, as candidates for the loop to prove by their effect.
//!
//! A client that takes no click on its cells offers a control per colour somewhere outside the board: discs,
//! ellipses, square or rounded tiles, with or without an outline, a shadow, a gradient or a label. What they
//! share is that each is a compact patch of (about) one board colour, set off from what is around it by an edge.
//!
//! # Finding
//!
//! The picture outside the board is cut into *smooth patches*: pixels joined where a pixel and the one beside or
//! below it differ by at most [`STEP`] in every channel. A gradient page is one patch (its steps are a unit or
//! two), while an edge splits patches even between colours a few units apart, as long as the edge is a step (an
//! outline, a hard border, or anti-aliasing over a pixel or two); the flat middle of a gradient-filled disc is a
//! patch of its own. A patch is a *candidate* when it is button-shaped: it touches neither the picture's edge nor
//! the board, is at least [`MIN_SIDE`] pixels across and at most half the board, at most three times as long as
//! wide, and fills at least [`MIN_FILL`] of its bounding box (a disc fills π/4; a ring, a frame or a line
//! much less). Its colour is its mean; it stands for the board colour nearest to it, if one is within [`NEAR`].
//!
//! # Ranking
//!
//! Several candidates per colour are fine: the loop tries them in turn and the game keeps the one whose click
//! floods with the colour (or learns which colour it does flood with), dropping a candidate whose click does
//! nothing. Candidates are tried in order of: being one of a *set* (a candidate of another colour of about its
//! size lies in line with it, as a row or column of buttons does), then nearness of colour, then size.
//!
//! Positions are kept relative to the board's origin, so a window moved on the screen keeps its buttons.

use image::RgbaImage;

use crate::game::CellLayout;
use crate::vision::colour::max_diff;
use crate::vision::patches::{self, Patch};

/// The largest step, per channel, between two neighbouring pixels of one smooth patch.
const STEP: u8 = 5;
/// The smallest side of a button, in pixels.
const MIN_SIDE: u32 = 8;
/// The smallest share of its bounding box a button fills.
const MIN_FILL: f64 = 0.45;
/// The largest difference, per channel, between a button's mean colour and the board colour it stands for.
const NEAR: u8 = 64;

/// A patch of the picture that may be a colour button.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The centre of its bounding box, relative to the board's origin (image pixels).
    pub offset: (f64, f64),
    pub width: u32,
    pub height: u32,
    pub pixels: usize,
    /// Its mean colour.
    pub rgb: [u8; 3],
    /// The board colour (symbol) it stands for, and how far its colour is from that one.
    pub symbol: u8,
    pub distance: u8,
    /// How many candidates of other colours, of about its size, lie in line with it.
    pub set: usize,
}

impl Candidate {
    /// Where to click it in a picture whose board is at `layout`.
    pub fn point(&self, layout: &CellLayout) -> (i32, i32) {
        ((layout.origin_x + self.offset.0).round() as i32, (layout.origin_y + self.offset.1).round() as i32)
    }
}

/// The candidates in a picture for a board at `layout` of colours `palette` (symbol, colour), best first for
/// each colour (see the module doc).
pub fn find_candidates(image: &RgbaImage, layout: &CellLayout, palette: &[(u8, [u8; 3])]) -> Vec<Candidate> {
    let patches = smooth_patches(image, layout);
    let (board_width, board_height) = layout.extent();
    let board_side = board_width.max(board_height);
    let mut candidates: Vec<Candidate> = patches
        .into_iter()
        .filter(|p| !p.touches_edge && !p.touches_left_out)
        .filter_map(|p| {
            let a = p.area;
            let (w, h) = (a.width() as u32, a.height() as u32);
            let fill = a.pixels as f64 / (w as f64 * h as f64);
            let shaped = w.min(h) >= MIN_SIDE
                && (w.max(h) as f64) <= board_side / 2.0
                && w.max(h) <= 3 * w.min(h)
                && fill >= MIN_FILL;
            if !shaped {
                return None;
            }
            let rgb = p.mean();
            let (distance, symbol) = palette.iter().map(|&(symbol, colour)| (max_diff(colour, rgb), symbol)).min()?;
            (distance <= NEAR).then(|| Candidate {
                offset: ((a.x0 + a.x1) as f64 / 2.0 - layout.origin_x, (a.y0 + a.y1) as f64 / 2.0 - layout.origin_y),
                width: w,
                height: h,
                pixels: a.pixels,
                rgb,
                symbol,
                distance,
                set: 0,
            })
        })
        .collect();
    let sets: Vec<usize> = (0..candidates.len()).map(|i| set_size(&candidates, i)).collect();
    for (candidate, set) in candidates.iter_mut().zip(sets) {
        candidate.set = set;
    }
    candidates.sort_by_key(|c| (std::cmp::Reverse(c.set.min(2)), c.distance, std::cmp::Reverse(c.pixels)));
    candidates
}

/// How many colours other than candidate `i`'s have a candidate of about its size in line with it.
fn set_size(candidates: &[Candidate], i: usize) -> usize {
    let c = &candidates[i];
    let alike = |a: u32, b: u32| a.abs_diff(b) * 4 <= a.max(b);
    let mut symbols: Vec<u8> = candidates
        .iter()
        .filter(|o| o.symbol != c.symbol && alike(o.width, c.width) && alike(o.height, c.height))
        .filter(|o| {
            (o.offset.1 - c.offset.1).abs() * 4.0 <= c.height as f64
                || (o.offset.0 - c.offset.0).abs() * 4.0 <= c.width as f64
        })
        .map(|o| o.symbol)
        .collect();
    symbols.sort_unstable();
    symbols.dedup();
    symbols.len()
}

/// The smooth patches of the picture outside the board (and a pixel around it): pixels joined with neighbours
/// within [`STEP`] ([`patches::flat_patches`]), each marked where it touches the board.
fn smooth_patches(image: &RgbaImage, layout: &CellLayout) -> Vec<Patch> {
    let (bx0, by0) = (layout.origin_x - 1.0, layout.origin_y - 1.0);
    let (width, height) = layout.extent();
    let (bx1, by1) = (layout.origin_x + width + 1.0, layout.origin_y + height + 1.0);
    let on_board = |x: usize, y: usize| {
        let (x, y) = (x as f64, y as f64);
        x >= bx0 && x < bx1 && y >= by0 && y < by1
    };
    patches::flat_patches(image, STEP, |x, y, _| !on_board(x, y))
}
