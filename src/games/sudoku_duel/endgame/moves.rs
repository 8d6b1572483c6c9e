//! Moves as sets: a position's moves, how they are gathered, deduplicated and ordered, and the one-solution
//! test (`has_single`) over the moves laid out word by word.

use super::*;

/// A move of a position: the solutions it keeps (a set over the frame), how many, and one
/// (cell, digit) that keeps them.
#[derive(Clone, Copy)]
pub(super) struct Kid<const W: usize> {
    pub(super) mask: [u64; W],
    pub(super) count: u32,
    pub(super) cell: u8,
    pub(super) digit: u8,
}

/// The result of searching a position: won (with the winning move) or lost.
pub(super) enum Verdict<const W: usize> {
    Win(Kid<W>),
    Loss,
}

/// A move of a position that neither a closed form nor the table settles: its index among
/// the position's moves, its hash, and its rank in the search order.
#[derive(Clone, Copy)]
pub(super) struct Open {
    pub(super) index: u32,
    pub(super) hash: u64,
    pub(super) rank: u32,
}

/// A position's moves, settled where a closed form or the table settles them.
pub(super) enum Expansion<const W: usize> {
    /// Won by this move.
    Won(Kid<W>),
    /// Lost: every move is settled as won for the opponent.
    Lost,
    /// Undecided: the moves, and the open ones among them (distinct).
    Open(Vec<Kid<W>>, Vec<Open>),
}

#[inline]
pub(super) fn and<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline]
pub(super) fn count<const W: usize>(a: &[u64; W]) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

/// The sets of `kids` by word: word `w` of the `j`-th set at `w * kids.len() + j`, so that
/// a test of one set against all of them runs down whole words (8 sets a step on AVX-512).
#[inline]
pub(super) fn columns<const W: usize>(kids: &[Kid<W>]) -> Vec<u64> {
    let len = kids.len();
    let mut cols = vec![0u64; W * len];
    for (j, k) in kids.iter().enumerate() {
        for (w, &m) in k.mask.iter().enumerate() {
            cols[w * len + j] = m;
        }
    }
    cols
}

/// Whether the position `c` (a move of a position whose moves' sets are `columns`, see
/// [`columns`]) has a move keeping one solution: some `c ∩ M` with one element.
#[inline]
pub(super) fn has_single<const W: usize>(c: &[u64; W], columns: &[u64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if *V4 {
        // SAFETY: the CPU has the features (checked once in `V4`).
        return unsafe { has_single_v4(c, columns) };
    }
    has_single_any(c, columns)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
pub(super) unsafe fn has_single_v4<const W: usize>(c: &[u64; W], columns: &[u64]) -> bool {
    has_single_any(c, columns)
}

/// [`has_single`] in plain code, 16 sets a step so that it vectorises.
#[inline(always)]
pub(super) fn has_single_any<const W: usize>(c: &[u64; W], columns: &[u64]) -> bool {
    const STEP: usize = 16;
    let len = columns.len() / W;
    let mut j = 0;
    while j + STEP <= len {
        let mut total = [0u64; STEP];
        for (w, &cw) in c.iter().enumerate() {
            let col = &columns[w * len + j..][..STEP];
            for t in 0..STEP {
                total[t] += (cw & col[t]).count_ones() as u64;
            }
        }
        if total.iter().fold(false, |f, &n| f | (n == 1)) {
            return true;
        }
        j += STEP;
    }
    (j..len).any(|j| c.iter().enumerate().map(|(w, &cw)| (cw & columns[w * len + j]).count_ones()).sum::<u32>() == 1)
}

/// The moves `make(j)` for `j` in `0..len` keeping at least one and fewer than `below`
/// solutions, in order, gathered without a branch on that: each is written after the last
/// one kept, and the length advanced by the test (10% less time than pushing the kept
/// ones), and whether one of them keeps one solution. Inlined, so that `make` is compiled
/// with its caller's CPU features.
#[inline(always)]
pub(super) fn gather<const W: usize>(
    len: usize,
    below: u32,
    mut make: impl FnMut(usize) -> Kid<W>,
) -> (Vec<Kid<W>>, bool) {
    let mut moves = Vec::with_capacity(len);
    let slots = moves.spare_capacity_mut();
    let (mut kept, mut single) = (0, false);
    for j in 0..len {
        let kid = make(j);
        slots[kept].write(kid);
        kept += (kid.count.wrapping_sub(1) < below - 1) as usize;
        single |= kid.count == 1;
    }
    // SAFETY: the first `kept` slots are written (`kept` passes a slot only after writing
    // it), and they are within the capacity (`kept <= len`).
    unsafe { moves.set_len(kept) };
    (moves, single)
}

/// Sorts moves by count, keeping one of equal sets.
#[inline]
pub(super) fn sort_dedup<const W: usize>(kids: &mut Vec<Kid<W>>) {
    const MAX_WORDS: usize = 4;
    if W <= MAX_WORDS && kids.len() <= 512 {
        // Drop repeats through a small hash set of the sets kept (no move's set is empty,
        // which marks a free slot; holding the sets rather than the moves' indices spares
        // a dependent load per probe: 20% less time at one word), then order by count (at
        // most 64 W) with a counting sort: no comparisons.
        let slots = (2 * kids.len()).next_power_of_two().max(16);
        let shift = 64 - slots.trailing_zeros();
        let mut seen = vec![[0u64; W]; slots];
        let mut start = [0u32; 64 * MAX_WORDS + 2];
        let mut kept = 0;
        for i in 0..kids.len() {
            let k = kids[i];
            let h = k.mask.iter().fold(0u64, |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut j = (h >> shift) as usize;
            let fresh = loop {
                match seen[j] {
                    t if t == k.mask => break false,
                    t if t == [0; W] => break true,
                    _ => j = (j + 1) & (slots - 1),
                }
            };
            seen[j] = k.mask;
            kids[kept] = k;
            start[k.count as usize + 1] += fresh as u32;
            kept += fresh as usize;
        }
        kids.truncate(kept);
        for c in 1..64 * W + 2 {
            start[c] += start[c - 1];
        }
        let mut placed = kids.clone();
        for k in kids.iter() {
            placed[start[k.count as usize] as usize] = *k;
            start[k.count as usize] += 1;
        }
        *kids = placed;
        return;
    }
    kids.sort_unstable_by_key(|a| (a.count, a.mask));
    kids.dedup_by(|a, b| a.mask == b.mask);
}

/// Calls `f` with each set bit of `mask`, in order (plain loops rather than a flattened
/// iterator: the hashing, which runs through it, is the busiest loop of an expansion).
#[inline(always)]
pub(super) fn for_each_bit(mask: &[u64], mut f: impl FnMut(usize)) {
    for (j, &w) in mask.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(64 * j + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

/// The moves of the whole set `sols` (at most `64 * W` solutions), distinct, sorted.
pub(super) fn first_moves<const W: usize>(sols: &[[u8; CELLS]]) -> Vec<Kid<W>> {
    let n = sols.len() as u32;
    let mut kids = Vec::new();
    let mut masks = [[0u64; W]; 9];
    for cell in 0..CELLS {
        masks.iter_mut().for_each(|m| *m = [0; W]);
        for (q, s) in sols.iter().enumerate() {
            masks[s[cell] as usize - 1][q / 64] |= 1 << (q % 64);
        }
        for (d, m) in masks.iter().enumerate() {
            let k = count(m);
            if k > 0 && k < n {
                kids.push(Kid { mask: *m, count: k, cell: cell as u8, digit: d as u8 + 1 });
            }
        }
    }
    sort_dedup(&mut kids);
    kids
}
