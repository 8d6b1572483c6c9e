//! Shortest solutions by A* over canonical states.
//!
//! A state is `(humans mask, robots mask)`: pieces of one kind are interchangeable, so two
//! positions that differ only by which robot stands where are the same state (blocks never
//! move and are kept aside). Successors come from the bitboard [`slide`].
//!
//! # Heuristic and its admissibility
//!
//! `h(s) = 0` if a human is on the target, `1` if not but one slide of some human ends on
//! the target, `2` otherwise. Writing `d(s)` for the true number of slides still needed:
//!
//! * `h(s) = 0` exactly when `d(s) = 0`;
//! * `h(s) = 1` exactly when `d(s) = 1`: only a human's slide can put a human on the
//!   target, and [`one_move_win`] tests every slide that could (below);
//! * otherwise `d(s) >= 2` (it is neither 0 nor 1), so `h(s) = 2 <= d(s)`.
//!
//! Hence `h <= d` (admissible). It is also consistent: for a successor `t` of `s`,
//! `h(s) <= 1 + h(t)`, because `h(t) = 0` means `s` wins in one slide (`h(s) <= 1`) and
//! otherwise `1 + h(t) >= 2 >= h(s)`.
//!
//! How [`one_move_win`] decides: a human ends a slide on the target iff the target is empty, the cell
//! just past it in the direction of travel holds a blocker, and the human is the first
//! piece met walking back from the target over empty cells. A human in the target's row
//! or column but behind another piece, or with nothing to stop it past the target, cannot
//! get there in one slide, and a human in neither line cannot either.
//!
//! # Search
//!
//! Bucket-queue A* (f-values are small integers; within a bucket the newest entry is
//! taken first, which favours deeper nodes), with lazy deletion of stale entries. The goal
//! test is applied when a child is generated: a child that wins has `g = g(n) + 1` where
//! the expanded node `n` has `h(n) = 1`, so `g = f(n) <= C*` (every popped f is at most
//! the optimal cost `C*` under an admissible heuristic), which proves it optimal without
//! waiting for it to be popped. An exhausted open list means no solution exists.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::bitboard::{shift, slide, smear, square_rc, Bits, Dir};
use super::board::{Board, Move, Piece};
use super::error::LunarError;

/// Result of [`solve_with_stats`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A shortest sequence of slides putting a human on the target (empty if one already
    /// is), or `None` when no sequence does.
    pub moves: Option<Vec<Move>>,
    /// Nodes expanded (states whose successors were generated).
    pub nodes: u64,
}

/// A shortest solution, or `None` if the position is unsolvable.
pub fn solve(board: &Board) -> Option<Vec<Move>> {
    solve_with_stats(board).moves
}

/// Multiplicative hasher for the `(u64, u64)` state keys (SipHash is needlessly slow here).
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

type StateMap = HashMap<(u64, u64), u32, BuildHasherDefault<StateHasher>>;

/// True when some human can end one slide on `target` (see the module docs).
#[inline]
pub(crate) fn one_move_win(humans: u64, occ: u64, mask: u64, target: u64) -> bool {
    if occ & target != 0 {
        return false;
    }
    let empty = mask & !occ;
    Dir::ALL.into_iter().any(|d| {
        if shift(target, d) & occ == 0 {
            return false;
        }
        let back = d.opposite();
        let run = smear(target, empty, back);
        // `run` is the target plus the empty cells behind it; one more step lands on the
        // first piece (or block, or nothing) behind them.
        shift(run, back) & humans != 0
    })
}

/// The heuristic `h` of the module docs.
#[inline]
fn heuristic(humans: u64, occ: u64, mask: u64, target: u64) -> u32 {
    if humans & target != 0 {
        0
    } else if one_move_win(humans, occ, mask, target) {
        1
    } else {
        2
    }
}

