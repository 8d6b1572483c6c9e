//! The search (the module doc's Search): the choice of a branch, the search compiled three times by
//! `search_fn!` (plainly, with AVX2 and the rest, and with AVX-512VL as well), and the entry points, which run the
//! variant the CPU supports.

use std::ops::ControlFlow;

use super::bits::{alone_in_row, col27, fold_h, project, FULL27};
use super::census::Census;
#[cfg(target_arch = "x86_64")]
use super::engine::avx512_available;
#[cfg(target_arch = "x86_64")]
use super::engine::simd_available;
use super::engine::Engine;
#[cfg(target_arch = "x86_64")]
use super::isa::Simd;
use super::isa::{Isa, Scalar};
use super::lanes::V4;
use super::propagate::{place, propagate};
use super::state::State;
use super::tables::NCONF;

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
