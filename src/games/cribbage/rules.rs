//! The rules engine: playable cards, the 31 limit, forced play, scoring, and replaying solution lines.
//!
//! # Rules
//!
//! Only the last (playable) card of each column can be played, onto a stack whose total (A = 1, 2–10 face value,
//! J/Q/K = 10) may never exceed 31. While any playable card fits, one must be played; only when none fits may a new
//! stack be started (total back to 0). Each card scores as it is played:
//! - first card of a stack is a Jack: +2;
//! - the total becomes exactly 15: +2, exactly 31: +2;
//! - the top 2, 3 or 4 cards have the same rank: +2, +6, +12;
//! - the top n cards (n = 3..7) are n distinct consecutive ranks in any order: +n, longest n only, Ace low only;
//! - 15/31 points add to set or run points of the same card; no go, last-card or clearing points.
//!
//! # Solution lines
//!
//! Column digits `1`–`4` (left to right) in play order, `_` where a new stack starts.

use super::cards::{Card, Rank};
use super::deal::{check_rank_counts, Deal};
use super::error::{CribbageError, IllegalMove};

/// The largest stack total.
pub const LIMIT: u32 = 31;

/// A move: play the playable card of a column (0-based), or start a new stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(usize),
    NewStack,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Play(c) => write!(f, "column {}", c + 1),
            Move::NewStack => write!(f, "NEXT STACK"),
        }
    }
}

impl Move {
    /// The solution-line character: `1`–`4` or `_`.
    pub fn to_char(self) -> char {
        match self {
            Move::Play(c) => char::from(b'1' + c as u8),
            Move::NewStack => '_',
        }
    }
}

/// A game position: the cards left in each column (buried end first, playable card last), the current stack
/// (bottom first) and the score so far.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    pub columns: [Vec<Card>; 4],
    pub stack: Vec<Card>,
    pub score: u32,
}

impl From<Deal> for State {
    fn from(deal: Deal) -> State {
        State { columns: deal.columns, stack: Vec::new(), score: 0 }
    }
}

impl From<&Deal> for State {
    fn from(deal: &Deal) -> State {
        State::from(deal.clone())
    }
}

impl State {
    /// A state from columns, a stack and a score, validated: columns of at most 13 cards, at most 4 cards of a
    /// rank among columns and stack together, stack total at most 31.
    pub fn new(columns: [Vec<Card>; 4], stack: Vec<Card>, score: u32) -> Result<State, CribbageError> {
        for (i, column) in columns.iter().enumerate() {
            if column.len() > super::deal::MAX_COLUMN {
                return Err(CribbageError::ColumnTooLong { column: i + 1, len: column.len() });
            }
        }
        check_rank_counts(columns.iter().flatten().chain(stack.iter()))?;
        let total: u32 = stack.iter().map(|c| c.value()).sum();
        if total > LIMIT {
            return Err(CribbageError::StackOver31 { total });
        }
        Ok(State { columns, stack, score })
    }

    /// The stack total.
    pub fn total(&self) -> u32 {
        self.stack.iter().map(|c| c.value()).sum()
    }

    /// The playable card of a column (0-based), if the column is not empty.
    pub fn playable(&self, column: usize) -> Option<Card> {
        self.columns[column].last().copied()
    }

    /// Cards left in the columns.
    pub fn cards_left(&self) -> usize {
        self.columns.iter().map(Vec::len).sum()
    }

    /// All cards played.
    pub fn is_over(&self) -> bool {
        self.cards_left() == 0
    }

    /// The first column (0-based) whose playable card fits the current total, with that card.
    fn first_fitting(&self) -> Option<(usize, Card)> {
        let total = self.total();
        (0..4).find_map(|c| self.playable(c).filter(|card| total + card.value() <= LIMIT).map(|card| (c, card)))
    }

    /// The legal moves: every column whose playable card fits; `NewStack` alone when none fits and cards remain;
    /// nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let total = self.total();
        let plays: Vec<Move> = (0..4)
            .filter(|&c| self.playable(c).is_some_and(|card| total + card.value() <= LIMIT))
            .map(Move::Play)
            .collect();
        if plays.is_empty() && !self.is_over() {
            vec![Move::NewStack]
        } else {
            plays
        }
    }

    /// Makes a move, returning the points it scored (added to `score`); an illegal move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<u32, IllegalMove> {
        let total = self.total();
        match mv {
            Move::NewStack => {
                if self.is_over() {
                    return Err(IllegalMove::NewStackAtEnd);
                }
                if let Some((c, card)) = self.first_fitting() {
                    return Err(IllegalMove::NewStackWhileFits { column: c + 1, card: card.rank.to_char(), total });
                }
                self.stack.clear();
                Ok(0)
            }
            Move::Play(c) => {
                let card = self.playable(c).ok_or(IllegalMove::EmptyColumn { column: c + 1 })?;
                if total + card.value() > LIMIT {
                    return Err(IllegalMove::Exceeds31 { column: c + 1, card: card.rank.to_char(), total });
                }
                self.columns[c].pop();
                self.stack.push(card);
                let points = top_card_points(&self.stack);
                self.score += points;
                Ok(points)
            }
        }
    }
}

