//! The key of a stack: its total, the set at its top and the suffix of distinct ranks that can still make a run,
//! cut to what can still score from the position (see the solver's module docs for why the cut is exact), and
//! the step that plays a card onto it, with the tables the cut tests use.

use super::{rank_value, JACK, LIMIT, SET_POINTS};

pub(super) const fn build_valsum() -> [u8; 8192] {
    let mut table = [0u8; 8192];
    let mut mask = 1usize;
    while mask < 8192 {
        let low = mask.trailing_zeros();
        table[mask] = table[mask & (mask - 1)] + rank_value(low) as u8;
        mask += 1;
    }
    table
}

/// Sum of the values of the ranks in a 13-bit mask.
pub(in crate::games::cribbage) static VALSUM: [u8; 8192] = build_valsum();

// Key layout: bits 0–4 total, 5–7 set count k, 8–11 set rank, 12–14 seq length m, 16.. seq (4 bits a rank,
// the top card in the lowest nibble).
pub(in crate::games::cribbage) const T_MASK: u64 = 31;

/// All ranks (the permissive reach row).
pub(super) static ALL_RANKS: [u32; 32] = [0x1FFF; 32];

/// What the solver knows about a position (the cards left) when cutting stack keys: views into the per-column
/// reach tables, combined on demand.
pub(super) struct Here<'a> {
    /// The reach row (indexed by room) of each column at this position: the ranks of its front cards that
    /// could join a stack with that much room (every card in front of them in the column going first).
    pub(super) rows: [&'a [u32; 32]; 4],
    /// The playable cards as `(rank, value)`, the first `fronts` entries.
    pub(super) front: [(u32, u32); 4],
    /// For each playable card: its column's reach row once it is played (the column then starts one card
    /// further back).
    pub(super) next: [&'a [u32; 32]; 4],
    pub(super) front_col: [usize; 4],
    pub(super) fronts: usize,
    /// Keep everything (for building the start key, whose later cards come from the given stack).
    pub(super) permissive: bool,
}

impl Here<'_> {
    pub(super) fn permissive() -> Here<'static> {
        Here {
            rows: [&ALL_RANKS; 4],
            front: [(0, 0); 4],
            next: [&ALL_RANKS; 4],
            front_col: [0; 4],
            fronts: 0,
            permissive: true,
        }
    }

    /// The ranks of the cards that could still join a stack with that much room.
    #[inline(always)]
    pub(super) fn reach(&self, room: u32) -> u32 {
        let r = room as usize;
        self.rows[0][r] | self.rows[1][r] | self.rows[2][r] | self.rows[3][r]
    }

    /// Like `reach`, once the playable card `front[f]` has been played.
    #[inline(always)]
    pub(super) fn after(&self, f: usize, room: u32) -> u32 {
        let r = room as usize;
        let j = self.front_col[f];
        let mut mask = self.next[f][r];
        for k in 0..4 {
            if k != j {
                mask |= self.rows[k][r];
            }
        }
        mask
    }

    /// Whether the playable card of some column has rank `x` (and so could extend a set at once).
    #[inline]
    pub(super) fn front_has(&self, x: u32) -> bool {
        self.permissive || self.front[..self.fronts].iter().any(|&(r, _)| r == x)
    }

    /// Whether the distinct ranks `set` (the top of the stack) can still become part of a run. A run using
    /// them needs a consecutive range of 3 to 7 ranks strictly containing `set`, whose missing ranks are played
    /// straight onto the stack with nothing between: so the very next card is a playable card `y` that fits
    /// the room and is missing from `set`, and the rest of the range beyond `set ∪ {y}` must be affordable from
    /// ranks still within reach. (A necessary condition: cutting what fails it loses nothing.) `set` has a
    /// span of at most 7 ranks.
    #[inline(always)]
    pub(super) fn completable(&self, set: u32, room: u32) -> bool {
        if self.permissive {
            return extendable(&MASK_INFO[set as usize], self.reach(room), room);
        }
        (0..self.fronts).any(|f| {
            let (y, vy) = self.front[f];
            vy <= room && set >> y & 1 == 0 && {
                let info = &MASK_INFO[(set | 1 << y) as usize];
                let rest = room - vy;
                info.flags & IS_RUN != 0 || extendable(info, self.after(f, rest), rest)
            }
        })
    }
}

/// Precomputed facts about a set of ranks (a 13-bit mask), for the cut tests.
#[derive(Clone, Copy)]
pub(super) struct MaskInfo {
    /// The ranks missing between the lowest and the highest (only when the span is at most 7).
    pub(super) gaps: u16,
    /// The rank just below / above the set as a mask, when the set has no gaps and a span of at most 6 (so
    /// adding it keeps a span of at most 7); 0 otherwise.
    pub(super) low: u16,
    pub(super) high: u16,
    /// The values of `gaps`, of the rank `low`, of the rank `high`.
    pub(super) gap_sum: u8,
    pub(super) low_value: u8,
    pub(super) high_value: u8,
    pub(super) flags: u8,
}

