//! An admissible upper bound on the points still obtainable from a solver state, for branch and bound.
//!
//! # The relaxed game
//!
//! The bound is the exact optimum of a *relaxed* game whose state is `(c, t, r1, r2, triple)`: the cards left in
//! each column, the stack total, the ranks of the top two cards of the stack (`r2` absent when the stack holds
//! one card; an empty stack is `t = 0`), and whether the top three cards have the same rank. The rest of the
//! stack is forgotten. Since the top two cards are the last two played, they are named by the columns they came
//! from (`jl` the top card's, `jp` the one below), so a state is `(c, t, jl, jp)` with `jp` one of the four
//! columns, `SINGLE` (one card) or `TRIPLE` (three or more of a kind, `r2 = r1`): `r1 = cols[jl][c[jl]]`, and
//! `r2 = cols[jp][c[jp]]` when `jp ≠ jl` or `cols[jl][c[jl] + 1]` when both came from the same column. This
//! needs every card of the stack to have come from the columns during the search (not from a given stack).
//!
//! The relaxed game has exactly the real moves (legality, the forced new stack and the 31 limit depend on `c` and
//! `t` only) and scores each card at least as much as the real game can, whatever lies below `r2`:
//!
//! * Jack first, 15 and 31 depend on the totals only: exact.
//! * Sets: exact. A card `x` scores 2 when `x = r1 ≠ r2`, 6 when `x = r1 = r2` without `triple`, 12 with it
//!   (and then the new state has `triple`).
//! * Runs: a run of `n ≥ 3` cards at the top after `x` holds `x`, `r1` and `r2`, so there is none when two of
//!   them share a rank or span more than 7 ranks. A run of `n ≥ 4` also holds the `n - 3` cards `r3`, `r4`, …
//!   below `r2`, all of distinct ranks. Those are real cards, the last ones taken from the columns before `r1`
//!   and `r2` (every card of the stack came from the columns, and nothing else was taken since): an
//!   interleaving of a prefix of each column's taken cards, most recent first, column `q`'s starting at
//!   `cols[q][c[q] + d_q]`, `d_q` counting `r1`, `r2` among the cards taken from column `q` (so `r3` is one
//!   of the four candidates `cols[q][c[q] + d_q]`, and `r4`, for `r3` from `q3`, one of
//!   `cols[q][c[q] + d_q + [q = q3]]`). Since the run only needs the set of their ranks, the relaxation
//!   grants the best of the consecutive ranges of 3 to 7 ranks holding `x, r1, r2` whose other ranks are,
//!   each once, the ranks of such prefixes (some prefix lengths `k_q` with `Σ k_q = n - 3`, see `peel`), and
//!   whose ranks other than `x, r1, r2` have values summing to at most `t - v(r1) - v(r2)` (the total below
//!   `r2`). (With one card on the stack no run is possible yet.) The real run below `r2` is such a choice of
//!   prefixes, so this never grants less than the real run.
//!
//! Every real line from a real state is a line of the relaxed game from its abstraction scoring at least as
//! much card by card (its actual `r3`, `r4`, … are such prefixes and its run satisfies the conditions), so
//! the relaxed optimum `U` is at least the real optimum of every state with that abstraction.
//!
//! # Computation
//!
//! `U` is a backward dynamic programme over the positions `c` in increasing mixed-radix index order (a
//! successor `c - e_j` has a smaller index). For each position and `(jl, jp)` the values of all totals are one
//! row of 32 bytes (lane `t`), so a move is a shift of the successor row by the card's value plus a points row
//! (precomputed once per process per `(r1, r2, x, triple)`; for runs, the max of step rows over the ranges the
//! cards below `r2` allow, checked with rank masks), maxed over the moves: data-parallel byte operations (AVX2
//! when the CPU has it, else SSE2). Lanes where no card fits take the value of the empty stack at the same
//! position. Every slot's row is at least the row of `SINGLE` (each move scored as over `r1` alone: the slot's
//! own points are at least those, and a set state's successor at least the pair state's), so that row is
//! computed once per `jl` and the other slots only add their set and run moves. A move's run row is the same
//! for `(jl, jp)` and `(jp, jl)` (it depends on the set `{x, r1, r2}`, on `x` for the sums and on the two
//! columns for the cards below), so it is found once per pair of columns. The run checks are most of the
//! build: a move whose triple's longer ranges hold no candidate for `r3` only checks the range of 3. Values
//! fit a byte (well under 255 from 52 cards).

