//! Proven-optimal Flood-It solver.
//!
//! Files: `graph` (the region graph and bitsets), `bounds` (the lower bound), `refinement` (its precedence
//! refinement), `dominance` (the dominance index), `search` (A* with the upper bounds), `tests`.
//!
//! The board is reduced to its *region graph*: the 4-connected components of equal colour
//! ("regions") with an edge between regions that touch. The flood is a set of regions (a
//! bitset); a move of colour `c` adds every region of colour `c` on the flood's boundary.
//!
//! The search is A* over flood sets:
//! * Lower bound (`Evaluator::evaluate`): with `D(c)` the farthest breadth-first distance of
//!   a colour's regions, `max over x of (x - 1 + #{c : D(c) >= x})`. It combines the colour
//!   count and the eccentricity, is admissible and consistent. One search per expanded node
//!   yields the exact bound of every child (`Evaluator::analyse_children`).
//! * Refinement (`Evaluator::precedence_raises_bound`, up to six colours): when the bound is
//!   tight at some distance `x`, the colours of the far part must each move exactly once from move `x` on,
//!   in an order where every far region's colour comes after one of its neighbours' colours;
//!   if no such order exists the bound rises by one. The same test is repeated with the one
//!   or two moves before move `x` taken into account (move `x - 1` reaches only one colour of
//!   the regions at distance `x - 1`, and so on). Children get the refinement from their
//!   parent's analysis (`Evaluator::child_refined_bound`); nodes whose bound came from
//!   elsewhere (the root, results of forced moves) get it when about to be expanded, and go
//!   back to the queue if raised. The refined bound is admissible but not consistent, so a
//!   node reached again by a shorter path is reopened.
//!   Cost notes: the order search (`Evaluator::single_moves_suffice`) is greedy (placing
//!   any colour that may come next is safe, as the conditions only relax over time); the
//!   single-move test tries every candidate colour so that the two-move test can skip the
//!   pairs whose conditions contain those of a failed candidate (more conditions never make
//!   an order feasible); a child's refinement is computed only after its transposition check.
//! * Safe pruning: a move that removes a colour from the board is played at once and alone
//!   (`SearchGraph::settle`); a move that exposes no new region is never tried.
//! * Dominance pruning: a node `X` is dropped when popped if an expanded node `Y` of depth at
//!   most `X`'s has a flood strictly containing `X`'s (`DominanceIndex`, which holds the
//!   expanded nodes, finds most such `Y`: those of equal depth). Many move orders of equal
//!   length reach nested floods, so on larger boards this removes most nodes.
//!   The search stays exact: call a stored node *optimal* if its depth plus the optimum from
//!   its flood equals the optimum `T` from the root, and order such nodes by (depth, flood
//!   size). Suppose the search ends with an upper bound above `T`, and take the largest
//!   optimal stored node `N` (the root is one). Its `f` is below the upper bound (the bound is
//!   admissible), so it is popped, and it is not dropped as dominated: a dominating `Y` has a
//!   larger flood, so needs no more moves (flood growth is monotone), and depth at most `N`'s,
//!   so it is optimal (with depth exactly `N`'s, as less would beat `T`) and larger than `N`.
//!   So `N` is expanded, and its optimal move (which exposes a region, see above) gives a
//!   child (after the forced moves of `SearchGraph::settle`) that is optimal and larger than
//!   `N`; it is stored unless it duplicates a node of no greater depth, which is then optimal
//!   and larger than `N` too — a contradiction either way.
//! * A transposition table keyed on the flood bitset (open addressing, node arena).
//! * An upper bound from a greedy pass and a beam search, shortened by deleting moves; nodes
//!   whose bound reaches it are dropped, and the search ends once every cheaper node is
//!   expanded, which proves the best solution optimal.
//!
//! With a deadline, a node limit or the memory budget reached, the best solution found so far
//! is returned, marked `optimal: false` unless it was already proven.

use std::time::Instant;

mod bounds;
mod dominance;
mod graph;
mod refinement;
mod search;
#[cfg(test)]
mod tests;

pub use super::board::random_board;
pub use super::rules::{apply_move, apply_move_from, check_solution, check_solution_from, is_solved};

use graph::RegionGraph;
use search::SearchGraph;

/// Limits on a search. `deadline: None` = search until proven optimal.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop searching at this instant and return the best solution found so far.
    pub deadline: Option<Instant>,
    /// Stop after expanding this many search nodes.
    pub node_limit: Option<u64>,
}

/// A solution returned by [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Colours to pick, in order (each a colour id as found in `cells`).
    pub moves: Vec<u8>,
    /// true only when the search proved no shorter solution exists.
    pub optimal: bool,
    /// Search nodes expanded (for reporting).
    pub nodes: u64,
}

/// Solve a Flood-It board: `cells` is row-major, width*height colour ids (any u8 values, at most 32 distinct).
/// The flood is the 4-connected same-colour region containing cell (0,0). A move picks a colour c != current flood colour:
/// the flood takes colour c and absorbs adjacent regions of colour c. Goal: whole board one colour, fewest moves.
/// Always returns a valid solution (even when out of time: then the best found, optimal=false). A board already one colour → empty moves, optimal=true.
///
/// Boards with more than 32 distinct colours are handled too (any number of distinct `u8`
/// values works); only speed suffers.
///
/// # Panics
/// When `cells.len() != width * height` (a programming error of the caller).
pub fn solve(width: usize, height: usize, cells: &[u8], limits: &Limits) -> Solution {
    solve_from(width, height, cells, 0, limits)
}

/// [`solve`] for a flood that grows from cell `start` (a row-major index; the centre, for some clients). Only
/// which region is the flood changes: the search works on the region graph, where the flood is region 0, so the
/// same proof of optimality holds for any start.
///
/// # Panics
/// As [`solve`], and when `start` is not a cell of the board.
pub fn solve_from(width: usize, height: usize, cells: &[u8], start: usize, limits: &Limits) -> Solution {
    assert!(start == 0 || start < cells.len(), "flood solver: start cell {start} is off the board");
    assert!(
        cells.len() == width * height,
        "flood solver: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    if is_solved(cells) {
        return Solution { moves: Vec::new(), optimal: true, nodes: 0 };
    }
    let graph = RegionGraph::build(width, height, cells, start);
    let mut search = SearchGraph::new(&graph);
    let (compact_moves, optimal, nodes) = search.solve(limits);
    Solution { moves: compact_moves.iter().map(|&c| graph.palette[c as usize]).collect(), optimal, nodes }
}
