//! The fast 9×9 solver: bit-parallel propagation on digit × band bitboards, triad reasoning
//! across digits, and a DPLL-style binary search branching on band configurations.
//!
//! # Representation
//!
//! For each digit `d` and each band `b` (three rows of boxes) a 27-bit word holds the cells
//! of the band where `d` may still go: bit `9·rr + c` is row `3b + rr`, column `c`. The
//! whole state is 27 such words, a 27-bit "placed" word per band and the digits whose words
//! changed since they were last propagated: 176 bytes with alignment, copied when the search
//! branches. A digit's three words sit in one 16-byte row (the fourth lane kept zero), so that
//! they load as one vector (`V4`), and two digits' as one AVX2 vector (`V8`).
//!
//! The start state is built a digit at a time from the givens' bit masks: a given's row, box and
//! column leave its digit (except the given itself); two givens of a digit in one row, column or box
//! are a clash (no solution).
//!
//! # Propagation
//!
//! Per digit whose words changed, all three bands at once (the lanes of a `V4`), without branches;
//! the SIMD engines take the changed digits two at a time, side by side in a `V8` (their row singles
//! wait for `place_pending`, so the two chains are independent and overlap; 17-clue 15% and
//! magictour 10% less time than one digit at a time):
//! * **Band**: inside a band the digit takes one cell per row and per box, i.e. a
//!   permutation row → box (one of six *configurations*). The 9-bit pattern of non-empty
//!   mini-rows (row × box) is looked up in a table of the mini-rows that lie on some
//!   perfect matching of that 3×3 bipartite graph; the others are erased (pointing pairs,
//!   claiming, hidden singles in rows and boxes all follow). No matching → contradiction.
//! * **Stacks**: every band uses one column per stack. If a band's candidates in a stack
//!   lie in a single column, that column is erased from the other bands; if a column has
//!   candidates in only one band, that band's other columns of the stack are erased
//!   (hidden singles in columns, column claiming). A column with no candidate at all, or a
//!   band owning two columns of one stack alone, is a contradiction. (For a 3×3 graph these
//!   single rules reach the same fixed point as the matching table: a full matching check
//!   of the stacks was tried and deduced nothing more.)
//! * Rows of a band left with one candidate place the digit there: the cells are erased
//!   from the other digits' words (the digit's own words already exclude their peers: at the
//!   fixed point the band rule leaves the digit only that cell in its box, so the stack rule has
//!   erased its column from the other bands). Such rows are found by one subtraction of 1 at
//!   each row's first bit: every row has a candidate there, so the borrow stays in the row. The
//!   rows found while the dirty digits are propagated are placed together when they are done (a
//!   cell single in two digits' rows is a contradiction).
//!
//! Across digits:
//! * A bit-sliced census of the nine words per band gives the cells with no candidate
//!   (contradiction) and with one (naked singles: placed, all of one digit in a band at
//!   once; two of them that see each other erase each other, which the census then finds).
//! * **Triads**, when nothing else is left: the three cells of a mini-row (a row within a
//!   box) hold three different digits, and so do those of a mini-column. Per mini-line a
//!   bit-sliced count of the digits that may be there and of those certain to be there (the
//!   digit's only mini-line in its row, or column, within the box): fewer than three
//!   possible, or more than three certain, is a contradiction; exactly three possible puts
//!   each there (erased from the rest of its line and box); three certain erase the other
//!   digits from the three cells.
//!
//! Every rule only erases candidates that cannot be in any solution, so no solution is
//! lost; a state is reported solved only when every cell is placed and the last census
//! found no empty cell, and a placement always erases its peers, so what is reported is a
//! solution. The tests and `autoplay bench sudoku --compare` check the answers against the
//! previous solver (`reference`).
//!
//! # Search
//!
//! Binary branching (see `choose_branch`): among the three bands and the three stacks, the one
//! with the fewest configurations summed over its digits (in a stack a digit's configuration is
//! its column-to-band matching, counted from its candidate columns), and in it the digit with
//! the fewest (at least two); the branch is "the digit lies in this mini-row" (or mini-column;
//! a cell when it has one candidate) on a copy, then "it does not" in place. Choosing by band
//! configurations instead of the first cell with two candidates roughly halves the guesses on
//! hard puzzles; counting the stacks too (when no band is nearly fixed) takes a sixth off them
//! again (forum hardest 11+: 77 to 63 guesses on its first 3,000). Counting stops at the caller's
//! limit.
//!
//! Until the search first meets a dead end (a branch whose propagation finds a contradiction), it
//! branches on a cell instead (one of two candidates if any, else of the fewest), its smallest
//! candidate first. A puzzle with many solutions seldom fails a guess, and there a cell is cheaper to
//! choose and to place and takes fewer guesses (serg benchmark, all of whose puzzles have several
//! solutions: 6.93 to 6.40 guesses, 20% less time); a puzzle that fails a guess is constrained, and
//! the configurations take over from there (magictour 8.92 to 10.1 guesses, 8% more time; forum
//! hardest 11+ 62.9 to 70.5, 10% more; 17-clue 4% more; enumerating all solutions as the two-player
//! engine does, 3% more).
//!
//! # SIMD
//!
//! A digit's three band words are three lanes of a 128-bit vector, `V4` (SSE2, part of the x86-64
//! baseline, so every engine uses it; plain arrays on other targets). The band rule's table is looked
//! up per lane. The band and stack rules go over the `Lanes` trait too, a `V4` (one digit) in the
//! scalar engine and a `V8` (two) in the SIMD ones. The work over all nine digits (the start state, the
//! triads, erasing placed cells from every digit) goes over the `Lanes` trait a group of digits at a
//! time: one digit a `V4` in the scalar engine, two a `V8` (AVX2) in the SIMD engine, whose bit-sliced
//! counters then add their two halves.
//!
//! What else differs per instruction set is behind the `Isa` trait: the census (SSE4.1 on one
//! 128-bit vector per digit, or plain code) and a band word's mini-row pattern (BMI2 `pext`, or
//! three table look-ups). The search is compiled three times by a macro: once plainly, once inside
//! `#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1")]` with the SIMD implementations
//! inlined (all code on vectors is `#[inline(always)]`: a function left out of line would be
//! compiled without the features, every vector operation a call), and once more with AVX-512VL
//! added to those features (the same source; the compiler folds the chains of and, or and and-not
//! into three-input `vpternlogd`s: the search's machine code is 11% shorter); the variant is picked at
//! run time with `is_x86_feature_detected!`. [`Engine`] selects one explicitly (tests compare them all).

// Bands index several parallel arrays at once; index loops read more plainly here.
#![allow(clippy::needless_range_loop)]

use std::ops::ControlFlow;

const FULL27: u32 = (1 << 27) - 1;

/// Which code path to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Code for any CPU: scalar, with the per-digit vectors on SSE2 (the x86-64 baseline) or arrays.
    Scalar,
    /// AVX2/BMI codegen with the SSE4.1 census; x86-64 only. Asked for on a CPU without
    /// those features, the search runs the scalar code instead.
    Simd,
    /// The SIMD engine's code compiled with AVX-512VL as well (three-input logic in one `vpternlogd`, compares
    /// into mask registers): 6-7% less time on this code. Asked for on a CPU without AVX-512, the SIMD engine
    /// runs instead (or the scalar one).
    Avx512,
}

impl Engine {
    /// The engine's name, as the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Scalar => "scalar",
            Engine::Simd => "simd",
            Engine::Avx512 => "avx512",
        }
    }

    /// The fastest engine this CPU supports.
    pub fn best() -> Engine {
        if avx512_available() {
            Engine::Avx512
        } else if simd_available() {
            Engine::Simd
        } else {
            Engine::Scalar
        }
    }

    /// The engines this CPU runs as themselves (the scalar one always), for tests that compare them.
    pub fn available() -> Vec<Engine> {
        [(Engine::Scalar, true), (Engine::Simd, simd_available()), (Engine::Avx512, avx512_available())]
            .into_iter()
            .filter_map(|(engine, runs)| runs.then_some(engine))
            .collect()
    }
}

/// True when the SIMD engine can run on this CPU (detected once).
pub fn simd_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(detect_simd)
}

/// True when the AVX-512 engine can run on this CPU (detected once).
pub fn avx512_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            simd_available()
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
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

