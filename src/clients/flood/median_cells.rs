//! Reading a Flood-It board whose cells are not flat — shaded by a gradient, textured, bevelled — where no colour
//! fills whole cells for the flat-colour readers to find. The lattice is found from the cells' edges (every
//! boundary between two cells changes the picture far more than a cell's inside, where a gradient or a texture
//! changes it a little: [`crate::vision::lattice::edges`]), and each cell is named by the median colour of its
//! middle. Cells drawn in one colour have medians within a few levels of each other wherever they stand (the
//! shading is the same for every cell), so the medians fall into groups: the board's colours.
//!
//! The reading checks itself: most of each cell's middle lies near its median (a cell is one colour, however
//! shaded); the colours are fewer than the cells and at least two; and a window read again must show the colours
//! of its first reading and no other.

use anyhow::{bail, Result};
use image::RgbaImage;

use super::discover;
use super::theme::PaletteTheme;
use crate::game::{CellLayout, Reading};
use crate::games::flood::board::FloodBoard;
use crate::vision::colour::{luminance, max_diff as distance, rgb_at};
use crate::vision::lattice::{self, Cue};

/// The name of a palette found from the cells' medians: a window first read so is read so again.
pub const THEME: &str = "found from the cells' medians";
/// Cell medians closer than this (largest channel difference) are one colour.
const SAME_COLOUR: u8 = 16;
/// How far (largest channel difference) a pixel of a cell's middle may be from its median and count as its colour
/// (a gradient across the cell, a texture's lighter strokes).
const SHADING: u8 = 48;
/// The share of a cell's middle that must be near its median.
const MIN_NEAR_MEDIAN: f64 = 0.85;
/// The fewest cells a board has each way.
const MIN_SIDE: usize = 3;
/// The board sides looked for.
const SIDES: std::ops::RangeInclusive<usize> = 3..=30;
/// The smallest cell side considered.
const MIN_CELL: f64 = 10.0;

/// Reads the board; `palette`: the colours of the window's first reading (its symbols), where there was one.
pub fn read(
    image: &RgbaImage,
    palette: Option<&PaletteTheme>,
    known: &[PaletteTheme],
    hint: Option<&CellLayout>,
) -> Result<(Reading<FloodBoard>, PaletteTheme)> {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let light: Vec<u8> = image.pixels().map(|p| luminance([p[0], p[1], p[2]])).collect();
    // A window read before is read with the lattice it showed then, where its cells still read so.
    let layout = match hint.filter(|layout| cell_medians(image, layout).is_ok()) {
        Some(layout) => layout.clone(),
        None => {
            let sides: Vec<usize> = SIDES.collect();
            let cue = Cue::Edges { light: &light, sizes: &sides, min_cell: MIN_CELL };
            grow(image, lattice::find(width, height, cue)?.layout)
        }
    };
    if layout.rows < MIN_SIDE || layout.cols < MIN_SIDE {
        bail!("the cells found make a board of {}×{} cells: too small to be one", layout.cols, layout.rows);
    }
    if let Some(side) = open_side(image, &layout) {
        bail!(
            "the board's {side} edge is not clear: beside its last cells lies neither a plain background nor the \
             picture's edge (something drawn over its cells?)"
        );
    }
    let medians = cell_medians(image, &layout)?;
    let palette = match palette {
        Some(palette) => palette.clone(),
        None => PaletteTheme {
            theme: THEME.into(),
            description: "colours of the cells' middles (their medians), found with no calibration".into(),
            ..discover::theme_of(group(&medians).into_iter().map(|rgb| (rgb, false)).collect(), known)
        },
    };
    let colours: Vec<(char, [u8; 3])> =
        palette.colours.iter().filter_map(|c| Some((c.symbol, c.rgb().ok()?))).collect();
    if colours.len() < 2 || colours.len() * 2 > medians.len() {
        bail!(
            "the cells' middles show {} colours for {} cells: no board of flat colours",
            colours.len(),
            medians.len()
        );
    }
    let mut text = String::new();
    let side = layout.cols;
    for (i, median) in medians.iter().enumerate() {
        let nearest = nearest_colour(&colours, *median);
        if nearest.0 > SAME_COLOUR {
            bail!(
                "cell (row {}, column {}) is coloured {}, no colour of the board's",
                i / side + 1,
                i % side + 1,
                crate::calibration::format_rgb(*median)
            );
        }
        // The cell's rim is its colour too, however shaded: nearer it than any other colour of the board (a cell
        // with a patch of another colour in its middle is no cell of one colour).
        let (row, col) = ((i / side) as f64, (i % side) as f64);
        let rim_colour = rim_median(image, &layout, row, col).map(|rim| nearest_colour(&colours, rim));
        if rim_colour.is_some_and(|(_, symbol)| symbol != nearest.1) {
            bail!(
                "cell (row {}, column {}) is coloured {} in its middle and otherwise around it: not one colour",
                i / side + 1,
                i % side + 1,
                crate::calibration::format_rgb(*median)
            );
        }
        text.push(nearest.1);
        if i % side == side - 1 {
            text.push('\n');
        }
    }
    let board = FloodBoard::parse(&text)?;
    Ok((Reading { board, layout, theme: palette.theme.clone() }, palette))
}

