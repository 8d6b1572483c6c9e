//! Flood-It on the screen: a board of flat-coloured square cells found from a calibrated palette
//! ([`reader`], [`theme`]) or from the picture ([`discover`]), played by clicking a cell of the chosen colour
//! ([`actions`]); where the client takes no click on its cells, by its colour buttons ([`buttons`]), its
//! keyboard cursor, or its number keys, each control proved by what it does ([`controls`]).

pub mod actions;
pub mod buttons;
pub mod controls;
pub mod discover;
pub mod median_cells;
pub mod reader;
pub mod reading;
pub mod theme;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use crate::calibration::{format_rgb, theme_to_refresh, ThemeTarget};
use crate::capture::Frame;
use crate::clients::{no_way_read, Cause};
use crate::game::{Action, Answer, CellLayout, Client, FirstWay, Key, Learned, MoveEvents, Reading, Screen, Shown};
use crate::games::flood::board::centre_cell;
use crate::games::flood::sgt_id::SgtFloodId;
use crate::games::flood::{rules, ColourMove, Flood, FloodBoard};
use crate::imageio::read_text;
use crate::vision::printed_char::CharReader;
pub use actions::FloodWay;
use theme::{MovesBy, PaletteTheme, ThemeStart};

/// The truth of a calibration screenshot: the board shown, and the game's own number of each symbol's colour
/// where known (kept in the theme, so that game IDs can be read later).
pub struct FloodTruth {
    pub board: FloodBoard,
    pub game_index_of: HashMap<u8, u32>,
}

impl FloodTruth {
    /// The truth from a board-text file, or from an sgt-flood game ID whose colour numbers map to symbols by
    /// `symbols` (one symbol per colour number 0, 1, 2, …) or else by the themes' own `game_index` mapping.
    pub fn parse(truth: &str, symbols: Option<&str>, themes: &[PaletteTheme]) -> Result<FloodTruth> {
        let mut symbol_of_index: HashMap<u32, u8> = HashMap::new();
        match symbols {
            Some(symbols) => symbol_of_index.extend(symbols.chars().enumerate().map(|(i, s)| (i as u32, s as u8))),
            None => {
                for c in themes.iter().flat_map(|t| &t.colours) {
                    if let Some(i) = c.game_index {
                        symbol_of_index.entry(i).or_insert(c.symbol as u8);
                    }
                }
            }
        }
        let board = if truth.contains(':') && truth.contains(',') && !Path::new(truth).exists() {
            let id = SgtFloodId::parse(truth)?;
            let cells = id
                .colours
                .iter()
                .map(|n| {
                    symbol_of_index
                        .get(n)
                        .copied()
                        .with_context(|| format!("no symbol for game colour {n}: give --symbols"))
                })
                .collect::<Result<_>>()?;
            FloodBoard { width: id.width, height: id.height, cells, start: 0 }
        } else {
            FloodBoard::parse(&read_text(Path::new(truth))?)?
        };
        Ok(FloodTruth { board, game_index_of: symbol_of_index.iter().map(|(&i, &s)| (s, i)).collect() })
    }
}

