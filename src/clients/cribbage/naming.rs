//! Ranks named by what a deal must be, with the glyph templates' distances as the first guess rather than the
//! gate.
//!
//! A deal holds four cards of each rank, so the cards a table shows hold at most four of each (fewer where some
//! are known to be elsewhere). The cards' ranks are named together: the naming of least total distance (each
//! card's distance to its rank's nearest template) under which no rank is named more often than it can be, found
//! as a minimum-cost assignment of the cards to the rank's four places (`pathfinding`'s Kuhn–Munkres). Where the
//! templates' nearest ranks already keep to the counts (the usual case), that is the answer; where they do not
//! (two ranks drawn nearly alike, a rank read at another size, a rank whose template is missing), the count
//! settles it: on a whole deal, the cards of a rank no template knows are named by elimination.
//!
//! How sure each card's name is, is its *margin*: how much the least total distance grows if that card is named
//! otherwise, the other cards renamed as best they can be to keep the counts (moving a card from rank a to rank
//! b costs its distance to b less its distance to a; a chain of such moves ends at a rank with a place to spare,
//! or at the rank the card left). A card whose margin is small is not named: the picture does not decide it.
//!
//! This is the deal's constraint on a labelling of marks ([`crate::vision::labelling`], which groups the marks
//! and sums their costs): an assignment with room per label, so it is solved as one rather than searched.

use anyhow::{bail, Result};
use pathfinding::prelude::{kuhn_munkres_min, Matrix};

/// Ranks, in the order of the cost arrays: A, 2–10, J, Q, K.
pub const RANKS: usize = 13;
/// Cards of one rank in a deal.
pub const PER_RANK: usize = 4;

/// The names of the cards, and how sure each is (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Naming {
    /// Per card, its rank's index (0 = A … 12 = K).
    pub ranks: Vec<usize>,
    /// Per card, how much the naming's total distance grows if the card is named otherwise; infinite where no
    /// other name keeps to the counts.
    pub margins: Vec<f64>,
}

