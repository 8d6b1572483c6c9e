//! Ranks and cards. Suits are cosmetic in Cribbage Solitaire and play no part in the rules.

use std::fmt;

/// A card rank, Ace (0) to King (12). Ace is low only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const ACE: Rank = Rank(0);
    pub const JACK: Rank = Rank(10);
    pub const QUEEN: Rank = Rank(11);
    pub const KING: Rank = Rank(12);

    /// The rank with index `i` (0 = Ace … 12 = King), if in range.
    pub fn new(i: u8) -> Option<Rank> {
        (i < 13).then_some(Rank(i))
    }

    /// 0 = Ace … 12 = King.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Value towards the stack total: Ace 1, 2–10 face value, J/Q/K 10.
    pub fn value(self) -> u32 {
        u32::from(self.0 + 1).min(10)
    }

    /// The notation character, one of `A23456789TJQK`.
    pub fn to_char(self) -> char {
        RANK_CHARS[self.0 as usize] as char
    }

    /// Parses one of `A23456789TJQK` (case-insensitive).
    pub fn from_char(c: char) -> Option<Rank> {
        let up = c.to_ascii_uppercase();
        RANK_CHARS.iter().position(|&b| b as char == up).map(|i| Rank(i as u8))
    }

    /// All thirteen ranks, Ace first.
    pub fn all() -> impl Iterator<Item = Rank> {
        (0..13).map(Rank)
    }
}

/// Rank characters in rank order.
pub const RANK_CHARS: &[u8; 13] = b"A23456789TJQK";

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// A playing card. Only the rank matters to the rules (suits are cosmetic), so a card is its rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub rank: Rank,
}

impl Card {
    pub fn new(rank: Rank) -> Card {
        Card { rank }
    }

    /// Value towards the stack total (see [`Rank::value`]).
    pub fn value(self) -> u32 {
        self.rank.value()
    }
}

impl From<Rank> for Card {
    fn from(rank: Rank) -> Card {
        Card { rank }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rank.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_chars() {
        let values: Vec<u32> = Rank::all().map(Rank::value).collect();
        assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
        let text: String = Rank::all().map(Rank::to_char).collect();
        assert_eq!(text, "A23456789TJQK");
        assert_eq!(Rank::from_char('q'), Some(Rank::QUEEN));
        assert_eq!(Rank::from_char('1'), None);
        assert_eq!(Rank::new(13), None);
    }
}
