//! Exact solver: the best final score from any state, and one line reaching it.
//!
//! # Algorithm
//!
//! A forward dynamic programme over *merged* per-card states, pruned by an admissible bound (branch and bound,
//! below). A state is `(c, t, p)`: `c` the number of cards left in each column, `t` the stack total and `p` the
//! part of the stack's top that can still score. The cards played so far are fixed by `c`, but the order they
//! went in is not; states reached by different orders merge when their `(t, p)` agree, keeping the best score
//! so far (and a back-pointer for the line). This is exact because the future depends on the past only through
//! `(c, t, p)`:
//!
//! * Sets: the top rank and how many cards of it are contiguous at the top (`k`, capped at 4). Kept only while
//!   a playable card has that rank and fits the room `31 - t` (a set grows only by the very next card).
//! * Runs: the longest suffix of the stack whose ranks are distinct (`seq`, top first). A future run ending at
//!   a later card consists of all the cards played since now plus some old top suffix `S`; those new cards are
//!   distinct ranks completing `S` to a consecutive range of 3 to 7 ranks. So the next card is a playable card
//!   that fits and is missing from `S`, and the rest of the range must be affordable (values within the room)
//!   from ranks still within reach. `seq` is cut to the longest suffix passing this necessary test, so stacks
//!   that agree on the cut suffix have the same future. Suffixes beyond a duplicate or with a span over 6 are
//!   never part of a run.
//! * When no playable card fits the room the stack must end: the state becomes `(c, 0, empty)`, so every
//!   stack that ends at the same `c` merges into one stack-boundary state (the new stack is implicit).
//!
//! The run cut looks one card ahead exactly: for a playable card `y` that could come next, the rest of the
//! range must be reachable *after* `y` (its column then starts one card further back) within the room left
//! after `y`. Both are necessary conditions for a future run through `S`, so the cut loses nothing.
//!
//! The states of each `c` are built at once from those of its (at most four) predecessors `c + e_j` in one
//! small open-addressing table, visiting `c` in decreasing mixed-radix index order (a predecessor always has a
//! larger index). Points are computed from `(t, k, seq)` alone. The per-position reach masks are combined on
//! demand from per-column tables.
//!
//! # Dominance
//!
//! Once the states of a position are built, a state whose pattern is empty (nothing on its stack can score
//! again: the key is the total alone) is dropped when another state of the same `(c, t)` has at least its
//! score. Exact: both have the same legal continuations (legality depends on `(c, t)` only), and on every
//! continuation each card scores at least as much over a non-empty pattern as over an empty one (15/31 and
//! the Jack bonus depend on the totals only; a set or run at the top made of new cards is still there, and
//! old cards below can only lengthen it, and only the longest run counts). So the other state's best future is
//! at least the dropped one's, with at least its score.
//!
//! # Branch and bound
//!
//! `bound.rs` computes, once per solve, an upper bound `U` on the points still obtainable from any state whose
//! stack was started during the search (all its cards came from the columns): the exact optimum of a relaxed
//! game that remembers only the top two cards of the stack (and whether the top three are a set), scoring
//! runs optimistically for the forgotten cards below (see its docs for why every real line scores at most that
//! in the relaxed game). A forward pass with a *floor* `F` drops every new state with `score + U < F`.
//!
//! * If the optimum `O` is at least `F`, the pass finds it: along an optimal line every state has
//!   `score + U ≥ score + (best future) = O ≥ F`, so none is dropped by the floor; merging keeps a state with
//!   the same key and at least the score, and dominance one with at least the same best future, and such a
//!   state also passes the floor (its `score + U` is at least its `score + best future`, which is at least
//!   `O`, as `U` bounds the future of every stack with the same top). By induction over the cards a state with
//!   `score + best future ≥ O` survives at every step, and at the end that is a line scoring `O`.
//! * Every line the pass finds is real, so its best `B ≤ O`. Hence `B ≥ F` proves `B = O`, and `B < F` (or
//!   no line) proves `O < F`.
//!
//! `solve` runs passes with decreasing floors, starting a little under the bound of the start, until one's
//! best reaches its floor. After a failed pass, a beam search from its deepest states (following real moves)
//! gives a real line; when that line is close under the floor, the next floor is its score (a pass that cannot
//! fail), otherwise the floor steps down. The states of a given non-empty stack (a mid-game state) have no
//! bound and are never dropped; the first pass then only gathers them for the beam search.
//!
//! # Speed
//!
//! The cut tests use a precomputed table per 13-bit rank set (span, gaps and their values, the neighbour
//! ranks), and the duplicate of the new card in `seq` is found with a word-parallel nibble compare. A pass
//! first checks a state against the floor with its points bounded from the key (sets exact, any run at most
//! 7), so most dropped states cost no `step`; the bound table of the positions a little ahead is prefetched.
//! The bound of the start exceeds the optimum by about 6 on average on deals 1–2000, so the passes keep a few
//! thousand states a deal; building the bound table is most of the time.
//!
//! Files: `key` (stack keys and `step`), `passes` (the forward passes and the beam search), `bound` (the
//! relaxed game's bound), `tests`.
//!
//! # Tests
//!
//! Every solution is replayed with the rules engine; the optimum is compared with a plain exhaustive search on
//! small random deals and mid-game states, with the known scores of deals 1, 30, 969 and 1031, and with the
//! previous solver (kept in `solver_reference.rs`, test builds only) on deals 1–50 and mid-game states of
//! deals 60–74. The bound is checked to be at least the exhaustive best remaining score on random small
//! mid-game states and late positions of real deals.

