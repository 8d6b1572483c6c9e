//! Deals: the `C1_C2_C3_C4` notation and the game's numbered-deal generator.
//!
//! # Notation
//!
//! Four groups separated by `_`, the columns from left to right. Each group lists a column from its top (most
//! buried) card to its playable card, one character per rank `A23456789TJQK`; the last character of a group is
//! the playable card. An empty group is an empty column (mid-game states).
//!
//! # Numbered deals
//!
//! Bit-exact with the game: `fmix64` seeds a xorshift128+ generator (shifts 23/17/26) that Fisher–Yates shuffles
//! a rank-only deck `deck[i] = i >> 2`; card `i` of the shuffled deck goes to column `3 - (i & 3)`, row
//! `12 - (i >> 2)` (row 0 = buried, row 12 = playable).

use std::fmt;

use super::cards::{Card, Rank};
use super::error::CribbageError;

/// Longest column: a full deal has 13 cards per column.
pub const MAX_COLUMN: usize = 13;

/// Four columns of cards, each listed from its buried end to its playable card (the last element).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Deal {
    pub columns: [Vec<Card>; 4],
}

impl Deal {
    /// Parses the `C1_C2_C3_C4` notation (surrounding whitespace ignored). Columns hold at most 13 cards and each
    /// rank appears at most 4 times.
    pub fn parse(text: &str) -> Result<Deal, CribbageError> {
        let groups: Vec<&str> = text.trim().split('_').collect();
        if groups.len() != 4 {
            return Err(CribbageError::ColumnCount { found: groups.len() });
        }
        let mut deal = Deal::default();
        for (i, group) in groups.iter().enumerate() {
            for ch in group.chars() {
                let rank = Rank::from_char(ch).ok_or(CribbageError::BadCard { column: i + 1, ch })?;
                deal.columns[i].push(Card::new(rank));
            }
            if deal.columns[i].len() > MAX_COLUMN {
                return Err(CribbageError::ColumnTooLong { column: i + 1, len: deal.columns[i].len() });
            }
        }
        check_rank_counts(deal.columns.iter().flatten())?;
        Ok(deal)
    }

    /// The `C1_C2_C3_C4` notation.
    pub fn notation(&self) -> String {
        self.to_string()
    }

    /// Cards left in the columns.
    pub fn card_count(&self) -> usize {
        self.columns.iter().map(Vec::len).sum()
    }
}

/// Fails when some rank appears more than 4 times among `cards`.
pub(super) fn check_rank_counts<'a>(cards: impl Iterator<Item = &'a Card>) -> Result<(), CribbageError> {
    let mut counts = [0usize; 13];
    for card in cards {
        counts[card.rank.index() as usize] += 1;
    }
    match counts.iter().position(|&n| n > 4) {
        Some(i) => Err(CribbageError::TooManyOfRank { rank: Rank::new(i as u8).unwrap().to_char(), count: counts[i] }),
        None => Ok(()),
    }
}

impl fmt::Display for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, column) in self.columns.iter().enumerate() {
            if i > 0 {
                f.write_str("_")?;
            }
            for card in column {
                write!(f, "{card}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Deal {
    type Err = CribbageError;
    fn from_str(s: &str) -> Result<Deal, CribbageError> {
        Deal::parse(s)
    }
}

/// MurmurHash3's 64-bit finaliser.
pub fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^= x >> 33;
    x
}

/// The game's xorshift128+ generator (shifts 23/17/26), seeded from the deal number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealRng {
    pub s0: u64,
    pub s1: u64,
}

impl DealRng {
    pub fn new(n: u64) -> DealRng {
        let s0 = fmix64(n);
        DealRng { s0, s1: fmix64(s0) }
    }

    pub fn next64(&mut self) -> u64 {
        let mut a = self.s0;
        let b = self.s1;
        self.s0 = b;
        a ^= a << 23;
        a ^= a >> 17;
        a ^= b;
        a ^= b >> 26;
        self.s1 = a;
        self.s0.wrapping_add(self.s1)
    }

    /// `lo + next64() mod (hi - lo)`.
    pub fn next(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next64() % (hi - lo)
    }
}

/// The shuffled rank-only deck of deal `n`.
pub fn shuffled_deck(n: u64) -> [Rank; 52] {
    let mut deck: [Rank; 52] = std::array::from_fn(|i| Rank::new((i >> 2) as u8).unwrap());
    let mut rng = DealRng::new(n);
    for j in (1..52).rev() {
        let k = rng.next(0, j as u64 + 1) as usize;
        deck.swap(j, k);
    }
    deck
}

/// Numbered deal `n` (the game numbers its deals from 1; `n = 0` is generated the same way).
pub fn deal(n: u64) -> Deal {
    let deck = shuffled_deck(n);
    let mut grid = [[Card::new(Rank::ACE); MAX_COLUMN]; 4];
    for (i, &rank) in deck.iter().enumerate() {
        grid[3 - (i & 3)][12 - (i >> 2)] = Card::new(rank);
    }
    Deal { columns: grid.map(|column| column.to_vec()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_words_deal_30() {
        let mut rng = DealRng::new(30);
        assert_eq!((rng.s0, rng.s1), (0xc068d3a0083b4330, 0x5e0a94b7e15aa1ba));
        assert_eq!(rng.next64(), 0xac70e74f761ea929);
        assert_eq!(rng.next64(), 0x9a02bc35c2bda48c);
        assert_eq!(rng.next64(), 0x99ccc56d1fe78978);
    }

    #[test]
    fn shuffled_deck_30() {
        let text: String = shuffled_deck(30).iter().map(|r| r.to_char()).collect();
        assert_eq!(text, "QKJ87647JAQQ8QT994T8KJ9K26533535A6J7975AT8KA2342264T");
    }

    #[test]
    fn known_deals() {
        let cases = [
            (1, "75AQJ9Q5723Q9_22K5A288KTKJT_7J5TAAK6884J6_T64399Q734643"),
            (30, "T2AA753K89Q78_44K5J359TTQ4J_6387656J4QA6K_22T9A32K98J7Q"),
            (969, "T5J4AK8T63744_K76JT58725A99_9JJT6AA3534Q2_688KQK3272QQ9"),
            (1031, "49Q6Q2QK5K39A_AJ58A3Q3T75JT_6T22T79J76827_6K5K484983A4J"),
        ];
        for (n, text) in cases {
            assert_eq!(deal(n).notation(), text, "deal {n}");
            assert_eq!(Deal::parse(text).unwrap(), deal(n));
        }
    }

    #[test]
    fn every_deal_is_a_deck() {
        for n in 1..200 {
            let d = deal(n);
            assert!(d.columns.iter().all(|c| c.len() == 13));
            check_rank_counts(d.columns.iter().flatten()).unwrap();
        }
    }

    #[test]
    fn parse_errors() {
        assert_eq!(Deal::parse("A_2_3"), Err(CribbageError::ColumnCount { found: 3 }));
        assert_eq!(Deal::parse("A_2_X_3"), Err(CribbageError::BadCard { column: 3, ch: 'X' }));
        assert_eq!(Deal::parse("AAAAA___"), Err(CribbageError::TooManyOfRank { rank: 'A', count: 5 }));
        assert_eq!(Deal::parse("23456789TJQK23_A__").unwrap_err(), CribbageError::ColumnTooLong { column: 1, len: 14 });
        let d = Deal::parse("a2__k_").unwrap();
        assert_eq!(d.notation(), "A2__K_");
    }
}
