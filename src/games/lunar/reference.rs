//! Test-only reference: a plain breadth-first search on explicit piece lists, written
//! independently of the bitboards (cell-by-cell stepping, sorted coordinate lists as
//! states), to check the solver and the retrograde tables against.

use std::collections::{HashSet, VecDeque};

use super::board::{Board, Cell, Move, Piece};

/// Small xorshift generator for reproducible random tests.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Fixed part of a puzzle.
struct Puzzle {
    rows: i32,
    cols: i32,
    blocks: Vec<(i32, i32)>,
    target: (i32, i32),
}

/// Movable part: sorted coordinates of the humans and of the robots.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Pos {
    humans: Vec<(i32, i32)>,
    robots: Vec<(i32, i32)>,
}

const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

fn split(board: &Board) -> (Puzzle, Pos) {
    let mut blocks = Vec::new();
    let mut humans = Vec::new();
    let mut robots = Vec::new();
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            let at = (r as i32, c as i32);
            match board.cell(r, c) {
                Cell::Empty => {}
                Cell::Human => humans.push(at),
                Cell::Robot => robots.push(at),
                Cell::Block => blocks.push(at),
            }
        }
    }
    let (tr, tc) = board.target();
    let puzzle =
        Puzzle { rows: board.rows() as i32, cols: board.cols() as i32, blocks, target: (tr as i32, tc as i32) };
    (puzzle, Pos { humans, robots })
}

impl Puzzle {
    fn inside(&self, (r, c): (i32, i32)) -> bool {
        r >= 0 && c >= 0 && r < self.rows && c < self.cols
    }

    fn taken(&self, pos: &Pos, cell: (i32, i32)) -> bool {
        self.blocks.contains(&cell) || pos.humans.contains(&cell) || pos.robots.contains(&cell)
    }

    /// Where a piece at `from` stops going `(dr, dc)`, if it moves at all.
    fn stop(&self, pos: &Pos, from: (i32, i32), (dr, dc): (i32, i32)) -> Option<(i32, i32)> {
        let mut at = from;
        loop {
            let next = (at.0 + dr, at.1 + dc);
            if !self.inside(next) {
                return None; // nothing to stop it: it would fly off
            }
            if self.taken(pos, next) {
                return (at != from).then_some(at);
            }
            at = next;
        }
    }

    fn won(&self, pos: &Pos) -> bool {
        pos.humans.contains(&self.target)
    }

    fn successors(&self, pos: &Pos) -> Vec<Pos> {
        let mut out = Vec::new();
        for human in [true, false] {
            let list = if human { &pos.humans } else { &pos.robots };
            for i in 0..list.len() {
                for d in DIRS {
                    if let Some(to) = self.stop(pos, list[i], d) {
                        let mut next = pos.clone();
                        let moved = if human { &mut next.humans } else { &mut next.robots };
                        moved[i] = to;
                        moved.sort();
                        out.push(next);
                    }
                }
            }
        }
        out
    }
}

/// Length of a shortest solution by plain BFS, or `None` if unsolvable.
pub(crate) fn shortest(board: &Board) -> Option<usize> {
    let (puzzle, start) = split(board);
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(start.clone());
    queue.push_back((start, 0usize));
    while let Some((pos, dist)) = queue.pop_front() {
        if puzzle.won(&pos) {
            return Some(dist);
        }
        for next in puzzle.successors(&pos) {
            if seen.insert(next.clone()) {
                queue.push_back((next, dist + 1));
            }
        }
    }
    None
}

/// Plays `moves` with the reference rules (checking piece kind and stopping cell of each)
/// and tells whether they end with a human on the target.
pub(crate) fn replay(board: &Board, moves: &[Move]) -> bool {
    let (puzzle, mut pos) = split(board);
    for m in moves {
        let from = (m.from.0 as i32, m.from.1 as i32);
        let (dr, dc) = m.dir.delta();
        let list = match m.piece {
            Piece::Human => &pos.humans,
            Piece::Robot => &pos.robots,
        };
        let Some(i) = list.iter().position(|&p| p == from) else {
            return false;
        };
        let Some(to) = puzzle.stop(&pos, from, (dr as i32, dc as i32)) else {
            return false;
        };
        if to != (m.to.0 as i32, m.to.1 as i32) {
            return false;
        }
        let list = match m.piece {
            Piece::Human => &mut pos.humans,
            Piece::Robot => &mut pos.robots,
        };
        list[i] = to;
        list.sort();
    }
    puzzle.won(&pos)
}
