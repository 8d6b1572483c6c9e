//! How a Sudoku entry becomes input: click the cell, then type its digit (a letter from 10 on, as sgt-solo
//! takes them); or, in a client that takes only keys, move its keyboard cursor there and type the digit.

use crate::game::{Action, CellLayout, Key};
use crate::games::sudoku::{symbol, Entry};

/// The key that enters a value in sgt-solo: the digit, or a lower-case letter from 10 on.
pub fn key_for(value: u8) -> char {
    symbol(value).to_ascii_lowercase()
}

/// The input that makes `entry` on a grid laid out as `layout`.
pub fn click_and_type(layout: &CellLayout, entry: &Entry) -> Vec<Action> {
    let (x, y) = layout.centre(entry.row, entry.col);
    vec![Action::Click { x, y }, Action::Type(key_for(entry.value))]
}

/// The keys that move a client's keyboard cursor one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorKeys {
    Arrows,
    /// h, j, k, l: left, down, up, right (vi's, as curses programs take them).
    Vi,
}

impl CursorKeys {
    /// The way's name in the log.
    pub fn name(self) -> &'static str {
        match self {
            CursorKeys::Arrows => "the keyboard cursor moved with the arrow keys",
            CursorKeys::Vi => "the keyboard cursor moved with h/j/k/l",
        }
    }

    /// The keys that move the cursor from cell `from` to cell `to` (row, column): up or down, then across; no
    /// wrapping at the edges (a client's cursor may stop there or wrap), so the path is the same either way.
    pub fn path(self, from: (usize, usize), to: (usize, usize)) -> Vec<Action> {
        let (up, down, left, right) = match self {
            CursorKeys::Arrows => {
                (Action::Key(Key::Up), Action::Key(Key::Down), Action::Key(Key::Left), Action::Key(Key::Right))
            }
            CursorKeys::Vi => (Action::Type('k'), Action::Type('j'), Action::Type('h'), Action::Type('l')),
        };
        let vertical = if to.0 < from.0 { up } else { down };
        let across = if to.1 < from.1 { left } else { right };
        let mut keys = vec![vertical; from.0.abs_diff(to.0)];
        keys.extend(std::iter::repeat_n(across, from.1.abs_diff(to.1)));
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_path_goes_up_or_down_then_across() {
        let path = CursorKeys::Arrows.path((4, 6), (1, 2));
        assert_eq!(path[..3], vec![Action::Key(Key::Up); 3]);
        assert_eq!(path[3..], vec![Action::Key(Key::Left); 4]);
        assert_eq!(CursorKeys::Vi.path((0, 0), (2, 1)), [Action::Type('j'), Action::Type('j'), Action::Type('l')]);
        assert!(CursorKeys::Vi.path((3, 3), (3, 3)).is_empty());
    }

    #[test]
    fn keys_for_values_beyond_nine_are_letters() {
        assert_eq!(key_for(7), '7');
        assert_eq!(key_for(10), 'a');
        assert_eq!(key_for(16), 'g');
    }
}
