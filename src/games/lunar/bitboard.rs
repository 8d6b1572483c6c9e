//! Bitboard primitives shared by the solver and the retrograde enumeration.
//!
//! Layout: one `u64`, bit `row * 8 + col`, for every board up to 8×8. A board smaller than
//! 8×8 uses the top-left corner and a [`board_mask`]; bits outside the mask are never set
//! in an occupancy mask, so they behave as "not empty, not a blocker": a piece sliding
//! towards them finds no blocker and cannot move that way.

use std::fmt;

/// Width of the bitboard layout (cells per row in the `u64`).
pub(crate) const STRIDE: usize = 8;

/// Column 0 of the layout.
const COL_0: u64 = 0x0101_0101_0101_0101;
/// Column 7 of the layout.
const COL_7: u64 = COL_0 << 7;

/// One of the four sliding directions. `Up` is towards row 0, `Left` towards column 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// All four directions, in the order moves are generated.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The reverse direction.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// Lower-case English name, as used in move notation.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// (row, column) step of one cell in this direction.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// Small integer code (index in [`Dir::ALL`]).
    pub(crate) fn code(self) -> u8 {
        match self {
            Dir::Up => 0,
            Dir::Down => 1,
            Dir::Left => 2,
            Dir::Right => 3,
        }
    }

    /// Inverse of [`Dir::code`].
    pub(crate) fn from_code(code: u8) -> Dir {
        Dir::ALL[usize::from(code & 3)]
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bit of cell (row, col).
#[inline]
pub(crate) fn bit(row: usize, col: usize) -> u64 {
    debug_assert!(row < STRIDE && col < STRIDE);
    1u64 << (row * STRIDE + col)
}

/// (row, col) of a bit index.
#[inline]
pub(crate) fn square_rc(sq: u32) -> (usize, usize) {
    (sq as usize / STRIDE, sq as usize % STRIDE)
}

/// Mask of the cells of a `rows`×`cols` board (both at most 8).
pub(crate) fn board_mask(rows: usize, cols: usize) -> u64 {
    debug_assert!(rows <= STRIDE && cols <= STRIDE);
    let row_bits: u64 = if cols == STRIDE { 0xFF } else { (1u64 << cols) - 1 };
    (0..rows).fold(0, |m, r| m | row_bits << (r * STRIDE))
}

/// Every set bit moved one cell in direction `d`; bits that would leave the 8×8 layout
/// (or wrap into the next row) are dropped.
#[inline]
pub(crate) fn shift(bits: u64, d: Dir) -> u64 {
    match d {
        Dir::Up => bits >> STRIDE,
        Dir::Down => bits << STRIDE,
        Dir::Left => (bits & !COL_0) >> 1,
        Dir::Right => (bits & !COL_7) << 1,
    }
}

/// The smear (occluded fill): `from` plus every cell reachable from a bit of `from` by
/// stepping repeatedly in direction `d` through cells of `empty`.
///
/// Shift-and-mask doubling: after the step with shift `s`, `gen` holds every cell at most
/// `2s - 1` steps away along an all-empty run, and `pro` holds the cells whose `2s` cells
/// back (towards `from`) are all empty, so three doublings (1, 2, 4) cover the 7 steps of
/// an 8-cell line. Horizontal fills drop the wrap column from `pro` first.
#[inline]
pub(crate) fn smear(from: u64, empty: u64, d: Dir) -> u64 {
    let mut gen = from;
    match d {
        Dir::Up => {
            let mut pro = empty;
            gen |= pro & (gen >> 8);
            pro &= pro >> 8;
            gen |= pro & (gen >> 16);
            pro &= pro >> 16;
            gen |= pro & (gen >> 32);
        }
        Dir::Down => {
            let mut pro = empty;
            gen |= pro & (gen << 8);
            pro &= pro << 8;
            gen |= pro & (gen << 16);
            pro &= pro << 16;
            gen |= pro & (gen << 32);
        }
        Dir::Left => {
            let mut pro = empty & !COL_7;
            gen |= pro & (gen >> 1);
            pro &= pro >> 1;
            gen |= pro & (gen >> 2);
            pro &= pro >> 2;
            gen |= pro & (gen >> 4);
        }
        Dir::Right => {
            let mut pro = empty & !COL_0;
            gen |= pro & (gen << 1);
            pro &= pro << 1;
            gen |= pro & (gen << 2);
            pro &= pro << 2;
            gen |= pro & (gen << 4);
        }
    }
    gen
}

/// Where the piece on the single bit `from` stops when slid in direction `d`.
///
/// `occ` holds every piece and block (including `from` itself), `board` the board's cells.
/// The piece runs along the empty cells; the cell just past the run must hold a blocker
/// (otherwise the piece would leave the board: no move), and a run of length zero (blocker
/// adjacent) is not a move either.
#[inline]
pub(crate) fn slide(from: u64, occ: u64, board: u64, d: Dir) -> Option<u64> {
    let run = smear(from, board & !occ, d);
    // The run is contiguous from `from`, so shifting it one step reaches its own cells
    // (all empty, `from` excluded as it lies behind) and the single cell just past it.
    let blocker = shift(run, d) & occ;
    if blocker == 0 {
        return None;
    }
    let dest = shift(blocker, d.opposite());
    (dest != from).then_some(dest)
}

/// Iterator over the single-bit masks of the set bits of a mask, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.0 == 0 {
            None
        } else {
            let low = self.0 & self.0.wrapping_neg();
            self.0 ^= low;
            Some(low)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Step-by-step reference of `smear` for one start bit.
    fn smear_slow(from: u64, empty: u64, d: Dir) -> u64 {
        let mut gen = from;
        let mut cur = from;
        loop {
            let next = shift(cur, d) & empty;
            if next == 0 {
                return gen;
            }
            gen |= next;
            cur = next;
        }
    }

    #[test]
    fn board_masks() {
        assert_eq!(board_mask(8, 8), u64::MAX);
        assert_eq!(board_mask(1, 1), 1);
        assert_eq!(board_mask(5, 5).count_ones(), 25);
        assert_eq!(board_mask(3, 7).count_ones(), 21);
        assert_eq!(board_mask(5, 5) & bit(0, 5), 0);
        assert_ne!(board_mask(5, 5) & bit(4, 4), 0);
    }

    #[test]
    fn shifts_do_not_wrap() {
        assert_eq!(shift(bit(3, 7), Dir::Right), 0);
        assert_eq!(shift(bit(3, 0), Dir::Left), 0);
        assert_eq!(shift(bit(0, 4), Dir::Up), 0);
        assert_eq!(shift(bit(7, 4), Dir::Down), 0);
        assert_eq!(shift(bit(3, 3), Dir::Right), bit(3, 4));
        assert_eq!(shift(bit(3, 3), Dir::Up), bit(2, 3));
    }

    #[test]
    fn smear_matches_stepping() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let empty = x & x.rotate_left(23);
            let from = 1u64 << (x >> 58);
            for d in Dir::ALL {
                assert_eq!(smear(from, empty & !from, d), smear_slow(from, empty & !from, d));
            }
        }
    }

    #[test]
    fn slide_rules() {
        let board = board_mask(5, 5);
        let p = bit(2, 0);
        // Blocker at (2,4): slides right to (2,3).
        let occ = p | bit(2, 4);
        assert_eq!(slide(p, occ, board, Dir::Right), Some(bit(2, 3)));
        // No blocker: can't move off the board.
        assert_eq!(slide(p, occ, board, Dir::Up), None);
        assert_eq!(slide(p, occ, board, Dir::Left), None);
        // Adjacent blocker: zero-length slide is not a move.
        let occ = p | bit(2, 1);
        assert_eq!(slide(p, occ, board, Dir::Right), None);
        // A blocker outside the board mask does not count.
        let occ = p | bit(2, 5);
        assert_eq!(slide(p, occ & board, board, Dir::Right), None);
    }
}
