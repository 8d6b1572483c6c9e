//! Exhaustive 5×5 enumeration by retrograde analysis.
//!
//! The state space for K helpers is every placement of one human and K interchangeable
//! robots on the 5×5 board (no blocks, target = centre). A backward breadth-first search
//! starts from every goal state (human on the centre, distance 0) and walks reverse moves,
//! so each solvable state gets its shortest-solution length in one sweep; states never
//! reached are unsolvable.
//!
//! # Reverse moves
//!
//! A forward slide takes a piece from `a` to `b` in direction `d`: every cell after `a` up
//! to `b` is empty and the cell `b + d` holds a blocker, which is not the moving piece and
//! so is still there afterwards. Reading that backwards from the state after the move: a
//! piece on `b` can have arrived by a slide in direction `d` iff `b + d` is on the board and
//! occupied, and then it came from any cell `a = b - k·d` (`k >= 1`) such that the cells
//! `b - d, …, a` are all empty — i.e. exactly the cells of the smear from `b` in direction
//! `-d` over empty cells. (The start cell `a` cannot be `b` itself, which rules out
//! zero-length slides, and the blocker requirement rules out slides off the board.)
//!
//! The goal states are absorbing (the game ends when the human reaches the centre), so the
//! goal layer is only expanded through human moves; robot moves from a goal state lead to
//! goal states, and human moves that would start on the centre lead back to one. Both are
//! already settled at distance 0.
//!
//! # Indexing and parallelism
//!
//! A state's index is `cell(human) · C(25, K) + colex_rank(robots)`, where the robots'
//! rank is read from per-row tables (five lookups, no bit compression); ranks of robot
//! sets that include the human's cell are simply never used. Distances live in one
//! `AtomicU8` per index. Each BFS layer is split across the rayon pool; a worker claims a
//! predecessor with a compare-and-swap from "unseen" to the next distance, so every state
//! enters exactly one layer.
//!
//! # Symmetry
//!
//! The 8 symmetries of the square fix the centre, so distances are invariant under them
//! (checked by a test); the hardest positions are reported once per symmetry class,
//! represented by the class member with the smallest key.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::bitboard::{shift, smear, Bits, Dir, STRIDE};
use super::board::Board;
use super::error::LunarError;

/// Side of the enumerated board.
pub const SIDE: usize = 5;
/// Most helpers the enumeration supports.
pub const MAX_HELPERS: usize = 5;
/// Bit of the centre cell (2,2).
const CENTRE: u32 = 2 * STRIDE as u32 + 2;
/// The 25 cells of the 5×5 board in the 8×8 layout.
const BOARD: u64 = 0x1F_1F1F_1F1F;
/// Distance value of a state not reached (yet).
const UNSEEN: u8 = u8::MAX;
/// Packed states keep the human's bit index above the robots' mask.
const HUMAN_SHIFT: u32 = 56;
const ROBOT_BITS: u64 = (1 << HUMAN_SHIFT) - 1;

/// Binomial coefficient (small arguments only).
pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// 0..25 index of a 5×5 cell given by its bit index.
#[inline]
fn dense(sq: u32) -> usize {
    (sq as usize / STRIDE) * SIDE + sq as usize % STRIDE
}

/// Colex ranking of robot sets by per-row tables.
struct Ranker {
    /// `table[row][robots in earlier rows][row pattern]`: the row's share of the rank.
    table: [[[u32; 32]; MAX_HELPERS + 1]; SIDE],
}

impl Ranker {
    fn new() -> Ranker {
        let mut table = [[[0u32; 32]; MAX_HELPERS + 1]; SIDE];
        for (r, per_row) in table.iter_mut().enumerate() {
            for (before, per_count) in per_row.iter_mut().enumerate() {
                for (pattern, slot) in per_count.iter_mut().enumerate() {
                    let mut ordinal = before as u64;
                    let mut value = 0;
                    for i in 0..SIDE {
                        if pattern >> i & 1 != 0 {
                            // The robot on dense cell p with `ordinal` robots below it
                            // contributes C(p, ordinal + 1).
                            value += binomial((r * SIDE + i) as u64, ordinal + 1);
                            ordinal += 1;
                        }
                    }
                    *slot = value as u32;
                }
            }
        }
        Ranker { table }
    }

