//! The 27-bit band word (bit `9·rr + c` is row `3b + rr`, column `c` of band `b`) and the scalar operations on
//! it: mini-rows, rows, columns. The same on vectors of band words are `Lanes`' provided methods.

pub(super) const FULL27: u32 = (1 << 27) - 1;
pub(super) const M3: u32 = 0o111_111_111;

#[inline(always)]
pub(super) const fn col27(cols: u32) -> u32 {
    cols | (cols << 9) | (cols << 18)
}

#[inline(always)]
pub(super) fn project(a: u32) -> u32 {
    (a | (a >> 9) | (a >> 18)) & 511
}

/// Per mini-row (the three cells of a row in a box): bit 9·row + 3·box set when the word has a candidate in it.
#[inline(always)]
pub(super) fn fold_h(x: u32) -> u32 {
    (x | x >> 1 | x >> 2) & M3
}

/// Mini-row bits rotated one box to the right within their row.
#[inline(always)]
fn rot_box(h: u32) -> u32 {
    ((h << 3) & 0o110_110_110) | ((h >> 6) & 0o001_001_001)
}

/// The mini-row bits alone in their row.
#[inline(always)]
pub(super) fn alone_in_row(h: u32) -> u32 {
    let r = rot_box(h);
    h & !r & !rot_box(r)
}

#[cfg(test)]
mod tests {
    use super::super::isa::{Isa, Scalar};
    use super::super::lanes::{Lanes, V4};
    use super::super::tables::NCONF;
    use super::*;

    #[test]
    fn mini_line_helpers_match_their_definitions() {
        for m in 0..512u32 {
            // Mini-rows: bit i of m is row i / 3, box i % 3, at bit 9·row + 3·box of a band word.
            let h: u32 = (0..9).filter(|i| m >> i & 1 != 0).map(|i| 1 << (9 * (i / 3) + 3 * (i % 3))).sum();
            let alone: u32 = (0..9)
                .filter(|&i| m >> i & 1 != 0 && (0..3).all(|k| k == i % 3 || m >> (3 * (i / 3) + k) & 1 == 0))
                .map(|i| 1 << (9 * (i / 3) + 3 * (i % 3)))
                .sum();
            assert_eq!(alone_in_row(h), alone, "{m:09b}");
            assert_eq!(fold_h(h * 7), h);
            assert_eq!(Scalar::mini_rows(h * 7), m as usize);
            // Columns: bit c, stacks of three.
            let alone: u32 = (0..9)
                .filter(|&c| m >> c & 1 != 0 && (0..3).all(|k| 3 * (c / 3) + k == c || m >> (3 * (c / 3) + k) & 1 == 0))
                .map(|c| 1 << c)
                .sum();
            assert_eq!(V4::splat(m).alone_in_stack().to_array()[0], alone, "{m:09b}");
            assert_eq!(V4::splat(h).alone_in_row().to_array()[0], alone_in_row(h));
            let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
            let n = perms.iter().filter(|p| (0..3).all(|r| m >> (3 * r + p[r]) & 1 != 0)).count();
            assert_eq!(NCONF[m as usize] as usize, n);
        }
    }
}
