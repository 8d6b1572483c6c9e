//! The Cribbage Solitaire reader: screenshot → the cards left in each column, the current stack, and where to
//! click. Nothing about the table's layout is assumed beyond what a player sees: card piles are the
//! card-wide, taller-than-wide shapes on the felt (the felt may be a panel with other things around it); the
//! four columns stand where calibration saw them on the felt (an empty column may show an outline or nothing),
//! or, for a theme that did not learn their places, are the four leftmost of five piles. The stack is a pile
//! right of the columns, or a row of small cards of the playable card's face off the felt, or not shown. Each
//! card's top edge is a dark outline across the pile, and its rank is the corner glyph at its top left (the last
//! glyph of the corner is the suit sign; a small card shows its rank alone). The control that ends a stack is
//! the solid wide shape right of the columns, or the point calibration was told. The stack total and the score
//! are read where the table prints them ([`crate::vision::printed_number`]), and checked against the stack read.
//! Colours come from a calibrated theme; ranks from its glyph templates as the first guess, named together by what
//! a deal must be (at most four of each rank: [`super::naming`]).

use std::collections::HashMap;

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;

use super::naming;
use super::reading::{in_reading_order, TablePoints, TableReading};
use super::theme::{ColumnPlaces, RankTemplate, TableTheme};
use crate::calibration::{first_reading, format_rgb, parse_rgb};
use crate::games::cribbage::{Card, Rank, State};
use crate::vision::colour::{luminance, max_diff, mode, rgb_at};
use crate::vision::glyph::{self, Glyph, Weights};
use crate::vision::printed_number::NumberReader;
use crate::vision::runs::{components, flood8, Component};

/// A pile's share of its bounding box that must be drawn for it to hold cards (an empty slot is an outline).
const FILLED_PILE: f64 = 0.5;
/// A row is a card's top (or bottom) outline when a run of outline pixels covers this share of the pile's width.
const OUTLINE_RUN: f64 = 0.75;
/// A rank printed smaller than the corners it was learned from (a small card of the stack's row) is drawn with
/// other proportions of stroke to size: it may be this many times further from its template (the parlour
/// table's small K is 0.18 from its corner K), as long as the next rank is this many times further still.
const SMALL_PRINT_LEEWAY: f64 = 2.0;
const SMALL_PRINT_MARGIN: f64 = 1.2;
/// A card further than this many times the theme's `max_distance` from the rank the deal names it is like no
/// rank (a rank whose template is missing costs `max_distance` itself: it is named only where no other fits).
const UNLIKE_ANY_RANK: f64 = 3.0;
/// The corner glyphs lie in this share of a card's width, from its left edge.
const CORNER_WIDTH: f64 = 0.8;

/// The rank of index `i` (0 = A … 12 = K), as the naming numbers them.
fn rank_at(i: usize) -> Rank {
    Rank::new(i as u8).expect("a rank index")
}

/// The non-felt shapes of a picture.
struct Shapes {
    on: Vec<bool>,
    width: usize,
    components: Vec<Component>,
}

fn shapes(image: &RgbaImage, felt: [u8; 3], tolerance: u8) -> Shapes {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let on: Vec<bool> = image.pixels().map(|p| max_diff([p[0], p[1], p[2]], felt) > tolerance).collect();
    let components = components(w, h, 2, |y| &on[y * w..(y + 1) * w]);
    Shapes { on, width: w, components }
}

/// The five card piles (four columns, then the stack), left to right.
fn piles(shapes: &Shapes) -> Result<(Vec<Component>, usize)> {
    let (piles, card_width) = card_piles(shapes)?;
    if piles.len() != 5 {
        bail!("found {} card piles {card_width} pixels wide, expected 5 (four columns and the stack)", piles.len());
    }
    Ok((piles, card_width))
}

/// Whether a shape may be a pile of cards: at least 16 pixels wide and taller than wide (by a fifth).
fn card_shaped(c: &Component) -> bool {
    c.width() >= 16 && c.height() as f64 >= 1.2 * c.width() as f64
}

/// The card-shaped piles on the felt, left to right, and the card width: the largest tall shape is a pile (a
/// column of cards, or a card); the others are those of its width.
fn card_piles(shapes: &Shapes) -> Result<(Vec<Component>, usize)> {
    let tall: Vec<&Component> = shapes.components.iter().filter(|c| card_shaped(c)).collect();
    if tall.is_empty() {
        bail!("no card pile found: nothing on the felt is card-shaped (is this a Cribbage Solitaire table, and is the felt colour calibrated?)");
    }
    let card_width = tall.iter().max_by_key(|c| c.width() * c.height()).expect("not empty").width();
    let tolerance = (card_width / 20).max(3);
    let mut piles: Vec<Component> =
        tall.into_iter().filter(|c| c.width().abs_diff(card_width) <= tolerance).copied().collect();
    piles.sort_by_key(|c| c.x0);
    Ok((piles, card_width))
}

