//! The admissible lower bound on the moves still needed from a flood state, and its evaluation for every
//! child of an expanded node (see the solver's module docs for why it is admissible and consistent).

use super::graph::*;

/// What the evaluator learns about a flood state.
#[derive(Clone, Copy, Debug)]
pub(super) struct Evaluation {
    /// Admissible lower bound on the moves still needed.
    pub(super) bound: u32,
    /// A colour all of whose remaining regions touch the flood (playing it removes the colour).
    pub(super) eliminable: Option<u8>,
}

/// Computes lower bounds by one breadth-first search over the region graph.
pub(super) struct Evaluator<'g> {
    pub(super) graph: &'g RegionGraph,
    pub(super) visited: Vec<u64>,
    /// Current and next breadth-first layer as bitsets.
    pub(super) layer: Vec<u64>,
    pub(super) next: Vec<u64>,
    pub(super) queue: Vec<u32>,
    /// Per colour: greatest region distance from the flood among regions of that colour.
    pub(super) farthest: Vec<u32>,
    /// Per colour: regions of that colour outside the flood.
    pub(super) remaining: Vec<u32>,
    /// Per colour: regions of that colour on the flood's boundary.
    pub(super) on_boundary: Vec<u32>,
    /// Scratch histogram over distances.
    pub(super) histogram: Vec<u32>,
    /// Per region: `(generation << 32) | distance`, valid when the generation is current.
    pub(super) stamp: Vec<u64>,
    pub(super) generation: u64,
    /// Per region: the colours of the first regions of its shortest paths from the flood.
    pub(super) first_colours: Vec<u64>,
    /// Per colour: its farthest layer (0 = absent) and the colours whose move shortens the
    /// distance of every region of that colour in that layer.
    pub(super) far_layer: Vec<u32>,
    pub(super) far_shortened_by: Vec<u64>,
    /// Colours on the boundary (bit per colour).
    pub(super) boundary_colours: u64,
    /// Scratch: per colour farthest distance for a child.
    pub(super) child_farthest: Vec<u32>,
    /// Bitset analysis scratch: boundary colours in order, all layers, per-first-colour
    /// subsets of all layers, and their neighbourhoods.
    pub(super) first_colour_list: Vec<u8>,
    pub(super) layers: Vec<u64>,
    pub(super) reach: Vec<u64>,
    pub(super) spread: Vec<u64>,
    /// Per distance `d` and colour `a` (`d * PRECEDENCE_MAX_COLOURS + a`): the neighbour-colour
    /// sets (bit per set) of the regions of colour `a` at distance `>= d`, from the last
    /// [`Self::prepare_child_refinement`]; empty when the refinement does not apply.
    pub(super) suffix_needs: Vec<u64>,
    /// Scratch: a child's layers at two consecutive distances.
    pub(super) child_layers: Vec<u64>,
}

impl<'g> Evaluator<'g> {
    pub(super) fn new(graph: &'g RegionGraph) -> Self {
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
    pub(super) fn can_analyse_children(&self) -> bool {
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
    pub(super) fn analyse_children(&mut self, flood: &[u64], boundary: &[u64]) {
        if self.graph.adjacent_bits.is_empty() {
            self.analyse_children_by_lists(flood, boundary);
        } else {
            self.analyse_children_by_bitsets(flood, boundary);
        }
    }

    /// [`Self::analyse_children`] with bitsets: for each boundary colour `c`, the layer's
    /// regions having a shortest path that starts with a `c` region are the next layer's
    /// regions adjacent to such regions of the previous layer.
    pub(super) fn analyse_children_by_bitsets(&mut self, flood: &[u64], boundary: &[u64]) {
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
            self.reach.extend(boundary.iter().zip(mask).map(|(b, m)| b & m));
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
            for (out, spread) in self.reach[start..].chunks_exact_mut(words).zip(self.spread.chunks_exact(words)) {
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
    pub(super) fn analyse_children_by_lists(&mut self, flood: &[u64], boundary: &[u64]) {
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
    pub(super) fn child_bound(&mut self, colour: u8) -> (u32, bool) {
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
    pub(super) fn evaluate(&mut self, flood: &[u64], boundary: &[u64]) -> Evaluation {
        // The bitset form costs colours x words per layer, so many colours favour the lists.
        if self.graph.adjacent_bits.is_empty() || self.graph.palette.len() > 16 {
            self.evaluate_by_lists(flood, boundary)
        } else {
            self.evaluate_by_bitsets(flood, boundary)
        }
    }

    /// [`Self::evaluate`] with layer-at-a-time bitset operations (small graphs).
    pub(super) fn evaluate_by_bitsets(&mut self, flood: &[u64], boundary: &[u64]) -> Evaluation {
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
        Evaluation { bound: self.bound_from_farthest(distance as usize), eliminable }
    }

    /// The bound from `farthest` (0 = colour absent) and the eccentricity.
    pub(super) fn bound_from_farthest(&mut self, eccentricity: usize) -> u32 {
        bound_from_distances(&self.farthest, eccentricity, &mut self.histogram)
    }

    /// [`Self::evaluate`] by a queue-based search over adjacency lists (large graphs).
    pub(super) fn evaluate_by_lists(&mut self, flood: &[u64], boundary: &[u64]) -> Evaluation {
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

/// `DISJOINT_FROM[s]` has bit `m` set when the colour sets `m` and `s` (six colours) are
/// disjoint.
pub(super) const DISJOINT_FROM: [u64; 64] = {
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
pub(super) fn bound_from_distances(farthest: &[u32], eccentricity: usize, histogram: &mut Vec<u32>) -> u32 {
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