#[derive(Clone, Copy)]
struct Node {
    humans: u64,
    robots: u64,
    parent: u32,
    g: u32,
    h: u8,
    closed: bool,
    /// The move that produced this node: from-square, to-square (bit indices).
    from: u8,
    to: u8,
    dir: u8,
}

/// A shortest solution with search statistics (no limit on the search's memory).
pub fn solve_with_stats(board: &Board) -> Solution {
    search(board, usize::MAX).expect("an unlimited search always finishes")
}

/// Like [`solve_with_stats`], but gives up with [`LunarError::SearchLimit`] once more
/// than `max_states` distinct states are stored (roughly 60–100 bytes each). Big boards
/// with many robots can have state spaces of billions, which an unsolvable position must
/// exhaust.
pub fn solve_with_limit(board: &Board, max_states: usize) -> Result<Solution, LunarError> {
    search(board, max_states)
}

fn search(board: &Board, max_states: usize) -> Result<Solution, LunarError> {
    if board.is_solved() {
        return Ok(Solution { moves: Some(Vec::new()), nodes: 0 });
    }
    let mask = board.mask();
    let blocks = board.blocks();
    let target = board.target_bit();
    let (h0, r0) = (board.humans(), board.robots());

    let mut nodes = vec![Node {
        humans: h0,
        robots: r0,
        parent: u32::MAX,
        g: 0,
        h: heuristic(h0, h0 | r0 | blocks, mask, target) as u8,
        closed: false,
        from: 0,
        to: 0,
        dir: 0,
    }];
    let mut index = StateMap::default();
    index.insert((h0, r0), 0);
    // buckets[f] holds (node id, g when pushed); entries whose g is stale are skipped.
    let mut buckets: Vec<Vec<(u32, u32)>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<(u32, u32)>>, f: u32, id: u32, g: u32| {
        let f = f as usize;
        if buckets.len() <= f {
            buckets.resize_with(f + 1, Vec::new);
        }
        buckets[f].push((id, g));
    };
    push(&mut buckets, u32::from(nodes[0].h), 0, 0);

    let mut expanded = 0u64;
    let mut f = 0usize;
    loop {
        while f < buckets.len() && buckets[f].is_empty() {
            f += 1;
        }
        let Some((id, g)) = buckets.get_mut(f).and_then(Vec::pop) else {
            return Ok(Solution { moves: None, nodes: expanded });
        };
        let node = nodes[id as usize];
        if node.closed || node.g != g {
            continue;
        }
        nodes[id as usize].closed = true;
        expanded += 1;
        let (humans, robots) = (node.humans, node.robots);
        let occ = humans | robots | blocks;
        for (is_human, set) in [(true, humans), (false, robots)] {
            for p in Bits(set) {
                for dir in Dir::ALL {
                    let Some(dest) = slide(p, occ, mask, dir) else {
                        continue;
                    };
                    let (nh, nr) = if is_human { (humans ^ p ^ dest, robots) } else { (humans, robots ^ p ^ dest) };
                    let child = Node {
                        humans: nh,
                        robots: nr,
                        parent: id,
                        g: g + 1,
                        h: 0,
                        closed: false,
                        from: p.trailing_zeros() as u8,
                        to: dest.trailing_zeros() as u8,
                        dir: dir.code(),
                    };
                    if is_human && dest == target {
                        nodes.push(child);
                        let moves = reconstruct(&nodes, nodes.len() - 1);
                        return Ok(Solution { moves: Some(moves), nodes: expanded });
                    }
                    match index.entry((nh, nr)) {
                        Entry::Occupied(e) => {
                            let cid = *e.get() as usize;
                            let old = &mut nodes[cid];
                            if !old.closed && old.g > g + 1 {
                                let h = old.h;
                                *old = Node { h, ..child };
                                push(&mut buckets, g + 1 + u32::from(h), cid as u32, g + 1);
                            }
                        }
                        Entry::Vacant(e) => {
                            if nodes.len() >= max_states {
                                return Err(LunarError::SearchLimit { limit: max_states });
                            }
                            let h = heuristic(nh, nh | nr | blocks, mask, target) as u8;
                            let cid = nodes.len() as u32;
                            e.insert(cid);
                            nodes.push(Node { h, ..child });
                            push(&mut buckets, g + 1 + u32::from(h), cid, g + 1);
                        }
                    }
                }
            }
        }
    }
}

