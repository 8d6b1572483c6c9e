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
//! The states of each `c` are built at once from those of its (at most four) predecessors `c + e_j` in one
//! small open-addressing table, visiting `c` in decreasing mixed-radix index order (a predecessor always has a
//! larger index). Points are computed from `(t, k, seq)` alone; the tests check every solution against the
//! rules engine and the optimum against a plain exhaustive search.

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
    fronts: usize,
    /// Keep everything (for building the start key, whose later cards come from the given stack).
    permissive: bool,
}

impl Here {
    fn permissive() -> Here {
        Here {
            reach: [0x1FFF; 32],
            front: [(0, 0); 4],
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
    /// ranks still within reach. (A necessary condition: cutting what fails it loses nothing.)
    #[inline]
    fn completable(&self, set: u32, room: u32) -> bool {
        let lo = set.trailing_zeros();
        let hi = 31 - set.leading_zeros();
        if hi - lo > 6 {
            return false;
        }
        let avail = self.reach[room as usize];
        if self.permissive {
            return Self::extendable(set, avail, room);
        }
        self.front[..self.fronts].iter().any(|&(y, vy)| {
            vy <= room && set >> y & 1 == 0 && {
                let with = set | 1 << y;
                let n = with.count_ones();
                let span = 32 - with.leading_zeros() - with.trailing_zeros();
                (span == n && n >= 3) || Self::extendable(with, avail, room - vy)
            }
        })
    }

    /// Whether some consecutive range of at most 7 ranks strictly containing `set` has its missing ranks in
    /// `avail` with values summing to at most `room` (the cheapest such range fills the gaps of `set`'s span,
    /// or adds one neighbour when there are none).
    #[inline]
    fn extendable(set: u32, avail: u32, room: u32) -> bool {
        let lo = set.trailing_zeros();
        let hi = 31 - set.leading_zeros();
        if hi - lo > 6 {
            return false;
        }
        let gaps = ((2u32 << hi) - (1u32 << lo)) & !set;
        if gaps != 0 {
            return gaps & !avail == 0 && u32::from(VALSUM[gaps as usize]) <= room;
        }
        hi - lo < 6
            && ((lo > 0 && avail >> (lo - 1) & 1 == 1 && rank_value(lo - 1) <= room)
                || (hi < 12 && avail >> (hi + 1) & 1 == 1 && rank_value(hi + 1) <= room))
    }
}

/// Plays rank `x` onto the stack described by `key`, `here` describing the position afterwards. Returns the
/// new key (cut to what can still score; 0 when no card fits any more, i.e. the stack must end) and the points,
/// or `None` when the card does not fit.
#[inline]
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
    let mut len = m;
    for i in 0..m {
        if (seq >> (4 * i)) as u32 & 15 == x {
            len = i;
            break;
        }
    }
    let new_seq = ((seq & ((1u64 << (4 * len)) - 1)) << 4) | u64::from(x);
    let mut sets = [0u32; 8];
    let mut set = 0u32;
    let mut n = 0;
    let mut run = 0;
    while n <= len {
        set |= 1 << ((new_seq >> (4 * n)) as u32 & 15);
        let lo = set.trailing_zeros();
        let hi = 31 - set.leading_zeros();
        if hi - lo > 6 {
            break;
        }
        if n >= 2 && hi - lo == n {
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
    slots: Vec<(u64, u32)>,
    /// `bound[idx * 32 + t]`: an upper bound on the points still to come from position `idx` with total `t`.
    bound: Vec<u16>,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// The best final score from `state` and one line reaching it, proven optimal by exhaustive dynamic programming.
pub fn solve(state: &State) -> Solution {
    WORKSPACE.with(|ws| solve_in(state, &mut ws.borrow_mut()))
}

/// Entries kept per position by the heuristic pass that finds the initial lower bound.
const BEAM: usize = 6;

/// `RUN_UB[x * 8192 + avail]`: the longest run (3..=7, else 0) that a card of rank `x` could complete when the
/// other ranks of the run must come from `avail`, their values leaving room for `x`.
static RUN_UB: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| {
    let mut table = vec![0u8; 13 * 8192];
    for x in 0..13u32 {
        for avail in 0..8192u32 {
            let have = avail | 1 << x;
            let mut best = 0;
            for lo in x.saturating_sub(6)..=x {
                let mut sum = 0;
                for hi in x..13 {
                    if hi - lo > 6 || have >> hi & 1 == 0 {
                        break;
                    }
                    if hi > x {
                        sum += rank_value(hi);
                    }
                    let ok_low = (lo..x).all(|r| have >> r & 1 == 1);
                    let low_sum: u32 = (lo..x).map(rank_value).sum();
                    let n = hi - lo + 1;
                    if ok_low && n >= 3 && sum + low_sum + rank_value(x) <= LIMIT {
                        best = best.max(n);
                    }
                }
            }
            table[(x * 8192 + avail) as usize] = best as u8;
        }
    }
    table
});

/// The deal as the solver sees it: column ranks, the mixed-radix position index and per-column tables.
struct Prep {
    cols: [Vec<u32>; 4],
    len: [usize; 4],
    stride: [usize; 4],
    n: usize,
    /// reach[j][i * 32 + room]: ranks among the front cards of column j (holding i cards) that could be played
    /// onto a stack with that much room (all cards in front of them go first, onto the same stack).
    reach: [Vec<u32>; 4],
}

impl Prep {
    fn new(state: &State) -> Prep {
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
        let reach: [Vec<u32>; 4] = std::array::from_fn(|j| {
            let mut table = vec![0u32; (len[j] + 1) * 32];
            for i in 0..=len[j] {
                let mut sum = 0;
                let mut mask = 0;
                let mut d = i;
                for room in 0..32u32 {
                    while d > 0 && sum + rank_value(cols[j][d - 1]) <= room {
                        d -= 1;
                        sum += rank_value(cols[j][d]);
                        mask |= 1 << cols[j][d];
                    }
                    table[i * 32 + room as usize] = mask;
                }
            }
            table
        });
        Prep {
            cols,
            len,
            stride,
            n,
            reach,
        }
    }

    #[inline]
    fn position(&self, idx: usize) -> [usize; 4] {
        std::array::from_fn(|j| idx / self.stride[j] % (self.len[j] + 1))
    }

    fn here_of(&self, c: &[usize; 4]) -> Here {
        let mut here = Here {
            reach: [0; 32],
            front: [(0, 0); 4],
            fronts: 0,
            permissive: false,
        };
        for room in 0..32 {
            here.reach[room] = (0..4).fold(0u32, |a, j| a | self.reach[j][c[j] * 32 + room]);
        }
        for j in 0..4 {
            if c[j] > 0 {
                let r = self.cols[j][c[j] - 1];
                here.front[here.fronts] = (r, rank_value(r));
                here.fronts += 1;
            }
        }
        here
    }

    /// Fills `bound[idx * 32 + t]` with the value of a relaxed game on `(cards left, total)` alone, an upper
    /// bound on the points still to come from any state at that position and total (see the module docs).
    fn fill_bound(&self, bound: &mut Vec<u16>) {
        let run_ub = &*RUN_UB;
        bound.clear();
        bound.resize(self.n * 32, 0);
        // Per column and cards left: the ranks among its last (up to 6) played cards, most recent first,
        // and the most recent played card's rank with the length of its streak of equal ranks.
        let recent: [Vec<(u32, u32, u32)>; 4] = std::array::from_fn(|i| {
            (0..=self.len[i])
                .map(|ci| {
                    let played = &self.cols[i][ci..];
                    let mut mask = 0;
                    let mut sum = 0;
                    for &r in played.iter().take(6) {
                        sum += rank_value(r);
                        if sum > LIMIT - 1 {
                            break;
                        }
                        mask |= 1 << r;
                    }
                    let top = played.first().copied().unwrap_or(99);
                    let streak = played.iter().take_while(|&&r| r == top).count().min(3) as u32;
                    (mask, top, streak)
                })
                .collect()
        });
        for idx in 1..self.n {
            let c = self.position(idx);
            let mut avail = 0;
            for i in 0..4 {
                avail |= recent[i][c[i]].0;
            }
            // Per playable card: (rank, value, run bound, set streak, successor base).
            let mut moves = [(0u32, 0u32, 0u32, 0u32, 0usize); 4];
            let mut k = 0;
            for j in 0..4 {
                if c[j] == 0 {
                    continue;
                }
                let x = self.cols[j][c[j] - 1];
                let streak: u32 = (0..4)
                    .map(|i| {
                        let (_, top, s) = recent[i][c[i]];
                        if top == x {
                            s
                        } else {
                            0
                        }
                    })
                    .sum();
                let run = u32::from(run_ub[(x * 8192 + avail) as usize]);
                moves[k] = (x, rank_value(x), run, streak.min(3), (idx - self.stride[j]) * 32);
                k += 1;
            }
            let moves = &moves[..k];
            let base = idx * 32;
            // t = 0 first: a new stack (everything fits).
            let mut best0 = 0u32;
            for &(x, v, _, _, succ) in moves {
                let p = if x == JACK { 2 } else { 0 };
                best0 = best0.max(p + u32::from(bound[succ + v as usize]));
            }
            bound[base] = best0 as u16;
            for t in 1..32u32 {
                let mut best = None;
                for &(_, v, run, streak, succ) in moves {
                    let t2 = t + v;
                    if t2 > LIMIT {
                        continue;
                    }
                    let mut p = if t2 == 15 || t2 == LIMIT { 2 } else { 0 };
                    let s = streak.min(t / v);
                    p += SET_POINTS[s as usize + 1].max(run);
                    let value = p + u32::from(bound[succ + t2 as usize]);
                    best = Some(best.map_or(value, |b: u32| b.max(value)));
                }
                bound[base + t as usize] = best.unwrap_or(best0) as u16;
            }
        }
    }
}

/// The result of one pass of the dynamic programme.
struct Pass {
    /// Best points gained from the start (`None` when every line was pruned).
    best: Option<(u16, usize)>,
    start_reset: bool,
}

fn solve_in(state: &State, ws: &mut Workspace) -> Solution {
    if state.is_over() {
        return Solution {
            score: state.score,
            line: String::new(),
            nodes: 0,
        };
    }
    let prep = Prep::new(state);
    let mut bound = std::mem::take(&mut ws.bound);
    prep.fill_bound(&mut bound);
    // A heuristic pass (a beam of the most promising entries per position) gives the score of a real line.
    let beam = run_pass(state, &prep, ws, &bound, BEAM, 0);
    let lower = beam.best.expect("the beam keeps a line").0;
    // The exact pass prunes entries that cannot reach that score.
    let exact = run_pass(state, &prep, ws, &bound, usize::MAX, lower);
    ws.bound = bound;
    let (score, best) = exact.best.expect("an optimal line is never pruned");
    let mut cols_rev = Vec::new();
    let mut e = best;
    while ws.arena[e].parent != u32::MAX {
        let parent = ws.arena[e].parent as usize;
        let is_start = ws.arena[parent].parent == u32::MAX;
        let new_stack = ws.arena[parent].key == 0 && (!is_start || exact.start_reset);
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
        score: state.score + u32::from(score),
        line,
        nodes: ws.arena.len() as u64,
    }
}

/// One pass of the forward programme: entries whose score plus the bound is below `lower` are dropped, and
/// with `beam` below `usize::MAX` only that many entries (the best by score plus bound) are kept per position.
fn run_pass(
    state: &State,
    prep: &Prep,
    ws: &mut Workspace,
    bound: &[u16],
    beam: usize,
    lower: u16,
) -> Pass {
    let n = prep.n;
    ws.arena.clear();
    ws.offset.clear();
    ws.offset.resize(n, 0);
    ws.count.clear();
    ws.count.resize(n, 0);

    // The start entry: the given stack (its key cut for every rank still to come, which is exact too).
    let here = prep.here_of(&prep.len);
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
        let c = prep.position(idx);
        let incoming: usize = (0..4)
            .filter(|&j| c[j] < prep.len[j])
            .map(|j| ws.count[idx + prep.stride[j]] as usize)
            .sum();
        if incoming == 0 {
            continue;
        }
        let here = prep.here_of(&c);
        let size = (2 * incoming).next_power_of_two().max(16);
        if ws.slots.len() < size {
            ws.slots.resize(size, (FREE, 0));
        }
        let slots = &mut ws.slots[..size];
        slots.fill((FREE, 0));
        let start = ws.arena.len();
        let bound_here = &bound[idx * 32..idx * 32 + 32];
        for j in 0..4 {
            if c[j] == prep.len[j] {
                continue;
            }
            let pred = idx + prep.stride[j];
            let x = prep.cols[j][c[j]];
            let (off, cnt) = (ws.offset[pred] as usize, ws.count[pred] as usize);
            for e in off..off + cnt {
                let entry = ws.arena[e];
                let Some((key, points)) = step(entry.key, x, &here) else {
                    continue;
                };
                let score = entry.score + points as u16;
                if score + bound_here[(key & T_MASK) as usize] < lower {
                    continue;
                }
                insert(
                    &mut ws.arena,
                    slots,
                    Entry {
                        key,
                        parent: e as u32,
                        score,
                        col: j as u8,
                    },
                );
            }
        }
        let cnt = ws.arena.len() - start;
        if cnt > beam {
            let part = &mut ws.arena[start..];
            part.select_nth_unstable_by_key(beam - 1, |en| {
                std::cmp::Reverse(en.score + bound_here[(en.key & T_MASK) as usize])
            });
            ws.arena.truncate(start + beam);
        }
        ws.offset[idx] = start as u32;
        ws.count[idx] = (ws.arena.len() - start) as u32;
    }

    // Every entry of the empty position has key 0; take the best.
    let (off, cnt) = (ws.offset[0] as usize, ws.count[0] as usize);
    let best = (off..off + cnt)
        .max_by_key(|&e| ws.arena[e].score)
        .map(|e| (ws.arena[e].score, e));
    Pass { best, start_reset }
}


/// Marks a free slot (no real key has all bits set).
const FREE: u64 = u64::MAX;

/// Inserts an entry of the position being built into `slots` (a power-of-two table of `(key, arena index)`,
/// large enough), keeping the best score per key.
#[inline]
fn insert(arena: &mut Vec<Entry>, slots: &mut [(u64, u32)], entry: Entry) {
    let mask = slots.len() - 1;
    let mut h = (entry.key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
    loop {
        let (key, at) = slots[h];
        if key == FREE {
            slots[h] = (entry.key, arena.len() as u32);
            arena.push(entry);
            return;
        }
        if key == entry.key {
            let old = &mut arena[at as usize];
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