    /// Colex rank of a set of at most 5 robots among all sets of the same size.
    #[inline]
    fn rank(&self, robots: u64) -> usize {
        let mut before = 0usize;
        let mut rank = 0u32;
        for (r, per_row) in self.table.iter().enumerate() {
            let pattern = (robots >> (r * STRIDE)) as usize & 31;
            rank += per_row[before][pattern];
            before += pattern.count_ones() as usize;
        }
        rank as usize
    }
}

/// Every mask made of `k` of the given bit indices (at most 31 of them), by Gosper's hack
/// (next integer with the same number of set bits).
pub(crate) fn subsets(cells: &[u32], k: usize) -> impl Iterator<Item = u64> + '_ {
    assert!(cells.len() < 32 && (1..=cells.len()).contains(&k));
    let end = 1u64 << cells.len();
    let mut combo = (1u64 << k) - 1;
    std::iter::from_fn(move || {
        if combo >= end {
            return None;
        }
        let mask = Bits(combo).fold(0u64, |m, b| m | 1 << cells[b.trailing_zeros() as usize]);
        let low = combo & combo.wrapping_neg();
        let ripple = combo + low;
        combo = (((ripple ^ combo) >> 2) / low) | ripple;
        Some(mask)
    })
}

#[inline]
fn pack(human_sq: u32, robots: u64) -> u64 {
    u64::from(human_sq) << HUMAN_SHIFT | robots
}

#[inline]
fn unpack(state: u64) -> (u32, u64) {
    ((state >> HUMAN_SHIFT) as u32, state & ROBOT_BITS)
}

/// Calls `f(human_sq, robots)` for every state from which one slide leads to the given
/// state (see the module docs for the rule). With `human_only`, only human slides are
/// reversed (used for the goal layer).
#[inline]
pub(crate) fn for_each_predecessor(human_sq: u32, robots: u64, human_only: bool, mut f: impl FnMut(u32, u64)) {
    let human = 1u64 << human_sq;
    let occ = robots | human;
    let empty = BOARD & !occ;
    let pieces = if human_only { human } else { occ };
    for p in Bits(pieces) {
        for d in Dir::ALL {
            if shift(p, d) & occ == 0 {
                continue; // nothing could have stopped a slide in direction d here
            }
            let origins = smear(p, empty, d.opposite()) & !p;
            for a in Bits(origins) {
                if p == human {
                    f(a.trailing_zeros(), robots);
                } else {
                    f(human_sq, robots ^ p ^ a);
                }
            }
        }
    }
}

/// Distance table of one retrograde sweep.
pub(crate) struct Retro {
    pub(crate) helpers: usize,
    ranker: Ranker,
    /// C(25, K): number of rank slots per human cell.
    per_human: usize,
    dist: Vec<AtomicU8>,
    /// `layers[n]`: the packed states at distance n (`layers[0]`: the goal states).
    pub(crate) layers: Vec<Vec<u64>>,
}

impl Retro {
    #[inline]
    fn index(&self, human_sq: u32, robots: u64) -> usize {
        dense(human_sq) * self.per_human + self.ranker.rank(robots)
    }

    /// Shortest-solution length of a state, `None` if unsolvable. `human_sq` is the
    /// human's bit index, `robots` the robots' mask (8×8 layout, K robots, not on the human).
    #[cfg(test)]
    pub(crate) fn distance(&self, human_sq: u32, robots: u64) -> Option<u8> {
        debug_assert_eq!(robots.count_ones() as usize, self.helpers);
        debug_assert!(robots & !BOARD == 0 && robots >> human_sq & 1 == 0);
        let d = self.dist[self.index(human_sq, robots)].load(Ordering::Relaxed);
        (d != UNSEEN).then_some(d)
    }

