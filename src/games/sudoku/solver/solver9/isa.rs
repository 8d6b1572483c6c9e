//! What differs per instruction set besides the vectors, behind the [`Isa`] trait: the census and a band word's
//! mini-row pattern, plain ([`Scalar`]) or with SSE4.1 and BMI2 ([`Simd`]). `Simd`'s code may run only inside
//! the search compiled with those features (all of it is `#[inline(always)]`, inlined there).

#[cfg(target_arch = "x86_64")]
use super::bits::{fold_h, M3};
#[cfg(target_arch = "x86_64")]
use super::census::census_sse41;
use super::census::{census_scalar, Census};
#[cfg(target_arch = "x86_64")]
use super::lanes::V8;
use super::lanes::{Lanes, V4};
use super::state::State;
use super::tables::SHRINK;

/// The operations written once per instruction set.
pub(super) trait Isa {
    /// Per band: cells with at least one, two and three candidates.
    fn census(s: &State) -> Census;
    /// A band word's 9-bit mini-row pattern: bit 3·row + box set when the word has a candidate there.
    fn mini_rows(x: u32) -> usize;
    /// The same from the word's `fold_h`.
    #[inline(always)]
    fn folded_mini_rows(h: u32) -> usize {
        // The table version looks at each mini-row's three bits, of which a folded word keeps the first.
        Self::mini_rows(h)
    }
    /// The vectors the triads and the placement of row singles go over the digits with.
    type L: Lanes;
    /// The 81 values of a solved state.
    #[inline(always)]
    fn write_cells(s: &State, out: &mut [u8; 81]) {
        s.write_cells(out)
    }
    /// The mini-row patterns of the three band lanes.
    #[inline(always)]
    fn mini_rows3(a: V4) -> [usize; 3] {
        let w = a.to_array();
        [Self::mini_rows(w[0]), Self::mini_rows(w[1]), Self::mini_rows(w[2])]
    }
    /// A digit's pattern in each stack (its three band lanes): bit `3·band + column` set when the column of the
    /// stack has a candidate in the band.
    #[inline(always)]
    fn stack_patterns(a: V4) -> [usize; 3] {
        let p = a.project().to_array();
        std::array::from_fn(|k| {
            ((p[0] >> (3 * k)) & 7 | ((p[1] >> (3 * k)) & 7) << 3 | ((p[2] >> (3 * k)) & 7) << 6) as usize
        })
    }
}

/// Plain code.
pub(super) struct Scalar;

impl Isa for Scalar {
    type L = V4;

    #[inline(always)]
    fn census(s: &State) -> Census {
        census_scalar(s)
    }

    #[inline(always)]
    fn mini_rows(x: u32) -> usize {
        SHRINK[(x & 511) as usize] as usize
            | (SHRINK[((x >> 9) & 511) as usize] as usize) << 3
            | (SHRINK[(x >> 18) as usize] as usize) << 6
    }
}

/// SSE4.1 and BMI2, inlined only into the search compiled with those features.
#[cfg(target_arch = "x86_64")]
pub(super) struct Simd;

#[cfg(target_arch = "x86_64")]
impl Isa for Simd {
    type L = V8;

    #[inline(always)]
    fn census(s: &State) -> Census {
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after SSE4.1 was detected.
        unsafe { census_sse41(s) }
    }

    #[inline(always)]
    fn folded_mini_rows(h: u32) -> usize {
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after BMI2 was detected.
        unsafe { std::arch::x86_64::_pext_u32(h, M3) as usize }
    }

    #[inline(always)]
    fn mini_rows(x: u32) -> usize {
        Self::folded_mini_rows(fold_h(x))
    }

    #[inline(always)]
    fn write_cells(s: &State, out: &mut [u8; 81]) {
        use std::arch::x86_64::*;
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after AVX2 was detected; the stores
        // stay in `buf`.
        unsafe {
            // Byte i of a band's 32 takes bit i of the digit's word: its byte of the word, then its bit.
            let spread = _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
            );
            let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
            let mut buf = [0u8; 96];
            for b in 0..3 {
                let mut acc = _mm256_setzero_si256();
                for d in 0..9 {
                    let m = _mm256_set1_epi32((s.cand[d][b] & s.solved[b]) as i32);
                    let on = _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(m, spread), bit), bit);
                    acc = _mm256_or_si256(acc, _mm256_and_si256(on, _mm256_set1_epi8(d as i8 + 1)));
                }
                _mm256_storeu_si256(buf.as_mut_ptr().add(32 * b) as *mut __m256i, acc);
            }
            for b in 0..3 {
                out[27 * b..27 * b + 27].copy_from_slice(&buf[32 * b..32 * b + 27]);
            }
        }
    }

    #[inline(always)]
    fn mini_rows3(a: V4) -> [usize; 3] {
        let h = a.fold_h().to_array();
        [Self::folded_mini_rows(h[0]), Self::folded_mini_rows(h[1]), Self::folded_mini_rows(h[2])]
    }

    #[inline(always)]
    fn stack_patterns(a: V4) -> [usize; 3] {
        let p = a.project().to_array();
        let w = p[0] | p[1] << 9 | p[2] << 18;
        // SAFETY: only called from `search_simd` and `search_avx512`, which run after BMI2 was detected.
        unsafe {
            use std::arch::x86_64::_pext_u32;
            [
                _pext_u32(w, 0o007_007_007) as usize,
                _pext_u32(w, 0o070_070_070) as usize,
                _pext_u32(w, 0o700_700_700) as usize,
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "x86_64")]
    use super::super::{bits::FULL27, engine::simd_available};
    #[cfg(target_arch = "x86_64")]
    use super::*;

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_mini_rows_match_the_tables() {
        if !simd_available() {
            return;
        }
        #[target_feature(enable = "bmi2")]
        fn simd_mini_rows(x: u32) -> usize {
            Simd::mini_rows(x)
        }
        #[target_feature(enable = "bmi2")]
        fn simd_stack_patterns(a: V4) -> [usize; 3] {
            Simd::stack_patterns(a)
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // SAFETY: BMI2 was detected above.
            assert_eq!(unsafe { simd_mini_rows(x & FULL27) }, Scalar::mini_rows(x & FULL27));
            let a = V4::load(&[x & FULL27, x.rotate_left(9) & FULL27, x.rotate_left(18) & FULL27, 0]);
            // SAFETY: BMI2 was detected above.
            assert_eq!(unsafe { simd_stack_patterns(a) }, Scalar::stack_patterns(a));
        }
    }
}