/// The span (highest − lowest rank + 1) is at most 7.
pub(super) const SPAN_OK: u8 = 1;
/// No gaps and at least 3 ranks (whatever the span).
pub(super) const IS_RUN: u8 = 2;

pub(super) const fn build_mask_info() -> [MaskInfo; 8192] {
    let mut table = [MaskInfo { gaps: 0, low: 0, high: 0, gap_sum: 0, low_value: 0, high_value: 0, flags: 0 }; 8192];
    let mut mask = 1u32;
    while mask < 8192 {
        let lo = mask.trailing_zeros();
        let hi = 31 - mask.leading_zeros();
        let gaps = ((2u32 << hi) - (1u32 << lo)) & !mask;
        let info = &mut table[mask as usize];
        if gaps == 0 && mask.count_ones() >= 3 {
            info.flags |= IS_RUN;
        }
        if hi - lo <= 6 {
            info.flags |= SPAN_OK;
            info.gaps = gaps as u16;
            info.gap_sum = VALSUM[gaps as usize];
            if gaps == 0 && hi - lo < 6 {
                if lo > 0 {
                    info.low = 1 << (lo - 1);
                    info.low_value = rank_value(lo - 1) as u8;
                }
                if hi < 12 {
                    info.high = 1 << (hi + 1);
                    info.high_value = rank_value(hi + 1) as u8;
                }
            }
        }
        mask += 1;
    }
    table
}

pub(super) static MASK_INFO: [MaskInfo; 8192] = build_mask_info();

/// Whether some consecutive range of at most 7 ranks strictly containing the set described by `info` has its
/// missing ranks in `avail` with values summing to at most `room` (the cheapest such range fills the gaps of
/// the set's span, or adds one neighbour when there are none).
#[inline(always)]
pub(super) fn extendable(info: &MaskInfo, avail: u32, room: u32) -> bool {
    if info.flags & SPAN_OK == 0 {
        return false;
    }
    let gaps = u32::from(info.gaps);
    if gaps != 0 {
        return gaps & !avail == 0 && u32::from(info.gap_sum) <= room;
    }
    (u32::from(info.low) & avail != 0 && u32::from(info.low_value) <= room)
        || (u32::from(info.high) & avail != 0 && u32::from(info.high_value) <= room)
}

/// Plays rank `x` onto the stack described by `key`, `here` describing the position afterwards. Returns the
/// new key (cut to what can still score; 0 when no card fits any more, i.e. the stack must end) and the points,
/// or `None` when the card does not fit.
#[inline(always)]
pub(super) fn step(key: u64, x: u32, here: &Here) -> Option<(u64, u32)> {
    let t = (key & T_MASK) as u32;
    let v = rank_value(x);
    let t2 = t + v;
    if t2 > LIMIT {
        return None;
    }
    let room = LIMIT - t2;
    let mut points = 0;
    if t == 0 && x == JACK {
        points += 2;
    }
    if t2 == 15 || t2 == LIMIT {
        points += 2;
    }
    let k = (key >> 5) as u32 & 7;
    let r = (key >> 8) as u32 & 15;
    let k2 = if k > 0 && r == x { (k + 1).min(4) } else { 1 };
    points += SET_POINTS[k2 as usize];

    let m = (key >> 12) as u32 & 7;
    let seq = key >> 16;
    // The first nibble of `seq` equal to `x` (a zero nibble of `diff`; the lowest flagged one is exact).
    let diff = seq ^ (u64::from(x) * 0x0111_1111_1111_1111);
    let zero = diff.wrapping_sub(0x0111_1111_1111_1111) & !diff & 0x0888_8888_8888_8888;
    let len = m.min(zero.trailing_zeros() / 4);
    let new_seq = ((seq & ((1u64 << (4 * len)) - 1)) << 4) | u64::from(x);
    let mut sets = [0u32; 8];
    let mut set = 0u32;
    let mut n = 0;
    let mut run = 0;
    while n <= len {
        set |= 1 << ((new_seq >> (4 * n)) as u32 & 15);
        let info = &MASK_INFO[set as usize];
        if info.flags & SPAN_OK == 0 {
            break;
        }
        // n + 1 distinct ranks with no gaps: a run.
        if n >= 2 && info.gaps == 0 {
            run = n + 1;
        }
        sets[n as usize] = set;
        n += 1;
    }
    points += run;
    if here.reach(room) == 0 {
        return Some((0, points));
    }
    let mut keep = n;
    while keep > 0 && !here.completable(sets[keep as usize - 1], room) {
        keep -= 1;
    }
    let (k_out, r_out) = if v <= room && here.front_has(x) { (k2, x) } else { (0, 0) };
    let out = u64::from(t2)
        | u64::from(k_out) << 5
        | u64::from(r_out) << 8
        | u64::from(keep) << 12
        | (new_seq & ((1u64 << (4 * keep)) - 1)) << 16;
    Some((out, points))
}
