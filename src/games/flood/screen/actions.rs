//! How a Flood-It move becomes input: a click on a cell of the chosen colour, next to the flood where there is
//! one (the cell the move absorbs), so that a client that floods from the clicked cell's colour plays it.

use std::collections::VecDeque;

use super::super::board::FloodBoard;

/// The cell to click to play `colour`: one of that colour touching the flood (the region the move absorbs),
/// else any of that colour outside the flood; `None` when no cell outside the flood has that colour.
pub fn target_cell(board: &FloodBoard, colour: u8) -> Option<(usize, usize)> {
    let (w, h) = (board.width, board.height);
    let inside = flood_region(board);
    let touches = |i: usize| {
        let (r, c) = (i / w, i % w);
        (r > 0 && inside[i - w])
            || (r + 1 < h && inside[i + w])
            || (c > 0 && inside[i - 1])
            || (c + 1 < w && inside[i + 1])
    };
    let of_colour = || (0..w * h).filter(|&i| board.cells[i] == colour && !inside[i]);
    of_colour().find(|&i| touches(i)).or_else(|| of_colour().next()).map(|i| (i / w, i % w))
}

/// The cells of the flood (the region connected to the start cell), as a mask.
fn flood_region(board: &FloodBoard) -> Vec<bool> {
    let (w, h) = (board.width, board.height);
    let mut inside = vec![false; w * h];
    let colour = board.cells[board.start];
    let mut queue = VecDeque::from([board.start]);
    inside[board.start] = true;
    while let Some(i) = queue.pop_front() {
        let (r, c) = (i / w, i % w);
        let neighbours =
            [(r > 0).then(|| i - w), (r + 1 < h).then(|| i + w), (c > 0).then(|| i - 1), (c + 1 < w).then(|| i + 1)];
        for n in neighbours.into_iter().flatten() {
            if !inside[n] && board.cells[n] == colour {
                inside[n] = true;
                queue.push_back(n);
            }
        }
    }
    inside
}
