//! Places (see **Places.** in the module doc of [`super`]): the four columns and the stack, from the fans and the
//! empty places a table outlines.

use crate::clients::cribbage::reading::Bands;
use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::cards::{card_size, fans, pieces, FaceLook, Fan};
use crate::clients::cribbage::reading::{in_reading_order, TablePoints};
use crate::vision::runs::Component;

/// The empty places a table outlines (an emptied column, an empty stack): card-sized rings of edges (where
/// the colour steps) around nothing light, away from every card.
fn empty_places(image: &RgbaImage, card: (usize, usize), pieces: &[Component]) -> Vec<Component> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let step = |i: usize, j: usize| (0..3).any(|k| raw[4 * i + k].abs_diff(raw[4 * j + k]) > 24);
    let edges: Vec<bool> = (0..w * h)
        .map(|i| {
            let x = i % w;
            (x + 1 < w && step(i, i + 1)) || (i + w < w * h && step(i, i + w))
        })
        .collect();
    crate::vision::runs::components(w, h, 1, |y| &edges[y * w..(y + 1) * w])
        .into_iter()
        .filter(|c| c.width().abs_diff(card.0) * 12 <= card.0 && c.height().abs_diff(card.1) * 12 <= card.1)
        .filter(|c| c.pixels * 4 <= c.width() * c.height())
        .filter(|c| !pieces.iter().any(|p| p.width() * 4 >= card.0 && c.overlaps(p)))
        .collect()
}

/// The table's layout: the columns' fans (by column), the stack's fan or small cards, the card size, and the
/// columns' line.
pub(super) struct Layout {
    pub(super) columns: [Option<Fan>; 4],
    pub(super) stack_pile: Option<Fan>,
    pub(super) stack_row: Vec<Component>,
    pub(super) card: (usize, usize),
    /// How this picture's bands were cut (or the earlier picture's), where the table draws cards with no edge.
    pub(super) bands: Option<Bands>,
}

pub(super) fn layout(image: &RgbaImage, look: FaceLook, hint: Option<&TablePoints>) -> Result<Layout> {
    let (pieces, bands) = pieces(image, look, hint.and_then(|h| h.bands));
    let fans = fans(&pieces);
    let card = card_size(&fans).context("no card found: nothing light and card-shaped stands out")?;
    let full = |c: &Component| c.width().abs_diff(card.0) * 12 <= card.0 && c.height().abs_diff(card.1) * 12 <= card.1;
    let places: Vec<Fan> = empty_places(image, card, &pieces)
        .into_iter()
        .map(|outline| Fan { pieces: vec![outline], run: None, empty: true })
        .collect();
    let whole: Vec<&Fan> = fans.iter().filter(|f| full(f.front())).chain(&places).collect();
    // The columns: the most fans (at most four) that start on one line, one way.
    let tolerance = (card.0 / 10).max(3);
    let mut best: Option<(bool, Vec<&Fan>)> = None;
    for across in [false, true] {
        for line in whole.iter().flat_map(|anchor| anchor.starts(across)) {
            let on_line: Vec<&Fan> = whole
                .iter()
                .filter(|f| f.starts(across).iter().any(|s| s.abs_diff(line) <= tolerance))
                .copied()
                .collect();
            // Most fans; between as many, most cards (a lone column beside the stack holds more, as a rule).
            let cards = |fans: &[&Fan]| fans.iter().map(|f| f.cards()).sum::<usize>();
            let better = match &best {
                None => true,
                Some((_, fans)) => (on_line.len(), cards(&on_line)) > (fans.len(), cards(fans)),
            };
            if better {
                best = Some((across, on_line));
            }
        }
    }
    let (across, mut on_line) = best.context("no column of cards found")?;
    on_line.sort_by_key(|f| f.place(across));
    if on_line.len() > 5 {
        bail!("{} fans of cards start on one line; a table has four columns (and a stack)", on_line.len());
    }
    let mut stack_pile = None;
    if on_line.len() == 5 {
        // Four at one pitch, and the stack beside them: the one whose leaving makes the pitch most even.
        let spread = |fans: &[&Fan]| {
            let gaps: Vec<usize> = fans.windows(2).map(|p| p[1].place(across) - p[0].place(across)).collect();
            gaps.iter().max().unwrap_or(&0) - gaps.iter().min().unwrap_or(&0)
        };
        let drop_last = spread(&on_line[..4]) <= spread(&on_line[1..]);
        stack_pile = Some(if drop_last { on_line.remove(4) } else { on_line.remove(0) }.clone());
    }
    let columns = number_columns(&on_line, across, hint)?;
    if stack_pile.is_none() {
        let others: Vec<&Fan> =
            whole.iter().filter(|f| !on_line.iter().any(|c| std::ptr::eq(*c, **f))).copied().collect();
        match others.as_slice() {
            [] => {}
            [one] => stack_pile = Some((*one).clone()),
            more => bail!(
                "{} piles of cards stand off the columns' line; a table shows at most one (the stack)",
                more.len()
            ),
        }
    }
    let stack_row = if stack_pile.is_none() {
        let aspect = card.1 as f64 / card.0 as f64;
        let small: Vec<Component> = fans
            .iter()
            .filter(|f| f.pieces.len() == 1)
            .map(|f| f.pieces[0])
            .filter(|c| {
                let share = c.width() as f64 / card.0 as f64;
                let own = c.height() as f64 / c.width() as f64;
                c.width() >= 8
                    && (0.2..0.75).contains(&share)
                    && (own / aspect - 1.0).abs() <= 0.15
                    && c.pixels as f64 >= 0.8 * (c.width() * c.height()) as f64
            })
            .collect();
        in_reading_order(small)
    } else {
        Vec::new()
    };
    Ok(Layout { columns, stack_pile, stack_row, card, bands })
}