/// The bounding box of the felt: the largest connected patch of felt-coloured pixels.
fn felt_box(shapes: &Shapes) -> Option<Component> {
    let felt: Vec<bool> = shapes.on.iter().map(|&on| !on).collect();
    let w = shapes.width;
    let h = felt.len() / w;
    components(w, h, 0, |y| &felt[y * w..(y + 1) * w]).into_iter().max_by_key(|c| c.pixels)
}

/// A table's piles: each column's (`None` where the table shows nothing: an empty column of a table that
/// draws no place for it), the stack's where the table draws one, the card width and the felt's box.
struct TablePiles {
    columns: [Option<Component>; 4],
    stack: Option<Component>,
    card_width: usize,
    felt: Option<Component>,
}

/// A share of a box across (`x`) and down (`y`), as a pixel point.
fn point_in(felt: &Component, [x, y]: [f64; 2]) -> (i32, i32) {
    (
        (felt.x0 as f64 + x * felt.width() as f64).round() as i32,
        (felt.y0 as f64 + y * felt.height() as f64).round() as i32,
    )
}

/// The piles where `places` says the columns stand on the felt; the stack's the next pile right of them.
fn placed_piles(shapes: &Shapes, places: &ColumnPlaces, stack_pile: bool) -> Result<TablePiles> {
    let felt = felt_box(shapes).filter(|f| f.pixels * 20 >= shapes.on.len()).context("no felt found: hardly any of the picture has the felt's colour (is this the table the theme was learned from?)")?;
    let card_width = (places.card_width * felt.width() as f64).round() as usize;
    let tolerance = (card_width / 10).max(3);
    let tall: Vec<Component> = shapes
        .components
        .iter()
        .filter(|c| card_shaped(c) && c.width().abs_diff(card_width) <= tolerance)
        .copied()
        .collect();
    let left = |i: usize| felt.x0 as f64 + places.left[i] * felt.width() as f64;
    let columns: [Option<Component>; 4] = std::array::from_fn(|i| {
        tall.iter().find(|c| (c.x0 as f64 - left(i)).abs() <= card_width as f64 / 2.0).copied()
    });
    if columns.iter().all(Option::is_none) {
        // A felt with no card on it is a table whose every card is played only if it has the table's shape.
        let aspect = felt.width() as f64 / felt.height() as f64;
        if places.felt_aspect.is_none_or(|learned| (aspect / learned - 1.0).abs() > 0.05) {
            bail!(
                "no column of cards found where the columns stand on the felt ({}x{} at ({}, {}))",
                felt.width(),
                felt.height(),
                felt.x0,
                felt.y0
            );
        }
    }
    let stack = if stack_pile {
        let beyond = left(3) + 0.75 * card_width as f64;
        Some(
            *tall
                .iter()
                .filter(|c| c.x0 as f64 >= beyond)
                .min_by_key(|c| c.x0)
                .context("no stack pile right of the columns")?,
        )
    } else {
        None
    };
    Ok(TablePiles { columns, stack, card_width, felt: Some(felt) })
}

/// Pile `p` of [`piles`] in messages: "column 1" to "column 4", then "the stack".
fn pile_name(p: usize) -> String {
    if p < 4 {
        format!("column {}", p + 1)
    } else {
        "the stack".into()
    }
}

/// The NEXT STACK button: the largest solid shape at least twice as wide as tall, right of the columns.
fn button(shapes: &Shapes, columns_end: usize, card_width: usize) -> Option<Component> {
    shapes
        .components
        .iter()
        .filter(|c| c.x0 > columns_end && c.width() >= 2 * c.height() && c.height() * 8 >= card_width)
        .filter(|c| c.pixels as f64 >= 0.85 * (c.width() * c.height()) as f64)
        .max_by_key(|c| c.pixels)
        .copied()
}

/// The rows (start, end) of a pile's card outlines: runs of outline-dark pixels across most of its width.
fn outlines(image: &RgbaImage, shapes: &Shapes, pile: &Component, outline_max: u8) -> Vec<(usize, usize)> {
    let need = (OUTLINE_RUN * pile.width() as f64).ceil() as usize;
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for y in pile.y0..=pile.y1 {
        let (mut run, mut longest) = (0, 0);
        for x in pile.x0..=pile.x1 {
            if shapes.on[y * shapes.width + x] && luminance(rgb_at(image, x, y)) <= outline_max {
                run += 1;
                longest = longest.max(run);
            } else {
                run = 0;
            }
        }
        if longest >= need {
            match lines.last_mut() {
                Some(line) if line.1 + 1 == y => line.1 = y,
                _ => lines.push((y, y)),
            }
        }
    }
    lines
}