use std::sync::OnceLock;

use super::{rank_value, JACK, LIMIT, SET_POINTS};

/// The `jp` slot of a stack holding one card.
pub(super) const SINGLE: usize = 4;
/// The `jp` slot of a stack whose top three (or four) cards have the same rank.
pub(super) const TRIPLE: usize = 5;
/// `(jl, jp)` slots per position: 4 × (4 columns + `SINGLE` + `TRIPLE`).
const SLOTS: usize = 24;
const LANES: usize = 32;
/// `r2` index of a stack holding one card in the points table.
const NO_R2: usize = 13;

type Row = [u8; LANES];

/// `PAIR[a][b]`: the index of the pair of different columns `{a, b}` (0 when `a = b`, unused).
const PAIR: [[usize; 4]; 4] = [[0, 0, 1, 2], [0, 0, 3, 4], [1, 3, 0, 5], [2, 4, 5, 0]];

/// `NO_FIT_MASK[v]`: all ones in the lanes `t` with `t + v > 31` (no card of value `v` or more fits).
const NO_FIT_MASK: [Row; 33] = {
    let mut masks = [[0u8; LANES]; 33];
    let mut v = 0;
    while v < 33 {
        let mut t = 0;
        while t < LANES {
            if t + v >= LANES {
                masks[v][t] = 0xFF;
            }
            t += 1;
        }
        v += 1;
    }
    masks
};

/// `SHIFT_MASK[v]`: all ones in the lanes `t` with `t + v ≤ 31`.
const SHIFT_MASK: [Row; 11] = {
    let mut masks = [[0u8; LANES]; 11];
    let mut v = 0;
    while v < 11 {
        let mut t = 0;
        while t + v < LANES {
            masks[v][t] = 0xFF;
            t += 1;
        }
        v += 1;
    }
    masks
};

/// `points[((r1 * 14 + r2) * 13 + x) * 2 + triple]`, lane `t`: the relaxed points of playing rank `x` onto a
/// stack of total `t` whose top ranks are `r1`, `r2` (`r2 = NO_R2`: one card; `triple`: the top three cards have
/// the same rank); 0 when `x` does not fit.
fn points_table() -> &'static [Row] {
    static TABLE: OnceLock<Vec<Row>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![[0u8; LANES]; 13 * 14 * 13 * 2];
        for r1 in 0..13u32 {
            for r2 in 0..14u32 {
                for x in 0..13u32 {
                    for triple in 0..2 {
                        let row = &mut table[(((r1 * 14 + r2) * 13 + x) * 2 + triple) as usize];
                        for t in 0..LANES as u32 {
                            row[t as usize] = relaxed_points(r1, r2, x, t, triple == 1) as u8;
                        }
                    }
                }
            }
        }
        table
    })
}

/// The relaxed points of playing rank `x` onto a non-empty stack of total `t` with top ranks `r1`, `r2`
/// (`r2 = 13`: the stack holds `r1` alone), runs left out (see `RunTable`). 0 when `x` does not fit.
fn relaxed_points(r1: u32, r2: u32, x: u32, t: u32, triple: bool) -> u32 {
    let v = rank_value(x);
    let t2 = t + v;
    if t2 > LIMIT {
        return 0;
    }
    let mut points = 0;
    if t2 == 15 || t2 == LIMIT {
        points += 2;
    }
    if x == r1 {
        points += if r2 != r1 {
            SET_POINTS[2]
        } else if triple {
            SET_POINTS[4]
        } else {
            SET_POINTS[3]
        };
    }
    points
}

/// The runs `x` can complete over `r1`, `r2` (distinct, spanning at most 7 ranks), for the relaxed points.
///
/// A run of `n` cards at the top after `x` is a consecutive range `R` of `n` ranks holding `x`, `r1`, `r2` (and
/// the `n - 3` cards below them, checked in `build` with `peel`), whose ranks other
/// than `x` lie on the stack: their values, `Σ v(R) - v(x)`, sum to at most the total `t`. For each triple,
/// `ranges` lists every such `R` as `(R minus the triple, n, Σ v(R) - v(x))` (those with a sum over 31 left
/// out); `steps[n][s]` is the row `n` in the lanes `t ≥ s`.
struct RunTable {
    /// `index[(r1 * 13 + r2) * 13 + x]`: the triple's ranges, `ranges[start..end]` (empty if none).
    index: Vec<(u16, u16)>,
    /// `longer[(r1 * 13 + r2) * 13 + x]`: the ranks of all the triple's ranges of 4 or more other than the triple
    /// (when no candidate for `r3` is among them, only the range of 3, listed first, can count).
    longer: Vec<u16>,
    ranges: Vec<(u16, u8, u8)>,
    steps: [[Row; LANES]; 8],
}

