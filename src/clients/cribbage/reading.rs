//! What a Cribbage Solitaire table reads as, whichever reader read it (the calibrated one, [`super::reader`], or
//! the one by shape, [`super::by_shape`]): the position and where to click ([`TableReading`], [`TablePoints`]),
//! and the order the stack's small cards are read in.

use crate::games::cribbage::{Rank, State};
use crate::vision::runs::Component;

/// Where the bot can act on a table, in image pixels.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TablePoints {
    /// Per column, a point on each card's corner label, buried card first: the last is the playable card's.
    /// These points stay put as cards are played (a card's corner is in view from the moment it is uncovered),
    /// so after a column's front card is played the point before it is the new front's.
    pub cards: [Vec<(i32, i32)>; 4],
    /// The centre of the control that ends a stack (NEXT STACK), if the table has one.
    pub next_stack: Option<(i32, i32)>,
    /// The middle of the stack as the table shows it (its pile, its place, its row of small cards), where it does:
    /// a table with no control for it may end a stack on a click there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<(i32, i32)>,
    /// Buttons that may end a stack though their label does not say so ("Clear", "Count"), where no control
    /// does: each is tried, and proved by what its click does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub may_end_stack: Vec<(i32, i32)>,
    /// Card width in pixels.
    pub card_width: usize,
    /// Where each column stands (a point on its line of cards), where the reader places columns by what it saw
    /// rather than by calibration: the next picture's columns are numbered by it, so that an emptied column
    /// keeps its number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<[(i32, i32); 4]>,
    /// The ranks of each column's cards as this picture named them, buried card first, where the reader names
    /// cards with no calibration: the next picture's cards that are still in place are named so unless it plainly
    /// shows otherwise (a deal read whole at the opening, four of each rank, is the surest naming).
    #[serde(skip)]
    pub ranks: Option<[Vec<Rank>; 4]>,
    /// The ranks of the stack's cards as this picture named them, bottom first, where it shows the stack as a pile
    /// and the reader names cards with no calibration: the next picture's stack keeps them, and its new top card
    /// is the front a column lost.
    #[serde(skip)]
    pub stack_ranks: Option<Vec<Rank>>,
    /// How the reader with no calibration cut columns drawn with no edge between their cards: the next picture's
    /// short columns (the long ones gone) are cut the same way.
    #[serde(skip)]
    pub bands: Option<Bands>,
}

/// How a table's columns drawn as one band of face are cut into cards: the pitch of their strips and the front
/// card's size (width, height).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bands {
    pub pitch: usize,
    pub front: (usize, usize),
}

/// A table read from a picture: the game state (columns and stack; the score is not read) and where to click.
#[derive(Clone, Debug)]
pub struct TableReading {
    pub state: State,
    pub points: TablePoints,
    pub theme: String,
    /// Whether the picture shows the stack (else the state's stack is empty, and the position's own is known
    /// only where no card has been played).
    pub stack_shown: bool,
    /// The stack was read by its top card only: from a pile that shows one card (a table may show only its top
    /// card), or one whose buried cards show no index (fanned the way that hides it); what lies under it is not
    /// seen (the bot's own count says).
    pub stack_top_only: bool,
    /// The table ends stacks by itself: the theme says so, or the table shows no control that ends a stack
    /// (none found, none learned), so that a stack can end no other way; the play loop checks that it does.
    pub ends_stacks_itself: bool,
    /// The stack total and the score, where the table prints them as text and they were read.
    pub total: Option<u32>,
    pub score: Option<u32>,
    /// The numbers printed off the cards, each with a point on it, where the reader with no calibration found
    /// some (which of them is the total is learned in play).
    pub numbers: Vec<((i32, i32), u32)>,
}

/// Small cards in reading order: rows (cards whose tops are within half a card of the row's first, top to
/// bottom), each left to right.
pub(super) fn in_reading_order(mut cards: Vec<Component>) -> Vec<Component> {
    cards.sort_by_key(|c| (c.y0, c.x0));
    let mut rows: Vec<Vec<Component>> = Vec::new();
    for c in cards {
        match rows.last_mut() {
            Some(row) if c.y0 <= row[0].y0 + row[0].height() / 2 => row.push(c),
            _ => rows.push(vec![c]),
        }
    }
    rows.into_iter()
        .flat_map(|mut row| {
            row.sort_by_key(|c| c.x0);
            row
        })
        .collect()
}
