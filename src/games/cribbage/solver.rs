//! Exact solver: the best final score from any state, and one line reaching it.
//!
//! # Algorithm
//!
//! A forward dynamic programme over *merged* per-card states, pruned by an admissible bound (branch and bound,
//! below). A state is `(c, t, p)`: `c` the number of cards left in each column, `t` the stack total and `p` the
//! part of the stack's top that can still score. The cards played so far are fixed by `c`, but the order they
//! went in is not; states reached by different orders merge when their `(t, p)` agree, keeping the best score
//! so far (and a back-pointer for the line). This is exact because the future depends on the past only through
//! `(c, t, p)`:
//!
//! * Sets: the top rank and how many cards of it are contiguous at the top (`k`, capped at 4). Kept only while
//!   a playable card has that rank and fits the room `31 - t` (a set grows only by the very next card).
//! * Runs: the longest suffix of the stack whose ranks are distinct (`seq`, top first). A future run ending at
//!   a later card consists of all the cards played since now plus some old top suffix `S`; those new cards are
//!   distinct ranks completing `S` to a consecutive range of 3 to 7 ranks. So the next card is a playable card
//!   that fits and is missing from `S`, and the rest of the range must be affordable (values within the room)
//!   from ranks still within reach. `seq` is cut to the longest suffix passing this necessary test, so stacks
//!   that agree on the cut suffix have the same future. Suffixes beyond a duplicate or with a span over 6 are
//!   never part of a run.
//! * When no playable card fits the room the stack must end: the state becomes `(c, 0, empty)`, so every
//!   stack that ends at the same `c` merges into one stack-boundary state (the new stack is implicit).
//!
//! The run cut looks one card ahead exactly: for a playable card `y` that could come next, the rest of the
//! range must be reachable *after* `y` (its column then starts one card further back) within the room left
//! after `y`. Both are necessary conditions for a future run through `S`, so the cut loses nothing.
//!
//! The states of each `c` are built at once from those of its (at most four) predecessors `c + e_j` in one
//! small open-addressing table, visiting `c` in decreasing mixed-radix index order (a predecessor always has a
//! larger index). Points are computed from `(t, k, seq)` alone. The per-position reach masks are combined on
//! demand from per-column tables.
//!
//! # Dominance
//!
//! Once the states of a position are built, a state whose pattern is empty (nothing on its stack can score
//! again: the key is the total alone) is dropped when another state of the same `(c, t)` has at least its
//! score. Exact: both have the same legal continuations (legality depends on `(c, t)` only), and on every
//! continuation each card scores at least as much over a non-empty pattern as over an empty one (15/31 and
//! the Jack bonus depend on the totals only; a set or run at the top made of new cards is still there, and
//! old cards below can only lengthen it, and only the longest run counts). So the other state's best future is
//! at least the dropped one's, with at least its score.
//!
//! # Branch and bound
//!
//! `bound.rs` computes, once per solve, an upper bound `U` on the points still obtainable from any state whose
//! stack was started during the search (all its cards came from the columns): the exact optimum of a relaxed
//! game that remembers only the top two cards of the stack (and whether the top three are a set), scoring
//! runs optimistically for the forgotten cards below (see its docs for why every real line scores at most that
//! in the relaxed game). A forward pass with a *floor* `F` drops every new state with `score + U < F`.
//!
//! * If the optimum `O` is at least `F`, the pass finds it: along an optimal line every state has
//!   `score + U ≥ score + (best future) = O ≥ F`, so none is dropped by the floor; merging keeps a state with
//!   the same key and at least the score, and dominance one with at least the same best future, and such a
//!   state also passes the floor (its `score + U` is at least its `score + best future`, which is at least
//!   `O`, as `U` bounds the future of every stack with the same top). By induction over the cards a state with
//!   `score + best future ≥ O` survives at every step, and at the end that is a line scoring `O`.
//! * Every line the pass finds is real, so its best `B ≤ O`. Hence `B ≥ F` proves `B = O`, and `B < F` (or
//!   no line) proves `O < F`.
//!
//! `solve` runs passes with decreasing floors, starting a little under the bound of the start, until one's
//! best reaches its floor. After a failed pass, a beam search from its deepest states (following real moves)
//! gives a real line; when that line is close under the floor, the next floor is its score (a pass that cannot
//! fail), otherwise the floor steps down. The states of a given non-empty stack (a mid-game state) have no
//! bound and are never dropped; the first pass then only gathers them for the beam search.
//!
//! # Speed
//!
//! The cut tests use a precomputed table per 13-bit rank set (span, gaps and their values, the neighbour
//! ranks), and the duplicate of the new card in `seq` is found with a word-parallel nibble compare. A pass
//! first checks a state against the floor with its points bounded from the key (sets exact, any run at most
//! 7), so most dropped states cost no `step`; the bound table of the positions a little ahead is prefetched.
//! Since the run rule checks every card below the top two (see `bound`), the bound of the start exceeds the
//! optimum by 6.2 on average on deals 1–2000 (it was 18 when only `r3`, `r4` were checked; deal 62: 11, was
//! 30); on deals 1–300 the passes keep 5.6 k states a deal (was 72 k; the exhaustive programme had 1.2 M).
//! The bound table is now about 80% of the time, most of it the run checks (not memory: huge pages for the
//! table gained 2–3%, not kept).
//!
//! Tried and not kept (deals 1–300, node counts are deterministic, times noisy on a shared machine): a first
//! floor from a beam search from the start guided by the bound (width 256 or 1024: its line is 4 and 2 under
//! the optimum on average, but a single pass at such a floor keeps more states than the failed pass plus the
//! pass at the next floor, and the wide beam itself costs 5–15 ms); with the looser bound, floor steps of 3 or
//! 4 instead of 6 (20% and 11% more states) and first gaps of 8–16 (within 5% of 10); beam widths of 128 or
//! 512 after a failed pass (no floor changes); a branch-free run-range loop in the bound table (no gain with
//! the old run rule, 8% slower with the new one); skipping a move's run checks when even its longest run
//! could not raise the row (no gain); prefetching the successor rows 4 or 16 positions ahead instead of 8 (no change).
//!
//! # Tests
//!
//! Every solution is replayed with the rules engine; the optimum is compared with a plain exhaustive search on
//! small random deals and mid-game states, with the known scores of deals 1, 30, 969 and 1031, and with the
//! previous solver (kept in `solver_reference.rs`, test builds only) on deals 1–50 and mid-game states of
//! deals 60–74. The bound is checked to be at least the exhaustive best remaining score on random small
//! mid-game states and late positions of real deals.