/// Reads a Flood-It board from a screenshot with the calibrated themes ([`reader`]), else with the board's colours
/// found in the picture ([`discover`]). The theme is the one named, or else the one whose palette matches
/// most of the picture (trying the others in turn if it fails).
pub fn read(image: &RgbaImage, themes: &[PaletteTheme], hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>> {
    read_finding(image, themes, hint).map(|(reading, _)| reading)
}

/// As [`read`], with the palette found in the picture where no theme read it.
pub fn read_finding(
    image: &RgbaImage,
    themes: &[PaletteTheme],
    hint: Option<&CellLayout>,
) -> Result<(Reading<FloodBoard>, Option<PaletteTheme>)> {
    let themed_error = match read_with_themes(image, themes, hint) {
        Some(Ok(reading)) => return Ok((reading, None)),
        Some(Err(error)) => Some(error),
        None => None,
    };
    // No theme reads it: perhaps a client none was made for, or a theme matching the window's colours that fails
    // further on. Where the search fails too, every way's failure is named, the themes' (the one that got
    // furthest) as the cause, whether or not they found a board.
    let found = match read_discovering(image, themes, hint) {
        Ok(read) => return Ok(read),
        Err(found) => found,
    };
    // Cells that no colour fills whole (shaded, textured): named by the medians of their middles. Not where a
    // calibrated theme found the board's lattice in its colours and only some cells did not read: that client's
    // cells are flat in the theme's colours, and the cell it could not read is named, not read another way.
    let themed_lattice = themed_error
        .as_ref()
        .and_then(|e| e.downcast_ref::<crate::vision::lattice::LatticeError>())
        .is_some_and(|e| e.failure() == crate::vision::lattice::Failure::Cells);
    if themed_lattice {
        return Err(no_way_read("Flood-It", themed_error, found, Cause::Themes));
    }
    match median_cells::read(image, None, themes, hint) {
        Ok((reading, palette)) => Ok((reading, Some(palette))),
        Err(median) => {
            let found = found.context(format!("nor by the cells' medians ({median:#}); by flat colours"));
            Err(no_way_read("Flood-It", themed_error, found, Cause::Themes))
        }
    }
}

/// Reads with the board's colours found in the picture (see [`discover`]).
fn read_discovering(
    image: &RgbaImage,
    themes: &[PaletteTheme],
    hint: Option<&CellLayout>,
) -> Result<(Reading<FloodBoard>, Option<PaletteTheme>)> {
    let theme = discover::discover_theme(image, themes, hint)?;
    let reading = reader::read_found(image, &theme, hint)?;
    Ok((reading, Some(theme)))
}

/// Reads with the calibrated themes; `None` when there are none.
fn read_with_themes(
    image: &RgbaImage,
    themes: &[PaletteTheme],
    hint: Option<&CellLayout>,
) -> Option<Result<Reading<FloodBoard>>> {
    if themes.is_empty() {
        return None;
    }
    Some(reader::read_themed(image, themes, hint))
}

/// Flood-It as its pictures show it: the calibration themes its reader may use, and where they came from (so that
/// what play learns can be kept in them; none for themes made in memory).
pub struct FloodScreen {
    pub themes: Vec<PaletteTheme>,
    pub calibration_root: Option<PathBuf>,
}

impl Screen for FloodScreen {
    type Client = FloodClient;
    type Truth = FloodTruth;
    const DEFAULT_THEME: &'static str = "sgt-default";
    const WINDOW_TITLES: &'static [&'static str] = &["Flood"];

    fn load(root: &Path, theme: Option<&str>) -> Result<Self> {
        Ok(FloodScreen { themes: theme::load_themes(root, theme)?, calibration_root: Some(root.to_owned()) })
    }

    fn client(self) -> FloodClient {
        FloodClient { screen: self, shown_start: None, found_palette: None, controls: None, char_reader: None }
    }

    fn reading_json(reading: &Reading<FloodBoard>) -> serde_json::Value {
        let l = &reading.layout;
        let centres: Vec<Vec<(i32, i32)>> =
            (0..l.rows).map(|r| (0..l.cols).map(|c| l.centre(r, c)).collect()).collect();
        serde_json::json!({
            "board": reading.board.to_string(),
            "rows": l.rows, "cols": l.cols, "theme": reading.theme,
            "layout": l, "cell_centres": centres,
        })
    }

    /// Learns the colour of each symbol of the truth without any palette (see [`reader::learn_palette`]) and
    /// merges them into the theme, which is created when new.
    fn calibrate(target: &ThemeTarget, image: &RgbaImage, truth: &FloodTruth) -> Result<String> {
        let (root, theme_name) = (target.root, target.name);
        let mut theme = theme_to_refresh(target, "flood", || PaletteTheme {
            game: "flood".into(),
            theme: theme_name.into(),
            description: String::new(),
            tolerance: 8,
            min_cell: 8,
            start: None,
            moves_by: None,
            colours: Vec::new(),
        })?;
        let board = &truth.board;
        theme.start = match board.start {
            0 => None,
            s if s == centre_cell(board.width, board.height) => Some(ThemeStart::Centre),
            s => bail!(
                "the truth's start (row {}, column {}) is neither the corner nor the centre; a theme keeps only those \
                 (a client starting elsewhere is found from its first move in play)",
                s / board.width + 1,
                s % board.width + 1
            ),
        };
        let learned = reader::learn_palette(image, &truth.board, theme.min_cell)?;
        reader::merge_learned(&mut theme, &learned, &truth.game_index_of);
        theme.validate("the learned theme")?;
        let path = theme.save(root)?;
        let mut out = String::new();
        for l in &learned {
            writeln!(out, "{} {}{}", l.symbol as char, format_rgb(l.rgb), if l.marked { " marked" } else { "" })?;
        }
        eprintln!("wrote {} ({} colours)", path.display(), theme.colours.len());
        Ok(out)
    }
}

