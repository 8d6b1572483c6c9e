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

/// Common names of colours, each with a typical rendering (a terminal's, a web palette's): what a person would call
/// a colour on the screen, to guess the key a game names it by.
const COLOUR_NAMES: [(&str, [u8; 3]); 14] = [
    ("red", [220, 30, 30]),
    ("orange", [255, 140, 0]),
    ("yellow", [230, 220, 30]),
    ("green", [30, 180, 50]),
    ("cyan", [0, 200, 210]),
    ("blue", [30, 70, 230]),
    ("purple", [130, 50, 180]),
    ("violet", [140, 80, 220]),
    ("magenta", [210, 30, 210]),
    ("pink", [250, 130, 200]),
    ("brown", [140, 80, 30]),
    ("white", [240, 240, 240]),
    ("grey", [128, 128, 128]),
    ("black", [15, 15, 15]),
];

/// The names of colours nearest `rgb` first (by distance to their typical rendering).
pub fn colour_names(rgb: [u8; 3]) -> Vec<&'static str> {
    let distance = |c: [u8; 3]| (0..3).map(|i| (c[i] as i32 - rgb[i] as i32).pow(2)).sum::<i32>();
    let mut names = COLOUR_NAMES.to_vec();
    names.sort_by_key(|&(_, c)| distance(c));
    names.into_iter().map(|(name, _)| name).collect()
}

#[cfg(test)]
mod colour_name_tests {
    use super::*;

    /// xterm's eight colours and a web palette's are named as a person names them.
    #[test]
    fn screen_colours_are_named_as_a_person_names_them() {
        let named = [
            ([205, 0, 0], "red"),
            ([0, 205, 0], "green"),
            ([205, 205, 0], "yellow"),
            ([0, 0, 238], "blue"),
            ([205, 0, 205], "magenta"),
            ([0, 205, 205], "cyan"),
            ([229, 229, 229], "white"),
            ([255, 165, 0], "orange"),
        ];
        for (rgb, name) in named {
            assert_eq!(colour_names(rgb)[0], name, "{rgb:?}");
        }
    }
}
