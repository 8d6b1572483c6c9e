//! The exact endgame: the game played over a listed set of remaining solutions.
//!
//! A position is the subset of the listed solutions that agree with the board; a move
//! (cell, digit) keeps the solutions with that digit there and is legal when it keeps some
//! but not all of them. A move keeping exactly one solution wins on the spot (claimed with
//! `!`); otherwise the mover wins when some move leaves a position lost for the opponent.
//!
//! Only the subsets matter, not the cells: a position is a set `S`, its moves are the sets
//! `S ∩ X` over the classes `X` (the solutions with digit d in cell c) with
//! `0 < |S ∩ X| < |S|`, and two moves keeping the same solutions are one move. The moves of
//! a child `C = S ∩ X` are the sets `C ∩ M` over the moves `M` of `S` (a class that keeps
//! all or none of `S` keeps all or none of `C`), so each position hands its own move list
//! down to its children.
//!
//! With a one-solution position having no legal move at all, this is a normal-play game
//! (the player who cannot move loses), which the search solves with these shortcuts:
//!
//! * Sets are bitsets over a *frame*: a numbering of a subset of the solutions. The search
//!   starts with one frame over all solutions; a child that fits in fewer 64-bit words gets a
//!   new frame numbering just its solutions, its moves being the parent's moves packed into
//!   the new numbering (BMI2's PEXT a word, or a byte-wise table without it; moves equal in
//!   the new frame are dropped through a small hash set, and the rest ordered by count with
//!   a counting sort, at widths up to four words), so a set of up to 64 solutions is one
//!   `u64` and a move is one AND and a popcount. Frame widths are powers of two (const
//!   generic `W`).
//! * The busiest functions ([`expand`](Search::expand), [`narrow_frame`](Search::narrow_frame),
//!   [`refuted`](Search::refuted)) have a second copy compiled for x86-64-v3 (popcnt, BMI,
//!   AVX2), used when the CPU has those: 10-20% less time single-threaded on the
//!   5,000-solution sets than the baseline x86-64 code (which counts bits without popcnt).
//! * A position is hashed as the XOR of random 64-bit ids of its solutions (independent of
//!   the frame). Results of positions that needed a search go into a flat open-addressing
//!   table by hash, of fixed size (by the number of solutions), shared by the threads, and
//!   kept, cleared, for the next search of the same size (fresh memory costs the kernel's
//!   zeroing, 2 MiB at a time with transparent huge pages). A
//!   position's moves are all hashed and their slots prefetched before the first lookup, so
//!   that the cache misses overlap.
//! * Moves are gathered (the parent's moves kept by a child, or packed into a narrow frame)
//!   without a branch on whether each is kept: each is written after the last one kept and
//!   the length advanced by the test (10% less time single-threaded than pushing).
//! * Threads: the first position, when it has at least [`PARALLEL_MIN`] solutions, hands
//!   its open moves, in the order below, to one thread per processor (started for this
//!   search, so that a caller running on a thread pool is never held up by its other
//!   work), each taking the next move not yet taken and searching it whole. A thread
//!   done with a move joins one another thread has searched for 10 ms or more (or any,
//!   when no move is left): the two take that move's replies by claims (a thread leaves a
//!   reply claimed by the other for last, when it is likely settled in the table). A move
//!   settled by one thread stops the others' search of it, and the first thread to find a
//!   lost move stops them all (through flags their searches check).
//! * Closed forms (see [`expand`](Search::expand)): a position with a move keeping one
//!   solution is won; a position of 2 or 3 solutions always has one, so moves keeping 2 or 3
//!   lose; a position of 4 or 5 solutions without one is lost (every move keeps 2 or 3). A
//!   move is tested for leaving the opponent a one-solution move (`has_single`: an AND and
//!   a popcount per word of each move of the position, over the moves' sets laid out word
//!   by word so that the test runs 8 moves a step on AVX-512 with its popcount; 16% less
//!   time single-threaded on the slowest positions than testing move by move) without
//!   being searched; a position whose every move is settled this way (or by the table) as
//!   a win for the opponent is lost.
//! * Children known lost from the table win at once (checked for all children before any
//!   search).
//! * Ordering: in a one-word frame (up to 64 solutions), each open move (not settled as
//!   above) keeping at most a third of the position is expanded one move ahead; a move
//!   found lost there wins at once, one found won is skipped, the others are searched by
//!   how many open replies they leave, fewest first (moves keeping more than a third come
//!   after, by increasing count). The look-ahead expansions are kept for the search. In
//!   wider frames the open moves go by increasing count alone. The reply that refuted the
//!   previous sibling is tried first (killer). Measured on the 5,000-solution sets:
//!   looking ahead in wider frames too, of the moves of up to 64 solutions each in a
//!   one-word frame of its own (as was done before), costs 5-7% more nodes and 3-10% more
//!   time single-threaded (few of those expansions are ever searched); looking ahead of
//!   the moves keeping more than a third too (then) cost 13-20% more time and 30% more
//!   nodes: they seldom win, and their look-ahead is the costliest.
//! * Transposition trick: when move A is refuted by reply B (reaching `A ∩ B`) and A is still
//!   legal after B (`|B| > |A ∩ B|`), then B is refuted by reply A (both reach `A ∩ B`
//!   with the same player to move): every move `B` of the position with `A ∩ B` equal to
//!   the refuting position is marked won for its mover and skipped.
//!
//! Tried and dropped (measured on the 50 cached positions of about 5,000 solutions):
//!
//! * Sprague-Grundy decomposition. A position whose solution set is the product of its
//!   projections onto groups of moves (moves of different groups independent,
//!   `|A ∩ B|·n = |A|·|B|`, and the groups' atoms multiplying to `n`) is a disjunctive sum,
//!   lost iff the Grundy values of the parts XOR to 0. No root position splits; down
//!   random lines 0.3% split after one move, 2% after three, 10-30% after six to nine.
//!   In the search, 28% of the one-word positions of 6 or more solutions split (mean 14
//!   solutions), but solving them by Grundy values (memoised, components of at most 4, 8
//!   or 16 solutions) left the node count unchanged (349,116 against 351,028 on the
//!   slowest position) and the product test cost about 40% more CPU: the closed forms and
//!   the table already settle such small sums quickly.
//! * Ranking look-ahead moves by the total or largest size of their open replies instead
//!   of their number: within 1-2% of the nodes.
//! * In the slowest position the single winning first move (of 214) costs 85,484 nodes
//!   searched alone, the second most of all first moves (their median is 744); the whole
//!   search takes 351,028. An ordering by estimated cost would try it late, and even a
//!   perfect one would keep about a quarter of the nodes.
//! * Where the nodes go there: the 117 losing first moves cost 288,005 nodes, and within
//!   them the opponent tries 30 to 78 replies before the one that refutes (267,762 nodes
//!   in replies that fail, 82,901 in the refuting ones). In positions under 64 solutions
//!   the first move tried wins almost always; in larger ones 4 (64-127 solutions) to 17
//!   (512-1023) moves fail first. Refuting replies keep 10-50% of the position, winning
//!   first moves 17-55%, with no pattern in parity of size, free cells or move count.
//!   Orders tried to find them sooner, all worse (time over the 12 slowest positions):
//!   moves of over 64 solutions first (2.3x), largest first or reversed at the root only
//!   (2.8x), a history table of (cell, digit) moves that won anywhere (as tie-break or
//!   first key: not done in minutes), a look-ahead of the large moves too (+4% nodes at
//!   two words, +50% at all widths).
//! * Probing each move with a node budget (64, growing by 4x) before searching any
//!   whole, at positions of 128 or more solutions: 3x the nodes.
//! * Finding a narrow frame's moves from the solutions' digits instead of packing the
//!   parent's moves: 20% slower. (Reading table slots ahead of the lookups was slower then,
//!   before the lookups were gathered after the hashing; now it gains 4%.)
//! * The transposition trick for every pair of moves X, Y meeting in the refuting
//!   position (X refuted by Y), not only pairs with the refuted move: 2% fewer nodes, no
//!   faster. The first position's threads sharing the last refuting reply: no faster.
//!   Splitting every position of 256 (or 1,024) solutions or more among the threads (on
//!   rayon's pool): no faster than splitting the first, and a caller's other rayon work
//!   could then run inside a waiting search (a self-play test lost games on time).
//! * A depth-first proof-number search (df-pn) over the positions of more than 32 to
//!   1,024 solutions, smaller ones solved by this search: correct, but about as many
//!   expansions (re-visits included) and up to 3.5x the time on the two slowest positions,
//!   none of the settings faster on both (proof numbers starting at 1 or growing with a
//!   move's size, with or without the 1+ε threshold trick, ε = 1/4). It would need better
//!   starting numbers to pay.
//! * Tried in the session that added the claims and the third-of-the-position rule (time
//!   single-threaded on the seven slowest positions, about 3.8 s in all): looking ahead of
//!   moves of up to 128 solutions in two-word frames (+6-12%); trying the killer before
//!   the look-ahead (-2% nodes, +3% time); a look-ahead that keeps only the count, not the
//!   expansion (+6% nodes, +3% time); table buckets of one cache line, prefetching the
//!   table, the table on 2 MiB pages (no gain: the lookups wait on memory, not the TLB);
//!   a table of 32 slots per solution (entries lost, +40%) or 512 (slower; 64 is as
//!   fast as 128). Simulated from each first move's cost alone over 100 positions: the
//!   threads taking moves from both ends of the order (slower at the median and for
//!   half the positions' worst cases), probing replies with growing node budgets (6-7x:
//!   the winning moves are among the costliest), putting moves keeping under 5-15% of
//!   the position last (1.2-4x). Joining a move another thread has searched for over
//!   25-100 ms, instead of taking the next: no clear gain then (joining after 10 ms gains
//!   since, see the threads above).
//! * Tried in the session that moved the binary to mimalloc (time single-threaded on the
//!   seven slowest positions; wall time on two threads over the 50 bench positions, three
//!   runs each): the refuters of the last 2, 4 or 8 siblings tried first instead of the last
//!   one (+6%, +16%, +32% nodes: 10-15% of refutations repeat an older sibling's, but the
//!   tries that fail cost more); open moves keeping under a tenth or a twentieth of a
//!   position of 64 or more put after the others (within 1%: among the 24 costliest losing
//!   first moves of the slowest position, none of their 1,026 replies keeping under a tenth
//!   refutes, but those are cheap); ordering all open moves by size alone instead of by
//!   their open replies (within 0.2% of the nodes: the two orders nearly agree); the
//!   one-word hash by eight AVX-512 masked loads and XORs instead of a loop over the bits,
//!   and a x86-64-v3 copy of `settle` (each within 1-2%); one thread taking first moves
//!   from the end of the order, or a thread joining a busy move when the next is a large one
//!   (no change at the slowest position, mean within noise). The slowest position's
//!   winning first move (of 241) is the 191st; before it, one losing move of 1,198
//!   solutions with a single refuter among 222 replies, keeping 56% of it (so tried among
//!   the last), costs 47,504 nodes, more than half of what the winning move costs.
//! * Tried in the session that laid the one-solution test out word by word (time
//!   single-threaded on the seven slowest positions): 8 or 32 moves a step instead of 16
//!   (within noise); the table at 64 slots per solution (as fast) or 32 (entries lost, 1.5x);
//!   positions under 8, 12 or 16 solutions kept out of the table, to spare its cache misses
//!   (+13% nodes and 4-8% more time at 8, 17-27% more at 12 and 16); testing each move only
//!   against the moves not yet found open (no reply to an open move keeps one solution, so
//!   an open move is no such reply either), in two runs of columns: 7% slower.
//! * Tried in the session that made the threads join long searches (wall time on two
//!   threads for the slowest position, CPU time single-threaded on the seven slowest):
//!   all threads on one first move at a time, sharing its replies (10% faster on the
//!   slowest position, which is won, but 19% slower on a lost one); joining after 3 or
//!   30 ms instead of 10 (slower on the won position); looking ahead of every first move
//!   to order them (nodes halved on one of the seven, up 19-27% on two others); removing
//!   repeated moves in each expansion of under 16 or 32 solutions (no faster); no
//!   counting sort after the dedup (no faster); no look-ahead in one-word frames either
//!   (4% fewer nodes, as fast at 5,000 solutions, 35% slower at 500); the table at 64
//!   slots per solution (15% slower on two threads) or 256 (as fast); a plain store for
//!   table entries instead of a compare-and-swap (as fast); the one-solution test called
//!   once per position rather than once per move (as fast); never returning the
//!   allocator's memory to the system (fewer page faults, mean within noise).

