//! Patches of flat colour: the pixels of a picture joined with their 4-neighbours where the two differ by at most
//! a step in every channel. A button, a card's face or a page's background is one patch; an edge, a line or a
//! step of shade between two faces parts them. Pixels are joined by the project's one union-find
//! ([`super::union_find`]); patches come out in reading order of their first pixel.

use image::RgbaImage;

use super::colour::max_diff;
use super::runs::Component;
use super::union_find::UnionFind;

/// A patch of flat colour: its bounds and pixel count, the sum of its pixels' colours, and whether it reaches the
/// picture's edge or touches a pixel left out of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patch {
    pub area: Component,
    pub sum: [u64; 3],
    pub touches_edge: bool,
    pub touches_left_out: bool,
}

impl Patch {
    /// Its mean colour.
    pub fn mean(&self) -> [u8; 3] {
        self.sum.map(|s| (s / self.area.pixels.max(1) as u64) as u8)
    }
}

/// The patches of flat colour among the pixels `kept(x, y, colour)` takes: 4-neighbours both kept and within
/// `step` of each other ([`max_diff`]) are one patch. In reading order of their first pixel.
pub fn flat_patches(image: &RgbaImage, step: u8, kept: impl Fn(usize, usize, [u8; 3]) -> bool) -> Vec<Patch> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let rgb = |i: usize| [raw[4 * i], raw[4 * i + 1], raw[4 * i + 2]];
    let mut keep = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            keep[y * w + x] = kept(x, y, rgb(y * w + x));
        }
    }
    let mut forest = UnionFind::new(w * h);
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !keep[i] {
                continue;
            }
            if x + 1 < w && keep[i + 1] && max_diff(rgb(i), rgb(i + 1)) <= step {
                forest.union(i, i + 1);
            }
            if y + 1 < h && keep[i + w] && max_diff(rgb(i), rgb(i + w)) <= step {
                forest.union(i, i + w);
            }
        }
    }
    const NONE: u32 = u32::MAX;
    let mut slot = vec![NONE; w * h];
    let mut patches: Vec<Patch> = Vec::new();
    for (y, x) in (0..h).flat_map(|y| (0..w).map(move |x| (y, x))) {
        let i = y * w + x;
        if !keep[i] {
            continue;
        }
        let root = forest.root(i);
        if slot[root] == NONE {
            slot[root] = patches.len() as u32;
            let area = Component { x0: x, y0: y, x1: x, y1: y, pixels: 0 };
            patches.push(Patch { area, sum: [0; 3], touches_edge: false, touches_left_out: false });
        }
        let p = &mut patches[slot[root] as usize];
        let a = &mut p.area;
        (a.x0, a.x1, a.y1) = (a.x0.min(x), a.x1.max(x), y);
        a.pixels += 1;
        for (sum, value) in p.sum.iter_mut().zip(rgb(i)) {
            *sum += value as u64;
        }
        p.touches_edge |= x == 0 || y == 0 || x + 1 == w || y + 1 == h;
        p.touches_left_out |= (x > 0 && !keep[i - 1])
            || (x + 1 < w && !keep[i + 1])
            || (y > 0 && !keep[i - w])
            || (y + 1 < h && !keep[i + w]);
    }
    patches
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two flat squares on a gradient: the gradient (steps of 2) is one patch, each square another, and a pixel
    /// left out parts nothing but marks the patches it touches.
    #[test]
    fn flat_faces_are_one_patch_each_and_a_gradient_is_one() {
        let image = RgbaImage::from_fn(40, 20, |x, y| {
            let in_square = |x0| (x0..x0 + 6).contains(&x) && (5..11).contains(&y);
            if in_square(5) {
                image::Rgba([200, 0, 0, 255])
            } else if in_square(25) {
                image::Rgba([0, 0, 200, 255])
            } else {
                image::Rgba([(x * 2) as u8, 100, 100, 255])
            }
        });
        let patches = flat_patches(&image, 3, |x, y, _| (x, y) != (39, 19));
        assert_eq!(patches.len(), 3, "{patches:?}");
        let background = patches[0];
        assert_eq!((background.area.x0, background.area.y0, background.area.x1, background.area.y1), (0, 0, 39, 19));
        assert!(background.touches_edge && background.touches_left_out);
        let red = patches[1];
        assert_eq!((red.area.x0, red.area.y0, red.area.width(), red.area.height(), red.area.pixels), (5, 5, 6, 6, 36));
        assert_eq!(red.mean(), [200, 0, 0]);
        assert!(!red.touches_edge && !red.touches_left_out);
        assert_eq!(patches[2].mean(), [0, 0, 200]);
    }
}