/// The columns' numbers of the fans on the columns' line (in order): where the previous picture's columns were,
/// if it is given; else by the pitch (the least gap), the first fan column 1 where the gaps leave it open.
fn number_columns(fans: &[&Fan], across: bool, hint: Option<&TablePoints>) -> Result<[Option<Fan>; 4]> {
    let mut columns: [Option<Fan>; 4] = Default::default();
    if let Some(anchors) = hint.and_then(|h| h.columns) {
        for fan in fans {
            let place = fan.place(across) as i64;
            let at = |c: usize| {
                let (x, y) = anchors[c];
                if across {
                    y as i64
                } else {
                    x as i64
                }
            };
            let c = (0..4).min_by_key(|&c| (at(c) - place).abs()).expect("four columns");
            if columns[c].is_some() {
                bail!("two piles of cards stand where column {} stood", c + 1);
            }
            columns[c] = Some((*fan).clone());
        }
        return Ok(columns);
    }
    let places: Vec<usize> = fans.iter().map(|f| f.place(across)).collect();
    let pitch = places.windows(2).map(|p| p[1] - p[0]).min();
    for (fan, place) in fans.iter().zip(&places) {
        let index = match pitch {
            Some(pitch) if pitch > 0 => ((place - places[0]) as f64 / pitch as f64).round() as usize,
            _ => 0,
        };
        if index > 3 || columns[index].is_some() {
            bail!(
                "the columns do not stand at one pitch (a pile of cards stands {index} pitches from the first, where the gaps are {:?})",
                places.windows(2).map(|p| p[1] - p[0]).collect::<Vec<_>>()
            );
        }
        columns[index] = Some((*fan).clone());
    }
    Ok(columns)
}

/// A point on each column's line, where all four are seen (else none: the next picture numbers them anew).
pub(super) fn column_anchors(layout: &Layout) -> Option<[(i32, i32); 4]> {
    let mut anchors = [(0, 0); 4];
    for (c, fan) in layout.columns.iter().enumerate() {
        let first = fan.as_ref()?.pieces[0];
        anchors[c] = (((first.x0 + first.x1) / 2) as i32, ((first.y0 + first.y1) / 2) as i32);
    }
    Some(anchors)
}
