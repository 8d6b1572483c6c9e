//! The previous 9×9 solver, kept unchanged as the reference the fast solver (`solver9`) is compared
//! with (`autoplay bench sudoku --compare`, the solver tests): bit-parallel propagation on digit × band
//! bitboards and a DPLL-style binary search.
//!
//! # Representation
//!
//! For each digit `d` and each band `b` (three rows of boxes) a 27-bit word holds the cells
//! of the band where `d` may still go: bit `9·rr + c` is row `3b + rr`, column `c`. The
//! whole state is 27 such words plus a 27-bit "placed" word per band: 160 bytes, copied
//! when the search branches.
//!
//! # Propagation
//!
//! Per digit (only digits whose words changed are revisited):
//! * **Band**: inside a band the digit takes one cell per row and per box, i.e. a
//!   permutation row → box. The 9-bit pattern of non-empty mini-rows (row × box) is looked
//!   up in a table of the mini-rows that lie on some perfect matching of that 3×3 bipartite
//!   graph; the others are erased (pointing pairs, claiming, hidden singles in rows and
//!   boxes all follow). No matching → contradiction.
//! * **Stacks**: every band uses one column per stack. If a band's candidates in a stack
//!   lie in a single column, that column is erased from the other bands; if a column has
//!   candidates in only one band, that band's other columns of the stack are erased
//!   (hidden singles in columns, column claiming). A column with no candidate at all, or a
//!   band owning two columns of one stack alone, is a contradiction.
//! * A row of a band left with one candidate places the digit there: the cell is erased
//!   from the other digits' words.
//!
//! Across digits: a bit-sliced census of the nine words per band gives the cells with no
//! candidate (contradiction), one (naked single: placed) and two (branching candidates).
//!
//! # Search
//!
//! Binary DPLL branching on a cell with two candidates (else the cell with fewest):
//! "cell = d" on a copy, then "cell ≠ d" in place. Counting stops at the caller's limit.
//!
//! # SIMD
//!
//! The census is written twice: with SSE4.1 intrinsics on one 128-bit vector per digit
//! (three bands in three lanes) and in plain scalar code. The search is compiled twice by
//! a macro: once plainly, once inside `#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]`
//! with the vector census; the variant is picked at run time with
//! `is_x86_feature_detected!`.

// Bands index several parallel arrays at once; index loops read more plainly here.
#![allow(clippy::needless_range_loop)]

use std::ops::ControlFlow;

const FULL27: u32 = (1 << 27) - 1;

/// Which code path to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// Plain scalar code, any CPU.
    Scalar,
    /// AVX2/BMI codegen with the SSE4.1 census; x86-64 only. Asked for on a CPU without
    /// those features, the search runs the scalar code instead.
    Simd,
}

impl Engine {
    /// The fastest engine this CPU supports.
    fn best() -> Engine {
        if simd_available() {
            Engine::Simd
        } else {
            Engine::Scalar
        }
    }
}

/// True when the SIMD engine can run on this CPU (detected once).
fn simd_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(detect_simd)
}

fn detect_simd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("sse4.1")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

// ---------------------------------------------------------------------------------------
// Tables, built at compile time.

/// 9-bit row → 3 bits: which boxes of the row hold a candidate.
const SHRINK: [u8; 512] = {
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
const COMPLEX: [u32; 512] = {
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

/// 9-bit column set → the columns that are alone in their stack.
const SINGLE_STACK: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        let mut s = 0;
        while s < 3 {
            let part = (x >> (3 * s)) & 7;
            if part != 0 && part & (part - 1) == 0 {
                t[x] |= (part << (3 * s)) as u16;
            }
            s += 1;
        }
        x += 1;
    }
    t
};

/// 9-bit column set → all columns of the stacks it touches.
const STACK_FILL: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        let mut s = 0;
        while s < 3 {
            if (x >> (3 * s)) & 7 != 0 {
                t[x] |= 7 << (3 * s);
            }
            s += 1;
        }
        x += 1;
    }
    t
};