/// A card seen in a pile: its corner glyph, and a point on it (the middle of its corner label's rows, across
/// the pile's middle).
struct SeenCard {
    glyph: Glyph,
    centre: (i32, i32),
}

/// The cards of one pile, bottom (most buried) first.
fn pile_cards(image: &RgbaImage, shapes: &Shapes, pile: &Component, theme: &TableTheme) -> Result<Vec<SeenCard>> {
    let filled = pile.pixels as f64 / (pile.width() * pile.height()) as f64;
    if filled < FILLED_PILE {
        return Ok(Vec::new());
    }
    let lines = outlines(image, shapes, pile, theme.outline_max);
    if lines.len() < 2 {
        bail!("the pile at ({}, {}) shows no card outlines (is the outline darkness calibrated?)", pile.x0, pile.y0);
    }
    let inset = (pile.width() / 16).max(2);
    let (x0, x1) = (pile.x0 + inset, pile.x0 + (CORNER_WIDTH * pile.width() as f64) as usize);
    let mut cards = Vec::new();
    for pair in lines.windows(2) {
        let (top, bottom) = (pair[0].1 + 1, pair[1].0);
        if bottom <= top + 2 {
            bail!("two card outlines of the pile at ({}, {}) touch at y = {top}", pile.x0, pile.y0);
        }
        let (glyph, label_y) =
            corner_glyph(image, shapes, (x0, top, x1, bottom - 1), theme.ink_threshold, pile.width())
                .with_context(|| format!("the card whose top is at ({}, {})", pile.x0, pair[0].0))?;
        cards.push(SeenCard { glyph, centre: (((pile.x0 + pile.x1) / 2) as i32, label_y as i32) });
    }
    Ok(cards)
}

/// The rank glyph in the corner of a card strip (x0, y0, x1, y1 inclusive): the first band of inked rows from
/// the top, split into glyphs at blank columns; all but the last glyph (the suit sign) are the rank. Also gives
/// the picture row in the middle of the label.
fn corner_glyph(
    image: &RgbaImage,
    shapes: &Shapes,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    threshold: u8,
    card_width: usize,
) -> Result<(Glyph, usize)> {
    let w = x1 - x0 + 1;
    let face = mode(
        (y0..=y1)
            .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
            .filter(|&(x, y)| shapes.on[y * shapes.width + x])
            .map(|(x, y)| rgb_at(image, x, y)),
    )
    .ok_or_else(|| anyhow!("its corner is empty"))?;
    let alpha = without_outline_ink(face_ink(image, (x0, y0, x1, y1), face, threshold), w);
    let (first, last) =
        first_inked_band(&alpha, w).ok_or_else(|| anyhow!("no corner glyph (face {})", format_rgb(face)))?;
    let inked_column = |x: usize| (first..=last).any(|y| alpha[y * w + x] >= 0.5);
    let mut glyphs: Vec<(usize, usize)> = Vec::new();
    for x in 0..w {
        if inked_column(x) {
            match glyphs.last_mut() {
                Some(g) if g.1 + 1 == x => g.1 = x,
                _ => glyphs.push((x, x)),
            }
        }
    }
    if glyphs.len() < 2 {
        bail!("its corner shows {} glyph(s); expected a rank and a suit sign", glyphs.len());
    }
    let (rx0, rx1) = (glyphs[0].0, glyphs[glyphs.len() - 2].1);
    // The rank's own rows within the band.
    let rows: Vec<usize> = (first..=last).filter(|&y| (rx0..=rx1).any(|x| alpha[y * w + x] >= 0.5)).collect();
    let (ry0, ry1) = (rows[0], *rows.last().expect("rows"));
    let coverage = glyph::normalise(&alpha, w, (rx0, ry0, rx1, ry1));
    let (gw, gh) = ((rx1 - rx0 + 1) as f64, (ry1 - ry0 + 1) as f64);
    Ok((Glyph { coverage, aspect: gw / gh, height: gh / card_width as f64, centre_y: 0.0 }, y0 + (first + last) / 2))
}