/// The legal moves of a state (see [`State::legal_moves`]).
pub fn legal_moves(state: &State) -> Vec<Move> {
    state.legal_moves()
}

/// Makes a move (see [`State::play`]), returning the points scored.
pub fn play(state: &mut State, mv: Move) -> Result<u32, IllegalMove> {
    state.play(mv)
}

/// The points scored by the top card of `stack` when it was played onto the cards below it.
pub fn top_card_points(stack: &[Card]) -> u32 {
    let Some(&top) = stack.last() else { return 0 };
    let mut points = 0;
    if stack.len() == 1 && top.rank == Rank::JACK {
        points += 2;
    }
    let total: u32 = stack.iter().map(|c| c.value()).sum();
    if total == 15 || total == LIMIT {
        points += 2;
    }
    let same = stack.iter().rev().take_while(|c| c.rank == top.rank).count();
    points += match same {
        0 | 1 => 0,
        2 => 2,
        3 => 6,
        _ => 12,
    };
    for n in (3..=stack.len().min(7)).rev() {
        let mut ranks: Vec<u8> = stack[stack.len() - n..].iter().map(|c| c.rank.index()).collect();
        ranks.sort_unstable();
        if ranks.windows(2).all(|w| w[1] == w[0] + 1) {
            points += n as u32;
            break;
        }
    }
    points
}

/// Parses a solution line into moves (`1`–`4` and `_`; spaces are ignored).
pub fn parse_line(line: &str) -> Result<Vec<Move>, CribbageError> {
    line.chars()
        .enumerate()
        .filter(|(_, ch)| !ch.is_whitespace())
        .map(|(i, ch)| match ch {
            '1'..='4' => Ok(Move::Play(ch as usize - '1' as usize)),
            '_' => Ok(Move::NewStack),
            _ => Err(CribbageError::BadLineChar { pos: i + 1, ch }),
        })
        .collect()
}

/// Writes moves as a solution line.
pub fn line_text(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_char()).collect()
}

/// Replays a (possibly partial) line from a state, returning the state reached. Errors name the card of the
/// line (1-based) at which the line became illegal; a `_` is reported against the card that follows it.
pub fn replay(state: &State, line: &str) -> Result<State, CribbageError> {
    let mut state = state.clone();
    let mut card = 1;
    for mv in parse_line(line)? {
        state.play(mv).map_err(|reason| CribbageError::Illegal { card, reason })?;
        if matches!(mv, Move::Play(_)) {
            card += 1;
        }
    }
    Ok(state)
}

/// Replays a complete solution line from the deal and returns its score.
pub fn score_line(deal: &Deal, line: &str) -> Result<u32, CribbageError> {
    score_line_from(&State::from(deal), line)
}

