//! The Cribbage Solitaire reader: screenshot → the cards left in each column, the current stack, and where to
//! click. Nothing about the table's layout is assumed beyond what a player sees: card piles are the
//! card-wide, taller-than-wide shapes on the felt (four columns, then the stack, left to right; an empty one
//! still shows its outline), each card's top edge is a dark outline across the pile, and its rank is the
//! corner glyph at its top left (the last glyph of the corner is the suit sign). The NEXT STACK button is the
//! solid wide shape right of the columns. Colours come from a calibrated theme, ranks from its glyph templates.

use std::collections::HashMap;

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;

use super::theme::{RankTemplate, TableTheme};
use crate::calibration::{first_reading, format_rgb, parse_rgb};
use crate::games::cribbage::{Card, Rank, State};
use crate::vision::colour::{luminance, max_diff, mode, rgb_at};
use crate::vision::glyph;
use crate::vision::runs::{components, flood8, Component};

/// A pile's share of its bounding box that must be drawn for it to hold cards (an empty slot is an outline).
const FILLED_PILE: f64 = 0.5;
/// A row is a card's top (or bottom) outline when a run of outline pixels covers this share of the pile's width.
const OUTLINE_RUN: f64 = 0.75;
/// The corner glyphs lie in this share of a card's width, from its left edge.
const CORNER_WIDTH: f64 = 0.8;

/// Where the bot can act on a table, in image pixels.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TablePoints {
    /// Per column, a point on each card's corner label, buried card first: the last is the playable card's.
    /// These points stay put as cards are played (a card's corner is in view from the moment it is uncovered),
    /// so after a column's front card is played the point before it is the new front's.
    pub cards: [Vec<(i32, i32)>; 4],
    /// The centre of the NEXT STACK button.
    pub next_stack: (i32, i32),
    /// Card width in pixels.
    pub card_width: usize,
}

/// A table read from a picture: the game state (columns and stack; the score is not read) and where to click.
#[derive(Clone, Debug)]
pub struct TableReading {
    pub state: State,
    pub points: TablePoints,
    pub theme: String,
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
    let tall: Vec<&Component> = shapes.components.iter().filter(|c| c.width() >= 16 && c.height() as f64 >= 1.2 * c.width() as f64).collect();
    if tall.is_empty() {
        bail!("no card pile found: nothing on the felt is card-shaped (is this a Cribbage Solitaire table, and is the felt colour calibrated?)");
    }
    // The largest tall shape is a pile (a column of cards, or a card); the others have its width.
    let card_width = tall.iter().max_by_key(|c| c.width() * c.height()).expect("not empty").width();
    let tolerance = (card_width / 20).max(3);
    let mut piles: Vec<Component> = tall.into_iter().filter(|c| c.width().abs_diff(card_width) <= tolerance).copied().collect();
    piles.sort_by_key(|c| c.x0);
    if piles.len() != 5 {
        bail!("found {} card piles {card_width} pixels wide, expected 5 (four columns and the stack)", piles.len());
    }
    Ok((piles, card_width))
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

/// One card's corner rank glyph, normalised, with its aspect and height relative to the card width.
#[derive(Clone, Debug)]
pub struct RankGlyph {
    pub coverage: Vec<f32>,
    pub aspect: f64,
    pub height: f64,
}

/// A card seen in a pile: its corner glyph, and a point on it (the middle of its corner label's rows, across
/// the pile's middle).
struct SeenCard {
    glyph: RankGlyph,
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
        let (glyph, label_y) = corner_glyph(image, shapes, (x0, top, x1, bottom - 1), theme.ink_threshold, pile.width())
            .with_context(|| format!("the card whose top is at ({}, {})", pile.x0, pair[0].0))?;
        cards.push(SeenCard { glyph, centre: (((pile.x0 + pile.x1) / 2) as i32, label_y as i32) });
    }
    Ok(cards)
}

