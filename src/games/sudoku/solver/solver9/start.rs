//! The start state: the givens placed, each erasing its digit from its peers, built in one pass over vectors.

use super::bits::FULL27;
use super::lanes::{Lanes, V4};
use super::state::State;

/// Per digit, the cells of `cells` (81 values, 0 = empty, at most 9) holding it: a band a lane.
#[inline(always)]
fn givens(cells: &[u8]) -> [V4; 9] {
    let mut out = [V4::zero(); 9];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut buf = [0u8; 96];
        buf[..81].copy_from_slice(cells);
        // SAFETY: SSE2 is part of the x86-64 baseline; the six loads stay inside `buf`.
        unsafe {
            let chunk = |i: usize| _mm_loadu_si128(buf.as_ptr().add(16 * i) as *const __m128i);
            let c = [chunk(0), chunk(1), chunk(2), chunk(3), chunk(4), chunk(5)];
            for d in 0..9 {
                let v = _mm_set1_epi8(d as i8 + 1);
                let mut m = 0u128;
                for (i, &x) in c.iter().enumerate() {
                    m |= ((_mm_movemask_epi8(_mm_cmpeq_epi8(x, v)) as u32 & 0xFFFF) as u128) << (16 * i);
                }
                let band = |b: usize| (m >> (27 * b)) as u32 & FULL27;
                out[d] = V4::load(&[band(0), band(1), band(2), 0]);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut g = [[0u32; 4]; 9];
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                g[v as usize - 1][i / 27] |= 1 << (i % 27);
            }
        }
        for d in 0..9 {
            out[d] = V4::load(&g[d]);
        }
    }
    out
}

impl State {
    /// The state with the givens of `cells` (81 values, 0 = empty) placed, built in one
    /// pass; `None` when two givens clash. Inlined into each engine's search (as all the code on vectors is),
    /// so that the SIMD engine's vectors are compiled with its features.
    #[inline(always)]
    pub(super) fn from_cells<L: Lanes>(cells: &[u8]) -> Option<State> {
        let mut g = State { cand: [[0; 4]; 9], solved: [0; 4], dirty: 0 };
        for (d, x) in givens(cells).into_iter().enumerate() {
            x.store(&mut g.cand[d]);
        }
        let mut occupied = L::zero();
        for k in 0..L::GROUPS {
            occupied = occupied | L::load_group(&g, k);
        }
        let occupied = occupied.or_digits();
        let free = L::broadcast(V4::bands(FULL27).andnot(occupied));
        let mut s = State { cand: [[0; 4]; 9], solved: occupied.to_array(), dirty: 0x1FF };
        let mut clash = L::zero();
        for k in 0..L::GROUPS {
            let g = L::load_group(&g, k);
            // The rows, boxes and columns holding a given of the digit: all their cells leave it.
            let f = g.fold_h();
            let rows = f | f.rot_box() | f.rot_box().rot_box();
            let rows = rows.shl::<3>().sub(rows);
            let boxes = (f | f.shr::<9>() | f.shr::<18>()) & L::splat(0o111);
            let boxes = boxes.shl::<3>().sub(boxes).col27();
            let p = g.project();
            let cols = (p | p.rotate_bands_1() | p.rotate_bands_2()).col27();
            (free.andnot(rows | boxes | cols) | g).store_group(&mut s, k);
            // Two givens of the digit in one row, column or box.
            let (r0, r1, r2) = (g & L::splat(511), g.shr::<9>() & L::splat(511), g.shr::<18>());
            clash = clash | (r0 & r0.sub(L::splat(1))) | (r1 & r1.sub(L::splat(1))) | (r2 & r2.sub(L::splat(1)));
            clash = clash | (r0 & r1) | (r0 & r2) | (r1 & r2) | (p & p.rotate_bands_1());
            let (f0, f1, f2) = (f & L::splat(0o111), f.shr::<9>() & L::splat(0o111), f.shr::<18>());
            clash = clash | (f0 & f1) | (f0 & f2) | (f1 & f2);
        }
        clash.is_zero().then_some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::super::bits::col27;
    use super::super::tables::BAND_PEERS;
    #[cfg(target_arch = "x86_64")]
    use super::super::{engine::simd_available, lanes::V8};
    use super::*;

    /// The start state cell by cell (the construction before `from_cells` went over vectors): each given erases
    /// its peers from its digit; `None` when a given's digit was erased from its own cell.
    fn start_cell_by_cell(cells: &[u8; 81]) -> Option<([[u32; 4]; 9], [u32; 4])> {
        let mut given = [[0u32; 3]; 9];
        let mut elim = [[0u32; 3]; 9];
        let mut occupied = [0u32; 4];
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (d, b, p) = (v as usize - 1, i / 27, i % 27);
            let col = col27(1 << (p % 9));
            given[d][b] |= 1 << p;
            elim[d][b] |= BAND_PEERS[p];
            elim[d][(b + 1) % 3] |= col;
            elim[d][(b + 2) % 3] |= col;
            occupied[b] |= 1 << p;
        }
        let mut cand = [[0u32; 4]; 9];
        for d in 0..9 {
            for b in 0..3 {
                cand[d][b] = ((FULL27 & !occupied[b]) | given[d][b]) & !elim[d][b];
                if given[d][b] & !cand[d][b] != 0 {
                    return None;
                }
            }
        }
        Some((cand, occupied))
    }

    #[test]
    fn start_state_matches_a_cell_by_cell_construction() {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1")]
        fn from_cells_v8(cells: &[u8]) -> Option<State> {
            State::from_cells::<V8>(cells)
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (mut clashing, mut fine) = (0, 0);
        for round in 0..20_000 {
            // From a few givens (mostly no clash) to many (mostly clashing).
            let filled = 1 + round % 40;
            let mut cells = [0u8; 81];
            for _ in 0..filled {
                cells[next(81) as usize] = 1 + next(9) as u8;
            }
            let want = start_cell_by_cell(&cells);
            let got = State::from_cells::<V4>(&cells).map(|s| (s.cand, s.solved));
            assert_eq!(got, want, "{cells:?}");
            #[cfg(target_arch = "x86_64")]
            if simd_available() {
                // SAFETY: the features were detected just above.
                let got = unsafe { from_cells_v8(&cells) }.map(|s| (s.cand, s.solved));
                assert_eq!(got, want, "{cells:?}");
            }
            if want.is_some() {
                fine += 1;
            } else {
                clashing += 1;
            }
        }
        assert!(clashing > 2_000 && fine > 2_000, "{clashing} clashing, {fine} not");
    }
}
