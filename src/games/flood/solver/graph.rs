//! The region graph: the board's 4-connected regions of one colour, their adjacency, and the bitset
//! operations the bound and the search share.

/// The index of no node (in the search's arena and the dominance index).
pub(super) const NO_NODE: u32 = u32::MAX;

/// Largest colour count for which the precedence refinement of the bound is used
/// (see [`Evaluator::precedence_raises_bound`]).
pub(super) const PRECEDENCE_MAX_COLOURS: usize = 6;

/// Largest region count for which the wide beam search runs before the exact search.
pub(super) const MAX_BEAM_REGIONS: usize = 2048;

/// Largest region count for which adjacency is also kept as bitsets (2 MB at most).
pub(super) const MAX_BITSET_REGIONS: usize = 4096;

/// The board as a graph of same-colour regions. Region 0 contains cell (0,0).
pub(super) struct RegionGraph {
    /// Number of regions.
    pub(super) len: usize,
    /// 64-bit words in a region bitset.
    pub(super) words: usize,
    /// Compact colour index (0..palette.len()) of each region.
    pub(super) colour: Vec<u8>,
    /// Number of cells in each region.
    pub(super) area: Vec<u32>,
    /// CSR adjacency: neighbours of region r are `adjacent[adjacent_start[r]..adjacent_start[r+1]]`.
    pub(super) adjacent_start: Vec<u32>,
    pub(super) adjacent: Vec<u32>,
    /// For each compact colour, the bitset of regions of that colour.
    pub(super) colour_masks: Vec<u64>,
    /// Adjacency as bitsets (`words` words per region) when the graph is small enough
    /// (at most [`MAX_BITSET_REGIONS`] regions); empty otherwise.
    pub(super) adjacent_bits: Vec<u64>,
    /// Compact colour index → colour id used in the caller's cells.
    pub(super) palette: Vec<u8>,
    /// Per region, the set of its neighbours' colours (only when there are at most
    /// [`PRECEDENCE_MAX_COLOURS`] colours; empty otherwise).
    pub(super) neighbour_colours: Vec<u8>,
}

impl RegionGraph {
    /// The region graph of a board whose flood grows from cell `start`: region 0 is the flood.
    pub(super) fn build(width: usize, height: usize, cells: &[u8], start_cell: usize) -> RegionGraph {
        let mut compact = [u8::MAX; 256];
        let mut present = [false; 256];
        for &c in cells {
            present[c as usize] = true;
        }
        let palette: Vec<u8> = (0..=255u8).filter(|&c| present[c as usize]).collect();
        for (i, &c) in palette.iter().enumerate() {
            compact[c as usize] = i as u8; // at most 256 colours, so i <= 255
        }

        // Label regions by flood fill, starting at the start cell so that region 0 is the flood.
        const UNLABELLED: u32 = u32::MAX;
        let mut label = vec![UNLABELLED; cells.len()];
        let mut colour = Vec::new();
        let mut area = Vec::new();
        let mut stack = Vec::new();
        for start in std::iter::once(start_cell).filter(|&s| s < cells.len()).chain(0..cells.len()) {
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
        let mut neighbour_colours = Vec::new();
        if palette.len() <= PRECEDENCE_MAX_COLOURS {
            neighbour_colours = (0..len)
                .map(|r| {
                    let neighbours = &adjacent[adjacent_start[r] as usize..adjacent_start[r + 1] as usize];
                    neighbours.iter().fold(0u8, |set, &n| set | 1 << colour[n as usize])
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

    pub(super) fn neighbours(&self, region: usize) -> &[u32] {
        &self.adjacent[self.adjacent_start[region] as usize..self.adjacent_start[region + 1] as usize]
    }

    pub(super) fn adjacent_mask(&self, region: usize) -> &[u64] {
        &self.adjacent_bits[region * self.words..(region + 1) * self.words]
    }

    pub(super) fn colour_mask(&self, colour: usize) -> &[u64] {
        &self.colour_masks[colour * self.words..(colour + 1) * self.words]
    }
}

#[inline]
pub(super) fn bit(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 != 0
}

#[inline]
pub(super) fn set_bit(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

/// `target |= source`, word by word (slices of equal length). Short lengths, the common case,
/// get fixed-size code.
#[inline]
pub(super) fn or_assign(target: &mut [u64], source: &[u64]) {
    pub(super) fn fixed<const N: usize>(target: &mut [u64], source: &[u64]) {
        if let (Ok(t), Ok(s)) = (<&mut [u64; N]>::try_from(target), <&[u64; N]>::try_from(source)) {
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
pub(super) fn or_neighbours(graph: &RegionGraph, set: &[u64], filter: &[u64], out: &mut [u64]) {
    #[inline(always)]
    pub(super) fn fixed<const N: usize>(adjacent: &[u64], set: &[u64], filter: &[u64], out: &mut [u64]) {
        let Ok(out) = <&mut [u64; N]>::try_from(out) else { unreachable!() };
        for w in 0..N {
            let mut word = set[w] & filter[w];
            while word != 0 {
                let r = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let Ok(row) = <&[u64; N]>::try_from(&adjacent[r * N..(r + 1) * N]) else { unreachable!() };
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
pub(super) fn for_each_bit(set: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in set.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}
