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
//! * Sets are bitsets over a *frame*: a numbering of a subset of the solutions. The search
//!   starts with one frame over all solutions; a child that fits in fewer 64-bit words gets a
//!   new frame numbering just its solutions (built from the solution grids, cells where they
//!   differ only), so a set of up to 64 solutions is one `u64` and a move is one AND and a
//!   popcount. Frame widths are powers of two (const generic `W`).
//! * A position is hashed as the XOR of random 64-bit ids of its solutions (independent of
//!   the frame). Results of positions that needed a search go into a flat table by hash.
//! * Closed forms (see [`node`](Search::node)): a position with a move keeping one
//!   solution is won; a position of 2 or 3 solutions always has one, so moves keeping 2 or 3
//!   lose; a position of 4 or 5 solutions without one is lost (every move keeps 2 or 3). A
//!   child is tested for a one-solution move (`has_single`) with one AND and popcount per
//!   move of its parent, without being searched.
//! * Moves are tried by increasing remaining count, the reply that refuted the previous
//!   sibling first (killer). Children known lost from the table win at once (checked for
//!   all children before any search).
//! * Transposition trick: when move A is refuted by reply B (reaching `A ∩ B`) and A is still
//!   legal after B (`|B| > |A ∩ B|`), then B is refuted by reply A (both reach `A ∩ B`
//!   with the same player to move): every move `B` of the position with `A ∩ B` equal to
//!   the refuting position is marked won for its mover and skipped.

use std::time::Instant;

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

/// A numbering of some solutions: bit `i` of a set over this frame is solution `items[i]`.
struct Frame {
    items: Vec<u32>,
    /// `ids[i]`: the hash id of `items[i]`.
    ids: Vec<u64>,
    /// The cells where these solutions differ.
    cells: Vec<u8>,
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

/// Results by position hash: a flat open-addressing table of 64-bit words, bit 0 set in
/// every used slot, bit 1 the result (won for the player to move), bits 2.. the hash.
struct Table {
    slots: Vec<u64>,
    len: usize,
}

impl Table {
    fn new() -> Table {
        Table { slots: vec![0; 1 << 16], len: 0 }
    }

    fn key(hash: u64) -> u64 {
        hash & !3
    }

    fn get(&self, hash: u64) -> Option<bool> {
        let mask = self.slots.len() - 1;
        let key = Table::key(hash);
        let mut i = (hash >> 20) as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if slot & !3 == key {
                return Some(slot & 2 != 0);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `win` for `hash` (keeps an existing entry).
    fn insert(&mut self, hash: u64, win: bool) {
        if 2 * (self.len + 1) > self.slots.len() {
            let size = self.slots.len() * 2;
            let old = std::mem::replace(&mut self.slots, vec![0; size]);
            self.len = 0;
            for slot in old.into_iter().filter(|&s| s != 0) {
                self.put(slot);
            }
        }
        self.put(Table::key(hash) | 1 | if win { 2 } else { 0 });
    }

    fn put(&mut self, entry: u64) {
        let mask = self.slots.len() - 1;
        let mut i = (entry >> 20) as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.slots[i] = entry;
                self.len += 1;
                return;
            }
            if slot & !3 == entry & !3 {
                return;
            }
            i = (i + 1) & mask;
        }
    }
}

struct Search<'a> {
    sols: &'a [[u8; CELLS]],
    ids: Vec<u64>,
    table: Table,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
}

fn and<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|i| a[i] & b[i])
}

fn count<const W: usize>(a: &[u64; W]) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}

/// Whether `a ∩ b` has exactly one element.
fn single<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
    if W == 1 {
        let x = a[0] & b[0];
        return x != 0 && x & (x - 1) == 0;
    }
    let mut seen = 0;
    for i in 0..W {
        seen += (a[i] & b[i]).count_ones();
        if seen > 1 {
            return false;
        }
    }
    seen == 1
}

/// Whether the position `c` (a move of a position whose moves are `kids`) has a move
/// keeping one solution: some `c ∩ M` with one element.
fn has_single<const W: usize>(c: &[u64; W], kids: &[Kid<W>]) -> bool {
    kids.iter().any(|k| single(c, &k.mask))
}

/// The frame width (words, a power of two) for a set of `n` solutions.
fn width_for(n: usize) -> usize {
    n.div_ceil(64).next_power_of_two()
}

/// The set bits of `mask`, in order.
fn bits(mask: &[u64]) -> impl Iterator<Item = usize> + '_ {
    mask.iter().enumerate().flat_map(|(j, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                64 * j + b
            })
        })
    })
}

