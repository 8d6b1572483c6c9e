//! The dominance index: expanded nodes by depth and colour groups, to drop a node whose flood is strictly
//! contained in that of an expanded node of no greater depth.

use super::graph::*;

/// An index over node floods for dominance checks: is some indexed flood, of depth at most
/// `d`, a strict superset of `X`?
///
/// The colours are split into up to [`DOMINANCE_GROUPS`] groups; for each group, indexed nodes
/// are bucketed by their depth and the part of their flood of that group's colours. A
/// dominating flood `Y ⊋ X` of the same depth shares the bucket of `X` for every group with
/// no colour among the regions of `Y \ X`, which is usually small, so usually some bucket
/// holds it. Only floods of the same depth are found, and not all of them, which costs
/// pruning, never correctness: every hit is checked as a strict superset.
pub(super) struct DominanceIndex {
    pub(super) groups: usize,
    pub(super) words: usize,
    /// Per group, the bitset of the regions of its colours.
    pub(super) group_masks: Vec<u64>,
    /// Open addressing: (key, bucket index); key 0 marks an empty slot.
    pub(super) table: Vec<(u64, u32)>,
    pub(super) used: usize,
    /// Buckets: the nodes with their fingerprints (see [`Self::fingerprint`]).
    pub(super) buckets: Vec<Vec<(u32, [u64; 2])>>,
    /// Total capacity of the buckets, for the memory estimate.
    pub(super) entries: usize,
}

/// Largest number of colour groups of [`DominanceIndex`].
pub(super) const DOMINANCE_GROUPS: usize = 6;

impl DominanceIndex {
    pub(super) fn new(graph: &RegionGraph) -> Self {
        let colours = graph.palette.len();
        let groups = colours.clamp(1, DOMINANCE_GROUPS);
        let words = graph.words;
        let mut group_masks = vec![0u64; groups * words];
        for c in 0..colours {
            let g = c % groups;
            or_assign(&mut group_masks[g * words..(g + 1) * words], graph.colour_mask(c));
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

    pub(super) fn memory(&self) -> usize {
        self.table.len() * 16 + self.buckets.capacity() * 24 + self.entries * 24
    }

    /// A flood's region counts in sixteen classes (region id mod 16), each capped at 127, one
    /// per byte: a superset has every count at least as large.
    pub(super) fn fingerprint(flood: &[u64]) -> [u64; 2] {
        const CLASS: u64 = 0x0001_0001_0001_0001;
        let mut fingerprint = [0u64; 2];
        for class in 0..16 {
            let count: u32 = flood.iter().map(|&w| (w & CLASS << class).count_ones()).sum();
            fingerprint[class / 8] |= u64::from(count.min(127)) << (8 * (class % 8));
        }
        fingerprint
    }

    /// Whether every byte of `larger` is at least the same byte of `smaller` (bytes below 128).
    pub(super) fn covers(larger: u64, smaller: u64) -> bool {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        ((larger | HIGH) - smaller) & HIGH == HIGH
    }

    /// The bucket key of `flood` for `group` and `depth`.
    pub(super) fn key(&self, flood: &[u64], group: usize, depth: u32) -> u64 {
        let mask = &self.group_masks[group * self.words..(group + 1) * self.words];
        let mut h = u64::from(depth).wrapping_add(0x243F_6A88_85A3_08D3).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for (&f, &m) in flood.iter().zip(mask) {
            h = (h ^ (f & m)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        // The low bits name the group (so buckets of different groups never share a key) and
        // keep the key from being 0 (an empty slot).
        (h ^ (h >> 32)) & !0xF | (group as u64 + 1)
    }

    pub(super) fn slot(&self, key: u64) -> usize {
        let mask = self.table.len() - 1;
        let mut slot = key as usize & mask;
        while self.table[slot].0 != 0 && self.table[slot].0 != key {
            slot = (slot + 1) & mask;
        }
        slot
    }

    /// Adds node `id` with flood `flood`, at depth `depth`.
    pub(super) fn insert(&mut self, flood: &[u64], id: u32, depth: u32) {
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
    pub(super) fn dominated(&self, states: &[u64], flood: &[u64], depth: u32) -> bool {
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
