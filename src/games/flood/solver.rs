//! Proven-optimal Flood-It solver (std only).
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
//!   length reach nested floods, so on larger boards this removes most nodes. (Checking
//!   children when generated, or indexing every stored node, costs more than it saves.)
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
        return Solution {
            moves: Vec::new(),
            optimal: true,
            nodes: 0,
        };
    }
    let graph = RegionGraph::build(width, height, cells);
    let mut search = SearchGraph::new(&graph);
    let (compact_moves, optimal, nodes) = search.solve(limits);
    Solution {
        moves: compact_moves
            .iter()
            .map(|&c| graph.palette[c as usize])
            .collect(),
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
pub fn check_solution(
    width: usize,
    height: usize,
    cells: &[u8],
    moves: &[u8],
) -> Result<(), String> {
    assert!(
        cells.len() == width * height,
        "check_solution: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    let mut board = cells.to_vec();
    for (i, &colour) in moves.iter().enumerate() {
        if is_solved(&board) {
            return Err(format!(
                "move {i} (colour {colour}) played after the board was already solved"
            ));
        }
        if board[0] == colour {
            return Err(format!(
                "move {i} picks colour {colour}, which is the flood's current colour"
            ));
        }
        if !board.contains(&colour) {
            return Err(format!(
                "move {i} picks colour {colour}, which is not on the board"
            ));
        }
        apply_move(width, height, &mut board, colour);
    }
    if is_solved(&board) {
        Ok(())
    } else {
        Err(format!(
            "after {} moves the board is not one colour",
            moves.len()
        ))
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

/// Largest colour count for which the precedence refinement of the bound is used
/// (see [`Evaluator::precedence_raises_bound`]).
const PRECEDENCE_MAX_COLOURS: usize = 6;

/// Largest region count for which the wide beam search runs before the exact search.
const MAX_BEAM_REGIONS: usize = 2048;

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
    /// Per region, the set of its neighbours' colours (only when there are at most
    /// [`PRECEDENCE_MAX_COLOURS`] colours; empty otherwise).
    neighbour_colours: Vec<u8>,
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
                set_bit(
                    &mut adjacent_bits[a as usize * words..(a as usize + 1) * words],
                    b as usize,
                );
            }
        }
        let mut neighbour_colours = Vec::new();
        if palette.len() <= PRECEDENCE_MAX_COLOURS {
            neighbour_colours = (0..len)
                .map(|r| {
                    let neighbours =
                        &adjacent[adjacent_start[r] as usize..adjacent_start[r + 1] as usize];
                    neighbours
                        .iter()
                        .fold(0u8, |set, &n| set | 1 << colour[n as usize])
                })
                .collect();
        }
        RegionGraph {
            len,
            words,
            colour,
            area,
            adjacent_start,
            adjacent,
            colour_masks,
            adjacent_bits,
            palette,
            neighbour_colours,
        }
    }

    fn neighbours(&self, region: usize) -> &[u32] {
        &self.adjacent
            [self.adjacent_start[region] as usize..self.adjacent_start[region + 1] as usize]
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

/// `target |= source`, word by word (slices of equal length). Short lengths, the common case,
/// get fixed-size code.
#[inline]
fn or_assign(target: &mut [u64], source: &[u64]) {
    fn fixed<const N: usize>(target: &mut [u64], source: &[u64]) {
        if let (Ok(t), Ok(s)) = (
            <&mut [u64; N]>::try_from(target),
            <&[u64; N]>::try_from(source),
        ) {
            for i in 0..N {
                t[i] |= s[i];
            }
        }
    }
    match target.len() {
        1 => fixed::<1>(target, source),
        2 => fixed::<2>(target, source),
        3 => fixed::<3>(target, source),
        4 => fixed::<4>(target, source),
        5 => fixed::<5>(target, source),
        6 => fixed::<6>(target, source),
        7 => fixed::<7>(target, source),
        8 => fixed::<8>(target, source),
        _ => {
            for (t, &s) in target.iter_mut().zip(source) {
                *t |= s;
            }
        }
    }
}

/// `out |= ` the union of the adjacency bitsets of the regions in `set & filter` (bitset graph
/// only). The word count is dispatched once per call rather than once per region.
#[inline]
fn or_neighbours(graph: &RegionGraph, set: &[u64], filter: &[u64], out: &mut [u64]) {
    #[inline(always)]
    fn fixed<const N: usize>(adjacent: &[u64], set: &[u64], filter: &[u64], out: &mut [u64]) {
        let Ok(out) = <&mut [u64; N]>::try_from(out) else {
            unreachable!()
        };
        for w in 0..N {
            let mut word = set[w] & filter[w];
            while word != 0 {
                let r = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let Ok(row) = <&[u64; N]>::try_from(&adjacent[r * N..(r + 1) * N]) else {
                    unreachable!()
                };
                for i in 0..N {
                    out[i] |= row[i];
                }
            }
        }
    }
    let adjacent = &graph.adjacent_bits[..];
    match graph.words {
        1 => fixed::<1>(adjacent, set, filter, out),
        2 => fixed::<2>(adjacent, set, filter, out),
        3 => fixed::<3>(adjacent, set, filter, out),
        4 => fixed::<4>(adjacent, set, filter, out),
        5 => fixed::<5>(adjacent, set, filter, out),
        6 => fixed::<6>(adjacent, set, filter, out),
        7 => fixed::<7>(adjacent, set, filter, out),
        8 => fixed::<8>(adjacent, set, filter, out),
        _ => {
            for (w, (&a, &b)) in set.iter().zip(filter).enumerate() {
                let mut word = a & b;
                while word != 0 {
                    let r = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    or_assign(out, graph.adjacent_mask(r));
                }
            }
        }
    }
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
    /// Bitset analysis scratch: boundary colours in order, all layers, per-first-colour
    /// subsets of all layers, and their neighbourhoods.
    first_colour_list: Vec<u8>,
    layers: Vec<u64>,
    reach: Vec<u64>,
    spread: Vec<u64>,
    /// Per distance `d` and colour `a` (`d * PRECEDENCE_MAX_COLOURS + a`): the neighbour-colour
    /// sets (bit per set) of the regions of colour `a` at distance `>= d`, from the last
    /// [`Self::prepare_child_refinement`]; empty when the refinement does not apply.
    suffix_needs: Vec<u64>,
    /// Scratch: a child's layers at two consecutive distances.
    child_layers: Vec<u64>,
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
            first_colour_list: Vec::new(),
            layers: Vec::new(),
            reach: Vec::new(),
            spread: Vec::new(),
            suffix_needs: Vec::new(),
            child_layers: Vec::new(),
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
        if self.graph.adjacent_bits.is_empty() {
            self.analyse_children_by_lists(flood, boundary);
        } else {
            self.analyse_children_by_bitsets(flood, boundary);
        }
    }

    /// [`Self::analyse_children`] with bitsets: for each boundary colour `c`, the layer's
    /// regions having a shortest path that starts with a `c` region are the next layer's
    /// regions adjacent to such regions of the previous layer.
    fn analyse_children_by_bitsets(&mut self, flood: &[u64], boundary: &[u64]) {
        let graph = self.graph;
        let words = graph.words;
        self.far_layer.fill(0);
        self.boundary_colours = 0;
        self.first_colour_list.clear();
        for c in 0..graph.palette.len() {
            let mask = graph.colour_mask(c);
            if boundary.iter().zip(mask).any(|(b, m)| b & m != 0) {
                self.boundary_colours |= 1 << c;
                self.first_colour_list.push(c as u8);
            }
        }
        let starts = self.first_colour_list.len();
        // Layer d occupies `layers[(d - 1) * words..]`; its per-first-colour subsets occupy
        // `reach[((d - 1) * starts + i) * words..]`.
        self.layers.clear();
        self.layers.extend_from_slice(boundary);
        self.reach.clear();
        for &c in &self.first_colour_list {
            let mask = graph.colour_mask(c as usize);
            self.reach
                .extend(boundary.iter().zip(mask).map(|(b, m)| b & m));
        }
        for ((v, &f), &b) in self.visited.iter_mut().zip(flood).zip(boundary) {
            *v = f | b;
        }
        self.spread.clear();
        self.spread.resize(starts * words, 0);
        let mut distance = 1usize;
        loop {
            let layer_start = (distance - 1) * words;
            for c in 0..graph.palette.len() {
                let mask = graph.colour_mask(c);
                let layer = &self.layers[layer_start..layer_start + words];
                if layer.iter().zip(mask).any(|(l, m)| l & m != 0) {
                    self.far_layer[c] = distance as u32;
                }
            }
            // Neighbours of each first-colour subset.
            let reach_start = (distance - 1) * starts * words;
            self.spread.fill(0);
            for i in 0..starts {
                let subset = &self.reach[reach_start + i * words..reach_start + (i + 1) * words];
                let out = &mut self.spread[i * words..(i + 1) * words];
                or_neighbours(graph, subset, subset, out);
            }
            let mut any = 0;
            self.next.clear();
            self.next.resize(words, 0);
            for i in 0..starts {
                for w in 0..words {
                    self.next[w] |= self.spread[i * words + w];
                }
            }
            for w in 0..words {
                self.next[w] &= !self.visited[w];
                self.visited[w] |= self.next[w];
                any |= self.next[w];
            }
            if any == 0 {
                break;
            }
            self.layers.extend_from_slice(&self.next);
            let start = self.reach.len();
            self.reach.resize(start + starts * words, 0);
            for (out, spread) in self.reach[start..]
                .chunks_exact_mut(words)
                .zip(self.spread.chunks_exact(words))
            {
                for ((o, &s), &n) in out.iter_mut().zip(spread).zip(&self.next) {
                    *o = s & n;
                }
            }
            distance += 1;
        }
        // Per colour: which first colours reach all of its regions in its farthest layer.
        for c in 0..graph.palette.len() {
            let d = self.far_layer[c] as usize;
            if d == 0 {
                continue;
            }
            let mask = graph.colour_mask(c);
            let layer = &self.layers[(d - 1) * words..d * words];
            let reach_start = (d - 1) * starts * words;
            let mut shortened_by = 0u64;
            for (i, &first) in self.first_colour_list.iter().enumerate() {
                let subset = &self.reach[reach_start + i * words..reach_start + (i + 1) * words];
                if (0..words).all(|w| layer[w] & mask[w] & !subset[w] == 0) {
                    shortened_by |= 1 << first;
                }
            }
            self.far_shortened_by[c] = shortened_by;
        }
    }

    /// [`Self::analyse_children`] by a queue-based search over adjacency lists (large graphs).
    fn analyse_children_by_lists(&mut self, flood: &[u64], boundary: &[u64]) {
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

    /// Tries to prove that the state of the last bitset [`Self::analyse_children`] needs one
    /// move more than its bound; returns that larger bound if so.
    ///
    /// Take a window `x` where the bound is tight: `x - 1 + N(x) = bound`, with `N(x)` colours
    /// having regions at distance `>= x`. A solution of exactly `bound` moves has only `N(x)`
    /// moves from time `x` on, and each of those colours needs a move at a time `>= x` (its
    /// farthest region is absorbed no earlier than its distance), so each of them moves exactly
    /// once in the window, at a time no earlier than its farthest distance. A region `r` at
    /// distance `>= x + 1` is absorbed in the window, by that single move of its colour, after
    /// one of its neighbours was absorbed; every neighbour is at distance `>= x`, so it too was
    /// absorbed in the window, by the single move of its own colour. Hence some colour of `r`'s
    /// neighbours moves before `r`'s colour. If no order of the window's colours meets all
    /// these conditions and the release times, no solution has `bound` moves.
    fn precedence_raises_bound(&mut self) -> Option<u32> {
        let graph = self.graph;
        let colours = graph.palette.len();
        if graph.neighbour_colours.is_empty() || graph.adjacent_bits.is_empty() {
            return None;
        }
        let words = graph.words;
        let eccentricity = self.far_layer.iter().copied().max().unwrap_or(0) as usize;
        if eccentricity < 2 {
            return None;
        }
        let bound = bound_from_distances(&self.far_layer, eccentricity, &mut self.histogram);
        // needs[a] (bit m): some region of colour a beyond the window start has neighbour
        // colour set m. Built from the far end inwards, so at window x it covers distances
        // >= x + 1.
        let mut needs = [0u64; PRECEDENCE_MAX_COLOURS];
        let mut colours_beyond = 0u32;
        for x in (1..=eccentricity).rev() {
            if x < eccentricity {
                let layer = &self.layers[x * words..(x + 1) * words]; // distance x + 1
                for_each_bit(layer, |r| {
                    needs[graph.colour[r] as usize] |= 1 << graph.neighbour_colours[r];
                });
            }
            colours_beyond += self.histogram[x];
            if x as u32 - 1 + colours_beyond != bound {
                continue;
            }
            let window: u32 = (0..colours)
                .filter(|&c| self.far_layer[c] as usize >= x)
                .fold(0, |w, c| w | 1 << c);
            if !Self::single_moves_suffice(&self.far_layer, x as u32, window, &needs) {
                return Some(bound + 1);
            }
            let mut failed_last = 0;
            if x >= 2 {
                let (passed, failed) = Self::last_move_allows_window(
                    graph,
                    &self.layers[(x - 2) * words..(x - 1) * words],
                    &self.layers[(x - 1) * words..x * words],
                    &self.far_layer,
                    x,
                    window,
                    &needs,
                    &mut self.next,
                    x >= 3,
                );
                if !passed {
                    return Some(bound + 1);
                }
                failed_last = failed;
            }
            if x >= 3
                && !Self::two_last_moves_allow_window(
                    graph,
                    &self.layers[(x - 3) * words..x * words],
                    &self.far_layer,
                    x,
                    window,
                    &needs,
                    &mut self.spread,
                    failed_last,
                )
            {
                return Some(bound + 1);
            }
        }
        None
    }

    /// The window test of [`Self::precedence_raises_bound`] with the move just before the
    /// window taken into account (`x >= 2`); `before` and `first` are the layers at distances
    /// `x - 1` and `x`, `farthest` the colours' farthest distances, `scratch` any buffer.
    ///
    /// Regions at distance `x - 1` can only be absorbed by move `x - 1`, which has one colour
    /// `c*`. So at the window's start the flood holds at most the regions within distance
    /// `x - 2` and the `c*` regions at distance `x - 1`; the other regions at distance `x - 1`
    /// are absorbed in the window (their colour must be a window colour), and a region at
    /// distance `x` without a `c*` neighbour at distance `x - 1` is absorbed in the window after
    /// one of its neighbours, all of which are outside that flood. Returns whether some `c*`
    /// leaves a feasible order, and the set of candidates `c*` found to leave none (all of
    /// them when `exhaustive`, else only those tried before the first success).
    #[allow(clippy::too_many_arguments)]
    fn last_move_allows_window(
        graph: &RegionGraph,
        before: &[u64],
        first: &[u64],
        farthest: &[u32],
        x: usize,
        window: u32,
        needs: &[u64; PRECEDENCE_MAX_COLOURS],
        scratch: &mut Vec<u64>,
        exhaustive: bool,
    ) -> (bool, u32) {
        let words = graph.words;
        let mut before_colours = 0u32;
        for c in 0..graph.palette.len() {
            let mask = graph.colour_mask(c);
            if before.iter().zip(mask).any(|(b, m)| b & m != 0) {
                before_colours |= 1 << c;
            }
        }
        let outside = before_colours & !window;
        if outside.count_ones() > 1 {
            return (false, 0);
        }
        let mut passed = false;
        let mut failed = 0u32;
        let mut candidates = if outside != 0 {
            outside
        } else {
            before_colours
        };
        while candidates != 0 {
            let last = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            // Regions at distance x next to a `last` region at distance x - 1.
            let mask = graph.colour_mask(last);
            scratch.clear();
            scratch.resize(words, 0);
            or_neighbours(graph, before, mask, scratch);
            let mut with_layer = *needs;
            for (w, (&layer_word, &next_to_last)) in first.iter().zip(scratch.iter()).enumerate() {
                let mut word = layer_word & !next_to_last;
                while word != 0 {
                    let r = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    with_layer[graph.colour[r] as usize] |= 1 << graph.neighbour_colours[r];
                }
            }
            if Self::single_moves_suffice(farthest, x as u32, window, &with_layer) {
                passed = true;
                if !exhaustive {
                    break;
                }
            } else {
                failed |= 1 << last;
            }
        }
        (passed, failed)
    }

    /// The window test with the two moves before the window taken into account (`x >= 3`);
    /// `layers` holds the layers at distances `x - 2`, `x - 1` and `x`, `scratch` any buffer.
    ///
    /// As in [`Self::last_move_allows_window`], one level further: move `x - 2` (colour `c2`)
    /// can add only `c2` regions at distance `x - 2`, and move `x - 1` (colour `c1`) only `c1`
    /// regions at distance `x - 2` and `c1` regions at distance `x - 1` next to those `c2`
    /// regions. Anything else within distance `x` is absorbed in the window (so has a window
    /// colour), after one of its neighbours unless one of them is in that flood. Returns
    /// whether some pair leaves a feasible order. (Pairs involving a colour absent from these
    /// layers give smaller floods than pairs of present colours, so they are tried only when no
    /// present colour is available.)
    ///
    /// `failed_last` holds colours `c*` for which [`Self::last_move_allows_window`], called
    /// with the same arguments, found no order. A pair `(c1, c2)` needs every condition of the
    /// test with `c* = c1`: the `c1` regions at distance `x - 1` it absorbs are among all
    /// of them, so the regions at distance `x` without an absorbed neighbour include those
    /// without any `c1` neighbour at distance `x - 1` (and its other conditions only add to
    /// `needs`). When `c1` is absent from distance `x - 1` (or there is no `c1`), nothing
    /// there is absorbed, so the pair needs every region at distance `x`, a superset of the
    /// conditions of any `c*`. More conditions never make an order feasible, so such pairs
    /// fail and are skipped.
    #[allow(clippy::too_many_arguments)]
    fn two_last_moves_allow_window(
        graph: &RegionGraph,
        layers: &[u64],
        farthest: &[u32],
        x: usize,
        window: u32,
        needs: &[u64; PRECEDENCE_MAX_COLOURS],
        scratch: &mut Vec<u64>,
        failed_last: u32,
    ) -> bool {
        let words = graph.words;
        let colours = graph.palette.len();
        let (second, rest) = layers.split_at(words); // distance x - 2
        let (before, first) = rest.split_at(words); // distances x - 1 and x
        let colours_in = |layer: &[u64]| {
            (0..colours).fold(0u32, |set, c| {
                let mask = graph.colour_mask(c);
                if layer.iter().zip(mask).any(|(l, m)| l & m != 0) {
                    set | 1 << c
                } else {
                    set
                }
            })
        };
        let second_colours = colours_in(second);
        let before_colours = colours_in(before);
        // scratch: per colour c, the neighbours of the c regions at distance x - 2; then two
        // work areas (absorbed at x - 1, and its neighbours).
        scratch.clear();
        scratch.resize((colours + 2) * words, 0);
        for c in 0..colours {
            if second_colours >> c & 1 == 0 {
                continue;
            }
            let mask = graph.colour_mask(c);
            or_neighbours(
                graph,
                second,
                mask,
                &mut scratch[c * words..(c + 1) * words],
            );
        }
        const NONE: usize = usize::MAX;
        // Colour sets as bitmasks; an empty set stands for the single choice NONE.
        let seconds_set = second_colours;
        let mut seconds_left = if seconds_set == 0 {
            1u64 << 63
        } else {
            u64::from(seconds_set)
        };
        while seconds_left != 0 {
            let c2 = if seconds_set == 0 {
                NONE
            } else {
                seconds_left.trailing_zeros() as usize
            };
            seconds_left &= seconds_left - 1;
            let firsts_set =
                (second_colours | before_colours) & !if c2 == NONE { 0 } else { 1u32 << c2 };
            let mut firsts_left = if firsts_set == 0 {
                1u64 << 63
            } else {
                u64::from(firsts_set)
            };
            while firsts_left != 0 {
                let c1 = if firsts_set == 0 {
                    NONE
                } else {
                    firsts_left.trailing_zeros() as usize
                };
                firsts_left &= firsts_left - 1;
                // Skip pairs whose conditions contain those of a failed single-move test
                // (see `failed_last` above).
                let c1_present = c1 != NONE && before_colours >> c1 & 1 != 0;
                if if c1_present {
                    failed_last >> c1 & 1 != 0
                } else {
                    failed_last != 0
                } {
                    continue;
                }
                let moved = [c1, c2]
                    .iter()
                    .filter(|&&c| c != NONE)
                    .fold(0u32, |set, &c| set | 1 << c);
                // Regions left at distance x - 2 are absorbed in the window.
                if second_colours & !moved & !window != 0 {
                    continue;
                }
                let (neighbour_sets, work) = scratch.split_at_mut(colours * words);
                let (absorbed, absorbed_next) = work.split_at_mut(words);
                // c1 regions at distance x - 1 next to the c2 regions at distance x - 2.
                absorbed.fill(0);
                absorbed_next.fill(0);
                if c1 != NONE && c2 != NONE {
                    let mask = graph.colour_mask(c1);
                    for w in 0..words {
                        absorbed[w] = before[w] & mask[w] & neighbour_sets[c2 * words + w];
                    }
                }
                // Regions left at distance x - 1 are absorbed in the window too. Only `c1`
                // regions are absorbed there, so the colours left outside the window are those
                // of `before_colours & !window`, less `c1` if every `c1` region there is absorbed.
                let outside = before_colours & !window;
                if outside != 0 {
                    if c1 == NONE || c2 == NONE || outside != 1 << c1 {
                        continue;
                    }
                    let mask = graph.colour_mask(c1);
                    if (0..words).any(|w| before[w] & !absorbed[w] & mask[w] != 0) {
                        continue;
                    }
                }
                or_neighbours(graph, absorbed, absorbed, absorbed_next);
                let mut with_layers = *needs;
                for w in 0..words {
                    let mut touched = absorbed_next[w];
                    for c in [c1, c2] {
                        if c != NONE && second_colours >> c & 1 != 0 {
                            touched |= neighbour_sets[c * words + w];
                        }
                    }
                    let mut word =
                        (before[w] & !absorbed[w] & !touched) | (first[w] & !absorbed_next[w]);
                    while word != 0 {
                        let r = w * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        with_layers[graph.colour[r] as usize] |= 1 << graph.neighbour_colours[r];
                    }
                }
                if Self::single_moves_suffice(farthest, x as u32, window, &with_layers) {
                    return true;
                }
            }
        }
        false
    }

    /// For [`Self::precedence_raises_bound`]: whether the colours of `window` can each be
    /// moved once, in some order, from time `x` on, so that every colour moves no earlier than
    /// its farthest distance (`farthest`) and, for each condition set of a colour in `needs`,
    /// after some colour of that set.
    fn single_moves_suffice(
        farthest: &[u32],
        x: u32,
        window: u32,
        needs: &[u64; PRECEDENCE_MAX_COLOURS],
    ) -> bool {
        // Greedy form of the search over placed subsets (`single_moves_suffice_reference` in
        // the tests is that search). Whether colour `a` may come next depends only on the set
        // `done` already placed, and monotonically: the time `x + |done|` and the condition
        // "`done` meets every set of `needs[a]`" only become easier as `done` grows. So if
        // some order exists and `a` may come next, moving `a` to the next position keeps the
        // order valid (the colours it passes get a larger `done`). Hence placing any colour
        // that may come next never loses a solution, and the order exists iff repeatedly
        // placing such colours uses up the window.
        let mut done = 0u32;
        let mut time = x;
        let mut left = window;
        while left != 0 {
            let before = left;
            let mut candidates = left;
            while candidates != 0 {
                let a = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if time >= farthest[a] && needs[a] & DISJOINT_FROM[done as usize] == 0 {
                    done |= 1 << a;
                    left &= !(1 << a);
                    time += 1;
                }
            }
            if left == before {
                return false;
            }
        }
        true
    }

    /// After a bitset [`Self::analyse_children`], prepares [`Self::child_refined_bound`].
    fn prepare_child_refinement(&mut self) {
        let graph = self.graph;
        self.suffix_needs.clear();
        if graph.neighbour_colours.is_empty() || graph.adjacent_bits.is_empty() {
            return;
        }
        let words = graph.words;
        let eccentricity = self.layers.len() / words;
        self.suffix_needs
            .resize((eccentricity + 2) * PRECEDENCE_MAX_COLOURS, 0);
        for d in (1..=eccentricity).rev() {
            let (this, beyond) = self
                .suffix_needs
                .split_at_mut((d + 1) * PRECEDENCE_MAX_COLOURS);
            let this = &mut this[d * PRECEDENCE_MAX_COLOURS..];
            this.copy_from_slice(&beyond[..PRECEDENCE_MAX_COLOURS]);
            for_each_bit(&self.layers[(d - 1) * words..d * words], |r| {
                this[graph.colour[r] as usize] |= 1 << graph.neighbour_colours[r];
            });
        }
    }

    /// The tests of [`Self::precedence_raises_bound`] applied to the child reached by playing
    /// `colour`, whose plain bound `bound` the immediately preceding [`Self::child_bound`] call
    /// returned; returns the bound, raised by one if a test fails.
    ///
    /// The child's distances are the parent's, minus one for the regions reached first through
    /// a `colour` region, so the child's regions at distance `>= x + 1` are the parent's at
    /// distance `>= x + 2` plus those at `x + 1` not reached that way.
    fn child_refined_bound(&mut self, colour: u8, bound: u32) -> u32 {
        let graph = self.graph;
        if self.suffix_needs.is_empty() {
            return bound;
        }
        let words = graph.words;
        let parent_eccentricity = self.layers.len() / words;
        let starts = self.first_colour_list.len();
        let Some(index) = self.first_colour_list.iter().position(|&c| c == colour) else {
            return bound;
        };
        let eccentricity = self.child_farthest.iter().copied().max().unwrap_or(0) as usize;
        if eccentricity < 2 {
            return bound;
        }
        let mut colours_beyond = 0u32;
        for x in (1..=eccentricity).rev() {
            colours_beyond += self
                .child_farthest
                .iter()
                .filter(|&&d| d as usize == x)
                .count() as u32;
            if x as u32 - 1 + colours_beyond != bound {
                continue;
            }
            let window: u32 = (0..graph.palette.len())
                .filter(|&c| self.child_farthest[c] as usize >= x)
                .fold(0, |w, c| w | 1 << c);
            let mut needs = [0u64; PRECEDENCE_MAX_COLOURS];
            if x + 2 <= parent_eccentricity + 1 {
                needs.copy_from_slice(
                    &self.suffix_needs
                        [(x + 2) * PRECEDENCE_MAX_COLOURS..(x + 3) * PRECEDENCE_MAX_COLOURS],
                );
            }
            if x < parent_eccentricity {
                // Parent layer x + 1 (stored at index x) minus its regions reached through `colour`.
                let layer = &self.layers[x * words..(x + 1) * words];
                let reach_start = (x * starts + index) * words;
                let reached = &self.reach[reach_start..reach_start + words];
                for w in 0..words {
                    let mut word = layer[w] & !reached[w];
                    while word != 0 {
                        let r = w * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        needs[graph.colour[r] as usize] |= 1 << graph.neighbour_colours[r];
                    }
                }
            }
            if !Self::single_moves_suffice(&self.child_farthest, x as u32, window, &needs) {
                return bound + 1;
            }
            if x >= 2 {
                // The child's layers at distances x - 2 (if any), x - 1 and x.
                self.child_layers.clear();
                for d in (x.max(3) - 2)..=x {
                    for w in 0..words {
                        let stays = if d <= parent_eccentricity {
                            let reached = self.reach[((d - 1) * starts + index) * words + w];
                            self.layers[(d - 1) * words + w] & !reached
                        } else {
                            0
                        };
                        let arrives = if d < parent_eccentricity {
                            self.reach[(d * starts + index) * words + w]
                        } else {
                            0
                        };
                        self.child_layers.push(stays | arrives);
                    }
                }
                let last_two = &self.child_layers[self.child_layers.len() - 2 * words..];
                let (before, first) = last_two.split_at(words);
                let (passed, failed_last) = Self::last_move_allows_window(
                    graph,
                    before,
                    first,
                    &self.child_farthest,
                    x,
                    window,
                    &needs,
                    &mut self.next,
                    x >= 3,
                );
                if !passed {
                    return bound + 1;
                }
                if x >= 3
                    && !Self::two_last_moves_allow_window(
                        graph,
                        &self.child_layers,
                        &self.child_farthest,
                        x,
                        window,
                        &needs,
                        &mut self.spread,
                        failed_last,
                    )
                {
                    return bound + 1;
                }
            }
        }
        bound
    }

    /// The bound of the child reached by playing `colour`, and whether that child has a move
    /// that removes a colour, from the data of the last [`Self::analyse_children`].
    fn child_bound(&mut self, colour: u8) -> (u32, bool) {
        let mask = 1u64 << colour;
        let mut eliminable = false;
        let mut eccentricity = 0;
        for c in 0..self.far_layer.len() {
            let layer = self.far_layer[c];
            let d = if layer == 0 {
                0
            } else {
                layer - u32::from(self.far_shortened_by[c] & mask != 0)
            };
            self.child_farthest[c] = d;
            eliminable |= d == 1;
            eccentricity = eccentricity.max(d);
        }
        let bound = bound_from_distances(
            &self.child_farthest,
            eccentricity as usize,
            &mut self.histogram,
        );
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
        // The bitset form costs colours x words per layer, so many colours favour the lists.
        if self.graph.adjacent_bits.is_empty() || self.graph.palette.len() > 16 {
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
            or_neighbours(graph, &self.layer, &self.layer, &mut self.next);
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
        Evaluation {
            bound: self.bound_from_farthest(distance as usize),
            eliminable,
        }
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
            if self.remaining[c] > 0
                && eliminable.is_none()
                && self.on_boundary[c] == self.remaining[c]
            {
                eliminable = Some(c as u8);
            }
        }
        Evaluation {
            bound: self.bound_from_farthest(eccentricity),
            eliminable,
        }
    }
}

/// `DISJOINT_FROM[s]` has bit `m` set when the colour sets `m` and `s` (six colours) are
/// disjoint.
const DISJOINT_FROM: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let mut m = 0;
        while m < 64 {
            if m & s == 0 {
                table[s] |= 1 << m;
            }
            m += 1;
        }
        s += 1;
    }
    table
};

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