/// The ink of a box (x0, y0, x1, y1 inclusive) of a card whose face is `face`, row by row: 0 within `threshold`
/// of the face, else growing with the difference, 1 from 160 on.
fn face_ink(
    image: &RgbaImage,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    face: [u8; 3],
    threshold: u8,
) -> Vec<f32> {
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    (0..w * h)
        .map(|i| {
            let d = max_diff(rgb_at(image, x0 + i % w, y0 + i / w), face);
            if d > threshold {
                (d as f32 / 160.0).min(1.0)
            } else {
                0.0
            }
        })
        .collect()
}

/// The first and last rows of the first band of inked rows (some sample at least 0.5) from the top of a
/// `w`-wide ink mask, if any.
fn first_inked_band(alpha: &[f32], w: usize) -> Option<(usize, usize)> {
    let inked_row = |y: usize| (0..w).any(|x| alpha[y * w + x] >= 0.5);
    let first = (0..alpha.len() / w).find(|&y| inked_row(y))?;
    let last = (first..alpha.len() / w).take_while(|&y| inked_row(y)).last().expect("first is inked");
    Some((first, last))
}

/// The rank printed on a small card (its face's box): all the ink of the first band of inked rows from the top,
/// past the card's own border.
fn small_card_rank(image: &RgbaImage, card: &Component, face: [u8; 3], threshold: u8) -> Result<Glyph> {
    let inset = (card.width() / 10).max(1);
    let (x0, y0, x1, y1) = (card.x0 + inset, card.y0 + inset, card.x1 - inset, card.y1 - inset);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let alpha = face_ink(image, (x0, y0, x1, y1), face, threshold);
    let (first, last) = first_inked_band(&alpha, w).ok_or_else(|| anyhow!("it shows no rank"))?;
    let band: Vec<f32> = (0..w * h).map(|i| if (first..=last).contains(&(i / w)) { alpha[i] } else { 0.0 }).collect();
    let (gx0, gy0, gx1, gy1) = glyph::ink_box(&band, w, 0.5).expect("the band is inked");
    let (gw, gh) = ((gx1 - gx0 + 1) as f64, (gy1 - gy0 + 1) as f64);
    Ok(Glyph {
        coverage: glyph::normalise(&band, w, (gx0, gy0, gx1, gy1)),
        aspect: gw / gh,
        height: gh / card.width() as f64,
        centre_y: 0.0,
    })
}

/// Clears the ink 8-connected to the top row of a `w`-wide strip: the soft lower edge of the card's top outline
/// and its rounded corner, which the corner label never touches (a J's hook may reach the left edge, so that is
/// no test).
fn without_outline_ink(mut alpha: Vec<f32>, w: usize) -> Vec<f32> {
    let mut outline = vec![false; alpha.len()];
    flood8(w, alpha.len(), 0..w, |i| alpha[i] > 0.0, &mut outline, |_| {});
    for (a, _) in alpha.iter_mut().zip(&outline).filter(|(_, &o)| o) {
        *a = 0.0;
    }
    alpha
}

/// How a card's rank glyph is matched with a theme's templates: its shape, aspect ("10" is wide, "1"-like shapes
/// narrow) and height relative to the card's width (the corner's size on the card).
const TEMPLATE_WEIGHTS: Weights = Weights { aspect: 0.25, height: 4.0, centre_y: 0.0 };
/// As [`TEMPLATE_WEIGHTS`], for a glyph printed at another size than the cards' corners: its height left out.
const ANY_SIZE_WEIGHTS: Weights = Weights { height: 0.0, ..TEMPLATE_WEIGHTS };

/// Templates prepared for matching.
struct Matcher<'a> {
    theme: &'a TableTheme,
    felt: [u8; 3],
    templates: Vec<(&'a RankTemplate, Glyph)>,
}

impl<'a> Matcher<'a> {
    fn new(theme: &'a TableTheme) -> Result<Self> {
        if theme.glyphs.is_empty() {
            bail!("theme '{}' has no rank glyphs (see `autoplay calibrate cribbage`)", theme.theme);
        }
        let templates = theme.glyphs.iter().map(|g| Ok((g, g.glyph()?))).collect::<Result<_>>()?;
        Ok(Matcher { theme, felt: parse_rgb(&theme.felt)?, templates })
    }

    /// The best rank, its distance and the next-best other rank's distance.
    fn classify(&self, glyph: &Glyph) -> (Rank, f64, f64) {
        self.classify_by(glyph, &TEMPLATE_WEIGHTS)
    }

    /// As [`Self::classify`], for a glyph printed at another size than the cards' corners (the stack's small
    /// cards): its height is left out.
    fn classify_any_size(&self, glyph: &Glyph) -> (Rank, f64, f64) {
        self.classify_by(glyph, &ANY_SIZE_WEIGHTS)
    }