/// The median colour of each cell's middle (its central half each way), row by row; an error where a cell's middle
/// is not mostly one colour.
fn cell_medians(image: &RgbaImage, layout: &CellLayout) -> Result<Vec<[u8; 3]>> {
    let mut medians = Vec::with_capacity(layout.rows * layout.cols);
    for row in 0..layout.rows {
        for col in 0..layout.cols {
            let Some(median) = cell_median(image, layout, row as f64, col as f64) else {
                bail!("cell (row {}, column {}) is not one colour, however shaded", row + 1, col + 1);
            };
            medians.push(median);
        }
    }
    Ok(medians)
}

/// The median colour of the middle of the cell at (`row`, `col`) of the layout (either may lie outside it), where
/// that middle lies in the picture and is mostly one colour.
fn cell_median(image: &RgbaImage, layout: &CellLayout, row: f64, col: f64) -> Option<[u8; 3]> {
    let x0 = layout.origin_x + (col + 0.25) * layout.pitch_x;
    let y0 = layout.origin_y + (row + 0.25) * layout.pitch_y;
    let (x1, y1) = (x0 + layout.pitch_x / 2.0, y0 + layout.pitch_y / 2.0);
    if x0 < 0.0 || y0 < 0.0 || x1 >= image.width() as f64 || y1 >= image.height() as f64 {
        return None;
    }
    let pixels: Vec<[u8; 3]> = (y0.ceil() as u32..=y1.floor() as u32)
        .flat_map(|y| (x0.ceil() as u32..=x1.floor() as u32).map(move |x| (x, y)))
        .map(|(x, y)| rgb_at(image, x as usize, y as usize))
        .collect();
    if pixels.is_empty() {
        return None;
    }
    let median = channel_median(&pixels);
    let near = pixels.iter().filter(|p| distance(**p, median) <= SHADING).count();
    (near as f64 >= MIN_NEAR_MEDIAN * pixels.len() as f64).then_some(median)
}

/// The median colour of a cell's rim: the ring between its middle (the central half each way) and its outer tenth
/// each way (where lines, gaps and rounded corners are); `None` where the cell does not lie in the picture.
fn rim_median(image: &RgbaImage, layout: &CellLayout, row: f64, col: f64) -> Option<[u8; 3]> {
    let at = |r: f64, c: f64| (layout.origin_x + c * layout.pitch_x, layout.origin_y + r * layout.pitch_y);
    let (x0, y0) = at(row + 0.1, col + 0.1);
    let (x1, y1) = at(row + 0.9, col + 0.9);
    let (mx0, my0) = at(row + 0.25, col + 0.25);
    let (mx1, my1) = at(row + 0.75, col + 0.75);
    if x0 < 0.0 || y0 < 0.0 || x1 >= image.width() as f64 || y1 >= image.height() as f64 {
        return None;
    }
    let mut pixels = Vec::new();
    for y in y0.ceil() as u32..=y1.floor() as u32 {
        for x in x0.ceil() as u32..=x1.floor() as u32 {
            let (fx, fy) = (x as f64, y as f64);
            if fx >= mx0 && fx <= mx1 && fy >= my0 && fy <= my1 {
                continue;
            }
            pixels.push(rgb_at(image, x as usize, y as usize));
        }
    }
    if pixels.is_empty() {
        return None;
    }
    Some(channel_median(&pixels))
}

/// Each channel's median over some pixels (at least one).
fn channel_median(pixels: &[[u8; 3]]) -> [u8; 3] {
    std::array::from_fn(|c| {
        let mut channel: Vec<u8> = pixels.iter().map(|p| p[c]).collect();
        channel.sort_unstable();
        channel[channel.len() / 2]
    })
}

