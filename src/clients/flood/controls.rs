//! What a game learns, move by move, of a client's controls other than its cells: which candidate button
//! ([`super::buttons`]) floods with which colour, which number key does, and which letter key (the initials of the
//! names a person would give the colour, as a terminal game takes `r` for red; or the key printed on the colour's
//! swatch, read by the fonts: [`crate::vision::printed_char`]).
//!
//! Every control starts untried. A move made with one is a trial (`MoveEvents::trial`); what it shows decides:
//! the flood took one colour (the cells it changed all have it) — the control plays that colour, whichever colour
//! it was tried for; the board was as before — a button is dropped, and never clicked again; a key is taken to
//! play the flood's own colour (picking the flood's colour is no move) until a move for that colour shows
//! otherwise, and a second key that does nothing under the same flood shows the client takes no number keys;
//! any other change — the control is dropped. A control proved for a colour is used for it without
//! trial for the rest of the game.

use image::RgbaImage;

use super::buttons::Candidate;
use crate::game::CellLayout;
use crate::games::flood::FloodBoard;
use crate::vision::printed_char::CharReader;

/// Control numbers from here on are number keys: `NUMBER_KEYS + k` is key `k` (1–9).
pub const NUMBER_KEYS: usize = 1 << 16;
/// Control numbers from here on are letter keys: `LETTER_KEYS + i` is the letter `a` + `i`.
pub const LETTER_KEYS: usize = 1 << 17;
/// The names of a colour whose initials are tried as its key: the nearest this many.
const NAMES_TRIED: usize = 2;

/// What a control number names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    Button(usize),
    Number(usize),
    Letter(usize),
}

impl Control {
    fn of(control: usize) -> Control {
        if control >= LETTER_KEYS {
            Control::Letter(control - LETTER_KEYS)
        } else if control >= NUMBER_KEYS {
            Control::Number(control - NUMBER_KEYS)
        } else {
            Control::Button(control)
        }
    }
}

/// What is known of one control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    Untried,
    /// Seen to flood with this colour.
    Plays(u8),
    /// Did nothing when the flood had this colour: perhaps it plays it.
    MaybePlays(u8),
    Dropped,
}

/// The controls of one game window.
#[derive(Clone, Debug)]
pub struct Controls {
    /// The cells' pitch across and down when the buttons were found (a window drawn at another size is searched
    /// again).
    pub pitch: (f64, f64),
    pub candidates: Vec<Candidate>,
    buttons: Vec<Known>,
    keys: [Known; 10],
    letters: [Known; 26],
    /// The key printed on each candidate (a lower-case letter or a digit), once read.
    printed: Option<Vec<Option<char>>>,
}

impl Controls {
    pub fn new(pitch: (f64, f64), candidates: Vec<Candidate>) -> Controls {
        let buttons = vec![Known::Untried; candidates.len()];
        Controls {
            pitch,
            candidates,
            buttons,
            keys: [Known::Untried; 10],
            letters: [Known::Untried; 26],
            printed: None,
        }
    }

    /// Reads the key printed on each candidate, the first time it is asked for, in a picture whose board is at
    /// `layout`.
    pub fn read_printed(&mut self, image: &RgbaImage, layout: &CellLayout, reader: &CharReader) {
        if self.printed.is_some() {
            return;
        }
        let printed = self
            .candidates
            .iter()
            .map(|c| {
                let (x, y) = c.point(layout);
                let (half_w, half_h) = (c.width as i32 / 2, c.height as i32 / 2);
                let (x0, y0) = ((x - half_w).max(0) as usize, (y - half_h).max(0) as usize);
                let area = (x0, y0, (x + half_w).max(0) as usize, (y + half_h).max(0) as usize);
                reader.read_on(image, area, c.rgb).map(|p| p.key)
            })
            .collect();
        self.printed = Some(printed);
    }