use std::cell::RefCell;

use super::cards::Rank;
use super::rules::{State, LIMIT};

mod bound;
use bound::{Bound, SINGLE, TRIPLE};

/// The best line from a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score, the state's score included.
    pub score: u32,
    /// One line reaching it: column digits `1`–`4`, `_` where a new stack starts (a leading `_` when the
    /// state's stack is non-empty and no card fits it).
    pub line: String,
    /// Merged DP states kept, summed over the passes.
    pub nodes: u64,
}

pub(super) const JACK: u32 = Rank::JACK.index() as u32;
pub(super) const SET_POINTS: [u32; 5] = [0, 0, 2, 6, 12];

pub(super) const fn rank_value(r: u32) -> u32 {
    if r >= 9 {
        10
    } else {
        r + 1
    }
}

const fn build_valsum() -> [u8; 8192] {
    let mut table = [0u8; 8192];
    let mut mask = 1usize;
    while mask < 8192 {
        let low = mask.trailing_zeros();
        table[mask] = table[mask & (mask - 1)] + rank_value(low) as u8;
        mask += 1;
    }
    table
}

/// Sum of the values of the ranks in a 13-bit mask.
pub(super) static VALSUM: [u8; 8192] = build_valsum();

// Key layout: bits 0–4 total, 5–7 set count k, 8–11 set rank, 12–14 seq length m, 16.. seq (4 bits a rank,
// the top card in the lowest nibble).
pub(super) const T_MASK: u64 = 31;

/// All ranks (the permissive reach row).
static ALL_RANKS: [u32; 32] = [0x1FFF; 32];

/// What the solver knows about a position (the cards left) when cutting stack keys: views into the per-column
/// reach tables, combined on demand.
struct Here<'a> {
    /// The reach row (indexed by room) of each column at this position: the ranks of its front cards that
    /// could join a stack with that much room (every card in front of them in the column going first).
    rows: [&'a [u32; 32]; 4],
    /// The playable cards as `(rank, value)`, the first `fronts` entries.
    front: [(u32, u32); 4],
    /// For each playable card: its column's reach row once it is played (the column then starts one card
    /// further back).
    next: [&'a [u32; 32]; 4],
    front_col: [usize; 4],
    fronts: usize,
    /// Keep everything (for building the start key, whose later cards come from the given stack).
    permissive: bool,
}

impl Here<'_> {
    fn permissive() -> Here<'static> {
        Here {
            rows: [&ALL_RANKS; 4],
            front: [(0, 0); 4],
            next: [&ALL_RANKS; 4],
            front_col: [0; 4],
            fronts: 0,
            permissive: true,
        }
    }

    /// The ranks of the cards that could still join a stack with that much room.
    #[inline(always)]
    fn reach(&self, room: u32) -> u32 {
        let r = room as usize;
        self.rows[0][r] | self.rows[1][r] | self.rows[2][r] | self.rows[3][r]
    }

    /// Like `reach`, once the playable card `front[f]` has been played.
    #[inline(always)]
    fn after(&self, f: usize, room: u32) -> u32 {
        let r = room as usize;
        let j = self.front_col[f];
        let mut mask = self.next[f][r];
        for k in 0..4 {
            if k != j {
                mask |= self.rows[k][r];
            }
        }
        mask
    }

    /// Whether the playable card of some column has rank `x` (and so could extend a set at once).
    #[inline]
    fn front_has(&self, x: u32) -> bool {
        self.permissive || self.front[..self.fronts].iter().any(|&(r, _)| r == x)
    }

    /// Whether the distinct ranks `set` (the top of the stack) can still become part of a run. A run using
    /// them needs a consecutive range of 3 to 7 ranks strictly containing `set`, whose missing ranks are played
    /// straight onto the stack with nothing between: so the very next card is a playable card `y` that fits
    /// the room and is missing from `set`, and the rest of the range beyond `set ∪ {y}` must be affordable from
    /// ranks still within reach. (A necessary condition: cutting what fails it loses nothing.) `set` has a
    /// span of at most 7 ranks.
    #[inline(always)]
    fn completable(&self, set: u32, room: u32) -> bool {
        if self.permissive {
            return extendable(&MASK_INFO[set as usize], self.reach(room), room);
        }
        (0..self.fronts).any(|f| {
            let (y, vy) = self.front[f];
            vy <= room && set >> y & 1 == 0 && {
                let info = &MASK_INFO[(set | 1 << y) as usize];
                let rest = room - vy;
                info.flags & IS_RUN != 0 || extendable(info, self.after(f, rest), rest)
            }
        })
    }
}

