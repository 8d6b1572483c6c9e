//! The bit-sliced census of the nine digits' words, per band: the cells with at least one, two and three
//! candidates (none: a contradiction; one: a naked single). Plain, or on one SSE4.1 vector per digit.

use super::state::State;

/// Per band: cells with at least one, two and three candidates.
pub(super) type Census = [[u32; 4]; 3];

#[inline(always)]
pub(super) fn census_scalar(s: &State) -> Census {
    let (mut one, mut two, mut three) = ([0u32; 4], [0u32; 4], [0u32; 4]);
    for d in 0..9 {
        for b in 0..3 {
            let x = s.cand[d][b];
            three[b] |= two[b] & x;
            two[b] |= one[b] & x;
            one[b] |= x;
        }
    }
    [one, two, three]
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
#[inline]
pub(super) fn census_sse41(s: &State) -> Census {
    use std::arch::x86_64::*;
    // SAFETY: `State` is 16-byte aligned and each `cand[d]` is 16 bytes; loads stay inside it.
    unsafe {
        let mut one = _mm_setzero_si128();
        let mut two = _mm_setzero_si128();
        let mut three = _mm_setzero_si128();
        for d in 0..9 {
            let x = _mm_load_si128(s.cand[d].as_ptr() as *const __m128i);
            three = _mm_or_si128(three, _mm_and_si128(two, x));
            two = _mm_or_si128(two, _mm_and_si128(one, x));
            one = _mm_or_si128(one, x);
        }
        let mut out = [[0u32; 4]; 3];
        _mm_storeu_si128(out[0].as_mut_ptr() as *mut __m128i, one);
        _mm_storeu_si128(out[1].as_mut_ptr() as *mut __m128i, two);
        _mm_storeu_si128(out[2].as_mut_ptr() as *mut __m128i, three);
        out
    }
}
