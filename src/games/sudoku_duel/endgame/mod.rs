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
//! (the player who cannot move loses), which the search solves exactly: a depth-first
//! search in which a position is won iff some move leads to a lost position. Everything
//! below only changes the order of the moves or settles a position by a fact that holds in
//! every line, never the verdict.
//!
//! * Sets are bitsets over a *frame* ([`frames`]): a numbering of a subset of the solutions.
//!   The search starts with one frame over all solutions; a child that fits in fewer 64-bit
//!   words gets a new frame numbering just its solutions, its moves being the parent's moves
//!   packed into the new numbering (BMI2's PEXT a word, or a byte-wise table without it).
//!   Packing is a bijection between the child's subsets in the two numberings, so the moves
//!   and their counts are the same sets. Frame widths are powers of two (const generic `W`).
//! * Moves ([`moves`]) are gathered without a branch, deduplicated (two moves keeping the same
//!   set are one move) and ordered by count.
//! * The busiest functions ([`expand`](Search::expand), [`narrow_frame`](Search::narrow_frame),
//!   [`refuted`](Search::refuted)) have a second copy compiled for x86-64-v3 (popcnt, BMI,
//!   AVX2), used when the CPU has those; both copies run the same inlined body.
//! * A position is hashed as the XOR of random 64-bit ids of its solutions (independent of
//!   the frame). Verdicts of searched positions go into a flat open-addressing table by hash
//!   ([`table`]), shared by the threads. A verdict depends only on the set, so a hit is exact
//!   (up to a 64-bit hash collision).
//! * Threads ([`threads`]): the first position, when it has at least [`PARALLEL_MIN`]
//!   solutions, hands its open moves to one thread per processor. Each first move is still
//!   searched whole by the same search; threads sharing a move's replies by claims only
//!   divide the work, and a move settled by one thread is settled for all.
//! * Closed forms (see [`expand`](Search::expand)): a position with a move keeping one
//!   solution is won; a position of 2 or 3 solutions always has one, so moves keeping 2 or 3
//!   lose; a position of 4 or 5 solutions without one is lost (every move keeps 2 or 3). A
//!   move is tested for leaving the opponent a one-solution move (`has_single`) without
//!   being searched; a position whose every move is settled this way (or by the table) as
//!   a win for the opponent is lost.
//! * Children known lost from the table win at once (checked for all children before any
//!   search).
//! * Ordering: in a one-word frame (up to 64 solutions), each open move keeping at most a
//!   third of the position is expanded one move ahead; a move found lost there wins at
//!   once, one found won is skipped, the others are searched by how many open replies they
//!   leave, fewest first (moves keeping more than a third come after, by increasing count).
//!   In wider frames the open moves go by increasing count alone. The reply that refuted
//!   the previous sibling is tried first (killer).
//! * Transposition trick: when move A is refuted by reply B (reaching `A ∩ B`) and A is still
//!   legal after B (`|B| > |A ∩ B|`), then B is refuted by reply A (both reach `A ∩ B`
//!   with the same player to move): every move `B` of the position with `A ∩ B` equal to
//!   the refuting position is marked won for its mover and skipped.
//!
//! What was measured and tried for the speed of this search is in `docs/experiments.md`.

mod frames;
mod moves;
mod table;
#[cfg(test)]
mod tests;
mod threads;

use frames::*;
use moves::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use table::*;

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

/// The most solutions an endgame is solved over.
pub const MAX_SOLUTIONS: usize = 64 * MAX_WIDTH;

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

/// Solves the game over `solutions` (distinct, at least two, all agreeing on the filled
/// cells). `None` when the deadline passed first, or the set is degenerate (fewer than two
/// solutions, or more than 65,536).
pub fn solve_endgame(solutions: &[[u8; CELLS]], deadline: Option<Instant>) -> Option<EndgameResult> {
    solve_joining_after(solutions, deadline, JOIN_AFTER).ok()
}

