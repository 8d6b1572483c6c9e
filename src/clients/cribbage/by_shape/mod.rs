//! The Cribbage Solitaire reader that needs no calibration: cards found by their shape, ranks named by what a
//! deal must be.
//!
//! **Cards.** A card is a light, nearly grey face (white, or shaded for cards that cannot be played; tinted more,
//! cream or a hovered card's yellow, where it is far from the felt's colour) with dark marks on it, and an edge
//! that sets it off from what it overlaps. Light felt is as light and grey as a face: where nothing else reads,
//! the felt's colour (the picture's commonest but for the darkest) is no face. The light faces are cut into *pieces*: the
//! patches of flat face (neighbours differing by little), each the part of one card that shows. A card's edge,
//! its outline, or a step of shade from another card's face is what ends a piece. Pieces inside another face's box
//! (the light parts of a face card's picture; a face covers a quarter of its box, and a light ring such as a
//! window's frame is none) are not cards; pieces that overlap and share both edges across are
//! one face a picture split. A *fan* is a chain of pieces that follow one another along it, no more than an
//! edge's width apart (or overlapping by a rounded corner's radius, where a strip's face reaches beside the next
//! card's corner), and share an edge across (a mark or picture may cut a piece short of the other): the
//! buried cards' strips, then the front card, which shows whole. Links are taken longest shared first. Fans run
//! down, up, right or left (a fan is turned where its whole card is at its start); a buried card shows the end
//! where its index is (its top left for fans down or right, its bottom right, upside down, for fans up or
//! left). Every card of a fan spans the fan's extent across. Cards drawn with no edge between them make one
//! *band* of face down a column: it is cut into its cards at the pitch its indexes start at down its left side
//! (else its right side, else its middle), the front card's own ink at that pitch left to the front card,
//! the last index being the front card's, which must be card-shaped (a piece of a card's height or a little more
//! is cut only at the long bands' pitch, and only where its front card is their fronts' size).
//!
//! **Places.** The card size is the size of front cards that covers the most of the picture (light text is
//! small). An empty place (an emptied column, an empty stack) is a card-sized ring of colour steps around
//! nothing light. The four columns are the most card-sized fans and places (between as many, the most cards)
//! whose buried ends start on one line (a column shown as one card may start on either line, at either end);
//! five on a line are four at one pitch and the stack. Columns are numbered by where the previous picture showed
//! them, else by the pitch (the least gap). A card-sized fan or place off that line is the stack, as a pile; else small light
//! patches of the card's proportions (a fifth to three quarters of its width) are the stack shown as a row of
//! small cards, in reading order; else the table does not show the stack.
//!
//! **Marks.** A card's rank mark is the leftmost ink shape (8-connected) of the first line of its index: the
//! shapes level with the topmost in its corner (the suit sign comes beside the rank or under it); where the
//! corner shows none, or its mark runs past the corner's side, across the card's whole top (an index printed at
//! the right or in the middle). A "1" with a
//! shape beside it is a "10". Ink that is not the index is left out: lines across the corner (the edge of the
//! card over it, which a mark may touch), lines longer than an index is (a picture's frame), small shapes in the
//! corners of the box (rounded edges). A mark much taller than the table's marks (their median) touches what is
//! under it, and is cut at its thinnest row.
//!
//! **Ranks.** The marks are named together ([`naming`]): marks drawn alike (the same rank in the same print)
//! are one rank, marks drawn differently are different ranks, and no rank is named more often than the deal has
//! room for. The common fonts' characters ([`FontGlyphs`]) are the first guess: the cards are first named by
//! them within the counts, then regrouped, until the groups hold still, each card to the group whose mean mark
//! it is nearest (within the counts). Each group then takes a different rank: the naming of least total font
//! distance ([`naming::name_groups`]). A group whose name the fonts decide by too little is an error naming its
//! cards. The stack's small cards (another print size) are named by the fonts alone, and leave that much less
//! room.
//!
//! In play, a column's cards that an earlier picture named (the opening names all 52 under the full deal's
//! counts, the surest naming there is) keep their names unless the picture plainly says otherwise: a column
//! only loses cards from its front.
//!
//! **The control that ends a stack** is a button labelled so: a patch of flat colour off the cards, wider than
//! tall, whose label reads STACK by the fonts' letters (either case; the button's own colour is its commonest
//! shade, a face shaded top to bottom being no one colour), one letter aside. A button whose label may mean it
//! but does not say so ("Clear", "Count", "Done", and nothing that says "Game", "Undo", …) is kept as a
//! candidate, tried first of the ways a person ends a stack where the table keeps one. Where none is, it is the one icon
//! button by the columns: a patch of flat colour about square, a sixth to half a card wide, within a card's
//! height of the columns, with a picture and no word on it; where there are several, or none, the table is taken
//! to end its stacks by itself (the play client checks that it does; where it keeps a stack that no card fits,
//! the ways a person ends one are tried, each proved by its effect: [`super::stack_end`]). A button that says
//! something else (New Game, Undo) is never taken for it. An icon is proved by what its click does: the stack
//! shown empty, or the total printed as 0; until then the move that clicked it is not taken as made.
//!
//! **Numbers printed as text** (a stack total, a score) are found off the cards ([`numbers`]): the last word of
//! each line of text, where it reads as a number by the common fonts' digits. Which is the total is not read
//! from the words beside it: the play loop's client learns it as the one that shows the rules' total after a card
//! is played.
//!
//! **Why it holds.** Nothing here is a colour or a size learned from one table: a face is whatever is light and
//! flat, a card's size is what its fans share, a column is what lines up with three others, a rank is what the
//! deal's counts and the table's own likeness make of the fonts' guesses, a control is what its label says or
//! the one icon by the columns, proved by its effect, and the total is the number that follows the rules' total.
//! What it does not know (which number is the score) it leaves to calibration or to watching the table.

