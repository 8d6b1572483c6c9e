//! The A* search over flood states: a transposition table keyed on the flood bitset, forced moves played at
//! once, dominance pruning, and the upper bound from a greedy pass and a beam search.

use std::time::Instant;

use super::bounds::*;
use super::dominance::*;
use super::graph::*;
use super::Limits;

/// The search stops (returning its best solution, not proven optimal) once its node storage
/// passes this many bytes; with vector growth the process stays well under 4 GB.
pub(super) const MEMORY_BUDGET: usize = 1 << 31;

pub(super) const EMPTY_SLOT: u64 = u64::MAX;

/// A* over flood states with a transposition table.
pub(super) struct SearchGraph<'g> {
    pub(super) graph: &'g RegionGraph,
    pub(super) evaluator: Evaluator<'g>,
    /// Words per working state: the flood bitset followed by the boundary bitset. Nodes store
    /// only the flood; the boundary is recomputed on expansion.
    pub(super) stride: usize,
    /// Node arena: states, parent links, depth and the moves from the parent.
    pub(super) states: Vec<u64>,
    pub(super) parent: Vec<u32>,
    pub(super) depth: Vec<u32>,
    pub(super) moves_start: Vec<u32>,
    pub(super) moves_len: Vec<u16>,
    pub(super) moves: Vec<u8>,
    /// Transposition table: open addressing, keyed by the flood bitset. Each slot holds
    /// `(hash >> 32) << 32 | node`, or [`EMPTY_SLOT`].
    pub(super) table: Vec<u64>,
    pub(super) table_used: usize,
    /// Number of nodes expanded.
    pub(super) expanded: u64,
    /// Per node: whether its bound already includes the refinement (or it was tried).
    pub(super) refined: Vec<bool>,
    /// The expanded nodes, to find one whose flood strictly contains a given one.
    pub(super) dominance: DominanceIndex,
}

impl<'g> SearchGraph<'g> {
    pub(super) fn new(graph: &'g RegionGraph) -> Self {
        SearchGraph {
            graph,
            evaluator: Evaluator::new(graph),
            stride: 2 * graph.words,
            states: Vec::new(),
            parent: Vec::new(),
            depth: Vec::new(),
            moves_start: Vec::new(),
            moves_len: Vec::new(),
            moves: Vec::new(),
            table: vec![EMPTY_SLOT; 1024],
            table_used: 0,
            expanded: 0,
            refined: Vec::new(),
            dominance: DominanceIndex::new(graph),
        }
    }

    /// The starting state: region 0 flooded, its neighbours on the boundary.
    pub(super) fn root_state(&self) -> Vec<u64> {
        let words = self.graph.words;
        let mut state = vec![0u64; 2 * words];
        set_bit(&mut state[..words], 0);
        for &n in self.graph.neighbours(0) {
            set_bit(&mut state[words..], n as usize);
        }
        state
    }

    /// Play `colour` on `state` (flood then boundary bitsets) in place. Returns true when the
    /// move brought a region that was not on the boundary before onto it.
    pub(super) fn play(graph: &RegionGraph, state: &mut [u64], colour: usize) -> bool {
        let words = graph.words;
        let (flood, boundary) = state.split_at_mut(words);
        let mask = graph.colour_mask(colour);
        if !graph.adjacent_bits.is_empty() {
            // Bitset form: new boundary = (old boundary | neighbours of absorbed) - new flood.
            let mut old = [0u64; MAX_BITSET_REGIONS / 64];
            old[..words].copy_from_slice(boundary);
            for w in 0..words {
                flood[w] |= boundary[w] & mask[w];
            }
            or_neighbours(graph, &old[..words], mask, boundary);
            let mut exposed = 0;
            for w in 0..words {
                boundary[w] &= !flood[w];
                exposed |= boundary[w] & !old[w];
            }
            return exposed != 0;
        }
        let mut exposed = false;
        for w in 0..words {
            let absorbed = boundary[w] & mask[w];
            flood[w] |= absorbed;
            boundary[w] &= !absorbed;
            let mut word = absorbed;
            while word != 0 {
                let r = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                // Absorbed regions in later words are still on the boundary, so they are
                // neither re-added nor counted as exposed.
                for &n in graph.neighbours(r) {
                    let n = n as usize;
                    if !bit(flood, n) && !bit(boundary, n) {
                        set_bit(boundary, n);
                        exposed = true;
                    }
                }
            }
        }
        exposed
    }

