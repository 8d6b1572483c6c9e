//! How a Flood-It move becomes input: a click on a cell of the chosen colour, next to the flood where there is
//! one (the cell the move absorbs), so that a client that floods from the clicked cell's colour plays it; or the
//! same cell chosen with a keyboard cursor.

use std::collections::VecDeque;

use crate::game::{Action, Key, Way};
use crate::games::flood::board::FloodBoard;

/// The ways a Flood-It client takes a pick, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloodWay {
    /// A click on a cell of the colour outside the flood (the usual way).
    CellClick,
    /// A click on the colour's button (candidates until one is seen to play the colour).
    ColourButton,
    /// The same cell chosen with the keyboard cursor, and Enter.
    CursorKeys,
    /// A number key (tried in turn until one is seen to play the colour).
    NumberKey,
    /// The initial letter of the colour's name (the names nearest its colour tried in turn until one is seen to
    /// play it), as a terminal game names its keys.
    LetterKey,
    /// The key printed on the colour's swatch (a letter or a digit, read by the fonts), until a press is seen to
    /// play the colour. Tried right after the colour buttons; declared last so that the other ways keep their
    /// numbers in recordings.
    PrintedKey,
    /// The same cell chosen with the keyboard cursor, and Space (a client that picks with Space alone).
    CursorSpace,
}

impl Way for FloodWay {
    const USUAL: FloodWay = FloodWay::CellClick;

    fn next(self) -> Option<FloodWay> {
        match self {
            FloodWay::CellClick => Some(FloodWay::ColourButton),
            FloodWay::ColourButton => Some(FloodWay::PrintedKey),
            FloodWay::PrintedKey => Some(FloodWay::CursorKeys),
            FloodWay::CursorKeys => Some(FloodWay::CursorSpace),
            FloodWay::CursorSpace => Some(FloodWay::NumberKey),
            FloodWay::NumberKey => Some(FloodWay::LetterKey),
            FloodWay::LetterKey => None,
        }
    }

    fn number(self) -> usize {
        self as usize
    }
}

/// The keys that move a keyboard cursor to cell (`row`, `col`) of a `width` × `height` board from wherever it is,
/// and choose it: the cursor is first driven into the top-left corner (a key more than the board is wide and
/// high, so that a first key that only shows the cursor still gets there; the cursor stops at the board's
/// edge), then right and down to the cell, then `pick` (Enter, or Space typed). No cursor position is tracked
/// between moves, so a cursor the user moved, or one a client puts back after a move, changes nothing.
pub fn cursor_keys(width: usize, height: usize, (row, col): (usize, usize), pick: Action) -> Vec<Action> {
    let mut keys = Vec::new();
    keys.extend(std::iter::repeat_n(Action::Key(Key::Left), width));
    keys.extend(std::iter::repeat_n(Action::Key(Key::Up), height));
    keys.extend(std::iter::repeat_n(Action::Key(Key::Right), col));
    keys.extend(std::iter::repeat_n(Action::Key(Key::Down), row));
    keys.push(pick);
    keys
}

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