/// Names cards by their distances to each rank (`costs[card][rank]`; a rank with no template takes
/// `unknown_cost`), at most `room[rank]` of each.
pub fn name_by_deal(costs: &[[f64; RANKS]], room: &[usize; RANKS], unknown_cost: f64) -> Result<Naming> {
    let places: usize = room.iter().sum();
    if costs.len() > places {
        bail!(
            "{} cards are shown, but a deal has room for only {places} more of these ranks: not a Cribbage Solitaire position",
            costs.len()
        );
    }
    let cost = |card: usize, rank: usize| {
        let c = costs[card][rank];
        if c.is_finite() {
            c
        } else {
            unknown_cost
        }
    };
    if costs.is_empty() {
        return Ok(Naming { ranks: Vec::new(), margins: Vec::new() });
    }
    // The rank of each place (room[r] places of rank r), and integer costs (micro-units) for the assignment.
    let place_rank: Vec<usize> = (0..RANKS).flat_map(|r| std::iter::repeat_n(r, room[r])).collect();
    let weights =
        Matrix::from_fn(costs.len(), places, |(card, place)| (cost(card, place_rank[place]) * 1e6).round() as i64);
    let (_, assignment) = kuhn_munkres_min(&weights);
    let ranks: Vec<usize> = assignment.iter().map(|&place| place_rank[place]).collect();

    // The cheapest way to move one card from rank a to rank b (over the cards named a), then chains of moves.
    let mut count = [0usize; RANKS];
    for &r in &ranks {
        count[r] += 1;
    }
    let mut chain = [[f64::INFINITY; RANKS]; RANKS];
    for (card, &a) in ranks.iter().enumerate() {
        for (b, slot) in chain[a].iter_mut().enumerate() {
            *slot = slot.min(cost(card, b) - cost(card, a));
        }
    }
    for (a, row) in chain.iter_mut().enumerate() {
        row[a] = 0.0;
    }
    for k in 0..RANKS {
        for a in 0..RANKS {
            for b in 0..RANKS {
                let through = chain[a][k] + chain[k][b];
                if through < chain[a][b] {
                    chain[a][b] = through;
                }
            }
        }
    }
    let margins = ranks
        .iter()
        .enumerate()
        .map(|(card, &a)| {
            (0..RANKS)
                .filter(|&r| r != a && room[r] > 0)
                .map(|r| {
                    // Room for the card at r, made by a chain of moves from r to a rank with a place to spare (r
                    // itself, where it has one) or to a, which the card left.
                    let spare =
                        (0..RANKS).filter(|&s| count[s] < room[s]).map(|s| chain[r][s]).fold(chain[r][a], f64::min);
                    cost(card, r) - cost(card, a) + spare
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    Ok(Naming { ranks, margins })
}

/// Names groups of cards drawn alike, one rank each and no two the same (cards drawn alike on one table are one
/// rank; drawn differently, different ranks): `costs[group][rank]` is the group's total distance to the rank
/// (infinite where no font has it: it takes `unknown_cost` per card), `sizes[group]` its cards, at most
/// `room[rank]` of each rank. The margin of a group is how much the least total grows if it is named otherwise.
pub fn name_groups(
    costs: &[[f64; RANKS]],
    sizes: &[usize],
    room: &[usize; RANKS],
    unknown_cost: f64,
) -> Result<Naming> {
    if costs.len() > RANKS {
        bail!("the cards show {} different marks, but a deal has only {RANKS} ranks", costs.len());
    }
    if costs.is_empty() {
        return Ok(Naming { ranks: Vec::new(), margins: Vec::new() });
    }
    // Integer weights (micro-units); a rank with too little room for a group is barred by a weight no naming
    // that keeps to the counts reaches.
    const BARRED: i64 = 1 << 40;
    let weight = |group: usize, rank: usize, forbidden: Option<(usize, usize)>| {
        if sizes[group] > room[rank] || forbidden == Some((group, rank)) {
            return BARRED;
        }
        let c = costs[group][rank];
        let c = if c.is_finite() { c } else { unknown_cost * sizes[group] as f64 };
        (c * 1e6).round() as i64
    };
    let solve = |forbidden: Option<(usize, usize)>| {
        let weights = Matrix::from_fn(costs.len(), RANKS, |(g, r)| weight(g, r, forbidden));
        kuhn_munkres_min(&weights)
    };
    let (total, ranks) = solve(None);
    if total >= BARRED {
        let most = sizes.iter().max().copied().unwrap_or(0);
        bail!(
            "no naming keeps to a deal's counts: the cards show {} different marks, the most common {most} times",
            costs.len()
        );
    }
    let margins = ranks
        .iter()
        .enumerate()
        .map(|(g, &r)| {
            let (other, _) = solve(Some((g, r)));
            if other >= BARRED {
                f64::INFINITY
            } else {
                (other - total) as f64 / 1e6
            }
        })
        .collect();
    Ok(Naming { ranks, margins })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distances for a card that looks like `rank`: `near` to it, `far` to every other rank.
    fn card(rank: usize, near: f64, far: f64) -> [f64; RANKS] {
        let mut c = [far; RANKS];
        c[rank] = near;
        c
    }

    #[test]
    fn nearest_ranks_that_keep_to_the_counts_are_the_naming() {
        let costs = [card(0, 0.01, 0.3), card(5, 0.02, 0.3), card(12, 0.01, 0.3)];
        let named = name_by_deal(&costs, &[PER_RANK; RANKS], 1.0).unwrap();
        assert_eq!(named.ranks, vec![0, 5, 12]);
        for m in &named.margins {
            assert!((0.27..=0.3).contains(m), "{m}");
        }
    }

    /// Five cards nearest to 6 where only four fit: the one least unlike 9 (its next-nearest) is named 9.
    #[test]
    fn a_fifth_card_nearest_a_rank_takes_its_next_nearest() {
        let mut costs: Vec<[f64; RANKS]> = (0..4).map(|_| card(5, 0.01, 0.5)).collect();
        let mut odd = card(5, 0.04, 0.5);
        odd[8] = 0.06;
        costs.push(odd);
        let named = name_by_deal(&costs, &[PER_RANK; RANKS], 1.0).unwrap();
        assert_eq!(named.ranks, vec![5, 5, 5, 5, 8]);
        // Naming the odd card 6 instead would push one of the others (0.01 → 0.5): a clear margin.
        assert!(named.margins[4] > 0.4, "{:?}", named.margins);
        // With room for five 6s, it is a 6.
        let mut room = [PER_RANK; RANKS];
        room[5] = 5;
        assert_eq!(name_by_deal(&costs, &room, 1.0).unwrap().ranks[4], 5);
    }

    /// A whole deal where no template knows the 7s: the four cards unlike every template are named 7 by
    /// elimination, with clear margins.
    #[test]
    fn on_a_whole_deal_a_rank_with_no_template_is_named_by_elimination() {
        let mut costs = Vec::new();
        for r in 0..RANKS {
            for _ in 0..PER_RANK {
                let mut c = if r == 6 { [0.4; RANKS] } else { card(r, 0.02, 0.4) };
                c[6] = f64::INFINITY;
                if r == 6 {
                    c[7] = 0.25; // an 8 is the nearest template
                }
                costs.push(c);
            }
        }
        let named = name_by_deal(&costs, &[PER_RANK; RANKS], 0.3).unwrap();
        for (i, &r) in named.ranks.iter().enumerate() {
            assert_eq!(r, i / PER_RANK, "card {i}");
        }
        assert!(named.margins.iter().all(|&m| m > 0.2), "{:?}", named.margins);
        // On a few cards, the same unlike card is not decided: 8 (0.25) and the unknown 7 (0.3) are near.
        let few = name_by_deal(&costs[24..25], &[PER_RANK; RANKS], 0.3).unwrap();
        assert!(few.margins[0] < 0.06, "{:?}", few);
    }

    #[test]
    fn more_cards_than_the_deal_has_room_for_is_an_error() {
        let costs = vec![card(0, 0.0, 1.0); 5];
        let mut room = [0; RANKS];
        room[0] = 4;
        let error = name_by_deal(&costs, &room, 1.0).unwrap_err().to_string();
        assert!(error.contains("room for only 4"), "{error}");
    }

    /// Groups drawn alike are each one rank, no two the same: a group nearest the same rank as another, but
    /// farther from it, takes its next-nearest rank, and a group larger than the room of a rank cannot take it.
    #[test]
    fn groups_take_different_ranks_within_the_room() {
        let mut a = card(4, 0.02, 0.3);
        a[5] = 0.05;
        let mut b = card(4, 0.01, 0.3);
        b[6] = 0.2;
        let named = name_groups(&[a, b], &[2, 1], &[PER_RANK; RANKS], 1.0).unwrap();
        assert_eq!(named.ranks, vec![5, 4], "the group of two is farther from 5s than the other: it takes 6s");
        // Named otherwise, the least total is 0.02 + 0.2 (the other group takes 7s): 0.16 more than 0.05 + 0.01.
        assert!(named.margins.iter().all(|m| (m - 0.16).abs() < 1e-6), "{:?}", named.margins);
        // Room for one 5 only: the group of two cannot be 5s.
        let mut room = [PER_RANK; RANKS];
        room[4] = 1;
        let named = name_groups(&[card(4, 0.01, 0.3), card(7, 0.01, 0.3)], &[2, 1], &room, 1.0).unwrap();
        assert_ne!(named.ranks[0], 4);
        // More kinds of mark than ranks is no deal.
        let many: Vec<[f64; RANKS]> = (0..14).map(|i| card(i % RANKS, 0.01, 0.3)).collect();
        let error = name_groups(&many, &[1; 14], &[PER_RANK; RANKS], 1.0).unwrap_err().to_string();
        assert!(error.contains("14 different marks"), "{error}");
    }
}
