//! The exact endgame: the game played over a listed set of remaining solutions.
//!
//! A position is the subset of the listed solutions that agree with the board; a move
//! (cell, digit) keeps the solutions with that digit there and is legal when it keeps some
//! but not all of them. A move keeping exactly one solution wins on the spot (claimed with
//! `!`); otherwise the mover wins when some move leaves a position lost for the opponent.
//!
//! * A position is hashed as the XOR of random 64-bit ids of its solutions; one pass over the
//!   solutions gives every child's size and hash, so known children are found without
//!   building them. Results (with the winning move) are kept in a table by hash.
//! * Only cells where the solutions still differ are looked at (a cell with one remaining
//!   digit is forced and dropped), and moves are tried by increasing remaining count.
//! * Transposition trick: when move A is refuted by reply B and A is still legal after B,
//!   then B is refuted by reply A (both reach the same position with the same player to
//!   move): the position after B goes into the table as won by its mover, and B is skipped.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
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
    /// Positions searched.
    pub nodes: u64,
}

#[derive(Clone, Copy)]
struct Known {
    win: bool,
    /// For a win: the winning move (cell, digit) and how many solutions it keeps.
    cell: u8,
    digit: u8,
    count: u32,
}

/// A child of a position: the move and the size and hash of the subset it keeps.
#[derive(Clone, Copy)]
struct Child {
    slot: u8,
    digit: u8,
    count: u32,
    hash: u64,
}

/// The table's keys are already random 64-bit hashes: used as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

struct Search<'a> {
    sols: &'a [[u8; CELLS]],
    ids: Vec<u64>,
    memo: HashMap<u64, Known, BuildHasherDefault<KeyHasher>>,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
}

/// Solves the game over `solutions` (distinct, at least two, all agreeing on the filled
/// cells). `None` when the deadline passed first or the set is degenerate.
pub fn solve_endgame(solutions: &[[u8; CELLS]], deadline: Option<Instant>) -> Option<EndgameResult> {
    if solutions.len() < 2 {
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
    let mut search = Search { sols: solutions, ids, memo: HashMap::default(), deadline, nodes: 0, aborted: false };
    let set: Vec<u32> = (0..solutions.len() as u32).collect();
    let live: Vec<u8> = (0..CELLS as u8).collect();
    let hash = set.iter().fold(0, |h, &s| h ^ search.ids[s as usize]);
    let known = search.node(&set, &live, hash, None)?;
    let (children, live_here) = search.children(&set, &live);
    let (cell, digit, count) = if known.win {
        (known.cell, known.digit, known.count)
    } else {
        let c = children.iter().max_by_key(|c| c.count)?;
        (live_here[c.slot as usize], c.digit, c.count)
    };
    let best = Move::new(cell as usize, digit).with_claim(count == 1);
    Some(EndgameResult { win: known.win, best, remaining: count as usize, nodes: search.nodes })
}

impl Search<'_> {
    /// The legal moves of the position `set` (cells restricted to `live`), and the cells
    /// where its solutions differ (the children's `slot` indexes this list).
    fn children(&self, set: &[u32], live: &[u8]) -> (Vec<Child>, Vec<u8>) {
        let n = set.len() as u32;
        let mut count = vec![0u32; live.len() * 9];
        let mut hash = vec![0u64; live.len() * 9];
        for &s in set {
            let row = &self.sols[s as usize];
            let id = self.ids[s as usize];
            for (k, &cell) in live.iter().enumerate() {
                let i = k * 9 + row[cell as usize] as usize - 1;
                count[i] += 1;
                hash[i] ^= id;
            }
        }
        let mut children = Vec::new();
        let mut live_here = Vec::new();
        for (k, &cell) in live.iter().enumerate() {
            let slot = &count[k * 9..k * 9 + 9];
            if slot.contains(&n) {
                continue; // every solution has the same digit here: forced, dropped
            }
            let index = live_here.len() as u8;
            live_here.push(cell);
            for (d, &c) in slot.iter().enumerate() {
                if c > 0 {
                    children.push(Child { slot: index, digit: d as u8 + 1, count: c, hash: hash[k * 9 + d] });
                }
            }
        }
        (children, live_here)
    }

    /// Solves the position `set` (hash `hash`), trying `killer` (a move that refuted a
    /// sibling) first; `None` when aborted.
    fn node(&mut self, set: &[u32], live: &[u8], hash: u64, killer: Option<(u8, u8)>) -> Option<Known> {
        if let Some(&k) = self.memo.get(&hash) {
            return Some(k);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && self.deadline.is_some_and(|t| Instant::now() >= t) {
            self.aborted = true;
        }
        if self.aborted {
            return None;
        }
        let (all, live_here) = self.children(set, live);
        let win = |c: &Child| Known { win: true, cell: live_here[c.slot as usize], digit: c.digit, count: c.count };
        // A move keeping one solution wins at once; so does one into a known lost position.
        if let Some(c) = all.iter().find(|c| c.count == 1 || self.memo.get(&c.hash).is_some_and(|k| !k.win)) {
            let k = win(c);
            self.memo.insert(hash, k);
            return Some(k);
        }
        // The child of a move (cell, digit), if legal here.
        let find = |cell: u8, digit: u8| {
            let slot = live_here.iter().position(|&c| c == cell)?;
            all.iter().find(|c| c.slot as usize == slot && c.digit == digit)
        };
        // Moves keeping the same solutions are one move: keep one per child hash.
        let mut children = all.clone();
        children.sort_by_key(|c| (c.count, c.hash));
        children.dedup_by_key(|c| c.hash);
        if let Some(k) = killer.and_then(|(cell, digit)| find(cell, digit)) {
            if let Some(i) = children.iter().position(|c| c.hash == k.hash) {
                children[..=i].rotate_right(1);
            }
        }
        let mut killer = None;
        for c in &children {
            let reply = match self.memo.get(&c.hash) {
                Some(&k) => k,
                None => {
                    let cell = live_here[c.slot as usize] as usize;
                    let sub: Vec<u32> = set.iter().copied().filter(|&s| self.sols[s as usize][cell] == c.digit).collect();
                    self.node(&sub, &live_here, c.hash, killer)?
                }
            };
            if !reply.win {
                let k = win(c);
                self.memo.insert(hash, k);
                return Some(k);
            }
            killer = Some((reply.cell, reply.digit));
            // Reply B refutes A; B is refuted by A too when A is still legal after B: the
            // position after B is a win for its mover, with A.
            if let Some(b) = find(reply.cell, reply.digit).filter(|b| b.count > reply.count) {
                let a = Known { win: true, cell: live_here[c.slot as usize], digit: c.digit, count: reply.count };
                self.memo.entry(b.hash).or_insert(a);
            }
        }
        let k = Known { win: false, cell: 0, digit: 0, count: 0 };
        self.memo.insert(hash, k);
        Some(k)
    }
}
