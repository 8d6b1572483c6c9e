//! Numbers the table prints as text (a stack total, a score), found with no calibration: which is which is
//! not read from the words beside them but learned in play (see [`super::super::CribbageClient`]): the total is
//! the number that shows the rules' total.
//!
//! Text is ink off the cards: pixels whose lightness differs from the picture's commonest lightness off the
//! cards by [`INK_CONTRAST`] or more, in shapes of a text's height (a twentieth to a third of a card's height).
//! Shapes whose heights overlap by half and that stand within a letter's height of each other make a line; a
//! line's last word (after a gap wider than half its height) is read as a number by the common fonts' digits
//! ([`NumberReader`]); lines whose last word does not read as one have none.

use image::RgbaImage;

use crate::vision::colour::luminance;
use crate::vision::printed_number::NumberReader;
use crate::vision::runs::{components, Component};

/// How much text's lightness differs from the table's.
const INK_CONTRAST: i32 = 60;

/// The numbers printed off the cards (`cards`: the boxes of the fans and places; `card`: a card's size), each
/// with a point on it, top to bottom.
pub(super) fn printed_numbers(
    image: &RgbaImage,
    cards: &[Component],
    card: (usize, usize),
    digits: &NumberReader,
) -> Vec<((i32, i32), u32)> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let on_card = |x: usize, y: usize| cards.iter().any(|c| x >= c.x0 && x <= c.x1 && y >= c.y0 && y <= c.y1);
    let lightness: Vec<u8> = image.pixels().map(|p| luminance([p[0], p[1], p[2]])).collect();
    let mut counts = [0usize; 256];
    for y in (0..h).step_by(2) {
        for x in (0..w).step_by(2) {
            if !on_card(x, y) {
                counts[lightness[y * w + x] as usize] += 1;
            }
        }
    }
    let table = counts.iter().enumerate().max_by_key(|&(_, &n)| n).map_or(0, |(l, _)| l) as i32;
    let ink: Vec<bool> =
        (0..w * h).map(|i| (lightness[i] as i32 - table).abs() >= INK_CONTRAST && !on_card(i % w, i / w)).collect();
    let (least, most) = ((card.1 / 20).max(5), card.1 / 3);
    let mut shapes: Vec<Component> = components(w, h, 0, |y| &ink[y * w..(y + 1) * w])
        .into_iter()
        .filter(|c| (least..=most).contains(&c.height()) && c.width() <= c.height() * 2)
        .collect();
    shapes.sort_by_key(|c| (c.x0, c.y0));
    // Lines: each shape joins the line of an earlier one it overlaps by half its height and stands near.
    let mut lines: Vec<Vec<Component>> = Vec::new();
    for shape in shapes {
        let joins = |line: &Vec<Component>| {
            let last = line.last().expect("a line has a shape");
            let shared = (last.y1.min(shape.y1) + 1).saturating_sub(last.y0.max(shape.y0));
            shared * 2 >= shape.height().min(last.height()) && shape.x0 <= last.x1 + last.height().max(shape.height())
        };
        match lines.iter_mut().find(|line| joins(line)) {
            Some(line) => line.push(shape),
            None => lines.push(vec![shape]),
        }
    }
    let mut found: Vec<((i32, i32), u32)> = lines
        .iter()
        .filter_map(|line| {
            let height = line.iter().map(Component::height).max().unwrap_or(1);
            // The last word: back from the last shape while the gaps are narrow.
            let mut first = line.len() - 1;
            while first > 0 && (line[first].x0 as i64 - line[first - 1].x1 as i64) * 2 <= height as i64 {
                first -= 1;
            }
            let word = &line[first..];
            let (x0, x1) = (word[0].x0, word[word.len() - 1].x1);
            let (y0, y1) = (word.iter().map(|c| c.y0).min()?, word.iter().map(|c| c.y1).max()?);
            let point = (((x0 + x1) / 2) as i32, ((y0 + y1) / 2) as i32);
            let number = digits.read(image, point, (x1 - x0 + height) / 2 + 2).ok()?;
            // The whole word is the number (a word that merely ends in digits is not).
            let shown = number.to_string().len();
            (shown == word.len()).then_some((point, number))
        })
        .collect();
    found.sort_by_key(|&((x, y), _)| (y, x));
    found
}