/// Bit p of a band → the other cells of the band sharing its row, column or box (32 entries, the last 5
/// unused, so that an index masked to 5 bits needs no bounds check).
const BAND_PEERS: [u32; 32] = {
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

#[inline(always)]
const fn col27(cols: u32) -> u32 {
    cols | (cols << 9) | (cols << 18)
}

#[inline(always)]
fn project(a: u32) -> u32 {
    (a | (a >> 9) | (a >> 18)) & 511
}

/// The operations written once per instruction set.
trait Isa {
    /// Per band: cells with at least one, two and three candidates.
    fn census(s: &State) -> Census;
    /// A band word's 9-bit mini-row pattern: bit 3·row + box set when the word has a candidate there.
    fn mini_rows(x: u32) -> usize;
    /// The same from the word's `fold_h`.
    #[inline(always)]
    fn folded_mini_rows(h: u32) -> usize {
        // The table version looks at each mini-row's three bits, of which a folded word keeps the first.
        Self::mini_rows(h)
    }
    /// The vectors the triads and the placement of row singles go over the digits with.
    type L: Lanes;
    /// The 81 values of a solved state.
    #[inline(always)]
    fn write_cells(s: &State, out: &mut [u8; 81]) {
        s.write_cells(out)
    }
    /// The mini-row patterns of the three band lanes.
    #[inline(always)]
    fn mini_rows3(a: V4) -> [usize; 3] {
        let w = a.to_array();
        [Self::mini_rows(w[0]), Self::mini_rows(w[1]), Self::mini_rows(w[2])]
    }
    /// A digit's pattern in each stack (its three band lanes): bit `3·band + column` set when the column of the
    /// stack has a candidate in the band.
    #[inline(always)]
    fn stack_patterns(a: V4) -> [usize; 3] {
        let p = a.project().to_array();
        std::array::from_fn(|k| {
            ((p[0] >> (3 * k)) & 7 | ((p[1] >> (3 * k)) & 7) << 3 | ((p[2] >> (3 * k)) & 7) << 6) as usize
        })
    }
}

/// Plain code.
struct Scalar;

impl Isa for Scalar {
    type L = V4;

    #[inline(always)]
    fn census(s: &State) -> Census {
        census_scalar(s)
    }

    #[inline(always)]
    fn mini_rows(x: u32) -> usize {
        SHRINK[(x & 511) as usize] as usize
            | (SHRINK[((x >> 9) & 511) as usize] as usize) << 3
            | (SHRINK[(x >> 18) as usize] as usize) << 6
    }
}

/// SSE4.1 and BMI2, inlined only into the search compiled with those features.
#[cfg(target_arch = "x86_64")]
struct Simd;

#[cfg(target_arch = "x86_64")]
impl Isa for Simd {
    type L = V8;

    #[inline(always)]
    fn census(s: &State) -> Census {
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after SSE4.1 was detected.
        unsafe { census_sse41(s) }
    }

    #[inline(always)]
    fn folded_mini_rows(h: u32) -> usize {
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after BMI2 was detected.
        unsafe { std::arch::x86_64::_pext_u32(h, M3) as usize }
    }

    #[inline(always)]
    fn mini_rows(x: u32) -> usize {
        Self::folded_mini_rows(fold_h(x))
    }

    #[inline(always)]
    fn write_cells(s: &State, out: &mut [u8; 81]) {
        use std::arch::x86_64::*;
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after AVX2 was detected; the stores
        // stay in `buf`.
        unsafe {
            // Byte i of a band's 32 takes bit i of the digit's word: its byte of the word, then its bit.
            let spread = _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
            );
            let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
            let mut buf = [0u8; 96];
            for b in 0..3 {
                let mut acc = _mm256_setzero_si256();
                for d in 0..9 {
                    let m = _mm256_set1_epi32((s.cand[d][b] & s.solved[b]) as i32);
                    let on = _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(m, spread), bit), bit);
                    acc = _mm256_or_si256(acc, _mm256_and_si256(on, _mm256_set1_epi8(d as i8 + 1)));
                }
                _mm256_storeu_si256(buf.as_mut_ptr().add(32 * b) as *mut __m256i, acc);
            }
            for b in 0..3 {
                out[27 * b..27 * b + 27].copy_from_slice(&buf[32 * b..32 * b + 27]);
            }
        }
    }

    #[inline(always)]
    fn mini_rows3(a: V4) -> [usize; 3] {
        let h = a.fold_h().to_array();
        [Self::folded_mini_rows(h[0]), Self::folded_mini_rows(h[1]), Self::folded_mini_rows(h[2])]
    }

    #[inline(always)]
    fn stack_patterns(a: V4) -> [usize; 3] {
        let p = a.project().to_array();
        let w = p[0] | p[1] << 9 | p[2] << 18;
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after BMI2 was detected.
        unsafe {
            use std::arch::x86_64::_pext_u32;
            [
                _pext_u32(w, 0o007_007_007) as usize,
                _pext_u32(w, 0o070_070_070) as usize,
                _pext_u32(w, 0o700_700_700) as usize,
            ]
        }
    }
}

// ---------------------------------------------------------------------------------------
// State.

/// The search state: candidate words per digit and band (lane 3 unused, kept zero) and the
/// placed cells per band.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct State {
    cand: [[u32; 4]; 9],
    solved: [u32; 4],
    /// Digits whose words changed since they were last propagated.
    dirty: u32,
}

/// Per digit, the cells of `cells` (81 values, 0 = empty, at most 9) holding it: a band a lane.
#[inline(always)]
fn givens(cells: &[u8]) -> [V4; 9] {
    let mut out = [V4::zero(); 9];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut buf = [0u8; 96];
        buf[..81].copy_from_slice(cells);
        // SAFETY: SSE2 is part of the x86-64 baseline; the six loads stay inside `buf`.
        unsafe {
            let chunk = |i: usize| _mm_loadu_si128(buf.as_ptr().add(16 * i) as *const __m128i);
            let c = [chunk(0), chunk(1), chunk(2), chunk(3), chunk(4), chunk(5)];
            for d in 0..9 {
                let v = _mm_set1_epi8(d as i8 + 1);
                let mut m = 0u128;
                for (i, &x) in c.iter().enumerate() {
                    m |= ((_mm_movemask_epi8(_mm_cmpeq_epi8(x, v)) as u32 & 0xFFFF) as u128) << (16 * i);
                }
                let band = |b: usize| (m >> (27 * b)) as u32 & FULL27;
                out[d] = V4::load(&[band(0), band(1), band(2), 0]);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut g = [[0u32; 4]; 9];
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                g[v as usize - 1][i / 27] |= 1 << (i % 27);
            }
        }
        for d in 0..9 {
            out[d] = V4::load(&g[d]);
        }
    }
    out
}