/// One window of Flood-It: the screen's themes, and what this window has shown — the colours found in its picture
/// where no theme read it, the controls other than its cells proved or dropped, and the cell its flood grows from
/// where its moves showed that is not the corner.
pub struct FloodClient {
    screen: FloodScreen,
    /// The cell the client's flood grows from, as its moves showed, for boards of this size.
    shown_start: Option<ShownStart>,
    /// The colours found in the picture at the window's first reading, where no theme read it: a game's colours
    /// never change, so later readings of the window use these alone (a frame in mid-fade, or a board darkened
    /// under the game's end box, is then no board rather than a board of new colours).
    found_palette: Option<PaletteTheme>,
    /// What the window's controls other than its cells (buttons, number keys) have been seen to do.
    controls: Option<controls::Controls>,
    /// The fonts' letters and digits, loaded the first time a key printed on a swatch is looked for (the error
    /// where the font list cannot be read).
    char_reader: Option<Arc<std::result::Result<CharReader, String>>>,
}

/// The cell a client's flood grows from, as its moves showed, for boards of this size.
#[derive(Clone, Copy, Debug)]
struct ShownStart {
    width: usize,
    height: usize,
    start: usize,
}

impl FloodClient {
    /// A window read with these themes alone (none: colours found in the picture), kept nowhere.
    pub fn with_themes(themes: Vec<PaletteTheme>) -> FloodClient {
        FloodScreen { themes, calibration_root: None }.client()
    }

    /// The start cell the game's moves have shown for a board of this size, if any.
    fn shown_start(&self, width: usize, height: usize) -> Option<usize> {
        let shown = self.shown_start?;
        ((shown.width, shown.height) == (width, height)).then_some(shown.start)
    }

    /// The theme that read a board, if a calibrated one did.
    fn theme_of(&self, reading: &Reading<FloodBoard>) -> Option<&PaletteTheme> {
        self.screen.themes.iter().find(|t| t.theme == reading.theme)
    }

    /// Refuses a board with a colour that the theme which read it marks unplayable.
    fn check_playable(&self, reading: &Reading<FloodBoard>) -> Result<()> {
        let Some(theme) = self.theme_of(reading) else { return Ok(()) };
        let unplayable: Vec<String> = reading
            .board
            .colours()
            .into_iter()
            .filter_map(|s| theme.colours.iter().find(|c| c.symbol as u8 == s && !c.playable))
            .map(|c| format!("'{}'", c.symbol))
            .collect();
        if !unplayable.is_empty() {
            bail!(
                "refusing to play: the board has colour(s) {} that theme '{}' marks unplayable, because picking them \
                 breaks the game ({})",
                unplayable.join(", "),
                theme.theme,
                theme.description
            );
        }
        Ok(())
    }

    /// A move that recoloured one region other than the flood the bot planned from shows where the client's
    /// flood grows from (a client that floods from the centre): that cell is the start for the rest of the game.
    fn learn_start(&mut self, before: &FloodBoard, mv: &ColourMove, seen: &FloodBoard) -> Option<(FloodBoard, String)> {
        let (width, height) = (before.width, before.height);
        if (seen.width, seen.height) != (width, height) {
            return None;
        }
        let start = rules::start_shown_by_move(width, height, &before.cells, mv.0, &seen.cells)?;
        // A region inside the flood as planned: the move was taken as planned from there (or the user made
        // another); nothing new about the start.
        let mut flood = before.cells.clone();
        rules::apply_move_from(width, height, &mut flood, before.start, 0);
        if flood[start] == 0 {
            return None;
        }
        self.shown_start = Some(ShownStart { width, height, start });
        let cell = |i: usize| format!("row {}, column {}", i / width + 1, i % width + 1);
        let learned = format!(
            "that the flood grows from {} (the region it recoloured), not from {}: playing on from there",
            cell(start),
            cell(before.start)
        );
        Some((FloodBoard { start, ..seen.clone() }, learned))
    }

