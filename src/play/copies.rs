//! What this client does with a copy of a move: besides the client showing that it never got a move, the only
//! ground on which a move of which nothing has shown is ever made again.
//!
//! A move whose copy leaves the board as the first copy left it ([`Repeat::SameBoard`]: a colour flooded again, a
//! digit typed again into the cell that shows it) is harmless to make twice only in a client that ignores the
//! copy: one that counts no move for it (a move counter would show one more) and draws nothing for it (some clients
//! clear a digit typed twice). That is seen, never assumed. Once in a game, in a client that has shown a move late
//! ([`super::pace::LATE_SHOW`]: the clients in which a lost move can pass for a late one, and the only ones that
//! will ever need a copy), right after a move of that kind has shown and held still, when nothing of it can still
//! be on its way, the loop makes the move once more and compares the window after the copy with the window before
//! it: the board must read the same, and nothing else in the window may have changed but what the window changes
//! by itself (a clock, a pulsing mark), learned by watching it for as long just before the copy. A client that
//! passes is trusted with a copy of a lost move of that kind for the rest of the game; one that does not is never
//! sent a copy.
//!
//! The look costs one copy of one move, once in a game, in late clients only: in a client that counts copies, one
//! move more on its counter; the board is never harmed for long (a digit a copy clears is typed again).

use std::time::Duration;

use image::RgbaImage;

use crate::game::Repeat;

/// What the loop has seen a copy of a move do in this client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyProof {
    /// No copy has been made.
    Unseen,
    /// A copy of move `at` changed nothing in the window.
    Ignored { at: usize },
    /// A copy of move `at` showed `what`.
    Shows { at: usize, what: String },
}

impl CopyProof {
    /// Whether a move of this kind, of which nothing has shown, may be made again: it leaves the board as it was
    /// when repeated, and this client has been seen to ignore a copy. Otherwise, why not, for messages.
    pub fn allows(&self, repeat: Repeat) -> Result<usize, String> {
        match (repeat, self) {
            (Repeat::Changes, _) => Err("a second copy of it makes another move".into()),
            (Repeat::SameBoard, CopyProof::Ignored { at }) => Ok(*at),
            (Repeat::SameBoard, CopyProof::Unseen) => {
                Err("this client has not been seen to ignore a copy of a move, and may count or undo one".into())
            }
            (Repeat::SameBoard, CopyProof::Shows { at, what }) => {
                Err(format!("a copy of move {at} showed in this client ({what})"))
            }
        }
    }
}

/// How long the window is watched for what it changes by itself, and after a copy: longer than a second, so that
/// a clock's seconds change in it.
pub const WATCH: Duration = Duration::from_millis(1200);
/// How often the window is captured while it is watched for what it changes by itself.
pub const WATCH_STEP: Duration = Duration::from_millis(100);

/// Side, in pixels, of the squares the window is compared in.
const BLOCK: u32 = 16;

/// The squares of a window's picture where it changes by itself.
#[derive(Clone, Debug)]
pub struct Restless {
    width: u32,
    height: u32,
    columns: u32,
    blocks: Vec<bool>,
}

impl Restless {
    /// The squares where any capture of a window watched over a while (`captures`, in order) differs from the one
    /// before it, each grown by one square every way (a mark that pulses reaches a little past where it was
    /// caught): a mark that pulses in a period that two captures alone can catch in the same phase is caught
    /// between others. `None` where the pictures differ in size, or there are fewer than two.
    pub fn over(captures: &[&RgbaImage]) -> Option<Restless> {
        let first = captures.first()?;
        if captures.len() < 2 || captures.iter().any(|c| c.dimensions() != first.dimensions()) {
            return None;
        }
        let (width, height) = first.dimensions();
        let (columns, rows) = (width.div_ceil(BLOCK), height.div_ceil(BLOCK));
        let mut changed = vec![false; (columns * rows) as usize];
        for pair in captures.windows(2) {
            for (x, y, pixel) in pair[0].enumerate_pixels() {
                if pair[1].get_pixel(x, y) != pixel {
                    changed[((y / BLOCK) * columns + x / BLOCK) as usize] = true;
                }
            }
        }
        let mut blocks = changed.clone();
        for row in 0..rows {
            for column in 0..columns {
                if !changed[(row * columns + column) as usize] {
                    continue;
                }
                for r in row.saturating_sub(1)..(row + 2).min(rows) {
                    for c in column.saturating_sub(1)..(column + 2).min(columns) {
                        blocks[(r * columns + c) as usize] = true;
                    }
                }
            }
        }
        Some(Restless { width, height, columns, blocks })
    }