/// Precomputed facts about a set of ranks (a 13-bit mask), for the cut tests.
#[derive(Clone, Copy)]
struct MaskInfo {
    /// The ranks missing between the lowest and the highest (only when the span is at most 7).
    gaps: u16,
    /// The rank just below / above the set as a mask, when the set has no gaps and a span of at most 6 (so
    /// adding it keeps a span of at most 7); 0 otherwise.
    low: u16,
    high: u16,
    /// The values of `gaps`, of the rank `low`, of the rank `high`.
    gap_sum: u8,
    low_value: u8,
    high_value: u8,
    flags: u8,
}

/// The span (highest − lowest rank + 1) is at most 7.
const SPAN_OK: u8 = 1;
/// No gaps and at least 3 ranks (whatever the span).
const IS_RUN: u8 = 2;

const fn build_mask_info() -> [MaskInfo; 8192] {
    let mut table = [MaskInfo {
        gaps: 0,
        low: 0,
        high: 0,
        gap_sum: 0,
        low_value: 0,
        high_value: 0,
        flags: 0,
    }; 8192];
    let mut mask = 1u32;
    while mask < 8192 {
        let lo = mask.trailing_zeros();
        let hi = 31 - mask.leading_zeros();
        let gaps = ((2u32 << hi) - (1u32 << lo)) & !mask;
        let info = &mut table[mask as usize];
        if gaps == 0 && mask.count_ones() >= 3 {
            info.flags |= IS_RUN;
        }
        if hi - lo <= 6 {
            info.flags |= SPAN_OK;
            info.gaps = gaps as u16;
            info.gap_sum = VALSUM[gaps as usize];
            if gaps == 0 && hi - lo < 6 {
                if lo > 0 {
                    info.low = 1 << (lo - 1);
                    info.low_value = rank_value(lo - 1) as u8;
                }
                if hi < 12 {
                    info.high = 1 << (hi + 1);
                    info.high_value = rank_value(hi + 1) as u8;
                }
            }
        }
        mask += 1;
    }
    table
}

static MASK_INFO: [MaskInfo; 8192] = build_mask_info();

/// Whether some consecutive range of at most 7 ranks strictly containing the set described by `info` has its
/// missing ranks in `avail` with values summing to at most `room` (the cheapest such range fills the gaps of
/// the set's span, or adds one neighbour when there are none).
#[inline(always)]
fn extendable(info: &MaskInfo, avail: u32, room: u32) -> bool {
    if info.flags & SPAN_OK == 0 {
        return false;
    }
    let gaps = u32::from(info.gaps);
    if gaps != 0 {
        return gaps & !avail == 0 && u32::from(info.gap_sum) <= room;
    }
    (u32::from(info.low) & avail != 0 && u32::from(info.low_value) <= room)
        || (u32::from(info.high) & avail != 0 && u32::from(info.high_value) <= room)
}

/// Plays rank `x` onto the stack described by `key`, `here` describing the position afterwards. Returns the
/// new key (cut to what can still score; 0 when no card fits any more, i.e. the stack must end) and the points,
/// or `None` when the card does not fit.
#[inline(always)]
fn step(key: u64, x: u32, here: &Here) -> Option<(u64, u32)> {
    let t = (key & T_MASK) as u32;
    let v = rank_value(x);
    let t2 = t + v;
    if t2 > LIMIT {
        return None;
    }
    let room = LIMIT - t2;
    let mut points = 0;
    if t == 0 && x == JACK {
        points += 2;
    }
    if t2 == 15 || t2 == LIMIT {
        points += 2;
    }
    let k = (key >> 5) as u32 & 7;
    let r = (key >> 8) as u32 & 15;
    let k2 = if k > 0 && r == x { (k + 1).min(4) } else { 1 };
    points += SET_POINTS[k2 as usize];

    let m = (key >> 12) as u32 & 7;
    let seq = key >> 16;
    // The first nibble of `seq` equal to `x` (a zero nibble of `diff`; the lowest flagged one is exact).
    let diff = seq ^ (u64::from(x) * 0x0111_1111_1111_1111);
    let zero = diff.wrapping_sub(0x0111_1111_1111_1111) & !diff & 0x0888_8888_8888_8888;
    let len = m.min(zero.trailing_zeros() / 4);
    let new_seq = ((seq & ((1u64 << (4 * len)) - 1)) << 4) | u64::from(x);
    let mut sets = [0u32; 8];
    let mut set = 0u32;
    let mut n = 0;
    let mut run = 0;
    while n <= len {
        set |= 1 << ((new_seq >> (4 * n)) as u32 & 15);
        let info = &MASK_INFO[set as usize];
        if info.flags & SPAN_OK == 0 {
            break;
        }
        // n + 1 distinct ranks with no gaps: a run.
        if n >= 2 && info.gaps == 0 {
            run = n + 1;
        }
        sets[n as usize] = set;
        n += 1;
    }
    points += run;
    if here.reach(room) == 0 {
        return Some((0, points));
    }
    let mut keep = n;
    while keep > 0 && !here.completable(sets[keep as usize - 1], room) {
        keep -= 1;
    }
    let (k_out, r_out) = if v <= room && here.front_has(x) {
        (k2, x)
    } else {
        (0, 0)
    };
    let out = u64::from(t2)
        | u64::from(k_out) << 5
        | u64::from(r_out) << 8
        | u64::from(keep) << 12
        | (new_seq & ((1u64 << (4 * keep)) - 1)) << 16;
    Some((out, points))
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// Arena index of the predecessor entry (`u32::MAX` for the start).
    parent: u32,
    /// Points gained since the start.
    score: u16,
    /// Column (0-based) of the card that led here.
    col: u8,
    /// Whether every card of the stack came from a column during the search (not from the given stack), so
    /// that the bound applies.
    own: bool,
}