/// The board's colour nearest `rgb` (largest channel difference), and how near: `colours` holds at least two.
fn nearest_colour(colours: &[(char, [u8; 3])], rgb: [u8; 3]) -> (u8, char) {
    colours.iter().map(|&(symbol, c)| (distance(c, rgb), symbol)).min().expect("two colours")
}

/// The whole board from part of it: the lattice found may cover only some of the board's cells (the finder's
/// lattices of several sizes score alike on a board whose every boundary is alike). A row or column beside it
/// belongs to the board where every one of its cells is one colour, each a colour of the cells found (a row of
/// colour buttons below the board shows the background between them, which no cell has), and they are not all the
/// same colour (the background beside a board, a margin, is one colour throughout; a panel or text is not one
/// colour a cell). A board whose part found lacks a colour is not grown past it, and its open side says so.
fn grow(image: &RgbaImage, mut layout: CellLayout) -> CellLayout {
    let colours = cell_medians(image, &layout).map(|m| group(&m)).unwrap_or_default();
    let board_line = |layout: &CellLayout, cells: &mut dyn Iterator<Item = (f64, f64)>| {
        let medians: Option<Vec<[u8; 3]>> = cells.map(|(r, c)| cell_median(image, layout, r, c)).collect();
        medians.is_some_and(|m| {
            let of_the_board = |x: &[u8; 3]| colours.iter().any(|&c| distance(c, *x) <= SAME_COLOUR);
            m.iter().all(of_the_board) && m.iter().any(|&x| distance(x, m[0]) > SAME_COLOUR)
        })
    };
    loop {
        let (rows, cols) = (layout.rows as f64, layout.cols as f64);
        let row_of = |r: f64| (0..layout.cols).map(move |c| (r, c as f64));
        let col_of = |c: f64| (0..layout.rows).map(move |r| (r as f64, c));
        if board_line(&layout, &mut row_of(-1.0)) {
            layout.origin_y -= layout.pitch_y;
            layout.rows += 1;
        } else if board_line(&layout, &mut row_of(rows)) {
            layout.rows += 1;
        } else if board_line(&layout, &mut col_of(-1.0)) {
            layout.origin_x -= layout.pitch_x;
            layout.cols += 1;
        } else if board_line(&layout, &mut col_of(cols)) {
            layout.cols += 1;
        } else {
            return layout;
        }
    }
}

/// A side of the board beside which lies something other than a plain background (cells that each read one colour,
/// all alike: a margin, a panel, a line of text on it) or the picture's edge: the board may go on under something
/// drawn over it there, and a board read so could be a part of the board.
fn open_side(image: &RgbaImage, layout: &CellLayout) -> Option<&'static str> {
    let (rows, cols) = (layout.rows as f64, layout.cols as f64);
    let lines: [(&str, Vec<(f64, f64)>); 4] = [
        ("top", (0..layout.cols).map(|c| (-1.0, c as f64)).collect()),
        ("bottom", (0..layout.cols).map(|c| (rows, c as f64)).collect()),
        ("left", (0..layout.rows).map(|r| (r as f64, -1.0)).collect()),
        ("right", (0..layout.rows).map(|r| (r as f64, cols)).collect()),
    ];
    lines.into_iter().find_map(|(side, cells)| {
        // A cell whose middle does not lie whole in the picture: the board reaches the picture's edge (a strip
        // narrower than a cell, a status line, may lie between).
        let beyond_picture = |&(r, c): &(f64, f64)| {
            let (x0, y0) =
                (layout.origin_x + (c + 0.25) * layout.pitch_x, layout.origin_y + (r + 0.25) * layout.pitch_y);
            let (x1, y1) = (x0 + layout.pitch_x / 2.0, y0 + layout.pitch_y / 2.0);
            x0 < 0.0 || y0 < 0.0 || x1 >= image.width() as f64 || y1 >= image.height() as f64
        };
        if cells.iter().any(beyond_picture) {
            return None;
        }
        // Plain: three quarters of the cells beside the board read as one colour, the same (a line of text on the
        // background may stand beside a few).
        let medians: Vec<[u8; 3]> = cells.iter().filter_map(|&(r, c)| cell_median(image, layout, r, c)).collect();
        let most_alike = group_sizes(&medians).into_iter().max().unwrap_or(0);
        (most_alike * 4 < cells.len() * 3).then_some(side)
    })
}

