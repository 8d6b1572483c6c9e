//! Exact solver: the best final score from any state, and one line reaching it.
//!
//! # Algorithm
//!
//! A forward dynamic programme over *merged* per-card states. A state is `(c, t, p)`: `c` the number of cards
//! left in each column, `t` the stack total and `p` the part of the stack's top that can still score. The
//! cards played so far are fixed by `c`, but the order they went in is not; states reached by different orders
//! merge when their `(t, p)` agree, keeping the best score so far (and a back-pointer for the line). This is
//! exact because the future depends on the past only through `(c, t, p)`:
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
//! larger index). Points are computed from `(t, k, seq)` alone.
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
//! # Speed
//!
//! The cut tests use a precomputed table per 13-bit rank set (span, gaps and their values, the neighbour
//! ranks), the duplicate of the new card in `seq` is found with a word-parallel nibble compare, and the
//! per-position reach masks (also after each playable card) are built once per position. About 1.2 M states a
//! deal (2.5 M for deal 1879, the slowest known).
//!
//! # Tests
//!
//! Every solution is replayed with the rules engine; the optimum is compared with a plain exhaustive search on
//! small random deals and mid-game states, with the known scores of deals 1, 30, 969 and 1031, and with the
//! previous solver (kept in `solver_reference.rs`, test builds only) on deals 1–50 and mid-game states of
//! deals 60–74.

use std::cell::RefCell;

use super::cards::Rank;
use super::rules::{State, LIMIT};

/// The best line from a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score, the state's score included.
    pub score: u32,
    /// One line reaching it: column digits `1`–`4`, `_` where a new stack starts (a leading `_` when the
    /// state's stack is non-empty and no card fits it).
    pub line: String,
    /// Merged DP states created.
    pub nodes: u64,
}

const JACK: u32 = Rank::JACK.index() as u32;
const SET_POINTS: [u32; 5] = [0, 0, 2, 6, 12];