/// A hash slot: a key of the position being built (if `stamp` is that position's) and its arena index.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    at: u32,
    stamp: u32,
}

/// Reusable buffers (one per thread).
#[derive(Default)]
struct Workspace {
    arena: Vec<Entry>,
    offset: Vec<u32>,
    count: Vec<u32>,
    slots: Vec<Slot>,
    /// The stamp of the position being built: slots with another stamp are free (no clearing per position).
    stamp: u32,
    bound: Bound,
    /// The cards left per column at each position index.
    position: Vec<[u8; 4]>,
}

/// The width of the beam search for a line after a failed pass.
const BEAM_WIDTH: usize = 32;

/// A state of the beam search.
#[derive(Clone, Copy)]
struct BeamState {
    idx: usize,
    key: u64,
    /// As `Entry::own`.
    own: bool,
    /// The column of the top card.
    top: usize,
    score: u32,
    /// `score` plus bound.
    priority: u32,
}

/// The first floor: this much under the bound of the start (the bound exceeds the optimum by 6.2 on average on
/// deals 1–2000; 5/4 keep 46% fewer states than 10/6 on deals 1–300, within 5% of 6/3, 6/4 and 5/5).
const FIRST_GAP: u32 = 5;
/// The next floor after a failed pass: this much lower.
const GAP_STEP: u32 = 4;

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// The best final score from `state` and one line reaching it, proven optimal (see the module docs).
pub fn solve(state: &State) -> Solution {
    WORKSPACE.with(|ws| solve_in(state, &mut ws.borrow_mut()))
}