/// The colours of the cells: medians within [`SAME_COLOUR`] of a group's first are that group, most frequent first.
fn group(medians: &[[u8; 3]]) -> Vec<[u8; 3]> {
    groups(medians).into_iter().map(|(rgb, _)| rgb).collect()
}

/// How many medians each group of [`group`] holds.
fn group_sizes(medians: &[[u8; 3]]) -> Vec<usize> {
    groups(medians).into_iter().map(|(_, n)| n).collect()
}

/// Each group's first colour and its count, most frequent first.
fn groups(medians: &[[u8; 3]]) -> Vec<([u8; 3], usize)> {
    let mut groups: Vec<([u8; 3], usize)> = Vec::new();
    for &median in medians {
        match groups.iter_mut().find(|(rgb, _)| distance(*rgb, median) <= SAME_COLOUR) {
            Some(group) => group.1 += 1,
            None => groups.push((median, 1)),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.1));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of `cells` colours drawn with a gradient across every cell and grey lines between them.
    fn shaded_board(cells: &[&str], palette: &[[u8; 3]], pitch: u32) -> RgbaImage {
        let side = cells.len() as u32;
        let margin = 30;
        let size = 2 * margin + side * pitch;
        RgbaImage::from_fn(size, size, |x, y| {
            if x < margin || y < margin || x >= margin + side * pitch || y >= margin + side * pitch {
                return image::Rgba([20, 22, 28, 255]);
            }
            let (cx, cy) = ((x - margin) / pitch, (y - margin) / pitch);
            let (ix, iy) = ((x - margin) % pitch, (y - margin) % pitch);
            if ix < 2 || iy < 2 {
                return image::Rgba([90, 90, 90, 255]);
            }
            let colour = palette[(cells[cy as usize].as_bytes()[cx as usize] - b'0') as usize];
            // lighter at the top left, darker at the bottom right: 30 levels across the cell
            let shade = ((ix + iy) * 30 / (2 * pitch)) as i32 - 15;
            let c = colour.map(|v| (v as i32 - shade).clamp(0, 255) as u8);
            image::Rgba([c[0], c[1], c[2], 255])
        })
    }

    #[test]
    fn a_board_of_shaded_cells_reads_by_its_cells_medians_and_again_with_its_colours() {
        let cells = ["0120", "1201", "2012", "0021"];
        let palette = [[220, 80, 110], [90, 110, 220], [230, 190, 70]];
        let image = shaded_board(&cells, &palette, 40);
        let (reading, found) = read(&image, None, &[], None).unwrap();
        let rows: Vec<String> = reading.board.to_string().lines().map(str::to_owned).collect();
        assert_eq!(rows.len(), 4);
        let code = |r: &str| -> String {
            let mut names = std::collections::HashMap::new();
            r.chars()
                .map(|c| {
                    {
                        let n = names.len();
                        *names.entry(c).or_insert(n)
                    }
                    .to_string()
                })
                .collect()
        };
        assert_eq!(code(&rows.concat()), code(&cells.concat()));
        assert_eq!((reading.layout.rows, reading.layout.cols), (4, 4));
        let (again, _) = read(&image, Some(&found), &[], Some(&reading.layout)).unwrap();
        assert_eq!(again.board, reading.board);
    }

    #[test]
    fn a_cell_with_a_patch_of_another_colour_in_its_middle_is_no_cell_of_one_colour() {
        let cells = ["0120", "1201", "2012", "0021"];
        let palette = [[220, 80, 110], [90, 110, 220], [230, 190, 70]];
        let mut image = shaded_board(&cells, &palette, 40);
        // cell (2, 2), from 30 + 2·40 = 110: its middle and more painted a colour of no cell
        for y in 118..144 {
            for x in 118..144 {
                image.put_pixel(x, y, image::Rgba([0x12, 0x34, 0x56, 255]));
            }
        }
        let error = read(&image, None, &[], None).unwrap_err();
        assert!(format!("{error:#}").contains("cell (row 3, column 3)"), "{error:#}");
    }

    #[test]
    fn a_picture_of_one_shaded_colour_is_no_board() {
        let image = shaded_board(&["0000", "0000", "0000", "0000"], &[[220, 80, 110]], 40);
        assert!(read(&image, None, &[], None).is_err());
    }
}
