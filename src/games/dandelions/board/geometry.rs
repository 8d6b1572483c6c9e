//! The tables of one board size: each cell's neighbours and the cells a wind spreads seeds to, and the
//! eight symmetries of the square.

use super::*;

/// Precomputed masks and tables for one board side.
#[derive(Clone, Debug)]
pub struct Geometry {
    n: usize,
    full: u64,
    /// Per direction: left shift, right shift, destination mask.
    shl: [u32; 8],
    shr: [u32; 8],
    dest: [u64; 8],
    /// `rays[cell * 8 + d]`: cells strictly beyond `cell` in direction `d`.
    rays: Vec<u64>,
    /// `stars[cell * 256 + dirs]`: `cell` and its rays in every direction of `dirs`.
    stars: Vec<u64>,
    /// `back_lines[d * cells + cell]`: `cell` and the cells behind it
    /// (opposite `d`), i.e. every cell whose seeds blown in `d` reach `cell`.
    back_lines: Vec<u64>,
    /// `sym_rows[(t * n + row) << n | bits]`: image under symmetry `t` of
    /// the cells `bits` of row `row`.
    sym_rows: Vec<u64>,
    /// `sym_dirs[t][dirs]`: image of a direction set under symmetry `t`.
    sym_dirs: Vec<[u8; 256]>,
}

impl Geometry {
    /// Tables for an `n × n` board, `MIN_SIZE <= n <= MAX_SIZE`.
    pub fn new(n: usize) -> Geometry {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&n), "board side {n}");
        let cells = n * n;
        let full = (1u64 << cells) - 1;
        let mut col_mask = [0u64; MAX_SIZE];
        for (c, m) in col_mask.iter_mut().enumerate().take(n) {
            for r in 0..n {
                *m |= 1 << (r * n + c);
            }
        }
        let mut shl = [0; 8];
        let mut shr = [0; 8];
        let mut dest = [0; 8];
        for d in Dir::ALL {
            let (dr, dc) = d.delta();
            let delta = dr * n as i32 + dc;
            if delta > 0 {
                shl[d.index()] = delta as u32;
            } else {
                shr[d.index()] = (-delta) as u32;
            }
            // A step east must not land in column 0 (that would be a wrap
            // from the east edge), a step west not in the last column.
            dest[d.index()] = match dc {
                1 => full & !col_mask[0],
                -1 => full & !col_mask[n - 1],
                _ => full,
            };
        }
        let mut rays = vec![0u64; cells * 8];
        for cell in 0..cells {
            for d in Dir::ALL {
                let (dr, dc) = d.delta();
                let (mut r, mut c) = ((cell / n) as i32 + dr, (cell % n) as i32 + dc);
                while (0..n as i32).contains(&r) && (0..n as i32).contains(&c) {
                    rays[cell * 8 + d.index()] |= 1 << (r as usize * n + c as usize);
                    r += dr;
                    c += dc;
                }
            }
        }
        let mut stars = vec![0u64; cells * 256];
        for cell in 0..cells {
            for dirs in 0..256usize {
                let mut m = 1u64 << cell;
                for d in 0..8 {
                    if dirs & (1 << d) != 0 {
                        m |= rays[cell * 8 + d];
                    }
                }
                stars[cell * 256 + dirs] = m;
            }
        }
        let mut back_lines = vec![0u64; 8 * cells];
        for d in 0..8 {
            for cell in 0..cells {
                back_lines[d * cells + cell] = (1u64 << cell) | rays[cell * 8 + (d + 4) % 8];
            }
        }
        let mut sym_rows = vec![0u64; (8 * n) << n];
        let mut sym_dirs = vec![[0u8; 256]; 8];
        for t in 0..8 {
            for row in 0..n {
                for bits in 0..1usize << n {
                    let mut m = 0u64;
                    for col in 0..n {
                        if bits & (1 << col) != 0 {
                            let (r2, c2) = transform_rc(t, n, row, col);
                            m |= 1 << (r2 * n + c2);
                        }
                    }
                    sym_rows[((t * n + row) << n) | bits] = m;
                }
            }
            for (dirs, image) in sym_dirs[t].iter_mut().enumerate() {
                *image = Dir::ALL
                    .into_iter()
                    .filter(|d| dirs & (1 << d.index()) != 0)
                    .fold(0u8, |acc, d| acc | 1 << transform_dir(t, d).index());
            }
        }
        Geometry { n, full, shl, shr, dest, rays, stars, back_lines, sym_rows, sym_dirs }
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.n
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.n * self.n
    }

    /// Mask of all cells.
    #[inline]
    pub fn full(&self) -> u64 {
        self.full
    }

    /// Moves every cell of `g` one step in direction `d` (cells leaving the
    /// board vanish): one masked shift.
    #[inline(always)]
    pub fn step(&self, g: u64, d: usize) -> u64 {
        ((g << self.shl[d]) >> self.shr[d]) & self.dest[d]
    }

    /// The cells that seeds reach when the wind blows in direction `d`
    /// over `flowers`: every cell beyond a flower in that direction, up to
    /// the edge (the flower cells themselves are not included unless
    /// reached from another flower). `n − 1` masked shifts.
    #[inline(always)]
    pub fn spread(&self, flowers: u64, d: usize) -> u64 {
        let mut g = self.step(flowers, d);
        let mut acc = g;
        for _ in 2..self.n {
            g = self.step(g, d);
            acc |= g;
        }
        acc
    }

    /// Union of `spread` over every direction in the set `dirs`.
    pub fn spread_set(&self, flowers: u64, dirs: u8) -> u64 {
        let mut acc = 0;
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            acc |= self.spread(flowers, d);
        }
        acc
    }

    /// Cells strictly beyond `cell` in direction `d` (table lookup).
    #[inline]
    pub fn ray(&self, cell: usize, d: usize) -> u64 {
        self.rays[cell * 8 + d]
    }

    /// `cell` and its rays in every direction of the set `dirs`.
    #[inline(always)]
    pub fn star(&self, cell: usize, dirs: u8) -> u64 {
        self.stars[cell * 256 + dirs as usize]
    }

    /// `cell` and every cell from which seeds blown in `d` reach `cell`.
    #[inline(always)]
    pub fn back_line(&self, cell: usize, d: usize) -> u64 {
        self.back_lines[d * self.n * self.n + cell]
    }

    /// Image of a bitboard under symmetry `t` (0..8): one table lookup per row.
    #[inline(always)]
    pub fn transform(&self, t: usize, mask: u64) -> u64 {
        let n = self.n;
        let row_bits = (1u64 << n) - 1;
        let base = t * n;
        let mut out = 0;
        for row in 0..n {
            let bits = ((mask >> (row * n)) & row_bits) as usize;
            out |= self.sym_rows[((base + row) << n) | bits];
        }
        out
    }

    /// Image of a direction set under symmetry `t`.
    #[inline(always)]
    pub fn transform_dirs(&self, t: usize, dirs: u8) -> u8 {
        self.sym_dirs[t][dirs as usize]
    }

    /// Image of a cell under symmetry `t`.
    pub fn transform_cell(&self, t: usize, cell: Cell) -> Cell {
        let (r, c) = transform_rc(t, self.n, cell.row as usize, cell.col as usize);
        Cell::new(r, c)
    }
}