/// The search stops (returning its best solution, not proven optimal) once its node storage
/// passes this many bytes; with vector growth the process stays well under 4 GB.
const MEMORY_BUDGET: usize = 1 << 31;

const NO_NODE: u32 = u32::MAX;
const EMPTY_SLOT: u64 = u64::MAX;

/// An index over node floods for dominance checks: is some indexed flood, of depth at most
/// `d`, a strict superset of `X`?
///
/// The colours are split into up to [`DOMINANCE_GROUPS`] groups; for each group, indexed nodes
/// are bucketed by their depth and the part of their flood of that group's colours. A
/// dominating flood `Y ⊋ X` of the same depth shares the bucket of `X` for every group with
/// no colour among the regions of `Y \ X`, which is usually small, so usually some bucket
/// holds it. Only floods of the same depth are found, and not all of them, which costs
/// pruning, never correctness: every hit is checked as a strict superset.
struct DominanceIndex {
    groups: usize,
    words: usize,
    /// Per group, the bitset of the regions of its colours.
    group_masks: Vec<u64>,
    /// Open addressing: (key, bucket index); key 0 marks an empty slot.
    table: Vec<(u64, u32)>,
    used: usize,
    /// Buckets: the nodes with their fingerprints (see [`Self::fingerprint`]).
    buckets: Vec<Vec<(u32, [u64; 2])>>,
    /// Total capacity of the buckets, for the memory estimate.
    entries: usize,
}

