//! The control that ends a stack (see **The control that ends a stack** in the module doc of [`super`]): a
//! button whose label reads STACK by the fonts' capitals.

use image::RgbaImage;

use super::cards::flat_patches;
use super::marks::ink_boxes;
use crate::vision::colour::{max_diff, mode, rgb_at};
use crate::vision::font_glyphs::FontGlyphs;
use crate::vision::glyph::Glyph;
use crate::vision::runs::Component;

/// The word a control that ends a stack is labelled with ("NEXT STACK", "END STACK").
const STACK_WORD: &str = "STACK";

/// Words a button that may end a stack is labelled with where it does not say [`STACK_WORD`] ("Clear",
/// "Count", "Done"): such a button is only a candidate, tried and proved by what its click does.
const MAY_END_STACK: [&str; 8] = ["CLEAR", "COUNT", "END", "NEXT", "DONE", "PASS", "COLLECT", "PILE"];

/// Words of buttons that do something else ("New game", "Undo", "Hint"): a button whose label says one, even as
/// well as a word of [`MAY_END_STACK`], is never clicked to end a stack.
const DOES_OTHERWISE: [&str; 14] = [
    "GAME", "DEAL", "UNDO", "REDO", "RESTART", "RESET", "HINT", "HELP", "QUIT", "EXIT", "MENU", "OPTIONS", "SOLVE",
    "SHUFFLE",
];

/// The control that ends a stack, where the table labels one so: a button (a patch of flat colour off the cards,
/// at least half as wide again as tall, an eighth to half a card tall, filling half its box or more) whose label reads
/// [`STACK_WORD`] ([`says`]; each letter the fonts' nearest, in either case). None where no control says so: the
/// table then ends its stacks by itself, or the control is named by calibration; a control that is not labelled
/// so is never taken for it.
/// `buttons`: the table's [`labelled_buttons`].
pub(super) fn stack_control(buttons: &[(Component, String)]) -> Option<(i32, i32)> {
    buttons.iter().filter(|(_, text)| says(text, STACK_WORD)).max_by_key(|(b, _)| b.pixels).map(|(b, _)| middle(b))
}

/// The buttons that may end a stack though their label does not say so: labelled with a word of
/// [`MAY_END_STACK`] (as [`says`] reads a label, for words of four letters or more; shorter ones exactly), and
/// neither [`STACK_WORD`] nor a word of [`DOES_OTHERWISE`]; largest first.
/// (`buttons`: the table's [`labelled_buttons`].)
pub(super) fn candidate_controls(buttons: &[(Component, String)]) -> Vec<(i32, i32)> {
    let mut candidates: Vec<&(Component, String)> = buttons.iter().filter(|(_, text)| may_end_stack(text)).collect();
    candidates.sort_by_key(|(b, _)| std::cmp::Reverse(b.pixels));
    candidates.iter().map(|(b, _)| middle(b)).collect()
}

/// Whether a label may mean the stack's end though it does not say so (see [`candidate_controls`]).
fn may_end_stack(label: &str) -> bool {
    let said = |word: &str| {
        if word.len() >= 4 {
            says(label, word)
        } else {
            label.split_whitespace().any(|w| w == word)
        }
    };
    !said(STACK_WORD) && MAY_END_STACK.iter().any(|w| said(w)) && !DOES_OTHERWISE.iter().any(|w| said(w))
}

/// The buttons off the cards (patches of flat colour at least half as wide again as tall, an eighth to half a
/// card tall, filling half their box or more), each with its label ([`label`]).
pub(super) fn labelled_buttons(
    image: &RgbaImage,
    card: (usize, usize),
    cards: &[Component],
    letters: &FontGlyphs,
) -> Vec<(Component, String)> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    flat_patches(image, |_| true)
        .into_iter()
        .filter(|c| {
            c.width() * 2 >= 3 * c.height()
                && c.height() * 8 >= card.0
                && c.height() * 2 <= card.1
                && c.width() <= 4 * card.0
                && c.pixels * 2 >= c.width() * c.height()
                && !c.touches_edge(w, h)
                && !cards.iter().any(|card| c.overlaps(card))
        })
        .map(|b| (b, label(image, &b, letters)))
        .collect()
}

