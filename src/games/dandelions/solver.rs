//! The solver: AND/OR proof search over bitboards with a fixed-size
//! transposition table and symmetry canonicalisation.
//!
//! Every position has a proven value: the dandelions win (every cell
//! covered after the wind's last turn) or the wind wins. The search is a
//! plain depth-first AND/OR search that stops at the first proof: at a
//! dandelions node one winning placement suffices (OR), at a wind node every
//! direction must lose for the wind (AND).
//!
//! * **State.** Seeds (`cov`, flower cells included), flowers (`fl`) and the
//!   directions left (`dirs`); the number of turns left follows from them.
//!   A [`Position`] stores them packed in one integer
//!   ([`super::board::State`]); the search keeps the three fields in
//!   registers and packs them again, canonically, as the table key.
//!   Blowing is `cov |= spread(fl, d)`: `n − 1` masked shifts.
//! * **Last placement in closed form.** With one flower left to place the
//!   dandelions must pick `x` so that for *every* direction `d` the wind
//!   could blow last, the cells still missing after `d`, `M_d`, lie on the
//!   line from `x` in direction `d`. So `x` must lie in the intersection over
//!   `m ∈ M_d` of the "back lines" of `m` (cells whose seeds blown in `d`
//!   reach `m`); the two last plies cost a handful of masks instead of a
//!   search.
//! * **Hopeless pruning (sound).** At a dandelions node with `r >= 2`
//!   placements left, consider the wind strategy "never blow `s`, blow the
//!   others in any order" (for each direction `s` left, when the wind has a
//!   spare one; otherwise "blow everything left"). Against it the flowers
//!   on the board cover at most `cov ∪ spread(fl, blown)`; call the rest
//!   `M`. The `i`-th flower still to come (0-based) sees at most `r − i`
//!   winds, all from `blown`, so it covers at most its own cell and its
//!   `r − i` richest rays within `M`: at most `1 + (r − i)(n − 1)` cells,
//!   and (computed per cell when `r == 2`) at most
//!   `max_x ([x ∈ M] + sum of the r − i largest |ray(x, d) ∩ M|)`. If even
//!   the sum of these caps is below `|M|`, that wind strategy leaves a
//!   cell empty whatever the dandelions do, so the wind wins.
//! * **Symmetry.** The key of a position is the minimum, over the 8
//!   symmetries of the square, of `dirs‖fl‖cov` with the directions mapped
//!   by the same symmetry. Directions are the most significant part, so
//!   only the symmetries that minimise the direction set need their boards
//!   transformed.
//! * **Transposition table.** A fixed array of two-entry buckets (16 bytes).
//!   The key is first mixed by a bijection of its `2n² + 8` bits; the low
//!   bits pick the bucket and the rest is stored as the tag, so the table
//!   is exact (no false hits) in 8 bytes an entry. Replacement: the first
//!   entry keeps the deepest result (demoting what it held to the second),
//!   the second takes anything else.
//! * **Move ordering.** The dandelions first try the placement whose own
//!   cell and rays in the directions left hold the most uncovered cells;
//!   the wind first tries the direction that adds the fewest seeds now.
//! * **Where the table is used.** Dandelions nodes with at least 2
//!   placements left and wind nodes with at least 3 winds left (below
//!   that, re-searching is cheaper than canonicalising).

use std::time::{Duration, Instant};

use super::board::{Cell, Dir, Geometry, Move, Position};
use super::Side;

/// The per-cell hopeless bound is computed with at most this many
/// placements left (above it the bound is loose and costly).
const REFINED_MAX_R: u32 = 2;

/// Default transposition table size: 16 MiB (6 × 6 boards need and get
/// at least 32 MiB). The 5 × 5 proofs use a small part of it; a larger
/// table only adds page faults.
pub const DEFAULT_TABLE_BYTES: usize = 16 << 20;

/// Solver settings.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Memory for the transposition table, in bytes (rounded down to a
    /// power of two number of 16-byte buckets, at least 2²¹ buckets on 6 × 6).
    pub table_bytes: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { table_bytes: DEFAULT_TABLE_BYTES }
    }
}

/// The proven value of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who wins with perfect play from the position.
    pub winner: Side,
    /// The side to move (`None` when the game is over).
    pub to_move: Option<Side>,
    /// A move for the side to move: a winning one if that side wins,
    /// otherwise the first legal move in the solver's order.
    pub best_move: Option<Move>,
    /// Search nodes visited.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// Solves one position with a fresh table.
