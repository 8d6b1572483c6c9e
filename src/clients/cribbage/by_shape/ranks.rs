//! Ranks (see **Ranks.** in the module doc of [`super`]): the marks grouped by likeness and the groups named
//! together by the fonts' distances and the deal's room.

use anyhow::{bail, Context, Result};

use super::marks::{Mark, SeenCard};
use crate::clients::cribbage::naming;
use crate::games::cribbage::Rank;
use crate::vision::font_glyphs::FontGlyphs;
use crate::vision::glyph::{Glyph, Weights};
use crate::vision::labelling::Classes;

/// How much each measure weighs in how far apart two marks of one table are: their shapes and aspects as the
/// fonts' ([`Weights::SHAPE`]), and their heights relative to the card's width (one table prints every rank at one
/// size).
const TABLE_WEIGHTS: Weights = Weights { height: 4.0, ..Weights::SHAPE };

/// How far apart two marks of a table are.
fn mark_distance(a: &Mark, b: &Mark) -> f64 {
    a.glyph.distance(&b.glyph, &TABLE_WEIGHTS)
}

/// The mean of some marks.
fn mean_mark(marks: &[&Mark]) -> Mark {
    let n = marks.len() as f64;
    Mark {
        glyph: Glyph::mean(marks.iter().map(|m| &m.glyph)),
        ink_height: (marks.iter().map(|m| m.ink_height).sum::<usize>() as f64 / n).round() as usize,
    }
}

/// The marks grouped by likeness as a deal allows (at most `room[rank]` in a group): first as the fonts name
/// them (each card its nearest rank, within the counts), then, until the groups hold still, each card to the
/// group whose mean mark it is nearest (a group with no card yet by the fonts' distance), within the counts.
/// The groups are what this table's print says is alike; which rank each is, is named after.
fn groups_by_likeness(
    marks: &[&Mark],
    font_costs: &[[f64; naming::RANKS]],
    room: &[usize; naming::RANKS],
) -> Result<Classes> {
    let mut labels = naming::name_by_deal(font_costs, room, 1.0)?.ranks;
    for _ in 0..20 {
        let means: Vec<Option<Mark>> = (0..naming::RANKS)
            .map(|r| {
                let members: Vec<&Mark> = labels.iter().zip(marks).filter(|(l, _)| **l == r).map(|(_, m)| *m).collect();
                (!members.is_empty()).then(|| mean_mark(&members))
            })
            .collect();
        let costs: Vec<[f64; naming::RANKS]> = marks
            .iter()
            .zip(font_costs)
            .map(|(m, font)| std::array::from_fn(|r| means[r].as_ref().map_or(font[r], |mean| mark_distance(m, mean))))
            .collect();
        let next = naming::name_by_deal(&costs, room, 1.0)?.ranks;
        if next == labels {
            break;
        }
        labels = next;
    }
    let mut groups = Classes::default();
    for r in 0..naming::RANKS {
        let members: Vec<usize> = (0..marks.len()).filter(|&i| labels[i] == r).collect();
        if !members.is_empty() {
            groups.members.push(members);
        }
    }
    Ok(groups)
}

/// The texts a rank's mark can be, each drawn as one: "1" is "10" printed apart.
pub(super) fn rank_texts() -> Vec<String> {
    "A23456789JQK".chars().map(String::from).chain(["10".to_owned(), "1".to_owned()]).collect()
}

/// The rank a font text names ("1" and "10": ten).
fn rank_of_text(text: &str) -> Option<Rank> {
    match text {
        "10" | "1" => Rank::new(9),
        _ if text.chars().count() == 1 => Rank::from_char(text.chars().next()?),
        _ => None,
    }
}

/// Per rank (A … K), a mark's distance to the nearest font text of the rank; infinite where no font has one.
fn font_costs(fonts: &FontGlyphs, mark: &Mark) -> [f64; naming::RANKS] {
    let mut costs = [f64::INFINITY; naming::RANKS];
    for (rank, d) in fonts.distances_by_text(&mark.glyph, mark.ink_height, rank_of_text) {
        costs[rank.index() as usize] = d;
    }
    costs
}

/// The mark that names a card, and its distance to each rank: its first mark, or its first two as one where
/// the first is nearest a "1" of the fonts (a ten printed "1" "0" apart), so that every ten of a table is one
/// mark; such a card is as near a ten as its "1" is to the fonts' (however the table squeezes its "10").
fn rank_mark<'a>(fonts: &FontGlyphs, card: &'a SeenCard) -> (&'a Mark, [f64; naming::RANKS]) {
    let first = &card.mark;
    let Some(both) = &card.with_next else { return (first, font_costs(fonts, first)) };
    let nearest = fonts.distances_by_text(&first.glyph, first.ink_height, |t| {
        (rank_of_text(t).is_some() && t != "10").then_some(t == "1")
    });
    match nearest.first() {
        Some(&(true, one)) => {
            let mut costs = font_costs(fonts, both);
            let ten = &mut costs[9];
            *ten = ten.min(one);
            (both, costs)
        }
        _ => (first, font_costs(fonts, first)),
    }
}

/// What naming a card otherwise than an earlier picture named it costs (a whole font distance and more: only
/// groups of cards the earlier naming split can be renamed).
const KNOWN_RANK: f64 = 1.0;

/// A group of marks whose naming is closer than this (in total font distance) to another is not named.
const GROUP_MARGIN: f64 = 0.004;

/// Names the cards: groups of alike marks, each a rank of its own, by the fonts' distances and the deal's room.
/// Returns each card's rank, in the order given.
pub(super) fn name(
    fonts: &FontGlyphs,
    cards: &[(String, &SeenCard)],
    known: &[Option<Rank>],
    room: &[usize; naming::RANKS],
) -> Result<Vec<Rank>> {
    let (marks, mut costs): (Vec<&Mark>, Vec<[f64; naming::RANKS]>) =
        cards.iter().map(|(_, c)| rank_mark(fonts, c)).unzip();
    // A card named before (by an earlier picture) is that rank unless the picture says otherwise plainly: every
    // other rank costs it a whole unit more.
    for (cost, known) in costs.iter_mut().zip(known) {
        if let Some(rank) = known {
            for (r, c) in cost.iter_mut().enumerate() {
                if r != rank.index() as usize {
                    *c += KNOWN_RANK;
                }
            }
        }
    }
    let groups = groups_by_likeness(&marks, &costs, room).with_context(|| format!("{} cards seen", cards.len()))?;
    let group_costs = groups.costs(&costs);
    let sizes: Vec<usize> = groups.members.iter().map(Vec::len).collect();
    let named =
        naming::name_groups(&group_costs, &sizes, room, 1.0).with_context(|| format!("{} cards seen", cards.len()))?;
    for (g, members) in groups.members.iter().enumerate() {
        let rank = Rank::new(named.ranks[g] as u8).expect("a rank index");
        if named.margins[g] < GROUP_MARGIN * members.len() as f64 {
            let which: Vec<&str> = members.iter().map(|&i| cards[i].0.as_str()).collect();
            bail!(
                "the mark of {} is not told apart from another rank: named '{}' by the fonts and the deal with a margin of {:.4} (at least {:.4} needed)",
                which.join(", "),
                rank.to_char(),
                named.margins[g],
                GROUP_MARGIN * members.len() as f64
            );
        }
    }
    let ranks: Vec<Rank> = named.ranks.iter().map(|&r| Rank::new(r as u8).expect("a rank index")).collect();
    // (Every card is in a group: the groups are the deal naming's labels.)
    Ok(groups.spread(&ranks, cards.len(), Rank::ACE))
}
