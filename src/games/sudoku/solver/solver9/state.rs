//! The search state (its layout: the module doc's Representation); the start state built from the givens is in
//! `start.rs`.

use super::bits::FULL27;

/// The search state: candidate words per digit and band (lane 3 unused, kept zero) and the
/// placed cells per band.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(super) struct State {
    pub(super) cand: [[u32; 4]; 9],
    pub(super) solved: [u32; 4],
    /// Digits whose words changed since they were last propagated.
    pub(super) dirty: u32,
}

impl State {
    // `#[inline]` on this and `write_cells`: the search is in another module, and so in another codegen unit,
    // where a function without it is not inlined (the scalar search called `write_cells`).
    #[inline]
    pub(super) fn is_solved(&self) -> bool {
        self.solved[0] == FULL27 && self.solved[1] == FULL27 && self.solved[2] == FULL27
    }

    /// The 81 values of a solved state.
    #[inline]
    pub(super) fn write_cells(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[d][b] & self.solved[b];
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    out[27 * b + p] = d as u8 + 1;
                    x &= x - 1;
                }
            }
        }
    }
}