pub fn solve(position: &Position, options: &SolveOptions) -> Outcome {
    let mut solver = Solver::new(position.size(), position.turns(), options);
    solver.outcome(position)
}

/// Fixed-size, exact transposition table of proven results.
pub struct Table {
    slots: Vec<u64>,
    bucket_bits: u32,
    key_bits: u32,
}

const TAG_BITS: u32 = 59;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;
const RESULT_BIT: u64 = 1 << TAG_BITS;
const PRIORITY_SHIFT: u32 = 60;

impl Table {
    /// A table for keys of `key_bits` bits (at most 80) in about `bytes` bytes.
    pub fn new(key_bits: u32, bytes: usize) -> Table {
        assert!(key_bits <= 80);
        let buckets = (bytes / 16).max(2);
        let mut bucket_bits = usize::BITS - 1 - buckets.leading_zeros();
        // The tag (the key bits not implied by the bucket) must fit.
        bucket_bits = bucket_bits.max(key_bits.saturating_sub(TAG_BITS)).max(1);
        Table { slots: vec![0; 2usize << bucket_bits], bucket_bits, key_bits }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
    }

    /// A bijection of the low `key_bits` bits (odd multipliers and
    /// xor-shifts are invertible modulo 2^k).
    #[inline(always)]
    fn mix(&self, key: u128) -> (usize, u64) {
        let k = self.key_bits;
        let mask = (1u128 << k) - 1;
        let mut x = key.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) & mask;
        x ^= x >> (k / 2);
        x = x.wrapping_mul(0xd6e8_feb8_6659_fd93_a5cb_3a4d_9b1b_7d1b) & mask;
        x ^= x >> (k / 2 + 1);
        let bucket = (x as usize) & ((1usize << self.bucket_bits) - 1);
        (bucket * 2, (x >> self.bucket_bits) as u64)
    }

    #[inline]
    pub fn probe(&self, key: u128) -> Option<bool> {
        let (i, tag) = self.mix(key);
        for e in [self.slots[i], self.slots[i + 1]] {
            if e >> PRIORITY_SHIFT != 0 && e & TAG_MASK == tag {
                return Some(e & RESULT_BIT != 0);
            }
        }
        None
    }

    /// Stores a result; `priority` (1..=15) is the remaining depth, deeper
    /// results are kept in preference.
    #[inline]
    pub fn store(&mut self, key: u128, value: bool, priority: u32) {
        let (i, tag) = self.mix(key);
        let e = tag | if value { RESULT_BIT } else { 0 } | (priority.clamp(1, 15) as u64) << PRIORITY_SHIFT;
        let first = self.slots[i];
        if first & TAG_MASK == tag && first >> PRIORITY_SHIFT != 0 {
            self.slots[i] = e;
        } else if e >> PRIORITY_SHIFT >= first >> PRIORITY_SHIFT {
            self.slots[i + 1] = first;
            self.slots[i] = e;
        } else {
            self.slots[i + 1] = e;
        }
    }
}

/// A reusable solver for one board size and number of turns; its table
/// keeps what it has proven between calls.
pub struct Solver {
    geo: Geometry,
    turns: usize,
    table: Table,
    nodes: u64,
}

impl Solver {
    pub fn new(size: usize, turns: usize, options: &SolveOptions) -> Solver {
        let cells = (size * size) as u32;
        Solver { geo: Geometry::new(size), turns, table: Table::new(2 * cells + 8, options.table_bytes), nodes: 0 }
    }

