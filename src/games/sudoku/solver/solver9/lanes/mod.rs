//! Vectors of band words: [`V4`], one digit's three bands and a zero lane in a 128-bit vector, [`V8`], two
//! digits' in an AVX2 one, the [`Lanes`] trait the code written once for both goes over, and the bit-sliced
//! [`Counter`]s on them. Their operations per instruction set are in `v4_sse2` (x86-64), `v4_plain` (other
//! targets) and `v8_avx2`; every one is `#[inline(always)]` (why: the module doc's SIMD section). The pad lanes (3
//! and 7) are kept zero.

use super::bits::M3;
use super::state::State;

/// A digit's three band words and a fourth lane (kept zero) as one 128-bit vector: SSE2 on x86-64 (part of the
/// baseline, so both engines use it; inside the SIMD engine it is compiled with VEX encodings), plain arrays
/// elsewhere. Shifts act on each lane.
#[derive(Clone, Copy)]
pub(super) struct V4(
    #[cfg(target_arch = "x86_64")] std::arch::x86_64::__m128i,
    #[cfg(not(target_arch = "x86_64"))] [u32; 4],
);
#[cfg(target_arch = "x86_64")]
mod v4_sse2;

#[cfg(not(target_arch = "x86_64"))]
mod v4_plain;

/// Vectors of band words: a [`V4`] holds one digit's three bands (and a zero lane), a `V8` (AVX2, the SIMD
/// engine's) two digits'. The triads and the placement of row singles go over the digits a group at a time.
pub(super) trait Lanes:
    Copy + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> + std::ops::BitXor<Output = Self>
{
    /// Groups of digits: 9 of one, or 5 of two (the last one's second digit a zero pad).
    const GROUPS: usize;
    fn zero() -> Self;
    fn splat(x: u32) -> Self;
    /// `x` in every band lane, 0 in the pad lanes.
    fn bands(x: u32) -> Self;
    /// The three band words of a digit, in every digit's place of the vector.
    fn broadcast(x: V4) -> Self;
    fn shr<const N: i32>(self) -> Self;
    fn shl<const N: i32>(self) -> Self;
    fn sub(self, o: Self) -> Self;
    /// `self & !o`.
    fn andnot(self, o: Self) -> Self;
    fn is_zero(self) -> bool;
    /// Lane b takes lane b + 1 (mod 3) of its digit's band lanes; the pad lanes stay.
    fn rotate_bands_1(self) -> Self;
    /// Lane b takes lane b + 2 (mod 3) of its digit's band lanes; the pad lanes stay.
    fn rotate_bands_2(self) -> Self;
    fn load_group(s: &State, k: usize) -> Self;
    fn store_group(self, s: &mut State, k: usize);
    /// One bit per lane (4 a digit), set where the lane is zero.
    fn zero_lane_bits(self) -> u64;
    /// All ones in the lanes that are zero, zero in the others.
    fn zero_lanes(self) -> Self;
    /// Digits side by side in `load_digits`.
    const DIGITS: usize;
    /// The words of digits `ds[0]` (and `ds[1]`, when two fit).
    fn load_digits(s: &State, ds: [usize; 2]) -> Self;
    fn store_digits(self, s: &mut State, ds: [usize; 2]);
    /// ORs the digits' words (as `load_digits` placed them) into their words in `pending`, and marks there (in
    /// `dirty`) those not zero.
    fn or_into_digits(self, pending: &mut State, ds: [usize; 2]);
    /// `f` applied to each band lane (the pad lanes stay zero).
    fn map_band_lanes(self, f: impl Fn(u32) -> u32) -> Self;
    /// From the `zero_lane_bits` of every group, group k shifted by `4 · k · digits a group`: the digits with
    /// a lane not zero.
    fn nonzero_digits(zero_bits: u64) -> u32;
    /// The union of the group's digits' words.
    fn or_digits(self) -> V4;
    /// A counter over the groups made a counter over all digits (a `V8`'s two halves summed, in both).
    #[inline(always)]
    fn merge(c: Counter<Self>) -> Counter<Self> {
        c
    }

    #[inline(always)]
    fn fold_h(self) -> Self {
        (self | self.shr::<1>() | self.shr::<2>()) & Self::splat(M3)
    }
    #[inline(always)]
    fn project(self) -> Self {
        (self | self.shr::<9>() | self.shr::<18>()) & Self::splat(511)
    }
    #[inline(always)]
    fn col27(self) -> Self {
        self | self.shl::<9>() | self.shl::<18>()
    }
    #[inline(always)]
    fn rot_box(self) -> Self {
        (self.shl::<3>() & Self::splat(0o110_110_110)) | (self.shr::<6>() & Self::splat(0o001_001_001))
    }
    #[inline(always)]
    fn alone_in_row(self) -> Self {
        let r = self.rot_box();
        self.andnot(r).andnot(r.rot_box())
    }
    #[inline(always)]
    fn rot_col(self) -> Self {
        (self.shl::<1>() & Self::splat(0o666)) | (self.shr::<2>() & Self::splat(0o111))
    }
    #[inline(always)]
    fn alone_in_stack(self) -> Self {
        let r = self.rot_col();
        self.andnot(r).andnot(r.rot_col())
    }
}
impl Lanes for V4 {
    const GROUPS: usize = 9;
    #[inline(always)]
    fn zero() -> V4 {
        V4::zero()
    }
    #[inline(always)]
    fn splat(x: u32) -> V4 {
        V4::splat(x)
    }
    #[inline(always)]
    fn bands(x: u32) -> V4 {
        V4::bands(x)
    }
    #[inline(always)]
    fn broadcast(x: V4) -> V4 {
        x
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> V4 {
        V4::shr::<N>(self)
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> V4 {
        V4::shl::<N>(self)
    }
    #[inline(always)]
    fn sub(self, o: V4) -> V4 {
        V4::sub(self, o)
    }
    #[inline(always)]
    fn andnot(self, o: V4) -> V4 {
        V4::andnot(self, o)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        V4::is_zero(self)
    }
    #[inline(always)]
    fn rotate_bands_1(self) -> V4 {
        V4::rotate_bands_1(self)
    }
    #[inline(always)]
    fn rotate_bands_2(self) -> V4 {
        V4::rotate_bands_2(self)
    }
    #[inline(always)]
    fn load_group(s: &State, k: usize) -> V4 {
        V4::load(&s.cand[k])
    }
    #[inline(always)]
    fn store_group(self, s: &mut State, k: usize) {
        self.store(&mut s.cand[k])
    }
    #[inline(always)]
    fn zero_lanes(self) -> V4 {
        V4::zero_lanes(self)
    }
    const DIGITS: usize = 1;
    #[inline(always)]
    fn load_digits(s: &State, ds: [usize; 2]) -> V4 {
        V4::load(&s.cand[ds[0]])
    }
    #[inline(always)]
    fn store_digits(self, s: &mut State, ds: [usize; 2]) {
        self.store(&mut s.cand[ds[0]]);
    }
    #[inline(always)]
    fn or_into_digits(self, pending: &mut State, ds: [usize; 2]) {
        if !self.is_zero() {
            (V4::load(&pending.cand[ds[0]]) | self).store(&mut pending.cand[ds[0]]);
            pending.dirty |= 1 << ds[0];
        }
    }
    #[inline(always)]
    fn map_band_lanes(self, f: impl Fn(u32) -> u32) -> V4 {
        let w = self.to_array();
        V4::load(&[f(w[0]), f(w[1]), f(w[2]), 0])
    }
    #[inline(always)]
    fn zero_lane_bits(self) -> u64 {
        let z = self.zero_lanes().to_array();
        u64::from(z[0] & 1) | u64::from(z[1] & 1) << 1 | u64::from(z[2] & 1) << 2 | u64::from(z[3] & 1) << 3
    }
    #[inline(always)]
    fn nonzero_digits(zero_bits: u64) -> u32 {
        let mut out = 0;
        for d in 0..9 {
            out |= u32::from((zero_bits >> (4 * d)) & 15 != 15) << d;
        }
        out
    }
    #[inline(always)]
    fn or_digits(self) -> V4 {
        self
    }
}
/// Two digits' band words (lanes 0-2 and 4-6; lanes 3 and 7 zero) in one AVX2 vector, for the SIMD engine.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct V8(std::arch::x86_64::__m256i);
#[cfg(target_arch = "x86_64")]
mod v8_avx2;

/// Bit-sliced counts per lane, saturating at 4: `lo`, `hi` the count's two bits while below 4, `four` once it
/// reached 4.
#[derive(Clone, Copy)]
pub(super) struct Counter<L> {
    pub(super) lo: L,
    pub(super) hi: L,
    pub(super) four: L,
}

impl<L: Lanes> Counter<L> {
    #[inline(always)]
    pub(super) fn new() -> Counter<L> {
        Counter { lo: L::zero(), hi: L::zero(), four: L::zero() }
    }

    #[inline(always)]
    pub(super) fn add(&mut self, x: L) {
        let c0 = self.lo & x;
        self.lo = self.lo ^ x;
        self.four = self.four | (self.hi & c0);
        self.hi = self.hi ^ c0;
    }

    /// The sum of two counts, saturating at 4.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn plus(&self, o: &Counter<L>) -> Counter<L> {
        let carry = self.lo & o.lo;
        let hi = self.hi ^ o.hi;
        Counter { lo: self.lo ^ o.lo, hi: hi ^ carry, four: self.four | o.four | (self.hi & o.hi) | (hi & carry) }
    }

    /// The bits counted at least 3 times, and at least 4 times.
    #[inline(always)]
    pub(super) fn at_least_3_and_4(&self) -> (L, L) {
        (self.four | (self.hi & self.lo), self.four)
    }
}
/// The first digit of group `k`.
#[inline(always)]
pub(super) fn digit_shift<L: Lanes>(k: usize) -> usize {
    if L::GROUPS == 9 {
        k
    } else {
        2 * k
    }
}