    fn classify_by(&self, glyph: &Glyph, weights: &Weights) -> (Rank, f64, f64) {
        let costs = self.rank_costs_by(glyph, weights);
        let mut ranked: Vec<(usize, f64)> = costs.into_iter().enumerate().filter(|(_, d)| d.is_finite()).collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        (rank_at(ranked[0].0), ranked[0].1, ranked.get(1).map_or(f64::INFINITY, |r| r.1))
    }

    /// The piles, where the theme places the columns, else as the five piles of the project's first table.
    fn table_piles(&self, shapes: &Shapes) -> Result<TablePiles> {
        match &self.theme.columns {
            Some(places) => placed_piles(shapes, places, self.theme.stack_pile),
            None => {
                let (piles, card_width) = piles(shapes)?;
                Ok(TablePiles {
                    columns: std::array::from_fn(|i| Some(piles[i])),
                    stack: Some(piles[4]),
                    card_width,
                    felt: None,
                })
            }
        }
    }

    /// Per rank (A … K), the glyph's distance to the rank's nearest template; infinite where the theme has none.
    fn rank_costs(&self, glyph: &Glyph) -> [f64; naming::RANKS] {
        self.rank_costs_by(glyph, &TEMPLATE_WEIGHTS)
    }

    /// As [`Self::rank_costs`], with other weights.
    fn rank_costs_by(&self, glyph: &Glyph, weights: &Weights) -> [f64; naming::RANKS] {
        let mut costs = [f64::INFINITY; naming::RANKS];
        for (template, known) in &self.templates {
            let rank = Rank::from_char(template.rank).expect("validated theme");
            let slot = &mut costs[rank.index() as usize];
            *slot = slot.min(glyph.distance(known, weights));
        }
        costs
    }

    /// The ranks of the piles' cards (each pile bottom first), named together by what a deal must be (see
    /// [`naming`]): at most `room[rank]` of each. A card whose name the picture does not decide, or that is
    /// like no rank, is an error naming it.
    fn name_cards(&self, piles: &[(String, Vec<SeenCard>)], room: &[usize; naming::RANKS]) -> Result<Vec<Vec<Card>>> {
        let cards: Vec<(&str, usize, &SeenCard)> = piles
            .iter()
            .flat_map(|(place, cards)| cards.iter().enumerate().map(move |(i, card)| (place.as_str(), i, card)))
            .collect();
        let costs: Vec<[f64; naming::RANKS]> = cards.iter().map(|(_, _, card)| self.rank_costs(&card.glyph)).collect();
        let named = naming::name_by_deal(&costs, room, self.theme.max_distance)?;
        for (k, &(place, i, card)) in cards.iter().enumerate() {
            let (rank, margin) = (named.ranks[k], named.margins[k]);
            // (A rank with no template costs `max_distance`: named where no other fits, as the deal decides.)
            let best = if costs[k][rank].is_finite() { costs[k][rank] } else { self.theme.max_distance };
            let name = rank_at(rank).to_char();
            if best > UNLIKE_ANY_RANK * self.theme.max_distance || margin < self.theme.min_margin {
                let nearest = (0..naming::RANKS).min_by(|&a, &b| costs[k][a].total_cmp(&costs[k][b])).unwrap_or(rank);
                bail!(
                    "card {} of {place} (near ({}, {})) matches no rank well enough: named '{name}' by the deal (at {best:.3}; limit {:.3}), with a margin of {margin:.3} over the next naming (at least {:.3} needed); its nearest template is '{}' at {:.3}",
                    i + 1,
                    card.centre.0,
                    card.centre.1,
                    UNLIKE_ANY_RANK * self.theme.max_distance,
                    self.theme.min_margin,
                    rank_at(nearest).to_char(),
                    costs[k][nearest]
                );
            }
        }
        let mut ranks = named.ranks.into_iter();
        Ok(piles
            .iter()
            .map(|(_, cards)| {
                cards.iter().map(|_| Card::new(rank_at(ranks.next().expect("one name a card")))).collect()
            })
            .collect())
    }

