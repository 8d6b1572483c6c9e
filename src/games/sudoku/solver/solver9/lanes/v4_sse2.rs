//! [`V4`] on SSE2 (x86-64, where it is part of the baseline). Its methods are used throughout the solver.

use super::V4;
use std::arch::x86_64::*;

// SAFETY (whole impl): SSE2 is part of the x86-64 baseline; loads and stores are of whole `[u32; 4]`s.
impl V4 {
    #[inline(always)]
    pub(in super::super) fn load(a: &[u32; 4]) -> V4 {
        unsafe { V4(_mm_loadu_si128(a.as_ptr() as *const __m128i)) }
    }
    #[inline(always)]
    pub(in super::super) fn store(self, a: &mut [u32; 4]) {
        unsafe { _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, self.0) }
    }
    #[inline(always)]
    pub(in super::super) fn zero() -> V4 {
        unsafe { V4(_mm_setzero_si128()) }
    }
    #[inline(always)]
    pub(in super::super) fn splat(x: u32) -> V4 {
        unsafe { V4(_mm_set1_epi32(x as i32)) }
    }
    /// `x` in the three band lanes, 0 in the fourth.
    #[inline(always)]
    pub(in super::super) fn bands(x: u32) -> V4 {
        unsafe { V4(_mm_set_epi32(0, x as i32, x as i32, x as i32)) }
    }
    #[inline(always)]
    pub(in super::super) fn shr<const N: i32>(self) -> V4 {
        unsafe { V4(_mm_srli_epi32::<N>(self.0)) }
    }
    #[inline(always)]
    pub(in super::super) fn shl<const N: i32>(self) -> V4 {
        unsafe { V4(_mm_slli_epi32::<N>(self.0)) }
    }
    #[inline(always)]
    pub(in super::super) fn sub(self, o: V4) -> V4 {
        unsafe { V4(_mm_sub_epi32(self.0, o.0)) }
    }
    /// `self & !o`.
    #[inline(always)]
    pub(in super::super) fn andnot(self, o: V4) -> V4 {
        unsafe { V4(_mm_andnot_si128(o.0, self.0)) }
    }
    #[inline(always)]
    pub(in super::super) fn eq(self, o: V4) -> bool {
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi32(self.0, o.0)) == 0xFFFF }
    }
    #[inline(always)]
    pub(in super::super) fn is_zero(self) -> bool {
        self.eq(V4::zero())
    }
    #[inline(always)]
    pub(in super::super) fn to_array(self) -> [u32; 4] {
        let mut a = [0; 4];
        self.store(&mut a);
        a
    }
    /// All ones in the lanes that are zero, zero elsewhere.
    #[inline(always)]
    pub(in super::super) fn zero_lanes(self) -> V4 {
        unsafe { V4(_mm_cmpeq_epi32(self.0, _mm_setzero_si128())) }
    }
    /// Lane b takes lane b + 1 (mod 3) of the three band lanes; the fourth stays.
    #[inline(always)]
    pub(in super::super) fn rotate_bands_1(self) -> V4 {
        unsafe { V4(_mm_shuffle_epi32::<0b11_00_10_01>(self.0)) }
    }
    /// Lane b takes lane b + 2 (mod 3) of the three band lanes; the fourth stays.
    #[inline(always)]
    pub(in super::super) fn rotate_bands_2(self) -> V4 {
        unsafe { V4(_mm_shuffle_epi32::<0b11_01_00_10>(self.0)) }
    }
}

impl std::ops::BitAnd for V4 {
    type Output = V4;
    #[inline(always)]
    fn bitand(self, o: V4) -> V4 {
        unsafe { V4(_mm_and_si128(self.0, o.0)) }
    }
}
impl std::ops::BitOr for V4 {
    type Output = V4;
    #[inline(always)]
    fn bitor(self, o: V4) -> V4 {
        unsafe { V4(_mm_or_si128(self.0, o.0)) }
    }
}
impl std::ops::BitXor for V4 {
    type Output = V4;
    #[inline(always)]
    fn bitxor(self, o: V4) -> V4 {
        unsafe { V4(_mm_xor_si128(self.0, o.0)) }
    }
}
