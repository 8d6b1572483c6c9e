//! Triads, the reasoning across digits on mini-rows and mini-columns when nothing else is left (see [`triads`]).

use super::bits::M3;
use super::lanes::{digit_shift, Counter, Lanes};
use super::state::State;

/// Triad cardinality: the three cells of a mini-row (or of a mini-column: a column inside one box) hold three
/// different digits. Fewer than three digits possible there is a contradiction; exactly three possible puts
/// each of them there (erased from the rest of its row or column and of its box); three digits already
/// certain there (the only place of that digit in its row, or column, within the box) erase the others from
/// the three cells. Returns whether anything was erased; `None` on a contradiction. The digits go a group at
/// a time ([`Lanes`]), the pad lanes zero throughout.
#[inline(always)]
pub(super) fn triads<L: Lanes>(s: &mut State) -> Option<bool> {
    // Saturating bit-sliced counters, per lane, of how many digits set each bit: mini-rows possible (`hc`),
    // mini-columns possible (`vc`), mini-rows certain (`gc`), mini-columns certain (`wc`).
    let (mut hc, mut vc, mut gc, mut wc) = (Counter::new(), Counter::new(), Counter::new(), Counter::new());
    for k in 0..L::GROUPS {
        let x = L::load_group(s, k);
        let hh = x.fold_h();
        let vv = x.project();
        hc.add(hh);
        vc.add(vv);
        gc.add(hh.alone_in_row());
        wc.add(vv.alone_in_stack());
    }
    let (h3, h4) = L::merge(hc).at_least_3_and_4();
    let (v3, v4) = L::merge(vc).at_least_3_and_4();
    let (g3, g4) = L::merge(gc).at_least_3_and_4();
    let (w3, w4) = L::merge(wc).at_least_3_and_4();
    if !((h3 ^ L::bands(M3)) | (v3 ^ L::bands(511)) | g4 | w4).is_zero() {
        return None;
    }
    let h3only = h3.andnot(h4);
    let v3only = v3.andnot(v4);
    let work = (h3only.andnot(g3)) | (g3 & h4) | (v3only.andnot(w3)) | (w3 & v4);
    if work.is_zero() {
        return Some(false);
    }
    let mut same = 0u64;
    for k in 0..L::GROUPS {
        let before = L::load_group(s, k);
        let hh = before.fold_h();
        let fh = hh.alone_in_row();
        // Mini-rows where exactly three digits may go and this one is not yet certain: it goes there.
        let nf = (hh & h3only).andnot(fh);
        let rows = (nf | nf.shr::<3>() | nf.shr::<6>()) & L::splat(0o001_001_001);
        let rows = rows.shl::<9>().sub(rows);
        let boxes = (nf | nf.shr::<9>() | nf.shr::<18>()) & L::splat(0o111);
        let boxes = boxes.shl::<3>().sub(boxes).col27();
        let nf7 = nf.shl::<3>().sub(nf);
        let mut x = before.andnot((rows | boxes).andnot(nf7));
        // Mini-rows with three certain digits, this one not among them: it leaves them.
        let ng = (hh & g3).andnot(fh);
        x = x.andnot(ng.shl::<3>().sub(ng));
        let vv = before.project();
        let fv = vv.alone_in_stack();
        let nfv = (vv & v3only).andnot(fv);
        let stacks = (nfv | nfv.shr::<1>() | nfv.shr::<2>()) & L::splat(0o111);
        let stacks = stacks.shl::<3>().sub(stacks);
        x = x.andnot(stacks.andnot(nfv).col27());
        let cols = nfv.col27();
        x = x.andnot(cols.rotate_bands_1() | cols.rotate_bands_2());
        let ngv = (vv & w3).andnot(fv);
        x = x.andnot(ngv.col27());
        x.store_group(s, k);
        same |= (x ^ before).zero_lane_bits() << (4 * digit_shift::<L>(k));
    }
    let changed = L::nonzero_digits(same);
    s.dirty |= changed;
    Some(changed != 0)
}
