//! The union-find that joins pixels and runs into connected parts ([`super::patches`], [`super::runs`]).
//!
//! Kept by hand for speed: imageproc's `union_find::DisjointSetForest` holds a `usize` parent and a `usize` tree
//! size per element (16 bytes a pixel, against 4 here), and its calls are not inlined into ours across the crate
//! boundary. Finding a Flood-It client's colour buttons (`autoplay bench flood --buttons
//! fixtures/flood-buttons/discs-seed3.png`, 560×640, median of 50 searches) took 13.1 ms with it (two runs), against
//! 5.6-6.1 ms with this one inlined (6.0-8.8 ms for the hand-written finder it replaced, the builds alternating).
//! Union joins the later root under the earlier one, and `root` halves paths as it goes: trees stay shallow on
//! pictures, where unions run in reading order.

/// Disjoint sets over `0..len`.
pub struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// Every element in a set of its own.
    pub fn new(len: usize) -> UnionFind {
        assert!(len <= u32::MAX as usize, "at most 2^32 elements");
        UnionFind { parent: (0..len as u32).collect() }
    }

    /// The root of `i`'s set (the set's smallest element).
    #[inline]
    pub fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            let grand = self.parent[self.parent[i] as usize];
            self.parent[i] = grand;
            i = grand as usize;
        }
        i
    }

    /// Joins the sets of `a` and `b`.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_elements_share_the_smallest_root_and_others_keep_their_own() {
        let mut sets = UnionFind::new(6);
        sets.union(4, 2);
        sets.union(2, 5);
        sets.union(0, 1);
        assert_eq!([sets.root(5), sets.root(4), sets.root(2)], [2, 2, 2]);
        assert_eq!((sets.root(1), sets.root(3)), (0, 3));
        sets.union(5, 1);
        assert!((0..6).filter(|&i| i != 3).all(|i| sets.root(i) == 0));
    }
}
