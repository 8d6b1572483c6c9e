//! The previous exact solver, kept (for tests only) as an independent reference for [`super::solver`]: the
//! same forward dynamic programme over merged `(cards left, total, scoring pattern)` states, without the
//! bound and the dominance rule, with the looser reach test in the run cut and plainer code. Only its score is used.

#![allow(dead_code)]

use std::cell::RefCell;

use super::rules::{State, LIMIT};

// The plain tables (rank values, set points, the key's total field) and the result type are the solver's own.
use super::solver::{rank_value, Solution, JACK, SET_POINTS, T_MASK, VALSUM};

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
        Here { reach: [0x1FFF; 32], front: [(0, 0); 4], fronts: 0, permissive: true }
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
    let (k_out, r_out) = if v <= room && here.front_has(x) { (k2, x) } else { (0, 0) };
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
        return Solution { score: state.score, line: String::new(), nodes: 0 };
    }
    let cols: [Vec<u32>; 4] =
        std::array::from_fn(|j| state.columns[j].iter().map(|c| u32::from(c.rank.index())).collect());
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
                table[i * 32 + room as usize] =
                    cut.iter().take_while(|&&(s, _)| s <= room).last().map_or(0, |&(_, m)| m);
            }
        }
        table
    });
    let here_of = |c: &[usize; 4]| {
        let mut here = Here { reach: [0; 32], front: [(0, 0); 4], fronts: 0, permissive: false };
        for room in 0..32 {
            here.reach[room] = (0..4).fold(0u32, |a, j| a | reach[j][c[j] * 32 + room]);
        }
        for j in 0..4 {
            if c[j] > 0 {
                let r = cols[j][c[j] - 1];
                here.front[here.fronts] = (r, rank_value(r));
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
        key = step(key, u32::from(card.rank.index()), context).expect("stack total within 31").0;
    }
    let start_reset = !state.stack.is_empty() && key == 0;
    ws.arena.push(Entry { key, parent: u32::MAX, score: 0, col: 0 });
    ws.offset[n - 1] = 0;
    ws.count[n - 1] = 1;

    for idx in (0..n - 1).rev() {
        let c: [usize; 4] = std::array::from_fn(|j| idx / stride[j] % (len[j] + 1));
        let here = here_of(&c);
        let incoming: usize = (0..4).filter(|&j| c[j] < len[j]).map(|j| ws.count[idx + stride[j]] as usize).sum();
        let size = (2 * incoming).next_power_of_two().max(16);
        if ws.slots.len() < size {
            ws.slots.resize(size, (FREE, 0));
        }
        let slots = &mut ws.slots[..size];
        slots.fill((FREE, 0));
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
                insert(&mut ws.arena, slots, Entry { key, parent: e as u32, score, col: j as u8 });
            }
        }
        ws.offset[idx] = start as u32;
        ws.count[idx] = (ws.arena.len() - start) as u32;
    }

    // Every entry of the empty position has key 0; take the best.
    let (off, cnt) = (ws.offset[0] as usize, ws.count[0] as usize);
    let best = (off..off + cnt).max_by_key(|&e| ws.arena[e].score).expect("the end is reachable");
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
    Solution { score: state.score + u32::from(ws.arena[best].score), line, nodes: ws.arena.len() as u64 }
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
