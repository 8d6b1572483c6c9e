//! How a Sudoku entry becomes input: click the cell, then type its digit (a letter from 10 on, as sgt-solo
//! takes them).

use crate::game::{Action, CellLayout};
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_for_values_beyond_nine_are_letters() {
        assert_eq!(key_for(7), '7');
        assert_eq!(key_for(10), 'a');
        assert_eq!(key_for(16), 'g');
    }
}