impl State {
    /// The state with the givens of `cells` (81 values, 0 = empty) placed, built in one
    /// pass; `None` when two givens clash. Inlined into each engine's search (as all the code on vectors is),
    /// so that the SIMD engine's vectors are compiled with its features.
    #[inline(always)]
    fn from_cells<L: Lanes>(cells: &[u8]) -> Option<State> {
        let mut g = State { cand: [[0; 4]; 9], solved: [0; 4], dirty: 0 };
        for (d, x) in givens(cells).into_iter().enumerate() {
            x.store(&mut g.cand[d]);
        }
        let mut occupied = L::zero();
        for k in 0..L::GROUPS {
            occupied = occupied | L::load_group(&g, k);
        }
        let occupied = occupied.or_digits();
        let free = L::broadcast(V4::bands(FULL27).andnot(occupied));
        let mut s = State { cand: [[0; 4]; 9], solved: occupied.to_array(), dirty: 0x1FF };
        let mut clash = L::zero();
        for k in 0..L::GROUPS {
            let g = L::load_group(&g, k);
            // The rows, boxes and columns holding a given of the digit: all their cells leave it.
            let f = g.fold_h();
            let rows = f | f.rot_box() | f.rot_box().rot_box();
            let rows = rows.shl::<3>().sub(rows);
            let boxes = (f | f.shr::<9>() | f.shr::<18>()) & L::splat(0o111);
            let boxes = boxes.shl::<3>().sub(boxes).col27();
            let p = g.project();
            let cols = (p | p.rotate_bands_1() | p.rotate_bands_2()).col27();
            (free.andnot(rows | boxes | cols) | g).store_group(&mut s, k);
            // Two givens of the digit in one row, column or box.
            let (r0, r1, r2) = (g & L::splat(511), g.shr::<9>() & L::splat(511), g.shr::<18>());
            clash = clash | (r0 & r0.sub(L::splat(1))) | (r1 & r1.sub(L::splat(1))) | (r2 & r2.sub(L::splat(1)));
            clash = clash | (r0 & r1) | (r0 & r2) | (r1 & r2) | (p & p.rotate_bands_1());
            let (f0, f1, f2) = (f & L::splat(0o111), f.shr::<9>() & L::splat(0o111), f.shr::<18>());
            clash = clash | (f0 & f1) | (f0 & f2) | (f1 & f2);
        }
        clash.is_zero().then_some(s)
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

/// Places digit `d` on the cells `cells` of band `b`: erases the cells from the other digits (`OTHERS`) and the
/// cells' peers (their rows, columns and boxes) from `d` (`PEERS`). Two of the cells that are peers erase each
/// other (a contradiction the census then finds: a cell with no candidate). A naked single needs no `OTHERS`
/// (the cell has no other candidate); a row single at the fixed point of [`propagate_digits`] needs no `PEERS`
/// (the band and stack rules have erased them already).
#[inline(always)]
fn place<const OTHERS: bool, const PEERS: bool>(s: &mut State, d: usize, b: usize, cells: u32) {
    let mut dirty = s.dirty;
    if OTHERS {
        for e in 0..9 {
            let old = s.cand[e][b];
            let new = if e == d { old } else { old & !cells };
            dirty |= u32::from(old != new) << e;
            s.cand[e][b] = new;
        }
    }
    if PEERS {
        let mut peers = 0;
        let mut x = cells;
        while x != 0 {
            peers |= BAND_PEERS[x.trailing_zeros() as usize & 31];
            x &= x - 1;
        }
        let col = col27(project(cells));
        let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
        let changed = (s.cand[d][b] & peers) | ((s.cand[d][b1] | s.cand[d][b2]) & col);
        dirty |= u32::from(changed != 0) << d;
        s.cand[d][b] &= !peers;
        s.cand[d][b1] &= !col;
        s.cand[d][b2] &= !col;
    }
    s.dirty = dirty;
    s.solved[b] |= cells;
}

/// Band and stack propagation for one digit, or two side by side (`L::DIGITS`; the same digit twice when only
/// one is given), all three bands at once without branches (faster than visiting only the changed bands; the
/// band words are the lanes of a vector, the band rule's table looked up per lane); the rows left with one
/// candidate not yet placed are added to `pending` (see [`place_pending`]).
#[inline(always)]
fn propagate_digits<I: Isa>(s: &mut State, ds: [usize; 2], pending: &mut State) -> bool {
    let mut a = <I::L as Lanes>::load_digits(s, ds);
    loop {
        a = a & a.fold_h().map_band_lanes(|h| COMPLEX[I::folded_mini_rows(h) & 511]);
        let p = a.project();
        let f = p.alone_in_stack();
        // Per lane: the columns of the two other bands, and their columns alone in a stack.
        let po = p.rotate_bands_1() | p.rotate_bands_2();
        let fo = f.rotate_bands_1() | f.rotate_bands_2();
        let excl = p.andnot(po);
        // A column with no candidate, a band with none, a band owning two columns of one stack alone.
        let (e1, e2) = (excl.shr::<1>(), excl.shr::<2>());
        let two_alone = ((excl & e1) | (excl & e2) | (e1 & e2)) & I::L::splat(0o111);
        let bad = ((p | po) ^ I::L::bands(511)) | (a.zero_lanes() & I::L::bands(u32::MAX)) | two_alone;
        let fill = (excl | e1 | e2) & I::L::splat(0o111);
        let fill = fill.shl::<3>().sub(fill);
        let keep = I::L::splat(511).andnot(fo | fill.andnot(excl));
        let next = a & keep.col27();
        let changed = next ^ a;
        if (bad | changed).is_zero() {
            break;
        }
        if !bad.is_zero() {
            return false;
        }
        a = next;
    }
    a.store_digits(s, ds);
    // Rows with a single candidate. Every row has one at least (the band rule found a matching), so subtracting
    // 1 at each row's first bit borrows only inside the row: `t` keeps a row's bits but its lowest, and is zero
    // in the rows of one candidate.
    let t = a & a.sub(I::L::bands(1 | 1 << 9 | 1 << 18));
    let rows = (t & I::L::splat(511)).zero_lanes() & I::L::splat(511)
        | (t & I::L::splat(511 << 9)).zero_lanes() & I::L::splat(511 << 9)
        | t.shr::<18>().zero_lanes() & I::L::splat(511 << 18);
    let fresh = (a & rows).andnot(I::L::broadcast(V4::load(&s.solved)));
    fresh.or_into_digits(pending, ds);
    true
}

/// Places the row singles that [`propagate_digits`] gathered in `pending` (per digit, in its candidate words),
/// clearing it: erases the cells from the other digits (the band and stack rules have erased their peers from
/// the digit already). False when two digits have a single in one cell (a contradiction: the cell would be
/// left to one of them, and the other's row empty). Gathered rather than placed at once, the singles of all
/// the dirty digits cost one pass over the state, and the digits propagated between them are independent (see
/// [`propagate_digits`]): the same fixed point, since the other digits are propagated again once they lose the
/// cells. Against a pass per digit: serg and magictour 4% less time, 17-clue 6% more (its long chains of singles
/// propagate more digits on words that still hold the cells).
#[inline(always)]
fn place_pending<L: Lanes>(s: &mut State, pending: &mut State) -> bool {
    if pending.dirty == 0 {
        return true;
    }
    pending.dirty = 0;
    let mut counter = Counter::<L>::new();
    let mut all = V4::zero();
    for k in 0..L::GROUPS {
        let p = L::load_group(pending, k);
        counter.add(p);
        all = all | p.or_digits();
    }
    let all = all.andnot(V4::load(&s.solved));
    if all.is_zero() {
        return true;
    }
    let c = L::merge(counter);
    if !(c.hi | c.four).is_zero() {
        return false;
    }
    let f = L::broadcast(all);
    let mut zero = 0u64;
    for k in 0..L::GROUPS {
        let old = L::load_group(s, k);
        let erase = f.andnot(L::load_group(pending, k));
        zero |= (old & erase).zero_lane_bits() << (4 * digit_shift::<L>(k));
        old.andnot(erase).store_group(s, k);
        L::zero().store_group(pending, k);
    }
    s.dirty |= L::nonzero_digits(zero);
    (V4::load(&s.solved) | all).store(&mut s.solved);
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
fn propagate<I: Isa>(s: &mut State) -> Option<Census> {
    // Row singles found and not yet placed: cells per digit in `cand`, the digits with any in `dirty`.
    let mut pending = State { cand: [[0; 4]; 9], solved: [0; 4], dirty: 0 };
    loop {
        while s.dirty != 0 {
            let d = s.dirty.trailing_zeros() as usize;
            s.dirty &= s.dirty - 1;
            let e = if <I::L as Lanes>::DIGITS == 2 && s.dirty != 0 {
                let e = s.dirty.trailing_zeros() as usize;
                s.dirty &= s.dirty - 1;
                e
            } else {
                d
            };
            if !propagate_digits::<I>(s, [d, e], &mut pending) {
                return None;
            }
        }
        if !place_pending::<I::L>(s, &mut pending) {
            return None;
        }
        if s.dirty != 0 {
            continue;
        }
        let c = I::census(s);
        let mut any = false;
        for b in 0..3 {
            if c[0][b] != FULL27 {
                return None;
            }
            let singles = !c[1][b] & !s.solved[b] & FULL27;
            if singles != 0 {
                any = true;
                for d in 0..9 {
                    let cells = s.cand[d][b] & singles;
                    if cells != 0 {
                        place::<false, true>(s, d, b, cells);
                    }
                }
            }
        }
        if !any {
            match triads::<I::L>(s) {
                None => return None,
                Some(false) => return Some(c),
                Some(true) => {}
            }
        }
    }
}

const M3: u32 = 0o111_111_111;

/// Per mini-row (the three cells of a row in a box): bit 9·row + 3·box set when the word has a candidate in it.
#[inline(always)]
fn fold_h(x: u32) -> u32 {
    (x | x >> 1 | x >> 2) & M3
}

/// Mini-row bits rotated one box to the right within their row.
#[inline(always)]
fn rot_box(h: u32) -> u32 {
    ((h << 3) & 0o110_110_110) | ((h >> 6) & 0o001_001_001)
}

/// The mini-row bits alone in their row.
#[inline(always)]
fn alone_in_row(h: u32) -> u32 {
    let r = rot_box(h);
    h & !r & !rot_box(r)
}

/// A digit's three band words and a fourth lane (kept zero) as one 128-bit vector: SSE2 on x86-64 (part of the
/// baseline, so both engines use it; inside the SIMD engine it is compiled with VEX encodings), plain arrays
/// elsewhere. Shifts act on each lane.
#[derive(Clone, Copy)]
struct V4(#[cfg(target_arch = "x86_64")] std::arch::x86_64::__m128i, #[cfg(not(target_arch = "x86_64"))] [u32; 4]);

#[cfg(target_arch = "x86_64")]
mod v4_sse2 {
    use super::V4;
    use std::arch::x86_64::*;

    // SAFETY (whole impl): SSE2 is part of the x86-64 baseline; loads and stores are of whole `[u32; 4]`s.
    impl V4 {
        #[inline(always)]
        pub(super) fn load(a: &[u32; 4]) -> V4 {
            unsafe { V4(_mm_loadu_si128(a.as_ptr() as *const __m128i)) }
        }
        #[inline(always)]
        pub(super) fn store(self, a: &mut [u32; 4]) {
            unsafe { _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, self.0) }
        }
        #[inline(always)]
        pub(super) fn zero() -> V4 {
            unsafe { V4(_mm_setzero_si128()) }
        }
        #[inline(always)]
        pub(super) fn splat(x: u32) -> V4 {
            unsafe { V4(_mm_set1_epi32(x as i32)) }
        }
        /// `x` in the three band lanes, 0 in the fourth.
        #[inline(always)]
        pub(super) fn bands(x: u32) -> V4 {
            unsafe { V4(_mm_set_epi32(0, x as i32, x as i32, x as i32)) }
        }
        #[inline(always)]
        pub(super) fn shr<const N: i32>(self) -> V4 {
            unsafe { V4(_mm_srli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        pub(super) fn shl<const N: i32>(self) -> V4 {
            unsafe { V4(_mm_slli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        pub(super) fn sub(self, o: V4) -> V4 {
            unsafe { V4(_mm_sub_epi32(self.0, o.0)) }
        }
        /// `self & !o`.
        #[inline(always)]
        pub(super) fn andnot(self, o: V4) -> V4 {
            unsafe { V4(_mm_andnot_si128(o.0, self.0)) }
        }
        #[inline(always)]
        pub(super) fn eq(self, o: V4) -> bool {
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi32(self.0, o.0)) == 0xFFFF }
        }
        #[inline(always)]
        pub(super) fn is_zero(self) -> bool {
            self.eq(V4::zero())
        }
        #[inline(always)]
        pub(super) fn to_array(self) -> [u32; 4] {
            let mut a = [0; 4];
            self.store(&mut a);
            a
        }
        /// All ones in the lanes that are zero, zero elsewhere.
        #[inline(always)]
        pub(super) fn zero_lanes(self) -> V4 {
            unsafe { V4(_mm_cmpeq_epi32(self.0, _mm_setzero_si128())) }
        }
        /// Lane b takes lane b + 1 (mod 3) of the three band lanes; the fourth stays.
        #[inline(always)]
        pub(super) fn rotate_bands_1(self) -> V4 {
            unsafe { V4(_mm_shuffle_epi32::<0b11_00_10_01>(self.0)) }
        }
        /// Lane b takes lane b + 2 (mod 3) of the three band lanes; the fourth stays.
        #[inline(always)]
        pub(super) fn rotate_bands_2(self) -> V4 {
            unsafe { V4(_mm_shuffle_epi32::<0b11_01_00_10>(self.0)) }
        }
    }

    impl std::ops::BitAnd for V4 {
        type Output = V4;
        #[inline(always)]
        fn bitand(self, o: V4) -> V4 {
            unsafe { V4(_mm_and_si128(self.0, o.0)) }
        }
    }
    impl std::ops::BitOr for V4 {
        type Output = V4;
        #[inline(always)]
        fn bitor(self, o: V4) -> V4 {
            unsafe { V4(_mm_or_si128(self.0, o.0)) }
        }
    }
    impl std::ops::BitXor for V4 {
        type Output = V4;
        #[inline(always)]
        fn bitxor(self, o: V4) -> V4 {
            unsafe { V4(_mm_xor_si128(self.0, o.0)) }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod v4_plain {
    use super::V4;

    impl V4 {
        #[inline(always)]
        fn map(self, f: impl Fn(u32) -> u32) -> V4 {
            V4(self.0.map(f))
        }
        #[inline(always)]
        fn zip(self, o: V4, f: impl Fn(u32, u32) -> u32) -> V4 {
            V4([f(self.0[0], o.0[0]), f(self.0[1], o.0[1]), f(self.0[2], o.0[2]), f(self.0[3], o.0[3])])
        }
        #[inline(always)]
        pub(super) fn load(a: &[u32; 4]) -> V4 {
            V4(*a)
        }
        #[inline(always)]
        pub(super) fn store(self, a: &mut [u32; 4]) {
            *a = self.0;
        }
        #[inline(always)]
        pub(super) fn zero() -> V4 {
            V4([0; 4])
        }
        #[inline(always)]
        pub(super) fn splat(x: u32) -> V4 {
            V4([x; 4])
        }
        #[inline(always)]
        pub(super) fn bands(x: u32) -> V4 {
            V4([x, x, x, 0])
        }
        #[inline(always)]
        pub(super) fn shr<const N: i32>(self) -> V4 {
            self.map(|x| x >> N)
        }
        #[inline(always)]
        pub(super) fn shl<const N: i32>(self) -> V4 {
            self.map(|x| x << N)
        }
        #[inline(always)]
        pub(super) fn sub(self, o: V4) -> V4 {
            self.zip(o, u32::wrapping_sub)
        }
        #[inline(always)]
        pub(super) fn andnot(self, o: V4) -> V4 {
            self.zip(o, |a, b| a & !b)
        }
        #[inline(always)]
        pub(super) fn eq(self, o: V4) -> bool {
            self.0 == o.0
        }
        #[inline(always)]
        pub(super) fn is_zero(self) -> bool {
            self.0 == [0; 4]
        }
        #[inline(always)]
        pub(super) fn to_array(self) -> [u32; 4] {
            self.0
        }
        #[inline(always)]
        pub(super) fn zero_lanes(self) -> V4 {
            self.map(|x| if x == 0 { u32::MAX } else { 0 })
        }
        #[inline(always)]
        pub(super) fn rotate_bands_1(self) -> V4 {
            V4([self.0[1], self.0[2], self.0[0], self.0[3]])
        }
        #[inline(always)]
        pub(super) fn rotate_bands_2(self) -> V4 {
            V4([self.0[2], self.0[0], self.0[1], self.0[3]])
        }
    }

    impl std::ops::BitAnd for V4 {
        type Output = V4;
        #[inline(always)]
        fn bitand(self, o: V4) -> V4 {
            self.zip(o, |a, b| a & b)
        }
    }
    impl std::ops::BitOr for V4 {
        type Output = V4;
        #[inline(always)]
        fn bitor(self, o: V4) -> V4 {
            self.zip(o, |a, b| a | b)
        }
    }
    impl std::ops::BitXor for V4 {
        type Output = V4;
        #[inline(always)]
        fn bitxor(self, o: V4) -> V4 {
            self.zip(o, |a, b| a ^ b)
        }
    }
}

/// Vectors of band words: a [`V4`] holds one digit's three bands (and a zero lane), a `V8` (AVX2, the SIMD
/// engine's) two digits'. The triads and the placement of row singles go over the digits a group at a time.
trait Lanes:
    Copy + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> + std::ops::BitXor<Output = Self>
{
    /// Groups of digits: 9 of one, or 5 of two (the last one's second digit a zero pad).
    const GROUPS: usize;
    fn zero() -> Self;
    fn splat(x: u32) -> Self;
    /// `x` in every band lane, 0 in the pad lanes.
    fn bands(x: u32) -> Self;
    /// The three band words of a digit, in every digit's place of the vector.
    fn broadcast(x: V4) -> Self;
    fn shr<const N: i32>(self) -> Self;
    fn shl<const N: i32>(self) -> Self;
    fn sub(self, o: Self) -> Self;
    /// `self & !o`.
    fn andnot(self, o: Self) -> Self;
    fn is_zero(self) -> bool;
    /// Lane b takes lane b + 1 (mod 3) of its digit's band lanes; the pad lanes stay.
    fn rotate_bands_1(self) -> Self;
    /// Lane b takes lane b + 2 (mod 3) of its digit's band lanes; the pad lanes stay.
    fn rotate_bands_2(self) -> Self;
    fn load_group(s: &State, k: usize) -> Self;
    fn store_group(self, s: &mut State, k: usize);
    /// One bit per lane (4 a digit), set where the lane is zero.
    fn zero_lane_bits(self) -> u64;
    /// All ones in the lanes that are zero, zero in the others.
    fn zero_lanes(self) -> Self;
    /// Digits side by side in `load_digits`.
    const DIGITS: usize;
    /// The words of digits `ds[0]` (and `ds[1]`, when two fit).
    fn load_digits(s: &State, ds: [usize; 2]) -> Self;
    fn store_digits(self, s: &mut State, ds: [usize; 2]);
    /// ORs the digits' words (as `load_digits` placed them) into their words in `pending`, and marks there (in
    /// `dirty`) those not zero.
    fn or_into_digits(self, pending: &mut State, ds: [usize; 2]);
    /// `f` applied to each band lane (the pad lanes stay zero).
    fn map_band_lanes(self, f: impl Fn(u32) -> u32) -> Self;
    /// From the `zero_lane_bits` of every group, group k shifted by `4 · k · digits a group`: the digits with
    /// a lane not zero.
    fn nonzero_digits(zero_bits: u64) -> u32;
    /// The union of the group's digits' words.
    fn or_digits(self) -> V4;
    /// A counter over the groups made a counter over all digits (a `V8`'s two halves summed, in both).
    #[inline(always)]
    fn merge(c: Counter<Self>) -> Counter<Self> {
        c
    }

    #[inline(always)]
    fn fold_h(self) -> Self {
        (self | self.shr::<1>() | self.shr::<2>()) & Self::splat(M3)
    }
    #[inline(always)]
    fn project(self) -> Self {
        (self | self.shr::<9>() | self.shr::<18>()) & Self::splat(511)
    }
    #[inline(always)]
    fn col27(self) -> Self {
        self | self.shl::<9>() | self.shl::<18>()
    }
    #[inline(always)]
    fn rot_box(self) -> Self {
        (self.shl::<3>() & Self::splat(0o110_110_110)) | (self.shr::<6>() & Self::splat(0o001_001_001))
    }
    #[inline(always)]
    fn alone_in_row(self) -> Self {
        let r = self.rot_box();
        self.andnot(r).andnot(r.rot_box())
    }
    #[inline(always)]
    fn rot_col(self) -> Self {
        (self.shl::<1>() & Self::splat(0o666)) | (self.shr::<2>() & Self::splat(0o111))
    }
    #[inline(always)]
    fn alone_in_stack(self) -> Self {
        let r = self.rot_col();
        self.andnot(r).andnot(r.rot_col())
    }
}

impl Lanes for V4 {
    const GROUPS: usize = 9;
    #[inline(always)]
    fn zero() -> V4 {
        V4::zero()
    }
    #[inline(always)]
    fn splat(x: u32) -> V4 {
        V4::splat(x)
    }
    #[inline(always)]
    fn bands(x: u32) -> V4 {
        V4::bands(x)
    }
    #[inline(always)]
    fn broadcast(x: V4) -> V4 {
        x
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> V4 {
        V4::shr::<N>(self)
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> V4 {
        V4::shl::<N>(self)
    }
    #[inline(always)]
    fn sub(self, o: V4) -> V4 {
        V4::sub(self, o)
    }
    #[inline(always)]
    fn andnot(self, o: V4) -> V4 {
        V4::andnot(self, o)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        V4::is_zero(self)
    }
    #[inline(always)]
    fn rotate_bands_1(self) -> V4 {
        V4::rotate_bands_1(self)
    }
    #[inline(always)]
    fn rotate_bands_2(self) -> V4 {
        V4::rotate_bands_2(self)
    }
    #[inline(always)]
    fn load_group(s: &State, k: usize) -> V4 {
        V4::load(&s.cand[k])
    }
    #[inline(always)]
    fn store_group(self, s: &mut State, k: usize) {
        self.store(&mut s.cand[k])
    }
    #[inline(always)]
    fn zero_lanes(self) -> V4 {
        V4::zero_lanes(self)
    }
    const DIGITS: usize = 1;
    #[inline(always)]
    fn load_digits(s: &State, ds: [usize; 2]) -> V4 {
        V4::load(&s.cand[ds[0]])
    }
    #[inline(always)]
    fn store_digits(self, s: &mut State, ds: [usize; 2]) {
        self.store(&mut s.cand[ds[0]]);
    }
    #[inline(always)]
    fn or_into_digits(self, pending: &mut State, ds: [usize; 2]) {
        if !self.is_zero() {
            (V4::load(&pending.cand[ds[0]]) | self).store(&mut pending.cand[ds[0]]);
            pending.dirty |= 1 << ds[0];
        }
    }
    #[inline(always)]
    fn map_band_lanes(self, f: impl Fn(u32) -> u32) -> V4 {
        let w = self.to_array();
        V4::load(&[f(w[0]), f(w[1]), f(w[2]), 0])
    }
    #[inline(always)]
    fn zero_lane_bits(self) -> u64 {
        let z = self.zero_lanes().to_array();
        u64::from(z[0] & 1) | u64::from(z[1] & 1) << 1 | u64::from(z[2] & 1) << 2 | u64::from(z[3] & 1) << 3
    }
    #[inline(always)]
    fn nonzero_digits(zero_bits: u64) -> u32 {
        let mut out = 0;
        for d in 0..9 {
            out |= u32::from((zero_bits >> (4 * d)) & 15 != 15) << d;
        }
        out
    }
    #[inline(always)]
    fn or_digits(self) -> V4 {
        self
    }
}

/// Two digits' band words (lanes 0-2 and 4-6; lanes 3 and 7 zero) in one AVX2 vector, for the SIMD engine.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct V8(std::arch::x86_64::__m256i);

#[cfg(target_arch = "x86_64")]
mod v8_avx2 {
    use super::{Counter, Lanes, State, V4, V8};
    use std::arch::x86_64::*;

    // SAFETY (whole module): only used by code inlined into `search_simd`, which runs after AVX2 and BMI2 were detected;
    // loads and stores are of whole digits' `[u32; 4]`s inside `State::cand`.
    impl Lanes for V8 {
        const GROUPS: usize = 5;
        #[inline(always)]
        fn zero() -> V8 {
            unsafe { V8(_mm256_setzero_si256()) }
        }
        #[inline(always)]
        fn splat(x: u32) -> V8 {
            unsafe { V8(_mm256_set1_epi32(x as i32)) }
        }
        #[inline(always)]
        fn bands(x: u32) -> V8 {
            let x = x as i32;
            unsafe { V8(_mm256_set_epi32(0, x, x, x, 0, x, x, x)) }
        }
        #[inline(always)]
        fn broadcast(x: V4) -> V8 {
            let mut a = [0u32; 4];
            x.store(&mut a);
            unsafe { V8(_mm256_broadcastsi128_si256(_mm_loadu_si128(a.as_ptr() as *const __m128i))) }
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> V8 {
            unsafe { V8(_mm256_srli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> V8 {
            unsafe { V8(_mm256_slli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        fn sub(self, o: V8) -> V8 {
            unsafe { V8(_mm256_sub_epi32(self.0, o.0)) }
        }
        #[inline(always)]
        fn andnot(self, o: V8) -> V8 {
            unsafe { V8(_mm256_andnot_si256(o.0, self.0)) }
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
        }
        #[inline(always)]
        fn rotate_bands_1(self) -> V8 {
            unsafe { V8(_mm256_shuffle_epi32::<0b11_00_10_01>(self.0)) }
        }
        #[inline(always)]
        fn rotate_bands_2(self) -> V8 {
            unsafe { V8(_mm256_shuffle_epi32::<0b11_01_00_10>(self.0)) }
        }
        #[inline(always)]
        fn load_group(s: &State, k: usize) -> V8 {
            unsafe {
                if k < 4 {
                    let lo = _mm_load_si128(s.cand[2 * k].as_ptr() as *const __m128i);
                    let hi = _mm_load_si128(s.cand[2 * k + 1].as_ptr() as *const __m128i);
                    V8(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
                } else {
                    V8(_mm256_zextsi128_si256(_mm_loadu_si128(s.cand[8].as_ptr() as *const __m128i)))
                }
            }
        }
        #[inline(always)]
        fn store_group(self, s: &mut State, k: usize) {
            unsafe {
                if k < 4 {
                    _mm256_storeu_si256(s.cand[2 * k].as_mut_ptr() as *mut __m256i, self.0)
                } else {
                    _mm_storeu_si128(s.cand[8].as_mut_ptr() as *mut __m128i, _mm256_castsi256_si128(self.0))
                }
            }
        }
        #[inline(always)]
        fn zero_lanes(self) -> V8 {
            unsafe { V8(_mm256_cmpeq_epi32(self.0, _mm256_setzero_si256())) }
        }
        const DIGITS: usize = 2;
        #[inline(always)]
        fn load_digits(s: &State, ds: [usize; 2]) -> V8 {
            unsafe {
                let lo = _mm_load_si128(s.cand[ds[0]].as_ptr() as *const __m128i);
                let hi = _mm_load_si128(s.cand[ds[1]].as_ptr() as *const __m128i);
                V8(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
            }
        }
        #[inline(always)]
        fn store_digits(self, s: &mut State, ds: [usize; 2]) {
            unsafe {
                _mm_store_si128(s.cand[ds[0]].as_mut_ptr() as *mut __m128i, _mm256_castsi256_si128(self.0));
                _mm_store_si128(s.cand[ds[1]].as_mut_ptr() as *mut __m128i, _mm256_extracti128_si256::<1>(self.0));
            }
        }
        #[inline(always)]
        fn or_into_digits(self, pending: &mut State, ds: [usize; 2]) {
            if self.is_zero() {
                return;
            }
            unsafe {
                let halves = [_mm256_castsi256_si128(self.0), _mm256_extracti128_si256::<1>(self.0)];
                for (h, &d) in halves.into_iter().zip(&ds) {
                    let p = pending.cand[d].as_mut_ptr() as *mut __m128i;
                    _mm_store_si128(p, _mm_or_si128(_mm_load_si128(p), h));
                    pending.dirty |= u32::from(_mm_testz_si128(h, h) == 0) << d;
                }
            }
        }
        #[inline(always)]
        fn map_band_lanes(self, f: impl Fn(u32) -> u32) -> V8 {
            unsafe {
                let lo = _mm256_castsi256_si128(self.0);
                let hi = _mm256_extracti128_si256::<1>(self.0);
                let l = |x: __m128i, i: i32| -> u32 {
                    match i {
                        0 => _mm_cvtsi128_si32(x) as u32,
                        1 => _mm_extract_epi32::<1>(x) as u32,
                        _ => _mm_extract_epi32::<2>(x) as u32,
                    }
                };
                let v = |x: u32| f(x) as i32;
                V8(_mm256_setr_epi32(
                    v(l(lo, 0)),
                    v(l(lo, 1)),
                    v(l(lo, 2)),
                    0,
                    v(l(hi, 0)),
                    v(l(hi, 1)),
                    v(l(hi, 2)),
                    0,
                ))
            }
        }
        #[inline(always)]
        fn zero_lane_bits(self) -> u64 {
            unsafe {
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(self.0, _mm256_setzero_si256()))) as u64
            }
        }
        #[inline(always)]
        fn nonzero_digits(zero_bits: u64) -> u32 {
            // A digit's four lane bits all set: every lane zero.
            let z = !zero_bits;
            let any = (z | z >> 1 | z >> 2 | z >> 3) & 0x11_1111_1111;
            unsafe { _pext_u64(any, 0x11_1111_1111) as u32 & 0x1FF }
        }
        #[inline(always)]
        fn or_digits(self) -> V4 {
            unsafe {
                let x = _mm_or_si128(_mm256_castsi256_si128(self.0), _mm256_extracti128_si256::<1>(self.0));
                let mut a = [0u32; 4];
                _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, x);
                V4::load(&a)
            }
        }
        #[inline(always)]
        fn merge(c: Counter<V8>) -> Counter<V8> {
            let swap = |x: V8| unsafe { V8(_mm256_permute2x128_si256::<1>(x.0, x.0)) };
            c.plus(&Counter { lo: swap(c.lo), hi: swap(c.hi), four: swap(c.four) })
        }
    }

    impl std::ops::BitAnd for V8 {
        type Output = V8;
        #[inline(always)]
        fn bitand(self, o: V8) -> V8 {
            unsafe { V8(_mm256_and_si256(self.0, o.0)) }
        }
    }
    impl std::ops::BitOr for V8 {
        type Output = V8;
        #[inline(always)]
        fn bitor(self, o: V8) -> V8 {
            unsafe { V8(_mm256_or_si256(self.0, o.0)) }
        }
    }
    impl std::ops::BitXor for V8 {
        type Output = V8;
        #[inline(always)]
        fn bitxor(self, o: V8) -> V8 {
            unsafe { V8(_mm256_xor_si256(self.0, o.0)) }
        }
    }
}

/// Bit-sliced counts per lane, saturating at 4: `lo`, `hi` the count's two bits while below 4, `four` once it
/// reached 4.
#[derive(Clone, Copy)]
struct Counter<L> {
    lo: L,
    hi: L,
    four: L,
}

impl<L: Lanes> Counter<L> {
    #[inline(always)]
    fn new() -> Counter<L> {
        Counter { lo: L::zero(), hi: L::zero(), four: L::zero() }
    }

    #[inline(always)]
    fn add(&mut self, x: L) {
        let c0 = self.lo & x;
        self.lo = self.lo ^ x;
        self.four = self.four | (self.hi & c0);
        self.hi = self.hi ^ c0;
    }

    /// The sum of two counts, saturating at 4.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn plus(&self, o: &Counter<L>) -> Counter<L> {
        let carry = self.lo & o.lo;
        let hi = self.hi ^ o.hi;
        Counter { lo: self.lo ^ o.lo, hi: hi ^ carry, four: self.four | o.four | (self.hi & o.hi) | (hi & carry) }
    }

    /// The bits counted at least 3 times, and at least 4 times.
    #[inline(always)]
    fn at_least_3_and_4(&self) -> (L, L) {
        (self.four | (self.hi & self.lo), self.four)
    }
}

/// Triad cardinality: the three cells of a mini-row (or of a mini-column: a column inside one box) hold three
/// different digits. Fewer than three digits possible there is a contradiction; exactly three possible puts
/// each of them there (erased from the rest of its row or column and of its box); three digits already
/// certain there (the only place of that digit in its row, or column, within the box) erase the others from
/// the three cells. Returns whether anything was erased; `None` on a contradiction. The digits go a group at
/// a time ([`Lanes`]), the pad lanes zero throughout.
#[inline(always)]
fn triads<L: Lanes>(s: &mut State) -> Option<bool> {
    // Saturating bit-sliced counters, per lane, of how many digits set each bit: mini-rows possible (`hc`),
    // mini-columns possible (`vc`), mini-rows certain (`gc`), mini-columns certain (`wc`).
    let (mut hc, mut vc, mut gc, mut wc) = (Counter::new(), Counter::new(), Counter::new(), Counter::new());
    for k in 0..L::GROUPS {
        let x = L::load_group(s, k);
        let hh = x.fold_h();
        let vv = x.project();
        hc.add(hh);
        vc.add(vv);
        gc.add(hh.alone_in_row());
        wc.add(vv.alone_in_stack());
    }
    let (h3, h4) = L::merge(hc).at_least_3_and_4();
    let (v3, v4) = L::merge(vc).at_least_3_and_4();
    let (g3, g4) = L::merge(gc).at_least_3_and_4();
    let (w3, w4) = L::merge(wc).at_least_3_and_4();
    if !((h3 ^ L::bands(M3)) | (v3 ^ L::bands(511)) | g4 | w4).is_zero() {
        return None;
    }
    let h3only = h3.andnot(h4);
    let v3only = v3.andnot(v4);
    let work = (h3only.andnot(g3)) | (g3 & h4) | (v3only.andnot(w3)) | (w3 & v4);
    if work.is_zero() {
        return Some(false);
    }
    let mut same = 0u64;
    for k in 0..L::GROUPS {
        let before = L::load_group(s, k);
        let hh = before.fold_h();
        let fh = hh.alone_in_row();
        // Mini-rows where exactly three digits may go and this one is not yet certain: it goes there.
        let nf = (hh & h3only).andnot(fh);
        let rows = (nf | nf.shr::<3>() | nf.shr::<6>()) & L::splat(0o001_001_001);
        let rows = rows.shl::<9>().sub(rows);
        let boxes = (nf | nf.shr::<9>() | nf.shr::<18>()) & L::splat(0o111);
        let boxes = boxes.shl::<3>().sub(boxes).col27();
        let nf7 = nf.shl::<3>().sub(nf);
        let mut x = before.andnot((rows | boxes).andnot(nf7));
        // Mini-rows with three certain digits, this one not among them: it leaves them.
        let ng = (hh & g3).andnot(fh);
        x = x.andnot(ng.shl::<3>().sub(ng));
        let vv = before.project();
        let fv = vv.alone_in_stack();
        let nfv = (vv & v3only).andnot(fv);
        let stacks = (nfv | nfv.shr::<1>() | nfv.shr::<2>()) & L::splat(0o111);
        let stacks = stacks.shl::<3>().sub(stacks);
        x = x.andnot(stacks.andnot(nfv).col27());
        let cols = nfv.col27();
        x = x.andnot(cols.rotate_bands_1() | cols.rotate_bands_2());
        let ngv = (vv & w3).andnot(fv);
        x = x.andnot(ngv.col27());
        x.store_group(s, k);
        same |= (x ^ before).zero_lane_bits() << (4 * digit_shift::<L>(k));
    }
    let changed = L::nonzero_digits(same);
    s.dirty |= changed;
    Some(changed != 0)
}

/// The first digit of group `k`.
#[inline(always)]
fn digit_shift<L: Lanes>(k: usize) -> usize {
    if L::GROUPS == 9 {
        k
    } else {
        2 * k
    }
}

/// A binary branch: "digit in these bits of the band" first, then "not in them".
struct Branch {
    digit: usize,
    band: usize,
    /// A cell (one bit: placed), or a mini-row's three bits.
    cell: bool,
    bits: u32,
    /// For a mini-row: the digit's word is ANDed with this (the rest of its row and box erased).
    keep: u32,
}

/// Number of perfect matchings rows ↔ boxes of a 9-bit mini-row pattern (bit `3·row + box`), or bands ↔
/// columns of a stack pattern (bit `3·band + column`).
const NCONF: [u8; 512] = {
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

/// The least band total above which `choose_branch` counts the stacks' configurations too.
const STACKS_COUNTED_ABOVE: u32 = 16;

/// The branch: among the bands and stacks not yet fixed, the one with the fewest configurations summed over the
/// digits (fixed: each digit has one, 9 in all), the bands first on a tie, the stacks left out when a band has at
/// most [`STACKS_COUNTED_ABOVE`]; in it, the digit with the fewest
/// configurations (at least two). The branch is "the digit is in its first mini-line of that band or stack that
/// is not certain" (a mini-row, or a mini-column: a cell when it has one candidate) first, then "it is not".
/// When every band and stack is fixed (the mini-lines are known, not yet the cells), a cell with the fewest
/// candidates.
#[inline(always)]
fn choose_branch<I: Isa>(s: &State, c: &Census) -> Branch {
    // Per digit: configurations in bands 0-2, then stacks 0-2; and their totals.
    let mut nconf = [[0u8; 6]; 9];
    let mut total = [0u32; 6];
    for d in 0..9 {
        let rows = I::mini_rows3(V4::load(&s.cand[d]));
        for b in 0..3 {
            let n = NCONF[rows[b] & 511];
            nconf[d][b] = n;
            total[b] += u32::from(n);
        }
    }
    // (total, band or 3 + stack): the least total above 9, bands first on a tie.
    let mut best = (u32::MAX, 0);
    for b in 0..3 {
        if total[b] > 9 && total[b] < best.0 {
            best = (total[b], b);
        }
    }
    // The stacks are counted only when no band has a total of 16 or less: a band of 10 (one digit with two
    // configurations) cannot be bettered, and below 17 a stack seldom is by enough to matter (guesses on the
    // first 3,000 of forum hardest 11+ 62.8 -> 62.9, magictour 8.87 -> 8.92, serg unchanged), while counting
    // them costs every node (serg 2.5% less time without).
    if best.0 > STACKS_COUNTED_ABOVE {
        for d in 0..9 {
            let cols = I::stack_patterns(V4::load(&s.cand[d]));
            for k in 0..3 {
                let n = NCONF[cols[k] & 511];
                nconf[d][3 + k] = n;
                total[3 + k] += u32::from(n);
            }
        }
        for k in 3..6 {
            if total[k] > 9 && total[k] < best.0 {
                best = (total[k], k);
            }
        }
    }
    if best.0 == u32::MAX {
        return choose_cell(s, c);
    }
    let mut least = (u8::MAX, 0);
    for d in 0..9 {
        let n = nconf[d][best.1];
        if n >= 2 && n < least.0 {
            least = (n, d);
        }
    }
    let d = least.1;
    if best.1 < 3 {
        let b = best.1;
        let x = s.cand[d][b];
        let hh = fold_h(x);
        let open = hh & !alone_in_row(hh);
        let q = open & open.wrapping_neg();
        let tri = q * 7;
        let cells = x & tri;
        if cells & (cells - 1) == 0 {
            return Branch { digit: d, band: b, cell: true, bits: cells, keep: 0 };
        }
        let rows = ((q | q >> 3 | q >> 6) & 0o001_001_001) * 511;
        let boxes = col27(((q | q >> 9 | q >> 18) & 0o111) * 7);
        return Branch { digit: d, band: b, cell: false, bits: tri, keep: !((rows | boxes) & !tri) };
    }
    // A stack: the first band whose box of the stack has the digit in two or three columns. The branch keeps
    // the digit in one column of that box (the stack rule then erases the column from the other bands).
    let k = best.1 - 3;
    let in_box = |b: usize| (project(s.cand[d][b]) >> (3 * k)) & 7;
    let b = (0..2).find(|&b| in_box(b).count_ones() >= 2).unwrap_or(2);
    let cols = in_box(b);
    let column = col27(1 << (3 * k as u32 + cols.trailing_zeros()));
    let cells = s.cand[d][b] & column;
    if cells & (cells - 1) == 0 {
        return Branch { digit: d, band: b, cell: true, bits: cells, keep: 0 };
    }
    Branch { digit: d, band: b, cell: false, bits: column, keep: !(col27(7 << (3 * k)) & !column) }
}

/// A branch on a cell: one with two candidates if any, else one with the fewest; its smallest candidate is tried.
#[inline(always)]
fn choose_cell(s: &State, c: &Census) -> Branch {
    let branch = |digit, band, bits| Branch { digit, band, cell: true, bits, keep: 0 };
    for b in 0..3 {
        let pairs = c[1][b] & !c[2][b] & !s.solved[b];
        if pairs != 0 {
            let p = pairs & pairs.wrapping_neg();
            let d = (0..9).find(|&d| s.cand[d][b] & p != 0).unwrap_or(0);
            return branch(d, b, p);
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
    branch(best.1, best.2, best.3)
}

/// Search bookkeeping shared by both engines.
struct Search<'a> {
    limit: u64,
    count: u64,
    stop: bool,
    /// xorshift state for random branch order; 0 = deterministic.
    rng: u64,
    /// Branches taken (each a guess: "cell = digit" tried first).
    guesses: u64,
    /// Branches that ended in a contradiction.
    dead_ends: u64,
    sink: &'a mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    /// Only the first solution goes to the sink (the others are counted, not written out).
    first_only: bool,
}

thread_local! {
    static GUESSES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Guesses made by this thread's searches so far (for the benchmarks' guesses per puzzle).
pub fn guesses_so_far() -> u64 {
    GUESSES.with(|g| g.get())
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

    #[inline(always)]
    fn found<I: Isa>(&mut self, s: &State) {
        self.count += 1;
        let wanted = !self.first_only || self.count == 1;
        if wanted {
            let mut cells = [0u8; 81];
            I::write_cells(s, &mut cells);
            if (self.sink)(&cells).is_break() {
                self.stop = true;
            }
        }
        if self.count >= self.limit {
            self.stop = true;
        }
    }
}

macro_rules! search_fn {
    ($name:ident, $start:ident, $isa:ty, $($attr:tt)*) => {
        /// The start state (none when givens clash), then the search.
        $($attr)*
        fn $start(search: &mut Search<'_>, cells: &[u8]) {
            if let Some(mut s) = State::from_cells::<<$isa as Isa>::L>(cells) {
                // SAFETY: same features as this function.
                #[allow(unused_unsafe)]
                unsafe {
                    $name(search, &mut s)
                };
            }
        }

        $($attr)*
        /// Searches from `s` (worked on in place: the caller's copy).
        fn $name(search: &mut Search<'_>, s: &mut State) {
            loop {
                let Some(c) = propagate::<$isa>(s) else {
                    search.dead_ends += 1;
                    return;
                };
                if s.is_solved() {
                    search.found::<$isa>(s);
                    return;
                }
                // A cell until the search first meets a dead end, then the configurations (see the module doc).
                let br = if search.dead_ends == 0 {
                    choose_cell(s, &c)
                } else {
                    choose_branch::<$isa>(s, &c)
                };
                let (d, b, p) = (br.digit, br.band, br.bits);
                search.guesses += 1;
                let mut t = *s;
                let (yes, no) = if search.flip() { (&mut *s, &mut t) } else { (&mut t, &mut *s) };
                if br.cell {
                    place::<true, true>(yes, d, b, p);
                } else {
                    yes.cand[d][b] &= br.keep;
                    yes.dirty |= 1 << d;
                }
                no.cand[d][b] &= !p;
                no.dirty |= 1 << d;
                // SAFETY: same function; the SIMD variant only runs after feature detection.
                #[allow(unused_unsafe)]
                unsafe {
                    $name(search, &mut t)
                };
                if search.stop {
                    return;
                }
            }
        }
    };
}

search_fn!(search_scalar, start_scalar, Scalar,);

#[cfg(target_arch = "x86_64")]
search_fn!(
    search_simd,
    start_simd,
    Simd,
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1")]
);

// The same code with AVX-512VL: LLVM folds the vector logic's and-not-or chains into `vpternlogd` and keeps
// compare results in mask registers.
#[cfg(target_arch = "x86_64")]
search_fn!(
    search_avx512,
    start_avx512,
    Simd,
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1,avx512f,avx512vl,avx512bw,avx512dq")]
);

/// Runs the search over a 9×9 puzzle (81 values, 0 = empty) with the given engine, calling
/// `sink` with each solution's 81 values until `limit` solutions were found or it breaks.
/// Returns the number of solutions found.
pub fn search_with(engine: Engine, cells: &[u8], limit: u64, sink: &mut dyn FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
    search_seeded(engine, cells, limit, 0, sink)
}

/// As [`search_with`], with the branch order drawn from `seed` (0 = the deterministic
/// order): the first solution found is then a random one (not uniformly distributed).
pub fn search_seeded(
    engine: Engine,
    cells: &[u8],
    limit: u64,
    seed: u64,
    sink: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> u64 {
    run(engine, cells, limit, seed, false, sink)
}

fn run(
    engine: Engine,
    cells: &[u8],
    limit: u64,
    seed: u64,
    first_only: bool,
    sink: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> u64 {
    assert_eq!(cells.len(), 81, "a 9x9 grid has 81 cells");
    debug_assert!(cells.iter().all(|&v| v <= 9), "values are 0..=9");
    if limit == 0 {
        return 0;
    }
    let rng = if seed == 0 { 0 } else { seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1 };
    let mut search = Search { limit, count: 0, stop: false, rng, guesses: 0, dead_ends: 0, sink, first_only };
    match engine {
        #[cfg(target_arch = "x86_64")]
        Engine::Avx512 if avx512_available() => {
            // SAFETY: the CPU features were detected just above.
            unsafe { start_avx512(&mut search, cells) }
        }
        #[cfg(target_arch = "x86_64")]
        Engine::Simd | Engine::Avx512 if simd_available() => {
            // SAFETY: the CPU features were detected just above.
            unsafe { start_simd(&mut search, cells) }
        }
        _ => start_scalar(&mut search, cells),
    }
    GUESSES.with(|g| g.set(g.get() + search.guesses));
    search.count
}

/// Counts solutions up to `limit` with the given engine, writing the first one found into `first` (left as it
/// was when there is none).
pub fn solve_count(engine: Engine, cells: &[u8; 81], limit: u64, first: &mut [u8; 81]) -> u64 {
    run(engine, cells, limit, 0, true, &mut |sol| {
        first.copy_from_slice(sol);
        ControlFlow::Continue(())
    })
}

/// Counts solutions up to `limit` with the given engine.
pub fn count_with(engine: Engine, cells: &[u8], limit: u64) -> u64 {
    run(engine, cells, limit, 0, true, &mut |_| ControlFlow::Continue(()))
}

/// The first solution found, with the given engine.
pub fn solve_with(engine: Engine, cells: &[u8]) -> Option<[u8; 81]> {
    let mut out = None;
    search_with(engine, cells, 1, &mut |sol| {
        let mut a = [0u8; 81];
        a.copy_from_slice(sol);
        out = Some(a);
        ControlFlow::Break(())
    });
    out
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

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_mini_rows_match_the_tables() {
        if !simd_available() {
            return;
        }
        #[target_feature(enable = "bmi2")]
        fn simd_mini_rows(x: u32) -> usize {
            Simd::mini_rows(x)
        }
        #[target_feature(enable = "bmi2")]
        fn simd_stack_patterns(a: V4) -> [usize; 3] {
            Simd::stack_patterns(a)
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // SAFETY: BMI2 was detected above.
            assert_eq!(unsafe { simd_mini_rows(x & FULL27) }, Scalar::mini_rows(x & FULL27));
            let a = V4::load(&[x & FULL27, x.rotate_left(9) & FULL27, x.rotate_left(18) & FULL27, 0]);
            // SAFETY: BMI2 was detected above.
            assert_eq!(unsafe { simd_stack_patterns(a) }, Scalar::stack_patterns(a));
        }
    }

    /// The start state cell by cell (the construction before `from_cells` went over vectors): each given erases
    /// its peers from its digit; `None` when a given's digit was erased from its own cell.
    fn start_cell_by_cell(cells: &[u8; 81]) -> Option<([[u32; 4]; 9], [u32; 4])> {
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
        let mut cand = [[0u32; 4]; 9];
        for d in 0..9 {
            for b in 0..3 {
                cand[d][b] = ((FULL27 & !occupied[b]) | given[d][b]) & !elim[d][b];
                if given[d][b] & !cand[d][b] != 0 {
                    return None;
                }
            }
        }
        Some((cand, occupied))
    }

    #[test]
    fn start_state_matches_a_cell_by_cell_construction() {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1")]
        fn from_cells_v8(cells: &[u8]) -> Option<State> {
            State::from_cells::<V8>(cells)
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (mut clashing, mut fine) = (0, 0);
        for round in 0..20_000 {
            // From a few givens (mostly no clash) to many (mostly clashing).
            let filled = 1 + round % 40;
            let mut cells = [0u8; 81];
            for _ in 0..filled {
                cells[next(81) as usize] = 1 + next(9) as u8;
            }
            let want = start_cell_by_cell(&cells);
            let got = State::from_cells::<V4>(&cells).map(|s| (s.cand, s.solved));
            assert_eq!(got, want, "{cells:?}");
            #[cfg(target_arch = "x86_64")]
            if simd_available() {
                // SAFETY: the features were detected just above.
                let got = unsafe { from_cells_v8(&cells) }.map(|s| (s.cand, s.solved));
                assert_eq!(got, want, "{cells:?}");
            }
            if want.is_some() {
                fine += 1;
            } else {
                clashing += 1;
            }
        }
        assert!(clashing > 2_000 && fine > 2_000, "{clashing} clashing, {fine} not");
    }

    #[test]
    fn band_peers_exclude_self() {
        for p in 0..27 {
            assert_eq!(BAND_PEERS[p] & (1 << p), 0);
            assert_eq!(BAND_PEERS[p].count_ones(), 8 + 2 + 4);
        }
    }
}