/// The moves from the root to node `last`.
fn reconstruct(nodes: &[Node], last: usize) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut id = last;
    while nodes[id].parent != u32::MAX {
        let node = nodes[id];
        let parent = nodes[node.parent as usize];
        let piece = if parent.humans >> node.from & 1 != 0 { Piece::Human } else { Piece::Robot };
        moves.push(Move {
            piece,
            from: square_rc(u32::from(node.from)),
            to: square_rc(u32::from(node.to)),
            dir: Dir::from_code(node.dir),
        });
        id = node.parent as usize;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::super::reference::{self, Rng};
    use super::*;

    fn parse(s: &str) -> Board {
        s.parse().unwrap()
    }

    /// Replays `moves` with the board's own `play` and checks they end solved.
    fn assert_valid(board: &Board, moves: &[Move]) {
        let mut b = board.clone();
        for m in moves {
            b = b.play(m).unwrap_or_else(|| panic!("illegal move {m} on\n{b}"));
        }
        assert!(b.is_solved(), "moves do not solve\n{board}");
    }

    #[test]
    fn already_solved() {
        let b = parse("...\n.x.\n...");
        assert_eq!(solve(&b), Some(vec![]));
    }

    #[test]
    fn one_move() {
        let b = parse("..X..\n.....\n..+..\n..o..\n.....");
        let moves = solve(&b).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].to_string(), "X@0,2 down");
        assert_eq!(moves[0].notation(true), "X down");
    }

    #[test]
    fn two_moves() {
        // No human slide wins now (column 2 has nothing to stop the human below the
        // target). The robot at (3,0) slides right and stops at (3,2) against (3,3); then
        // the human slides down and stops on the target.
        let b = parse("..X..\n.....\n..+..\no..o.\n.....");
        let moves = solve(&b).unwrap();
        let text: Vec<String> = moves.iter().map(|m| m.notation(true)).collect();
        assert_eq!(text, ["o@3,0 right", "X down"]);
        assert_valid(&b, &moves);
    }

    #[test]
    fn three_moves() {
        // X right (stops at (0,2) against (0,3)), o@3,0 right (to (3,2)), X down.
        // No 2-slide solution: the human is in neither the target's row nor its column, so
        // a robot-first pair cannot win, and its own first slides (right to (0,2), down to
        // (2,0)) leave no winning slide (row 2 and column 2 have no blocker past the target).
        let b = parse("X..o.\n.....\n..+..\no..o.\n.....");
        let moves = solve(&b).unwrap();
        assert_eq!(moves.len(), 3);
        assert_valid(&b, &moves);
        assert_eq!(reference::shortest(&b), Some(3));
    }

    #[test]
    fn unsolvable_positions() {
        // Nothing can move at all: no piece has a blocker in any direction.
        let b = parse("X....\n.....\n..+..\n.....\n..o..");
        assert!(b.moves().is_empty());
        let s = solve_with_stats(&b);
        assert_eq!(s.moves, None);
        assert_eq!(s.nodes, 1);
        // Pieces can move, but only along row 0 forever.
        let b = parse("X...o\n.....\n..+..\n.....\n.....");
        assert_eq!(b.moves().len(), 2);
        assert_eq!(solve(&b), None);
        // Blocks stop pieces too, but here they cannot help.
        let b = parse("X.#..\n.....\n..+..\n.....\n.....");
        assert_eq!(solve(&b), None);
    }

    #[test]
    fn blocks_and_multiple_humans() {
        // A block below the target makes a one-slider for the human above it.
        let b = parse("..X..\n.....\n..+..\n..#..\n.....");
        assert_eq!(solve(&b).map(|m| m.len()), Some(1));
        // Either human may win; the second one can do it in one slide, and with two
        // humans the notation keeps the position.
        let b = parse("X....\n.....\n.o+.X\n.....\n.....");
        let moves = solve(&b).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].notation(false), "X@2,4 left");
        assert_valid(&b, &moves);
    }

    #[test]
    fn official_card_39_needs_13() {
        let b = parse(super::super::CARD_39);
        let s = solve_with_stats(&b);
        let moves = s.moves.unwrap();
        assert_eq!(moves.len(), 13);
        assert_valid(&b, &moves);
        assert_eq!(reference::shortest(&b), Some(13));
    }

    #[test]
    fn state_limit() {
        let b = parse(super::super::CARD_39);
        assert_eq!(solve_with_limit(&b, 100), Err(LunarError::SearchLimit { limit: 100 }));
        let s = solve_with_limit(&b, 1_000_000).unwrap();
        assert_eq!(s.moves.map(|m| m.len()), Some(13));
        // An unsolvable position within the limit is reported as such.
        let b = parse("X...o\n.....\n..+..\n.....\n.....");
        assert_eq!(solve_with_limit(&b, 100).unwrap().moves, None);
    }

    /// A random board: sides 3..=6, 1..=2 humans, 0..=5 robots, 0..=3 blocks, random target.
    fn random_board(rng: &mut Rng) -> Board {
        let rows = 3 + rng.below(4);
        let cols = 3 + rng.below(4);
        let mut grid = vec![vec!['.'; cols]; rows];
        let target = (rng.below(rows), rng.below(cols));
        let mut place = |ch: char, n: usize, rng: &mut Rng| {
            let mut placed = 0;
            while placed < n {
                let (r, c) = (rng.below(rows), rng.below(cols));
                if grid[r][c] == '.' && !(ch == '#' && (r, c) == target) {
                    grid[r][c] = ch;
                    placed += 1;
                }
            }
        };
        let humans = 1 + rng.below(2);
        let robots = rng.below(6).min(rows * cols - 1 - humans);
        let blocks = rng.below(4).min(rows * cols - 1 - humans - robots);
        place('X', humans, rng);
        place('o', robots, rng);
        place('#', blocks, rng);
        let text: Vec<String> = grid.iter().map(|row| row.iter().collect()).collect();
        Board::parse(&text.join("\n"), Some(target)).unwrap()
    }

    #[test]
    fn optimal_against_reference_bfs() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        let mut solved = 0;
        for _ in 0..600 {
            let b = random_board(&mut rng);
            let got = solve(&b);
            let want = reference::shortest(&b);
            assert_eq!(got.as_ref().map(Vec::len), want, "board\n{b}");
            if let Some(moves) = got {
                assert_valid(&b, &moves);
                assert!(reference::replay(&b, &moves), "reference rejects the moves on\n{b}");
                solved += 1;
            }
        }
        // The sample must exercise both outcomes.
        assert!(solved > 100, "only {solved} solvable");
        assert!(solved < 600);
    }

    #[test]
    fn symmetry_invariance() {
        let mut rng = Rng(0xDEAD_BEEF_0BAD_F00D);
        let mut checked = 0;
        while checked < 150 {
            let b = random_board(&mut rng);
            if b.rows() != b.cols() {
                continue;
            }
            let len = solve(&b).map(|m| m.len());
            for t in 1..8u8 {
                let tb = b.transformed(t);
                assert_eq!(solve(&tb).map(|m| m.len()), len, "transform {t} of\n{b}");
            }
            checked += 1;
        }
        // Rectangular boards keep their lengths under all 8 maps as well.
        let b = Board::parse("X..o.\n.....\n.o..#", Some((1, 1))).unwrap();
        let len = solve(&b).map(|m| m.len());
        for t in 0..8u8 {
            assert_eq!(solve(&b.transformed(t)).map(|m| m.len()), len);
        }
    }
}