    /// The key printed on `colour`'s swatch, and whether it is proved: a printed key seen to play the colour, else
    /// the key printed on a candidate of the colour (best first) that may play it or is untried.
    pub fn printed_key_for(&self, colour: u8) -> Option<(char, bool)> {
        let printed = self.printed.as_ref()?;
        let keys = || printed.iter().flatten().copied();
        if let Some(key) = keys().find(|&key| self.known_key(key) == Some(Known::Plays(colour))) {
            return Some((key, true));
        }
        let usable = |key: char| {
            let known = self.known_key(key);
            known == Some(Known::Untried) || known == Some(Known::MaybePlays(colour))
        };
        (0..self.candidates.len())
            .filter(|&i| self.candidates[i].symbol == colour)
            .filter_map(|i| printed[i])
            .find(|&key| usable(key))
            .map(|key| (key, false))
    }

    /// What is known of a letter or digit key.
    fn known_key(&self, key: char) -> Option<Known> {
        key_control(key).map(|control| match Control::of(control) {
            Control::Number(k) => self.keys[k],
            Control::Letter(i) => self.letters[i],
            Control::Button(i) => self.buttons[i],
        })
    }

    /// The button to click for `colour`, and whether it is proved: one seen to play it, else the best untried
    /// candidate of that colour.
    pub fn button_for(&self, colour: u8) -> Option<(usize, bool)> {
        if let Some(i) = self.buttons.iter().position(|&k| k == Known::Plays(colour)) {
            return Some((i, true));
        }
        (0..self.candidates.len())
            .find(|&i| self.buttons[i] == Known::Untried && self.candidates[i].symbol == colour)
            .map(|i| (i, false))
    }

    /// The number key (1–9) to press for `colour` on a board of `colours` colours, and whether it is proved:
    /// one seen to play it, else one that may, else the first untried key.
    pub fn key_for(&self, colour: u8, colours: usize) -> Option<(usize, bool)> {
        let keys = 1..=colours.min(9);
        if let Some(k) = keys.clone().find(|&k| self.keys[k] == Known::Plays(colour)) {
            return Some((k, true));
        }
        keys.clone()
            .find(|&k| self.keys[k] == Known::MaybePlays(colour))
            .or_else(|| keys.clone().find(|&k| self.keys[k] == Known::Untried))
            .map(|k| (k, false))
    }

    /// The letter key to press for `colour`, drawn `rgb`, and whether it is proved: one seen to play it, else the
    /// initial of a name of the colour (nearest first) that may play it or is untried.
    pub fn letter_for(&self, colour: u8, rgb: [u8; 3]) -> Option<(char, bool)> {
        let letter = |i: usize| (b'a' + i as u8) as char;
        if let Some(i) = self.letters.iter().position(|&k| k == Known::Plays(colour)) {
            return Some((letter(i), true));
        }
        let initials = crate::vision::colour::colour_names(rgb)
            .into_iter()
            .take(NAMES_TRIED)
            .filter_map(|name| name.bytes().next())
            .map(|b| (b - b'a') as usize);
        let usable = |k: Known| k == Known::Untried || k == Known::MaybePlays(colour);
        initials.into_iter().find(|&i| usable(self.letters[i])).map(|i| (letter(i), false))
    }

    /// Learns from what a move made with `control` showed (see the module doc); says what was learned.
    pub fn learn(&mut self, control: usize, before: &FloodBoard, seen: &FloodBoard) -> Option<String> {
        let changed: Vec<u8> = (0..seen.cells.len().min(before.cells.len()))
            .filter(|&i| before.cells[i] != seen.cells[i])
            .map(|i| seen.cells[i])
            .collect();
        let flood = before.cells.get(before.start).copied().unwrap_or(b'?');
        let control = Control::of(control);
        // Two keys of a kind that do nothing while the flood has one colour cannot both play it: the client takes
        // no keys of that kind.
        let (kind, keys, key): (&str, &mut [Known], usize) = match control {
            Control::Number(k) => ("number", &mut self.keys[..], k),
            Control::Letter(i) => ("letter", &mut self.letters[..], i),
            Control::Button(_) => ("", &mut [][..], 0),
        };
        let keys_dead = !kind.is_empty()
            && changed.is_empty()
            && keys.iter().enumerate().any(|(k, &other)| k != key && other == Known::MaybePlays(flood));
        if keys_dead {
            keys.fill(Known::Dropped);
            return Some(format!(
                "that the key {} does nothing either while the flood is '{}': the client takes no {kind} keys",
                key_name(control),
                flood as char
            ));
        }
        let (known, name) = match control {
            Control::Number(k) => (self.keys.get_mut(k)?, format!("that the key {}", key_name(control))),
            Control::Letter(i) => (self.letters.get_mut(i)?, format!("that the key {}", key_name(control))),
            Control::Button(control) => {
                let c = self.candidates.get(control)?;
                let name = format!(
                    "that the {}×{} patch of {} at ({:.0}, {:.0}) from the board's corner",
                    c.width,
                    c.height,
                    crate::calibration::format_rgb(c.rgb),
                    c.offset.0,
                    c.offset.1
                );
                (self.buttons.get_mut(control)?, name)
            }
        };
        let is_key = !matches!(control, Control::Button(_));
        let (next, said) = match changed.first() {
            None if is_key && *known == Known::Untried => (
                Known::MaybePlays(flood),
                format!("does nothing while the flood is '{}' (perhaps it plays that colour)", flood as char),
            ),
            None => (Known::Dropped, "does nothing: dropped".to_string()),
            Some(&colour) if changed.iter().all(|&c| c == colour) => {
                (Known::Plays(colour), format!("floods with '{}'", colour as char))
            }
            Some(_) => (Known::Dropped, "changes the board as no move does: dropped".to_string()),
        };
        *known = next;
        Some(format!("{name} {said}"))
    }
}

