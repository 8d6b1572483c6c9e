//! Drawing what the reader found over the picture it read: boxes around what it read (cells, cards) and the
//! points it would click, so a person can see at a glance whether the board was found where it is.

use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_cross_mut, draw_hollow_rect_mut};
use imageproc::rect::Rect;

use crate::game::Marks;

/// A copy of `image` with every box of `marks` outlined and every point marked with a cross.
pub fn annotate(image: &RgbaImage, marks: &Marks, colour: Rgba<u8>) -> RgbaImage {
    let mut out = image.clone();
    for &(x, y, w, h) in &marks.boxes {
        draw_hollow_rect_mut(&mut out, Rect::at(x, y).of_size(w.max(1), h.max(1)), colour);
    }
    for &(x, y) in &marks.points {
        draw_cross_mut(&mut out, colour, x, y);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_every_box_and_marks_every_point() {
        let image = RgbaImage::from_pixel(60, 50, Rgba([0, 0, 0, 255]));
        let marks = Marks { boxes: vec![(5, 5, 16, 16), (21, 5, 16, 16)], points: vec![(13, 13)] };
        let mark = Rgba([255, 0, 255, 255]);
        let out = annotate(&image, &marks, mark);
        assert_eq!(*out.get_pixel(5, 5), mark, "top-left corner of the first box");
        assert_eq!(*out.get_pixel(21 + 16 - 1, 5 + 16 - 1), mark, "bottom-right corner of the second box");
        assert_eq!(*out.get_pixel(13, 13), mark, "the point");
        assert_eq!(*out.get_pixel(9, 9), Rgba([0, 0, 0, 255]), "inside a box, off the point");
        assert_eq!(*out.get_pixel(58, 48), Rgba([0, 0, 0, 255]), "outside every box");
    }
}
