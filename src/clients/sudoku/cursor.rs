//! A keyboard cursor the window shows by no single look (a terminal's own underline or bar, blinking), found by
//! what moves when one of its keys is pressed ([`crate::game::Client::cursor_probe`]), and then followed: the bot
//! alone moves it, so after a move made with its keys it is on that move's cell.
//!
//! What a probe shows: the window watched for a while before the key (each pixel's range: a blinking cursor shows
//! both its phases there), and the captures after it. The cell the cursor arrived in shows what the watch never
//! did; the cell it left does too where the cursor does not blink (its plain look comes back), and shows nothing
//! new where it does (its plain phase was watched). So one changed cell is where the cursor is; two are the cell
//! it left and the one it arrived in, a step apart the way the key moves it (or across the board, where it wraps).
//! Anything else (a key that changed more than a cursor) shows no cursor.

use image::RgbaImage;

use super::actions::CursorKeys;
use crate::game::{Action, CellLayout, Key};
use crate::vision::extremes::{Extremes, NEW_MARGIN};

/// The steps a probe tries, in order: across first (a cursor at the right edge cannot go right), then down.
const STEPS: [(isize, isize); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// A cell counts as changed where at least this share of its pixels (and 3) show something new.
const CHANGED_SHARE: f64 = 0.01;

/// What the client knows of a keyboard cursor it found by what moved.
#[derive(Clone, Debug, Default)]
pub struct FollowedCursor {
    /// The cell it is on, as the last probe found it or the last move's keys took it.
    at: Option<(usize, usize)>,
    /// The cell the move being planned takes it to, once that move's keys are sent.
    going_to: Option<(usize, usize)>,
    /// How many probes each way's keys (arrows, vi's) have made.
    probes: [usize; 2],
    /// The keys and step of the probe last sent.
    last: Option<(CursorKeys, (isize, isize))>,
}

impl FollowedCursor {
    /// The cell the cursor is on, where a probe found it.
    pub fn at(&self) -> Option<(usize, usize)> {
        self.at
    }

    /// The next probe of `keys`' cursor: one step's key, while steps are left to try.
    pub fn probe(&mut self, keys: CursorKeys) -> Option<Vec<Action>> {
        let tried = &mut self.probes[keys as usize];
        let step = *STEPS.get(*tried)?;
        *tried += 1;
        self.last = Some((keys, step));
        Some(vec![step_key(keys, step)])
    }

    /// What the last probe moved, in a grid laid out as `layout`: the cell the cursor is now on, where the
    /// changed cells show one (see the module's documentation), kept.
    pub fn probed(&mut self, layout: &CellLayout, watched: &Extremes, after: &[RgbaImage]) -> Option<(usize, usize)> {
        let (_, (dr, dc)) = self.last?;
        let changed = changed_cells(layout, watched, after);
        let n = (layout.rows as isize, layout.cols as isize);
        let step = |(r, c): (usize, usize)| {
            (((r as isize + dr).rem_euclid(n.0)) as usize, ((c as isize + dc).rem_euclid(n.1)) as usize)
        };
        let now = match changed[..] {
            [only] => Some(only),
            [a, b] if step(a) == b => Some(b),
            [a, b] if step(b) == a => Some(a),
            _ => None,
        };
        if now.is_some() {
            self.at = now;
        }
        now
    }

    /// The move being planned takes the cursor to `cell` with its keys.
    pub fn will_go_to(&mut self, cell: Option<(usize, usize)>) {
        self.going_to = cell;
    }

    /// The move's keys that choose its cell have been sent: the cursor is there (where that move was planned
    /// with them).
    pub fn arrived(&mut self, cell: (usize, usize)) {
        if self.going_to.take() == Some(cell) {
            self.at = Some(cell);
        }
    }
}

/// The key of `keys` that moves the cursor one `step` (rows, columns).
fn step_key(keys: CursorKeys, step: (isize, isize)) -> Action {
    match (keys, step) {
        (CursorKeys::Arrows, (0, 1)) => Action::Key(Key::Right),
        (CursorKeys::Arrows, (0, _)) => Action::Key(Key::Left),
        (CursorKeys::Arrows, (1, _)) => Action::Key(Key::Down),
        (CursorKeys::Arrows, _) => Action::Key(Key::Up),
        (CursorKeys::Vi, (0, 1)) => Action::Type('l'),
        (CursorKeys::Vi, (0, _)) => Action::Type('h'),
        (CursorKeys::Vi, (1, _)) => Action::Type('j'),
        (CursorKeys::Vi, _) => Action::Type('k'),
    }
}

/// The cells (row, column, in reading order) where any capture of `after` shows something `watched` never did.
fn changed_cells(layout: &CellLayout, watched: &Extremes, after: &[RgbaImage]) -> Vec<(usize, usize)> {
    let mut changed = Vec::new();
    for row in 0..layout.rows {
        for col in 0..layout.cols {
            let x0 = (layout.origin_x + col as f64 * layout.pitch_x).round().max(0.0) as u32;
            let y0 = (layout.origin_y + row as f64 * layout.pitch_y).round().max(0.0) as u32;
            let x1 = (layout.origin_x + (col + 1) as f64 * layout.pitch_x).round().max(0.0) as u32;
            let y1 = (layout.origin_y + (row + 1) as f64 * layout.pitch_y).round().max(0.0) as u32;
            let area = (x1.saturating_sub(x0) * y1.saturating_sub(y0)) as f64;
            let new = (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| after.iter().any(|image| watched.beyond(image, x, y, NEW_MARGIN)))
                .count();
            if new >= 3 && new as f64 >= CHANGED_SHARE * area {
                changed.push((row, col));
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A 3×3 grid of 10-pixel cells on black with an underline in cell `at`, if any.
    fn grid(at: Option<(usize, usize)>) -> RgbaImage {
        RgbaImage::from_fn(30, 30, |x, y| {
            let cell = ((y / 10) as usize, (x / 10) as usize);
            let underline = Some(cell) == at && y % 10 == 8 && (2..8).contains(&(x % 10));
            if underline {
                Rgba([220, 220, 220, 255])
            } else {
                Rgba([0, 0, 0, 255])
            }
        })
    }

    fn layout() -> CellLayout {
        CellLayout::square(3, 3, (0.0, 0.0), 10.0)
    }

    /// A blinking cursor watched at (1, 1): after the right arrow only (1, 2) shows something new; a steady one
    /// changes both, and the one it arrived in is a step to the right of the one it left.
    #[test]
    fn the_cursor_is_where_the_probe_key_took_it_blinking_or_not() {
        let mut cursor = FollowedCursor::default();
        assert_eq!(cursor.probe(CursorKeys::Arrows), Some(vec![Action::Key(Key::Right)]));
        let blinking = Extremes::over(&[&grid(Some((1, 1))), &grid(None)]).unwrap();
        assert_eq!(cursor.probed(&layout(), &blinking, &[grid(Some((1, 2)))]), Some((1, 2)));
        let steady = Extremes::over(&[&grid(Some((1, 1))), &grid(Some((1, 1)))]).unwrap();
        assert_eq!(cursor.probed(&layout(), &steady, &[grid(Some((1, 2)))]), Some((1, 2)));
        // Wrapped from the right edge to the left one.
        let at_edge = Extremes::over(&[&grid(Some((0, 2)))]).unwrap();
        assert_eq!(cursor.probed(&layout(), &at_edge, &[grid(Some((0, 0)))]), Some((0, 0)));
        assert_eq!(cursor.at(), Some((0, 0)));
    }

    /// Two changed cells not a step apart the way the key moves, or more than two, show no cursor; the probes
    /// try each step once, then none.
    #[test]
    fn changes_no_step_explains_show_no_cursor() {
        let mut cursor = FollowedCursor::default();
        cursor.probe(CursorKeys::Vi);
        let steady = Extremes::over(&[&grid(Some((0, 0)))]).unwrap();
        let mut far = grid(Some((2, 2)));
        for x in 2..8 {
            far.put_pixel(x, 8, Rgba([0, 0, 0, 255]));
        }
        assert_eq!(cursor.probed(&layout(), &steady, &[far]), None);
        assert_eq!(cursor.at(), None);
        let keys: Vec<_> = std::iter::from_fn(|| cursor.probe(CursorKeys::Vi)).collect();
        assert_eq!(keys, vec![vec![Action::Type('h')], vec![Action::Type('j')], vec![Action::Type('k')]]);
    }
}