    /// Plays colour-eliminating moves while there are any, appending them to `played`, and
    /// returns the lower bound of the resulting state.
    ///
    /// Safety of the forced move: flood growth is monotone (if flood `F ⊆ G`, then after the
    /// same move `F' ⊆ G'`, because a region touching `F` touches `G` or lies in it). Suppose
    /// colour `c` can be eliminated now and `S` is an optimal solution. `S` contains a move of
    /// colour `c` (c's regions must be absorbed). Play `c` first, then `S` without its first
    /// `c` move: until that point our flood contains `S`'s flood plus all `c` regions; at that
    /// point `S`'s move adds only `c` regions, which we already have; afterwards inclusion is
    /// kept by monotonicity. So the new sequence also solves the board with the same length,
    /// and trying only the eliminating move loses nothing.
    pub(super) fn settle(&mut self, state: &mut [u64], played: &mut Vec<u8>) -> u32 {
        let words = self.graph.words;
        loop {
            let eval = self.evaluator.evaluate(&state[..words], &state[words..]);
            match eval.eliminable {
                Some(c) => {
                    Self::play(self.graph, state, c as usize);
                    played.push(c);
                }
                None => return eval.bound,
            }
        }
    }

    /// Approximate bytes held by the node arena and the transposition table (open-list entries
    /// add 4 bytes per node and are counted per node).
    pub(super) fn memory_estimate(&self) -> usize {
        self.states.capacity() * 8
            + self.parent.capacity() * (4 + 4 + 4 + 2 + 4 + 1)
            + self.dominance.memory()
            + self.moves.capacity()
            + self.table.len() * 8
    }

    /// Recomputes the boundary half of `state` from its flood half.
    pub(super) fn fill_boundary(&self, state: &mut [u64]) {
        let graph = self.graph;
        let words = graph.words;
        let (flood, boundary) = state.split_at_mut(words);
        boundary.fill(0);
        if graph.adjacent_bits.is_empty() {
            for_each_bit(flood, |r| {
                for &n in graph.neighbours(r) {
                    set_bit(boundary, n as usize);
                }
            });
        } else {
            or_neighbours(graph, flood, flood, boundary);
        }
        for (b, &f) in boundary.iter_mut().zip(flood.iter()) {
            *b &= !f;
        }
    }

    pub(super) fn is_full(&self, flood: &[u64]) -> bool {
        let n = self.graph.len;
        flood.iter().enumerate().all(|(w, &word)| {
            let bits_here = (n - w * 64).min(64);
            let want = if bits_here == 64 { u64::MAX } else { (1u64 << bits_here) - 1 };
            word == want
        })
    }

