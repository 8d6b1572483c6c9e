//! [`V8`] on AVX2, the SIMD engine's [`Lanes`].

use super::super::state::State;
use super::{Counter, Lanes, V4, V8};
use std::arch::x86_64::*;

// SAFETY (whole module): only used by code inlined into `search_simd`, which runs after AVX2 and BMI2 were detected;
// loads and stores are of whole digits' `[u32; 4]`s inside `State::cand`.
impl Lanes for V8 {
    const GROUPS: usize = 5;
    #[inline(always)]
    fn zero() -> V8 {
        unsafe { V8(_mm256_setzero_si256()) }
    }
    #[inline(always)]
    fn splat(x: u32) -> V8 {
        unsafe { V8(_mm256_set1_epi32(x as i32)) }
    }
    #[inline(always)]
    fn bands(x: u32) -> V8 {
        let x = x as i32;
        unsafe { V8(_mm256_set_epi32(0, x, x, x, 0, x, x, x)) }
    }
    #[inline(always)]
    fn broadcast(x: V4) -> V8 {
        let mut a = [0u32; 4];
        x.store(&mut a);
        unsafe { V8(_mm256_broadcastsi128_si256(_mm_loadu_si128(a.as_ptr() as *const __m128i))) }
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> V8 {
        unsafe { V8(_mm256_srli_epi32::<N>(self.0)) }
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> V8 {
        unsafe { V8(_mm256_slli_epi32::<N>(self.0)) }
    }
    #[inline(always)]
    fn sub(self, o: V8) -> V8 {
        unsafe { V8(_mm256_sub_epi32(self.0, o.0)) }
    }
    #[inline(always)]
    fn andnot(self, o: V8) -> V8 {
        unsafe { V8(_mm256_andnot_si256(o.0, self.0)) }
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
    }
    #[inline(always)]
    fn rotate_bands_1(self) -> V8 {
        unsafe { V8(_mm256_shuffle_epi32::<0b11_00_10_01>(self.0)) }
    }
    #[inline(always)]
    fn rotate_bands_2(self) -> V8 {
        unsafe { V8(_mm256_shuffle_epi32::<0b11_01_00_10>(self.0)) }
    }
    #[inline(always)]
    fn load_group(s: &State, k: usize) -> V8 {
        unsafe {
            if k < 4 {
                let lo = _mm_load_si128(s.cand[2 * k].as_ptr() as *const __m128i);
                let hi = _mm_load_si128(s.cand[2 * k + 1].as_ptr() as *const __m128i);
                V8(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
            } else {
                V8(_mm256_zextsi128_si256(_mm_loadu_si128(s.cand[8].as_ptr() as *const __m128i)))
            }
        }
    }
    #[inline(always)]
    fn store_group(self, s: &mut State, k: usize) {
        unsafe {
            if k < 4 {
                _mm256_storeu_si256(s.cand[2 * k].as_mut_ptr() as *mut __m256i, self.0)
            } else {
                _mm_storeu_si128(s.cand[8].as_mut_ptr() as *mut __m128i, _mm256_castsi256_si128(self.0))
            }
        }
    }
    #[inline(always)]
    fn zero_lanes(self) -> V8 {
        unsafe { V8(_mm256_cmpeq_epi32(self.0, _mm256_setzero_si256())) }
    }
    const DIGITS: usize = 2;
    #[inline(always)]
    fn load_digits(s: &State, ds: [usize; 2]) -> V8 {
        unsafe {
            let lo = _mm_load_si128(s.cand[ds[0]].as_ptr() as *const __m128i);
            let hi = _mm_load_si128(s.cand[ds[1]].as_ptr() as *const __m128i);
            V8(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
        }
    }
    #[inline(always)]
    fn store_digits(self, s: &mut State, ds: [usize; 2]) {
        unsafe {
            _mm_store_si128(s.cand[ds[0]].as_mut_ptr() as *mut __m128i, _mm256_castsi256_si128(self.0));
            _mm_store_si128(s.cand[ds[1]].as_mut_ptr() as *mut __m128i, _mm256_extracti128_si256::<1>(self.0));
        }
    }
    #[inline(always)]
    fn or_into_digits(self, pending: &mut State, ds: [usize; 2]) {
        if self.is_zero() {
            return;
        }
        unsafe {
            let halves = [_mm256_castsi256_si128(self.0), _mm256_extracti128_si256::<1>(self.0)];
            for (h, &d) in halves.into_iter().zip(&ds) {
                let p = pending.cand[d].as_mut_ptr() as *mut __m128i;
                _mm_store_si128(p, _mm_or_si128(_mm_load_si128(p), h));
                pending.dirty |= u32::from(_mm_testz_si128(h, h) == 0) << d;
            }
        }
    }
    #[inline(always)]
    fn map_band_lanes(self, f: impl Fn(u32) -> u32) -> V8 {
        unsafe {
            let lo = _mm256_castsi256_si128(self.0);
            let hi = _mm256_extracti128_si256::<1>(self.0);
            let l = |x: __m128i, i: i32| -> u32 {
                match i {
                    0 => _mm_cvtsi128_si32(x) as u32,
                    1 => _mm_extract_epi32::<1>(x) as u32,
                    _ => _mm_extract_epi32::<2>(x) as u32,
                }
            };
            let v = |x: u32| f(x) as i32;
            V8(_mm256_setr_epi32(v(l(lo, 0)), v(l(lo, 1)), v(l(lo, 2)), 0, v(l(hi, 0)), v(l(hi, 1)), v(l(hi, 2)), 0))
        }
    }
    #[inline(always)]
    fn zero_lane_bits(self) -> u64 {
        unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(self.0, _mm256_setzero_si256()))) as u64 }
    }
    #[inline(always)]
    fn nonzero_digits(zero_bits: u64) -> u32 {
        // A digit's four lane bits all set: every lane zero.
        let z = !zero_bits;
        let any = (z | z >> 1 | z >> 2 | z >> 3) & 0x11_1111_1111;
        unsafe { _pext_u64(any, 0x11_1111_1111) as u32 & 0x1FF }
    }
    #[inline(always)]
    fn or_digits(self) -> V4 {
        unsafe {
            let x = _mm_or_si128(_mm256_castsi256_si128(self.0), _mm256_extracti128_si256::<1>(self.0));
            let mut a = [0u32; 4];
            _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, x);
            V4::load(&a)
        }
    }
    #[inline(always)]
    fn merge(c: Counter<V8>) -> Counter<V8> {
        let swap = |x: V8| unsafe { V8(_mm256_permute2x128_si256::<1>(x.0, x.0)) };
        c.plus(&Counter { lo: swap(c.lo), hi: swap(c.hi), four: swap(c.four) })
    }
}

impl std::ops::BitAnd for V8 {
    type Output = V8;
    #[inline(always)]
    fn bitand(self, o: V8) -> V8 {
        unsafe { V8(_mm256_and_si256(self.0, o.0)) }
    }
}
impl std::ops::BitOr for V8 {
    type Output = V8;
    #[inline(always)]
    fn bitor(self, o: V8) -> V8 {
        unsafe { V8(_mm256_or_si256(self.0, o.0)) }
    }
}
impl std::ops::BitXor for V8 {
    type Output = V8;
    #[inline(always)]
    fn bitxor(self, o: V8) -> V8 {
        unsafe { V8(_mm256_xor_si256(self.0, o.0)) }
    }
}
