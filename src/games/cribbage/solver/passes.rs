//! The forward passes of the branch and bound: the states of each position built from its predecessors'
//! in one open-addressing table, merged by key, dominated states dropped, and states under the floor pruned;
//! and the beam search that gives a real line after a failed pass.

use super::bound::{Bound, SINGLE, TRIPLE};
use super::key::*;
use super::{rank_value, JACK, LIMIT, SET_POINTS};
use crate::games::cribbage::rules::State;

#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) key: u64,
    /// Arena index of the predecessor entry (`u32::MAX` for the start).
    pub(super) parent: u32,
    /// Points gained since the start.
    pub(super) score: u16,
    /// Column (0-based) of the card that led here.
    pub(super) col: u8,
    /// Whether every card of the stack came from a column during the search (not from the given stack), so
    /// that the bound applies.
    pub(super) own: bool,
}

/// A hash slot: a key of the position being built (if `stamp` is that position's) and its arena index.
#[derive(Clone, Copy, Default)]
pub(super) struct Slot {
    pub(super) key: u64,
    pub(super) at: u32,
    pub(super) stamp: u32,
}

/// Reusable buffers (one per thread).
#[derive(Default)]
pub(super) struct Workspace {
    pub(super) arena: Vec<Entry>,
    pub(super) offset: Vec<u32>,
    pub(super) count: Vec<u32>,
    pub(super) slots: Vec<Slot>,
    /// The stamp of the position being built: slots with another stamp are free (no clearing per position).
    pub(super) stamp: u32,
    pub(super) bound: Bound,
    /// The cards left per column at each position index.
    pub(super) position: Vec<[u8; 4]>,
}

/// The width of the beam search for a line after a failed pass.
pub(super) const BEAM_WIDTH: usize = 32;

/// A state of the beam search.
#[derive(Clone, Copy)]
pub(super) struct BeamState {
    pub(super) idx: usize,
    pub(super) key: u64,
    /// As `Entry::own`.
    pub(super) own: bool,
    /// The column of the top card.
    pub(super) top: usize,
    pub(super) score: u32,
    /// `score` plus bound.
    pub(super) priority: u32,
}

/// What a solve works on, fixed for all its passes: each column's ranks (buried first), the positions (cards
/// left per column) indexed in mixed radix, the per-column reach tables, and the key of the given stack.
pub(super) struct Problem {
    pub(super) cols: [Vec<u32>; 4],
    pub(super) len: [usize; 4],
    pub(super) stride: [usize; 4],
    /// The number of positions.
    pub(super) n: usize,
    pub(super) reach: [Vec<[u32; 32]>; 4],
    pub(super) start_key: u64,
}

impl Problem {
    pub(super) fn new(state: &State) -> Problem {
        let cols: [Vec<u32>; 4] =
            std::array::from_fn(|j| state.columns[j].iter().map(|c| u32::from(c.rank.index())).collect());
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
                    *lane = cut.iter().take_while(|&&(s, _)| s <= room as u32).last().map_or(0, |&(_, m)| m);
                }
            }
            table
        });
        let mut problem = Problem { cols, len, stride, n, reach, start_key: 0 };
        // The start key: the given stack (its key cut for every rank still to come, which is exact too).
        let here = problem.here_of(&len);
        let mut key = 0u64;
        for (i, card) in state.stack.iter().enumerate() {
            let last = i + 1 == state.stack.len();
            let context = if last { &here } else { &Here::permissive() };
            key = step(key, u32::from(card.rank.index()), context).expect("stack total within 31").0;
        }
        problem.start_key = key;
        problem
    }

    /// What can be played from position `c`: the reach rows of its columns and its front cards.
    #[inline]
    pub(super) fn here_of(&self, c: &[usize; 4]) -> Here<'_> {
        let (cols, reach) = (&self.cols, &self.reach);
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
    }

    /// One forward pass keeping only the states with score + bound ≥ `floor`; the best entry at the end, if any.
    pub(super) fn forward(&self, ws: &mut Workspace, floor: u32) -> Option<usize> {
        let (cols, len, stride, n, start_key) = (&self.cols, self.len, self.stride, self.n, self.start_key);
        let here_of = |c: &[usize; 4]| self.here_of(c);
        ws.arena.clear();
        ws.offset.clear();
        ws.offset.resize(n, 0);
        ws.count.clear();
        ws.count.resize(n, 0);
        ws.arena.push(Entry { key: start_key, parent: u32::MAX, score: 0, col: 0, own: start_key == 0 });
        ws.count[n - 1] = 1;
        for idx in (0..n - 1).rev() {
            let c = ws.position[idx];
            let c: [usize; 4] = std::array::from_fn(|j| usize::from(c[j]));
            let incoming: usize = (0..4).filter(|&j| c[j] < len[j]).map(|j| ws.count[idx + stride[j]] as usize).sum();
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
                        let set = if k > 0 && (entry.key >> 8) as u32 & 15 == x { (k + 1).min(4) } else { 1 };
                        let below = if entry.key == 0 {
                            SINGLE
                        } else if set >= 3 {
                            TRIPLE
                        } else {
                            usize::from(entry.col)
                        };
                        let lane = if here.reach(LIMIT - t2) == 0 { 0 } else { t2 as usize };
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
                    insert(&mut ws.arena, slots, stamp, Entry { key, parent: e as u32, score, col: j as u8, own });
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
    }

    /// A real line from the entries of the last pass with the fewest cards left: a beam search from them down
    /// to the end (each level keeping the best states by score plus bound), the best final score.
    pub(super) fn beam(&self, ws: &Workspace) -> u32 {
        let (cols, stride, n) = (&self.cols, self.stride, self.n);
        let here_of = |c: &[usize; 4]| self.here_of(c);
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
                    let Some((key, points)) = step(s.key, cols[j][after[j]], &here_of(&after)) else {
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
                    next.push(BeamState { idx, key, own, top: j, score, priority: score + bound });
                }
            }
            next.sort_unstable_by_key(|s| std::cmp::Reverse((s.priority, s.score)));
            next.dedup_by(|a, b| a.idx == b.idx && a.key == b.key);
            level.clear();
            level.extend(next.iter().take(BEAM_WIDTH));
        }
        level.iter().map(|s| s.score).max().unwrap_or(0)
    }
}

/// Drops the entries of the position just built (`arena[start..]`) whose stack has no part that can still
/// score (key = total alone) when another entry with the same total has at least the same score: any pattern
/// scores at least as much as none on every continuation, so the other entry's best future is at least theirs.
#[inline]
pub(super) fn drop_dominated(arena: &mut Vec<Entry>, start: usize) {
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
pub(super) fn insert(arena: &mut Vec<Entry>, slots: &mut [Slot], stamp: u32, entry: Entry) {
    let mask = slots.len() - 1;
    let mut h = (entry.key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
    loop {
        let slot = slots[h];
        if slot.stamp != stamp {
            slots[h] = Slot { key: entry.key, at: arena.len() as u32, stamp };
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
