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
    let board_side = layout.cols.max(layout.rows) as f64 * layout.pitch;
    let mut candidates: Vec<Candidate> = patches
        .into_iter()
        .filter(|p| !p.touches_edge && !p.touches_board)
        .filter_map(|p| {
            let (w, h) = (p.x1 - p.x0 + 1, p.y1 - p.y0 + 1);
            let fill = p.pixels as f64 / (w as f64 * h as f64);
            let shaped = w.min(h) >= MIN_SIDE
                && (w.max(h) as f64) <= board_side / 2.0
                && w.max(h) <= 3 * w.min(h)
                && fill >= MIN_FILL;
            if !shaped {
                return None;
            }
            let rgb = p.sum.map(|s| (s / p.pixels as u64) as u8);
            let (distance, symbol) =
                palette.iter().map(|&(symbol, colour)| (channel_distance(colour, rgb), symbol)).min()?;
            (distance <= NEAR).then(|| Candidate {
                offset: ((p.x0 + p.x1) as f64 / 2.0 - layout.origin_x, (p.y0 + p.y1) as f64 / 2.0 - layout.origin_y),
                width: w,
                height: h,
                pixels: p.pixels,
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

fn channel_distance(a: [u8; 3], b: [u8; 3]) -> u8 {
    (0..3).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// A smooth patch: its bounding box, size, colour sum, and whether it touches the picture's edge or the board.
struct Patch {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    pixels: usize,
    sum: [u64; 3],
    touches_edge: bool,
    touches_board: bool,
}

/// The smooth patches of the picture outside the board (and a pixel around it), by union-find over neighbouring
/// pixels within [`STEP`].
fn smooth_patches(image: &RgbaImage, layout: &CellLayout) -> Vec<Patch> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let (bx0, by0) = (layout.origin_x - 1.0, layout.origin_y - 1.0);
    let (bx1, by1) = (
        layout.origin_x + layout.cols as f64 * layout.pitch + 1.0,
        layout.origin_y + layout.rows as f64 * layout.pitch + 1.0,
    );
    let on_board = |x: usize, y: usize| {
        let (x, y) = (x as f64, y as f64);
        x >= bx0 && x < bx1 && y >= by0 && y < by1
    };
    let raw = image.as_raw();
    let rgb = |i: usize| [raw[4 * i], raw[4 * i + 1], raw[4 * i + 2]];
    let near = |a: usize, b: usize| channel_distance(rgb(a), rgb(b)) <= STEP;
    let mut parent: Vec<u32> = (0..(w * h) as u32).collect();
    let mut board = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if on_board(x, y) {
                board[i] = true;
                continue;
            }
            if x > 0 && !board[i - 1] && near(i, i - 1) {
                union(&mut parent, i, i - 1);
            }
            if y > 0 && !board[i - w] && near(i, i - w) {
                union(&mut parent, i, i - w);
            }
        }
    }
    let mut index_of_root: Vec<u32> = vec![u32::MAX; w * h];
    let mut patches: Vec<Patch> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if board[i] {
                continue;
            }
            let root = find(&mut parent, i);
            let k = match index_of_root[root] {
                u32::MAX => {
                    index_of_root[root] = patches.len() as u32;
                    patches.push(Patch {
                        x0: x as u32,
                        y0: y as u32,
                        x1: x as u32,
                        y1: y as u32,
                        pixels: 0,
                        sum: [0; 3],
                        touches_edge: false,
                        touches_board: false,
                    });
                    patches.len() - 1
                }
                k => k as usize,
            };
            let p = &mut patches[k];
            (p.x0, p.x1, p.y1) = (p.x0.min(x as u32), p.x1.max(x as u32), y as u32);
            p.pixels += 1;
            for (sum, value) in p.sum.iter_mut().zip(rgb(i)) {
                *sum += value as u64;
            }
            p.touches_edge |= x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            p.touches_board |= (x > 0 && board[i - 1])
                || (x + 1 < w && board[i + 1])
                || (y > 0 && board[i - w])
                || (y + 1 < h && board[i + w]);
        }
    }
    patches
}

fn find(parent: &mut [u32], mut i: usize) -> usize {
    while parent[i] as usize != i {
        let grand = parent[parent[i] as usize];
        parent[i] = grand;
        i = grand as usize;
    }
    i
}

fn union(parent: &mut [u32], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        // The smaller index is the root: a patch's root is its first pixel in reading order.
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        parent[hi] = lo as u32;
    }
}
