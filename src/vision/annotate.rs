//! Drawing what the reader found over the picture it read: the lattice of cells and each cell's centre, so a
//! person can see at a glance whether the board was found where it is.

use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_cross_mut, draw_hollow_rect_mut};
use imageproc::rect::Rect;

use crate::game::CellLayout;

/// A copy of `image` with every cell of `layout` outlined and its centre marked.
pub fn annotate(image: &RgbaImage, layout: &CellLayout, colour: Rgba<u8>) -> RgbaImage {
    let mut out = image.clone();
    let side = layout.pitch.round().max(1.0) as u32;
    for row in 0..layout.rows {
        for col in 0..layout.cols {
            let x = (layout.origin_x + col as f64 * layout.pitch).round() as i32;
            let y = (layout.origin_y + row as f64 * layout.pitch).round() as i32;
            draw_hollow_rect_mut(&mut out, Rect::at(x, y).of_size(side, side), colour);
            let (cx, cy) = layout.centre(row, col);
            draw_cross_mut(&mut out, colour, cx, cy);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_every_cell_and_marks_its_centre() {
        let image = RgbaImage::from_pixel(60, 50, Rgba([0, 0, 0, 255]));
        let layout = CellLayout { rows: 2, cols: 3, origin_x: 5.0, origin_y: 5.0, pitch: 16.0 };
        let mark = Rgba([255, 0, 255, 255]);
        let out = annotate(&image, &layout, mark);
        assert_eq!(*out.get_pixel(5, 5), mark, "top-left corner of the lattice");
        assert_eq!(*out.get_pixel(5 + 48 - 1, 5 + 32 - 1), mark, "bottom-right corner");
        assert_eq!(*out.get_pixel(13, 13), mark, "centre of cell (0, 0)");
        assert_eq!(*out.get_pixel(9, 9), Rgba([0, 0, 0, 255]), "inside a cell, off the centre");
        assert_eq!(*out.get_pixel(58, 48), Rgba([0, 0, 0, 255]), "outside the lattice");
    }
}