/// Bit p of a band → the other cells of the band sharing its row, column or box.
const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
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

#[inline(always)]
const fn col27(cols: u32) -> u32 {
    cols | (cols << 9) | (cols << 18)
}

#[inline(always)]
fn project(a: u32) -> u32 {
    (a | (a >> 9) | (a >> 18)) & 511
}

#[inline(always)]
fn band_local(a: u32) -> u32 {
    let m = SHRINK[(a & 511) as usize] as usize
        | (SHRINK[((a >> 9) & 511) as usize] as usize) << 3
        | (SHRINK[(a >> 18) as usize] as usize) << 6;
    a & COMPLEX[m]
}

// ---------------------------------------------------------------------------------------
// State.

/// The search state: candidate words per digit and band (lane 3 unused, kept zero) and the
/// placed cells per band.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct State {
    cand: [[u32; 4]; 9],
    solved: [u32; 4],
    /// Digits whose words changed since they were last propagated.
    dirty: u32,
}

impl State {
    /// The state with the givens of `cells` (81 values, 0 = empty) placed, built in one
    /// pass; `None` when two givens clash.
    fn from_cells(cells: &[u8]) -> Option<State> {
        let mut given = [[0u32; 3]; 9];
        let mut elim = [[0u32; 3]; 9];
        let mut occupied = [0u32; 4];
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (d, b, p) = (v as usize - 1, i / 27, i % 27);
            let col = col27(1 << (p % 9));
            given[d][b] |= 1 << p;
            elim[d][b] |= BAND_PEERS[p];
            elim[d][(b + 1) % 3] |= col;
            elim[d][(b + 2) % 3] |= col;
            occupied[b] |= 1 << p;
        }
        let mut s = State { cand: [[0; 4]; 9], solved: occupied, dirty: 0x1FF };
        let mut clash = 0;
        for d in 0..9 {
            for b in 0..3 {
                s.cand[d][b] = ((FULL27 & !occupied[b]) | given[d][b]) & !elim[d][b];
                clash |= given[d][b] & !s.cand[d][b];
            }
        }
        (clash == 0).then_some(s)
    }

    fn is_solved(&self) -> bool {
        self.solved[0] == FULL27 && self.solved[1] == FULL27 && self.solved[2] == FULL27
    }

    /// The 81 values of a solved state.
    fn write_cells(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[d][b] & self.solved[b];
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    out[27 * b + p] = d as u8 + 1;
                    x &= x - 1;
                }
            }
        }
    }
}

/// Places digit `d` on bit `p` (a one-bit mask) of band `b`.
#[inline(always)]
fn place(s: &mut State, d: usize, b: usize, p: u32) {
    let i = p.trailing_zeros() as usize;
    let col = col27(1 << (i % 9));
    let mut dirty = s.dirty;
    for e in 0..9 {
        dirty |= u32::from(s.cand[e][b] & p != 0) << e;
        s.cand[e][b] &= !p;
    }
    s.cand[d][b] |= p;
    s.cand[d][b] &= !BAND_PEERS[i];
    s.cand[d][(b + 1) % 3] &= !col;
    s.cand[d][(b + 2) % 3] &= !col;
    s.dirty = dirty | 1 << d;
    s.solved[b] |= p;
}