    fn read(&self, image: &RgbaImage, numbers: Option<&NumberReader>) -> Result<TableReading> {
        let shapes = shapes(image, self.felt, self.theme.felt_tolerance);
        let piles = self.table_piles(&shapes)?;
        let columns_end = piles.columns.iter().flatten().map(|c| c.x1).max().unwrap_or(0);
        let next_stack = match (self.theme.end_stack, &piles.felt) {
            _ if self.theme.ends_stacks_itself => None,
            (Some(share), Some(felt)) => Some(point_in(felt, share)),
            // No control learned: the solid button right of the columns, if the table shows one.
            _ => button(&shapes, columns_end, piles.card_width)
                .map(|next| (((next.x0 + next.x1) / 2) as i32, ((next.y0 + next.y1) / 2) as i32)),
        };
        // The cards of the columns and of a stack pile, named together; a stack shown as a row of small cards is
        // named first, on its own (its print is of another size), and leaves less room for its ranks.
        let mut seen: Vec<(String, Vec<SeenCard>)> = Vec::new();
        let mut points: [Vec<(i32, i32)>; 4] = Default::default();
        for (p, pile) in piles.columns.iter().enumerate() {
            let cards = match pile {
                Some(pile) => pile_cards(image, &shapes, pile, self.theme)?,
                None => Vec::new(),
            };
            points[p] = cards.iter().map(|c| c.centre).collect();
            seen.push((pile_name(p), cards));
        }
        if let Some(pile) = &piles.stack {
            seen.push((pile_name(4), pile_cards(image, &shapes, pile, self.theme)?));
        }
        let row = match (&piles.stack, &self.theme.card_face) {
            (None, Some(face)) => self.stack_row(image, &piles, parse_rgb(face)?)?,
            _ => None,
        };
        let mut room = [naming::PER_RANK; naming::RANKS];
        for card in row.iter().flatten() {
            let r = card.rank.index() as usize;
            room[r] = room[r].saturating_sub(1);
        }
        let mut named = self.name_cards(&seen, &room)?.into_iter();
        let columns: [Vec<Card>; 4] = std::array::from_fn(|_| named.next().expect("four columns named"));
        let (stack, stack_shown) = match (named.next(), row) {
            (Some(pile), _) => (pile, true),
            (None, Some(row)) => (row, true),
            (None, None) => (Vec::new(), false),
        };
        let state = State::new(columns, stack, 0).context("the cards read are not a possible game position")?;
        // Numbers the table prints, where the theme knows them and the fonts to read them are at hand.
        let printed = |at: Option<[f64; 2]>, what: &str| -> Result<Option<u32>> {
            let (Some(share), Some(felt), Some(numbers)) = (at, &piles.felt, numbers) else { return Ok(None) };
            numbers
                .read(image, point_in(felt, share), piles.card_width)
                .with_context(|| format!("reading the {what}"))
                .map(Some)
        };
        let (total, score) = (printed(self.theme.total_at, "stack total")?, printed(self.theme.score_at, "score")?);
        if let Some(total) = total.filter(|&t| stack_shown && t != state.total()) {
            bail!("the stack's cards add up to {}, but the table prints a total of {total}", state.total());
        }
        let points = TablePoints {
            cards: points,
            next_stack,
            stack: None,
            may_end_stack: Vec::new(),
            card_width: piles.card_width,
            columns: None,
            ranks: None,
            stack_ranks: None,
            bands: None,
        };
        Ok(TableReading {
            state,
            points,
            theme: self.theme.theme.clone(),
            stack_shown,
            stack_top_only: false,
            // A table with no control for it can end a stack no other way (the play loop checks that it does).
            ends_stacks_itself: self.theme.ends_stacks_itself || next_stack.is_none(),
            total,
            score,
            numbers: Vec::new(),
        })
    }

    /// The stack shown as a row of small cards off the felt, in play order (left to right, then down), if the
    /// picture shows any: card-shaped patches of the card face, under 0.6 of a card wide, each with one rank.
    /// None where there is none (the stack is empty, or not shown).
    fn stack_row(&self, image: &RgbaImage, piles: &TablePiles, face: [u8; 3]) -> Result<Option<Vec<Card>>> {
        let (w, h) = (image.width() as usize, image.height() as usize);
        let on: Vec<bool> =
            image.pixels().map(|p| max_diff([p[0], p[1], p[2]], face) <= self.theme.felt_tolerance).collect();
        let off_felt =
            |c: &Component| piles.felt.is_none_or(|f| c.x1 < f.x0 || c.x0 > f.x1 || c.y1 < f.y0 || c.y0 > f.y1);
        let small: Vec<Component> = components(w, h, 0, |y| &on[y * w..(y + 1) * w])
            .into_iter()
            .filter(|c| c.width() >= 8 && (c.width() as f64) < 0.6 * piles.card_width as f64)
            .filter(|c| (1.15..=1.8).contains(&(c.height() as f64 / c.width() as f64)))
            .filter(|c| c.pixels as f64 >= 0.5 * (c.width() * c.height()) as f64 && off_felt(c))
            .collect();
        if small.is_empty() {
            return Ok(None);
        }
        let mut cards = Vec::new();
        for card in &in_reading_order(small) {
            let glyph = small_card_rank(image, card, face, self.theme.ink_threshold)
                .with_context(|| format!("the small card at ({}, {})", card.x0, card.y0))?;
            let (rank, best, next) = self.classify_any_size(&glyph);
            if best > SMALL_PRINT_LEEWAY * self.theme.max_distance
                || next - best < self.theme.min_margin
                || next < SMALL_PRINT_MARGIN * best
            {
                bail!(
                    "the small card of the stack at ({}, {}) matches no rank well enough (closest '{}' at {best:.3}, limit {:.3}; next at {next:.3})",
                    card.x0,
                    card.y0,
                    rank.to_char(),
                    SMALL_PRINT_LEEWAY * self.theme.max_distance
                );
            }
            cards.push(Card::new(rank));
        }
        Ok(Some(cards))
    }
}

