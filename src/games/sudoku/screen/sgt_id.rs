//! sgt-solo game IDs: `RxC:description`, R×C being the box shape (rows × columns of cells in a box; the grid is
//! (R·C)×(R·C)). The description lists cells row-major: a decimal number is a given, a lower-case letter is a
//! run of 1–26 empty cells (`a` = 1, `z` = 26), and `_` separates two adjacent givens.

use anyhow::{bail, Context, Result};

use super::board::SudokuGrid;

/// Parses a game ID into a grid of its givens.
pub fn parse_id(id: &str) -> Result<SudokuGrid> {
    let id = id.trim();
    let (params, desc) = id.split_once(':').with_context(|| format!("'{id}' is not an sgt-solo game ID (RxC:description)"))?;
    let (r, c) = params.split_once('x').with_context(|| format!("'{params}' is not a box shape RxC"))?;
    let box_rows: usize = r.parse().with_context(|| format!("'{params}': '{r}' is not a number of rows"))?;
    let box_cols: usize = c.parse().with_context(|| {
        format!("'{params}': only plain RxC Sudoku is supported (not jigsaw, killer or X variants)")
    })?;
    if !(1..=5).contains(&box_rows) || !(1..=5).contains(&box_cols) || box_rows * box_cols > 16 || box_rows * box_cols < 2 {
        bail!("'{params}': a box of {box_rows}×{box_cols} is not supported (the grid side must be 2 to 16)");
    }
    let mut grid = SudokuGrid::empty(box_rows, box_cols);
    let n = grid.size;
    let mut i = 0usize;
    let mut chars = desc.chars().peekable();
    let mut after_given = false;
    while let Some(ch) = chars.next() {
        match ch {
            'a'..='z' => {
                i += (ch as u8 - b'a' + 1) as usize;
                after_given = false;
            }
            '_' if after_given => after_given = false,
            '0'..='9' => {
                let mut number = ch.to_digit(10).expect("digit");
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    number = number * 10 + d;
                    chars.next();
                }
                if number == 0 || number as usize > n {
                    bail!("given {number} at cell {i} is out of range 1..={n}");
                }
                if i >= n * n {
                    bail!("the description has more than {} cells", n * n);
                }
                grid.cells[i] = number as u8;
                grid.given[i] = true;
                i += 1;
                after_given = true;
            }
            _ => bail!("unexpected '{ch}' in the description"),
        }
    }
    if i != n * n {
        bail!("the description covers {i} cells; a {n}×{n} grid has {}", n * n);
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sgt_solo_ids() {
        let g = parse_id("2x2:e3a4_4a1e").unwrap();
        assert_eq!((g.size, g.box_rows, g.box_cols), (4, 2, 2));
        assert_eq!(g.board_text(), "....\n.3.4\n4.1.\n....\n");
        assert!(g.given[5] && !g.given[4]);
        let g = parse_id("2x3:a4c1c4_2b6_5b2_2b1_5b5_6c4c6a").unwrap();
        assert_eq!((g.box_rows, g.box_cols), (2, 3));
        assert_eq!(g.board_text().lines().next().unwrap(), ".4...1");
        let g = parse_id("4x4:a3_16c9d10b4a6g14_9_1c5_16_1d5_4_13b8_11_14_15c2b11b3_15b4d14a15_6_2f7_9_11b11b9a10_16_14a15b6_13a1_13a2c6_5_9_12a14e4_1d15a6a16a12a7_5a8a7a2a6d14_13e10a13_16_7_8c6a15_7a6_4b14a1_16_9a10b12b9_3_15f13_5_8a4d4b1_16b9b8c3_8_13_16b12_5_14d6_15_9c14_8_10g2a14b6d4c5_1a").unwrap();
        assert_eq!(g.size, 16);
        assert_eq!(&g.board_text()[..17], ".3G...9....A..4.\n");
    }

    #[test]
    fn refuses_bad_ids() {
        for bad in ["", "3x3", "3x3:b", "2x2:e3a4_4a1f", "2x2:e5a4_4a1e", "3x3j:a", "2x2:e3a4__4a1e", "9x9:a", "2x2:e3a4_4a1e!"] {
            assert!(parse_id(bad).is_err(), "{bad}");
        }
    }
}