    /// The board's palette (symbol, colour; marked colours left out): the theme's that read the board, else the
    /// colours found at the first reading, else found again in this frame.
    fn palette_of(&self, frame: &Frame, reading: &Reading<FloodBoard>) -> Result<Vec<(u8, [u8; 3])>> {
        let theme = match (self.theme_of(reading), &self.found_palette) {
            (Some(theme), _) => theme.clone(),
            (None, Some(found)) => found.clone(),
            (None, None) => discover::discover_theme(&frame.image, &self.screen.themes, Some(&reading.layout))?,
        };
        Ok(theme.plain_colours())
    }

    /// The window's controls, their buttons found in this frame the first time (and again when the board is drawn
    /// at another size).
    fn controls_for(&mut self, frame: &Frame, reading: &Reading<FloodBoard>) -> Result<&mut controls::Controls> {
        let pitch = (reading.layout.pitch_x, reading.layout.pitch_y);
        let resized = |c: &controls::Controls| {
            (c.pitch.0 - pitch.0).abs() > 0.02 * pitch.0 || (c.pitch.1 - pitch.1).abs() > 0.02 * pitch.1
        };
        if self.controls.as_ref().is_none_or(resized) {
            let palette = self.palette_of(frame, reading)?;
            let candidates = buttons::find_candidates(&frame.image, &reading.layout, &palette);
            self.controls = Some(controls::Controls::new(pitch, candidates));
        }
        Ok(self.controls.as_mut().expect("controls were just found"))
    }
}

impl Client for FloodClient {
    type Rules = Flood;
    type Layout = CellLayout;
    type Way = FloodWay;

    fn rules(&self) -> &Flood {
        &Flood
    }

    /// A window read again (with `hint`) whose first reading found its colours in the picture is read with those
    /// colours alone: a frame showing others is no board.
    fn read(&mut self, frame: &Frame, hint: Option<&CellLayout>) -> Result<Reading<FloodBoard>> {
        let mut reading = match (hint, &self.found_palette) {
            (Some(_), Some(found)) if found.theme == median_cells::THEME => {
                median_cells::read(&frame.image, Some(found), &[], hint).map(|(reading, _)| reading).map_err(|e| {
                    e.context("the board's cells do not read as the colours found at the start of the game")
                })?
            }
            (Some(_), Some(found)) => reader::read_found(&frame.image, found, hint)
                .map_err(|e| e.context("the board shows colours other than those found at the start of the game"))?,
            _ => {
                let (reading, found) = read_finding(&frame.image, &self.screen.themes, hint)?;
                if hint.is_none() {
                    self.found_palette = found;
                }
                reading
            }
        };
        let (width, height) = (reading.board.width, reading.board.height);
        if self.theme_of(&reading).and_then(|t| t.start) == Some(ThemeStart::Centre) {
            reading.board.start = centre_cell(width, height);
        }
        if let Some(start) = self.shown_start(width, height) {
            reading.board.start = start;
        }
        Ok(reading)
    }

    /// Refuses a board the theme that read it marks unplayable; the way that theme says the client takes moves
    /// (`moves_by`), else cell clicks.
    fn start(&mut self, reading: &Reading<FloodBoard>) -> Result<FirstWay<FloodWay>> {
        self.check_playable(reading)?;
        let calibrated = self.theme_of(reading).and_then(|t| t.moves_by).map(MovesBy::way);
        Ok(calibrated.map_or(FirstWay::Shown(FloodWay::CellClick), FirstWay::Calibrated))
    }