fn run_table() -> &'static RunTable {
    static TABLE: OnceLock<RunTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut index = vec![(0u16, 0u16); 13 * 13 * 13];
        let mut longer = vec![0u16; 13 * 13 * 13];
        let mut ranges = Vec::new();
        for r1 in 0..13u32 {
            for r2 in 0..13u32 {
                for x in 0..13u32 {
                    let three = 1u32 << r1 | 1 << r2 | 1 << x;
                    if r1 == r2 || x == r1 || x == r2 {
                        continue;
                    }
                    let start = ranges.len() as u16;
                    for n in 3..=7u32 {
                        for lo in 0..=(13 - n) {
                            let range = ((1u32 << n) - 1) << lo;
                            let sum: u32 = (lo..lo + n).map(rank_value).sum::<u32>() - rank_value(x);
                            if range & three == three && sum <= LIMIT {
                                longer[((r1 * 13 + r2) * 13 + x) as usize] |= (range & !three) as u16;
                                ranges.push(((range & !three) as u16, n as u8, sum as u8));
                            }
                        }
                    }
                    index[((r1 * 13 + r2) * 13 + x) as usize] = (start, ranges.len() as u16);
                }
            }
        }
        let mut steps = [[[0u8; LANES]; LANES]; 8];
        for (n, rows) in steps.iter_mut().enumerate() {
            for (from, row) in rows.iter_mut().enumerate() {
                for lane in &mut row[from..] {
                    *lane = n as u8;
                }
            }
        }
        RunTable { index, longer, ranges, steps }
    })
}

/// Whether the cards below the top two, taken back from the columns most recent first (the next one of column
/// `q` is `taken_bit[q][depth[q]]`, a rank bit, 0 past the column's end), can have exactly the ranks `others`,
/// each once: the run check for `r3`, `r4`, … (see the module docs). Those cards are an interleaving of a
/// prefix of each column's cards from `depth[q]`, so the order does not matter: some prefix lengths `k_q`
/// must give distinct ranks making up `others` (`Σ k_q = |others|` and the union is `others`).
fn peel(taken_bit: &[[u16; 8]; 4], depth: [usize; 4], others: u16) -> bool {
    // prefix[q][k]: the ranks of the first k cards of column q, as long as they are distinct and in `others`.
    let mut prefix = [[0u16; 5]; 4];
    let mut longest = [0usize; 4];
    let mut all = 0;
    for q in 0..4 {
        let mut acc = 0;
        let mut k = 0;
        while k < 4 {
            let bit = taken_bit[q][depth[q] + k];
            if bit & others & !acc == 0 {
                break;
            }
            acc |= bit;
            k += 1;
            prefix[q][k] = acc;
        }
        longest[q] = k;
        all |= acc;
    }
    if all != others {
        return false;
    }
    let need = others.count_ones() as usize;
    for k0 in 0..=longest[0] {
        for k1 in 0..=longest[1] {
            for k2 in 0..=longest[2] {
                let k3 = need.wrapping_sub(k0 + k1 + k2);
                if k3 <= longest[3] && prefix[0][k0] | prefix[1][k1] | prefix[2][k2] | prefix[3][k3] == others {
                    return true;
                }
            }
        }
    }
    false
}

/// The relaxed optimum for every position of one deal (reused between deals).
#[derive(Default)]
pub(super) struct Bound {
    /// Row `idx * SLOTS + jl * 6 + jp` at bytes `row * 32..`, lane `t` (1–31); lane 0 of row `(idx, 0, SINGLE)`
    /// holds the value of an empty stack. One spare row at the end (so a row can be read shifted, see `build`).
    rows: Vec<u8>,
}

impl Bound {
    /// Where the bound of a state is kept: at position `idx` with total `t` (0: empty stack) whose top card came
    /// from column `jl` and the one below from column `jp` (`SINGLE` when the stack holds one card, `TRIPLE`
    /// over three or more of a kind).
    #[inline(always)]
    fn offset(idx: usize, t: usize, jl: usize, jp: usize) -> usize {
        if t == 0 {
            // The empty stack's bound is kept in the unused lane 0 of a row.
            (idx * SLOTS + SINGLE) * LANES
        } else {
            (idx * SLOTS + jl * 6 + jp) * LANES + t
        }
    }

