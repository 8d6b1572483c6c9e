//! What a picture showed over a while, pixel by pixel: the least and greatest value of each channel over a run of
//! captures, or its median (where an animation leaves it). A pixel of a later capture beyond that range (by more than a margin) shows something the watched
//! captures never did: a keyboard cursor arrived in a cell, whether it blinks (its cell showed both phases
//! while watched, and the cell it leaves shows its plain phase again) or not.

use image::RgbaImage;

/// How far (largest channel) beyond the range a pixel must lie to show something new: past the small shifts of
/// anti-aliased text redrawn in place.
pub const NEW_MARGIN: u8 = 40;

/// The range of each pixel's channels over a run of captures of one size.
#[derive(Clone, Debug)]
pub struct Extremes {
    width: u32,
    height: u32,
    low: Vec<[u8; 3]>,
    high: Vec<[u8; 3]>,
}

impl Extremes {
    /// The range of every pixel over `captures`; `None` where there are none, or they differ in size.
    pub fn over(captures: &[&RgbaImage]) -> Option<Extremes> {
        let first = captures.first()?;
        if captures.iter().any(|c| c.dimensions() != first.dimensions()) {
            return None;
        }
        let rgb = |p: &image::Rgba<u8>| [p[0], p[1], p[2]];
        let mut low: Vec<[u8; 3]> = first.pixels().map(rgb).collect();
        let mut high = low.clone();
        for capture in &captures[1..] {
            for (i, p) in capture.pixels().enumerate() {
                for c in 0..3 {
                    low[i][c] = low[i][c].min(p[c]);
                    high[i][c] = high[i][c].max(p[c]);
                }
            }
        }
        Some(Extremes { width: first.width(), height: first.height(), low, high })
    }

    /// Whether pixel (x, y) of `image` lies beyond the range by more than `margin` in some channel.
    pub fn beyond(&self, image: &RgbaImage, x: u32, y: u32, margin: u8) -> bool {
        if image.dimensions() != (self.width, self.height) || x >= self.width || y >= self.height {
            return true;
        }
        let i = (y * self.width + x) as usize;
        let p = image.get_pixel(x, y);
        (0..3).any(|c| p[c] < self.low[i][c].saturating_sub(margin) || p[c] > self.high[i][c].saturating_add(margin))
    }

    /// How many pixels of `image` in the rectangle `x0..x1` × `y0..y1` (clamped to the picture) lie beyond the
    /// range by more than `margin`; every pixel where the sizes differ.
    pub fn count_beyond(&self, image: &RgbaImage, (x0, y0, x1, y1): (u32, u32, u32, u32), margin: u8) -> usize {
        let (x1, y1) = (x1.min(self.width), y1.min(self.height));
        (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y))).filter(|&(x, y)| self.beyond(image, x, y, margin)).count()
    }
}

/// Each pixel's median over `captures` (channel by channel): what the picture shows where an animation leaves it —
/// a spark that passes a pixel in fewer than half of the captures is gone. `None` where there are none, or they
/// differ in size.
pub fn median(captures: &[&RgbaImage]) -> Option<RgbaImage> {
    let first = captures.first()?;
    if captures.iter().any(|c| c.dimensions() != first.dimensions()) {
        return None;
    }
    let mut out = (*first).clone();
    let mut values = Vec::with_capacity(captures.len());
    for (i, pixel) in out.pixels_mut().enumerate() {
        for c in 0..4 {
            values.clear();
            values.extend(captures.iter().map(|capture| capture.as_raw()[i * 4 + c]));
            values.sort_unstable();
            pixel[c] = values[values.len() / 2];
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A dark 8×4 picture with a light underline under column `at` (none where `None`).
    fn row(at: Option<u32>) -> RgbaImage {
        RgbaImage::from_fn(8, 4, |x, y| {
            if Some(x) == at && y == 3 {
                Rgba([230, 230, 230, 255])
            } else {
                Rgba([0, 0, 0, 255])
            }
        })
    }

    /// A cursor blinking at column 2 while watched: after it moves to column 3, column 3 shows what it never did,
    /// and column 2, back to its plain phase, nothing new.
    #[test]
    fn a_blinking_cursor_that_moved_shows_only_where_it_arrived() {
        let watched = Extremes::over(&[&row(Some(2)), &row(None), &row(Some(2))]).unwrap();
        let (moved, gone) = (row(Some(3)), row(None));
        assert!(watched.beyond(&moved, 3, 3, 20));
        assert!(!watched.beyond(&moved, 2, 3, 20), "the cell it left shows its plain phase");
        assert_eq!(watched.count_beyond(&gone, (0, 0, 8, 4), 20), 0);
        assert_eq!(watched.count_beyond(&moved, (0, 0, 8, 4), 20), 1);
        // A steady cursor: the cell it left shows what it never did too.
        let steady = Extremes::over(&[&row(Some(2)), &row(Some(2))]).unwrap();
        assert_eq!(steady.count_beyond(&moved, (0, 0, 8, 4), 20), 2);
        assert!(Extremes::over(&[]).is_none());
    }

    /// A mark in one capture of three is gone from their median; one in two of three stays.
    #[test]
    fn a_mark_passing_in_fewer_than_half_the_captures_is_not_in_their_median() {
        let (plain, at_2, at_3) = (row(None), row(Some(2)), row(Some(3)));
        assert_eq!(median(&[&at_2, &plain, &at_3]).unwrap(), plain);
        assert_eq!(median(&[&at_2, &plain, &at_2]).unwrap(), at_2);
        assert!(median(&[]).is_none());
    }
}