/// The set of the first `n` positions.
fn first<const W: usize>(n: usize) -> [u64; W] {
    std::array::from_fn(|j| match n.saturating_sub(64 * j).min(64) {
        64 => !0,
        r => (1u64 << r) - 1,
    })
}

/// Solves the game over `solutions` (distinct, at least two, all agreeing on the filled
/// cells). `None` when the deadline passed first, or the set is degenerate (fewer than two
/// solutions, or more than 65,536).
pub fn solve_endgame(solutions: &[[u8; CELLS]], deadline: Option<Instant>) -> Option<EndgameResult> {
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
    let mut search = Search { sols: solutions, ids, table: Table::new(), deadline, nodes: 0, aborted: false };
    let root = Frame { items: (0..solutions.len() as u32).collect(), ids: Vec::new(), cells: (0..CELLS as u8).collect() };
    let (win, cell, digit, count) = match width_for(solutions.len()) {
        1 => search.root::<1>(&root),
        2 => search.root::<2>(&root),
        4 => search.root::<4>(&root),
        8 => search.root::<8>(&root),
        16 => search.root::<16>(&root),
        32 => search.root::<32>(&root),
        64 => search.root::<64>(&root),
        128 => search.root::<128>(&root),
        256 => search.root::<256>(&root),
        512 => search.root::<512>(&root),
        _ => search.root::<MAX_WIDTH>(&root),
    }?;
    let best = Move::new(cell as usize, digit).with_claim(count == 1);
    Some(EndgameResult { win, best, remaining: count as usize, nodes: search.nodes })
}