/// A box's middle.
pub(super) fn middle(b: &Component) -> (i32, i32) {
    (((b.x0 + b.x1) / 2) as i32, ((b.y0 + b.y1) / 2) as i32)
}

/// An icon button by the columns, where no button is labelled: the one patch of flat colour off the cards that is
/// about square (its sides within a third of each other), a sixth to half a card wide, filling half its box or
/// more, with a picture on it (ink, and no word of three letters or more: an icon's parts may read as a letter
/// or two), and within a card's height
/// of the columns (`columns`: the box they cover). `None` where there is no such patch, or more than one: a
/// control no label names is taken only where nothing else could be it, and it is proved by what its click does.
pub(super) fn icon_control(
    image: &RgbaImage,
    card: (usize, usize),
    cards: &[Component],
    columns: &Component,
    letters: &FontGlyphs,
) -> Option<(i32, i32)> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let reach = Component {
        x0: columns.x0.saturating_sub(card.1),
        y0: columns.y0.saturating_sub(card.1),
        x1: columns.x1 + card.1,
        y1: columns.y1 + card.1,
        pixels: 0,
    };
    let icons: Vec<Component> = flat_patches(image, |_| true)
        .into_iter()
        .filter(|c| {
            let (cw, ch) = (c.width(), c.height());
            cw * 3 <= ch * 4
                && ch * 3 <= cw * 4
                && cw * 6 >= card.0
                && cw * 2 <= card.0
                && c.pixels * 2 >= cw * ch
                && !c.touches_edge(w, h)
                && c.overlaps(&reach)
                && !c.overlaps(columns)
                && !cards.iter().any(|card| c.overlaps(card))
        })
        .filter(|b| {
            let text = label(image, b, letters);
            has_ink(image, b) && text.split_whitespace().all(|word| word.chars().count() < 3)
        })
        .collect();
    match icons.as_slice() {
        [icon] => Some(middle(icon)),
        _ => None,
    }
}

/// A button's own colour among its pixels: the commonest, within a sixteenth of the range each channel (a face
/// shaded top to bottom has no one commonest colour, and its label's ink may then be the commonest), as their
/// mean.
fn face_colour(pixels: impl Iterator<Item = [u8; 3]>) -> Option<[u8; 3]> {
    let pixels: Vec<[u8; 3]> = pixels.collect();
    let bucket = |p: &[u8; 3]| [p[0] >> 4, p[1] >> 4, p[2] >> 4];
    let common = mode(pixels.iter().map(bucket))?;
    let inside: Vec<&[u8; 3]> = pixels.iter().filter(|p| bucket(p) == common).collect();
    let mean = |k: usize| (inside.iter().map(|p| p[k] as usize).sum::<usize>() / inside.len()) as u8;
    Some([mean(0), mean(1), mean(2)])
}

/// Whether a button (its box) shows ink: pixels differing from its own colour ([`face_colour`]) by 30 or more.
fn has_ink(image: &RgbaImage, button: &Component) -> bool {
    let (w, h) = (button.width(), button.height());
    let pixel = |i: usize| rgb_at(image, button.x0 + i % w, button.y0 + i / w);
    let Some(colour) = face_colour((0..w * h).map(pixel)) else { return false };
    (0..w * h).filter(|&i| max_diff(pixel(i), colour) >= 30).count() * 20 >= w * h
}

/// Whether a label holds `word`, one letter of it changed, added or left out (letters only: a wide gap in a
/// word, "ST ACK", is no break).
fn says(label: &str, word: &str) -> bool {
    let letters: Vec<char> = label.chars().filter(|c| !c.is_whitespace()).collect();
    let n = word.chars().count();
    (n.saturating_sub(1)..=n + 1).any(|len| {
        letters.windows(len.max(1)).any(|part| differs_by_at_most_one(&part.iter().collect::<String>(), word))
    })
}