/// Band and stack propagation for one digit, then placement of its solved rows.
#[inline(always)]
fn propagate_digit(s: &mut State, d: usize) -> bool {
    let mut a = [s.cand[d][0], s.cand[d][1], s.cand[d][2]];
    loop {
        for x in a.iter_mut() {
            *x = band_local(*x);
            if *x == 0 {
                return false;
            }
        }
        let p = [project(a[0]), project(a[1]), project(a[2])];
        if p[0] | p[1] | p[2] != 511 {
            return false;
        }
        let f = [
            SINGLE_STACK[p[0] as usize] as u32,
            SINGLE_STACK[p[1] as usize] as u32,
            SINGLE_STACK[p[2] as usize] as u32,
        ];
        let mut next = a;
        for b in 0..3 {
            let (o1, o2) = ((b + 1) % 3, (b + 2) % 3);
            let excl = p[b] & !(p[o1] | p[o2]);
            if SINGLE_STACK[excl as usize] as u32 != excl {
                return false;
            }
            let keep = !(f[o1] | f[o2]) & !(STACK_FILL[excl as usize] as u32 & !excl) & 511;
            next[b] &= col27(keep);
        }
        if next == a {
            break;
        }
        a = next;
    }
    s.cand[d][0] = a[0];
    s.cand[d][1] = a[1];
    s.cand[d][2] = a[2];
    for (b, &x) in a.iter().enumerate() {
        let mut singles = 0;
        for rr in 0..3 {
            let row = (x >> (9 * rr)) & 511;
            if row & (row - 1) == 0 {
                singles |= row << (9 * rr);
            }
        }
        let mut fresh = singles & !s.solved[b];
        while fresh != 0 {
            let p = fresh & fresh.wrapping_neg();
            place(s, d, b, p);
            fresh &= fresh - 1;
        }
    }
    true
}

/// Per band: cells with at least one, two and three candidates.
type Census = [[u32; 4]; 3];

#[inline(always)]
fn census_scalar(s: &State) -> Census {
    let (mut one, mut two, mut three) = ([0u32; 4], [0u32; 4], [0u32; 4]);
    for d in 0..9 {
        for b in 0..3 {
            let x = s.cand[d][b];
            three[b] |= two[b] & x;
            two[b] |= one[b] & x;
            one[b] |= x;
        }
    }
    [one, two, three]
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
#[inline]
fn census_sse41(s: &State) -> Census {
    use std::arch::x86_64::*;
    // SAFETY: `State` is 16-byte aligned and each `cand[d]` is 16 bytes; loads stay inside it.
    unsafe {
        let mut one = _mm_setzero_si128();
        let mut two = _mm_setzero_si128();
        let mut three = _mm_setzero_si128();
        for d in 0..9 {
            let x = _mm_load_si128(s.cand[d].as_ptr() as *const __m128i);
            three = _mm_or_si128(three, _mm_and_si128(two, x));
            two = _mm_or_si128(two, _mm_and_si128(one, x));
            one = _mm_or_si128(one, x);
        }
        let mut out = [[0u32; 4]; 3];
        _mm_storeu_si128(out[0].as_mut_ptr() as *mut __m128i, one);
        _mm_storeu_si128(out[1].as_mut_ptr() as *mut __m128i, two);
        _mm_storeu_si128(out[2].as_mut_ptr() as *mut __m128i, three);
        out
    }
}

/// Fixed point of all propagation; false on a contradiction. Leaves a census for branching.
#[inline(always)]
fn propagate(s: &mut State, census: impl Fn(&State) -> Census) -> Option<Census> {
    loop {
        while s.dirty != 0 {
            let d = s.dirty.trailing_zeros() as usize;
            s.dirty &= s.dirty - 1;
            if !propagate_digit(s, d) {
                return None;
            }
        }
        let c = census(s);
        let mut any = false;
        for b in 0..3 {
            if c[0][b] != FULL27 {
                return None;
            }
            let mut singles = !c[1][b] & !s.solved[b] & FULL27;
            while singles != 0 {
                let p = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let d = (0..9).find(|&d| s.cand[d][b] & p != 0)?;
                place(s, d, b, p);
                any = true;
            }
        }
        if !any {
            return Some(c);
        }
    }
}

/// The branching cell: a cell with two candidates if any, else one with the fewest.
/// Returns (digit to try, band, bit).
#[inline(always)]
fn choose(s: &State, c: &Census) -> (usize, usize, u32) {
    for b in 0..3 {
        let pairs = c[1][b] & !c[2][b] & !s.solved[b];
        if pairs != 0 {
            let p = pairs & pairs.wrapping_neg();
            let d = (0..9).find(|&d| s.cand[d][b] & p != 0).unwrap_or(0);
            return (d, b, p);
        }
    }
    let mut best = (u32::MAX, 0, 0, 1u32);
    for b in 0..3 {
        let mut open = !s.solved[b] & FULL27;
        while open != 0 {
            let p = open & open.wrapping_neg();
            open &= open - 1;
            let (mut n, mut first) = (0, 9);
            for d in (0..9).rev() {
                if s.cand[d][b] & p != 0 {
                    n += 1;
                    first = d;
                }
            }
            if n < best.0 {
                best = (n, first, b, p);
            }
        }
    }
    (best.1, best.2, best.3)
}

/// Search bookkeeping shared by both engines.
struct Search<'a> {
    limit: u64,
    count: u64,
    stop: bool,
    /// xorshift state for random branch order; 0 = deterministic.
    rng: u64,
    sink: &'a mut dyn FnMut(&[u8]) -> ControlFlow<()>,
}