/// The control number of a letter or digit key (lower-case letters; digits 0–9).
pub fn key_control(key: char) -> Option<usize> {
    match key {
        'a'..='z' => Some(LETTER_KEYS + (key as u8 - b'a') as usize),
        '0'..='9' => Some(NUMBER_KEYS + (key as u8 - b'0') as usize),
        _ => None,
    }
}

/// A key as the log names it: the digit or the letter.
fn key_name(control: Control) -> String {
    match control {
        Control::Number(k) => k.to_string(),
        Control::Letter(i) => ((b'a' + i as u8) as char).to_string(),
        Control::Button(i) => format!("button {i}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(symbol: u8, x: f64) -> Candidate {
        Candidate {
            offset: (x, -40.0),
            width: 30,
            height: 30,
            pixels: 700,
            rgb: [0, 0, 0],
            symbol,
            distance: 0,
            set: 2,
        }
    }

    fn board(text: &str) -> FloodBoard {
        FloodBoard::parse(text).unwrap()
    }

    /// A candidate that does nothing is dropped and the next one of its colour is tried; one that floods with
    /// another colour than it was tried for plays that colour from then on, without trial.
    #[test]
    fn a_button_is_kept_for_the_colour_it_floods_with_and_dropped_when_it_does_nothing() {
        let mut controls =
            Controls::new((20.0, 20.0), vec![candidate(b'G', 0.0), candidate(b'G', 40.0), candidate(b'B', 80.0)]);
        let before = board("RG\nBG\n");
        assert_eq!(controls.button_for(b'G'), Some((0, false)));
        let said = controls.learn(0, &before, &before).unwrap();
        assert!(said.ends_with("does nothing: dropped"), "{said}");
        assert_eq!(controls.button_for(b'G'), Some((1, false)));
        // Tried for G, it flooded with B: it is B's button, and G has no candidate left.
        let said = controls.learn(1, &before, &board("BG\nBG\n")).unwrap();
        assert!(said.ends_with("floods with 'B'"), "{said}");
        assert_eq!(controls.button_for(b'B'), Some((1, true)));
        assert_eq!(controls.button_for(b'G'), None);
        // A change that is no move drops it.
        let said = controls.learn(2, &before, &board("BR\nBG\n")).unwrap();
        assert!(said.ends_with("changes the board as no move does: dropped"), "{said}");
        assert_eq!(controls.button_for(b'B'), Some((1, true)));
    }

    /// Number keys are tried in order; a key that does nothing may play the flood's own colour, and is tried for
    /// that colour (and dropped if it does nothing again); a key seen to play a colour is used without trial.
    #[test]
    fn number_keys_are_learned_from_what_they_flood_with() {
        let mut controls = Controls::new((20.0, 20.0), Vec::new());
        let before = board("RG\nBG\n");
        assert_eq!(controls.key_for(b'G', 3), Some((1, false)));
        controls.learn(NUMBER_KEYS + 1, &before, &board("BG\nBG\n"));
        assert_eq!(controls.key_for(b'B', 3), Some((1, true)));
        assert_eq!(controls.key_for(b'G', 3), Some((2, false)));
        let said = controls.learn(NUMBER_KEYS + 2, &before, &before).unwrap();
        assert!(said.contains("perhaps it plays that colour"), "{said}");
        assert_eq!(controls.key_for(b'R', 3), Some((2, false)));
        assert_eq!(controls.key_for(b'G', 3), Some((3, false)));
        controls.learn(NUMBER_KEYS + 2, &before, &before);
        assert_eq!(controls.key_for(b'R', 3), Some((3, false)));
        // Two keys that do nothing under one flood: the client takes no number keys.
        let mut dead = Controls::new((20.0, 20.0), Vec::new());
        dead.learn(NUMBER_KEYS + 1, &before, &before);
        let said = dead.learn(NUMBER_KEYS + 2, &before, &before).unwrap();
        assert!(said.ends_with("the client takes no number keys"), "{said}");
        assert_eq!((dead.key_for(b'G', 3), dead.key_for(b'R', 3)), (None, None));
        // Keys past the board's colours are never pressed.
        controls.learn(NUMBER_KEYS + 3, &before, &board("GG\nBG\n"));
        assert_eq!(controls.key_for(b'R', 3), None);
    }

    /// The key printed on a colour's swatch is pressed for that colour until a press shows what it plays; a key
    /// seen to flood with another colour is that colour's from then on, whatever swatch it was printed on.
    #[test]
    fn keys_printed_on_swatches_are_tried_for_their_colour_and_kept_for_the_colour_they_play() {
        let mut controls =
            Controls::new((20.0, 20.0), vec![candidate(b'G', 0.0), candidate(b'B', 40.0), candidate(b'R', 80.0)]);
        assert_eq!(controls.printed_key_for(b'G'), None, "nothing is read yet");
        controls.printed = Some(vec![Some('q'), Some('7'), None]);
        let before = board("RG\nBG\n");
        assert_eq!(controls.printed_key_for(b'G'), Some(('q', false)));
        assert_eq!(controls.printed_key_for(b'B'), Some(('7', false)));
        assert_eq!(controls.printed_key_for(b'R'), None, "its swatch shows no key");
        // 'q', printed on the green swatch, floods with blue: it is blue's key.
        let said = controls.learn(key_control('q').unwrap(), &before, &board("BG\nBG\n")).unwrap();
        assert!(said.ends_with("floods with 'B'"), "{said}");
        assert_eq!(controls.printed_key_for(b'B'), Some(('q', true)));
        assert_eq!(controls.printed_key_for(b'G'), None);
        assert_eq!(key_control('7'), Some(NUMBER_KEYS + 7));
        assert_eq!(key_control('!'), None);
    }

    /// Letter keys are the initials of the colour's names, nearest first: a letter seen to flood with a colour
    /// plays it from then on; one that does nothing may play the flood's colour; two that do nothing under one
    /// flood show the client takes no letter keys.
    #[test]
    fn letter_keys_are_the_initials_of_the_colours_names_learned_from_what_they_flood_with() {
        let (red, blue) = ([205, 0, 0], [0, 0, 238]);
        let mut controls = Controls::new((20.0, 20.0), Vec::new());
        let before = board("RG\nBG\n");
        assert_eq!(controls.letter_for(b'B', blue), Some(('b', false)));
        let said = controls.learn(LETTER_KEYS + 1, &before, &board("BG\nBG\n")).unwrap();
        assert!(said.ends_with("floods with 'B'"), "{said}");
        assert_eq!(controls.letter_for(b'B', blue), Some(('b', true)));
        // 'r' does nothing under a red flood: perhaps it plays red, and is kept for red.
        let said = controls.learn(LETTER_KEYS + (b'r' - b'a') as usize, &before, &before).unwrap();
        assert!(said.contains("perhaps it plays that colour"), "{said}");
        assert_eq!(controls.letter_for(b'R', red), Some(('r', false)));
        // A second letter that does nothing under the same flood: no letter keys.
        let said = controls.learn(LETTER_KEYS + (b'o' - b'a') as usize, &before, &before).unwrap();
        assert!(said.ends_with("the client takes no letter keys"), "{said}");
        assert_eq!(controls.letter_for(b'R', red), None);
    }
}
