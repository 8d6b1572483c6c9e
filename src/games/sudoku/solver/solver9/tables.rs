//! Tables, built at compile time.

use super::bits::col27;

/// 9-bit row → 3 bits: which boxes of the row hold a candidate.
pub(super) const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if x & (7 << (3 * k)) != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// 9-bit mini-row pattern (bit 3·row + box) → 27-bit mask of the mini-rows lying on some
/// perfect matching rows ↔ boxes; 0 when there is none.
pub(super) const COMPLEX: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut t = [0u32; 512];
    let mut m: usize = 0;
    while m < 512 {
        let mut union = 0usize;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let edges = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if m & edges == edges {
                union |= edges;
            }
            p += 1;
        }
        let mut mask = 0u32;
        let mut e = 0;
        while e < 9 {
            if union & (1 << e) != 0 {
                let (rr, k) = (e / 3, e % 3);
                mask |= 7 << (9 * rr + 3 * k);
            }
            e += 1;
        }
        t[m] = mask;
        m += 1;
    }
    t
};

/// Bit p of a band → the other cells of the band sharing its row, column or box (32 entries, the last 5
/// unused, so that an index masked to 5 bits needs no bounds check).
pub(super) const BAND_PEERS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        let (rr, c) = (p / 9, p % 9);
        let row = 511 << (9 * rr);
        let col = col27(1 << c);
        let bx = col27(7 << (3 * (c / 3)));
        t[p] = (row | col | bx) & !(1 << p);
        p += 1;
    }
    t
};
/// Number of perfect matchings rows ↔ boxes of a 9-bit mini-row pattern (bit `3·row + box`), or bands ↔
/// columns of a stack pattern (bit `3·band + column`).
pub(super) const NCONF: [u8; 512] = {
    const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut t = [0u8; 512];
    let mut m: usize = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let edges = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if m & edges == edges {
                t[m] += 1;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::super::bits::FULL27;
    use super::*;

    #[test]
    fn complex_table_matches_matchings() {
        // Full pattern: everything survives; a row with no box: nothing.
        assert_eq!(COMPLEX[511], FULL27);
        assert_eq!(COMPLEX[0b111_111_000], 0);
        // Rows 0 and 1 both only in box 0: no matching.
        assert_eq!(COMPLEX[0b111_001_001], 0);
        // Row 0 only in box 0 forces rows 1, 2 out of box 0.
        let m = COMPLEX[0b111_111_001];
        assert_eq!(m, 7 | (0x1F8 << 9) | (0x1F8 << 18));
    }

    #[test]
    fn band_peers_exclude_self() {
        for p in 0..27 {
            assert_eq!(BAND_PEERS[p] & (1 << p), 0);
            assert_eq!(BAND_PEERS[p].count_ones(), 8 + 2 + 4);
        }
    }
}