/// Largest number of colour groups of [`DominanceIndex`].
const DOMINANCE_GROUPS: usize = 6;

impl DominanceIndex {
    fn new(graph: &RegionGraph) -> Self {
        let colours = graph.palette.len();
        let groups = colours.clamp(1, DOMINANCE_GROUPS);
        let words = graph.words;
        let mut group_masks = vec![0u64; groups * words];
        for c in 0..colours {
            let g = c % groups;
            or_assign(
                &mut group_masks[g * words..(g + 1) * words],
                graph.colour_mask(c),
            );
        }
        DominanceIndex {
            groups,
            words,
            group_masks,
            table: vec![(0, NO_NODE); 1024],
            used: 0,
            buckets: Vec::new(),
            entries: 0,
        }
    }

    fn memory(&self) -> usize {
        self.table.len() * 16 + self.buckets.capacity() * 24 + self.entries * 24
    }

    /// A flood's region counts in sixteen classes (region id mod 16), each capped at 127, one
    /// per byte: a superset has every count at least as large.
    fn fingerprint(flood: &[u64]) -> [u64; 2] {
        const CLASS: u64 = 0x0001_0001_0001_0001;
        let mut fingerprint = [0u64; 2];
        for class in 0..16 {
            let count: u32 = flood
                .iter()
                .map(|&w| (w & CLASS << class).count_ones())
                .sum();
            fingerprint[class / 8] |= u64::from(count.min(127)) << (8 * (class % 8));
        }
        fingerprint
    }