const fn rank_value(r: u32) -> u32 {
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
static VALSUM: [u8; 8192] = build_valsum();

// Key layout: bits 0–4 total, 5–7 set count k, 8–11 set rank, 12–14 seq length m, 16.. seq (4 bits a rank,
// the top card in the lowest nibble).
const T_MASK: u64 = 31;

/// What the solver knows about a position (the cards left) when cutting stack keys.
struct Here {
    /// `reach[room]`: ranks of the cards that could still join a stack with that much room (every card in
    /// front of them in their column going first).
    reach: [u32; 32],
    /// The playable cards as `(rank, value)`, the first `fronts` entries.
    front: [(u32, u32); 4],
    /// `after[f][room]`: like `reach`, once the playable card `front[f]` has been played (its column then
    /// starts one card further back), for the room left after it.
    after: [[u32; 32]; 4],
    fronts: usize,
    /// Keep everything (for building the start key, whose later cards come from the given stack).
    permissive: bool,
}

impl Here {
    fn permissive() -> Here {
        Here {
            reach: [0x1FFF; 32],
            front: [(0, 0); 4],
            after: [[0x1FFF; 32]; 4],
            fronts: 0,
            permissive: true,
        }
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
        let avail = self.reach[room as usize];
        if self.permissive {
            return extendable(&MASK_INFO[set as usize], avail, room);
        }
        (0..self.fronts).any(|f| {
            let (y, vy) = self.front[f];
            vy <= room && set >> y & 1 == 0 && {
                let info = &MASK_INFO[(set | 1 << y) as usize];
                let rest = room - vy;
                info.flags & IS_RUN != 0 || extendable(info, self.after[f][rest as usize], rest)
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
    if here.reach[room as usize] == 0 {
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
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// The best final score from `state` and one line reaching it, proven optimal by exhaustive dynamic programming.
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
    // reach[j][i * 32 + room]: ranks among the front cards of column j (holding i cards) that could be played
    // onto a stack with that much room (all cards in front of them go first, onto the same stack).
    let reach: [Vec<u32>; 4] = std::array::from_fn(|j| {
        let mut table = vec![0u32; (len[j] + 1) * 32];
        for i in 0..=len[j] {
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
            for room in 0..32 {
                table[i * 32 + room as usize] = cut
                    .iter()
                    .take_while(|&&(s, _)| s <= room)
                    .last()
                    .map_or(0, |&(_, m)| m);
            }
        }
        table
    });
    let here_of = |c: &[usize; 4]| {
        let mut here = Here {
            reach: [0; 32],
            front: [(0, 0); 4],
            after: [[0; 32]; 4],
            fronts: 0,
            permissive: false,
        };
        let now: [&[u32]; 4] = std::array::from_fn(|j| &reach[j][c[j] * 32..c[j] * 32 + 32]);
        for (room, mask) in here.reach.iter_mut().enumerate() {
            *mask = now[0][room] | now[1][room] | now[2][room] | now[3][room];
        }
        for j in 0..4 {
            if c[j] > 0 {
                let r = cols[j][c[j] - 1];
                let f = here.fronts;
                here.front[f] = (r, rank_value(r));
                let next = &reach[j][(c[j] - 1) * 32..c[j] * 32];
                let others: [&[u32]; 3] = std::array::from_fn(|k| now[(j + 1 + k) % 4]);
                for (room, mask) in here.after[f].iter_mut().enumerate() {
                    *mask = next[room] | others[0][room] | others[1][room] | others[2][room];
                }
                here.fronts += 1;
            }
        }
        here
    };

    ws.arena.clear();
    ws.offset.clear();
    ws.offset.resize(n, 0);
    ws.count.clear();
    ws.count.resize(n, 0);

    // The start entry: the given stack (its key cut for every rank still to come, which is exact too).
    let here = here_of(&len);
    let mut key = 0u64;
    for (i, card) in state.stack.iter().enumerate() {
        let last = i + 1 == state.stack.len();
        let context = if last { &here } else { &Here::permissive() };
        key = step(key, u32::from(card.rank.index()), context)
            .expect("stack total within 31")
            .0;
    }
    let start_reset = !state.stack.is_empty() && key == 0;
    ws.arena.push(Entry {
        key,
        parent: u32::MAX,
        score: 0,
        col: 0,
    });
    ws.offset[n - 1] = 0;
    ws.count[n - 1] = 1;

    for idx in (0..n - 1).rev() {
        let c: [usize; 4] = std::array::from_fn(|j| idx / stride[j] % (len[j] + 1));
        let here = here_of(&c);
        let incoming: usize = (0..4)
            .filter(|&j| c[j] < len[j])
            .map(|j| ws.count[idx + stride[j]] as usize)
            .sum();
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
            for e in off..off + cnt {
                let entry = ws.arena[e];
                let Some((key, points)) = step(entry.key, x, &here) else {
                    continue;
                };
                let score = entry.score + points as u16;
                insert(
                    &mut ws.arena,
                    slots,
                    stamp,
                    Entry {
                        key,
                        parent: e as u32,
                        score,
                        col: j as u8,
                    },
                );
            }
        }
        drop_dominated(&mut ws.arena, start);
        ws.offset[idx] = start as u32;
        ws.count[idx] = (ws.arena.len() - start) as u32;
    }

    // Every entry of the empty position has key 0; take the best.
    let (off, cnt) = (ws.offset[0] as usize, ws.count[0] as usize);
    let best = (off..off + cnt)
        .max_by_key(|&e| ws.arena[e].score)
        .expect("the end is reachable");
    let mut cols_rev = Vec::new();
    let mut e = best;
    while ws.arena[e].parent != u32::MAX {
        let parent = ws.arena[e].parent as usize;
        let is_start = ws.arena[parent].parent == u32::MAX;
        let new_stack = ws.arena[parent].key == 0 && (!is_start || start_reset);
        cols_rev.push((ws.arena[e].col, new_stack));
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
        score: state.score + u32::from(ws.arena[best].score),
        line,
        nodes: ws.arena.len() as u64,
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

/// A hash slot: a key of the position being built (if `stamp` is that position's) and its arena index.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    at: u32,
    stamp: u32,
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
        assert_eq!(
            solve(&state),
            Solution {
                score: 2,
                line: "1".into(),
                nodes: 2
            }
        );
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

    #[test]
    fn agrees_with_the_reference_solver_on_deals_1_to_50() {
        for n in 1..=50 {
            let d = deal(n);
            let state = State::from(&d);
            let reference = super::super::solver_reference::solve(&state);
            let solution = solve(&state);
            assert_eq!(solution.score, reference.score, "deal {n}");
            assert_eq!(
                score_line(&d, &solution.line),
                Ok(solution.score),
                "deal {n}"
            );
            // Coarser keys and the dominance rule never add states.
            assert!(solution.nodes <= reference.nodes, "deal {n}");
        }
    }

    #[test]
    fn agrees_with_the_reference_solver_mid_game() {
        // Random legal prefixes of real deals, stopping mid-stack or at a boundary, then solved by both.
        let mut rng = DealRng::new(4242);
        for n in 60..75 {
            let mut state = State::from(&deal(n));
            let steps = 5 + rng.next(0, 30);
            for _ in 0..steps {
                let moves = state.legal_moves();
                let mv = moves[rng.next(0, moves.len() as u64) as usize];
                state.play(mv).unwrap();
            }
            let reference = super::super::solver_reference::solve(&state);
            let solution = solve(&state);
            assert_eq!(solution.score, reference.score, "deal {n} state {state:?}");
            assert_eq!(
                score_line_from(&state, &solution.line),
                Ok(solution.score),
                "deal {n} state {state:?}"
            );
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
}
