//! Connected components of "on" pixels, found by a union-find over each row's runs: a run is joined with the
//! runs of the next rows it overlaps. Gaps of up to `bridge` pixels (across and down) do not split a component,
//! so a board drawn with thin outlines between its cells is still one component.

use super::union_find::UnionFind;

/// A component: its bounds (inclusive) and how many of its pixels are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
    pub pixels: usize,
}

impl Component {
    pub fn width(&self) -> usize {
        self.x1 - self.x0 + 1
    }
    pub fn height(&self) -> usize {
        self.y1 - self.y0 + 1
    }
    /// Does it reach the edge of a `width`×`height` picture?
    pub fn touches_edge(&self, width: usize, height: usize) -> bool {
        self.x0 == 0 || self.y0 == 0 || self.x1 + 1 == width || self.y1 + 1 == height
    }
    /// Whether the two boxes share a pixel.
    pub fn overlaps(&self, other: &Component) -> bool {
        self.x0 <= other.x1 && other.x0 <= self.x1 && self.y0 <= other.y1 && other.y0 <= self.y1
    }
    /// The box covering both, and both's pixels.
    pub fn joined(&self, other: &Component) -> Component {
        Component {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
            pixels: self.pixels + other.pixels,
        }
    }
}

/// A horizontal run of on pixels (with bridged gaps inside it).
#[derive(Clone, Copy)]
struct Run {
    y: usize,
    x0: usize,
    x1: usize,
    pixels: usize,
}

/// The components of the on pixels of a `width`×`height` picture, where `on(y)` gives row y (one bool per
/// pixel). Components come in the order of their first run (top to bottom, left to right), as the union-find
/// ([`super::union_find`]) keeps the earlier root. With `bridge` 0,
/// runs join when they overlap in the next row (4-connectivity).
pub fn components<'a>(
    width: usize,
    height: usize,
    bridge: usize,
    mut row: impl FnMut(usize) -> &'a [bool],
) -> Vec<Component> {
    let mut runs: Vec<Run> = Vec::new();
    let mut row_starts = Vec::with_capacity(height + 1);
    for y in 0..height {
        row_starts.push(runs.len());
        let on = row(y);
        debug_assert_eq!(on.len(), width);
        let mut x = 0;
        while x < width {
            if !on[x] {
                x += 1;
                continue;
            }
            let mut run = Run { y, x0: x, x1: x, pixels: 0 };
            let mut last = x;
            while x < width && x <= last + bridge + 1 {
                if on[x] {
                    last = x;
                    run.pixels += 1;
                }
                x += 1;
            }
            run.x1 = last;
            x = last + 1;
            runs.push(run);
        }
    }
    row_starts.push(runs.len());
    let mut forest = UnionFind::new(runs.len());
    for y in 0..height {
        for next_y in y + 1..(y + bridge + 2).min(height) {
            let (mut i, mut j) = (row_starts[y], row_starts[next_y]);
            while i < row_starts[y + 1] && j < row_starts[next_y + 1] {
                let (a, b) = (runs[i], runs[j]);
                if a.x0 <= b.x1 + bridge && b.x0 <= a.x1 + bridge {
                    forest.union(i, j);
                }
                if a.x1 < b.x1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
        }
    }
    let mut index_of_root = vec![usize::MAX; runs.len()];
    let mut found: Vec<Component> = Vec::new();
    for (i, &r) in runs.iter().enumerate() {
        let root = forest.root(i);
        if index_of_root[root] == usize::MAX {
            index_of_root[root] = found.len();
            found.push(Component { x0: r.x0, y0: r.y, x1: r.x1, y1: r.y, pixels: 0 });
        }
        let c = &mut found[index_of_root[root]];
        c.x0 = c.x0.min(r.x0);
        c.x1 = c.x1.max(r.x1);
        c.y1 = c.y1.max(r.y);
        c.pixels += r.pixels;
    }
    found
}

/// Visits, once each, the on pixels 8-connected to the `seeds` in a `w`-wide mask (`on(i)` tells pixel i, row
/// major), marking them in `seen` (pixels already seen are not visited; seeds that are off are skipped).
pub fn flood8(
    w: usize,
    len: usize,
    seeds: impl IntoIterator<Item = usize>,
    on: impl Fn(usize) -> bool,
    seen: &mut [bool],
    mut visit: impl FnMut(usize),
) {
    let h = len / w;
    let mut stack: Vec<usize> = Vec::new();
    for seed in seeds {
        if !on(seed) || seen[seed] {
            continue;
        }
        seen[seed] = true;
        stack.push(seed);
        while let Some(i) = stack.pop() {
            visit(i);
            let (x, y) = (i % w, i / w);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let j = ny * w + nx;
                    if on(j) && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> (usize, Vec<Vec<bool>>) {
        (rows[0].len(), rows.iter().map(|r| r.chars().map(|c| c == '#').collect()).collect())
    }

    #[test]
    fn separates_and_joins_as_bridged() {
        let (w, on) = grid(&["##..#", "#...#", "..#..", "....."]);
        let found = components(w, on.len(), 0, |y| &on[y]);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0], Component { x0: 0, y0: 0, x1: 1, y1: 1, pixels: 3 });
        assert_eq!(found[1], Component { x0: 4, y0: 0, x1: 4, y1: 1, pixels: 2 });
        let bridged = components(w, on.len(), 2, |y| &on[y]);
        assert_eq!(bridged.len(), 1);
        assert_eq!(bridged[0].pixels, 6);
        assert!(bridged[0].touches_edge(w, on.len()));
    }

    #[test]
    fn flood8_joins_diagonal_neighbours_only_from_its_seeds() {
        let rows = ["#....", ".#..#", "..#.#", "....."];
        let (w, on) = grid(&rows);
        let flat: Vec<bool> = on.concat();
        let mut seen = vec![false; flat.len()];
        let mut visited = Vec::new();
        flood8(w, flat.len(), [0, 3], |i| flat[i], &mut seen, |i| visited.push(i));
        visited.sort_unstable();
        assert_eq!(visited, vec![0, 6, 12], "the diagonal from the corner; the off seed 3 is skipped");
        assert!(!seen[9] && !seen[14], "the other mark is not reached");
    }
}
