//! The solver for every size and box shape (N ≤ 16): candidates per cell as bitmasks,
//! naked and hidden singles to a fixed point, then branching on a cell with the fewest
//! candidates (MRV). Simple and plenty for 4×4 to 16×16; 9×9 with 3×3 boxes uses the
//! bitboard solver in `solver9` instead.

use std::ops::ControlFlow;

/// Houses and peers of one grid shape.
pub(crate) struct Geometry {
    n: usize,
    full: u32,
    /// 3·N houses (rows, columns, boxes), each the list of its N cells.
    houses: Vec<Vec<u16>>,
    /// For each cell, the other cells sharing a house with it.
    peers: Vec<Vec<u16>>,
}

impl Geometry {
    pub(crate) fn new(box_rows: usize, box_cols: usize) -> Geometry {
        let n = box_rows * box_cols;
        let mut houses = Vec::with_capacity(3 * n);
        for r in 0..n {
            houses.push((0..n).map(|c| (r * n + c) as u16).collect());
        }
        for c in 0..n {
            houses.push((0..n).map(|r| (r * n + c) as u16).collect());
        }
        for k in 0..n {
            let (r0, c0) = ((k / box_rows) * box_rows, (k % box_rows) * box_cols);
            houses.push((0..n).map(|i| ((r0 + i / box_cols) * n + c0 + i % box_cols) as u16).collect());
        }
        let mut peers = vec![Vec::new(); n * n];
        for house in &houses {
            for &a in house {
                for &b in house {
                    if a != b && !peers[a as usize].contains(&b) {
                        peers[a as usize].push(b);
                    }
                }
            }
        }
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        Geometry { n, full, houses, peers }
    }
}

#[derive(Clone)]
struct State {
    cand: Vec<u32>,
    value: Vec<u8>,
}

struct Search<'a> {
    geo: &'a Geometry,
    limit: u64,
    count: u64,
    stop: bool,
    rng: u64,
    queue: Vec<(u16, u8)>,
    sink: &'a mut dyn FnMut(&[u8]) -> ControlFlow<()>,
}

impl Search<'_> {
    /// Sets `cell` to `v` (1-based) and erases `v` from its peers, queueing new naked singles.
    fn assign(&mut self, s: &mut State, cell: usize, v: u8) -> bool {
        let bit = 1u32 << (v - 1);
        if s.cand[cell] & bit == 0 {
            return false;
        }
        if s.value[cell] != 0 {
            return s.value[cell] == v;
        }
        s.value[cell] = v;
        s.cand[cell] = bit;
        for &q in &self.geo.peers[cell] {
            let q = q as usize;
            if s.cand[q] & bit != 0 {
                if s.value[q] != 0 {
                    return false;
                }
                s.cand[q] &= !bit;
                let left = s.cand[q];
                if left == 0 {
                    return false;
                }
                if left & (left - 1) == 0 {
                    self.queue.push((q as u16, left.trailing_zeros() as u8 + 1));
                }
            }
        }
        true
    }

    fn propagate(&mut self, s: &mut State) -> bool {
        loop {
            while let Some((cell, v)) = self.queue.pop() {
                if !self.assign(s, cell as usize, v) {
                    self.queue.clear();
                    return false;
                }
            }
            // Hidden singles (and digits with no place left) in every house.
            for h in 0..self.geo.houses.len() {
                let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
                for &c in &self.geo.houses[h] {
                    let c = c as usize;
                    if s.value[c] != 0 {
                        placed |= s.cand[c];
                    } else {
                        twice |= once & s.cand[c];
                        once |= s.cand[c];
                    }
                }
                if (once | placed) != self.geo.full {
                    return false;
                }
                let mut hidden = once & !twice & !placed;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    let cell = self.geo.houses[h]
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| s.value[c] == 0 && s.cand[c] & bit != 0);
                    if let Some(cell) = cell {
                        self.queue.push((cell as u16, bit.trailing_zeros() as u8 + 1));
                    }
                }
            }
            if self.queue.is_empty() {
                return true;
            }
        }
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn search(&mut self, mut s: State) {
        if !self.propagate(&mut s) {
            return;
        }
        let mut best: Option<(u32, usize)> = None;
        for (cell, (&v, &cand)) in s.value.iter().zip(&s.cand).enumerate() {
            if v == 0 {
                let k = cand.count_ones();
                if best.is_none_or(|(bk, _)| k < bk) {
                    best = Some((k, cell));
                    if k == 2 {
                        break;
                    }
                }
            }
        }
        let Some((_, cell)) = best else {
            self.count += 1;
            if (self.sink)(&s.value).is_break() || self.count >= self.limit {
                self.stop = true;
            }
            return;
        };
        let mut digits: Vec<u8> =
            (0..self.geo.n as u8).filter(|&d| s.cand[cell] & (1 << d) != 0).map(|d| d + 1).collect();
        if self.rng != 0 {
            let k = digits.len();
            let shift = (self.next_random() % k as u64) as usize;
            digits.rotate_left(shift);
        }
        let last = digits.len() - 1;
        for (i, &v) in digits.iter().enumerate() {
            let mut t = if i == last {
                std::mem::replace(&mut s, State { cand: Vec::new(), value: Vec::new() })
            } else {
                s.clone()
            };
            if self.assign(&mut t, cell, v) {
                self.search(t);
            } else {
                self.queue.clear();
            }
            if self.stop {
                return;
            }
        }
    }
}

/// Searches a grid of the given box shape (cells row-major, 0 = empty), calling `sink`
/// with each solution until `limit` were found or it breaks; `seed` ≠ 0 draws the branch
/// order at random. Returns the number found. Clashing givens give 0.
pub(crate) fn search(
    box_rows: usize,
    box_cols: usize,
    cells: &[u8],
    limit: u64,
    seed: u64,
    sink: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> u64 {
    let geo = Geometry::new(box_rows, box_cols);
    let n = geo.n;
    assert_eq!(cells.len(), n * n, "cell count does not match the box shape");
    if limit == 0 {
        return 0;
    }
    let rng = if seed == 0 { 0 } else { seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1 };
    let mut search = Search { geo: &geo, limit, count: 0, stop: false, rng, queue: Vec::new(), sink };
    let mut s = State { cand: vec![geo.full; n * n], value: vec![0; n * n] };
    for (cell, &v) in cells.iter().enumerate() {
        if v != 0 && !search.assign(&mut s, cell, v) {
            return 0;
        }
    }
    search.search(s);
    search.count
}