use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::game::{Move, CELLS};

/// The verdict on a position: whether the player to move wins, and the move to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameResult {
    /// True when the player to move wins with best play.
    pub win: bool,
    /// A winning move when `win` (claimed when it leaves one solution); otherwise the legal
    /// move keeping the most solutions (the hardest to refute, as a try).
    pub best: Move,
    /// Solutions the best move keeps.
    pub remaining: usize,
    /// Positions searched (positions whose moves were generated; children settled by a
    /// closed form or the table are not counted).
    pub nodes: u64,
}

/// Largest frame width in 64-bit words (65,536 solutions).
const MAX_WIDTH: usize = 1024;

/// A numbering of some solutions: `ids[i]` is the hash id of the solution at bit `i` of a
/// set over this frame.
struct Frame {
    ids: Vec<u64>,
}

/// `PEXT8[m][x]`: the bits of `x` at the set bits of `m`, packed at the bottom.
static PEXT8: std::sync::LazyLock<Box<[[u8; 256]; 256]>> = std::sync::LazyLock::new(|| {
    let mut t = Box::new([[0u8; 256]; 256]);
    for (m, row) in t.iter_mut().enumerate() {
        for (x, out) in row.iter_mut().enumerate() {
            let mut k = 0;
            for b in 0..8 {
                if m >> b & 1 != 0 {
                    *out |= ((x >> b & 1) as u8) << k;
                    k += 1;
                }
            }
        }
    }
    t
});