/// Whether two words are the same but for one letter changed, added or left out.
fn differs_by_at_most_one(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    match long.len() - short.len() {
        0 => a.iter().zip(&b).filter(|(x, y)| x != y).count() <= 1,
        1 => (0..long.len())
            .any(|skip| long.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, c)| c).eq(short.iter())),
        _ => false,
    }
}

/// The text on a button (its box), in capitals: the ink that differs from the button's own colour ([`face_colour`]; by at least half
/// the most any pixel does, and at least 30), in shapes (from two fifths of the tallest's height: a label's small
/// letters too), each read as the fonts' nearest letter, words split where the gap is over half a letter's height.
fn label(image: &RgbaImage, button: &Component, letters: &FontGlyphs) -> String {
    let (w, h) = (button.width(), button.height());
    let pixel = |i: usize| rgb_at(image, button.x0 + i % w, button.y0 + i / w);
    let Some(colour) = face_colour((0..w * h).map(pixel)) else { return String::new() };
    // A label may be faint (a button greyed while it cannot be used): ink is measured against the strongest.
    let differences: Vec<u8> = (0..w * h).map(|i| max_diff(pixel(i), colour)).collect();
    let strongest = differences.iter().copied().max().unwrap_or(0).max(1);
    if strongest < 30 {
        return String::new();
    }
    let alpha: Vec<f32> = differences.iter().map(|&d| d as f32 / strongest as f32).collect();
    let mut shapes: Vec<(usize, usize, usize, usize)> =
        ink_boxes(&alpha, w).into_iter().filter(|b| b.0 > 0 && b.1 > 0 && b.2 + 1 < w && b.3 + 1 < h).collect();
    let tallest = shapes.iter().map(|s| s.3 - s.1 + 1).max().unwrap_or(0);
    shapes.retain(|s| (s.3 - s.1 + 1) * 10 >= tallest * 4);
    shapes.sort_by_key(|s| s.0);
    let mut text = String::new();
    for (k, &(x0, y0, x1, y1)) in shapes.iter().enumerate() {
        if k > 0 && (x0 - shapes[k - 1].2) * 2 > tallest {
            text.push(' ');
        }
        let mark = Glyph::cut(&alpha, w, (x0, y0, x1, y1));
        if let Some((letter, _, _)) = letters.nearest(&mark, y1 - y0 + 1, Some) {
            text.push(letter.to_ascii_uppercase());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label says STACK with one letter misread, added or missing, or split by a wide gap; other words, or
    /// STACK with two letters wrong, do not.
    #[test]
    fn a_label_says_stack_within_one_letter() {
        for label in ["NEXT STACK", "NEXT ST ACK", "END STAOK", "NEXTSTACKS", "STAK", "NEW STACK"] {
            assert!(says(label, STACK_WORD), "{label}");
        }
        for label in ["NEW GAME", "UNDO", "SETTINGS", "SHACO", "", "ST"] {
            assert!(!says(label, STACK_WORD), "{label}");
        }
    }

    /// A label that may mean the stack's end (to be proved by its click) says one of the words, read as badly as
    /// a thin font is ("E LO COU LT" for "End count"); one that says STACK is the control itself, and one that
    /// says something else too is never a candidate.
    #[test]
    fn a_label_may_mean_the_stack_s_end_by_its_words() {
        for label in ["CLEAR", "COUNT", "E LO COU LT", "DONE", "END", "PASS"] {
            assert!(may_end_stack(label), "{label}");
        }
        for label in ["NEXT STACK", "NEW GAME", "END GAME", "CLEAR AND RESTART", "UNDO", "SCORE", "ENDS", ""] {
            assert!(!may_end_stack(label), "{label}");
        }
    }
}