fn solve_in(state: &State, ws: &mut Workspace) -> Solution {
    if state.is_over() {
        return Solution {
            score: state.score,
            line: String::new(),
            nodes: 0,
        };
    }
    let cols: [Vec<u32>; 4] = std::array::from_fn(|j| {
        state.columns[j]
            .iter()
            .map(|c| u32::from(c.rank.index()))
            .collect()
    });
    let len: [usize; 4] = std::array::from_fn(|j| cols[j].len());
    let mut stride = [1usize; 4];
    for j in 1..4 {
        stride[j] = stride[j - 1] * (len[j - 1] + 1);
    }
    let n = stride[3] * (len[3] + 1);
    // reach[j][i]: ranks among the front cards of column j (holding i cards) that could be played onto a stack
    // with that much room (indexed by room; all cards in front of them go first, onto the same stack).
    let reach: [Vec<[u32; 32]>; 4] = std::array::from_fn(|j| {
        let mut table = vec![[0u32; 32]; len[j] + 1];
        for (i, row) in table.iter_mut().enumerate() {
            let mut sum = 0;
            let mut mask = 0;
            let mut cut = Vec::new();
            for d in (0..i).rev() {
                sum += rank_value(cols[j][d]);
                if sum > LIMIT {
                    break;
                }
                mask |= 1 << cols[j][d];
                cut.push((sum, mask));
            }
            for (room, lane) in row.iter_mut().enumerate() {
                *lane = cut
                    .iter()
                    .take_while(|&&(s, _)| s <= room as u32)
                    .last()
                    .map_or(0, |&(_, m)| m);
            }
        }
        table
    });
    let here_of = |c: &[usize; 4]| {
        let mut here = Here {
            rows: std::array::from_fn(|j| &reach[j][c[j]]),
            front: [(0, 0); 4],
            next: [&ALL_RANKS; 4],
            front_col: [0; 4],
            fronts: 0,
            permissive: false,
        };
        for j in 0..4 {
            if c[j] > 0 {
                let r = cols[j][c[j] - 1];
                let f = here.fronts;
                here.front[f] = (r, rank_value(r));
                here.next[f] = &reach[j][c[j] - 1];
                here.front_col[f] = j;
                here.fronts += 1;
            }
        }
        here
    };

    // The start key: the given stack (its key cut for every rank still to come, which is exact too).
    let here = here_of(&len);
    let mut key = 0u64;
    for (i, card) in state.stack.iter().enumerate() {
        let last = i + 1 == state.stack.len();
        let context = if last { &here } else { &Here::permissive() };
        key = step(key, u32::from(card.rank.index()), context)
            .expect("stack total within 31")
            .0;
    }
    let start_key = key;
    let start_reset = !state.stack.is_empty() && start_key == 0;

    ws.bound.build(&cols, &len, &stride);
    ws.position.clear();
    ws.position
        .extend((0..n).map(|idx| std::array::from_fn(|j| (idx / stride[j] % (len[j] + 1)) as u8)));

    // One forward pass keeping only the states with score + bound ≥ `floor`; the best entry at the end, if any.
    let forward = |ws: &mut Workspace, floor: u32| -> Option<usize> {
        ws.arena.clear();
        ws.offset.clear();
        ws.offset.resize(n, 0);
        ws.count.clear();
        ws.count.resize(n, 0);
        ws.arena.push(Entry {
            key: start_key,
            parent: u32::MAX,
            score: 0,
            col: 0,
            own: start_key == 0,
        });
        ws.count[n - 1] = 1;
        for idx in (0..n - 1).rev() {
            let c = ws.position[idx];
            let c: [usize; 4] = std::array::from_fn(|j| usize::from(c[j]));
            let incoming: usize = (0..4)
                .filter(|&j| c[j] < len[j])
                .map(|j| ws.count[idx + stride[j]] as usize)
                .sum();
            ws.offset[idx] = ws.arena.len() as u32;
            if incoming == 0 {
                continue;
            }
            let here = here_of(&c);
            let size = (2 * incoming).next_power_of_two().max(16);
            if ws.slots.len() < size {
                ws.slots.resize(size, Slot::default());
            }
            if ws.stamp == u32::MAX {
                ws.slots.fill(Slot::default());
                ws.stamp = 0;
            }
            ws.stamp += 1;
            let stamp = ws.stamp;
            let slots = &mut ws.slots[..size];
            let start = ws.arena.len();
            for j in 0..4 {
                if c[j] == len[j] {
                    continue;
                }
                let pred = idx + stride[j];
                let x = cols[j][c[j]];
                let (off, cnt) = (ws.offset[pred] as usize, ws.count[pred] as usize);
                let v = rank_value(x);
                for e in off..off + cnt {
                    let entry = ws.arena[e];
                    let own = entry.own || entry.key == 0;
                    let mut bound = 0;
                    if own {
                        // The bound first, and the points bounded from the key (a run needs two distinct ranks
                        // under x), so that most states below the floor cost no `step`.
                        let t = (entry.key & T_MASK) as u32;
                        let t2 = t + v;
                        if t2 > LIMIT {
                            continue;
                        }
                        let k = (entry.key >> 5) as u32 & 7;
                        let set = if k > 0 && (entry.key >> 8) as u32 & 15 == x {
                            (k + 1).min(4)
                        } else {
                            1
                        };
                        let below = if entry.key == 0 {
                            SINGLE
                        } else if set >= 3 {
                            TRIPLE
                        } else {
                            usize::from(entry.col)
                        };
                        let lane = if here.reach(LIMIT - t2) == 0 {
                            0
                        } else {
                            t2 as usize
                        };
                        bound = ws.bound.get(idx, lane, j, below);
                        let mut most = SET_POINTS[set as usize];
                        if t == 0 && x == JACK {
                            most += 2;
                        }
                        if t2 == 15 || t2 == LIMIT {
                            most += 2;
                        }
                        if (entry.key >> 12) & 7 >= 2 {
                            most += 7;
                        }
                        if u32::from(entry.score) + most + bound < floor {
                            continue;
                        }
                    }
                    let Some((key, points)) = step(entry.key, x, &here) else {
                        continue;
                    };
                    let score = entry.score + points as u16;
                    if own && u32::from(score) + bound < floor {
                        continue;
                    }
                    insert(
                        &mut ws.arena,
                        slots,
                        stamp,
                        Entry {
                            key,
                            parent: e as u32,
                            score,
                            col: j as u8,
                            own,
                        },
                    );
                }
            }
            drop_dominated(&mut ws.arena, start);
            ws.count[idx] = (ws.arena.len() - start) as u32;
            // The bounds the next position will look up (the table is too large for the cache): those of the
            // columns whose predecessor has states, all built by now.
            if idx > 0 {
                let next = ws.position[idx - 1];
                for j in 0..4 {
                    if usize::from(next[j]) < len[j] && ws.count[idx - 1 + stride[j]] > 0 {
                        ws.bound.prefetch_slots(idx - 1, j);
                    }
                }
            }
        }
        let (off, cnt) = (ws.offset[0] as usize, ws.count[0] as usize);
        (off..off + cnt).max_by_key(|&e| ws.arena[e].score)
    };

    // A real line from the entries of the last pass with the fewest cards left: a beam search from them down
    // to the end (each level keeping the best states by score plus bound), the best final score.
    let beam = |ws: &Workspace| -> u32 {
        // (cards left, position, arena entry) of the deepest entries.
        let mut level: Vec<BeamState> = Vec::new();
        let mut deepest = usize::MAX;
        for idx in 0..n {
            let (off, cnt) = (ws.offset[idx] as usize, ws.count[idx] as usize);
            if cnt == 0 {
                continue;
            }
            let left: usize = ws.position[idx].iter().map(|&k| usize::from(k)).sum();
            if left > deepest {
                continue;
            }
            if left < deepest {
                deepest = left;
                level.clear();
            }
            for e in off..off + cnt {
                let entry = ws.arena[e];
                level.push(BeamState {
                    idx,
                    key: entry.key,
                    own: entry.own,
                    top: usize::from(entry.col),
                    score: u32::from(entry.score),
                    priority: u32::from(entry.score),
                });
            }
        }
        level.sort_unstable_by_key(|s| std::cmp::Reverse(s.priority));
        level.truncate(BEAM_WIDTH);
        let mut next: Vec<BeamState> = Vec::new();
        while level.first().is_some_and(|s| s.idx > 0) {
            next.clear();
            for s in &level {
                let c = ws.position[s.idx];
                for j in 0..4 {
                    if c[j] == 0 {
                        continue;
                    }
                    let mut after: [usize; 4] = std::array::from_fn(|k| usize::from(c[k]));
                    after[j] -= 1;
                    let Some((key, points)) = step(s.key, cols[j][after[j]], &here_of(&after))
                    else {
                        continue;
                    };
                    let idx = s.idx - stride[j];
                    let own = s.own || s.key == 0;
                    let score = s.score + points;
                    let bound = if own {
                        let below = if s.key == 0 {
                            SINGLE
                        } else if (key >> 5) & 7 >= 3 {
                            TRIPLE
                        } else {
                            s.top
                        };
                        ws.bound.get(idx, (key & T_MASK) as usize, j, below)
                    } else {
                        0
                    };
                    next.push(BeamState {
                        idx,
                        key,
                        own,
                        top: j,
                        score,
                        priority: score + bound,
                    });
                }
            }
            next.sort_unstable_by_key(|s| std::cmp::Reverse((s.priority, s.score)));
            next.dedup_by(|a, b| a.idx == b.idx && a.key == b.key);
            level.clear();
            level.extend(next.iter().take(BEAM_WIDTH));
        }
        level.iter().map(|s| s.score).max().unwrap_or(0)
    };

    // Floors under the bound of the start (see the module docs): a pass whose best line reaches its floor is
    // optimal. A failed pass proves the optimum below its floor, and a beam search from its deepest entries
    // gives a real line, whose score is a floor that cannot fail. A given non-empty stack has no bound (its
    // first pass only gathers the completions of that stack for the beam search).
    let mut nodes = 0u64;
    let mut floor = if start_key == 0 {
        ws.bound.get(n - 1, 0, 0, 0).saturating_sub(FIRST_GAP)
    } else {
        u32::MAX
    };
    let best = loop {
        let best = forward(ws, floor);
        nodes += ws.arena.len() as u64;
        let found = best.map(|e| u32::from(ws.arena[e].score));
        match (best, found) {
            (Some(e), Some(score)) if score >= floor => break e,
            _ => {
                let line = beam(ws).max(found.unwrap_or(0));
                // Close to the floor, the line is worth a sure pass; far below it, try a lower floor first.
                floor = if floor == u32::MAX || line + GAP_STEP >= floor {
                    line
                } else {
                    floor - GAP_STEP
                };
            }
        }
    };

    let arena = &ws.arena;
    let mut cols_rev = Vec::new();
    let mut e = best;
    while arena[e].parent != u32::MAX {
        let parent = arena[e].parent as usize;
        let is_start = arena[parent].parent == u32::MAX;
        let new_stack = arena[parent].key == 0 && (!is_start || start_reset);
        cols_rev.push((arena[e].col, new_stack));
        e = parent;
    }
    let mut line = String::with_capacity(cols_rev.len() * 5 / 4);
    for &(col, new_stack) in cols_rev.iter().rev() {
        if new_stack {
            line.push('_');
        }
        line.push(char::from(b'1' + col));
    }
    Solution {
        score: state.score + u32::from(arena[best].score),
        line,
        nodes,
    }
}