/// Why [`solve_joining_after`] gives no verdict.
#[derive(Debug, PartialEq, Eq)]
enum NoVerdict {
    /// Fewer than two solutions, or more than the search holds.
    Degenerate,
    /// The deadline passed, after this many positions were expanded on all threads.
    Stopped { nodes: u64 },
}

/// [`solve_endgame`], the threads joining a first move searched for `join_after` or more.
fn solve_joining_after(
    solutions: &[[u8; CELLS]],
    deadline: Option<Instant>,
    join_after: Duration,
) -> Result<EndgameResult, NoVerdict> {
    if solutions.len() < 2 || solutions.len() > MAX_SOLUTIONS {
        return Err(NoVerdict::Degenerate);
    }
    // Independent random ids from a fixed seed, so that runs are reproducible.
    let mut rng = StdRng::seed_from_u64(0x2545_F491_4F6C_DD1D_u64 ^ solutions.len() as u64);
    let ids = (0..solutions.len()).map(|_| rng.random::<u64>()).collect();
    let table = Table::new((solutions.len() * 128).clamp(1 << 16, 1 << 23).next_power_of_two());
    let mut search = Search {
        sols: solutions,
        table: &table,
        deadline,
        join_after,
        stops: Vec::new(),
        share: None,
        nodes: 0,
        aborted: false,
    };
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
    }
    .ok_or(NoVerdict::Stopped { nodes: search.nodes })?;
    let best = Move::new(cell as usize, digit).with_claim(count == 1);
    Ok(EndgameResult { win, best, remaining: count as usize, nodes: search.nodes })
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
    unsafe fn expand_v3<const W: usize>(
        &mut self,
        frame: &Frame,
        s: &[u64; W],
        n: u32,
        cands: &[Kid<W>],
    ) -> Expansion<W> {
        self.expand_body(frame, s, n, cands)
    }

    #[inline(always)]
    fn expand_body<const W: usize>(&mut self, frame: &Frame, s: &[u64; W], n: u32, cands: &[Kid<W>]) -> Expansion<W> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256)
            && (self.stops.iter().any(|s| s.load(Relaxed))
                || self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|t| Instant::now() >= t))
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
            let ahead =
                (W == 1 && !alone && kid.count * 3 <= n).then(|| self.expand(frame, &kid.mask, kid.count, &kids));
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
    fn refuted<const W: usize>(
        &self,
        frame: &Frame,
        kids: &[Kid<W>],
        kid: &Kid<W>,
        reply: &[u64; W],
        won: &mut [bool],
    ) -> Option<[u64; W]> {
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
    unsafe fn refuted_v3<const W: usize>(
        &self,
        frame: &Frame,
        kids: &[Kid<W>],
        kid: &Kid<W>,
        reply: &[u64; W],
        won: &mut [bool],
    ) -> Option<[u64; W]> {
        self.refuted_body(frame, kids, kid, reply, won)
    }

    #[inline(always)]
    fn refuted_body<const W: usize>(
        &self,
        frame: &Frame,
        kids: &[Kid<W>],
        kid: &Kid<W>,
        reply: &[u64; W],
        won: &mut [bool],
    ) -> Option<[u64; W]> {
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
    fn narrow_frame<const W: usize, const V: usize>(
        &self,
        frame: &Frame,
        kid: &Kid<W>,
        kids: &[Kid<W>],
    ) -> (Frame, Vec<Kid<V>>) {
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
    unsafe fn narrow_frame_v3<const W: usize, const V: usize>(
        &self,
        frame: &Frame,
        kid: &Kid<W>,
        kids: &[Kid<W>],
    ) -> (Frame, Vec<Kid<V>>) {
        self.narrow_frame_body(frame, kid, kids)
    }

    #[inline(always)]
    fn narrow_frame_body<const W: usize, const V: usize>(
        &self,
        frame: &Frame,
        kid: &Kid<W>,
        kids: &[Kid<W>],
    ) -> (Frame, Vec<Kid<V>>) {
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
