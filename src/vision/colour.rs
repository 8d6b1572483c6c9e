//! Small colour helpers shared by the readers: a pixel's RGB, the largest channel difference, luminance, and the
//! commonest colour of a set.

use std::collections::HashMap;

use image::RgbaImage;

/// The RGB of the pixel at (x, y).
pub fn rgb_at(image: &RgbaImage, x: usize, y: usize) -> [u8; 3] {
    let p = image.get_pixel(x as u32, y as u32);
    [p[0], p[1], p[2]]
}

/// The largest difference of one channel between two colours.
pub fn max_diff(a: [u8; 3], b: [u8; 3]) -> u8 {
    (0..3).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// Luminance (ITU-R BT.601 weights), 0–255.
pub fn luminance(p: [u8; 3]) -> u8 {
    ((p[0] as u32 * 299 + p[1] as u32 * 587 + p[2] as u32 * 114) / 1000) as u8
}

/// The commonest colour (ties go to the smallest), or `None` for no colours.
pub fn mode(colours: impl IntoIterator<Item = [u8; 3]>) -> Option<[u8; 3]> {
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for c in colours {
        *counts.entry(c).or_default() += 1;
    }
    counts.into_iter().max_by_key(|&(c, n)| (n, std::cmp::Reverse(c))).map(|(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_luminance_and_mode() {
        assert_eq!(max_diff([10, 200, 30], [12, 100, 30]), 100);
        assert_eq!(luminance([255, 255, 255]), 255);
        assert_eq!(luminance([0, 0, 0]), 0);
        assert_eq!(mode([[1, 1, 1], [2, 2, 2], [2, 2, 2]]), Some([2, 2, 2]));
        assert_eq!(mode([[3, 3, 3], [1, 1, 1]]), Some([1, 1, 1]), "a tie goes to the smallest");
        assert_eq!(mode(std::iter::empty()), None);
    }
}