/// Drops the entries of the position just built (`arena[start..]`) whose stack has no part that can still
/// score (key = total alone) when another entry with the same total has at least the same score: any pattern
/// scores at least as much as none on every continuation, so the other entry's best future is at least theirs.
#[inline]
fn drop_dominated(arena: &mut Vec<Entry>, start: usize) {
    let end = arena.len();
    if end - start < 2 {
        return;
    }
    let mut best = [-1i32; 32];
    for e in &arena[start..end] {
        if e.key > T_MASK {
            let t = (e.key & T_MASK) as usize;
            best[t] = best[t].max(i32::from(e.score));
        }
    }
    let mut w = start;
    for r in start..end {
        let e = arena[r];
        if e.key <= T_MASK && i32::from(e.score) <= best[e.key as usize] {
            continue;
        }
        arena[w] = e;
        w += 1;
    }
    arena.truncate(w);
}

/// Inserts an entry of the position being built (stamp `stamp`) into `slots` (a power-of-two table, more
/// than twice as large as the number of keys), keeping the best score per key.
#[inline]
fn insert(arena: &mut Vec<Entry>, slots: &mut [Slot], stamp: u32, entry: Entry) {
    let mask = slots.len() - 1;
    let mut h = (entry.key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
    loop {
        let slot = slots[h];
        if slot.stamp != stamp {
            slots[h] = Slot {
                key: entry.key,
                at: arena.len() as u32,
                stamp,
            };
            arena.push(entry);
            return;
        }
        if slot.key == entry.key {
            let old = &mut arena[slot.at as usize];
            if entry.score > old.score {
                *old = entry;
            }
            return;
        }
        h = (h + 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::Card;
    use super::super::deal::{deal, DealRng};
    use super::super::rules::{score_line, score_line_from, Move};
    use super::*;

    /// Plain exhaustive search over the rules engine: no memo, no merging.
    fn brute_force(state: &State) -> u32 {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return state.score;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut next = state.clone();
                next.play(mv).expect("legal move");
                brute_force(&next)
            })
            .max()
            .unwrap()
    }

    /// A random small state: columns of 0–4 cards (at most `max_cards` in all) drawn from a deck restricted to
    /// a random window of ranks (narrow windows give long stacks, runs and sets), at most 4 of a rank.
    fn random_state(rng: &mut DealRng, max_cards: usize) -> State {
        let width = 3 + rng.next(0, 11) as u8;
        let low = rng.next(0, u64::from(14 - width)) as u8;
        let mut pool: Vec<Card> = (low..low + width)
            .flat_map(|r| [Card::new(Rank::new(r).unwrap()); 4])
            .collect();
        let mut columns: [Vec<Card>; 4] = Default::default();
        let mut left = max_cards;
        for column in &mut columns {
            let n = (rng.next(0, 5) as usize).min(left).min(pool.len());
            for _ in 0..n {
                let k = rng.next(0, pool.len() as u64) as usize;
                column.push(pool.swap_remove(k));
            }
            left -= n;
        }
        State {
            columns,
            stack: Vec::new(),
            score: 0,
        }
    }

    fn check(state: &State) {
        let best = brute_force(state);
        let solution = solve(state);
        assert_eq!(solution.score, best, "state {state:?}");
        assert_eq!(
            score_line_from(state, &solution.line),
            Ok(best),
            "state {state:?} line {}",
            solution.line
        );
    }

    #[test]
    fn optimal_against_brute_force() {
        let mut rng = DealRng::new(12345);
        for _ in 0..400 {
            check(&random_state(&mut rng, 10));
        }
    }

    #[test]
    fn mid_game_states_against_brute_force() {
        let mut rng = DealRng::new(777);
        let mut checked = 0;
        while checked < 300 {
            let mut state = random_state(&mut rng, 13);
            // A random legal prefix, stopping mid-stack or at a stack boundary.
            let steps = rng.next(0, 6);
            for _ in 0..steps {
                let moves = state.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.next(0, moves.len() as u64) as usize];
                state.play(mv).unwrap();
            }
            if state.cards_left() > 10 {
                continue;
            }
            check(&state);
            checked += 1;
        }
    }

    #[test]
    fn forced_new_stack_at_the_start() {
        // Stack K K Q (30) and only a K playable: the line must start with `_`.
        let state = State::new(
            [
                vec![Card::new(Rank::KING)],
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ],
            vec![
                Card::new(Rank::KING),
                Card::new(Rank::KING),
                Card::new(Rank::QUEEN),
            ],
            5,
        )
        .unwrap();
        let solution = solve(&state);
        assert_eq!(solution.line, "_1");
        assert_eq!(solution.score, 5);
        let mut end = state.clone();
        assert_eq!(end.legal_moves(), vec![Move::NewStack]);
        end.play(Move::NewStack).unwrap();
        assert_eq!(solve(&end).line, "1");
        // A pair with the stack's top card is found from a mid-game stack.
        let state = State::new(
            [
                vec![Card::new(Rank::new(4).unwrap())],
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ],
            vec![Card::new(Rank::new(4).unwrap())],
            0,
        )
        .unwrap();
        let solution = solve(&state);
        assert_eq!((solution.score, solution.line.as_str()), (2, "1"));
    }

    #[test]
    fn known_deals() {
        for (n, best) in [(1, 110), (30, 109), (969, 126), (1031, 80)] {
            let d = deal(n);
            let solution = solve(&State::from(&d));
            assert_eq!(solution.score, best, "deal {n}");
            assert_eq!(score_line(&d, &solution.line), Ok(best), "deal {n}");
        }
    }

    /// The solver and the reference solver give `state` the same best score, and the solver's line reaches it.
    fn assert_agrees_with_the_reference(state: &State, what: &str) {
        let reference = super::super::solver_reference::solve(state);
        let solution = solve(state);
        assert_eq!(solution.score, reference.score, "{what}");
        assert_eq!(score_line_from(state, &solution.line), Ok(solution.score), "{what}");
    }

    #[test]
    fn agrees_with_the_reference_solver_on_deals_1_to_50() {
        for n in 1..=50 {
            assert_agrees_with_the_reference(&State::from(&deal(n)), &format!("deal {n}"));
        }
    }

    #[test]
    fn agrees_with_the_reference_solver_mid_game() {
        // Random legal prefixes of real deals, stopping mid-stack or at a boundary, then solved by both.
        let mut rng = DealRng::new(4242);
        for n in 60..75 {
            let mut state = State::from(&deal(n));
            let steps = 5 + rng.next(0, 30);
            let mut played = 0;
            play_randomly(&mut state, &mut rng, |_, _| {
                played += 1;
                played <= steps
            });
            assert_agrees_with_the_reference(&state, &format!("deal {n} state {state:?}"));
        }
    }

    #[test]
    fn re_solving_mid_game_keeps_the_score() {
        // Follow deal 969's best line for 20 cards, then re-solve: the continuation reaches the same total.
        let d = deal(969);
        let state = State::from(&d);
        let solution = solve(&state);
        let moves = super::super::rules::parse_line(&solution.line).unwrap();
        let mut mid = state.clone();
        let mut played = 0;
        for mv in moves {
            if played == 20 {
                break;
            }
            mid.play(mv).unwrap();
            played += usize::from(matches!(mv, Move::Play(_)));
        }
        let again = solve(&mid);
        assert_eq!(again.score, 126);
        assert_eq!(score_line_from(&mid, &again.line), Ok(126));
    }

    /// The bound of `state`, reached from `start` (empty stack) by `moves`, in the table built for `start`.
    fn bound_of(start: &State, moves: &[Move], state: &State) -> u32 {
        let cols: [Vec<u32>; 4] = std::array::from_fn(|j| {
            start.columns[j]
                .iter()
                .map(|c| u32::from(c.rank.index()))
                .collect()
        });
        let len: [usize; 4] = std::array::from_fn(|j| cols[j].len());
        let mut stride = [1usize; 4];
        for j in 1..4 {
            stride[j] = stride[j - 1] * (len[j - 1] + 1);
        }
        let mut bound = Bound::default();
        bound.build(&cols, &len, &stride);
        let idx: usize = (0..4).map(|j| state.columns[j].len() * stride[j]).sum();
        // The columns of the cards of the current stack.
        let mut stack = Vec::new();
        for &mv in moves {
            match mv {
                Move::NewStack => stack.clear(),
                Move::Play(j) => stack.push(j),
            }
        }
        let n = state.stack.len();
        assert_eq!(n, stack.len());
        if n == 0 {
            return bound.get(idx, 0, 0, 0);
        }
        let top = &state.stack;
        let below = if n == 1 {
            SINGLE
        } else if n >= 3 && top[n - 1].rank == top[n - 2].rank && top[n - 2].rank == top[n - 3].rank
        {
            TRIPLE
        } else {
            stack[n - 2]
        };
        bound.get(idx, state.total() as usize, stack[n - 1], below)
    }

    /// Plays random legal moves from `state` while `more` says so (and some move is legal); returns them.
    fn play_randomly(state: &mut State, rng: &mut DealRng, mut more: impl FnMut(&State, &mut DealRng) -> bool) -> Vec<Move> {
        let mut moves = Vec::new();
        while more(state, rng) {
            let legal = state.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.next(0, legal.len() as u64) as usize];
            state.play(mv).unwrap();
            moves.push(mv);
        }
        moves
    }

    /// The bound after `moves` from `start` is at least the best score still to make (exhaustive search).
    fn assert_bound_holds(start: &State, moves: &[Move], state: &State, what: &str) {
        let best = brute_force(state) - state.score;
        let bound = bound_of(start, moves, state);
        assert!(bound >= best, "{what}: bound {bound} < {best}: {start:?} then {moves:?}");
    }

    /// The bound of a state is at least the most points still to score from it (exhaustive search), on random
    /// small states after random legal prefixes (mid-stack, on sets and runs, or at stack boundaries).
    #[test]
    fn bound_is_at_least_the_best_remaining_score() {
        let mut rng = DealRng::new(2024);
        let mut checked = 0;
        while checked < 300 {
            let start = random_state(&mut rng, 12);
            let mut state = start.clone();
            let steps = rng.next(0, 9);
            let mut played = 0;
            let moves = play_randomly(&mut state, &mut rng, |_, _| {
                played += 1;
                played <= steps
            });
            if state.cards_left() > 10 {
                continue;
            }
            assert_bound_holds(&start, &moves, &state, "random small state");
            checked += 1;
        }
    }

    /// The same on states of low ranks only (A–8), where runs of 5 to 7 cards are common: the run rule's
    /// candidate cards `r3`, `r4`, `r5`, `r6` are all exercised.
    #[test]
    fn bound_holds_with_long_runs() {
        let mut rng = DealRng::new(77);
        let mut checked = 0;
        while checked < 400 {
            let low = rng.next(0, 2) as u8;
            let mut pool: Vec<Card> = (low..low + 7)
                .flat_map(|r| [Card::new(Rank::new(r).unwrap()); 4])
                .collect();
            let mut columns: [Vec<Card>; 4] = Default::default();
            for column in &mut columns {
                for _ in 0..rng.next(1, 6) {
                    let k = rng.next(0, pool.len() as u64) as usize;
                    column.push(pool.swap_remove(k));
                }
            }
            let start = State {
                columns,
                stack: Vec::new(),
                score: 0,
            };
            let mut state = start.clone();
            let moves = play_randomly(&mut state, &mut rng, |s, rng| s.cards_left() > 11 || (rng.next(0, 3) > 0 && s.cards_left() > 4));
            assert_bound_holds(&start, &moves, &state, "low ranks");
            checked += 1;
        }
    }

    /// The same late in real deals (a few cards left), and the bound of a whole deal is at least its optimum.
    #[test]
    fn bound_holds_late_in_real_deals() {
        let mut rng = DealRng::new(31);
        for n in 1..=40 {
            let start = State::from(&deal(n));
            let mut state = start.clone();
            let moves = play_randomly(&mut state, &mut rng, |s, _| s.cards_left() > 9);
            assert_bound_holds(&start, &moves, &state, &format!("deal {n}"));
        }
        for n in [1, 30, 969, 1031] {
            let start = State::from(&deal(n));
            assert!(
                bound_of(&start, &[], &start) >= solve(&start).score,
                "deal {n}"
            );
        }
    }
}