    /// A click on a cell of the colour outside the flood; a click on the colour's button (a candidate until one
    /// is seen to play the colour: [`buttons`], [`controls`]); the same cell chosen with the keyboard cursor and
    /// Enter; a number key (tried in turn until one is seen to play the colour).
    ///
    /// A copy of a cell click, a button click or a number key picks the same colour again once the flood has it,
    /// which leaves the board as it was ([`crate::game::Repeat::SameBoard`]); a copy of the cursor keys moves the
    /// cursor on from the cell the first copy left it on, and Enter then plays another cell: never repeated.
    fn actions(
        &mut self,
        frame: &Frame,
        reading: &Reading<FloodBoard>,
        mv: &ColourMove,
        way: FloodWay,
    ) -> Result<Option<MoveEvents>> {
        let board = &reading.board;
        let target =
            || actions::target_cell(board, mv.0).with_context(|| format!("no cell of colour '{mv}' outside the flood"));
        match way {
            FloodWay::CellClick => {
                let (row, col) = target()?;
                let (x, y) = reading.layout.centre(row, col);
                Ok(MoveEvents::usual(vec![Action::Click { x, y }]).map(MoveEvents::same_board_if_repeated))
            }
            FloodWay::ColourButton => {
                let controls = self.controls_for(frame, reading)?;
                let Some((i, proven)) = controls.button_for(mv.0) else { return Ok(None) };
                let (x, y) = controls.candidates[i].point(&reading.layout);
                Ok(MoveEvents::named("a click on the colour's button", vec![Action::Click { x, y }])
                    .map(|e| e.trying((!proven).then_some(i)).same_board_if_repeated()))
            }
            FloodWay::CursorKeys => Ok(MoveEvents::named(
                "the cursor keys to a cell of the colour, and Enter",
                actions::cursor_keys(board.width, board.height, target()?, Action::Key(Key::Enter)),
            )),
            FloodWay::CursorSpace => Ok(MoveEvents::named(
                "the cursor keys to a cell of the colour, and Space",
                actions::cursor_keys(board.width, board.height, target()?, Action::Type(' ')),
            )),
            FloodWay::NumberKey => {
                let colours = self.palette_of(frame, reading)?.len();
                let controls = self.controls_for(frame, reading)?;
                let Some((key, proven)) = controls.key_for(mv.0, colours) else { return Ok(None) };
                let digit = char::from_digit(key as u32, 10).expect("keys 1-9");
                Ok(MoveEvents::named("a number key", vec![Action::Type(digit)])
                    .map(|e| e.trying((!proven).then_some(controls::NUMBER_KEYS + key)).same_board_if_repeated()))
            }
            FloodWay::PrintedKey => {
                let Some(root) = self.screen.calibration_root.as_deref() else { return Ok(None) };
                let reader = self
                    .char_reader
                    .get_or_insert_with(|| Arc::new(CharReader::load(root).map_err(|e| format!("{e:#}"))))
                    .clone();
                let Ok(reader) = reader.as_ref() else { return Ok(None) };
                let controls = self.controls_for(frame, reading)?;
                controls.read_printed(&frame.image, &reading.layout, reader);
                let Some((key, proven)) = controls.printed_key_for(mv.0) else { return Ok(None) };
                let control = controls::key_control(key).expect("printed keys are letters and digits");
                Ok(MoveEvents::named("the key printed on the colour's swatch", vec![Action::Type(key)])
                    .map(|e| e.trying((!proven).then_some(control)).same_board_if_repeated()))
            }
            FloodWay::LetterKey => {
                let palette = self.palette_of(frame, reading)?;
                let Some(&(_, rgb)) = palette.iter().find(|&&(symbol, _)| symbol == mv.0) else { return Ok(None) };
                let controls = self.controls_for(frame, reading)?;
                let Some((letter, proven)) = controls.letter_for(mv.0, rgb) else { return Ok(None) };
                let control = controls::LETTER_KEYS + (letter as u8 - b'a') as usize;
                Ok(MoveEvents::named("the initial of the colour's name", vec![Action::Type(letter)])
                    .map(|e| e.trying((!proven).then_some(control)).same_board_if_repeated()))
            }
        }
    }

    /// What a move shows: the control on trial kept for the colour its flood took, or dropped; and where the board
    /// moved otherwise than planned, the cell the client's flood grows from ([`FloodClient::learn_start`]).
    fn shown(&mut self, shown: Shown<'_, Self>) -> Result<Answer<FloodBoard>> {
        let Shown::Move { before, mv, seen, expected, trial } = shown else { return Ok(Answer::Nothing) };
        let control = trial.and_then(|control| self.controls.as_mut()?.learn(control, before, seen));
        let variant = if seen != expected && seen != before { self.learn_start(before, mv, seen) } else { None };
        Ok(Answer::Learned(Learned { variant, control }))
    }