/// Reads a table with the first theme that reads it (numbers printed as text are not read).
pub fn read(image: &RgbaImage, themes: &[TableTheme]) -> Result<TableReading> {
    read_with_numbers(image, themes, None)
}

/// Reads a table with the first theme that reads it, and the numbers it prints as text with `numbers`.
pub fn read_with_numbers(
    image: &RgbaImage,
    themes: &[TableTheme],
    numbers: Option<&NumberReader>,
) -> Result<TableReading> {
    first_reading(themes, "the Cribbage Solitaire table", |theme| Matcher::new(theme)?.read(image, numbers))
}

/// How well each card of a picture matched its rank: (best distance, next rank's distance) per card.
pub fn match_scores(image: &RgbaImage, theme: &TableTheme) -> Result<Vec<(char, f64, f64)>> {
    let matcher = Matcher::new(theme)?;
    let shapes = shapes(image, matcher.felt, theme.felt_tolerance);
    let piles = matcher.table_piles(&shapes)?;
    let mut scores = Vec::new();
    for pile in piles.columns.iter().flatten().chain(&piles.stack) {
        for card in pile_cards(image, &shapes, pile, theme)? {
            let (rank, best, next) = matcher.classify(&card.glyph);
            scores.push((rank.to_char(), best, next));
        }
    }
    Ok(scores)
}

/// What calibration is told of a screenshot: the position shown, and where a control the picture alone does not
/// explain is (the one that ends a stack, as a point in the picture), if the table has one.
#[derive(Clone, Debug, PartialEq)]
pub struct TableTruth {
    pub state: State,
    pub end_stack: Option<(i32, i32)>,
    /// The table ends a stack by itself once no card fits (it has no control for it).
    pub ends_stacks_itself: bool,
    /// Points on the stack total and the score where the table prints them as text.
    pub total_at: Option<(i32, i32)>,
    pub score_at: Option<(i32, i32)>,
    /// The window's title when the shot was taken, where it is known: a title that shows the score teaches
    /// the word before it.
    pub title: Option<String>,
}

/// How many of a picture's commonest colours are tried as the felt.
const FELT_CANDIDATES: usize = 6;

/// The `n` commonest colours of a picture, commonest first.
fn commonest_colours(image: &RgbaImage, n: usize) -> Vec<[u8; 3]> {
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for p in image.pixels() {
        *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
    }
    let mut colours: Vec<([u8; 3], usize)> = counts.into_iter().collect();
    colours.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    colours.into_iter().take(n).map(|(c, _)| c).collect()
}