    /// Nodes visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Bytes held by the transposition table.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    fn check(&self, pos: &Position) {
        assert_eq!(pos.size(), self.geo.size(), "solver made for another board size");
        assert_eq!(pos.turns(), self.turns, "solver made for another number of turns");
    }

    /// Who wins `pos` with perfect play.
    pub fn winner(&mut self, pos: &Position) -> Side {
        self.check(pos);
        let (cov, fl, dirs) = (pos.seeds(), pos.flowers(), pos.winds_left());
        let winds_left = (self.turns - pos.winds_used()) as u32;
        let dandelions = match pos.to_move() {
            None => pos.is_covered(),
            Some(Side::Dandelions) => self.d_node(cov, fl, dirs, winds_left),
            Some(Side::Wind) => self.w_node(cov, fl, dirs, winds_left),
        };
        if dandelions {
            Side::Dandelions
        } else {
            Side::Wind
        }
    }

    /// Every legal move of the side to move with the winner after it, in
    /// the solver's move order.
    pub fn move_values(&mut self, pos: &Position) -> Vec<(Move, Side)> {
        self.ordered_moves(pos)
            .into_iter()
            .map(|mv| {
                let next = pos.play(mv).expect("legal move");
                (mv, self.winner(&next))
            })
            .collect()
    }

    /// A winning move for the side to move if it has one (the first found
    /// in move order), otherwise the first legal move; `None` when the game
    /// is over. Also returns the winner of `pos`.
    pub fn best_move(&mut self, pos: &Position) -> (Option<Move>, Side) {
        let Some(mover) = pos.to_move() else {
            return (None, self.winner(pos));
        };
        let moves = self.ordered_moves(pos);
        for &mv in &moves {
            let next = pos.play(mv).expect("legal move");
            if self.winner(&next) == mover {
                return (Some(mv), mover);
            }
        }
        (moves.first().copied(), mover.other())
    }

    /// Solves `pos`, timing the search.
    pub fn outcome(&mut self, pos: &Position) -> Outcome {
        let start = Instant::now();
        let nodes = self.nodes;
        let (best_move, winner) = self.best_move(pos);
        Outcome { winner, to_move: pos.to_move(), best_move, nodes: self.nodes - nodes, elapsed: start.elapsed() }
    }

    /// Legal moves in the search's order.
    fn ordered_moves(&self, pos: &Position) -> Vec<Move> {
        let n = self.geo.size();
        let (cov, fl, dirs) = (pos.seeds(), pos.flowers(), pos.winds_left());
        match pos.to_move() {
            None => Vec::new(),
            Some(Side::Dandelions) => {
                let mut list = [0u32; 36];
                let len = self.order_placements(cov, fl, dirs, &mut list);
                list[..len].iter().map(|&e| Move::Place(Cell::from_index((e & 0xff) as usize, n))).collect()
            }
            Some(Side::Wind) => {
                let mut list = [0u32; 8];
                let len = self.order_winds(cov, fl, dirs, &mut list);
                list[..len].iter().map(|&e| Move::Blow(Dir::from_index((e & 0xff) as usize))).collect()
            }
        }
    }

    /// Canonical key: the minimum over the 8 symmetries of
    /// `dirs ‖ fl ‖ cov` (directions most significant).
    #[inline]
    fn key(&self, cov: u64, fl: u64, dirs: u8) -> u128 {
        let g = &self.geo;
        let c = g.cells() as u32;
        let mut best_dirs = u8::MAX;
        let mut ts = 0u8;
        for t in 0..8 {
            let d = g.transform_dirs(t, dirs);
            if d < best_dirs {
                best_dirs = d;
                ts = 1 << t;
            } else if d == best_dirs {
                ts |= 1 << t;
            }
        }
        let mut best = u128::MAX;
        while ts != 0 {
            let t = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            let k = (g.transform(t, cov) as u128) | (g.transform(t, fl) as u128) << c;
            best = best.min(k);
        }
        best | (best_dirs as u128) << (2 * c)
    }

    /// Dandelions to move with `r` placements (and `r` winds) left: do they win?
    fn d_node(&mut self, cov: u64, fl: u64, dirs: u8, r: u32) -> bool {
        self.nodes += 1;
        if r == 0 {
            return cov == self.geo.full();
        }
        if r == 1 {
            return self.last_placement(cov, fl, dirs);
        }
        if self.hopeless(cov, fl, dirs, r) {
            return false;
        }
        let key = self.key(cov, fl, dirs);
        if let Some(v) = self.table.probe(key) {
            return v;
        }
        let mut list = [0u32; 36];
        let len = self.order_placements(cov, fl, dirs, &mut list);
        let mut win = false;
        for &e in &list[..len] {
            let bit = 1u64 << (e & 0xff);
            if self.w_node(cov | bit, fl | bit, dirs, r) {
                win = true;
                break;
            }
        }
        self.table.store(key, win, 2 * r);
        win
    }

    /// Wind to move with `w` winds left (the dandelions then have `w − 1`
    /// placements): do the dandelions win?
    fn w_node(&mut self, cov: u64, fl: u64, dirs: u8, w: u32) -> bool {
        self.nodes += 1;
        let use_table = w >= 3;
        let key = if use_table {
            let key = self.key(cov, fl, dirs);
            if let Some(v) = self.table.probe(key) {
                return v;
            }
            key
        } else {
            0
        };
        let mut list = [0u32; 8];
        let len = self.order_winds(cov, fl, dirs, &mut list);
        let mut win = true;
        for &e in &list[..len] {
            let d = (e & 0xff) as usize;
            let c2 = cov | self.geo.spread(fl, d);
            if !self.d_node(c2, fl, dirs & !(1 << d), w - 1) {
                win = false;
                break;
            }
        }
        if use_table {
            self.table.store(key, win, 2 * w - 1);
        }
        win
    }

    /// One placement left, then the wind's last blow: is there a cell `x`
    /// (without a flower) such that every direction left leaves nothing
    /// uncovered?
    #[inline]
    fn last_placement(&self, cov: u64, fl: u64, dirs: u8) -> bool {
        let g = &self.geo;
        let full = g.full();
        let n = g.size() as u32;
        let mut cand = full & !fl;
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let mut miss = full & !(cov | g.spread(fl, d));
            if miss == 0 {
                continue;
            }
            if miss.count_ones() > n {
                return false;
            }
            while miss != 0 {
                let m = miss.trailing_zeros() as usize;
                miss &= miss - 1;
                cand &= g.back_line(m, d);
            }
            if cand == 0 {
                return false;
            }
        }
        cand != 0
    }

    /// Sound "the wind wins" test for a dandelions node with `r >= 2`
    /// placements left (see the module docs).
    #[inline]
    fn hopeless(&self, cov: u64, fl: u64, dirs: u8, r: u32) -> bool {
        let g = &self.geo;
        let full = g.full();
        let n = g.size() as u32;
        let mut spreads = [0u64; 8];
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            spreads[d] = g.spread(fl, d);
        }
        let crude: u32 = (0..r).map(|i| 1 + (r - i) * (n - 1)).sum();
        // Directions the wind may commit to skipping: any one when it has
        // a spare direction; bit 8 stands for "skip nothing".
        let mut skips: u16 = if dirs.count_ones() > r { dirs as u16 } else { 1 << 8 };
        while skips != 0 {
            let s = skips.trailing_zeros();
            skips &= skips - 1;
            let blow = dirs & !((1u16 << s) as u8);
            let mut reach = cov;
            let mut rest = blow;
            while rest != 0 {
                let d = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                reach |= spreads[d];
            }
            let missing = full & !reach;
            let m = missing.count_ones();
            if m == 0 {
                continue;
            }
            if m > crude {
                return true;
            }
            if r > REFINED_MAX_R {
                continue;
            }
            // best[j]: the most missing cells one new flower seeing j winds
            // can cover (its own cell and its j best rays).
            let mut best = [0u32; REFINED_MAX_R as usize + 1];
            let mut free = full & !fl;
            while free != 0 {
                let x = free.trailing_zeros() as usize;
                free &= free - 1;
                let own = ((missing >> x) & 1) as u32;
                let mut top = [0u32; REFINED_MAX_R as usize];
                let mut rest = blow;
                while rest != 0 {
                    let d = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let mut c = (g.ray(x, d) & missing).count_ones();
                    for t in top.iter_mut() {
                        if c > *t {
                            std::mem::swap(&mut c, t);
                        }
                    }
                }
                let mut acc = own;
                for j in 1..=r as usize {
                    acc += top[j - 1];
                    best[j] = best[j].max(acc);
                }
            }
            if best[1..=r as usize].iter().sum::<u32>() < m {
                return true;
            }
        }
        false
    }

    /// Fills `list` with `score << 8 | cell` for every cell without a
    /// flower, best first; returns the count.
    fn order_placements(&self, cov: u64, fl: u64, dirs: u8, list: &mut [u32; 36]) -> usize {
        let g = &self.geo;
        let full = g.full();
        let open = full & !cov;
        let mut len = 0;
        let mut free = full & !fl;
        while free != 0 {
            let x = free.trailing_zeros() as usize;
            free &= free - 1;
            let gain = (g.star(x, dirs) & open).count_ones();
            list[len] = (gain << 8) | x as u32;
            len += 1;
        }
        // Highest gain first, then lowest cell index.
        list[..len].sort_unstable_by_key(|&e| (std::cmp::Reverse(e >> 8), e & 0xff));
        len
    }

    /// Fills `list` with `score << 8 | direction` for every direction
    /// left, best for the wind first; returns the count.
    fn order_winds(&self, cov: u64, fl: u64, dirs: u8, list: &mut [u32; 8]) -> usize {
        let g = &self.geo;
        let mut len = 0;
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let gain = (g.spread(fl, d) & !cov).count_ones();
            list[len] = (gain << 8) | d as u32;
            len += 1;
        }
        list[..len].sort_unstable();
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn key_is_the_same_for_all_eight_images() {
        let mut rng = StdRng::seed_from_u64(21);
        for n in [3, 5, 6] {
            let solver = Solver::new(n, 7, &SolveOptions { table_bytes: 1 << 10 });
            let g = &solver.geo;
            for _ in 0..300 {
                let fl = rng.random::<u64>() & rng.random::<u64>() & g.full();
                let cov = (rng.random::<u64>() & g.full()) | fl;
                let dirs = rng.random::<u8>();
                let key = solver.key(cov, fl, dirs);
                for t in 0..8 {
                    let image = solver.key(g.transform(t, cov), g.transform(t, fl), g.transform_dirs(t, dirs));
                    assert_eq!(image, key);
                }
                // The key is itself one of the images.
                let c = g.cells() as u32;
                let mask = (1u128 << c) - 1;
                let found = (0..8).any(|t| {
                    (key & mask) as u64 == g.transform(t, cov)
                        && ((key >> c) & mask) as u64 == g.transform(t, fl)
                        && (key >> (2 * c)) as u8 == g.transform_dirs(t, dirs)
                });
                assert!(found);
            }
        }
    }

    #[test]
    fn last_placement_matches_trying_every_cell() {
        let mut rng = StdRng::seed_from_u64(22);
        let solver = Solver::new(5, 7, &SolveOptions { table_bytes: 1 << 10 });
        let g = &solver.geo;
        let mut wins = 0;
        for _ in 0..20000 {
            let fl = (0..6).fold(0u64, |m, _| m | 1 << rng.random_range(0..25));
            let cov = (rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>()) & g.full() | fl;
            let dirs = loop {
                let d = rng.random::<u8>() & rng.random::<u8>();
                if d != 0 {
                    break d;
                }
            };
            let brute = (0..25).filter(|&x| fl & (1 << x) == 0).any(|x| {
                let (c2, f2) = (cov | 1 << x, fl | 1 << x);
                (0..8).filter(|d| dirs & (1 << d) != 0).all(|d| c2 | g.spread(f2, d) == g.full())
            });
            assert_eq!(solver.last_placement(cov, fl, dirs), brute);
            wins += brute as u32;
        }
        assert!(wins > 100, "{wins}");
    }

    /// Plain search with no pruning, table or closed form.
    fn brute(g: &Geometry, cov: u64, fl: u64, dirs: u8, r: u32) -> bool {
        if r == 0 {
            return cov == g.full();
        }
        (0..g.cells()).filter(|&x| fl & (1 << x) == 0).any(|x| {
            let (c2, f2) = (cov | 1 << x, fl | 1 << x);
            (0..8).filter(|d| dirs & (1 << d) != 0).all(|d| brute(g, c2 | g.spread(f2, d), f2, dirs & !(1 << d), r - 1))
        })
    }

    #[test]
    fn hopeless_only_fires_on_lost_positions() {
        let mut rng = StdRng::seed_from_u64(23);
        for (n, turns) in [(5, 7), (6, 7), (6, 8), (4, 6)] {
            let solver = Solver::new(n, turns, &SolveOptions { table_bytes: 1 << 10 });
            let g = &solver.geo;
            let mut fired = 0;
            for _ in 0..3000 {
                // Random history up to two placements (and winds) from the end.
                let r = 2;
                let played = turns - r;
                let mut fl = 0u64;
                let mut cov = 0u64;
                let mut dirs = 0xffu8;
                for _ in 0..played {
                    let x = rng.random_range(0..g.cells());
                    fl |= 1 << x;
                    cov |= 1 << x;
                    let left: Vec<usize> = (0..8).filter(|d| dirs & (1 << d) != 0).collect();
                    let d = left[rng.random_range(0..left.len())];
                    cov |= g.spread(fl, d);
                    dirs &= !(1 << d);
                }
                if fl.count_ones() as usize != played {
                    continue;
                }
                if solver.hopeless(cov, fl, dirs, r as u32) {
                    fired += 1;
                    assert!(!brute(g, cov, fl, dirs, r as u32));
                }
            }
            assert!(fired > 10, "{n}x{n} {turns}: fired {fired}");
        }
    }
}