/// The rank glyph in the corner of a card strip (x0, y0, x1, y1 inclusive): the first band of inked rows from
/// the top, split into glyphs at blank columns; all but the last glyph (the suit sign) are the rank. Also gives
/// the picture row in the middle of the label.
fn corner_glyph(image: &RgbaImage, shapes: &Shapes, (x0, y0, x1, y1): (usize, usize, usize, usize), threshold: u8, card_width: usize) -> Result<(RankGlyph, usize)> {
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let face = mode((y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (x, y))).filter(|&(x, y)| shapes.on[y * shapes.width + x]).map(|(x, y)| rgb_at(image, x, y)))
        .ok_or_else(|| anyhow!("its corner is empty"))?;
    let alpha: Vec<f32> = (0..w * h)
        .map(|i| {
            let p = rgb_at(image, x0 + i % w, y0 + i / w);
            let d = max_diff(p, face);
            if d > threshold { (d as f32 / 160.0).min(1.0) } else { 0.0 }
        })
        .collect();
    let alpha = without_outline_ink(alpha, w);
    let inked_row = |y: usize| (0..w).any(|x| alpha[y * w + x] >= 0.5);
    let first = (0..h).find(|&y| inked_row(y)).ok_or_else(|| anyhow!("no corner glyph (face {})", format_rgb(face)))?;
    let last = (first..h).take_while(|&y| inked_row(y)).last().expect("first is inked");
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
    Ok((RankGlyph { coverage, aspect: gw / gh, height: gh / card_width as f64 }, y0 + (first + last) / 2))
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

fn distance(glyph: &RankGlyph, coverage: &[f32], template: &RankTemplate) -> f64 {
    glyph::mean_squared_difference(&glyph.coverage, coverage) + 0.25 * (glyph.aspect - template.aspect).powi(2) + 4.0 * (glyph.height - template.height).powi(2)
}

/// Templates prepared for matching.
struct Matcher<'a> {
    theme: &'a TableTheme,
    felt: [u8; 3],
    templates: Vec<(&'a RankTemplate, Vec<f32>)>,
}

impl<'a> Matcher<'a> {
    fn new(theme: &'a TableTheme) -> Result<Self> {
        if theme.glyphs.is_empty() {
            bail!("theme '{}' has no rank glyphs (see `autoplay calibrate cribbage`)", theme.theme);
        }
        let templates = theme.glyphs.iter().map(|g| Ok((g, g.coverage()?))).collect::<Result<_>>()?;
        Ok(Matcher { theme, felt: parse_rgb(&theme.felt)?, templates })
    }

    /// The best rank, its distance and the next-best other rank's distance.
    fn classify(&self, glyph: &RankGlyph) -> (Rank, f64, f64) {
        let mut per_rank: HashMap<char, f64> = HashMap::new();
        for (template, coverage) in &self.templates {
            let d = distance(glyph, coverage, template);
            let entry = per_rank.entry(template.rank).or_insert(f64::INFINITY);
            *entry = entry.min(d);
        }
        let mut ranked: Vec<(char, f64)> = per_rank.into_iter().collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        let rank = Rank::from_char(ranked[0].0).expect("validated theme");
        (rank, ranked[0].1, ranked.get(1).map_or(f64::INFINITY, |r| r.1))
    }

    fn read(&self, image: &RgbaImage) -> Result<TableReading> {
        let shapes = shapes(image, self.felt, self.theme.felt_tolerance);
        let (piles, card_width) = piles(&shapes)?;
        let next = button(&shapes, piles[3].x1, card_width).context("no NEXT STACK button found right of the columns")?;
        let mut seen: Vec<Vec<Card>> = Vec::new();
        let mut points: [Vec<(i32, i32)>; 4] = Default::default();
        for (p, pile) in piles.iter().enumerate() {
            let cards = pile_cards(image, &shapes, pile, self.theme)?;
            let mut ranks = Vec::new();
            for (i, card) in cards.iter().enumerate() {
                let (rank, best, next) = self.classify(&card.glyph);
                if best > self.theme.max_distance || next - best < self.theme.min_margin {
                    let place = pile_name(p);
                    bail!(
                        "card {} of {place} (near ({}, {})) matches no rank well enough (closest '{}' at {best:.3}, limit {:.3}; next at {next:.3})",
                        i + 1,
                        card.centre.0,
                        card.centre.1,
                        rank.to_char(),
                        self.theme.max_distance
                    );
                }
                ranks.push(Card::new(rank));
            }
            if p < 4 {
                points[p] = cards.iter().map(|c| c.centre).collect();
            }
            seen.push(ranks);
        }
        let stack = seen.pop().expect("five piles");
        let columns: [Vec<Card>; 4] = seen.try_into().map_err(|_| anyhow!("four columns"))?;
        let state = State::new(columns, stack, 0).context("the cards read are not a possible game position")?;
        let next_stack = (((next.x0 + next.x1) / 2) as i32, ((next.y0 + next.y1) / 2) as i32);
        Ok(TableReading { state, points: TablePoints { cards: points, next_stack, card_width }, theme: self.theme.theme.clone() })
    }
}