/// Replays a complete line from a state and returns the final score (the state's score included).
pub fn score_line_from(state: &State, line: &str) -> Result<u32, CribbageError> {
    let end = replay(state, line)?;
    if !end.is_over() {
        let played = state.cards_left() - end.cards_left();
        return Err(CribbageError::Incomplete { played, left: end.cards_left() });
    }
    Ok(end.score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(text: &str) -> Vec<Card> {
        text.chars().map(|c| Card::new(Rank::from_char(c).unwrap())).collect()
    }

    /// Points of each card of `text` as played in order.
    fn points(text: &str) -> Vec<u32> {
        let cards = stack(text);
        (1..=cards.len()).map(|n| top_card_points(&cards[..n])).collect()
    }

    #[test]
    fn jack_first() {
        assert_eq!(points("J"), [2]);
        assert_eq!(points("5J"), [0, 2]); // 15, no jack bonus: not first
        assert_eq!(points("Q"), [0]);
    }

    #[test]
    fn fifteen_and_thirty_one() {
        assert_eq!(points("78"), [0, 2]);
        assert_eq!(points("KK"), [0, 2]); // a pair only
        assert_eq!(points("T5"), [0, 2]);
        assert_eq!(points("T5K6"), [0, 2, 0, 2]); // 15, then 31
    }

    #[test]
    fn sets() {
        assert_eq!(points("55"), [0, 2]);
        assert_eq!(points("555"), [0, 2, 8]); // three of a kind + 15
        assert_eq!(points("333"), [0, 2, 6]);
        assert_eq!(points("2222"), [0, 2, 6, 12]);
        assert_eq!(points("KQ"), [0, 0]);
        assert_eq!(points("JQ"), [2, 0]); // J-Q is no pair
        assert_eq!(points("2322"), [0, 0, 0, 2]); // only contiguous at the top
        assert_eq!(points("77A"), [0, 2, 2]); // 15 with nothing else
    }

    #[test]
    fn runs() {
        assert_eq!(points("345"), [0, 0, 3]);
        assert_eq!(points("534"), [0, 0, 3]); // any order
        assert_eq!(points("A32"), [0, 0, 3]);
        assert_eq!(points("QKA"), [0, 0, 0]); // Ace is low only
        assert_eq!(points("JQK"), [2, 0, 3]);
        assert_eq!(points("3453"), [0, 0, 3, 5]); // 4-5-3 is again a run of 3, + 15
        assert_eq!(points("34536"), [0, 0, 3, 5, 4]); // 4-5-3-6
        assert_eq!(points("3445"), [0, 0, 2, 0]); // broken by the duplicate
        assert_eq!(points("A2345"), [0, 0, 3, 4, 7]); // run of 5 plus 15
        assert_eq!(points("2A43"), [0, 0, 0, 4]); // longest run only (not 3 + 4)
        assert_eq!(points("7A2345"), [0, 0, 0, 3, 4, 5]); // the 7 is not part of it
        assert_eq!(points("A234567"), [0, 0, 3, 4, 7, 6, 7]); // run of 7 (total 28)
    }

    #[test]
    fn combined() {
        assert_eq!(points("456"), [0, 0, 5]); // run of 3 + 15
        assert_eq!(points("4T89"), [0, 0, 0, 5]); // 8-9-T run + 31
        assert_eq!(points("88T5"), [0, 2, 0, 2]); // pair; 31 alone
        assert_eq!(points("9877"), [0, 0, 3, 4]); // run; then pair + 31 (the run is broken)
        assert_eq!(points("J5"), [2, 2]); // jack first; 15
    }

    #[test]
    fn forced_play() {
        let deal = Deal::parse("K_K_K_5K").unwrap();
        // K K K = 30: nothing fits (K needs 10, total 30), `_` is legal; before that, `_` is illegal.
        assert_eq!(score_line(&deal, "123_44"), Ok(2 + 6 + 2));
        let err = score_line(&deal, "12_344").unwrap_err();
        assert_eq!(
            err,
            CribbageError::Illegal {
                card: 3,
                reason: IllegalMove::NewStackWhileFits { column: 3, card: 'K', total: 20 }
            }
        );
        assert_eq!(err.to_string(), "card 3: `_` while a card still fits (column 3's K on a total of 20)");
        let err = score_line(&deal, "1234").unwrap_err();
        assert_eq!(err.to_string(), "card 4: total would exceed 31 (column 4's K on a total of 30)");
        let err = score_line(&deal, "11").unwrap_err();
        assert_eq!(err.to_string(), "card 2: column 1 is empty");
        let err = score_line(&deal, "123_4").unwrap_err();
        assert_eq!(err.to_string(), "the line ends after 4 cards with 1 still in the columns");
        let err = score_line(&deal, "123_44_").unwrap_err();
        assert_eq!(err.to_string(), "card 6: `_` but no cards are left");
        assert!(matches!(score_line(&deal, "12x"), Err(CribbageError::BadLineChar { pos: 3, ch: 'x' })));
        let state = State::from(&deal);
        assert_eq!(state.legal_moves(), vec![Move::Play(0), Move::Play(1), Move::Play(2), Move::Play(3)]);
        let mid = replay(&state, "123").unwrap();
        assert_eq!(mid.legal_moves(), vec![Move::NewStack]);
        assert_eq!(mid.score, 8);
    }

    #[test]
    fn published_line_deal_30() {
        let deal = super::super::deal::deal(30);
        let line = "222_223_11233_134_42231_234_1424_124_11231414_233334_4413144_13";
        assert_eq!(score_line(&deal, line), Ok(109));
    }
}