    /// Whether every byte of `larger` is at least the same byte of `smaller` (bytes below 128).
    fn covers(larger: u64, smaller: u64) -> bool {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        ((larger | HIGH) - smaller) & HIGH == HIGH
    }

    /// The bucket key of `flood` for `group` and `depth`.
    fn key(&self, flood: &[u64], group: usize, depth: u32) -> u64 {
        let mask = &self.group_masks[group * self.words..(group + 1) * self.words];
        let mut h = u64::from(depth)
            .wrapping_add(0x243F_6A88_85A3_08D3)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for (&f, &m) in flood.iter().zip(mask) {
            h = (h ^ (f & m)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        // The low bits name the group (so buckets of different groups never share a key) and
        // keep the key from being 0 (an empty slot).
        (h ^ (h >> 32)) & !0xF | (group as u64 + 1)
    }

    fn slot(&self, key: u64) -> usize {
        let mask = self.table.len() - 1;
        let mut slot = key as usize & mask;
        while self.table[slot].0 != 0 && self.table[slot].0 != key {
            slot = (slot + 1) & mask;
        }
        slot
    }

    /// Adds node `id` with flood `flood`, at depth `depth`.
    fn insert(&mut self, flood: &[u64], id: u32, depth: u32) {
        let fingerprint = Self::fingerprint(flood);
        for group in 0..self.groups {
            let key = self.key(flood, group, depth);
            let slot = self.slot(key);
            if self.table[slot].0 != key {
                self.table[slot] = (key, self.buckets.len() as u32);
                self.buckets.push(Vec::new());
                self.used += 1;
            }
            let bucket = &mut self.buckets[self.table[slot].1 as usize];
            let capacity = bucket.capacity();
            bucket.push((id, fingerprint));
            self.entries += bucket.capacity() - capacity;
        }
        if self.used * 2 > self.table.len() {
            let len = self.table.len() * 2;
            let old = std::mem::replace(&mut self.table, vec![(0, NO_NODE); len]);
            for (key, bucket) in old.into_iter().filter(|e| e.0 != 0) {
                let slot = self.slot(key);
                self.table[slot] = (key, bucket);
            }
        }
    }

    /// Whether a node of the index stored at depth `depth` has a flood strictly containing
    /// `flood` (`states`: the node arena's floods).
    fn dominated(&self, states: &[u64], flood: &[u64], depth: u32) -> bool {
        let words = self.words;
        let fingerprint = Self::fingerprint(flood);
        for group in 0..self.groups {
            let key = self.key(flood, group, depth);
            let slot = self.slot(key);
            if self.table[slot].0 != key {
                continue;
            }
            for &(y, other_fingerprint) in &self.buckets[self.table[slot].1 as usize] {
                if Self::covers(other_fingerprint[0], fingerprint[0])
                    && Self::covers(other_fingerprint[1], fingerprint[1])
                {
                    let other = &states[y as usize * words..(y as usize + 1) * words];
                    if flood.iter().zip(other).all(|(x, o)| x & !o == 0) && flood != other {
                        return true;
                    }
                }
            }
        }
        false
    }
}

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
    /// Per node: whether its bound already includes the refinement (or it was tried).
    refined: Vec<bool>,
    /// The expanded nodes, to find one whose flood strictly contains a given one.
    dominance: DominanceIndex,
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
            refined: Vec::new(),
            dominance: DominanceIndex::new(graph),
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

    /// Approximate bytes held by the node arena and the transposition table (open-list entries
    /// add 4 bytes per node and are counted per node).
    fn memory_estimate(&self) -> usize {
        self.states.capacity() * 8
            + self.parent.capacity() * (4 + 4 + 4 + 2 + 4 + 1)
            + self.dominance.memory()
            + self.moves.capacity()
            + self.table.len() * 8
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
            or_neighbours(graph, flood, flood, boundary);
        }
        for (b, &f) in boundary.iter_mut().zip(flood.iter()) {
            *b &= !f;
        }
    }