/// Packs subsets of a set `set` into a frame numbering just the elements of `set`: the
/// element at the `q`-th set bit of `set` goes to bit `q`.
struct Packer {
    /// Whether the CPU has BMI2's PEXT: then `words` is filled, otherwise `bytes`.
    pext: bool,
    /// For each nonzero byte of `set`: its index, its value, and where its bits go.
    bytes: Vec<(u32, u8, u32)>,
    /// For each nonzero word of `set`: its index, its value, and where its bits go.
    words: Vec<(u32, u64, u32)>,
}

impl Packer {
    fn new(set: &[u64]) -> Packer {
        #[cfg(target_arch = "x86_64")]
        let pext = std::arch::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let pext = false;
        Packer::with(set, pext)
    }

    /// A packer using PEXT when `pext` (which the CPU must have).
    fn with(set: &[u64], pext: bool) -> Packer {
        let (mut bytes, mut words) = (Vec::new(), Vec::new());
        let mut at = 0;
        for (j, &w) in set.iter().enumerate() {
            if pext {
                if w != 0 {
                    words.push((j as u32, w, at));
                    at += w.count_ones();
                }
                continue;
            }
            for b in 0..8 {
                let m = (w >> (8 * b)) as u8;
                if m != 0 {
                    bytes.push(((8 * j + b) as u32, m, at));
                    at += m.count_ones();
                }
            }
        }
        Packer { bytes, words, pext }
    }

    /// `x ∩ set`, packed.
    fn pack<const V: usize>(&self, x: &[u64]) -> [u64; V] {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: the CPU has BMI2 (checked in `new`).
            return unsafe { self.pack_pext(x) };
        }
        let table = &**PEXT8;
        let mut out = [0u64; V];
        for &(b, m, at) in &self.bytes {
            let xb = (x[b as usize / 8] >> (8 * (b % 8))) as u8;
            let v = table[m as usize][xb as usize] as u64;
            let (j, r) = (at as usize / 64, at % 64);
            out[j] |= v << r;
            if r > 56 && j + 1 < V {
                out[j + 1] |= v >> (64 - r);
            }
        }
        out
    }

    /// [`pack`](Packer::pack) with BMI2's PEXT: one instruction a word.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn pack_pext<const V: usize>(&self, x: &[u64]) -> [u64; V] {
        let mut out = [0u64; V];
        for &(i, m, at) in &self.words {
            let v = std::arch::x86_64::_pext_u64(x[i as usize], m);
            let (j, r) = (at as usize / 64, at % 64);
            out[j] |= v << r;
            if r > 0 && j + 1 < V {
                out[j + 1] |= v >> (64 - r);
            }
        }
        out
    }
}

/// A move of a position: the solutions it keeps (a set over the frame), how many, and one
/// (cell, digit) that keeps them.
#[derive(Clone, Copy)]
struct Kid<const W: usize> {
    mask: [u64; W],
    count: u32,
    cell: u8,
    digit: u8,
}

/// The result of searching a position: won (with the winning move) or lost.
enum Verdict<const W: usize> {
    Win(Kid<W>),
    Loss,
}

/// A move of a position that neither a closed form nor the table settles: its index among
/// the position's moves, its hash, and its rank in the search order.
#[derive(Clone, Copy)]
struct Open {
    index: u32,
    hash: u64,
    rank: u32,
}

/// A position's moves, settled where a closed form or the table settles them.
enum Expansion<const W: usize> {
    /// Won by this move.
    Won(Kid<W>),
    /// Lost: every move is settled as won for the opponent.
    Lost,
    /// Undecided: the moves, and the open ones among them (distinct).
    Open(Vec<Kid<W>>, Vec<Open>),
}

/// Results by position hash, shared by the search threads: a flat open-addressing table
/// of 64-bit words, bit 0 set in every used slot, bit 1 the result (won for the player to
/// move), bits 2.. the hash. Its size is fixed; when the slots near a hash are all taken,
/// the result is not kept (it is a proven fact either way, only work is lost).
struct Table {
    slots: Box<[AtomicU64]>,
}

/// The slots of the last search's table, kept for the next search. Memory the process
/// has touched before is cheaper to clear than fresh memory, which the kernel has to
/// zero (with transparent huge pages, 2 MiB at a time).
static SPARE_TABLE: Mutex<Option<Box<[AtomicU64]>>> = Mutex::new(None);

impl Drop for Table {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        *SPARE_TABLE.lock().unwrap_or_else(|e| e.into_inner()) = Some(slots);
    }
}

/// How far from its home slot an entry may be.
const PROBES: usize = 16;

impl Table {
    /// A table with `slots` slots (a power of two): the last search's table when it has
    /// that size, cleared.
    fn new(slots: usize) -> Table {
        let spare = SPARE_TABLE.lock().unwrap_or_else(|e| e.into_inner()).take();
        match spare {
            Some(mut kept) if kept.len() == slots => {
                kept.iter_mut().for_each(|s| *s.get_mut() = 0);
                Table { slots: kept }
            }
            _ => Table { slots: (0..slots).map(|_| AtomicU64::new(0)).collect() },
        }
    }

    fn key(hash: u64) -> u64 {
        hash & !3
    }

    fn home(&self, hash: u64) -> usize {
        (hash >> 20) as usize & (self.slots.len() - 1)
    }

    fn get(&self, hash: u64) -> Option<bool> {
        let (mask, key) = (self.slots.len() - 1, Table::key(hash));
        let mut i = self.home(hash);
        for _ in 0..PROBES {
            let slot = self.slots[i].load(Relaxed);
            if slot == 0 {
                return None;
            }
            if slot & !3 == key {
                return Some(slot & 2 != 0);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Starts reading the home slot of `hash` into the cache.
    fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[self.home(hash)].as_ptr() as *const i8;
            // SAFETY: a prefetch reads nothing that Rust sees; the pointer is in the table.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
    }

    /// Records `win` for `hash` (keeps an existing entry).
    fn insert(&self, hash: u64, win: bool) {
        let (mask, key) = (self.slots.len() - 1, Table::key(hash));
        let entry = key | 1 | if win { 2 } else { 0 };
        let mut i = self.home(hash);
        for _ in 0..PROBES {
            match self.slots[i].compare_exchange(0, entry, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(slot) if slot & !3 == key => return,
                Err(_) => i = (i + 1) & mask,
            }
        }
    }
}

/// One thread's share of a search.
struct Search<'a> {
    sols: &'a [[u8; CELLS]],
    table: &'a Table,
    deadline: Option<Instant>,
    /// How long a first move is searched by one thread before another joins it (see
    /// [`Search::settle_parallel`]).
    join_after: Duration,
    /// Set when the search (or the part of it this thread works on) is to stop: the
    /// flags of the parallel positions this thread's work lies under.
    stops: Vec<&'a AtomicBool>,
    /// Claims shared with the other threads for the next position settled (the moves of
    /// a first move being searched by more than one thread): a thread searches a move it
    /// claims first and leaves the others' claims for last.
    share: Option<&'a Mutex<HashSet<u64>>>,
    nodes: u64,
    aborted: bool,
}

/// Whether the CPU has the x86-64-v3 features that the busiest functions are also
/// compiled for. Each has its own `_v3` copy calling an `#[inline(always)]` body: one
/// `#[target_feature]` function running a closure instead lost most of the gain (10%
/// slower), the closure's code not being compiled with the features.
static V3: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt") && has!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
});