    /// A way other than cell clicks worked: the calibrated theme that read the board can keep it (`moves_by`), so
    /// that the next game starts with it; with `keep` it does. Colours found in the picture have no theme to keep
    /// it in.
    fn keep_way(&mut self, reading: &Reading<FloodBoard>, way: FloodWay, keep: bool) -> Result<Option<String>> {
        let (Some(root), Some(moves_by)) = (&self.screen.calibration_root, MovesBy::of_way(way)) else {
            return Ok(None);
        };
        let Some(theme) = self.theme_of(reading).filter(|t| t.moves_by != Some(moves_by)) else { return Ok(None) };
        if !keep {
            return Ok(Some(format!(
                "this client takes moves by {}; `autoplay play flood --learn` keeps that in theme '{}'",
                moves_by.name(),
                theme.theme
            )));
        }
        let mut theme = theme.clone();
        theme.moves_by = Some(moves_by);
        let path = theme.save(root)?;
        Ok(Some(format!(
            "kept in theme '{}' ({}): this client takes moves by {}",
            theme.theme,
            path.display(),
            moves_by.name()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Repeat};

    /// A copy of a cell click picks the colour the flood already has (the board is left as it was); a copy of the
    /// cursor keys moves the cursor on and plays another cell.
    #[test]
    fn a_colour_picked_again_leaves_the_board_and_cursor_keys_again_do_not() {
        let (game, mut client) = (Flood, FloodClient::with_themes(Vec::new()));
        let board = FloodBoard::parse("RGB\nGBR\nBRG\n").unwrap();
        let layout = CellLayout::square(3, 3, (0.0, 0.0), 20.0);
        let reading = Reading { board, layout, theme: "test".into() };
        let frame = Frame::from_image(RgbaImage::new(60, 60));
        let mut events = |way| client.actions(&frame, &reading, &ColourMove(b'G'), way).unwrap().unwrap();
        assert_eq!(events(FloodWay::CellClick).repeat, Repeat::SameBoard);
        assert_eq!(events(FloodWay::CursorKeys).repeat, Repeat::Changes);
        assert!(events(FloodWay::CursorKeys).actions.contains(&Action::Key(crate::game::Key::Enter)));
        // The colour picked again: the board the first copy left.
        let once = game.apply(&reading.board, &ColourMove(b'G'));
        assert_eq!(game.apply(&once, &ColourMove(b'G')), once);
    }

    /// A move that recoloured the centre's region teaches the start; one that recoloured the corner's region (the
    /// flood as planned), or took another colour than the move's (the user's own move), teaches nothing.
    #[test]
    fn a_move_teaches_the_start_only_when_it_grew_from_elsewhere() {
        let (game, mut client) = (Flood, FloodClient::with_themes(Vec::new()));
        let before = FloodBoard::parse("RGBR\nGBRG\nBRGB\nRGBR\n").unwrap();
        let mut centre_moved = before.clone();
        centre_moved.start = centre_cell(4, 4);
        let seen = game.apply(&centre_moved, &ColourMove(b'G'));
        let seen = FloodBoard { start: 0, ..seen };
        let (board, learned) =
            client.learn_start(&before, &ColourMove(b'G'), &seen).expect("the centre's region moved");
        assert_eq!(board.start, 5, "{learned}");
        assert!(learned.contains("row 2, column 2"), "{learned}");
        assert_eq!(client.shown_start(4, 4), Some(5));
        assert_eq!(client.shown_start(5, 5), None);

        let mut client = FloodClient::with_themes(Vec::new());
        let as_planned = game.apply(&before, &ColourMove(b'G'));
        assert!(client.learn_start(&before, &ColourMove(b'G'), &as_planned).is_none());
        let users_move = game.apply(&before, &ColourMove(b'B'));
        assert!(client.learn_start(&before, &ColourMove(b'G'), &users_move).is_none());
        assert_eq!(client.shown_start(4, 4), None);
    }
}
