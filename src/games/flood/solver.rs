//! Proven-optimal Flood-It solver.
//!
//! The board is reduced to its *region graph*: the 4-connected components of equal colour
//! ("regions") with an edge between regions that touch. The flood is a set of regions
//! (a bitset); a move of colour `c` adds every region of colour `c` on the flood's boundary.
//!
//! The search is A* over flood sets with
//! * an admissible and consistent lower bound (see [`Evaluator::evaluate`]),
//! * a proven-safe forced move: a move that removes a colour from the board is played at once
//!   and is the only move tried (see [`SearchGraph::settle`]),
//! * a transposition table keyed on the flood bitset,
//! * an upper bound from a greedy pass (improved by deleting moves) that prunes every node
//!   whose bound reaches it, so the search ends as soon as the bound is proven.
//!
//! With a deadline or node limit the best solution found so far is returned, marked
//! `optimal: false` unless the search had already proved it.

use std::time::Instant;

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
    assert!(
        cells.len() == width * height,
        "flood solver: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    if is_solved(cells) {
        return Solution { moves: Vec::new(), optimal: true, nodes: 0 };
    }
    let graph = RegionGraph::build(width, height, cells);
    let mut search = SearchGraph::new(&graph);
    let (compact_moves, optimal, nodes) = search.solve(limits);
    Solution {
        moves: compact_moves.iter().map(|&c| graph.palette[c as usize]).collect(),
        optimal,
        nodes,
    }
}

/// Apply one move in place (the game's rule). Used by the play loop to predict the next board.
///
/// Picking the flood's own colour changes nothing.
///
/// # Panics
/// When `cells.len() != width * height`.
pub fn apply_move(width: usize, height: usize, cells: &mut [u8], colour: u8) {
    assert!(
        cells.len() == width * height,
        "apply_move: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    if cells.is_empty() {
        return;
    }
    let old = cells[0];
    if old == colour {
        return;
    }
    // Recolour the flood; neighbours of the new colour join it automatically because they
    // now have the flood's colour and touch it.
    let mut stack = vec![0usize];
    cells[0] = colour;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % width, i / width);
        let mut visit = |j: usize, stack: &mut Vec<usize>| {
            if cells[j] == old {
                cells[j] = colour;
                stack.push(j);
            }
        };
        if x > 0 {
            visit(i - 1, &mut stack);
        }
        if x + 1 < width {
            visit(i + 1, &mut stack);
        }
        if y > 0 {
            visit(i - width, &mut stack);
        }
        if y + 1 < height {
            visit(i + width, &mut stack);
        }
    }
}

/// true when every cell has the same colour.
pub fn is_solved(cells: &[u8]) -> bool {
    match cells.first() {
        None => true,
        Some(&first) => cells.iter().all(|&c| c == first),
    }
}