/// Whether the CPU has AVX-512 with its popcount (x86-64-v4 and more), for which
/// [`has_single`] has a copy: 8 sets a step.
static V4: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx512f") && has!("avx512vpopcntdq") && has!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
});

/// The first position shares its moves among threads from this many solutions.
const PARALLEL_MIN: u32 = 256;

/// How long a first move is searched by one thread before a thread finishing its own move
/// joins it rather than taking the next (see [`Search::settle_parallel`]).
const JOIN_AFTER: Duration = Duration::from_millis(10);

fn and<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|i| a[i] & b[i])
}

fn count<const W: usize>(a: &[u64; W]) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

/// The sets of `kids` by word: word `w` of the `j`-th set at `w * kids.len() + j`, so that
/// a test of one set against all of them runs down whole words (8 sets a step on AVX-512).
fn columns<const W: usize>(kids: &[Kid<W>]) -> Vec<u64> {
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
fn has_single<const W: usize>(c: &[u64; W], columns: &[u64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if *V4 {
        // SAFETY: the CPU has the features (checked once in `V4`).
        return unsafe { has_single_v4(c, columns) };
    }
    has_single_any(c, columns)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
unsafe fn has_single_v4<const W: usize>(c: &[u64; W], columns: &[u64]) -> bool {
    has_single_any(c, columns)
}

/// [`has_single`] in plain code, 16 sets a step so that it vectorises.
#[inline(always)]
fn has_single_any<const W: usize>(c: &[u64; W], columns: &[u64]) -> bool {
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
fn gather<const W: usize>(len: usize, below: u32, mut make: impl FnMut(usize) -> Kid<W>) -> (Vec<Kid<W>>, bool) {
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
fn sort_dedup<const W: usize>(kids: &mut Vec<Kid<W>>) {
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

/// The frame width (words, a power of two) for a set of `n` solutions.
fn width_for(n: usize) -> usize {
    n.div_ceil(64).next_power_of_two()
}

/// Calls `f` with each set bit of `mask`, in order (plain loops rather than a flattened
/// iterator: the hashing, which runs through it, is the busiest loop of an expansion).
#[inline(always)]
fn for_each_bit(mask: &[u64], mut f: impl FnMut(usize)) {
    for (j, &w) in mask.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(64 * j + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

/// The set of the first `n` positions.
fn first<const W: usize>(n: usize) -> [u64; W] {
    std::array::from_fn(|j| match n.saturating_sub(64 * j).min(64) {
        64 => !0,
        r => (1u64 << r) - 1,
    })
}

/// The moves of the whole set `sols` (at most `64 * W` solutions), distinct, sorted.
fn first_moves<const W: usize>(sols: &[[u8; CELLS]]) -> Vec<Kid<W>> {
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

/// Solves the game over `solutions` (distinct, at least two, all agreeing on the filled
/// cells). `None` when the deadline passed first, or the set is degenerate (fewer than two
/// solutions, or more than 65,536).
pub fn solve_endgame(solutions: &[[u8; CELLS]], deadline: Option<Instant>) -> Option<EndgameResult> {
    solve_joining_after(solutions, deadline, JOIN_AFTER)
}

/// [`solve_endgame`], the threads joining a first move searched for `join_after` or more.
fn solve_joining_after(solutions: &[[u8; CELLS]], deadline: Option<Instant>, join_after: Duration) -> Option<EndgameResult> {
    if solutions.len() < 2 || solutions.len() > 64 * MAX_WIDTH {
        return None;
    }
    let mut x = 0x2545_F491_4F6C_DD1D_u64 ^ solutions.len() as u64;
    let ids = (0..solutions.len())
        .map(|_| {
            // splitmix64: independent ids, reproducible runs.
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect();
    let table = Table::new((solutions.len() * 128).clamp(1 << 16, 1 << 23).next_power_of_two());
    let mut search = Search { sols: solutions, table: &table, deadline, join_after, stops: Vec::new(), share: None, nodes: 0, aborted: false };
    let (win, cell, digit, count) = match width_for(solutions.len()) {
        1 => search.root::<1>(ids),
        2 => search.root::<2>(ids),
        4 => search.root::<4>(ids),
        8 => search.root::<8>(ids),
        16 => search.root::<16>(ids),
        32 => search.root::<32>(ids),
        64 => search.root::<64>(ids),
        128 => search.root::<128>(ids),
        256 => search.root::<256>(ids),
        512 => search.root::<512>(ids),
        _ => search.root::<MAX_WIDTH>(ids),
    }?;
    let best = Move::new(cell as usize, digit).with_claim(count == 1);
    Some(EndgameResult { win, best, remaining: count as usize, nodes: search.nodes })
}

impl<'a> Search<'a> {
    /// Solves the whole set (width `W`): (win, cell, digit, count) of the move to play.
    fn root<const W: usize>(&mut self, ids: Vec<u64>) -> Option<(bool, u8, u8, u32)> {
        let n = self.sols.len();
        let frame = Frame { ids };
        let kids = first_moves::<W>(self.sols);
        let all = first::<W>(n);
        let hash = frame.ids.iter().fold(0, |h, &id| h ^ id);
        match self.node(&frame, &all, n as u32, &kids, hash, None)? {
            Verdict::Win(k) => Some((true, k.cell, k.digit, k.count)),
            Verdict::Loss => {
                let k = kids.iter().max_by_key(|k| k.count)?;
                Some((false, k.cell, k.digit, k.count))
            }
        }
    }

    /// The hash of a set over `frame`.
    fn hash<const W: usize>(frame: &Frame, mask: &[u64; W]) -> u64 {
        let mut h = 0;
        for_each_bit(mask, |i| h ^= frame.ids[i]);
        h
    }

    /// The moves of the position `s` (`n` solutions, a set over `frame`) among `cands`
    /// (moves of its parent, or of the whole frame), settled where a closed form or the
    /// table settles them.
    ///
    /// Closed forms: two distinct solutions differ in some cell, where each has a digit the
    /// other lacks: a move keeping one. Three solutions differ in some cell, which splits
    /// them into groups of which one has a single solution. So a position of 2 or 3
    /// solutions is won at once, and a move keeping 2 or 3 loses. A position without a
    /// one-solution move keeps at least 2 of its solutions out of each move, so with 4 or 5
    /// solutions every move keeps 2 or 3: lost. More generally a position without a
    /// one-solution move whose every move is settled as won for the opponent is lost.
    fn expand<const W: usize>(&mut self, frame: &Frame, s: &[u64; W], n: u32, cands: &[Kid<W>]) -> Expansion<W> {
        #[cfg(target_arch = "x86_64")]
        if *V3 {
            // SAFETY: the CPU has the features (checked once in `V3`).
            return unsafe { self.expand_v3(frame, s, n, cands) };
        }
        self.expand_body(frame, s, n, cands)
    }

    /// [`expand`](Search::expand) compiled for x86-64-v3 (popcnt, BMI, AVX2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn expand_v3<const W: usize>(&mut self, frame: &Frame, s: &[u64; W], n: u32, cands: &[Kid<W>]) -> Expansion<W> {
        self.expand_body(frame, s, n, cands)
    }

    #[inline(always)]
    fn expand_body<const W: usize>(&mut self, frame: &Frame, s: &[u64; W], n: u32, cands: &[Kid<W>]) -> Expansion<W> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256)
            && (self.stops.iter().any(|s| s.load(Relaxed)) || self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|t| Instant::now() >= t))
        {
            self.aborted = true;
        }
        let (kids, single) = gather(cands.len(), n, |j| {
            let mask = and(s, &cands[j].mask);
            Kid { mask, count: count(&mask), ..cands[j] }
        });
        // (Only the first position can have a move keeping one solution: the others were
        // tested for one as moves of their parents.)
        if single {
            if let Some(k) = kids.iter().find(|k| k.count == 1) {
                return Expansion::Won(*k);
            }
        }
        if n <= 5 {
            return Expansion::Lost;
        }
        let mut open = Vec::new();
        let cols = columns(&kids);
        for (i, kid) in kids.iter().enumerate() {
            if kid.count <= 3 || has_single(&kid.mask, &cols) {
                continue; // the opponent claims
            }
            if kid.count <= 5 {
                return Expansion::Won(*kid);
            }
            let h = Search::hash(frame, &kid.mask);
            self.table.prefetch(h);
            open.push(Open { index: i as u32, hash: h, rank: kid.count });
        }
        let mut lost = None;
        open.retain(|o| match self.table.get(o.hash) {
            Some(false) => {
                lost.get_or_insert(o.index);
                false
            }
            Some(true) => false,
            None => true,
        });
        if let Some(i) = lost {
            return Expansion::Won(kids[i as usize]);
        }
        if open.is_empty() {
            return Expansion::Lost;
        }
        // Equal moves: keep one.
        open.sort_unstable_by_key(|o| (o.rank as u128) << 64 | o.hash as u128);
        open.dedup_by(|a, b| a.hash == b.hash);
        Expansion::Open(kids, open)
    }

    /// Solves the position `s` (`n` solutions, a set over `frame`, hash `hash`) whose moves
    /// are among `cands` (see [`expand`](Search::expand)), trying `killer` (a set over the
    /// frame: the move that refuted a sibling) first. `None` when aborted.
    fn node<const W: usize>(
        &mut self,
        frame: &Frame,
        s: &[u64; W],
        n: u32,
        cands: &[Kid<W>],
        hash: u64,
        killer: Option<[u64; W]>,
    ) -> Option<Verdict<W>> {
        let e = self.expand(frame, s, n, cands);
        self.settle(frame, s, n, hash, e, killer)
    }

    /// [`node`](Search::node) from the expansion `e` of `s`.
    fn settle<const W: usize>(
        &mut self,
        frame: &Frame,
        s: &[u64; W],
        n: u32,
        hash: u64,
        e: Expansion<W>,
        killer: Option<[u64; W]>,
    ) -> Option<Verdict<W>> {
        let share = self.share.take();
        if self.aborted {
            return None;
        }
        let (kids, open) = match e {
            Expansion::Won(kid) => {
                self.table.insert(hash, true);
                return Some(Verdict::Win(kid));
            }
            Expansion::Lost => {
                self.table.insert(hash, false);
                return Some(Verdict::Loss);
            }
            Expansion::Open(kids, open) => (kids, open),
        };
        let mut won = vec![false; kids.len()];
        // Order: in a one-word frame, look one move ahead of each open move keeping at most
        // a third of this position. A move whose own moves are all settled is lost (a win
        // here); one with a move settled as lost is won (skipped); the others go by how many
        // of their moves are open, fewest first, before the moves not looked at (by count).
        // The expansions are kept for the search.
        let alone = open.len() == 1;
        let mut order: Vec<(Open, Option<Expansion<W>>)> = Vec::with_capacity(open.len());
        for o in open {
            let kid = &kids[o.index as usize];
            let ahead = (W == 1 && !alone && kid.count * 3 <= n).then(|| self.expand(frame, &kid.mask, kid.count, &kids));
            let rank = match &ahead {
                Some(Expansion::Won(_)) => {
                    self.table.insert(o.hash, true);
                    continue;
                }
                Some(Expansion::Lost) => {
                    self.table.insert(o.hash, false);
                    self.table.insert(hash, true);
                    return Some(Verdict::Win(*kid));
                }
                Some(Expansion::Open(_, o2)) => o2.len() as u32,
                None => u32::MAX,
            };
            order.push((Open { rank, ..o }, ahead));
        }
        order.sort_by_key(|(o, _)| o.rank);
        if let Some(k) = killer {
            let k = and(s, &k);
            if let Some(p) = order.iter().position(|(o, _)| kids[o.index as usize].mask == k) {
                order[..=p].rotate_right(1);
            }
        }
        if n >= PARALLEL_MIN && n as usize == self.sols.len() && order.len() > 1 {
            let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
            if threads > 1 {
                return self.settle_parallel(frame, hash, &kids, order.into_iter().map(|(o, _)| o).collect(), threads);
            }
        }
        let mut killer = None;
        let mut deferred = Vec::new();
        let mut order = order.into_iter();
        while let Some((o, ahead)) = order.next().or_else(|| deferred.pop()) {
            let (i, h) = (o.index as usize, o.hash);
            let kid = kids[i];
            match self.table.get(h) {
                _ if won[i] => continue,
                Some(true) => continue,
                Some(false) => {
                    self.table.insert(hash, true);
                    return Some(Verdict::Win(kid));
                }
                None => {}
            }
            if let Some(claims) = share {
                let claimed = claims.lock().unwrap_or_else(|e| e.into_inner()).insert(h);
                if !claimed && order.len() > 0 {
                    deferred.insert(0, (o, ahead)); // another thread's: after the rest
                    continue;
                }
            }
            let reply = match ahead {
                None => self.child(frame, &kid, &kids, h, killer)?,
                Some(e) => match self.settle(frame, &kid.mask, kid.count, h, e, killer)? {
                    Verdict::Win(r) => Some(r.mask),
                    Verdict::Loss => None,
                },
            };
            let Some(reply) = reply else {
                self.table.insert(hash, true);
                return Some(Verdict::Win(kid));
            };
            killer = self.refuted(frame, &kids, &kid, &reply, &mut won);
        }
        self.table.insert(hash, false);
        Some(Verdict::Loss)
    }

    /// Records what the refutation of `kid` by `reply` (a subset of it; both moves of a
    /// position whose moves are `kids`) shows, and returns the move to try first against
    /// `kid`'s next sibling: every move B with kid ∩ B = reply and B larger than `reply` is
    /// refuted by `kid` in turn (marked in `won` and the table).
    fn refuted<const W: usize>(&self, frame: &Frame, kids: &[Kid<W>], kid: &Kid<W>, reply: &[u64; W], won: &mut [bool]) -> Option<[u64; W]> {
        #[cfg(target_arch = "x86_64")]
        if *V3 {
            // SAFETY: the CPU has the features (checked once in `V3`).
            return unsafe { self.refuted_v3(frame, kids, kid, reply, won) };
        }
        self.refuted_body(frame, kids, kid, reply, won)
    }

    /// [`refuted`](Search::refuted) compiled for x86-64-v3 (popcnt, BMI, AVX2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn refuted_v3<const W: usize>(&self, frame: &Frame, kids: &[Kid<W>], kid: &Kid<W>, reply: &[u64; W], won: &mut [bool]) -> Option<[u64; W]> {
        self.refuted_body(frame, kids, kid, reply, won)
    }

    #[inline(always)]
    fn refuted_body<const W: usize>(&self, frame: &Frame, kids: &[Kid<W>], kid: &Kid<W>, reply: &[u64; W], won: &mut [bool]) -> Option<[u64; W]> {
        let r = count(reply);
        let mut killer = None;
        for (j, b) in kids.iter().enumerate() {
            if and(&b.mask, &kid.mask) == *reply {
                killer.get_or_insert(b.mask);
                if b.count > r && !won[j] {
                    won[j] = true;
                    self.table.insert(Search::hash(frame, &b.mask), true);
                }
            }
        }
        killer
    }

    /// [`settle`](Search::settle) on `threads` threads: they take the open moves `open` in
    /// order (each searched whole); a thread done with a move joins one another thread has
    /// searched for `join_after` ([`JOIN_AFTER`]) or more (or any, when none is left to
    /// take), the two sharing its replies by claims (see [`Search::share`]); a move settled
    /// by one thread stops the others' search of it, and the first thread to find a lost
    /// move stops them all. (Joining long searches spares the work on moves after a winning
    /// one, which is among the costliest, while it is searched: 10-30% less time on the
    /// slowest position.)
    fn settle_parallel<const W: usize>(&mut self, frame: &Frame, hash: u64, kids: &[Kid<W>], open: Vec<Open>, threads: usize) -> Option<Verdict<W>> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let aborted = AtomicBool::new(false);
        let winner: Mutex<Option<Kid<W>>> = Mutex::new(None);
        let nodes = AtomicU64::new(0);
        // Per open move: settled (by any thread), and the claims on its replies.
        let done: Vec<AtomicBool> = open.iter().map(|_| AtomicBool::new(false)).collect();
        let claims: Vec<Mutex<HashSet<u64>>> = open.iter().map(|_| Mutex::new(HashSet::new())).collect();
        // Per thread: the open move it is searching (`usize::MAX` for none), and since when
        // (microseconds after `clock`).
        let busy: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(usize::MAX)).collect();
        let since: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let clock = Instant::now();
        let (sols, table, deadline, join_after) = (self.sols, self.table, self.deadline, self.join_after);
        let stops: Vec<&AtomicBool> = self.stops.iter().copied().chain([&stop]).collect();
        let work = |me: usize| {
            let mut search = Search { sols, table, deadline, join_after, stops: stops.clone(), share: None, nodes: 0, aborted: false };
            let mut won = vec![false; kids.len()];
            let mut killer = None;
            while !stop.load(Relaxed) {
                // The move another thread has searched longest, when for `join_after` or
                // more; else the next move; else any move another thread is searching.
                let now = clock.elapsed().as_micros() as u64;
                let others = || {
                    (0..threads)
                        .filter(|&t| t != me)
                        .map(|t| (busy[t].load(Relaxed), since[t].load(Relaxed)))
                        .filter(|&(j, _)| j < open.len() && !done[j].load(Relaxed))
                };
                let long = others().filter(|&(_, t)| now.saturating_sub(t) >= join_after.as_micros() as u64).min_by_key(|&(_, t)| t);
                let i = match long.map(|(j, _)| j) {
                    Some(j) => j,
                    None => match next.fetch_add(1, Relaxed) {
                        i if i < open.len() => i,
                        _ => match others().next() {
                            Some((j, _)) => j,
                            None => break,
                        },
                    },
                };
                let (index, h) = (open[i].index as usize, open[i].hash);
                let kid = kids[index];
                let result = match table.get(h) {
                    _ if won[index] => Some(Some(kid.mask)),
                    Some(true) => Some(Some(kid.mask)),
                    Some(false) => Some(None),
                    None => {
                        since[me].store(clock.elapsed().as_micros() as u64, Relaxed);
                        busy[me].store(i, Relaxed);
                        let result = search.first_move(&done[i], &claims[i], |s| s.child(frame, &kid, kids, h, killer));
                        busy[me].store(usize::MAX, Relaxed);
                        result
                    }
                };
                match result {
                    // Refuted (the reply is only known when this thread refuted it).
                    Some(Some(reply)) => {
                        done[i].store(true, Relaxed);
                        if reply != kid.mask {
                            killer = search.refuted(frame, kids, &kid, &reply, &mut won);
                            // Moves the refutation settles that another thread is searching.
                            for b in &busy {
                                let j = b.load(Relaxed);
                                if j < open.len() && table.get(open[j].hash) == Some(true) {
                                    done[j].store(true, Relaxed);
                                }
                            }
                        }
                    }
                    Some(None) => {
                        winner.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(kid);
                        stop.store(true, Relaxed);
                    }
                    // Settled by another thread meanwhile: go on.
                    None if done[i].load(Relaxed) && !stop.load(Relaxed) && deadline.is_none_or(|t| Instant::now() < t) => {}
                    None => {
                        aborted.store(true, Relaxed);
                        break;
                    }
                }
            }
            nodes.fetch_add(search.nodes, Relaxed);
        };
        std::thread::scope(|scope| {
            for t in 1..threads {
                scope.spawn(move || work(t));
            }
            work(0);
        });
        self.nodes += nodes.into_inner();
        if let Some(kid) = winner.into_inner().unwrap_or_else(|e| e.into_inner()) {
            self.table.insert(hash, true);
            return Some(Verdict::Win(kid));
        }
        if aborted.into_inner() {
            self.aborted = true;
            return None;
        }
        self.table.insert(hash, false);
        Some(Verdict::Loss)
    }

    /// Runs `search` (of a first move searched among threads) under the stop `done` (set
    /// when another thread settles the move) and with `claims` on the move's replies, and
    /// leaves this search ready for the next move: a result is proven even when the stop
    /// came during its last expansions, and that stop must not end the next move.
    fn first_move<R>(&mut self, done: &'a AtomicBool, claims: &'a Mutex<HashSet<u64>>, search: impl FnOnce(&mut Self) -> R) -> R {
        self.stops.push(done);
        self.share = Some(claims);
        let result = search(self);
        self.aborted = false;
        self.stops.pop();
        self.share = None;
        result
    }

    /// Searches the move `kid` of a position whose moves are `kids` (sets over `frame`),
    /// in a narrower frame when it fits one. `Some(None)` when `kid` is lost for its
    /// mover, `Some(Some(reply))` with the refuting reply's position (over `frame`) when
    /// won, `None` when aborted.
    fn child<const W: usize>(
        &mut self,
        frame: &Frame,
        kid: &Kid<W>,
        kids: &[Kid<W>],
        hash: u64,
        killer: Option<[u64; W]>,
    ) -> Option<Option<[u64; W]>> {
        let w = width_for(kid.count as usize);
        if w >= W {
            return Some(match self.node(frame, &kid.mask, kid.count, kids, hash, killer)? {
                Verdict::Win(r) => Some(r.mask),
                Verdict::Loss => None,
            });
        }
        match w {
            1 => self.narrow::<W, 1>(frame, kid, kids, hash, killer),
            2 => self.narrow::<W, 2>(frame, kid, kids, hash, killer),
            4 => self.narrow::<W, 4>(frame, kid, kids, hash, killer),
            8 => self.narrow::<W, 8>(frame, kid, kids, hash, killer),
            16 => self.narrow::<W, 16>(frame, kid, kids, hash, killer),
            32 => self.narrow::<W, 32>(frame, kid, kids, hash, killer),
            64 => self.narrow::<W, 64>(frame, kid, kids, hash, killer),
            128 => self.narrow::<W, 128>(frame, kid, kids, hash, killer),
            256 => self.narrow::<W, 256>(frame, kid, kids, hash, killer),
            _ => self.narrow::<W, 512>(frame, kid, kids, hash, killer),
        }
    }

    /// The frame of width `V` numbering the solutions of `kid` (a move over `frame`) in
    /// order, and its moves: the parent's moves `kids`, packed (distinct, sorted).
    fn narrow_frame<const W: usize, const V: usize>(&self, frame: &Frame, kid: &Kid<W>, kids: &[Kid<W>]) -> (Frame, Vec<Kid<V>>) {
        #[cfg(target_arch = "x86_64")]
        if *V3 {
            // SAFETY: the CPU has the features (checked once in `V3`).
            return unsafe { self.narrow_frame_v3(frame, kid, kids) };
        }
        self.narrow_frame_body(frame, kid, kids)
    }

    /// [`narrow_frame`](Search::narrow_frame) compiled for x86-64-v3 (popcnt, BMI, AVX2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn narrow_frame_v3<const W: usize, const V: usize>(&self, frame: &Frame, kid: &Kid<W>, kids: &[Kid<W>]) -> (Frame, Vec<Kid<V>>) {
        self.narrow_frame_body(frame, kid, kids)
    }

    #[inline(always)]
    fn narrow_frame_body<const W: usize, const V: usize>(&self, frame: &Frame, kid: &Kid<W>, kids: &[Kid<W>]) -> (Frame, Vec<Kid<V>>) {
        let packer = Packer::new(&kid.mask);
        let mut ids = Vec::with_capacity(kid.count as usize);
        for_each_bit(&kid.mask, |p| ids.push(frame.ids[p]));
        let sub = Frame { ids };
        let (mut moves, _) = gather(kids.len(), kid.count, |j| {
            let mask = packer.pack::<V>(&kids[j].mask);
            Kid { mask, count: count(&mask), cell: kids[j].cell, digit: kids[j].digit }
        });
        sort_dedup(&mut moves);
        (sub, moves)
    }

    /// [`child`](Search::child) in a new frame of width `V` numbering the solutions of
    /// `kid`.
    fn narrow<const W: usize, const V: usize>(
        &mut self,
        frame: &Frame,
        kid: &Kid<W>,
        kids: &[Kid<W>],
        hash: u64,
        killer: Option<[u64; W]>,
    ) -> Option<Option<[u64; W]>> {
        let (sub, moves) = self.narrow_frame::<W, V>(frame, kid, kids);
        let killer = killer.map(|k| repack::<W, V>(&k, &kid.mask));
        Some(match self.node(&sub, &first::<V>(kid.count as usize), kid.count, &moves, hash, killer)? {
            Verdict::Win(r) => Some(unpack(&r.mask, &kid.mask)),
            Verdict::Loss => None,
        })
    }
}

/// The part of `set` within `within` (sets over a wider frame) as a set over the narrower
/// frame numbering the elements of `within` in order, bit by bit (for the rare sets that
/// cross frames; [`Packer`] packs the many): the inverse of [`unpack`].
fn repack<const W: usize, const V: usize>(set: &[u64; W], within: &[u64; W]) -> [u64; V] {
    let (mut m, mut q) = ([0u64; V], 0);
    for_each_bit(within, |p| {
        m[q / 64] |= (set[p / 64] >> (p % 64) & 1) << (q % 64);
        q += 1;
    });
    m
}

/// The set over a wider frame of a set `packed` over the narrower frame numbering the
/// elements of `within` (a set over the wider frame) in order.
fn unpack<const V: usize, const W: usize>(packed: &[u64; V], within: &[u64; W]) -> [u64; W] {
    let (mut m, mut q) = ([0u64; W], 0);
    for_each_bit(within, |p| {
        m[p / 64] |= (packed[q / 64] >> (q % 64) & 1) << (p % 64);
        q += 1;
    });
    m
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// A table kept from one search starts the next one empty. (Other tests' tables may
    /// take the spare's place between the two here; then the second table is new, and
    /// empty too. Their smallest size is 2^16 slots; this one is smaller.)
    #[test]
    fn kept_table_is_cleared() {
        for round in 0..20u64 {
            let hashes: Vec<u64> = (1..=100).map(|i: u64| (i + 100 * round).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
            {
                let table = Table::new(1 << 10);
                hashes.iter().for_each(|&h| table.insert(h, true));
                assert!(hashes.iter().all(|&h| table.get(h) == Some(true)));
            }
            let table = Table::new(1 << 10);
            assert!(hashes.iter().all(|&h| table.get(h).is_none()), "round {round}: an entry of the last search is still there");
        }
    }

    /// Threads joining each other's first moves at once (the most replies shared by claims,
    /// and the most searches stopped halfway by a move settled elsewhere) reach the usual
    /// verdicts, and their winning moves win. (Needs two processors to test anything.)
    #[test]
    fn joining_at_once_agrees() {
        let positions = crate::games::sudoku_duel::endgame_positions(300, 2000, 40, 21);
        let mut wins = 0;
        for sols in &positions {
            let usual = solve_endgame(sols, None).unwrap();
            let joining = solve_joining_after(sols, None, Duration::ZERO).unwrap();
            assert_eq!(joining.win, usual.win, "{} solutions", sols.len());
            if joining.win {
                wins += 1;
                let child: Vec<[u8; CELLS]> = sols.iter().filter(|s| s[joining.best.cell as usize] == joining.best.digit).copied().collect();
                assert!(child.len() == 1 || !solve_endgame(&child, None).unwrap().win, "the winning move does not win");
            }
        }
        assert!(wins > 0 && wins < positions.len(), "{wins} wins of {}: the positions are not varied", positions.len());
    }

    /// A random set of `W` words, about a quarter of its bits set.
    fn sparse<const W: usize>(rng: &mut StdRng) -> [u64; W] {
        std::array::from_fn(|_| rng.random::<u64>() & rng.random::<u64>())
    }

    /// `gather` keeps the moves keeping 1..below solutions, in order, and tells whether one
    /// keeps a single solution; `sort_dedup` then keeps one move of each set, by count (through
    /// the hash set up to four words, the sort beyond).
    #[test]
    fn moves_are_gathered_distinct_and_sorted() {
        fn check<const W: usize>(rng: &mut StdRng) {
            for round in 0..200 {
                let pool: Vec<[u64; W]> = (0..rng.random_range(1..40)).map(|_| sparse::<W>(rng)).collect();
                let len = rng.random_range(0..256);
                let below = rng.random_range(2..64 * W as u32);
                let made: Vec<Kid<W>> = (0..len)
                    .map(|j| {
                        let mut mask = pool[rng.random_range(0..pool.len())];
                        if rng.random_range(0..8) == 0 {
                            mask = [0; W];
                            mask[rng.random_range(0..W)] = 1 << rng.random_range(0..64);
                        }
                        Kid { mask, count: count(&mask), cell: j as u8, digit: 1 }
                    })
                    .collect();
                let (mut kids, single) = gather(len, below, |j| made[j]);
                let expected: Vec<Kid<W>> = made.iter().filter(|k| k.count >= 1 && k.count < below).copied().collect();
                assert_eq!(kids.iter().map(|k| k.cell).collect::<Vec<_>>(), expected.iter().map(|k| k.cell).collect::<Vec<_>>(), "round {round}");
                assert_eq!(single, made.iter().any(|k| k.count == 1));
                sort_dedup(&mut kids);
                let sets: HashSet<[u64; W]> = expected.iter().map(|k| k.mask).collect();
                assert_eq!(kids.len(), sets.len(), "round {round}: repeats kept or sets lost");
                assert_eq!(kids.iter().map(|k| k.mask).collect::<HashSet<_>>(), sets);
                assert!(kids.windows(2).all(|p| p[0].count <= p[1].count), "round {round}: not ordered by count");
                assert!(kids.iter().all(|k| made[k.cell as usize].mask == k.mask), "round {round}: a move lost its cell");
            }
        }
        let mut rng = StdRng::seed_from_u64(12);
        check::<1>(&mut rng);
        check::<2>(&mut rng);
        check::<4>(&mut rng);
        check::<8>(&mut rng);
    }

    /// Both ways of packing (bytes through the table, words through PEXT where the CPU has
    /// it) agree with packing bit by bit.
    #[test]
    fn packing_agrees_with_bit_by_bit() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..200 {
            let set = sparse::<4>(&mut rng);
            let part = sparse::<4>(&mut rng);
            let expected: [u64; 4] = repack(&part, &set);
            assert_eq!(unpack(&expected, &set), and(&part, &set));
            assert_eq!(Packer::with(&set, false).pack::<4>(&part), expected);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                assert_eq!(Packer::with(&set, true).pack::<4>(&part), expected);
            }
        }
    }

    /// A first move's search leaves no stop standing for the thread's next move, whether
    /// the stop cut it short or the move was settled all the same (stops are read every
    /// 256 nodes, and the last expansions may still settle the move). A stop once stayed
    /// standing after a settled move, and the next move's search then gave no verdict.
    #[test]
    fn first_move_leaves_no_stop_standing() {
        let positions = crate::games::sudoku_duel::endgame_positions(200, 500, 3, 9);
        let raised = AtomicBool::new(true);
        let claims = Mutex::new(HashSet::new());
        let mut read = 0;
        for sols in &positions {
            let ids: Vec<u64> = (1..=sols.len() as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
            let frame = Frame { ids };
            let kids = first_moves::<8>(sols);
            let table = Table::new(1 << 16);
            for kid in &kids {
                for start in (0..256).step_by(15) {
                    let mut search =
                        Search { sols, table: &table, deadline: None, join_after: JOIN_AFTER, stops: Vec::new(), share: None, nodes: start, aborted: false };
                    let hash = Search::hash(&frame, &kid.mask);
                    search.first_move(&raised, &claims, |s| s.child(&frame, kid, &kids, hash, None));
                    // Past node 256 the search read the raised stop.
                    if search.nodes >= 256 {
                        read += 1;
                        assert!(!search.aborted, "a stop is still standing after the move");
                        assert!(search.stops.is_empty() && search.share.is_none());
                    }
                }
            }
        }
        assert!(read > 0, "no search read its stop");
    }

    /// Whether `a ∩ b` has exactly one element: one word of it is not zero, and that one is a
    /// power of two.
    fn single<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
        let (mut nonzero, mut more) = (0u32, 0u64);
        for i in 0..W {
            let x = a[i] & b[i];
            nonzero += (x != 0) as u32;
            more |= x & x.wrapping_sub(1);
        }
        nonzero == 1 && more == 0
    }

    /// The single test over columns (vectorised where it can be) agrees with the pairwise
    /// one, at one and several words.
    #[test]
    fn single_test_agrees() {
        fn check<const W: usize>(rng: &mut StdRng, seen: &mut [u32; 2]) {
            for len in 0..40 {
                let kids: Vec<Kid<W>> = (0..len).map(|_| Kid { mask: sparse::<W>(rng), count: 0, cell: 0, digit: 0 }).collect();
                let cols = columns(&kids);
                for _ in 0..20 {
                    let c = and(&sparse::<W>(rng), &sparse::<W>(rng));
                    let pairwise = kids.iter().any(|k| single(&c, &k.mask));
                    assert_eq!(has_single(&c, &cols), pairwise);
                    assert_eq!(has_single_any(&c, &cols), pairwise);
                    seen[pairwise as usize] += 1;
                }
            }
        }
        let mut seen = [0; 2];
        let mut rng = StdRng::seed_from_u64(11);
        check::<1>(&mut rng, &mut seen);
        check::<2>(&mut rng, &mut seen);
        check::<4>(&mut rng, &mut seen);
        assert!(seen[0] > 100 && seen[1] > 100, "both answers tested: {seen:?}");
    }
}