/// `Geometry::spread` without building the tables: the same masked shifts.
pub fn spread_on(n: usize, flowers: u64, d: Dir) -> u64 {
    let full = (1u64 << (n * n)) - 1;
    let (dr, dc) = d.delta();
    let delta = dr * n as i32 + dc;
    let west_col = (0..n).fold(0u64, |m, r| m | 1 << (r * n));
    let dest = match dc {
        1 => full & !west_col,
        -1 => full & !(west_col << (n - 1)),
        _ => full,
    };
    let step = |g: u64| {
        if delta > 0 {
            (g << delta) & dest
        } else {
            (g >> -delta) & dest
        }
    };
    let mut g = step(flowers);
    let mut acc = g;
    for _ in 2..n {
        g = step(g);
        acc |= g;
    }
    acc
}

/// Symmetry `t` of the square (0..8): `t & 4` mirrors east–west first,
/// then `t & 3` quarter turns clockwise. `t == 0` is the identity.
pub fn transform_rc(t: usize, n: usize, row: usize, col: usize) -> (usize, usize) {
    let (mut r, mut c) = (row, col);
    if t & 4 != 0 {
        c = n - 1 - c;
    }
    for _ in 0..t & 3 {
        (r, c) = (c, n - 1 - r);
    }
    (r, c)
}

/// Image of a direction under symmetry `t` (the same map applied to the
/// step vector: a mirror negates the column step, a clockwise quarter turn
/// sends `(dr, dc)` to `(dc, −dr)`).
pub fn transform_dir(t: usize, d: Dir) -> Dir {
    let (mut dr, mut dc) = d.delta();
    if t & 4 != 0 {
        dc = -dc;
    }
    for _ in 0..t & 3 {
        (dr, dc) = (dc, -dr);
    }
    Dir::from_delta((dr, dc)).expect("a symmetry maps directions to directions")
}