    /// Runs the sweep for `helpers` robots (1..=5), advancing `progress` by the number of
    /// positions settled per layer.
    pub(crate) fn sweep(helpers: usize, progress: &ProgressBar) -> Retro {
        assert!((1..=MAX_HELPERS).contains(&helpers));
        let per_human = binomial(25, helpers as u64) as usize;
        let mut retro = Retro {
            helpers,
            ranker: Ranker::new(),
            per_human,
            dist: (0..SIDE * SIDE * per_human).map(|_| AtomicU8::new(UNSEEN)).collect(),
            layers: Vec::new(),
        };

        // Goal layer: the human on the centre, robots on any K of the other 24 cells.
        let others: Vec<u32> =
            (0..(SIDE * SIDE) as u32).map(|p| (p / 5) * STRIDE as u32 + p % 5).filter(|&sq| sq != CENTRE).collect();
        let mut goals = Vec::with_capacity(binomial(24, helpers as u64) as usize);
        for robots in subsets(&others, helpers) {
            let index = retro.index(CENTRE, robots);
            *retro.dist[index].get_mut() = 0;
            goals.push(pack(CENTRE, robots));
        }
        retro.layers.push(goals);

        loop {
            let depth = retro.layers.len() - 1;
            let next_depth = u8::try_from(depth + 1).expect("distance fits in u8");
            progress.set_message(format!("K={helpers} depth {}", depth + 1));
            let frontier = &retro.layers[depth];
            let this = &retro;
            let next: Vec<u64> = frontier
                .par_chunks(2048)
                .flat_map_iter(|chunk| {
                    let mut found = Vec::new();
                    for &state in chunk {
                        let (human_sq, robots) = unpack(state);
                        for_each_predecessor(human_sq, robots, depth == 0, |h, r| {
                            let cell = &this.dist[this.index(h, r)];
                            if cell.load(Ordering::Relaxed) == UNSEEN
                                && cell
                                    .compare_exchange(UNSEEN, next_depth, Ordering::Relaxed, Ordering::Relaxed)
                                    .is_ok()
                            {
                                found.push(pack(h, r));
                            }
                        });
                    }
                    found
                })
                .collect();
            if next.is_empty() {
                break;
            }
            progress.inc(next.len() as u64);
            retro.layers.push(next);
        }
        retro
    }
}

/// Number of shortest-solution lengths of one size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LengthCount {
    pub length: usize,
    pub positions: u64,
}

/// The positions needing the most slides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hardest {
    /// Their shortest-solution length.
    pub length: usize,
    /// How many positions need that many slides.
    pub positions: u64,
    /// How many symmetry classes (under the 8 symmetries of the square) they form.
    pub classes: usize,
    /// One board per class (the member with the smallest key), in board text.
    pub boards: Vec<String>,
}

/// Summary of the enumeration for one number of helpers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Enumeration {
    /// K, the number of helper robots.
    pub helpers: usize,
    /// Positions enumerated: the human on one of the 24 non-centre cells, K robots on
    /// any K of the other 24 cells (the centre included): 24·C(24, K).
    pub positions: u64,
    pub solvable: u64,
    pub unsolvable: u64,
    /// Positions per shortest-solution length, lengths 1 and up.
    pub distribution: Vec<LengthCount>,
    /// `None` only if nothing is solvable.
    pub hardest: Option<Hardest>,
    /// Wall-clock time of the sweep and the summary, in milliseconds.
    pub millis: f64,
    /// Threads in the rayon pool that ran it.
    pub threads: usize,
}

/// The 8 symmetries of the 5×5 board on bit indices (same numbering as
/// [`Board::transformed`]).
fn symmetry_tables() -> [[u32; 64]; 8] {
    let mut maps = [[0u32; 64]; 8];
    for (t, map) in maps.iter_mut().enumerate() {
        for r in 0..SIDE {
            for c in 0..SIDE {
                let rr = if t & 1 != 0 { SIDE - 1 - r } else { r };
                let cc = if t & 2 != 0 { SIDE - 1 - c } else { c };
                let (nr, nc) = if t & 4 != 0 { (cc, rr) } else { (rr, cc) };
                map[r * STRIDE + c] = (nr * STRIDE + nc) as u32;
            }
        }
    }
    maps
}

/// The packed key of a state's symmetry class: the smallest packed image.
fn canonical(maps: &[[u32; 64]; 8], state: u64) -> u64 {
    let (h, robots) = unpack(state);
    maps.iter()
        .map(|map| {
            let r = Bits(robots).fold(0u64, |m, b| m | 1 << map[b.trailing_zeros() as usize]);
            pack(map[h as usize], r)
        })
        .min()
        .expect("eight symmetries")
}

/// The board of a packed state.
fn state_board(state: u64) -> Board {
    let (h, robots) = unpack(state);
    Board::from_masks(SIDE, SIDE, 1 << h, robots, 0, (2, 2))
}