    pub(super) fn hash(flood: &[u64]) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64;
        for &w in flood {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 32)
    }

    pub(super) fn node_flood(&self, node: u32) -> &[u64] {
        let words = self.graph.words;
        &self.states[node as usize * words..(node as usize + 1) * words]
    }

    /// Finds the node holding flood `flood` (or [`NO_NODE`]) and its slot (or the empty slot
    /// where it belongs); the third value is the slot content to store for a new node.
    pub(super) fn table_slot(&self, flood: &[u64]) -> (usize, u32, u64) {
        let hash = Self::hash(flood);
        let tag = hash & !0xFFFF_FFFF;
        let mask = self.table.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let entry = self.table[slot];
            if entry == EMPTY_SLOT {
                return (slot, NO_NODE, tag);
            }
            if entry & !0xFFFF_FFFF == tag && self.node_flood(entry as u32) == flood {
                return (slot, entry as u32, tag);
            }
            slot = (slot + 1) & mask;
        }
    }

    pub(super) fn grow_table(&mut self) {
        let new_len = self.table.len() * 2;
        let old = std::mem::replace(&mut self.table, vec![EMPTY_SLOT; new_len]);
        let mask = new_len - 1;
        for entry in old.into_iter().filter(|&e| e != EMPTY_SLOT) {
            let mut slot = Self::hash(self.node_flood(entry as u32)) as usize & mask;
            while self.table[slot] != EMPTY_SLOT {
                slot = (slot + 1) & mask;
            }
            self.table[slot] = entry;
        }
    }

    pub(super) fn add_node(&mut self, state: &[u64], parent: u32, depth: u32, played: &[u8]) -> u32 {
        let id = self.parent.len() as u32;
        self.states.extend_from_slice(&state[..self.graph.words]);
        self.parent.push(parent);
        self.refined.push(false);
        self.depth.push(depth);
        self.moves_start.push(self.moves.len() as u32);
        self.moves_len.push(played.len() as u16);
        self.moves.extend_from_slice(played);
        id
    }

    /// Whether an expanded node of depth at most `depth` has a flood strictly containing
    /// `flood` (found through [`DominanceIndex`]; see the module docs).
    pub(super) fn dominated(&self, flood: &[u64], depth: u32) -> bool {
        self.dominance.dominated(&self.states, flood, depth)
    }

    /// Moves from the root to `node` followed by `tail`.
    pub(super) fn path(&self, node: u32, tail: &[u8]) -> Vec<u8> {
        let mut pieces = vec![tail];
        let mut n = node;
        while n != NO_NODE {
            let start = self.moves_start[n as usize] as usize;
            pieces.push(&self.moves[start..start + self.moves_len[n as usize] as usize]);
            n = self.parent[n as usize];
        }
        pieces.iter().rev().flat_map(|p| p.iter().copied()).collect()
    }

    /// Colours present on the boundary of `state`.
    pub(super) fn boundary_colours(&self, state: &[u64]) -> Vec<u8> {
        let words = self.graph.words;
        let mut seen = vec![false; self.graph.palette.len()];
        for_each_bit(&state[words..], |r| seen[self.graph.colour[r] as usize] = true);
        (0..seen.len()).filter(|&c| seen[c]).map(|c| c as u8).collect()
    }

    /// Beam search from a settled state for a good first solution (an upper bound).
    ///
    /// Each round expands every kept state by every boundary colour (plus forced moves) and
    /// keeps the `width` distinct results with the smallest `moves + lower bound`, breaking ties
    /// by the larger flooded area. Returns the shortest complete solution seen (moves after
    /// `start`); `None` when the deadline passed before any was complete.
    pub(super) fn beam(&mut self, start: &[u64], width: usize, deadline: Option<Instant>) -> Option<Vec<u8>> {
        struct Candidate {
            state: Vec<u64>,
            moves: Vec<u8>,
            estimate: u32,
            area: u64,
        }
        let words = self.graph.words;
        let mut level = vec![Candidate { state: start.to_vec(), moves: Vec::new(), estimate: 0, area: 0 }];
        let mut best: Option<Vec<u8>> = None;
        let mut seen = std::collections::HashSet::new();
        let mut played = Vec::new();
        while !level.is_empty() {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return best;
            }
            let mut next: Vec<Candidate> = Vec::new();
            seen.clear();
            for candidate in &level {
                for colour in self.boundary_colours(&candidate.state) {
                    let mut child = candidate.state.clone();
                    played.clear();
                    played.push(colour);
                    Self::play(self.graph, &mut child, colour as usize);
                    let bound = self.settle(&mut child, &mut played);
                    let mut moves = candidate.moves.clone();
                    moves.extend_from_slice(&played);
                    if best.as_ref().is_some_and(|b| moves.len() + bound as usize >= b.len()) {
                        continue;
                    }
                    if self.is_full(&child[..words]) {
                        best = Some(moves);
                        continue;
                    }
                    if !seen.insert(Self::hash(&child[..words])) {
                        continue;
                    }
                    let mut area = 0u64;
                    for_each_bit(&child[..words], |r| area += u64::from(self.graph.area[r]));
                    let estimate = moves.len() as u32 + bound;
                    next.push(Candidate { state: child, moves, estimate, area });
                }
            }
            next.sort_by_key(|c| (c.estimate, std::cmp::Reverse(c.area)));
            next.truncate(width);
            level = next;
        }
        best
    }

    /// A solution from `start` found without any lower-bound evaluation: repeatedly play the
    /// boundary colour that absorbs the most cells. Linear time per move, for when time is up.
    pub(super) fn quick_completion(&self, start: &[u64]) -> Vec<u8> {
        let words = self.graph.words;
        let mut state = start.to_vec();
        let mut moves = Vec::new();
        let mut gained = vec![0u64; self.graph.palette.len()];
        while !self.is_full(&state[..words]) {
            gained.fill(0);
            for_each_bit(&state[words..], |r| {
                gained[self.graph.colour[r] as usize] += u64::from(self.graph.area[r]);
            });
            let Some(colour) = (0..gained.len()).filter(|&c| gained[c] > 0).max_by_key(|&c| gained[c]) else {
                break; // unreachable: a non-full flood always has a boundary
            };
            Self::play(self.graph, &mut state, colour);
            moves.push(colour as u8);
        }
        moves
    }

    /// Plays `moves` from the unsettled root, dropping moves that absorb nothing. Returns the
    /// cleaned move list if it floods the whole board.
    pub(super) fn replay(&self, moves: &[u8]) -> Option<Vec<u8>> {
        let words = self.graph.words;
        let mut state = self.root_state();
        let mut kept = Vec::with_capacity(moves.len());
        for &colour in moves {
            if self.is_full(&state[..words]) {
                break;
            }
            let mask = self.graph.colour_mask(colour as usize);
            if state[words..].iter().zip(mask).any(|(b, m)| b & m != 0) {
                Self::play(self.graph, &mut state, colour as usize);
                kept.push(colour);
            }
        }
        self.is_full(&state[..words]).then_some(kept)
    }

    /// Shortens a solution by deleting single moves (one pass, front to back) while it still
    /// solves the board; stops early at the deadline.
    pub(super) fn delete_moves(&self, mut moves: Vec<u8>, deadline: Option<Instant>) -> Vec<u8> {
        let mut i = 0;
        while i < moves.len() && deadline.is_none_or(|d| Instant::now() < d) {
            let mut candidate = moves.clone();
            candidate.remove(i);
            match self.replay(&candidate) {
                // `replay` may drop further moves that became no-ops; position i is retried.
                Some(shorter) => moves = shorter,
                None => i += 1,
            }
        }
        moves
    }

    /// Runs the search. Returns (moves as compact colours, proven optimal, nodes expanded).
    pub(super) fn solve(&mut self, limits: &Limits) -> (Vec<u8>, bool, u64) {
        let words = self.graph.words;
        let mut root = self.root_state();
        let mut root_moves = Vec::new();
        let root_bound = self.settle(&mut root, &mut root_moves);
        if self.is_full(&root[..words]) {
            // Only forced moves were needed, each proven safe.
            return (root_moves, true, 0);
        }
        let deadline_passed = || limits.deadline.is_some_and(|d| Instant::now() >= d);
        // A greedy pass (beam of width 1) gives the first solution; if the deadline passes
        // during it, a cheaper rule completes the board instead.
        let mut tail = match self.beam(&root, 1, limits.deadline) {
            Some(moves) => moves,
            None => self.quick_completion(&root),
        };
        let proven = |moves: &[u8]| moves.len() as u32 <= root_bound;
        if !proven(&tail) && !deadline_passed() && limits.node_limit != Some(0) && self.graph.len <= MAX_BEAM_REGIONS {
            // Wider beams pay off on larger boards, where the search itself costs far more.
            let width = (self.graph.len / 8).clamp(2, 48);
            if let Some(wide) = self.beam(&root, width, limits.deadline) {
                if wide.len() < tail.len() {
                    tail = wide;
                }
            }
        }
        let mut best = root_moves.clone();
        if proven(&tail) {
            best.extend(tail);
            return (best, true, 0);
        }
        best.extend(tail);
        best = self.delete_moves(best, limits.deadline);
        let mut upper = best.len() as u32;
        let root_moves_len = root_moves.len() as u32;
        if root_moves_len + root_bound >= upper {
            return (best, true, 0);
        }

        // Large graphs make each expansion slow, so the clock is read more often.
        let check_interval = if self.graph.len > 4096 { 1 } else { 256 };
        let out_of_limits = |search: &Self| {
            let expanded = search.expanded;
            limits.node_limit.is_some_and(|limit| expanded >= limit)
                || (expanded.is_multiple_of(check_interval)
                    && (deadline_passed() || search.memory_estimate() > MEMORY_BUDGET))
        };

        // Open list: buckets by f = g + h, then by g; popped lowest f first, deepest first.
        let mut open: Vec<Vec<Vec<u32>>> = Vec::new();
        let push = |open: &mut Vec<Vec<Vec<u32>>>, f: u32, g: u32, node: u32| {
            let (f, g) = (f as usize, g as usize);
            if open.len() <= f {
                open.resize_with(f + 1, Vec::new);
            }
            if open[f].len() <= g {
                open[f].resize_with(g + 1, Vec::new);
            }
            open[f][g].push(node);
        };
        let root_node = self.add_node(&root, NO_NODE, root_moves_len, &root_moves);
        let (slot, _, tag) = self.table_slot(&root[..words]);
        self.table[slot] = tag | u64::from(root_node);
        self.table_used += 1;
        push(&mut open, root_moves_len + root_bound, root_moves_len, root_node);

        let mut f = (root_moves_len + root_bound) as usize;
        let mut state = vec![0u64; self.stride];
        let mut child = vec![0u64; self.stride];
        let mut played = Vec::new();
        loop {
            // Pop the next node: lowest f, then highest g.
            let mut popped = None;
            while popped.is_none() && f < open.len() && (f as u32) < upper {
                match open[f].iter().rposition(|bucket| !bucket.is_empty()) {
                    Some(g) => popped = open[f][g].pop().map(|node| (node, g as u32)),
                    None => f += 1,
                }
            }
            let Some((node, g)) = popped else {
                // Every state with f < upper has been expanded: the best solution is optimal.
                return (best, true, self.expanded);
            };
            if self.depth[node as usize] != g {
                continue; // stale entry: the node was re-queued with a smaller depth
            }
            if out_of_limits(self) {
                return (best, false, self.expanded);
            }
            if self.dominated(self.node_flood(node), g) {
                continue;
            }
            self.expanded += 1;
            state[..words].copy_from_slice(self.node_flood(node));
            self.fill_boundary(&mut state);
            let shared_analysis = self.evaluator.can_analyse_children();
            if shared_analysis {
                self.evaluator.analyse_children(&state[..words], &state[words..]);
                // Nodes whose bound was not refined when generated (the root, results of
                // forced moves) get the refinement now; a node it raises goes back to the queue.
                if !self.refined[node as usize] {
                    self.refined[node as usize] = true;
                    if let Some(bound) = self.evaluator.precedence_raises_bound() {
                        if g + bound > f as u32 {
                            if g + bound < upper {
                                push(&mut open, g + bound, g, node);
                            }
                            continue;
                        }
                    }
                }
                self.evaluator.prepare_child_refinement();
            }
            // Indexed once its children are about to be generated (so once per depth).
            self.dominance.insert(&state[..words], node, g);
            let colour_set: Vec<u8> = if shared_analysis { Vec::new() } else { self.boundary_colours(&state) };
            let mut remaining_colours = if shared_analysis { self.evaluator.boundary_colours } else { 0 };
            let mut listed = colour_set.iter();
            loop {
                let colour = if shared_analysis {
                    if remaining_colours == 0 {
                        break;
                    }
                    let c = remaining_colours.trailing_zeros() as u8;
                    remaining_colours &= remaining_colours - 1;
                    c
                } else {
                    match listed.next() {
                        Some(&c) => c,
                        None => break,
                    }
                };
                // With the shared analysis the child's bound is known before it is built.
                let mut known = None;
                let mut to_refine = None;
                if shared_analysis {
                    let (bound, eliminable) = self.evaluator.child_bound(colour);
                    if g + 1 + bound >= upper {
                        // Forced moves after it cannot help: the bound drops by at most one
                        // per move.
                        continue;
                    }
                    if !eliminable {
                        // Refined below, after the cheaper transposition check (the
                        // evaluator's analysis stays untouched until then).
                        to_refine = Some(bound);
                    }
                }
                child.copy_from_slice(&state);
                played.clear();
                played.push(colour);
                // The node is settled, so no move removes a colour. A move that then brings no
                // new region to the boundary is never part of an optimal solution: the regions it
                // absorbs touch only the flood and its boundary, so absorbing them early helps no
                // other region, and the later move of the same colour (needed for that colour's
                // remaining regions) absorbs them anyway; dropping the move gives a shorter
                // solution.
                if !Self::play(self.graph, &mut child, colour as usize) {
                    continue;
                }
                // Transposition check before paying for any evaluation.
                let (mut slot, mut existing, mut tag) = self.table_slot(&child[..words]);
                if existing != NO_NODE && self.depth[existing as usize] <= g + 1 {
                    continue;
                }
                if let Some(bound) = to_refine {
                    let refined = self.evaluator.child_refined_bound(colour, bound);
                    if g + 1 + refined >= upper {
                        continue;
                    }
                    known = Some(refined);
                }
                let bound = match known {
                    Some(bound) => bound,
                    None => {
                        let bound = self.settle(&mut child, &mut played);
                        if played.len() > 1 {
                            (slot, existing, tag) = self.table_slot(&child[..words]);
                        }
                        bound
                    }
                };
                let child_g = g + played.len() as u32;
                if child_g + bound >= upper {
                    continue;
                }
                if self.is_full(&child[..words]) {
                    best = self.path(node, &played);
                    upper = child_g;
                    continue;
                }
                if existing != NO_NODE {
                    if self.depth[existing as usize] <= child_g {
                        continue;
                    }
                    // Reached by a shorter path: re-link and reopen.
                    let e = existing as usize;
                    self.parent[e] = node;
                    self.depth[e] = child_g;
                    self.moves_start[e] = self.moves.len() as u32;
                    self.moves_len[e] = played.len() as u16;
                    self.moves.extend_from_slice(&played);
                    push(&mut open, child_g + bound, child_g, existing);
                    // With the refined bound a reopened node may sit below the current f.
                    f = f.min((child_g + bound) as usize);
                    continue;
                }
                let id = self.add_node(&child, node, child_g, &played);
                self.refined[id as usize] = known.is_some();
                self.table[slot] = tag | u64::from(id);
                self.table_used += 1;
                if self.table_used * 2 > self.table.len() {
                    self.grow_table();
                }
                push(&mut open, child_g + bound, child_g, id);
                f = f.min((child_g + bound) as usize);
            }
        }
    }
}