impl Search<'_> {
    /// A coin flip (always false when deterministic).
    #[inline(always)]
    fn flip(&mut self) -> bool {
        if self.rng == 0 {
            return false;
        }
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng >> 63 != 0
    }

    fn found(&mut self, s: &State) {
        let mut cells = [0u8; 81];
        s.write_cells(&mut cells);
        self.count += 1;
        if (self.sink)(&cells).is_break() || self.count >= self.limit {
            self.stop = true;
        }
    }
}

macro_rules! search_fn {
    ($name:ident, $census:expr, $($attr:tt)*) => {
        $($attr)*
        fn $name(search: &mut Search<'_>, mut s: State) {
            loop {
                let Some(c) = propagate(&mut s, $census) else { return };
                if s.is_solved() {
                    search.found(&s);
                    return;
                }
                let (d, b, p) = choose(&s, &c);
                let mut t = s;
                if search.flip() {
                    t.cand[d][b] &= !p;
                    t.dirty |= 1 << d;
                    place(&mut s, d, b, p);
                } else {
                    place(&mut t, d, b, p);
                    s.cand[d][b] &= !p;
                    s.dirty |= 1 << d;
                }
                // SAFETY: same function; the SIMD variant only runs after feature detection.
                #[allow(unused_unsafe)]
                unsafe {
                    $name(search, t)
                };
                if search.stop {
                    return;
                }
            }
        }
    };
}

search_fn!(search_scalar, census_scalar,);

#[cfg(target_arch = "x86_64")]
search_fn!(
    search_simd,
    // The closure inherits `search_simd`'s target features.
    |s: &State| census_sse41(s),
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1")]
);

/// Runs the search over a 9×9 puzzle (81 values, 0 = empty) with the best engine this CPU has,
/// calling `sink` with each solution's 81 values until `limit` solutions were found or it
/// breaks; `seed` ≠ 0 draws the branch order at random. Returns the number of solutions found.
pub fn search(cells: &[u8], limit: u64, seed: u64, sink: &mut dyn FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
    search_seeded(Engine::best(), cells, limit, seed, sink)
}

fn search_seeded(
    engine: Engine,
    cells: &[u8],
    limit: u64,
    seed: u64,
    sink: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> u64 {
    assert_eq!(cells.len(), 81, "a 9x9 grid has 81 cells");
    if limit == 0 {
        return 0;
    }
    let Some(s) = State::from_cells(cells) else { return 0 };
    let rng = if seed == 0 { 0 } else { seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1 };
    let mut search = Search { limit, count: 0, stop: false, rng, sink };
    match engine {
        #[cfg(target_arch = "x86_64")]
        Engine::Simd if simd_available() => {
            // SAFETY: the CPU features were detected just above.
            unsafe { search_simd(&mut search, s) }
        }
        _ => search_scalar(&mut search, s),
    }
    search.count
}

#[cfg(test)]
mod tests {
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