mod cards;
mod control;
mod marks;
mod numbers;
mod places;
mod ranks;

use anyhow::{Context, Result};
use image::RgbaImage;

use self::cards::{fan_box, FaceLook, Fan};
use self::control::{candidate_controls, icon_control, labelled_buttons, middle, stack_control};
use self::marks::{card_mark, fan_cards, SeenCard};
use self::places::{column_anchors, layout};
use self::ranks::{name, rank_texts};
use super::naming;
use super::reading::{TablePoints, TableReading};
use crate::games::cribbage::{Card, Rank, State};
use crate::vision::font_glyphs::FontGlyphs;
use crate::vision::printed_number::NumberReader;
use crate::vision::runs::Component;

/// The theme name a reading with no calibration reports.
pub const THEME: &str = "by shape";

/// The rank marks of the common fonts, which a table read with no calibration is named by, and their letters,
/// which a control's label is read with.
pub struct RankShapes {
    fonts: FontGlyphs,
    letters: FontGlyphs,
    /// The common fonts' digits, for numbers printed as text (none where the font list has none).
    digits: Option<NumberReader>,
}

impl RankShapes {
    /// The fonts cards are printed in, as `root/card-fonts.toml` lists them (the common fonts and the serifs card
    /// corners are often set in), else those of `root/fonts.toml` (see [`FontGlyphs::load`]).
    pub fn load(root: &std::path::Path) -> Result<RankShapes> {
        let card_fonts = root.join("card-fonts.toml");
        let fonts = if card_fonts.exists() {
            FontGlyphs::load_list(&card_fonts, &rank_texts())?
        } else {
            FontGlyphs::load_texts(root, &rank_texts())?
        };
        let letters = FontGlyphs::load(root, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")?;
        Ok(RankShapes { fonts, letters, digits: NumberReader::load(root).ok() })
    }
}

/// The ranks a stack pile of `count` cards holds as far as the previous picture (`hint`) tells them, bottom
/// first: the previous stack's cards, where it held no more than `count` and the pile shows them all (more than
/// one card: a pile of one may be only the top), then the fronts the columns lost since (`counts`: how many
/// cards each holds now), where exactly one card was lost and one card added.
fn stack_known(hint: Option<&TablePoints>, counts: &[usize], count: usize) -> Vec<Option<Rank>> {
    let mut known = vec![None; count];
    let Some(hint) = hint.filter(|_| count > 0) else { return known };
    let before = hint.stack_ranks.as_deref().unwrap_or(&[]);
    let kept = if count > 1 && before.len() <= count { before.len() } else { 0 };
    known[..kept].iter_mut().zip(before).for_each(|(k, &r)| *k = Some(r));
    let lost: Vec<Rank> = match &hint.ranks {
        Some(columns) => (0..4).filter(|&c| counts[c] + 1 == columns[c].len()).map(|c| columns[c][counts[c]]).collect(),
        None => Vec::new(),
    };
    let added = if count > 1 { count - kept } else { 1 };
    if let ([card], 1) = (lost.as_slice(), added) {
        known[count - 1] = Some(*card);
    }
    known
}

/// Reads a table with no calibration (see the module doc): the columns and stack, and where to click. `hint` is
/// the previous reading's places, where there is one (it numbers the columns when one is emptied).
pub fn read(image: &RgbaImage, shapes: &RankShapes, hint: Option<&TablePoints>) -> Result<TableReading> {
    let mut first_error = None;
    for look in FaceLook::all() {
        match read_at(image, shapes, hint, look) {
            Ok(reading) => return Ok(reading),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.expect("lightness levels tried"))
}

fn read_at(image: &RgbaImage, shapes: &RankShapes, hint: Option<&TablePoints>, look: FaceLook) -> Result<TableReading> {
    let (fonts, letters) = (&shapes.fonts, &shapes.letters);
    let layout = layout(image, look, hint)?;
    // The fans' cards, seen twice where some mark stands much taller than the table's marks do (the median).
    let see = |mark_height: Option<usize>| -> Result<Vec<(String, Vec<SeenCard>)>> {
        let mut seen = Vec::new();
        for (c, fan) in layout.columns.iter().enumerate() {
            let cards = match fan {
                Some(fan) => {
                    fan_cards(image, fan, layout.card, mark_height).with_context(|| format!("column {}", c + 1))?
                }
                None => Vec::new(),
            };
            seen.push((format!("column {}", c + 1), cards));
        }
        if let Some(fan) = &layout.stack_pile {
            // (A pile whose buried cards show no index is read by its top card.)
            let cards = fan_cards(image, fan, layout.card, mark_height).or_else(|e| {
                let top = Fan { pieces: vec![*fan.front()], run: None, empty: false };
                fan_cards(image, &top, layout.card, mark_height).map_err(|_| e)
            });
            seen.push(("the stack".to_owned(), cards.context("the stack")?));
        }
        Ok(seen)
    };
    let mut piles = see(None)?;
    let mut heights: Vec<usize> = piles.iter().flat_map(|(_, cards)| cards.iter().map(|c| c.mark.ink_height)).collect();
    heights.sort_unstable();
    if let Some(&median) = heights.get(heights.len() / 2) {
        if heights.last().is_some_and(|&tallest| tallest * 100 > median * 135) {
            piles = see(Some(median))?;
        }
    }
    let counts: Vec<usize> = piles.iter().map(|(_, cards)| cards.len()).collect();
    let points: [Vec<(i32, i32)>; 4] = std::array::from_fn(|c| piles[c].1.iter().map(|card| card.point).collect());
    let seen: Vec<(String, SeenCard)> = piles
        .into_iter()
        .flat_map(|(place, cards)| {
            cards.into_iter().enumerate().map(move |(i, card)| (format!("card {} of {place}", i + 1), card))
        })
        .collect();
    // The stack's small cards: named on their own (their print is of another size), by the fonts alone.
    let mut room = [naming::PER_RANK; naming::RANKS];
    let mut row = Vec::new();
    for (i, small) in layout.stack_row.iter().enumerate() {
        let card = card_mark(image, small, false, (small.width(), small.height()), (1.0, 1.0), None)
            .with_context(|| format!("the stack's small card at ({}, {})", small.x0, small.y0))?;
        let named = name(fonts, &[(format!("the stack's small card {}", i + 1), &card)], &[None], &room)?;
        room[named[0].index() as usize] -= 1;
        row.push(Card::new(named[0]));
    }
    let cards: Vec<(String, &SeenCard)> = seen.iter().map(|(place, card)| (place.clone(), card)).collect();
    // The columns' cards the previous picture named: a column only loses cards from its front, so its cards that
    // are still there are where they were (where it holds no more cards than it did).
    let mut known: Vec<Option<Rank>> = counts
        .iter()
        .take(4)
        .enumerate()
        .flat_map(|(c, &count)| {
            let before = hint.and_then(|h| h.ranks.as_ref()).and_then(|r| r.get(c)).filter(|b| count <= b.len());
            (0..count).map(move |i| before.map(|b| b[i]))
        })
        .collect();
    // The stack's cards likewise: a stack only grows at its top (or is emptied), so the cards the previous picture
    // named are still under it; and the cards on top of those are the ones the columns lost, in the order the
    // columns lost them where one column lost one (the usual case: one move between two pictures).
    if let Some(&count) = counts.get(4) {
        known.extend(stack_known(hint, &counts[..4], count));
    }
    let mut ranks = name(fonts, &cards, &known, &room)?.into_iter();
    let columns: [Vec<Card>; 4] =
        std::array::from_fn(|c| (0..counts[c]).map(|_| Card::new(ranks.next().expect("a rank a card"))).collect());
    let (stack, stack_shown) = if layout.stack_pile.is_some() {
        ((0..counts[4]).map(|_| Card::new(ranks.next().expect("a rank a card"))).collect(), true)
    } else if !row.is_empty() {
        (row, true)
    } else {
        (Vec::new(), false)
    };
    let state = State::new(columns, stack, 0).context("the cards read are not a possible game position")?;
    let anchors = hint.and_then(|h| h.columns).or_else(|| column_anchors(&layout));
    // The control stays where it is, and a table shows one from the start or never: the previous picture's (or
    // none), else looked for.
    let cards: Vec<Component> = layout
        .columns
        .iter()
        .flatten()
        .chain(&layout.stack_pile)
        .map(fan_box)
        .chain(layout.stack_row.iter().copied())
        .collect();
    // And buttons that may end a stack though they do not say so, where none does: candidates, proved in play.
    let (next_stack, may_end_stack) = match hint {
        Some(h) => (h.next_stack, h.may_end_stack.clone()),
        None => {
            let buttons = labelled_buttons(image, layout.card, &cards, letters);
            let columns = layout.columns.iter().flatten().map(fan_box).reduce(|a, b| a.joined(&b));
            let next_stack = stack_control(&buttons)
                .or_else(|| columns.and_then(|columns| icon_control(image, layout.card, &cards, &columns, letters)));
            let candidates = if next_stack.is_none() { candidate_controls(&buttons) } else { Vec::new() };
            (next_stack, candidates)
        }
    };
    let ranks = Some(std::array::from_fn(|c| state.columns[c].iter().map(|card| card.rank).collect()));
    let stack_ranks = layout.stack_pile.is_some().then(|| state.stack.iter().map(|card| card.rank).collect());
    let stack_at = layout
        .stack_pile
        .as_ref()
        .map(|pile| middle(&fan_box(pile)))
        .or_else(|| layout.stack_row.iter().copied().reduce(|a, b| a.joined(&b)).map(|row| middle(&row)));
    let points = TablePoints {
        cards: points,
        next_stack,
        stack: stack_at,
        may_end_stack,
        card_width: layout.card.0,
        columns: anchors,
        ranks,
        stack_ranks,
        bands: layout.bands,
    };
    Ok(TableReading {
        state,
        points,
        theme: THEME.into(),
        stack_shown,
        stack_top_only: layout.stack_pile.is_some() && counts[4] == 1,
        // A table with no control for it can end a stack no other way (the play loop checks that it does).
        ends_stacks_itself: next_stack.is_none(),
        total: None,
        score: None,
        numbers: shapes.digits.as_ref().map_or_else(Vec::new, |digits| {
            // (Not the control: an icon's ink is no text.)
            let mut off: Vec<Component> = cards.clone();
            off.extend(next_stack.map(|(x, y)| {
                let r = layout.card.0 / 4;
                Component {
                    x0: (x as usize).saturating_sub(r),
                    y0: (y as usize).saturating_sub(r),
                    x1: x as usize + r,
                    y1: y as usize + r,
                    pixels: 0,
                }
            }));
            numbers::printed_numbers(image, &off, layout.card, digits)
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(i: u8) -> Rank {
        Rank::new(i).unwrap()
    }

    /// The previous picture's names: columns of ranks 1–3, 4, 5, 6 (front last) and a stack of 9, 10.
    fn hint() -> TablePoints {
        TablePoints {
            cards: Default::default(),
            next_stack: None,
            stack: None,
            may_end_stack: Vec::new(),
            card_width: 10,
            columns: None,
            ranks: Some([vec![rank(1), rank(2), rank(3)], vec![rank(4)], vec![rank(5)], vec![rank(6)]]),
            stack_ranks: Some(vec![rank(9), rank(10)]),
            bands: None,
        }
    }

    /// A stack only grows at its top: the cards under it keep their names, and the new top is the front the one
    /// column that lost a card lost; a pile of one card (maybe only the top) keeps only that.
    #[test]
    fn the_stack_keeps_its_names_and_its_new_top_is_the_card_a_column_lost() {
        let hint = hint();
        let r = |i| Some(rank(i));
        assert_eq!(stack_known(Some(&hint), &[2, 1, 1, 1], 3), vec![r(9), r(10), r(3)]);
        assert_eq!(stack_known(Some(&hint), &[3, 1, 1, 1], 2), vec![r(9), r(10)], "nothing played");
        assert_eq!(stack_known(Some(&hint), &[3, 0, 1, 1], 1), vec![r(4)], "a pile of one: the card played");
        assert_eq!(stack_known(Some(&hint), &[2, 0, 1, 1], 4), vec![r(9), r(10), None, None], "two cards lost");
        assert_eq!(stack_known(None, &[2, 1, 1, 1], 2), vec![None, None]);
        assert_eq!(stack_known(Some(&hint), &[3, 1, 1, 1], 0), vec![], "an empty place: no card to name");
        assert_eq!(stack_known(Some(&hint), &[2, 1, 1, 1], 0), vec![], "emptied as a card was played");
    }
}