    /// The bound kept at `offset`.
    #[inline(always)]
    fn at(&self, offset: usize) -> u32 {
        u32::from(self.rows[offset])
    }

    /// Asks for the bounds of the states at position `idx` whose top card came from column `jl` (and that of
    /// the empty stack) to be brought into the cache.
    #[inline(always)]
    pub(super) fn prefetch_slots(&self, idx: usize, jl: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let from = (idx * SLOTS + jl * 6) * LANES;
            let fresh = Self::offset(idx, 0, 0, 0);
            for at in [from, from + 64, from + 128, fresh] {
                if let Some(byte) = self.rows.get(at) {
                    // SAFETY: a prefetch has no effect on memory (and SSE is baseline); the address is in the
                    // table.
                    unsafe {
                        std::arch::x86_64::_mm_prefetch(byte as *const u8 as *const i8, std::arch::x86_64::_MM_HINT_T0)
                    };
                }
            }
        }
    }

    /// The bound of a state (see `offset`).
    #[inline(always)]
    pub(super) fn get(&self, idx: usize, t: usize, jl: usize, jp: usize) -> u32 {
        self.at(Self::offset(idx, t, jl, jp))
    }

    /// Fills the table for the columns `cols` (ranks, buried end first), with the solver's mixed-radix layout.
    pub(super) fn build(&mut self, cols: &[Vec<u32>; 4], len: &[usize; 4], stride: &[usize; 4]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 (just checked).
                unsafe { self.build_avx2(cols, len, stride) };
            } else {
                self.build_any::<lanes::Sse2>(cols, len, stride);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.build_any::<lanes::Plain>(cols, len, stride);
    }

    /// `build_any` with 32-byte AVX2 registers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn build_avx2(&mut self, cols: &[Vec<u32>; 4], len: &[usize; 4], stride: &[usize; 4]) {
        self.build_any::<lanes::Avx2>(cols, len, stride);
    }

    #[inline(always)]
    fn build_any<L: lanes::Lanes>(&mut self, cols: &[Vec<u32>; 4], len: &[usize; 4], stride: &[usize; 4]) {
        let points = points_table();
        let runs = run_table();
        let n = stride[3] * (len[3] + 1);
        self.rows.resize((n * SLOTS + 1) * LANES, 0);
        let points_of = |r1: usize, r2: usize, x: usize, triple: bool| -> L {
            L::load(&points[((r1 * 14 + r2) * 13 + x) * 2 + usize::from(triple)])
        };
        let mut c = [0usize; 4];
        for idx in 0..n {
            if idx > 0 {
                // Odometer step to the next position.
                let mut j = 0;
                while c[j] == len[j] {
                    c[j] = 0;
                    j += 1;
                }
                c[j] += 1;
            }
            // The rows of the successors a few positions ahead (the far ones are not in the cache).
            #[cfg(target_arch = "x86_64")]
            for &j in &[2, 3] {
                let ahead = idx + 8;
                if c[j] > 0 && ahead >= stride[j] {
                    let at = (ahead - stride[j]) * SLOTS * LANES;
                    if let Some(bytes) = self.rows.get(at..at + SLOTS * LANES) {
                        for line in bytes.chunks(64) {
                            // SAFETY: a prefetch has no effect on memory; the address is in the table.
                            unsafe {
                                std::arch::x86_64::_mm_prefetch(
                                    line.as_ptr() as *const i8,
                                    std::arch::x86_64::_MM_HINT_T0,
                                )
                            };
                        }
                    }
                }
            }
            // taken[q][d]: the rank of the card taken from column q d cards before its last one (NO_R2 if none).
            let mut taken = [[NO_R2; 8]; 4];
            for q in 0..4 {
                for d in 0..8 {
                    if c[q] + d < len[q] {
                        taken[q][d] = cols[q][c[q] + d] as usize;
                    }
                }
            }
            let taken_bit: [[u16; 8]; 4] = std::array::from_fn(|q| {
                std::array::from_fn(|d| if taken[q][d] == NO_R2 { 0 } else { 1 << taken[q][d] })
            });
            // The playable cards: (column, rank, value, successor index).
            let mut moves = [(0usize, 0usize, 0usize, 0usize); 4];
            let mut m = 0;
            let mut min_value = LANES;
            let mut fresh = 0u8;
            for j in 0..4 {
                if c[j] > 0 {
                    let x = cols[j][c[j] - 1] as usize;
                    let v = rank_value(x as u32) as usize;
                    let succ = idx - stride[j];
                    moves[m] = (j, x, v, succ);
                    m += 1;
                    min_value = min_value.min(v);
                    let jack = if x as u32 == JACK { 2 } else { 0 };
                    fresh = fresh.max(jack + self.rows[(succ * SLOTS + j * 6 + SINGLE) * LANES + v]);
                }
            }
            // Lanes where no card fits start a new stack.
            let base = L::and(L::splat(fresh), L::load(&NO_FIT_MASK[min_value]));
            // The run rows of the moves over the top two cards from two different columns, by pair of columns:
            // the same for (jl, jp) and (jp, jl) (the runs depend on the set {x, r1, r2}, the sums on x, and
            // the cards below on the columns the two came from), so computed once; with a bit per move that
            // has one.
            let mut shared = [([L::zero(); 4], 0u8); 6];
            for jl in 0..4 {
                let r1 = taken[jl][0];
                if r1 == NO_R2 {
                    continue;
                }
                // The successor rows after each move (top card from column j over `r1` from `jl`; over a set of
                // three or more when `x = r1` follows a pair), shifted so that lane t reads lane t + v (read
                // across into the next row, then masked to 0 beyond 31).
                let mut shifted = [L::zero(); 4];
                let mut shifted_set = [L::zero(); 4];
                // Each move's row scored over r1 alone (15 and 31, a pair if x = r1).
                let mut plain = [L::zero(); 4];
                // What every slot of `jl` scores at least: each move scored as over r1 alone (a pair if x = r1,
                // no run). Every slot's own points are at least these, and a set's successor row at least the
                // pair's (the pair state's options are the set state's with fewer points).
                let mut common = base;
                for (mi, &(j, x, v, succ)) in moves[..m].iter().enumerate() {
                    let mask = L::load(&SHIFT_MASK[v]);
                    let at = (succ * SLOTS + j * 6 + jl) * LANES + v;
                    shifted[mi] = L::and(L::load_at(&self.rows, at), mask);
                    if x == r1 {
                        let at = (succ * SLOTS + j * 6 + TRIPLE) * LANES + v;
                        shifted_set[mi] = L::and(L::load_at(&self.rows, at), mask);
                    }
                    plain[mi] = L::adds(points_of(r1, NO_R2, x, false), shifted[mi]);
                    common = L::max(common, plain[mi]);
                }
                let slot = (idx * SLOTS + jl * 6) * LANES;
                L::store_at(&mut self.rows, slot + SINGLE * LANES, common);
                // Three or more of a kind on top: a fourth scores 12.
                let mut out = common;
                for (mi, &(_, x, _, _)) in moves[..m].iter().enumerate() {
                    if x == r1 {
                        out = L::max(out, L::adds(points_of(r1, r1, x, true), shifted_set[mi]));
                    }
                }
                L::store_at(&mut self.rows, slot + TRIPLE * LANES, out);
                for jp in 0..4 {
                    let r2 = taken[jp][usize::from(jp == jl)];
                    if r2 == NO_R2 {
                        continue;
                    }
                    let mut out = common;
                    if r2 == r1 {
                        // A pair on top: a third card scores 6.
                        for (mi, &(_, x, _, _)) in moves[..m].iter().enumerate() {
                            if x == r1 {
                                out = L::max(out, L::adds(points_of(r1, r1, x, false), shifted_set[mi]));
                            }
                        }
                    } else {
                        // Runs: the cards below the top two, r3, r4, …, are the last ones taken from the
                        // columns before those two, most recent first (see `peel`).
                        let pair = PAIR[jl][jp];
                        let (rows_of, has) = if jp < jl {
                            shared[pair]
                        } else {
                            let run_moves: [(u16, u16); 4] =
                                std::array::from_fn(|mi| runs.index[(r1 * 13 + r2) * 13 + moves[mi].1]);
                            if run_moves[..m].iter().all(|&(start, end)| start == end) {
                                if jp != jl {
                                    shared[pair].1 = 0;
                                }
                                L::store_at(&mut self.rows, slot + jp * LANES, out);
                                continue;
                            }
                            let mut rows_of = [L::zero(); 4];
                            let mut has = 0u8;
                            let depth: [usize; 4] =
                                std::array::from_fn(|q| usize::from(q == jl) + usize::from(q == jp));
                            let third: [u16; 4] = std::array::from_fn(|q| taken_bit[q][depth[q]]);
                            let thirds = third[0] | third[1] | third[2] | third[3];
                            // Every rank among the next four cards of each column (a quick test before `peel`).
                            let reach =
                                (0..4).fold(0u16, |acc, q| acc | (0..4).fold(0, |a, k| a | taken_bit[q][depth[q] + k]));
                            for (mi, &(_, x, _, _)) in moves[..m].iter().enumerate() {
                                let (start, mut end) = run_moves[mi];
                                if start == end {
                                    continue;
                                }
                                if thirds & runs.longer[(r1 * 13 + r2) * 13 + x] == 0 {
                                    // No r3 for a run of 4 or more: at most the run of 3 (listed first).
                                    end = start + u16::from(runs.ranges[usize::from(start)].1 == 3);
                                }
                                let mut run = L::zero();
                                let mut any = false;
                                for &(others, n, sum) in &runs.ranges[usize::from(start)..usize::from(end)] {
                                    // r3, r4, … must be real cards making up the rest of the range (for 4 and 5
                                    // cards, `peel` unrolled).
                                    let possible = match n {
                                        3 => true,
                                        4 => thirds & others != 0,
                                        5 => (0..4).any(|q| {
                                            let r3 = third[q];
                                            r3 & others != 0 && {
                                                let r4 = others & !r3;
                                                (taken_bit[q][depth[q] + 1] | (thirds & !r3)) & r4 != 0
                                            }
                                        }),
                                        _ => {
                                            thirds & others != 0
                                                && others & !reach == 0
                                                && peel(&taken_bit, depth, others)
                                        }
                                    };
                                    if possible {
                                        run = L::max(run, L::load(&runs.steps[usize::from(n)][usize::from(sum)]));
                                        any = true;
                                    }
                                }
                                if any {
                                    rows_of[mi] = run;
                                    has |= 1 << mi;
                                }
                            }
                            if jp != jl {
                                shared[pair] = (rows_of, has);
                            }
                            (rows_of, has)
                        };
                        for (mi, &(_, _, v, _)) in moves[..m].iter().enumerate() {
                            if has & 1 << mi != 0 {
                                // The points over r1 alone (15/31) plus the run, where x fits.
                                out = L::max(out, L::adds(plain[mi], L::and(rows_of[mi], L::load(&SHIFT_MASK[v]))));
                            }
                        }
                    }
                    L::store_at(&mut self.rows, slot + jp * LANES, out);
                }
            }
            self.rows[(idx * SLOTS + SINGLE) * LANES] = fresh;
        }
    }
}