/// Runs the enumeration for `helpers` (1..=5) helpers; with `progress`, an indicatif bar
/// on stderr counts the positions settled.
pub fn enumerate(helpers: usize, progress: bool) -> Result<Enumeration, LunarError> {
    if !(1..=MAX_HELPERS).contains(&helpers) {
        return Err(LunarError::Helpers(helpers));
    }
    let start = Instant::now();
    let positions = 24 * binomial(24, helpers as u64);
    let bar = if progress {
        let bar = ProgressBar::new(positions);
        let style = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} positions solved ({elapsed})")
            .expect("valid template")
            .progress_chars("=> ");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let retro = Retro::sweep(helpers, &bar);
    bar.finish_and_clear();
    let summary = summarize(&retro, positions);
    let millis = (start.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    Ok(Enumeration { millis, ..summary })
}

/// Turns a finished sweep into the report (without timing).
fn summarize(retro: &Retro, positions: u64) -> Enumeration {
    let distribution: Vec<LengthCount> = retro
        .layers
        .iter()
        .enumerate()
        .skip(1)
        .map(|(length, layer)| LengthCount { length, positions: layer.len() as u64 })
        .collect();
    let solvable: u64 = distribution.iter().map(|l| l.positions).sum();
    let hardest = (retro.layers.len() > 1).then(|| {
        let length = retro.layers.len() - 1;
        let layer = &retro.layers[length];
        let maps = symmetry_tables();
        let classes: BTreeSet<u64> = layer.par_iter().map(|&s| canonical(&maps, s)).collect();
        Hardest {
            length,
            positions: layer.len() as u64,
            classes: classes.len(),
            boards: classes.iter().map(|&s| state_board(s).to_string()).collect(),
        }
    });
    Enumeration {
        helpers: retro.helpers,
        positions,
        solvable,
        unsolvable: positions - solvable,
        distribution,
        hardest,
        millis: 0.0,
        threads: rayon::current_num_threads(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitboard::{bit, board_mask};
    use super::super::reference::{self, Rng};
    use super::super::solver::solve;
    use super::*;

    fn sweep(k: usize) -> Retro {
        Retro::sweep(k, &ProgressBar::hidden())
    }

    /// A random K-robot state with the human anywhere on the board.
    fn random_state(rng: &mut Rng, k: usize) -> (u32, u64) {
        let cell = |i: usize| ((i / 5) * STRIDE + i % 5) as u32;
        let human = cell(rng.below(25));
        let mut robots = 0u64;
        while (robots.count_ones() as usize) < k {
            let sq = cell(rng.below(25));
            if sq != human {
                robots |= 1 << sq;
            }
        }
        (human, robots)
    }

    fn board_of(human: u32, robots: u64) -> Board {
        state_board(pack(human, robots))
    }

    /// All positions for K robots with the human off the centre.
    fn all_positions(k: usize) -> Vec<(u32, u64)> {
        let cells: Vec<u32> = (0..25).map(|i| ((i / 5) * STRIDE + i % 5) as u32).collect();
        let mut out = Vec::new();
        for &h in cells.iter().filter(|&&sq| sq != CENTRE) {
            let others: Vec<u32> = cells.iter().copied().filter(|&sq| sq != h).collect();
            out.extend(subsets(&others, k).map(|robots| (h, robots)));
        }
        out
    }

    #[test]
    fn constants_and_ranking() {
        assert_eq!(BOARD, board_mask(5, 5));
        assert_eq!(CENTRE, bit(2, 2).trailing_zeros());
        assert_eq!(binomial(25, 5), 53_130);
        assert_eq!(binomial(24, 0), 1);
        assert_eq!(binomial(3, 5), 0);
        // The rank is a bijection from K-subsets of the 25 cells onto 0..C(25,K).
        let ranker = Ranker::new();
        let cells: Vec<u32> = (0..25).map(|i| ((i / 5) * STRIDE + i % 5) as u32).collect();
        for k in 1..=5usize {
            let mut seen = vec![false; binomial(25, k as u64) as usize];
            for robots in subsets(&cells, k) {
                let r = ranker.rank(robots);
                assert!(!seen[r], "rank {r} twice");
                seen[r] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn reverse_moves_match_forward_moves() {
        let mut rng = Rng(0x5EED_0000_0000_0001);
        for _ in 0..3000 {
            let k = 1 + rng.below(5);
            let (h, robots) = random_state(&mut rng, k);
            let board = board_of(h, robots);
            // Completeness: every forward successor lists this state among its predecessors.
            for mv in board.moves() {
                let next = board.play(&mv).unwrap();
                let (nh, nr) = (next.humans().trailing_zeros(), next.robots());
                let mut found = false;
                for_each_predecessor(nh, nr, false, |ph, pr| found |= (ph, pr) == (h, robots));
                assert!(found, "{mv} from\n{board}\nnot reversed");
            }
            // Soundness: every predecessor has a forward slide to this state.
            for_each_predecessor(h, robots, false, |ph, pr| {
                let prev = board_of(ph, pr);
                let reaches = prev.moves().iter().any(|m| prev.play(m).as_ref() == Some(&board));
                assert!(reaches, "predecessor\n{prev}\ndoes not reach\n{board}");
            });
        }
    }

    #[test]
    fn all_small_positions_match_forward_search() {
        for k in 1..=2 {
            let retro = sweep(k);
            let positions = all_positions(k);
            assert_eq!(positions.len() as u64, 24 * binomial(24, k as u64));
            for (h, robots) in positions {
                let board = board_of(h, robots);
                let want = solve(&board).map(|m| m.len() as u8);
                assert_eq!(retro.distance(h, robots), want, "K={k}\n{board}");
            }
        }
    }

    #[test]
    fn sampled_positions_match_forward_search() {
        let mut rng = Rng(0xC0FF_EE00_1234_5678);
        for k in 3..=5 {
            let retro = sweep(k);
            for i in 0..400 {
                let (h, robots) = random_state(&mut rng, k);
                let board = board_of(h, robots);
                let got = retro.distance(h, robots).map(usize::from);
                assert_eq!(got, solve(&board).map(|m| m.len()), "K={k}\n{board}");
                if i % 8 == 0 {
                    assert_eq!(got, reference::shortest(&board), "K={k}\n{board}");
                }
            }
            // A sample of the hardest layer too.
            for &state in retro.layers.last().unwrap().iter().step_by(7).take(30) {
                let (h, robots) = unpack(state);
                let want = solve(&board_of(h, robots)).map(|m| m.len());
                assert_eq!(want, Some(retro.layers.len() - 1));
            }
        }
    }

    #[test]
    fn distances_are_symmetric() {
        let maps = symmetry_tables();
        let retro = sweep(5);
        let mut rng = Rng(0x0DDB_A11C_AFE0_0001);
        for _ in 0..20_000 {
            let (h, robots) = random_state(&mut rng, 5);
            let d = retro.distance(h, robots);
            for map in &maps {
                let r = Bits(robots).fold(0u64, |m, b| m | 1 << map[b.trailing_zeros() as usize]);
                assert_eq!(retro.distance(map[h as usize], r), d);
            }
        }
    }

    #[test]
    fn card_39_is_13_in_the_table() {
        let board: Board = super::super::CARD_39.parse().unwrap();
        let retro = sweep(5);
        let h = board.humans().trailing_zeros();
        assert_eq!(retro.distance(h, board.robots()), Some(13));
    }

    #[test]
    fn totals_and_the_published_maximum() {
        let mut overall = 0;
        for k in 1..=5 {
            let e = enumerate(k, false).unwrap();
            assert_eq!(e.positions, 24 * binomial(24, k as u64));
            assert_eq!(e.solvable + e.unsolvable, e.positions);
            let sum: u64 = e.distribution.iter().map(|l| l.positions).sum();
            assert_eq!(sum, e.solvable);
            let hardest = e.hardest.unwrap();
            assert_eq!(hardest.length, e.distribution.len());
            assert!(hardest.classes as u64 <= hardest.positions);
            assert!(hardest.positions <= 8 * hardest.classes as u64);
            assert_eq!(hardest.boards.len(), hardest.classes);
            for text in &hardest.boards {
                let b: Board = text.parse().unwrap();
                assert_eq!(solve(&b).map(|m| m.len()), Some(hardest.length), "{text}");
            }
            overall = overall.max(hardest.length);
        }
        // Published: the hardest 5×5 positions with up to 5 helpers need 14 slides.
        assert_eq!(overall, 14);
        assert_eq!(enumerate(0, false).unwrap_err(), LunarError::Helpers(0));
        assert_eq!(enumerate(6, false).unwrap_err(), LunarError::Helpers(6));
    }
}
