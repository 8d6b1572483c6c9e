//! The symmetries of a Sudoku: a grid relabelled and its rows, columns, bands and stacks shuffled is another grid
//! with as many solutions (used to make benchmark sets and to test the solvers on many grids).

use super::board::Grid;

/// A random validity-preserving transform of a 9×9 grid: digit relabelling, rows within
/// bands, bands, columns within stacks, stacks, and transposition.
pub fn transform(grid: &Grid, rng: &mut u64) -> Grid {
    let mut next = |k: usize| {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        (*rng % k as u64) as usize
    };
    let mut shuffle = |v: &mut [usize]| {
        for i in (1..v.len()).rev() {
            let j = next(i + 1);
            v.swap(i, j);
        }
    };
    let mut line_perm = || {
        let mut bands = [0, 1, 2];
        shuffle(&mut bands);
        let mut out = [0usize; 9];
        for (i, &b) in bands.iter().enumerate() {
            let mut inner = [0, 1, 2];
            shuffle(&mut inner);
            for j in 0..3 {
                out[3 * i + j] = 3 * b + inner[j];
            }
        }
        out
    };
    let rows = line_perm();
    let cols = line_perm();
    let mut digits: Vec<usize> = (1..=9).collect();
    shuffle(&mut digits);
    let flip = next(2) == 1;
    let mut cells = vec![0u8; 81];
    for (r, &from_r) in rows.iter().enumerate() {
        for (c, &from_c) in cols.iter().enumerate() {
            let v = grid.get(from_r, from_c);
            let v = if v == 0 { 0 } else { digits[v as usize - 1] as u8 };
            let (tr, tc) = if flip { (c, r) } else { (r, c) };
            cells[tr * 9 + tc] = v;
        }
    }
    Grid::from_cells(3, 3, cells).expect("a permuted grid is valid")
}