/// 32 byte lanes in registers: AVX2, SSE2 (the x86-64 baseline), or plain arrays elsewhere.
mod lanes {
    use super::{Row, LANES};

    pub(super) trait Lanes: Copy {
        fn zero() -> Self;
        fn splat(value: u8) -> Self;
        fn load(row: &Row) -> Self;
        /// The 32 bytes of `bytes` from `at`.
        fn load_at(bytes: &[u8], at: usize) -> Self;
        fn store_at(bytes: &mut [u8], at: usize, v: Self);
        fn and(a: Self, b: Self) -> Self;
        fn max(a: Self, b: Self) -> Self;
        /// Saturating addition.
        fn adds(a: Self, b: Self) -> Self;
    }

    #[cfg(target_arch = "x86_64")]
    pub(super) use x86::{Avx2, Sse2};

    #[cfg(target_arch = "x86_64")]
    mod x86 {
        use super::{Lanes, Row, LANES};
        use std::arch::x86_64::*;

        #[derive(Clone, Copy)]
        pub(in super::super) struct Avx2(__m256i);

        // SAFETY (all methods): only used from `build_avx2`, which runs on CPUs with AVX2; every load and store
        // is of 32 bytes within a bounds-checked slice.
        impl Lanes for Avx2 {
            #[inline(always)]
            fn zero() -> Self {
                unsafe { Avx2(_mm256_setzero_si256()) }
            }
            #[inline(always)]
            fn splat(value: u8) -> Self {
                unsafe { Avx2(_mm256_set1_epi8(value as i8)) }
            }
            #[inline(always)]
            fn load(row: &Row) -> Self {
                unsafe { Avx2(_mm256_loadu_si256(row.as_ptr() as *const __m256i)) }
            }
            #[inline(always)]
            fn load_at(bytes: &[u8], at: usize) -> Self {
                let src = &bytes[at..at + LANES];
                unsafe { Avx2(_mm256_loadu_si256(src.as_ptr() as *const __m256i)) }
            }
            #[inline(always)]
            fn store_at(bytes: &mut [u8], at: usize, v: Self) {
                let dst = &mut bytes[at..at + LANES];
                unsafe { _mm256_storeu_si256(dst.as_mut_ptr() as *mut __m256i, v.0) }
            }
            #[inline(always)]
            fn and(a: Self, b: Self) -> Self {
                unsafe { Avx2(_mm256_and_si256(a.0, b.0)) }
            }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self {
                unsafe { Avx2(_mm256_max_epu8(a.0, b.0)) }
            }
            #[inline(always)]
            fn adds(a: Self, b: Self) -> Self {
                unsafe { Avx2(_mm256_adds_epu8(a.0, b.0)) }
            }
        }

