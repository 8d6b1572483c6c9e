//! Frames: numberings of a subset of the solutions, so that a set over a frame is a bitset of a few words, and
//! packing a set of one frame into a narrower one (PEXT, or a byte-wise table without it).

use super::*;

/// A numbering of some solutions: `ids[i]` is the hash id of the solution at bit `i` of a
/// set over this frame.
pub(super) struct Frame {
    pub(super) ids: Vec<u64>,
}

/// `PEXT8[m][x]`: the bits of `x` at the set bits of `m`, packed at the bottom.
pub(super) static PEXT8: std::sync::LazyLock<Box<[[u8; 256]; 256]>> = std::sync::LazyLock::new(|| {
    let mut t = Box::new([[0u8; 256]; 256]);
    for (m, row) in t.iter_mut().enumerate() {
        for (x, out) in row.iter_mut().enumerate() {
            let mut k = 0;
            for b in 0..8 {
                if m >> b & 1 != 0 {
                    *out |= ((x >> b & 1) as u8) << k;
                    k += 1;
                }
            }
        }
    }
    t
});

/// Packs subsets of a set `set` into a frame numbering just the elements of `set`: the
/// element at the `q`-th set bit of `set` goes to bit `q`.
pub(super) struct Packer {
    /// Whether the CPU has BMI2's PEXT: then `words` is filled, otherwise `bytes`.
    pub(super) pext: bool,
    /// For each nonzero byte of `set`: its index, its value, and where its bits go.
    pub(super) bytes: Vec<(u32, u8, u32)>,
    /// For each nonzero word of `set`: its index, its value, and where its bits go.
    pub(super) words: Vec<(u32, u64, u32)>,
}

impl Packer {
    #[inline]
    pub(super) fn new(set: &[u64]) -> Packer {
        #[cfg(target_arch = "x86_64")]
        let pext = std::arch::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let pext = false;
        Packer::with(set, pext)
    }

    /// A packer using PEXT when `pext` (which the CPU must have).
    #[inline]
    pub(super) fn with(set: &[u64], pext: bool) -> Packer {
        let (mut bytes, mut words) = (Vec::new(), Vec::new());
        let mut at = 0;
        for (j, &w) in set.iter().enumerate() {
            if pext {
                if w != 0 {
                    words.push((j as u32, w, at));
                    at += w.count_ones();
                }
                continue;
            }
            for b in 0..8 {
                let m = (w >> (8 * b)) as u8;
                if m != 0 {
                    bytes.push(((8 * j + b) as u32, m, at));
                    at += m.count_ones();
                }
            }
        }
        Packer { bytes, words, pext }
    }

    /// `x ∩ set`, packed.
    #[inline]
    pub(super) fn pack<const V: usize>(&self, x: &[u64]) -> [u64; V] {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: the CPU has BMI2 (checked in `new`).
            return unsafe { self.pack_pext(x) };
        }
        let table = &**PEXT8;
        let mut out = [0u64; V];
        for &(b, m, at) in &self.bytes {
            let xb = (x[b as usize / 8] >> (8 * (b % 8))) as u8;
            let v = table[m as usize][xb as usize] as u64;
            let (j, r) = (at as usize / 64, at % 64);
            out[j] |= v << r;
            if r > 56 && j + 1 < V {
                out[j + 1] |= v >> (64 - r);
            }
        }
        out
    }

    /// [`pack`](Packer::pack) with BMI2's PEXT: one instruction a word.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(super) unsafe fn pack_pext<const V: usize>(&self, x: &[u64]) -> [u64; V] {
        let mut out = [0u64; V];
        for &(i, m, at) in &self.words {
            let v = std::arch::x86_64::_pext_u64(x[i as usize], m);
            let (j, r) = (at as usize / 64, at % 64);
            out[j] |= v << r;
            if r > 0 && j + 1 < V {
                out[j + 1] |= v >> (64 - r);
            }
        }
        out
    }
}

/// The frame width (words, a power of two) for a set of `n` solutions.
#[inline]
pub(super) fn width_for(n: usize) -> usize {
    n.div_ceil(64).next_power_of_two()
}

/// The set of the first `n` positions.
#[inline]
pub(super) fn first<const W: usize>(n: usize) -> [u64; W] {
    std::array::from_fn(|j| match n.saturating_sub(64 * j).min(64) {
        64 => !0,
        r => (1u64 << r) - 1,
    })
}

/// The part of `set` within `within` (sets over a wider frame) as a set over the narrower
/// frame numbering the elements of `within` in order, bit by bit (for the rare sets that
/// cross frames; [`Packer`] packs the many): the inverse of [`unpack`].
#[inline]
pub(super) fn repack<const W: usize, const V: usize>(set: &[u64; W], within: &[u64; W]) -> [u64; V] {
    let (mut m, mut q) = ([0u64; V], 0);
    for_each_bit(within, |p| {
        m[q / 64] |= (set[p / 64] >> (p % 64) & 1) << (q % 64);
        q += 1;
    });
    m
}

/// The set over a wider frame of a set `packed` over the narrower frame numbering the
/// elements of `within` (a set over the wider frame) in order.
#[inline]
pub(super) fn unpack<const V: usize, const W: usize>(packed: &[u64; V], within: &[u64; W]) -> [u64; W] {
    let (mut m, mut q) = ([0u64; W], 0);
    for_each_bit(within, |p| {
        m[p / 64] |= (packed[q / 64] >> (q % 64) & 1) << (p % 64);
        q += 1;
    });
    m
}