/// Check a move list solves the board (applies them in order; every move must be a colour present on the board at that point and differ from the flood colour). Returns Err(description) if not.
///
/// # Panics
/// When `cells.len() != width * height`.
pub fn check_solution(width: usize, height: usize, cells: &[u8], moves: &[u8]) -> Result<(), String> {
    assert!(
        cells.len() == width * height,
        "check_solution: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    let mut board = cells.to_vec();
    for (i, &colour) in moves.iter().enumerate() {
        if is_solved(&board) {
            return Err(format!("move {i} (colour {colour}) played after the board was already solved"));
        }
        if board[0] == colour {
            return Err(format!("move {i} picks colour {colour}, which is the flood's current colour"));
        }
        if !board.contains(&colour) {
            return Err(format!("move {i} picks colour {colour}, which is not on the board"));
        }
        apply_move(width, height, &mut board, colour);
    }
    if is_solved(&board) {
        Ok(())
    } else {
        Err(format!("after {} moves the board is not one colour", moves.len()))
    }
}

/// Deterministic seeded random board (uniform colours 0..colours), for benchmarks and tests.
///
/// `colours == 0` is treated as 1.
pub fn random_board(width: usize, height: usize, colours: u8, seed: u64) -> Vec<u8> {
    let colours = u64::from(colours.max(1));
    let mut rng = SplitMix64(seed);
    (0..width * height)
        .map(|_| (((rng.next() >> 32) * colours) >> 32) as u8)
        .collect()
}

/// The splitmix64 generator: tiny, fast and good enough for benchmark boards.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

// ---------------------------------------------------------------------------------------------
// Region graph
// ---------------------------------------------------------------------------------------------

/// Largest region count for which adjacency is also kept as bitsets (2 MB at most).
const MAX_BITSET_REGIONS: usize = 4096;

/// The board as a graph of same-colour regions. Region 0 contains cell (0,0).
struct RegionGraph {
    /// Number of regions.
    len: usize,
    /// 64-bit words in a region bitset.
    words: usize,
    /// Compact colour index (0..palette.len()) of each region.
    colour: Vec<u8>,
    /// Number of cells in each region.
    area: Vec<u32>,
    /// CSR adjacency: neighbours of region r are `adjacent[adjacent_start[r]..adjacent_start[r+1]]`.
    adjacent_start: Vec<u32>,
    adjacent: Vec<u32>,
    /// For each compact colour, the bitset of regions of that colour.
    colour_masks: Vec<u64>,
    /// Adjacency as bitsets (`words` words per region) when the graph is small enough
    /// (at most [`MAX_BITSET_REGIONS`] regions); empty otherwise.
    adjacent_bits: Vec<u64>,
    /// Compact colour index → colour id used in the caller's cells.
    palette: Vec<u8>,
}

impl RegionGraph {
    fn build(width: usize, height: usize, cells: &[u8]) -> RegionGraph {
        let mut compact = [u8::MAX; 256];
        let mut present = [false; 256];
        for &c in cells {
            present[c as usize] = true;
        }
        let palette: Vec<u8> = (0..=255u8).filter(|&c| present[c as usize]).collect();
        for (i, &c) in palette.iter().enumerate() {
            compact[c as usize] = i as u8; // at most 256 colours, so i <= 255
        }

        // Label regions by flood fill, starting at cell 0 so that region 0 holds (0,0).
        const UNLABELLED: u32 = u32::MAX;
        let mut label = vec![UNLABELLED; cells.len()];
        let mut colour = Vec::new();
        let mut area = Vec::new();
        let mut stack = Vec::new();
        for start in 0..cells.len() {
            if label[start] != UNLABELLED {
                continue;
            }
            let id = colour.len() as u32;
            let c = cells[start];
            label[start] = id;
            stack.push(start);
            let mut count = 0u32;
            while let Some(i) = stack.pop() {
                count += 1;
                let (x, y) = (i % width, i / width);
                let mut visit = |j: usize| {
                    if label[j] == UNLABELLED && cells[j] == c {
                        label[j] = id;
                        stack.push(j);
                    }
                };
                if x > 0 {
                    visit(i - 1);
                }
                if x + 1 < width {
                    visit(i + 1);
                }
                if y > 0 {
                    visit(i - width);
                }
                if y + 1 < height {
                    visit(i + width);
                }
            }
            colour.push(compact[c as usize]);
            area.push(count);
        }
        let len = colour.len();
        let words = len.div_ceil(64);

        // Edges between different regions, both directions, deduplicated.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for i in 0..cells.len() {
            let x = i % width;
            let mut edge = |j: usize| {
                let (a, b) = (label[i], label[j]);
                if a != b {
                    edges.push((a, b));
                    edges.push((b, a));
                }
            };
            if x + 1 < width {
                edge(i + 1);
            }
            if i + width < cells.len() {
                edge(i + width);
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mut adjacent_start = vec![0u32; len + 1];
        for &(a, _) in &edges {
            adjacent_start[a as usize + 1] += 1;
        }
        for r in 0..len {
            adjacent_start[r + 1] += adjacent_start[r];
        }
        let adjacent: Vec<u32> = edges.iter().map(|&(_, b)| b).collect();

        let mut colour_masks = vec![0u64; palette.len() * words];
        for (r, &c) in colour.iter().enumerate() {
            colour_masks[c as usize * words + r / 64] |= 1 << (r % 64);
        }
        let mut adjacent_bits = Vec::new();
        if len <= MAX_BITSET_REGIONS {
            adjacent_bits = vec![0u64; len * words];
            for &(a, b) in &edges {
                set_bit(&mut adjacent_bits[a as usize * words..(a as usize + 1) * words], b as usize);
            }
        }
        RegionGraph { len, words, colour, area, adjacent_start, adjacent, colour_masks, adjacent_bits, palette }
    }

    fn neighbours(&self, region: usize) -> &[u32] {
        &self.adjacent[self.adjacent_start[region] as usize..self.adjacent_start[region + 1] as usize]
    }

    fn adjacent_mask(&self, region: usize) -> &[u64] {
        &self.adjacent_bits[region * self.words..(region + 1) * self.words]
    }

    fn colour_mask(&self, colour: usize) -> &[u64] {
        &self.colour_masks[colour * self.words..(colour + 1) * self.words]
    }
}

#[inline]
fn bit(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 != 0
}

#[inline]
fn set_bit(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

/// Calls `f` with the index of every set bit, in increasing order.
#[inline]
fn for_each_bit(set: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in set.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lower bound
// ---------------------------------------------------------------------------------------------

/// What the evaluator learns about a flood state.
#[derive(Clone, Copy, Debug)]
struct Evaluation {
    /// Admissible lower bound on the moves still needed.
    bound: u32,
    /// A colour all of whose remaining regions touch the flood (playing it removes the colour).
    eliminable: Option<u8>,
}

/// Computes lower bounds by one breadth-first search over the region graph.
struct Evaluator<'g> {
    graph: &'g RegionGraph,
    visited: Vec<u64>,
    /// Current and next breadth-first layer as bitsets.
    layer: Vec<u64>,
    next: Vec<u64>,
    queue: Vec<u32>,
    /// Per colour: greatest region distance from the flood among regions of that colour.
    farthest: Vec<u32>,
    /// Per colour: regions of that colour outside the flood.
    remaining: Vec<u32>,
    /// Per colour: regions of that colour on the flood's boundary.
    on_boundary: Vec<u32>,
    /// Scratch histogram over distances.
    histogram: Vec<u32>,
    /// Per region: `(generation << 32) | distance`, valid when the generation is current.
    stamp: Vec<u64>,
    generation: u64,
    /// Per region: the colours of the first regions of its shortest paths from the flood.
    first_colours: Vec<u64>,
    /// Per colour: its farthest layer (0 = absent) and the colours whose move shortens the
    /// distance of every region of that colour in that layer.
    far_layer: Vec<u32>,
    far_shortened_by: Vec<u64>,
    /// Colours on the boundary (bit per colour).
    boundary_colours: u64,
    /// Scratch: per colour farthest distance for a child.
    child_farthest: Vec<u32>,
}

impl<'g> Evaluator<'g> {
    fn new(graph: &'g RegionGraph) -> Self {
        let colours = graph.palette.len();
        Evaluator {
            graph,
            visited: vec![0; graph.words],
            layer: Vec::new(),
            next: Vec::new(),
            queue: Vec::with_capacity(graph.len),
            farthest: vec![0; colours],
            remaining: vec![0; colours],
            on_boundary: vec![0; colours],
            histogram: Vec::new(),
            stamp: vec![0; graph.len],
            generation: 0,
            first_colours: vec![0; graph.len],
            far_layer: vec![0; colours],
            far_shortened_by: vec![0; colours],
            boundary_colours: 0,
            child_farthest: vec![0; colours],
        }
    }

    /// Whether [`Self::analyse_children`] can be used (colour sets fit in a `u64`).
    fn can_analyse_children(&self) -> bool {
        self.graph.palette.len() <= 64
    }

    /// One breadth-first search from a state that prepares [`Self::child_bound`] for every move.
    ///
    /// After a move of colour `c` the new flood is the old one plus the boundary regions of
    /// colour `c`, so a region's distance drops by one exactly when one of its shortest paths
    /// starts with a boundary region of colour `c`, and stays the same otherwise. The search
    /// records, per region, the set of such first colours (the union over its predecessors in
    /// the previous layer), and per colour the intersection of these sets over its regions in
    /// its farthest layer: a move shortens that colour's farthest distance exactly when it is in
    /// the intersection.
    fn analyse_children(&mut self, flood: &[u64], boundary: &[u64]) {
        let graph = self.graph;
        self.generation += 1;
        let tag = self.generation << 32;
        self.queue.clear();
        self.far_layer.fill(0);
        self.boundary_colours = 0;
        for ((v, &f), &b) in self.visited.iter_mut().zip(flood).zip(boundary) {
            *v = f | b;
        }
        for_each_bit(boundary, |r| {
            let c = graph.colour[r];
            self.stamp[r] = tag | 1;
            self.first_colours[r] = 1 << c;
            self.boundary_colours |= 1 << c;
            self.queue.push(r as u32);
        });
        let mut start = 0;
        let mut distance = 1u32;
        loop {
            let end = self.queue.len();
            // This layer's first-colour sets are complete: fold them into the per-colour data.
            for &r in &self.queue[start..end] {
                let r = r as usize;
                let c = graph.colour[r] as usize;
                if self.far_layer[c] != distance {
                    self.far_layer[c] = distance;
                    self.far_shortened_by[c] = self.first_colours[r];
                } else {
                    self.far_shortened_by[c] &= self.first_colours[r];
                }
            }
            let next_tag = tag | u64::from(distance + 1);
            for i in start..end {
                let r = self.queue[i] as usize;
                let first = self.first_colours[r];
                for &n in graph.neighbours(r) {
                    let n = n as usize;
                    if !bit(&self.visited, n) {
                        set_bit(&mut self.visited, n);
                        self.stamp[n] = next_tag;
                        self.first_colours[n] = first;
                        self.queue.push(n as u32);
                    } else if self.stamp[n] == next_tag {
                        self.first_colours[n] |= first;
                    }
                }
            }
            if self.queue.len() == end {
                break;
            }
            start = end;
            distance += 1;
        }
    }

    /// The bound of the child reached by playing `colour`, and whether that child has a move
    /// that removes a colour, from the data of the last [`Self::analyse_children`].
    fn child_bound(&mut self, colour: u8) -> (u32, bool) {
        let mask = 1u64 << colour;
        let mut eliminable = false;
        let mut eccentricity = 0;
        for c in 0..self.far_layer.len() {
            let layer = self.far_layer[c];
            let d = if layer == 0 { 0 } else { layer - u32::from(self.far_shortened_by[c] & mask != 0) };
            self.child_farthest[c] = d;
            eliminable |= d == 1;
            eccentricity = eccentricity.max(d);
        }
        let bound = bound_from_distances(&self.child_farthest, eccentricity as usize, &mut self.histogram);
        (bound, eliminable)
    }

    /// Lower bound for the state with flood `flood` whose boundary (regions outside the flood
    /// touching it) is `boundary`.
    ///
    /// Let `D(c)` be the largest breadth-first distance (in region steps, boundary regions at
    /// distance 1) from the flood to a region of colour `c`. The bound is
    /// `max over x >= 1 of (x - 1 + #{colours c : D(c) >= x})`.
    ///
    /// Admissibility: a move absorbs only regions touching the flood, so after `t` moves the
    /// flood lies within distance `t` of the current flood, and a region at distance `D` cannot
    /// be absorbed before move `D`. Every region of colour `c` is absorbed by a move of colour
    /// `c`, so some move of colour `c` is played at a time `>= D(c)`. These moves are distinct
    /// for distinct colours, hence for any `x` the moves numbered `x..=T` of a solution of
    /// length `T` include one per colour with `D(c) >= x`: `T - x + 1 >= #{c : D(c) >= x}`.
    /// (`x = 1` gives the count of remaining colours, `x = max D` gives the eccentricity plus
    /// the number of extra colours in the farthest layer.)
    ///
    /// Consistency (needed so A* never reopens a node): after one move every remaining region
    /// is at most one step closer, and a colour can only vanish if all its regions were at
    /// distance 1; so term `x >= 2` reappears as term `x - 1` (one smaller) and term `x = 1`
    /// loses at most one colour. Hence the bound drops by at most one per move.
    fn evaluate(&mut self, flood: &[u64], boundary: &[u64]) -> Evaluation {
        if self.graph.adjacent_bits.is_empty() {
            self.evaluate_by_lists(flood, boundary)
        } else {
            self.evaluate_by_bitsets(flood, boundary)
        }
    }

    /// [`Self::evaluate`] with layer-at-a-time bitset operations (small graphs).
    fn evaluate_by_bitsets(&mut self, flood: &[u64], boundary: &[u64]) -> Evaluation {
        let graph = self.graph;
        let words = graph.words;
        let colours = graph.palette.len();
        self.layer.clear();
        self.layer.extend_from_slice(boundary);
        self.next.clear();
        self.next.resize(words, 0);
        for ((v, &f), &b) in self.visited.iter_mut().zip(flood).zip(boundary) {
            *v = f | b;
        }
        // Which colours remain, and which can be removed by one move.
        let mut eliminable = None;
        self.farthest.fill(0);
        for c in 0..colours {
            let mask = graph.colour_mask(c);
            let mut remaining = false;
            let mut beyond = false;
            for w in 0..words {
                remaining |= mask[w] & !flood[w] != 0;
                beyond |= mask[w] & !self.visited[w] != 0;
            }
            if remaining {
                self.farthest[c] = 1; // provisional: raised by the search below
                if !beyond && eliminable.is_none() {
                    eliminable = Some(c as u8);
                }
            }
        }
        let mut distance = 1u32;
        loop {
            self.next.fill(0);
            for_each_bit(&self.layer, |r| {
                for (n, &a) in self.next.iter_mut().zip(graph.adjacent_mask(r)) {
                    *n |= a;
                }
            });
            let mut any = 0;
            for (n, v) in self.next.iter_mut().zip(self.visited.iter_mut()) {
                *n &= !*v;
                *v |= *n;
                any |= *n;
            }
            if any == 0 {
                break;
            }
            distance += 1;
            for c in 0..colours {
                let mask = graph.colour_mask(c);
                if self.next.iter().zip(mask).any(|(n, m)| n & m != 0) {
                    self.farthest[c] = distance;
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next);
        }
        Evaluation { bound: self.bound_from_farthest(distance as usize), eliminable }
    }

    /// The bound from `farthest` (0 = colour absent) and the eccentricity.
    fn bound_from_farthest(&mut self, eccentricity: usize) -> u32 {
        bound_from_distances(&self.farthest, eccentricity, &mut self.histogram)
    }

    /// [`Self::evaluate`] by a queue-based search over adjacency lists (large graphs).
    fn evaluate_by_lists(&mut self, flood: &[u64], boundary: &[u64]) -> Evaluation {
        let graph = self.graph;
        self.farthest.fill(0);
        self.remaining.fill(0);
        self.on_boundary.fill(0);
        self.queue.clear();
        for ((v, &f), &b) in self.visited.iter_mut().zip(flood).zip(boundary) {
            *v = f | b;
        }
        for_each_bit(boundary, |r| {
            let c = graph.colour[r] as usize;
            self.on_boundary[c] += 1;
            self.remaining[c] += 1;
            self.farthest[c] = 1;
            self.queue.push(r as u32);
        });
        let mut start = 0;
        let mut distance = 1u32;
        while start < self.queue.len() {
            let end = self.queue.len();
            distance += 1;
            for i in start..end {
                let r = self.queue[i] as usize;
                for &n in graph.neighbours(r) {
                    let n = n as usize;
                    if !bit(&self.visited, n) {
                        set_bit(&mut self.visited, n);
                        self.queue.push(n as u32);
                        let c = graph.colour[n] as usize;
                        self.remaining[c] += 1;
                        self.farthest[c] = distance;
                    }
                }
            }
            start = end;
        }
        let eccentricity = distance as usize - 1;
        let mut eliminable = None;
        for c in 0..self.remaining.len() {
            if self.remaining[c] > 0 && eliminable.is_none() && self.on_boundary[c] == self.remaining[c] {
                eliminable = Some(c as u8);
            }
        }
        Evaluation { bound: self.bound_from_farthest(eccentricity), eliminable }
    }
}

/// `max over x >= 1 of (x - 1 + #{c : farthest[c] >= x})`, the bound of
/// [`Evaluator::evaluate`]; `farthest[c] == 0` means colour `c` is gone, and `eccentricity` is
/// the largest entry.
fn bound_from_distances(farthest: &[u32], eccentricity: usize, histogram: &mut Vec<u32>) -> u32 {
    histogram.clear();
    histogram.resize(eccentricity + 1, 0);
    for &d in farthest {
        if d > 0 {
            histogram[d as usize] += 1;
        }
    }
    let mut bound = 0;
    let mut colours_beyond = 0;
    for x in (1..=eccentricity).rev() {
        colours_beyond += histogram[x];
        bound = bound.max(x as u32 - 1 + colours_beyond);
    }
    bound
}

// ---------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------

const NO_NODE: u32 = u32::MAX;
const EMPTY_SLOT: u64 = u64::MAX;

/// A* over flood states with a transposition table.
struct SearchGraph<'g> {
    graph: &'g RegionGraph,
    evaluator: Evaluator<'g>,
    /// Words per working state: the flood bitset followed by the boundary bitset. Nodes store
    /// only the flood; the boundary is recomputed on expansion.
    stride: usize,
    /// Node arena: states, parent links, depth and the moves from the parent.
    states: Vec<u64>,
    parent: Vec<u32>,
    depth: Vec<u32>,
    moves_start: Vec<u32>,
    moves_len: Vec<u16>,
    moves: Vec<u8>,
    /// Transposition table: open addressing, keyed by the flood bitset. Each slot holds
    /// `(hash >> 32) << 32 | node`, or [`EMPTY_SLOT`].
    table: Vec<u64>,
    table_used: usize,
    /// Number of nodes expanded.
    expanded: u64,
    debug_pushed: u64,
    debug_leaves: u64,
}

impl<'g> SearchGraph<'g> {
    fn new(graph: &'g RegionGraph) -> Self {
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
            debug_pushed: 0,
            debug_leaves: 0,
        }
    }

    /// The starting state: region 0 flooded, its neighbours on the boundary.
    fn root_state(&self) -> Vec<u64> {
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
    fn play(graph: &RegionGraph, state: &mut [u64], colour: usize) -> bool {
        let words = graph.words;
        let (flood, boundary) = state.split_at_mut(words);
        let mask = graph.colour_mask(colour);
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
    fn settle(&mut self, state: &mut [u64], played: &mut Vec<u8>) -> u32 {
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

    /// Recomputes the boundary half of `state` from its flood half.
    fn fill_boundary(&self, state: &mut [u64]) {
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
            for_each_bit(flood, |r| {
                for (b, &a) in boundary.iter_mut().zip(graph.adjacent_mask(r)) {
                    *b |= a;
                }
            });
        }
        for (b, &f) in boundary.iter_mut().zip(flood.iter()) {
            *b &= !f;
        }
    }

    fn is_full(&self, flood: &[u64]) -> bool {
        let n = self.graph.len;
        flood.iter().enumerate().all(|(w, &word)| {
            let bits_here = (n - w * 64).min(64);
            let want = if bits_here == 64 { u64::MAX } else { (1u64 << bits_here) - 1 };
            word == want
        })
    }

    fn hash(flood: &[u64]) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64;
        for &w in flood {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 32)
    }

    fn node_flood(&self, node: u32) -> &[u64] {
        let words = self.graph.words;
        &self.states[node as usize * words..(node as usize + 1) * words]
    }

    /// Finds the node holding flood `flood` (or [`NO_NODE`]) and its slot (or the empty slot
    /// where it belongs); the third value is the slot content to store for a new node.
    fn table_slot(&self, flood: &[u64]) -> (usize, u32, u64) {
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

    fn grow_table(&mut self) {
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

    fn add_node(&mut self, state: &[u64], parent: u32, depth: u32, played: &[u8]) -> u32 {
        let id = self.parent.len() as u32;
        self.states.extend_from_slice(&state[..self.graph.words]);
        self.parent.push(parent);
        self.depth.push(depth);
        self.moves_start.push(self.moves.len() as u32);
        self.moves_len.push(played.len() as u16);
        self.moves.extend_from_slice(played);
        id
    }

    /// Moves from the root to `node` followed by `tail`.
    fn path(&self, node: u32, tail: &[u8]) -> Vec<u8> {
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
    fn boundary_colours(&self, state: &[u64]) -> Vec<u8> {
        let words = self.graph.words;
        let mut seen = vec![false; self.graph.palette.len()];
        for_each_bit(&state[words..], |r| seen[self.graph.colour[r] as usize] = true);
        (0..seen.len()).filter(|&c| seen[c]).map(|c| c as u8).collect()
    }

    /// Beam search from a settled state for a good first solution (an upper bound).
    ///
    /// Each round expands every kept state by every boundary colour (plus forced moves) and
    /// keeps the `width` distinct results with the smallest `moves + lower bound`, breaking ties
    /// by the larger flooded area. Returns the shortest complete solution seen.
    fn beam(&mut self, start: &[u64], width: usize) -> Vec<u8> {
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
        best.unwrap_or_default()
    }

    /// Plays `moves` from the unsettled root, dropping moves that absorb nothing. Returns the
    /// cleaned move list if it floods the whole board.
    fn replay(&self, moves: &[u8]) -> Option<Vec<u8>> {
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

    /// Shortens a solution by deleting single moves while it still solves the board.
    fn delete_moves(&self, mut moves: Vec<u8>) -> Vec<u8> {
        let mut i = 0;
        while i < moves.len() {
            let mut candidate = moves.clone();
            candidate.remove(i);
            match self.replay(&candidate) {
                Some(shorter) => {
                    moves = shorter;
                    i = 0;
                }
                None => i += 1,
            }
        }
        moves
    }

    /// Runs the search. Returns (moves as compact colours, proven optimal, nodes expanded).
    fn solve(&mut self, limits: &Limits) -> (Vec<u8>, bool, u64) {
        let words = self.graph.words;
        let mut root = self.root_state();
        let mut root_moves = Vec::new();
        let root_bound = self.settle(&mut root, &mut root_moves);
        if self.is_full(&root[..words]) {
            // Only forced moves were needed, each proven safe.
            return (root_moves, true, 0);
        }
        let mut best = root_moves.clone();
        // Wider beams pay off on larger boards, where the search itself costs far more.
        let width = (self.graph.len / 8).clamp(2, 48);
        best.extend(self.beam(&root, width));
        best = self.delete_moves(best);
        let mut upper = best.len() as u32;
        if std::env::var_os("FLOOD_DEBUG").is_some() {
            eprintln!("DEBUG regions {} root_moves {} root_bound {} greedy {}", self.graph.len, root_moves.len(), root_bound, upper);
        }
        let root_moves_len = root_moves.len() as u32;
        if root_moves_len + root_bound >= upper {
            return (best, true, 0);
        }

        let out_of_limits = |expanded: u64| {
            limits.node_limit.is_some_and(|limit| expanded >= limit)
                || (expanded % 256 == 0 && limits.deadline.is_some_and(|d| Instant::now() >= d))
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
                    None => {
                        if std::env::var_os("FLOOD_DEBUG").is_some() {
                            eprintln!("DEBUG f {} done at expanded {} upper {}", f, self.expanded, upper);
                        }
                        f += 1
                    }
                }
            }
            let Some((node, g)) = popped else {
                // Every state with f < upper has been expanded: the best solution is optimal.
                if std::env::var_os("FLOOD_DEBUG").is_some() {
                    eprintln!("DEBUG expanded {} leaves {} pushed {}", self.expanded, self.debug_leaves, self.debug_pushed);
                }
                return (best, true, self.expanded);
            };
            if self.depth[node as usize] != g {
                continue; // stale entry: the node was re-queued with a smaller depth
            }
            if out_of_limits(self.expanded) {
                return (best, false, self.expanded);
            }
            self.expanded += 1;
            let pushed_before = self.debug_pushed;
            state[..words].copy_from_slice(self.node_flood(node));
            self.fill_boundary(&mut state);
            let shared_analysis = self.evaluator.can_analyse_children();
            if shared_analysis {
                self.evaluator.analyse_children(&state[..words], &state[words..]);
            }
            let colours = if shared_analysis {
                let set = self.evaluator.boundary_colours;
                (0..64u8).filter(|&c| set >> c & 1 != 0).collect()
            } else {
                self.boundary_colours(&state)
            };
            for colour in colours {
                // With the shared analysis the child's bound is known before it is built.
                let mut known = None;
                if shared_analysis {
                    let (bound, eliminable) = self.evaluator.child_bound(colour);
                    if g + 1 + bound >= upper {
                        // Forced moves after it cannot help: the bound drops by at most one
                        // per move.
                        continue;
                    }
                    if !eliminable {
                        known = Some(bound);
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
                // Transposition check before paying for the evaluation.
                let (_, existing, _) = self.table_slot(&child[..words]);
                if existing != NO_NODE && self.depth[existing as usize] <= g + 1 {
                    continue;
                }
                let bound = match known {
                    Some(bound) => bound,
                    None => self.settle(&mut child, &mut played),
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
                let (slot, existing, tag) = self.table_slot(&child[..words]);
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
                    continue;
                }
                let id = self.add_node(&child, node, child_g, &played);
                self.table[slot] = tag | u64::from(id);
                self.table_used += 1;
                if self.table_used * 2 > self.table.len() {
                    self.grow_table();
                }
                push(&mut open, child_g + bound, child_g, id);
                self.debug_pushed += 1;
                if (child_g + bound) < f as u32 {
                    f = (child_g + bound) as usize;
                }
            }
            if self.debug_pushed == pushed_before {
                self.debug_leaves += 1;
            }
        }
    }
}