        #[derive(Clone, Copy)]
        pub(in super::super) struct Sse2(__m128i, __m128i);

        // SAFETY (all methods): SSE2 is part of the x86-64 baseline; every load and store is of 32 bytes within a
        // bounds-checked slice.
        impl Lanes for Sse2 {
            #[inline(always)]
            fn zero() -> Self {
                unsafe { Sse2(_mm_setzero_si128(), _mm_setzero_si128()) }
            }
            #[inline(always)]
            fn splat(value: u8) -> Self {
                unsafe { Sse2(_mm_set1_epi8(value as i8), _mm_set1_epi8(value as i8)) }
            }
            #[inline(always)]
            fn load(row: &Row) -> Self {
                Self::load_at(row, 0)
            }
            #[inline(always)]
            fn load_at(bytes: &[u8], at: usize) -> Self {
                let src = &bytes[at..at + LANES];
                let p = src.as_ptr() as *const __m128i;
                unsafe { Sse2(_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))) }
            }
            #[inline(always)]
            fn store_at(bytes: &mut [u8], at: usize, v: Self) {
                let dst = &mut bytes[at..at + LANES];
                let p = dst.as_mut_ptr() as *mut __m128i;
                unsafe {
                    _mm_storeu_si128(p, v.0);
                    _mm_storeu_si128(p.add(1), v.1);
                }
            }
            #[inline(always)]
            fn and(a: Self, b: Self) -> Self {
                unsafe { Sse2(_mm_and_si128(a.0, b.0), _mm_and_si128(a.1, b.1)) }
            }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self {
                unsafe { Sse2(_mm_max_epu8(a.0, b.0), _mm_max_epu8(a.1, b.1)) }
            }
            #[inline(always)]
            fn adds(a: Self, b: Self) -> Self {
                unsafe { Sse2(_mm_adds_epu8(a.0, b.0), _mm_adds_epu8(a.1, b.1)) }
            }
        }
    }

    /// Plain arrays (other architectures).
    #[cfg(not(target_arch = "x86_64"))]
    #[derive(Clone, Copy)]
    pub(super) struct Plain(Row);

    #[cfg(not(target_arch = "x86_64"))]
    impl Lanes for Plain {
        fn zero() -> Self {
            Plain([0; LANES])
        }
        fn splat(value: u8) -> Self {
            Plain([value; LANES])
        }
        fn load(row: &Row) -> Self {
            Plain(*row)
        }
        fn load_at(bytes: &[u8], at: usize) -> Self {
            Plain(bytes[at..at + LANES].try_into().expect("32 bytes"))
        }
        fn store_at(bytes: &mut [u8], at: usize, v: Self) {
            bytes[at..at + LANES].copy_from_slice(&v.0);
        }
        fn and(a: Self, b: Self) -> Self {
            Plain(std::array::from_fn(|t| a.0[t] & b.0[t]))
        }
        fn max(a: Self, b: Self) -> Self {
            Plain(std::array::from_fn(|t| a.0[t].max(b.0[t])))
        }
        fn adds(a: Self, b: Self) -> Self {
            Plain(std::array::from_fn(|t| a.0[t].saturating_add(b.0[t])))
        }
    }
}