    fn is_full(&self, flood: &[u64]) -> bool {
        let n = self.graph.len;
        flood.iter().enumerate().all(|(w, &word)| {
            let bits_here = (n - w * 64).min(64);
            let want = if bits_here == 64 {
                u64::MAX
            } else {
                (1u64 << bits_here) - 1
            };
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
        self.refined.push(false);
        self.depth.push(depth);
        self.moves_start.push(self.moves.len() as u32);
        self.moves_len.push(played.len() as u16);
        self.moves.extend_from_slice(played);
        id
    }

    /// Whether an expanded node of depth at most `depth` has a flood strictly containing
    /// `flood` (found through [`DominanceIndex`]; see the module docs).
    fn dominated(&self, flood: &[u64], depth: u32) -> bool {
        self.dominance.dominated(&self.states, flood, depth)
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
        pieces
            .iter()
            .rev()
            .flat_map(|p| p.iter().copied())
            .collect()
    }

    /// Colours present on the boundary of `state`.
    fn boundary_colours(&self, state: &[u64]) -> Vec<u8> {
        let words = self.graph.words;
        let mut seen = vec![false; self.graph.palette.len()];
        for_each_bit(&state[words..], |r| {
            seen[self.graph.colour[r] as usize] = true
        });
        (0..seen.len())
            .filter(|&c| seen[c])
            .map(|c| c as u8)
            .collect()
    }

    /// Beam search from a settled state for a good first solution (an upper bound).
    ///
    /// Each round expands every kept state by every boundary colour (plus forced moves) and
    /// keeps the `width` distinct results with the smallest `moves + lower bound`, breaking ties
    /// by the larger flooded area. Returns the shortest complete solution seen (moves after
    /// `start`); `None` when the deadline passed before any was complete.
    fn beam(&mut self, start: &[u64], width: usize, deadline: Option<Instant>) -> Option<Vec<u8>> {
        struct Candidate {
            state: Vec<u64>,
            moves: Vec<u8>,
            estimate: u32,
            area: u64,
        }
        let words = self.graph.words;
        let mut level = vec![Candidate {
            state: start.to_vec(),
            moves: Vec::new(),
            estimate: 0,
            area: 0,
        }];
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
                    if best
                        .as_ref()
                        .is_some_and(|b| moves.len() + bound as usize >= b.len())
                    {
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
                    next.push(Candidate {
                        state: child,
                        moves,
                        estimate,
                        area,
                    });
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
    fn quick_completion(&self, start: &[u64]) -> Vec<u8> {
        let words = self.graph.words;
        let mut state = start.to_vec();
        let mut moves = Vec::new();
        let mut gained = vec![0u64; self.graph.palette.len()];
        while !self.is_full(&state[..words]) {
            gained.fill(0);
            for_each_bit(&state[words..], |r| {
                gained[self.graph.colour[r] as usize] += u64::from(self.graph.area[r]);
            });
            let Some(colour) = (0..gained.len())
                .filter(|&c| gained[c] > 0)
                .max_by_key(|&c| gained[c])
            else {
                break; // unreachable: a non-full flood always has a boundary
            };
            Self::play(self.graph, &mut state, colour);
            moves.push(colour as u8);
        }
        moves
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

    /// Shortens a solution by deleting single moves (one pass, front to back) while it still
    /// solves the board; stops early at the deadline.
    fn delete_moves(&self, mut moves: Vec<u8>, deadline: Option<Instant>) -> Vec<u8> {
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
    fn solve(&mut self, limits: &Limits) -> (Vec<u8>, bool, u64) {
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
        if !proven(&tail)
            && !deadline_passed()
            && limits.node_limit != Some(0)
            && self.graph.len <= MAX_BEAM_REGIONS
        {
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
        push(
            &mut open,
            root_moves_len + root_bound,
            root_moves_len,
            root_node,
        );

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
                self.evaluator
                    .analyse_children(&state[..words], &state[words..]);
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
            let colour_set: Vec<u8> = if shared_analysis {
                Vec::new()
            } else {
                self.boundary_colours(&state)
            };
            let mut remaining_colours = if shared_analysis {
                self.evaluator.boundary_colours
            } else {
                0
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::time::Duration;

    /// Independent reference: breadth-first search over whole boards (cell arrays), trying
    /// every colour on the board other than the flood's.
    fn brute_force_minimum(width: usize, height: usize, cells: &[u8]) -> usize {
        if is_solved(cells) {
            return 0;
        }
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        seen.insert(cells.to_vec());
        let mut frontier = vec![cells.to_vec()];
        for depth in 1.. {
            let mut next = Vec::new();
            for board in &frontier {
                let mut colours: Vec<u8> = board.clone();
                colours.sort_unstable();
                colours.dedup();
                for &colour in colours.iter().filter(|&&c| c != board[0]) {
                    let mut after = board.clone();
                    apply_move(width, height, &mut after, colour);
                    if is_solved(&after) {
                        return depth;
                    }
                    if seen.insert(after.clone()) {
                        next.push(after);
                    }
                }
            }
            frontier = next;
        }
        unreachable!()
    }

    fn unlimited() -> Limits {
        Limits::default()
    }

    fn assert_optimal(width: usize, height: usize, cells: &[u8], context: &str) {
        let expected = brute_force_minimum(width, height, cells);
        let solution = solve(width, height, cells, &unlimited());
        check_solution(width, height, cells, &solution.moves)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        assert!(solution.optimal, "{context}: not marked optimal");
        assert_eq!(
            solution.moves.len(),
            expected,
            "{context}: {:?}",
            solution.moves
        );
    }

    #[test]
    fn matches_brute_force_on_small_boards() {
        let shapes = [(3, 3), (4, 4), (5, 5), (3, 5), (5, 4), (2, 6), (6, 3)];
        for &(width, height) in &shapes {
            for colours in 3..=5u8 {
                let seeds = if width * height >= 25 && colours == 5 {
                    12
                } else {
                    30
                };
                for seed in 0..seeds {
                    let cells = random_board(width, height, colours, seed);
                    assert_optimal(
                        width,
                        height,
                        &cells,
                        &format!("{width}x{height} c{colours} s{seed}"),
                    );
                }
            }
        }
    }

    #[test]
    fn matches_brute_force_with_two_colours() {
        for seed in 0..40 {
            let cells = random_board(5, 5, 2, seed);
            assert_optimal(5, 5, &cells, &format!("2 colours s{seed}"));
        }
    }

    #[test]
    fn matches_brute_force_on_six_colour_boards() {
        for seed in 0..15 {
            let cells = random_board(5, 5, 6, 1000 + seed);
            assert_optimal(5, 5, &cells, &format!("6 colours s{seed}"));
        }
    }

    /// Independent reference for mid-size boards: textbook A* over flood bitsets with the plain
    /// (consistent) bound, every boundary colour tried, no pruning or refinement.
    fn reference_minimum(width: usize, height: usize, cells: &[u8]) -> usize {
        use std::cmp::Reverse;
        use std::collections::{BinaryHeap, HashMap};
        let graph = RegionGraph::build(width, height, cells);
        let search = SearchGraph::new(&graph);
        let mut evaluator = Evaluator::new(&graph);
        let words = graph.words;
        let root = search.root_state();
        let mut best: HashMap<Vec<u64>, usize> = HashMap::new();
        let mut heap = BinaryHeap::new();
        let h = evaluator.evaluate(&root[..words], &root[words..]).bound as usize;
        heap.push((Reverse(h), 0usize, root.clone()));
        best.insert(root[..words].to_vec(), 0);
        while let Some((_, g, state)) = heap.pop() {
            if search.is_full(&state[..words]) {
                return g;
            }
            if best.get(&state[..words]).is_some_and(|&b| b < g) {
                continue;
            }
            for colour in search.boundary_colours(&state) {
                let mut child = state.clone();
                SearchGraph::play(&graph, &mut child, colour as usize);
                if best.get(&child[..words]).is_some_and(|&b| b <= g + 1) {
                    continue;
                }
                best.insert(child[..words].to_vec(), g + 1);
                let h = evaluator.evaluate(&child[..words], &child[words..]).bound as usize;
                heap.push((Reverse(g + 1 + h), g + 1, child));
            }
        }
        unreachable!()
    }

    /// Random boards of each (width, height, colours, count), seeded from `first_seed`: proven optimal solutions of
    /// the reference search's length.
    fn check_against_reference(cases: &[(usize, usize, u8, u64)], first_seed: u64) {
        for &(width, height, colours, seeds) in cases {
            for seed in 0..seeds {
                let cells = random_board(width, height, colours, first_seed + seed);
                let solution = solve(width, height, &cells, &unlimited());
                check_solution(width, height, &cells, &solution.moves).unwrap();
                assert!(solution.optimal);
                assert_eq!(
                    solution.moves.len(),
                    reference_minimum(width, height, &cells),
                    "{width}x{height} c{colours} s{seed}"
                );
            }
        }
    }

    #[test]
    fn matches_reference_search_on_mid_size_boards() {
        check_against_reference(&[(8, 8, 6, 30), (10, 10, 6, 20), (12, 12, 6, 12), (9, 11, 5, 12)], 7000);
        // The board that exposed a re-opening bug in an earlier version.
        let cells = random_board(12, 12, 6, 1);
        assert_eq!(
            solve(12, 12, &cells, &unlimited()).moves.len(),
            reference_minimum(12, 12, &cells)
        );
    }

    #[test]
    fn larger_random_boards_get_valid_optimal_solutions() {
        for &(width, height, colours) in
            &[(8, 8, 6), (10, 7, 4), (12, 12, 6), (6, 15, 8), (14, 14, 3)]
        {
            for seed in 0..4 {
                let cells = random_board(width, height, colours, seed);
                let solution = solve(width, height, &cells, &unlimited());
                check_solution(width, height, &cells, &solution.moves).unwrap();
                assert!(solution.optimal, "{width}x{height} c{colours} s{seed}");
            }
        }
    }

    #[test]
    fn one_colour_board_needs_no_moves() {
        let cells = vec![4u8; 12];
        let solution = solve(4, 3, &cells, &unlimited());
        assert_eq!(
            solution,
            Solution {
                moves: vec![],
                optimal: true,
                nodes: 0
            }
        );
        check_solution(4, 3, &cells, &solution.moves).unwrap();
    }

    #[test]
    fn single_cell_board() {
        let solution = solve(1, 1, &[9], &unlimited());
        assert!(solution.moves.is_empty() && solution.optimal);
        assert!(is_solved(&[9]));
        // Even a past deadline or zero node budget cannot break it.
        let limits = Limits {
            deadline: Some(Instant::now()),
            node_limit: Some(0),
        };
        assert!(solve(1, 1, &[9], &limits).moves.is_empty());
    }

    #[test]
    fn single_row_and_single_column() {
        for seed in 0..20 {
            let len = 1 + (seed as usize * 7) % 40;
            let cells = random_board(len, 1, 4, seed);
            // On a line every move absorbs exactly the next run of equal colours.
            let runs = 1 + cells.windows(2).filter(|w| w[0] != w[1]).count();
            for &(width, height) in &[(len, 1), (1, len)] {
                let solution = solve(width, height, &cells, &unlimited());
                check_solution(width, height, &cells, &solution.moves).unwrap();
                assert!(solution.optimal);
                assert_eq!(solution.moves.len(), runs - 1, "{width}x{height} s{seed}");
            }
        }
    }

    #[test]
    fn two_row_boards() {
        for seed in 0..20 {
            let cells = random_board(7, 2, 3, seed);
            assert_optimal(7, 2, &cells, &format!("7x2 s{seed}"));
            assert_optimal(2, 7, &cells, &format!("2x7 s{seed}"));
        }
    }

    #[test]
    fn non_contiguous_colour_ids() {
        let ids = [3u8, 7, 9];
        for seed in 0..25 {
            let cells: Vec<u8> = random_board(4, 5, 3, seed)
                .iter()
                .map(|&c| ids[c as usize])
                .collect();
            assert_optimal(4, 5, &cells, &format!("ids s{seed}"));
            let solution = solve(4, 5, &cells, &unlimited());
            assert!(solution.moves.iter().all(|m| ids.contains(m)));
        }
        // Extreme ids, including 0 and 255.
        let ids = [0u8, 255, 128, 17];
        let cells: Vec<u8> = random_board(5, 5, 4, 77)
            .iter()
            .map(|&c| ids[c as usize])
            .collect();
        assert_optimal(5, 5, &cells, "extreme ids");
    }

    #[test]
    fn more_than_sixty_four_colours() {
        // Every cell its own colour: each move absorbs exactly one cell.
        let cells: Vec<u8> = (0..81u8).map(|i| i.wrapping_mul(37)).collect();
        let solution = solve(9, 9, &cells, &unlimited());
        check_solution(9, 9, &cells, &solution.moves).unwrap();
        assert!(solution.optimal);
        assert_eq!(solution.moves.len(), 80);
        // 200 distinct colours on a bigger board, under a deadline.
        let cells: Vec<u8> = random_board(20, 20, 200, 5);
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_millis(500)),
            node_limit: None,
        };
        let solution = solve(20, 20, &cells, &limits);
        check_solution(20, 20, &cells, &solution.moves).unwrap();
    }

    #[test]
    fn forty_colours_small_board() {
        let cells = random_board(4, 4, 40, 3);
        assert_optimal(4, 4, &cells, "40 colours");
    }

    #[test]
    fn past_deadline_still_gives_a_valid_solution() {
        for seed in 0..6 {
            let cells = random_board(14, 14, 6, seed);
            let limits = Limits {
                deadline: Some(Instant::now()),
                node_limit: None,
            };
            let solution = solve(14, 14, &cells, &limits);
            check_solution(14, 14, &cells, &solution.moves).unwrap();
            if solution.optimal {
                let best = solve(14, 14, &cells, &unlimited());
                assert_eq!(solution.moves.len(), best.moves.len());
            }
        }
        // A board that cannot be proven without search is reported as not optimal.
        let cells = random_board(18, 18, 6, 1);
        let limits = Limits {
            deadline: Some(Instant::now()),
            node_limit: None,
        };
        let solution = solve(18, 18, &cells, &limits);
        check_solution(18, 18, &cells, &solution.moves).unwrap();
        assert!(!solution.optimal);
    }

    #[test]
    fn node_limit_still_gives_a_valid_solution() {
        let cells = random_board(18, 18, 6, 4);
        for limit in [0, 1, 50] {
            let limits = Limits {
                deadline: None,
                node_limit: Some(limit),
            };
            let solution = solve(18, 18, &cells, &limits);
            check_solution(18, 18, &cells, &solution.moves).unwrap();
            assert!(solution.nodes <= limit);
        }
    }

    #[test]
    fn large_board_under_deadline() {
        // Over 4096 regions: exercises the adjacency-list evaluation.
        let cells = random_board(100, 90, 6, 11);
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_millis(300)),
            node_limit: None,
        };
        let solution = solve(100, 90, &cells, &limits);
        check_solution(100, 90, &cells, &solution.moves).unwrap();
        let limits = Limits {
            deadline: Some(Instant::now()),
            node_limit: None,
        };
        let solution = solve(100, 90, &cells, &limits);
        check_solution(100, 90, &cells, &solution.moves).unwrap();
    }

    /// More small boards against the brute force, with colour counts where dominance pruning
    /// (many nested floods) matters most.
    #[test]
    fn matches_brute_force_with_dominance_pruning() {
        for &(width, height, colours, seeds) in
            &[(6, 6, 3, 40), (6, 6, 4, 40), (4, 7, 5, 40), (5, 6, 6, 25)]
        {
            for seed in 0..seeds {
                let cells = random_board(width, height, colours, 31_000 + seed);
                assert_optimal(
                    width,
                    height,
                    &cells,
                    &format!("{width}x{height} c{colours} s{seed}"),
                );
            }
        }
    }

    /// Mid-size boards with fewer and more colours against the reference A*.
    #[test]
    fn matches_reference_search_with_other_colour_counts() {
        check_against_reference(&[(10, 10, 4, 15), (11, 11, 5, 10), (9, 9, 7, 8), (10, 8, 8, 6)], 52_000);
    }

    /// The dominance index reports only strict supersets of the same or smaller depth, and
    /// finds one that differs from the query in regions of one colour only.
    #[test]
    fn dominance_index_reports_only_strict_supersets() {
        let (width, height) = (9, 9);
        for seed in 0..6 {
            let cells = random_board(width, height, 5, 90_000 + seed);
            let graph = RegionGraph::build(width, height, &cells);
            let search = SearchGraph::new(&graph);
            let words = graph.words;
            let mut index = DominanceIndex::new(&graph);
            let mut rng = SplitMix64(seed);
            // Floods of random move sequences, stored with their lengths as depths.
            let mut states: Vec<u64> = Vec::new();
            let mut depths = Vec::new();
            for _ in 0..60 {
                let mut state = search.root_state();
                let length = (rng.next() % 8) as u32;
                for _ in 0..length {
                    let colours = search.boundary_colours(&state);
                    if colours.is_empty() {
                        break;
                    }
                    let c = colours[(rng.next() % colours.len() as u64) as usize];
                    SearchGraph::play(&graph, &mut state, c as usize);
                }
                let id = depths.len() as u32;
                states.extend_from_slice(&state[..words]);
                depths.push(length);
                index.insert(&state[..words], id, length);
            }
            let stored = depths.len();
            for i in 0..stored {
                let flood = states[i * words..(i + 1) * words].to_vec();
                // Queries: each stored flood, and each with its regions of one colour removed
                // (keeping region 0), at depths 0..=8.
                let mut queries = vec![flood.clone()];
                for c in 0..graph.palette.len() {
                    let mut smaller = flood.clone();
                    for (w, word) in smaller.iter_mut().enumerate() {
                        *word &= !graph.colour_mask(c)[w];
                    }
                    set_bit(&mut smaller, 0);
                    queries.push(smaller);
                }
                for query in &queries {
                    for depth in 0..=8 {
                        let expected = (0..stored).any(|j| {
                            let other = &states[j * words..(j + 1) * words];
                            depths[j] <= depth
                                && query.iter().zip(other).all(|(q, o)| q & !o == 0)
                                && query[..] != other[..]
                        });
                        let found = index.dominated(&states, query, depth);
                        assert!(!found || expected, "seed {seed}: false dominance");
                        if query[..] != flood[..] && depth == depths[i] && expected {
                            // Differs from stored flood i in one colour's regions: found.
                            assert!(found, "seed {seed}: missed a one-colour superset");
                        }
                    }
                }
            }
        }
    }

    /// Plays random moves at region level and checks, at each state, that the bitset and
    /// list evaluations agree and that the shared child analysis predicts every child exactly.
    #[test]
    fn evaluations_agree() {
        for seed in 0..30 {
            let (width, height) = (6 + seed as usize % 7, 5 + seed as usize % 5);
            let cells = random_board(width, height, 3 + (seed % 5) as u8, seed);
            let graph = RegionGraph::build(width, height, &cells);
            let search = SearchGraph::new(&graph);
            let mut evaluator = Evaluator::new(&graph);
            let mut state = search.root_state();
            let words = graph.words;
            let mut rng = SplitMix64(seed);
            while !search.is_full(&state[..words]) {
                let by_bits = evaluator.evaluate_by_bitsets(&state[..words], &state[words..]);
                let by_lists = evaluator.evaluate_by_lists(&state[..words], &state[words..]);
                assert_eq!(by_bits.bound, by_lists.bound);
                assert_eq!(by_bits.eliminable.is_some(), by_lists.eliminable.is_some());
                let colours = search.boundary_colours(&state);
                evaluator.analyse_children_by_lists(&state[..words], &state[words..]);
                let by_lists: Vec<(u32, bool)> =
                    colours.iter().map(|&c| evaluator.child_bound(c)).collect();
                evaluator.analyse_children_by_bitsets(&state[..words], &state[words..]);
                let predicted: Vec<(u32, bool)> =
                    colours.iter().map(|&c| evaluator.child_bound(c)).collect();
                assert_eq!(by_lists, predicted, "seed {seed}");
                for (&colour, &(bound, eliminable)) in colours.iter().zip(&predicted) {
                    let mut child = state.clone();
                    SearchGraph::play(&graph, &mut child, colour as usize);
                    let actual = evaluator.evaluate(&child[..words], &child[words..]);
                    assert_eq!(bound, actual.bound, "seed {seed} colour {colour}");
                    assert_eq!(
                        eliminable,
                        actual.eliminable.is_some(),
                        "seed {seed} colour {colour}"
                    );
                }
                let pick = colours[(rng.next() % colours.len() as u64) as usize];
                SearchGraph::play(&graph, &mut state, pick as usize);
            }
        }
    }

    #[test]
    fn bound_is_admissible_on_small_boards() {
        for seed in 0..40 {
            let cells = random_board(4, 4, 4, 500 + seed);
            let graph = RegionGraph::build(4, 4, &cells);
            let search = SearchGraph::new(&graph);
            let mut evaluator = Evaluator::new(&graph);
            let root = search.root_state();
            let bound = evaluator
                .evaluate(&root[..graph.words], &root[graph.words..])
                .bound;
            assert!(
                bound as usize <= brute_force_minimum(4, 4, &cells),
                "seed {seed}"
            );
        }
    }

    /// The refined bounds (at a node and, from its analysis, at each child) never exceed the
    /// true minimum found by brute force.
    #[test]
    fn refined_bounds_are_admissible() {
        let mut raised = 0;
        for seed in 0..150u64 {
            let (width, height) = (4 + seed as usize % 3, 4 + (seed as usize / 3) % 3);
            let colours = 4 + (seed % 3) as u8;
            let cells = random_board(width, height, colours, 9000 + seed);
            if is_solved(&cells) {
                continue;
            }
            let graph = RegionGraph::build(width, height, &cells);
            let search = SearchGraph::new(&graph);
            let mut evaluator = Evaluator::new(&graph);
            let words = graph.words;
            let root = search.root_state();
            let exact = brute_force_minimum(width, height, &cells) as u32;
            evaluator.analyse_children(&root[..words], &root[words..]);
            let plain = evaluator.evaluate(&root[..words], &root[words..]).bound;
            evaluator.analyse_children(&root[..words], &root[words..]);
            if let Some(refined) = evaluator.precedence_raises_bound() {
                assert!(
                    refined <= exact,
                    "seed {seed}: node bound {refined} > {exact}"
                );
                assert_eq!(refined, plain + 1);
                raised += 1;
            }
            evaluator.prepare_child_refinement();
            for colour in search.boundary_colours(&root) {
                let (bound, _) = evaluator.child_bound(colour);
                let refined = evaluator.child_refined_bound(colour, bound);
                let mut child = cells.clone();
                apply_move(width, height, &mut child, graph.palette[colour as usize]);
                let child_exact = brute_force_minimum(width, height, &child) as u32;
                assert!(
                    refined <= child_exact,
                    "seed {seed} colour {colour}: {refined} > {child_exact}"
                );
                raised += usize::from(refined > bound);
            }
        }
        assert!(
            raised > 0,
            "the refinement never applied; the test lost its point"
        );
    }

    /// The original search over placed subsets of [`Evaluator::single_moves_suffice`].
    fn single_moves_suffice_reference(
        farthest: &[u32],
        x: u32,
        window: u32,
        needs: &[u64; PRECEDENCE_MAX_COLOURS],
    ) -> bool {
        let mut reachable = 1u64;
        for done in 0..=window {
            if reachable >> done & 1 == 0 || done & !window != 0 {
                continue;
            }
            let time = x + done.count_ones();
            let mut candidates = window & !done;
            while candidates != 0 {
                let a = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if time >= farthest[a] && needs[a] & DISJOINT_FROM[done as usize] == 0 {
                    reachable |= 1 << (done | 1 << a);
                }
            }
        }
        reachable >> window & 1 == 1
    }

    #[test]
    fn greedy_order_search_matches_reference() {
        let mut rng = SplitMix64(77);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..200_000 {
            let window = (rng.next() % 64) as u32;
            let x = 1 + (rng.next() % 6) as u32;
            let farthest: Vec<u32> = (0..PRECEDENCE_MAX_COLOURS)
                .map(|_| x + (rng.next() % 5) as u32)
                .collect();
            let mut needs = [0u64; PRECEDENCE_MAX_COLOURS];
            for n in needs.iter_mut() {
                let count = if rng.next().is_multiple_of(4) {
                    rng.next() % 12
                } else {
                    rng.next() % 4
                };
                for _ in 0..count {
                    // Condition sets that usually meet the window.
                    *n |= 1 << (rng.next() % 64);
                }
            }
            let expected = single_moves_suffice_reference(&farthest, x, window, &needs);
            assert_eq!(
                Evaluator::single_moves_suffice(&farthest, x, window, &needs),
                expected,
                "window {window:b} x {x} farthest {farthest:?} needs {needs:?}"
            );
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 1000 && no > 1000, "{yes} {no}");
    }

    /// Skipping the pairs that contain a failed single-move test never changes the answer of
    /// the two-move test, on the windows of many random states.
    #[test]
    fn pair_skipping_keeps_two_move_test() {
        let (mut checked, mut skipped_some) = (0, 0);
        for seed in 0..60u64 {
            let size = 8 + seed as usize % 7;
            let cells = random_board(size, size, 4 + (seed % 3) as u8, 500 + seed);
            let graph = RegionGraph::build(size, size, &cells);
            if graph.adjacent_bits.is_empty() || graph.neighbour_colours.is_empty() {
                continue;
            }
            let search = SearchGraph::new(&graph);
            let mut evaluator = Evaluator::new(&graph);
            let words = graph.words;
            let colours = graph.palette.len();
            let mut state = search.root_state();
            let mut rng = SplitMix64(seed);
            let mut scratch = Vec::new();
            while !search.is_full(&state[..words]) {
                evaluator.analyse_children(&state[..words], &state[words..]);
                let eccentricity = evaluator.layers.len() / words;
                let mut needs = [0u64; PRECEDENCE_MAX_COLOURS];
                for x in (3..=eccentricity).rev() {
                    if x < eccentricity {
                        for_each_bit(&evaluator.layers[x * words..(x + 1) * words], |r| {
                            needs[graph.colour[r] as usize] |= 1 << graph.neighbour_colours[r];
                        });
                    }
                    let window: u32 = (0..colours)
                        .filter(|&c| evaluator.far_layer[c] as usize >= x)
                        .fold(0, |w, c| w | 1 << c);
                    let far = evaluator.far_layer.clone();
                    let layers = evaluator.layers[(x - 3) * words..x * words].to_vec();
                    let (passed, failed) = Evaluator::last_move_allows_window(
                        &graph,
                        &layers[words..2 * words],
                        &layers[2 * words..],
                        &far,
                        x,
                        window,
                        &needs,
                        &mut scratch,
                        true,
                    );
                    if !passed {
                        continue;
                    }
                    let full = Evaluator::two_last_moves_allow_window(
                        &graph,
                        &layers,
                        &far,
                        x,
                        window,
                        &needs,
                        &mut scratch,
                        0,
                    );
                    let skipping = Evaluator::two_last_moves_allow_window(
                        &graph,
                        &layers,
                        &far,
                        x,
                        window,
                        &needs,
                        &mut scratch,
                        failed,
                    );
                    assert_eq!(full, skipping, "seed {seed} x {x}");
                    checked += 1;
                    skipped_some += usize::from(failed != 0);
                }
                let options = search.boundary_colours(&state);
                let pick = options[(rng.next() % options.len() as u64) as usize];
                SearchGraph::play(&graph, &mut state, pick as usize);
            }
        }
        assert!(
            checked > 100 && skipped_some > 20,
            "{checked} {skipped_some}"
        );
    }

    #[test]
    fn apply_move_follows_the_rules() {
        // 0 0 1
        // 2 0 1
        // 1 1 1
        let mut cells = vec![0, 0, 1, 2, 0, 1, 1, 1, 1];
        apply_move(3, 3, &mut cells, 0); // own colour: nothing happens
        assert_eq!(cells, vec![0, 0, 1, 2, 0, 1, 1, 1, 1]);
        apply_move(3, 3, &mut cells, 1);
        assert_eq!(cells, vec![1, 1, 1, 2, 1, 1, 1, 1, 1]);
        assert!(!is_solved(&cells));
        apply_move(3, 3, &mut cells, 2);
        assert!(is_solved(&cells));
        assert!(is_solved(&[]));
    }

    #[test]
    fn check_solution_reports_problems() {
        let cells = vec![0, 0, 1, 2, 0, 1, 1, 1, 1];
        assert!(check_solution(3, 3, &cells, &[1, 2]).is_ok());
        assert!(check_solution(3, 3, &cells, &[1])
            .unwrap_err()
            .contains("not one colour"));
        assert!(check_solution(3, 3, &cells, &[0, 1, 2])
            .unwrap_err()
            .contains("flood's current colour"));
        assert!(check_solution(3, 3, &cells, &[5, 1, 2])
            .unwrap_err()
            .contains("not on the board"));
        assert!(check_solution(3, 3, &cells, &[1, 2, 1])
            .unwrap_err()
            .contains("already solved"));
        assert!(check_solution(2, 1, &[3, 3], &[]).is_ok());
    }

    #[test]
    fn random_board_is_deterministic_and_in_range() {
        let a = random_board(9, 7, 5, 42);
        assert_eq!(a, random_board(9, 7, 5, 42));
        assert_ne!(a, random_board(9, 7, 5, 43));
        assert_eq!(a.len(), 63);
        assert!(a.iter().all(|&c| c < 5));
        assert!((0..5).all(|c| a.contains(&c)));
        assert!(random_board(3, 3, 0, 1).iter().all(|&c| c == 0));
    }

    #[test]
    #[should_panic(expected = "width*height")]
    fn mismatched_length_panics() {
        solve(3, 3, &[0; 8], &unlimited());
    }
}