    /// The first pixel (in reading order) where `before` and `after` differ outside the restless squares; also
    /// the picture's corner where their sizes differ from the watched one's.
    pub fn changed_outside(&self, before: &RgbaImage, after: &RgbaImage) -> Option<(u32, u32)> {
        if before.dimensions() != (self.width, self.height) || after.dimensions() != (self.width, self.height) {
            return Some((0, 0));
        }
        before.enumerate_pixels().find_map(|(x, y, pixel)| {
            let restless = self.blocks[((y / BLOCK) * self.columns + x / BLOCK) as usize];
            (!restless && after.get_pixel(x, y) != pixel).then_some((x, y))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A window with a clock (top left) whose digits change by themselves, and a move counter (bottom right).
    fn window(clock: u8, counter: u8) -> RgbaImage {
        let mut image = RgbaImage::from_pixel(200, 120, Rgba([30, 30, 30, 255]));
        for x in 4..20 {
            image.put_pixel(x, 6, Rgba([clock, 200, 200, 255]));
        }
        image.put_pixel(190, 110, Rgba([counter, 0, 0, 255]));
        image
    }

    #[test]
    fn a_change_where_the_window_changes_by_itself_is_no_change_and_one_elsewhere_is() {
        let restless = Restless::over(&[&window(1, 0), &window(2, 0)]).unwrap();
        // The clock ticks again, a little further along: still nothing new.
        assert_eq!(restless.changed_outside(&window(2, 0), &window(3, 0)), None);
        // A counter that moved: a change.
        assert_eq!(restless.changed_outside(&window(2, 0), &window(2, 1)), Some((190, 110)));
        let smaller = RgbaImage::new(100, 100);
        assert_eq!(restless.changed_outside(&window(2, 0), &smaller), Some((0, 0)));
        assert!(Restless::over(&[&window(1, 0), &smaller]).is_none());
    }

    /// A mark that pulses back to where it was (caught in the same phase at the start and the end of the watch)
    /// is seen restless between the captures in between.
    #[test]
    fn a_pulse_caught_in_the_same_phase_at_both_ends_of_the_watch_is_restless() {
        let (dim, bright, dim_again) = (window(1, 0), window(9, 0), window(1, 0));
        assert_eq!(Restless::over(&[&dim, &dim_again]).unwrap().changed_outside(&dim, &bright), Some((4, 6)));
        let watched = Restless::over(&[&dim, &bright, &dim_again]).unwrap();
        assert_eq!(watched.changed_outside(&dim, &bright), None);
        assert!(Restless::over(&[&dim]).is_none());
    }

    #[test]
    fn a_copy_is_allowed_only_for_a_move_that_leaves_the_board_in_a_client_seen_to_ignore_one() {
        let ignored = CopyProof::Ignored { at: 3 };
        assert_eq!(ignored.allows(Repeat::SameBoard), Ok(3));
        assert!(ignored.allows(Repeat::Changes).unwrap_err().contains("makes another move"));
        assert!(CopyProof::Unseen.allows(Repeat::SameBoard).unwrap_err().contains("not been seen to ignore"));
        let shows = CopyProof::Shows { at: 2, what: "the board changed".into() };
        assert!(shows.allows(Repeat::SameBoard).unwrap_err().contains("a copy of move 2 showed"));
    }
}