/// Reads a table with the first theme that reads it.
pub fn read(image: &RgbaImage, themes: &[TableTheme]) -> Result<TableReading> {
    first_reading(themes, "the Cribbage Solitaire table", |theme| Matcher::new(theme)?.read(image))
}

/// How well each card of a picture matched its rank: (best distance, next rank's distance) per card.
pub fn match_scores(image: &RgbaImage, theme: &TableTheme) -> Result<Vec<(char, f64, f64)>> {
    let matcher = Matcher::new(theme)?;
    let shapes = shapes(image, matcher.felt, theme.felt_tolerance);
    let (piles, _) = piles(&shapes)?;
    let mut scores = Vec::new();
    for pile in &piles {
        for card in pile_cards(image, &shapes, pile, theme)? {
            let (rank, best, next) = matcher.classify(&card.glyph);
            scores.push((rank.to_char(), best, next));
        }
    }
    Ok(scores)
}

/// Learns a theme from a screenshot whose position is known (`truth`: columns and stack): the felt colour (the
/// picture's commonest colour), the outline darkness (a third of the way from a pile's edge colour to its card
/// face), and a glyph template per rank shown (the mean of its cards). Returns the ranks learned.
pub fn learn(image: &RgbaImage, truth: &State, theme: &mut TableTheme) -> Result<Vec<char>> {
    let felt = mode(image.pixels().map(|p| [p[0], p[1], p[2]])).context("an empty picture")?;
    theme.felt = format_rgb(felt);
    let shapes = shapes(image, felt, theme.felt_tolerance);
    let (piles, _) = piles(&shapes)?;
    // Outline darkness: from the longest pile, its face (commonest colour) and its left edge at mid-height.
    let longest = piles.iter().max_by_key(|p| p.height()).expect("five piles");
    let face = mode((longest.y0..=longest.y1).flat_map(|y| (longest.x0..=longest.x1).map(move |x| (x, y))).map(|(x, y)| rgb_at(image, x, y)))
        .expect("a pile has pixels");
    let edge = rgb_at(image, longest.x0 + 1, (longest.y0 + longest.y1) / 2);
    let (face_l, edge_l) = (luminance(face), luminance(edge));
    if face_l <= edge_l + 30 {
        bail!("the card faces ({}) are not clearly lighter than their outlines ({})", format_rgb(face), format_rgb(edge));
    }
    theme.outline_max = edge_l + (face_l - edge_l) / 3;
    let mut sums: HashMap<char, (RankGlyph, usize)> = HashMap::new();
    let wanted: Vec<&Vec<Card>> = truth.columns.iter().chain(std::iter::once(&truth.stack)).collect();
    for (p, pile) in piles.iter().enumerate() {
        let cards = pile_cards(image, &shapes, pile, theme)?;
        if cards.len() != wanted[p].len() {
            let place = pile_name(p);
            bail!("the picture shows {} card(s) in {place}, the truth {}", cards.len(), wanted[p].len());
        }
        for (card, truth_card) in cards.iter().zip(wanted[p]) {
            let entry = sums
                .entry(truth_card.rank.to_char())
                .or_insert_with(|| (RankGlyph { coverage: vec![0.0; glyph::GLYPH_SIDE * glyph::GLYPH_SIDE], aspect: 0.0, height: 0.0 }, 0));
            for (s, a) in entry.0.coverage.iter_mut().zip(&card.glyph.coverage) {
                *s += a;
            }
            entry.0.aspect += card.glyph.aspect;
            entry.0.height += card.glyph.height;
            entry.1 += 1;
        }
    }
    let mut ranks: Vec<char> = sums.keys().copied().collect();
    ranks.sort_by_key(|&r| Rank::from_char(r).map(|r| r.index()));
    for &rank in &ranks {
        let (sum, n) = &sums[&rank];
        let n = *n as f64;
        let coverage: Vec<f32> = sum.coverage.iter().map(|s| s / n as f32).collect();
        theme.glyphs.retain(|g| g.rank != rank);
        theme.glyphs.push(RankTemplate {
            rank,
            aspect: (sum.aspect / n * 1e4).round() / 1e4,
            height: (sum.height / n * 1e4).round() / 1e4,
            rows: glyph::rows_of(&coverage),
        });
    }
    theme.glyphs.sort_by_key(|g| Rank::from_char(g.rank).map(|r| r.index()));
    Ok(ranks)
}
