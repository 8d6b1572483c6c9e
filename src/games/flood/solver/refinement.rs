//! The precedence refinement of the lower bound: when the bound is tight at some distance, the colours of the
//! far part must each move exactly once in an order their adjacency allows; when no such order exists the
//! bound rises by one (the proof is in each method's docs).

use super::bounds::*;
use super::graph::*;

impl<'g> Evaluator<'g> {
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
    pub(super) fn precedence_raises_bound(&mut self) -> Option<u32> {
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
            let window: u32 = (0..colours).filter(|&c| self.far_layer[c] as usize >= x).fold(0, |w, c| w | 1 << c);
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
    pub(super) fn last_move_allows_window(
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
        let mut candidates = if outside != 0 { outside } else { before_colours };
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
    pub(super) fn two_last_moves_allow_window(
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
            or_neighbours(graph, second, mask, &mut scratch[c * words..(c + 1) * words]);
        }
        const NONE: usize = usize::MAX;
        // Colour sets as bitmasks; an empty set stands for the single choice NONE.
        let seconds_set = second_colours;
        let mut seconds_left = if seconds_set == 0 { 1u64 << 63 } else { u64::from(seconds_set) };
        while seconds_left != 0 {
            let c2 = if seconds_set == 0 { NONE } else { seconds_left.trailing_zeros() as usize };
            seconds_left &= seconds_left - 1;
            let firsts_set = (second_colours | before_colours) & !if c2 == NONE { 0 } else { 1u32 << c2 };
            let mut firsts_left = if firsts_set == 0 { 1u64 << 63 } else { u64::from(firsts_set) };
            while firsts_left != 0 {
                let c1 = if firsts_set == 0 { NONE } else { firsts_left.trailing_zeros() as usize };
                firsts_left &= firsts_left - 1;
                // Skip pairs whose conditions contain those of a failed single-move test
                // (see `failed_last` above).
                let c1_present = c1 != NONE && before_colours >> c1 & 1 != 0;
                if if c1_present { failed_last >> c1 & 1 != 0 } else { failed_last != 0 } {
                    continue;
                }
                let moved = [c1, c2].iter().filter(|&&c| c != NONE).fold(0u32, |set, &c| set | 1 << c);
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
                    let mut word = (before[w] & !absorbed[w] & !touched) | (first[w] & !absorbed_next[w]);
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
    pub(super) fn single_moves_suffice(
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
    pub(super) fn prepare_child_refinement(&mut self) {
        let graph = self.graph;
        self.suffix_needs.clear();
        if graph.neighbour_colours.is_empty() || graph.adjacent_bits.is_empty() {
            return;
        }
        let words = graph.words;
        let eccentricity = self.layers.len() / words;
        self.suffix_needs.resize((eccentricity + 2) * PRECEDENCE_MAX_COLOURS, 0);
        for d in (1..=eccentricity).rev() {
            let (this, beyond) = self.suffix_needs.split_at_mut((d + 1) * PRECEDENCE_MAX_COLOURS);
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
    pub(super) fn child_refined_bound(&mut self, colour: u8, bound: u32) -> u32 {
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
            colours_beyond += self.child_farthest.iter().filter(|&&d| d as usize == x).count() as u32;
            if x as u32 - 1 + colours_beyond != bound {
                continue;
            }
            let window: u32 =
                (0..graph.palette.len()).filter(|&c| self.child_farthest[c] as usize >= x).fold(0, |w, c| w | 1 << c);
            let mut needs = [0u64; PRECEDENCE_MAX_COLOURS];
            if x + 2 <= parent_eccentricity + 1 {
                needs.copy_from_slice(
                    &self.suffix_needs[(x + 2) * PRECEDENCE_MAX_COLOURS..(x + 3) * PRECEDENCE_MAX_COLOURS],
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
                        let arrives =
                            if d < parent_eccentricity { self.reach[(d * starts + index) * words + w] } else { 0 };
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
}