use std::cell::RefCell;

use super::cards::Rank;
use super::rules::{State, LIMIT};

mod bound;
mod key;
mod passes;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(super) use key::{T_MASK, VALSUM};
use passes::*;

/// The best line from a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score, the state's score included.
    pub score: u32,
    /// One line reaching it: column digits `1`–`4`, `_` where a new stack starts (a leading `_` when the
    /// state's stack is non-empty and no card fits it).
    pub line: String,
    /// Merged DP states kept, summed over the passes.
    pub nodes: u64,
}

pub(super) const JACK: u32 = Rank::JACK.index() as u32;
pub(super) const SET_POINTS: [u32; 5] = [0, 0, 2, 6, 12];

pub(super) const fn rank_value(r: u32) -> u32 {
    if r >= 9 {
        10
    } else {
        r + 1
    }
}

/// The first floor: this much under the bound of the start (the bound exceeds the optimum by 6.2 on average on
/// deals 1–2000; 5/4 keep 46% fewer states than 10/6 on deals 1–300, within 5% of 6/3, 6/4 and 5/5).
const FIRST_GAP: u32 = 5;
/// The next floor after a failed pass: this much lower.
const GAP_STEP: u32 = 4;

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// The best final score from `state` and one line reaching it, proven optimal (see the module docs).
pub fn solve(state: &State) -> Solution {
    WORKSPACE.with(|ws| solve_in(state, &mut ws.borrow_mut()))
}

fn solve_in(state: &State, ws: &mut Workspace) -> Solution {
    if state.is_over() {
        return Solution { score: state.score, line: String::new(), nodes: 0 };
    }
    let problem = Problem::new(state);
    let (start_key, n) = (problem.start_key, problem.n);
    let start_reset = !state.stack.is_empty() && start_key == 0;
    let (len, stride) = (problem.len, problem.stride);
    ws.bound.build(&problem.cols, &len, &stride);
    ws.position.clear();
    ws.position.extend((0..n).map(|idx| std::array::from_fn(|j| (idx / stride[j] % (len[j] + 1)) as u8)));

    // Floors under the bound of the start (see the module docs): a pass whose best line reaches its floor is
    // optimal. A failed pass proves the optimum below its floor, and a beam search from its deepest entries
    // gives a real line, whose score is a floor that cannot fail. A given non-empty stack has no bound (its
    // first pass only gathers the completions of that stack for the beam search).
    let mut nodes = 0u64;
    let mut floor = if start_key == 0 { ws.bound.get(n - 1, 0, 0, 0).saturating_sub(FIRST_GAP) } else { u32::MAX };
    let best = loop {
        let best = problem.forward(ws, floor);
        nodes += ws.arena.len() as u64;
        let found = best.map(|e| u32::from(ws.arena[e].score));
        match (best, found) {
            (Some(e), Some(score)) if score >= floor => break e,
            _ => {
                let line = problem.beam(ws).max(found.unwrap_or(0));
                // Close to the floor, the line is worth a sure pass; far below it, try a lower floor first.
                floor = if floor == u32::MAX || line + GAP_STEP >= floor { line } else { floor - GAP_STEP };
            }
        }
    };

    let arena = &ws.arena;
    let line = line_to(arena, best, start_reset);
    Solution { score: state.score + u32::from(arena[best].score), line, nodes }
}

/// The line that reached arena entry `best`: its columns from the start, `_` where a new stack began (also at the
/// start when `start_reset`: the given stack was ended before the first card).
fn line_to(arena: &[Entry], best: usize, start_reset: bool) -> String {
    let mut cols_rev = Vec::new();
    let mut e = best;
    while arena[e].parent != u32::MAX {
        let parent = arena[e].parent as usize;
        let is_start = arena[parent].parent == u32::MAX;
        let new_stack = arena[parent].key == 0 && (!is_start || start_reset);
        cols_rev.push((arena[e].col, new_stack));
        e = parent;
    }
    let mut line = String::with_capacity(cols_rev.len() * 5 / 4);
    for &(col, new_stack) in cols_rev.iter().rev() {
        if new_stack {
            line.push('_');
        }
        line.push(char::from(b'1' + col));
    }
    line
}