/// Learns a theme from a screenshot whose position is known (`truth`): the felt colour (of the picture's
/// commonest colours, the first with four or five card piles of one width on it: four columns, and the stack
/// where the table draws one; the felt may be a panel with larger margins around it), where the columns stand
/// on the felt, the outline darkness (a third of the way from a pile's edge to its card face), the control that
/// ends a stack (the truth's point, else the widest solid button right of the columns, else none: the table
/// ends stacks by itself), and a glyph template
/// per rank shown (the mean of its cards). Returns the ranks learned.
pub fn learn(image: &RgbaImage, truth: &TableTruth, theme: &mut TableTheme) -> Result<Vec<char>> {
    let (felt, shapes, piles, card_width) = commonest_colours(image, FELT_CANDIDATES)
        .into_iter()
        .find_map(|felt| {
            let shapes = shapes(image, felt, theme.felt_tolerance);
            let (piles, card_width) = card_piles(&shapes).ok()?;
            matches!(piles.len(), 4 | 5).then_some((felt, shapes, piles, card_width))
        })
        .context("no card pile found: on none of the picture's commonest colours do four columns of cards stand (is this a Cribbage Solitaire table?)")?;
    theme.felt = format_rgb(felt);
    theme.stack_pile = piles.len() == 5;
    let felt_box = felt_box(&shapes).context("no felt")?;
    // A point's place on the felt, as shares of its box (to four places).
    let share = |v: f64, start: usize, length: usize| (((v - start as f64) / length as f64) * 1e4).round() / 1e4;
    let across = |x: f64| share(x, felt_box.x0, felt_box.width());
    theme.columns = Some(ColumnPlaces {
        left: std::array::from_fn(|i| across(piles[i].x0 as f64)),
        card_width: ((card_width as f64 / felt_box.width() as f64) * 1e4).round() / 1e4,
        felt_aspect: Some(((felt_box.width() as f64 / felt_box.height() as f64) * 1e4).round() / 1e4),
    });
    // Outline darkness: from the longest pile, its face (commonest colour) and the darkest pixel of its left
    // edge at mid-height.
    let longest = piles.iter().max_by_key(|p| p.height()).expect("four or five piles");
    let face = mode(
        (longest.y0..=longest.y1)
            .flat_map(|y| (longest.x0..=longest.x1).map(move |x| (x, y)))
            .map(|(x, y)| rgb_at(image, x, y)),
    )
    .expect("a pile has pixels");
    let middle = (longest.y0 + longest.y1) / 2;
    let edge = (longest.x0..longest.x0 + (card_width / 10).max(4))
        .map(|x| rgb_at(image, x, middle))
        .min_by_key(|&p| luminance(p))
        .expect("a pile is wide");
    let (face_l, edge_l) = (luminance(face), luminance(edge));
    if face_l <= edge_l + 30 {
        bail!(
            "the card faces ({}) are not clearly lighter than their outlines ({})",
            format_rgb(face),
            format_rgb(edge)
        );
    }
    theme.outline_max = edge_l + (face_l - edge_l) / 3;
    // Where no pile shows the stack, a row of small cards may: they have the face of a playable card (the
    // lowest fifth of the longest pile is its front card's).
    theme.card_face = (!theme.stack_pile)
        .then(|| {
            mode(
                (longest.y1 - longest.height() / 5..=longest.y1)
                    .flat_map(|y| (longest.x0..=longest.x1).map(move |x| rgb_at(image, x, y))),
            )
        })
        .flatten()
        .map(format_rgb);
    let on_felt = |(x, y): (i32, i32)| [across(x as f64), share(y as f64, felt_box.y0, felt_box.height())];
    theme.total_at = truth.total_at.map(on_felt);
    theme.score_at = truth.score_at.map(on_felt);
    theme.ends_stacks_itself = truth.ends_stacks_itself;
    theme.end_stack = match truth.end_stack {
        _ if truth.ends_stacks_itself => None,
        Some(point) => Some(on_felt(point)),
        // Found in each picture (the solid button right of the columns), or, where the table shows none, left to
        // the table: a stack can then end only by itself, which the play loop sees or stops on.
        None => None,
    };
    let truth = &truth.state;
    let mut instances: HashMap<char, Vec<Glyph>> = HashMap::new();
    let wanted: Vec<&Vec<Card>> = truth.columns.iter().chain(std::iter::once(&truth.stack)).take(piles.len()).collect();
    for (p, pile) in piles.iter().enumerate() {
        let cards = pile_cards(image, &shapes, pile, theme)?;
        if cards.len() != wanted[p].len() {
            let place = pile_name(p);
            bail!("the picture shows {} card(s) in {place}, the truth {}", cards.len(), wanted[p].len());
        }
        for (card, truth_card) in cards.iter().zip(wanted[p]) {
            instances.entry(truth_card.rank.to_char()).or_default().push(card.glyph.clone());
        }
    }
    let mut ranks: Vec<char> = instances.keys().copied().collect();
    ranks.sort_by_key(|&r| Rank::from_char(r).map(|r| r.index()));
    for &rank in &ranks {
        let mean = Glyph::mean(&instances[&rank]);
        theme.glyphs.retain(|g| g.rank != rank);
        theme.glyphs.push(RankTemplate {
            rank,
            aspect: (mean.aspect * 1e4).round() / 1e4,
            height: (mean.height * 1e4).round() / 1e4,
            rows: glyph::rows_of(&mean.coverage),
        });
    }
    theme.glyphs.sort_by_key(|g| Rank::from_char(g.rank).map(|r| r.index()));
    Ok(ranks)
}