impl Search<'_> {
    /// Builds the frame over the solutions of `within` that are in `set` (a set over
    /// `within`), and the moves of the whole frame (distinct, sorted by count and mask).
    fn frame<const W: usize>(&self, within: &Frame, set: &[u64]) -> (Frame, Vec<Kid<W>>) {
        let items: Vec<u32> = bits(set).map(|i| within.items[i]).collect();
        let ids = items.iter().map(|&s| self.ids[s as usize]).collect();
        let mut cells = Vec::new();
        let mut kids = Vec::new();
        let mut masks = vec![[0u64; W]; 9];
        for &cell in &within.cells {
            masks.iter_mut().for_each(|m| *m = [0; W]);
            let mut present = 0u16;
            for (q, &s) in items.iter().enumerate() {
                let d = self.sols[s as usize][cell as usize] as usize - 1;
                masks[d][q / 64] |= 1 << (q % 64);
                present |= 1 << d;
            }
            if present.count_ones() < 2 {
                continue; // forced: every solution here has the same digit
            }
            cells.push(cell);
            for d in 0..9 {
                if present & (1 << d) != 0 {
                    kids.push(Kid { mask: masks[d], count: count(&masks[d]), cell, digit: d as u8 + 1 });
                }
            }
        }
        kids.sort_unstable_by(|a, b| (a.count, a.mask).cmp(&(b.count, b.mask)));
        kids.dedup_by(|a, b| a.mask == b.mask);
        (Frame { items, ids, cells }, kids)
    }

    /// Solves the whole frame `root` (all solutions, width `W`): (win, cell, digit, count)
    /// of the move to play.
    fn root<const W: usize>(&mut self, root: &Frame) -> Option<(bool, u8, u8, u32)> {
        let n = root.items.len();
        let all = first::<W>(n);
        let (frame, kids) = self.frame::<W>(root, &all);
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
        bits(mask).fold(0, |h, i| h ^ frame.ids[i])
    }

    /// Solves the position `s` (`n` solutions, a set over `frame`, hash `hash`) whose moves
    /// are among `cands` (moves of its parent, or of the whole frame), trying `killer` (a
    /// set over the frame: the move that refuted a sibling) first. `None` when aborted.
    ///
    /// Closed forms: two distinct solutions differ in some cell, where each has a digit the
    /// other lacks: a move keeping one. Three solutions differ in some cell, which splits
    /// them into groups of which one has a single solution. So a position of 2 or 3
    /// solutions is won at once, and a move keeping 2 or 3 loses. A position without a
    /// one-solution move keeps at least 2 of its solutions out of each move, so with 4 or 5
    /// solutions every move keeps 2 or 3: lost.
    fn node<const W: usize>(
        &mut self,
        frame: &Frame,
        s: &[u64; W],
        n: u32,
        cands: &[Kid<W>],
        hash: u64,
        killer: Option<[u64; W]>,
    ) -> Option<Verdict<W>> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|t| Instant::now() >= t) {
            self.aborted = true;
        }
        if self.aborted {
            return None;
        }
        let mut kids = Vec::with_capacity(cands.len());
        for c in cands {
            let mask = and(s, &c.mask);
            let k = count(&mask);
            if k == 1 {
                return Some(Verdict::Win(Kid { mask, count: 1, ..*c }));
            }
            if k > 0 && k < n {
                kids.push(Kid { mask, count: k, ..*c });
            }
        }
        if n <= 5 {
            return Some(Verdict::Loss);
        }
        kids.sort_unstable_by(|a, b| (a.count, a.mask).cmp(&(b.count, b.mask)));
        kids.dedup_by(|a, b| a.mask == b.mask);
        // Settle what can be settled without search; the rest waits, with its hash.
        let mut open: Vec<(usize, u64)> = Vec::new();
        let mut won = vec![false; kids.len()];
        for (i, kid) in kids.iter().enumerate() {
            if kid.count <= 3 || has_single(&kid.mask, &kids) {
                won[i] = true; // the opponent claims
                continue;
            }
            if kid.count <= 5 {
                self.table.insert(hash, true);
                return Some(Verdict::Win(*kid));
            }
            let h = Search::hash(frame, &kid.mask);
            match self.table.get(h) {
                Some(false) => {
                    self.table.insert(hash, true);
                    return Some(Verdict::Win(*kid));
                }
                Some(true) => won[i] = true,
                None => open.push((i, h)),
            }
        }
        if let Some(k) = killer {
            let k = and(s, &k);
            if let Some(p) = open.iter().position(|&(i, _)| kids[i].mask == k) {
                open[..=p].rotate_right(1);
            }
        }
        let mut killer = None;
        for &(i, h) in &open {
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
            let Some(reply) = self.child(frame, &kid, &kids, h, killer)? else {
                self.table.insert(hash, true);
                return Some(Verdict::Win(kid));
            };
            // `reply` (a subset of `kid`) refutes `kid`. Every move B with kid ∩ B = reply
            // and B larger than reply is refuted by `kid` in turn.
            let r = count(&reply);
            killer = None;
            for (j, b) in kids.iter().enumerate() {
                if and(&b.mask, &kid.mask) == reply {
                    killer.get_or_insert(b.mask);
                    if b.count > r && !won[j] {
                        won[j] = true;
                        self.table.insert(Search::hash(frame, &b.mask), true);
                    }
                }
            }
        }
        self.table.insert(hash, false);
        Some(Verdict::Loss)
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
        let (set, killer) = (&kid.mask[..], killer.as_ref().map(|k| &k[..]));
        let reply = match w {
            1 => self.narrow::<1>(frame, set, hash, killer),
            2 => self.narrow::<2>(frame, set, hash, killer),
            4 => self.narrow::<4>(frame, set, hash, killer),
            8 => self.narrow::<8>(frame, set, hash, killer),
            16 => self.narrow::<16>(frame, set, hash, killer),
            32 => self.narrow::<32>(frame, set, hash, killer),
            64 => self.narrow::<64>(frame, set, hash, killer),
            128 => self.narrow::<128>(frame, set, hash, killer),
            256 => self.narrow::<256>(frame, set, hash, killer),
            _ => self.narrow::<512>(frame, set, hash, killer),
        }?;
        Some(reply.map(|r| std::array::from_fn(|j| r[j])))
    }

    /// [`child`](Search::child) in a new frame of width `V` over the solutions of `set` (a
    /// set over `frame`), with `killer` over `frame`; the reply comes back over `frame`.
    fn narrow<const V: usize>(&mut self, frame: &Frame, set: &[u64], hash: u64, killer: Option<&[u64]>) -> Option<Option<Vec<u64>>> {
        let (sub, kids) = self.frame::<V>(frame, set);
        let n = sub.items.len();
        // Position q of the new frame is the q-th solution of `set`.
        let places: Vec<usize> = bits(set).collect();
        let killer = killer.map(|k| {
            let mut m = [0u64; V];
            for (q, &p) in places.iter().enumerate() {
                if k[p / 64] >> (p % 64) & 1 != 0 {
                    m[q / 64] |= 1 << (q % 64);
                }
            }
            m
        });
        Some(match self.node(&sub, &first::<V>(n), n as u32, &kids, hash, killer)? {
            Verdict::Win(r) => {
                let mut m = vec![0u64; set.len()];
                for q in bits(&r.mask) {
                    let p = places[q];
                    m[p / 64] |= 1 << (p % 64);
                }
                Some(m)
            }
            Verdict::Loss => None,
        })
    }
}
