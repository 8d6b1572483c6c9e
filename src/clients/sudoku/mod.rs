//! Sudoku on the screen (Simon Tatham's `sgt-solo`, window title "Solo"; GNOME Sudoku, "Sudoku"): the grid is
//! found from its lines ([`crate::vision::lattice::lines`]), each cell's digit by calibrated glyph templates
//! ([`reader`], [`theme`]); the ink colour (or a given's cell background) tells a given from a player's digit,
//! a clash and pencil marks; other clients (KSudoku, web pages, a curses Sudoku in a terminal) are read with no
//! calibration ([`discover`]). An entry is made by clicking its cell and typing the digit ([`actions`]); where a
//! click by itself enters a digit (KSudoku), the play loop points at the cell instead; where the window shows a
//! keyboard cursor that a click does not move (a terminal), the cursor is moved to the cell with the arrow keys or
//! h/j/k/l, then the digit typed.

pub mod actions;
pub mod cursor;
pub mod discover;
pub mod naming;
pub mod number_pad;
pub mod reader;
pub mod reading;
pub mod theme;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use image::RgbaImage;
use serde::Serialize;

pub use reader::read;
pub use reading::SudokuReading;
pub use theme::SudokuTheme;

use crate::calibration::{theme_to_refresh, ThemeTarget};
use crate::capture::{Frame, Settle};
use crate::clients::{no_way_read, Cause};
use crate::game::{
    Action, Answer, CellLayout, Client, FirstWay, Layout, Learned, Marks, MoveEvents, Reading, Screen, Shown, Way,
};
use crate::games::sudoku::{Entry, Sudoku, SudokuGrid};
use crate::vision::glyph::Glyph;

/// Where a Sudoku read from a picture sits, and what the picture showed besides digits.
#[derive(Clone, Debug, Serialize)]
pub struct SudokuLayout {
    /// The cell lattice.
    pub cells: CellLayout,
    /// Empty cells showing pencil marks, (row, column).
    pub pencil: Vec<(usize, usize)>,
    /// Cells drawn in the clash colour, (row, column).
    pub clashes: Vec<(usize, usize)>,
    /// The cell a keyboard cursor highlights, (row, column), where the picture shows one.
    pub cursor: Option<(usize, usize)>,
    /// Which cells hold givens, as the first reading of the window found them: a game's givens do not change, and
    /// some clients tint cells as the pointer passes (KSudoku), which can hide what tells them apart.
    #[serde(skip)]
    pub givens: Vec<bool>,
    /// The givens' digits (0 in other cells), as the first reading of the window found them.
    #[serde(skip)]
    pub given_digits: Vec<u8>,
    /// The grid the window's board was found on with no calibration, if it was.
    #[serde(skip)]
    pub found: Option<reading::FoundGrid>,
}

/// Reads a Sudoku with the calibrated themes first ([`reader`]: fast, and exact for their clients), and when none
/// reads it, or there are none, with no calibration ([`discover`]). When both fail, the failure that found a grid
/// is reported: a theme's where it saw one (its failure is no [`reading::NoGrid`]), else the search's.
pub fn read_any(
    image: &RgbaImage,
    themes: &[SudokuTheme],
    digits: Result<&discover::DigitShapes, &String>,
) -> Result<SudokuReading> {
    let themed_error = if themes.is_empty() {
        None
    } else {
        match reader::read(image, themes) {
            Ok(reading) => return Ok(reading),
            Err(e) => Some(e),
        }
    };
    let found = match digits {
        Ok(shapes) => discover::read(image, shapes),
        Err(why) => Err(anyhow::anyhow!(
            "no calibration theme reads it, and the fonts to read it without one are missing: {why}"
        )),
    };
    found.map_err(|found_error| reported(themed_error, found_error))
}

/// Every way's failure (the themes' is `None` where there are no themes), the cause the themes' unless they found
/// no grid and the search did.
fn reported(themed_error: Option<anyhow::Error>, found_error: anyhow::Error) -> anyhow::Error {
    let found_a_grid = |error: &anyhow::Error| error.downcast_ref::<reading::NoGrid>().is_none();
    let cause = match &themed_error {
        Some(themed) if found_a_grid(themed) || !found_a_grid(&found_error) => Cause::Themes,
        _ => Cause::Search,
    };
    no_way_read("Sudoku", themed_error, found_error, cause)
}

impl Layout for SudokuLayout {
    fn marks(&self) -> Marks {
        self.cells.marks()
    }
}

/// The ways a Sudoku client takes an entry, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SudokuWay {
    /// A click on the cell and the digit typed (the usual way).
    ClickAndType,
    /// A click on the cell, then on the number pad's button that shows the digit.
    NumberPad,
    /// The keyboard cursor moved to the cell with the arrow keys, then the digit typed.
    ArrowKeys,
    /// The keyboard cursor moved to the cell with vi's h/j/k/l, then the digit typed.
    ViKeys,
    /// A click on the cell, the digit typed, then Enter: a client whose digit keys only mark the cell (a pencil
    /// mark) and whose Enter commits the mark.
    ClickTypeAndEnter,
    /// The same with Space to commit.
    ClickTypeAndSpace,
    /// A double click on the cell, then the digit typed: a client that selects a cell only on a double click.
    DoubleClickAndType,
}

impl Way for SudokuWay {
    const USUAL: SudokuWay = SudokuWay::ClickAndType;

    fn next(self) -> Option<SudokuWay> {
        match self {
            // A digit typed that did not enter it may have marked the cell: a person commits it as such clients
            // ask, with Enter or Space, before looking for other ways.
            SudokuWay::ClickAndType => Some(SudokuWay::ClickTypeAndEnter),
            SudokuWay::ClickTypeAndEnter => Some(SudokuWay::ClickTypeAndSpace),
            SudokuWay::ClickTypeAndSpace => Some(SudokuWay::DoubleClickAndType),
            // A click that chose no cell: a person clicks twice.
            SudokuWay::DoubleClickAndType => Some(SudokuWay::NumberPad),
            SudokuWay::NumberPad => Some(SudokuWay::ArrowKeys),
            SudokuWay::ArrowKeys => Some(SudokuWay::ViKeys),
            SudokuWay::ViKeys => None,
        }
    }

    fn number(self) -> usize {
        self as usize
    }
}

/// Sudoku as its pictures show it: the calibration themes its reader may use, and the digit marks of the common
/// fonts for grids read with no calibration (else why they are missing).
pub struct SudokuScreen {
    pub themes: Vec<SudokuTheme>,
    pub digit_shapes: std::result::Result<discover::DigitShapes, String>,
}

/// One window of Sudoku. What a window shows that later readings need (its grid, its givens) travels in the
/// reading's layout; the client keeps the marks of its latest reading, and (in its digit shapes) the shapes this
/// window drew for the digits the bot typed.
pub struct SudokuClient {
    screen: SudokuScreen,
    /// Each cell's mark in the latest reading (glyph, ink height), where it was read with no calibration.
    seen_shapes: Vec<Option<(Glyph, usize)>>,
    /// The side of the latest reading's grid, in cells.
    size: usize,
    /// A keyboard cursor no reading shows, found by what its keys move.
    followed: cursor::FollowedCursor,
}

impl Screen for SudokuScreen {
    type Client = SudokuClient;
    /// The grid shown: givens and the player's digits.
    type Truth = SudokuGrid;
    const DEFAULT_THEME: &'static str = "sgt-default";
    /// sgt-solo's window, else GNOME Sudoku's (or one titled with "Sudoku" in it: KSudoku's, a web page's).
    const WINDOW_TITLES: &'static [&'static str] = &["Solo", "Sudoku"];

    fn load(root: &Path, theme: Option<&str>) -> Result<Self> {
        let themes = theme::load_themes_or_none(root, theme)?;
        let digit_shapes = discover::DigitShapes::load(root).map_err(|e| format!("{e:#}"));
        Ok(SudokuScreen { themes, digit_shapes })
    }

    fn client(self) -> SudokuClient {
        SudokuClient { screen: self, seen_shapes: Vec::new(), size: 0, followed: cursor::FollowedCursor::default() }
    }

    fn reading_json(reading: &Reading<SudokuGrid, SudokuLayout>) -> serde_json::Value {
        let g = &reading.board;
        serde_json::json!({
            "size": g.size, "box": [g.box_rows, g.box_cols],
            "givens": g.givens_text(), "entered": g.entered_text(), "board": g.board_text(),
            "layout": reading.layout.cells, "theme": reading.theme,
            "pencil": reading.layout.pencil, "clashes": reading.layout.clashes, "cursor": reading.layout.cursor,
        })
    }

    /// Learns ink colours and glyph templates from a screenshot whose grid is known, and saves the theme.
    fn calibrate(target: &ThemeTarget, image: &RgbaImage, truth: &SudokuGrid) -> Result<String> {
        let (root, theme_name) = (target.root, target.name);
        let mut theme = theme_to_refresh(target, "sudoku", || SudokuTheme::new(theme_name))?;
        let learned = reader::learn(image, truth, &mut theme)?;
        theme.validate("the learned theme")?;
        let path = theme.save(root)?;
        let mut out = String::new();
        let symbols: String = learned.symbols.iter().collect();
        writeln!(
            out,
            "learned {} glyph(s) at pitch {:.1} from a {}x{} grid: {symbols}",
            learned.symbols.len(),
            learned.pitch,
            learned.size,
            learned.size
        )?;
        let ink = &theme.ink;
        let or_dash = |c: &Option<String>| c.clone().unwrap_or_else(|| "-".into());
        writeln!(
            out,
            "ink: given {}, entered {}, clash {}, pencil {}",
            ink.given,
            or_dash(&ink.entered),
            or_dash(&ink.clash),
            or_dash(&ink.pencil)
        )?;
        eprintln!("wrote {} ({} glyph templates)", path.display(), theme.glyphs.len());
        Ok(out)
    }
}

impl SudokuClient {
    /// The cell just typed into shows another digit than the one typed (and not the one it had): the reader
    /// misread it, or the game took another digit. Either way the bot stops rather than type a second guess over it.
    fn check_entry(before: &SudokuGrid, mv: &Entry, seen: &SudokuGrid) -> Result<()> {
        let i = mv.row * before.size + mv.col;
        if seen.size != before.size {
            return Ok(());
        }
        let shown = seen.cells[i];
        if shown != 0 && shown != mv.value && shown != before.cells[i] {
            bail!(
                "after typing {} into row {}, column {}, the cell reads as {}: the reader misread it, or the game took another \
                 digit; stopped rather than type over it (a client the reader does not know well can be calibrated: \
                 `autoplay calibrate sudoku`)",
                crate::games::sudoku::symbol(mv.value),
                mv.row + 1,
                mv.col + 1,
                crate::games::sudoku::symbol(shown)
            );
        }
        Ok(())
    }

    /// After typing `mv`, its cell shows another digit than the one typed (and not the one it had): where the mark
    /// there (read with no calibration) is not plainly a digit the board already names — one drawing with another
    /// mark read as that digit ([`naming::same_drawing`]) — it is this client's way of drawing the digit typed.
    /// That shape is learned (marks of it are read as that digit for the rest of the game), and the board seen is
    /// the one with the digit typed.
    /// Otherwise the reader misread it, or the game took another digit ([`Self::check_entry`]: stopped).
    fn typed_shape(&mut self, before: &SudokuGrid, mv: &Entry, seen: &SudokuGrid) -> Result<Option<SudokuGrid>> {
        let i = mv.row * before.size + mv.col;
        let shown = seen.cells.get(i).copied().unwrap_or(0);
        if seen.size != before.size || shown == 0 || shown == mv.value || shown == before.cells[i] {
            return Ok(None);
        }
        let mark = self.seen_shapes.get(i).cloned().flatten().filter(|_| self.seen_shapes.len() == seen.cells.len());
        if let (Some((glyph, height)), Ok(digits)) = (mark, self.screen.digit_shapes.as_mut()) {
            let plainly_another = self.seen_shapes.iter().enumerate().any(|(j, other)| {
                j != i
                    && seen.cells[j] == shown
                    && other.as_ref().is_some_and(|(g, h)| naming::same_drawing((g, *h), (&glyph, height)))
            });
            if !plainly_another {
                digits.teach((glyph, height), mv.value);
                let mut board = seen.clone();
                board.cells[i] = mv.value;
                return Ok(Some(board));
            }
        }
        Self::check_entry(before, mv, seen)?;
        Ok(None)
    }

    /// The entry's cell shows a digit it did not have, and no other cell changed.
    fn click_entered(before: &SudokuGrid, mv: &Entry, seen: &SudokuGrid) -> bool {
        let at = mv.row * before.size + mv.col;
        seen.size == before.size
            && seen.cells[at] != 0
            && seen.cells[at] != before.cells[at]
            && seen.cells.iter().zip(&before.cells).enumerate().all(|(i, (s, b))| i == at || s == b)
    }
}

impl Client for SudokuClient {
    type Rules = Sudoku;
    type Layout = SudokuLayout;
    type Way = SudokuWay;

    fn rules(&self) -> &Sudoku {
        &Sudoku
    }

    /// A window read again (with `hint`) whose grid was found with no calibration is read on that grid first, and
    /// that reading stands where it shows every given of the earlier one (a game's givens do not change): what the
    /// client draws over the board for its selection then cannot pass for another grid. Otherwise, and for a first
    /// reading, the calibrated themes first, then with no calibration.
    fn read(&mut self, frame: &Frame, hint: Option<&SudokuLayout>) -> Result<Reading<SudokuGrid, SudokuLayout>> {
        let on_earlier_grid = hint.zip(self.screen.digit_shapes.as_ref().ok()).and_then(|(earlier, shapes)| {
            let reading = discover::read_on(&frame.image, earlier.found.as_ref()?, shapes).ok()?;
            let same_givens = earlier.given_digits.len() == reading.grid.cells.len()
                && earlier.given_digits.iter().zip(&reading.grid.cells).all(|(&given, &v)| given == 0 || v == given);
            same_givens.then_some(reading)
        });
        let reading = match on_earlier_grid {
            Some(reading) => reading,
            None => read_any(&frame.image, &self.screen.themes, self.screen.digit_shapes.as_ref())?,
        };
        self.seen_shapes = reading.shapes;
        let mut grid = reading.grid;
        self.size = grid.size;
        // The mark read as the digit the bot typed into its cell is this client's drawing of that digit.
        if let Ok(shapes) = self.screen.digit_shapes.as_mut() {
            let typed = shapes.typed().filter(|&(cell, digit)| grid.cells.get(cell) == Some(&digit));
            if let Some(Some(shape)) = typed.and_then(|(cell, _)| self.seen_shapes.get(cell)) {
                shapes.learn_typed(shape.clone());
            }
        }
        // The givens of an earlier reading of this window stand while every one of them still shows a digit.
        if let Some(earlier) = hint {
            let kept = earlier.givens.len() == grid.cells.len()
                && earlier.givens.iter().zip(&grid.cells).all(|(&given, &v)| !given || v != 0);
            if kept {
                grid.given.clone_from(&earlier.givens);
            }
        }
        let given_digits = grid.cells.iter().zip(&grid.given).map(|(&v, &given)| if given { v } else { 0 }).collect();
        let layout = SudokuLayout {
            cells: reading.layout,
            pencil: reading.pencil,
            clashes: reading.clashes,
            cursor: reading.cursor,
            givens: grid.given.clone(),
            given_digits,
            found: reading.found,
        };
        Ok(Reading { board: grid, layout, theme: reading.theme })
    }

    /// sgt-solo and GNOME Sudoku draw an entry at once, without animation: an entry counts as made when two
    /// captures in a row show it (no longer quiet period).
    fn settle(&self) -> Settle {
        Settle { interval: Duration::from_millis(3), quiet: Duration::ZERO, after_click: Duration::from_millis(12) }
    }

    /// A click on the cell and the digit typed; where typing does nothing: a click on the cell, then
    /// on the button of the client's number pad that shows the digit ([`number_pad`]), if the frame shows one;
    /// where the picture shows a keyboard cursor (a client that takes only keys, such as a terminal's):
    /// the cursor moved to the cell with the arrow keys or vi's h/j/k/l, then the digit typed.
    ///
    /// A copy of a click (or a point) on the cell and its digit, typed or from the pad, enters the digit the cell
    /// already shows, which leaves the board as it was ([`crate::game::Repeat::SameBoard`]: some clients clear a
    /// digit typed twice, which is why a copy is made only in a client seen to ignore one); a copy of the cursor
    /// keys moves the cursor on from where the first copy left it, and the digit goes into another cell: never
    /// repeated.
    fn actions(
        &mut self,
        frame: &Frame,
        reading: &Reading<SudokuGrid, SudokuLayout>,
        mv: &Entry,
        way: SudokuWay,
    ) -> Result<Option<MoveEvents>> {
        if way == SudokuWay::ClickAndType {
            if reading.board.given[mv.row * reading.board.size + mv.col] {
                bail!("cell {mv} holds a given, which cannot be changed");
            }
            return Ok(MoveEvents::usual(actions::click_and_type(&reading.layout.cells, mv))
                .map(|e| e.selecting(1).same_board_if_repeated()));
        }
        let commit = match way {
            SudokuWay::ClickTypeAndEnter => {
                Some(("its cell, the digit, then Enter", Action::Key(crate::game::Key::Enter)))
            }
            SudokuWay::ClickTypeAndSpace => Some(("its cell, the digit, then Space", Action::Type(' '))),
            _ => None,
        };
        if way == SudokuWay::DoubleClickAndType {
            // (A copy selects the cell again and types its digit again: the board as it was, as for a click.)
            let mut events = actions::click_and_type(&reading.layout.cells, mv);
            events.insert(0, events[0].clone());
            return Ok(MoveEvents::named("a double click on its cell, then the digit", events)
                .map(|e| e.selecting(2).same_board_if_repeated()));
        }
        if let Some((name, key)) = commit {
            // (A copy types the digit into the cell again, which a client that marks with it takes as another
            // mark: never repeated.)
            let mut events = actions::click_and_type(&reading.layout.cells, mv);
            events.push(key);
            return Ok(MoveEvents::named(name, events).map(|e| e.selecting(1)));
        }
        let cursor_keys = match way {
            SudokuWay::ArrowKeys => Some(actions::CursorKeys::Arrows),
            SudokuWay::ViKeys => Some(actions::CursorKeys::Vi),
            _ => None,
        };
        self.followed.will_go_to(cursor_keys.map(|_| (mv.row, mv.col)));
        if let Some(keys) = cursor_keys {
            // The keyboard cursor moved to the cell, then the digit typed.
            let Some(cursor) = reading.layout.cursor.or(self.followed.at()) else { return Ok(None) };
            let path = keys.path(cursor, (mv.row, mv.col));
            let selects = path.len();
            let mut events = path;
            events.push(Action::Type(actions::key_for(mv.value)));
            return Ok(MoveEvents::named(keys.name(), events).map(|e| e.selecting(selects)));
        }
        let Ok(shapes) = self.screen.digit_shapes.as_ref() else { return Ok(None) };
        let Some(pad) = number_pad::find(&frame.image, &reading.layout.cells, reading.board.size, shapes) else {
            return Ok(None);
        };
        let Some((x, y)) = pad.button(mv.value) else { return Ok(None) };
        let (cx, cy) = reading.layout.cells.centre(mv.row, mv.col);
        Ok(MoveEvents::named(
            "its cell, then the number pad",
            vec![Action::Click { x: cx, y: cy }, Action::Click { x, y }],
        )
        .map(MoveEvents::same_board_if_repeated))
    }

    /// The digit is about to be typed: a mark of no known digit that appears in its cell from now on is the
    /// client's drawing of it ([`discover::DigitShapes::expect_typed`]). (Not before: between a click and the key,
    /// a number picker drawn over the cell is no digit typed.)
    fn completing(&mut self, mv: &Entry) {
        self.followed.arrived((mv.row, mv.col));
        if let Ok(shapes) = self.screen.digit_shapes.as_mut() {
            shapes.expect_typed(mv.row * self.size + mv.col, mv.value);
        }
    }

    /// The cursor of the arrow or vi keys, where neither the reading nor an earlier probe shows it: one step's key
    /// at a time ([`cursor::FollowedCursor`]).
    fn cursor_probe(&mut self, reading: &Reading<SudokuGrid, SudokuLayout>, way: SudokuWay) -> Option<Vec<Action>> {
        let keys = match way {
            SudokuWay::ArrowKeys => actions::CursorKeys::Arrows,
            SudokuWay::ViKeys => actions::CursorKeys::Vi,
            _ => return None,
        };
        if reading.layout.cursor.is_some() || self.followed.at().is_some() {
            return None;
        }
        self.followed.probe(keys)
    }

    /// A grid drawn with a terminal's characters is a terminal's: it takes keys, not clicks (a click there selects
    /// text, and a digit typed after it goes wherever the program's cursor is), so moves start with the cursor
    /// keys. Any other starts with a click on the cell.
    fn start(&mut self, reading: &Reading<SudokuGrid, SudokuLayout>) -> Result<FirstWay<SudokuWay>> {
        let in_terminal = reading.layout.found.as_ref().is_some_and(|found| found.drawn == reading::Drawn::Text);
        Ok(FirstWay::Shown(if in_terminal { SudokuWay::ArrowKeys } else { SudokuWay::ClickAndType }))
    }

    /// Where the keyboard cursor is, where the reading shows one ([`Shown::Choice`]); whether a click alone
    /// entered a digit ([`SudokuClient::click_entered`]); and an entry that shows another digit stops the game
    /// ([`SudokuClient::check_entry`]).
    fn shown(&mut self, shown: Shown<'_, Self>) -> Result<Answer<SudokuGrid>> {
        Ok(match shown {
            Shown::Choice { layout, mv } => {
                layout.cursor.map_or(Answer::Nothing, |cursor| Answer::Chosen(cursor == (mv.row, mv.col)))
            }
            Shown::Probed { layout, watched, after } => match self.followed.probed(&layout.cells, watched, after) {
                Some((row, col)) => {
                    Answer::Found(format!("the keyboard cursor, now at row {}, column {}", row + 1, col + 1))
                }
                None => Answer::Nothing,
            },
            Shown::Click { before, mv, seen } if Self::click_entered(before, mv, seen) => Answer::Entered,
            // The board read before the click; after it, its marks make no legal Sudoku: the click entered one.
            Shown::ClickUnread { layout, error, .. }
                if error.downcast_ref::<naming::Unnamable>().is_some_and(|u| u.on_board(&layout.cells)) =>
            {
                Answer::Entered
            }
            Shown::Move { before, mv, seen, .. } => match self.typed_shape(before, mv, seen)? {
                Some(board) => Answer::Learned(Learned {
                    variant: Some((
                        board,
                        format!("this client draws {} so: learned for the rest of the game", mv.value),
                    )),
                    control: None,
                }),
                None => Answer::Nothing,
            },
            _ => Answer::Nothing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Repeat};

    /// A light picture `w`×`h` with the lines of a 9×9 grid of `pitch`-pixel cells from (`x`, `y`), cut off where
    /// it runs past the picture's edge.
    fn grid_picture(w: u32, h: u32, (x, y): (u32, u32), pitch: u32) -> RgbaImage {
        let side = 9 * pitch;
        let on_line = |v: u32, from: u32| v >= from && v <= from + side && (v - from) % pitch < 2;
        let within = |v: u32, from: u32| v >= from && v <= from + side + 1;
        RgbaImage::from_fn(w, h, |px, py| {
            let line = (on_line(px, x) && within(py, y)) || (on_line(py, y) && within(px, x));
            image::Rgba(if line { [0, 0, 0, 255] } else { [240, 240, 240, 255] })
        })
    }

    /// A reader's failure is marked as finding no grid ([`reading::NoGrid`]) exactly where its message says "no grid
    /// found" (which the choice between the themes' failure and the search's once matched): a theme's, through the
    /// context it is reported in, and the search's; a grid cut off, or one with no digits, is a grid found.
    #[test]
    fn a_failure_is_marked_as_no_grid_exactly_where_it_says_no_grid_found() {
        let pictures = [
            ("blank", RgbaImage::from_pixel(300, 200, image::Rgba([230, 230, 230, 255]))),
            ("black", RgbaImage::from_pixel(300, 200, image::Rgba([0, 0, 0, 255]))),
            ("a grid with no digits", grid_picture(400, 400, (20, 20), 36)),
            ("a grid cut off", grid_picture(300, 400, (20, 20), 36)),
        ];
        let themes = [SudokuTheme::new("test")];
        let mut marked = Vec::new();
        for (name, picture) in &pictures {
            let themed = read(picture, &themes).unwrap_err();
            let found = discover::find_any_grid(picture).err();
            for (reader, error) in std::iter::once(("theme", themed)).chain(found.map(|e| ("search", e))) {
                let says = format!("{error:#}").contains("no grid found");
                let no_grid = error.downcast_ref::<reading::NoGrid>().is_some();
                assert_eq!(no_grid, says, "{name}, {reader}: {error:#}");
                marked.push(no_grid);
            }
        }
        assert!(marked.contains(&true) && marked.contains(&false), "{marked:?}");
    }

    /// The themes' failure is the cause unless they found no grid and the search found one; both are named.
    #[test]
    fn the_failure_that_found_a_grid_is_reported() {
        let no_grid = || anyhow::Error::new(reading::NoGrid("no grid found: nothing".into())).context("with theme 't'");
        let unread = || anyhow::anyhow!("a grid that does not read");
        let report = |themed: Option<anyhow::Error>, found| format!("{:#}", reported(themed, found));
        let both = |first: &str, cause: &str| format!("no way read the Sudoku board — {first}; {cause}");
        let themes = |e: &str| format!("with the calibration themes: {e}");
        let search = |e: &str| format!("with no calibration: {e}");
        let (unread_text, no_grid_text) = ("a grid that does not read", "with theme 't': no grid found: nothing");
        assert_eq!(report(Some(no_grid()), unread()), both(&themes(no_grid_text), &search(unread_text)));
        assert_eq!(report(Some(unread()), no_grid()), both(&search(no_grid_text), &themes(unread_text)));
        assert_eq!(report(Some(unread()), unread()), both(&search(unread_text), &themes(unread_text)));
        assert_eq!(report(Some(no_grid()), no_grid()), both(&search(no_grid_text), &themes(no_grid_text)));
        assert_eq!(report(None, no_grid()), format!("reading Sudoku {}", search(no_grid_text)));
    }

    /// A copy of a click and a typed digit enters the digit the cell shows (the board is left as it was); a copy
    /// of the cursor keys moves the cursor on, and the digit goes into another cell.
    #[test]
    fn a_digit_typed_again_leaves_the_board_and_cursor_keys_again_do_not() {
        let game = Sudoku;
        let mut client = SudokuScreen { themes: Vec::new(), digit_shapes: Err("none".into()) }.client();
        let board = SudokuGrid::parse_givens("1...\n..1.\n.1..\n....\n").unwrap();
        let cells = CellLayout::square(4, 4, (0.0, 0.0), 20.0);
        let layout = SudokuLayout {
            cells,
            pencil: Vec::new(),
            clashes: Vec::new(),
            cursor: Some((0, 0)),
            givens: Vec::new(),
            given_digits: Vec::new(),
            found: None,
        };
        let reading = Reading { board, layout, theme: "test".into() };
        let frame = Frame::from_image(RgbaImage::new(80, 80));
        let mv = Entry { row: 1, col: 1, value: 3 };
        let mut events = |way| client.actions(&frame, &reading, &mv, way).unwrap().unwrap();
        assert_eq!(events(SudokuWay::ClickAndType).repeat, Repeat::SameBoard);
        // A double click on the cell, then the digit: the cell chosen by both clicks, and a copy as harmless.
        let double = events(SudokuWay::DoubleClickAndType);
        let (x, y) = (30, 30);
        assert_eq!(double.actions, vec![Action::Click { x, y }, Action::Click { x, y }, Action::Type('3')]);
        assert_eq!((double.selects, double.repeat), (2, Repeat::SameBoard));
        for way in [SudokuWay::ArrowKeys, SudokuWay::ViKeys] {
            assert_eq!(events(way).repeat, Repeat::Changes, "{way:?}");
            assert!(events(way).selects > 0, "{way:?}: the cursor is moved");
        }
        let once = game.apply(&reading.board, &mv);
        assert_eq!(game.apply(&once, &mv), once);
    }

    /// A typed digit that reads as another stops the game; one that reads as typed, or not at all (the game did
    /// not take it), does not.
    #[test]
    fn a_typed_digit_read_as_another_is_never_typed_over() {
        let game = Sudoku;
        let before = SudokuGrid::parse_givens("1...\n..1.\n.1..\n....\n").unwrap();
        let mv = Entry { row: 0, col: 1, value: 3 };
        let typed = game.apply(&before, &mv);
        assert!(SudokuClient::check_entry(&before, &mv, &typed).is_ok());
        assert!(SudokuClient::check_entry(&before, &mv, &before).is_ok());
        let misread = game.apply(&before, &Entry { value: 4, ..mv });
        let error = SudokuClient::check_entry(&before, &mv, &misread).unwrap_err().to_string();
        assert!(error.contains("after typing 3 into row 1, column 2, the cell reads as 4"), "{error}");
    }

    /// A click entered a digit only when the clicked cell alone changed, to a digit: a popup over other cells
    /// (GNOME Sudoku's number picker) or a click that changed nothing is no entry.
    #[test]
    fn a_click_entered_a_digit_only_where_the_clicked_cell_alone_changed() {
        let game = Sudoku;
        let before = SudokuGrid::parse_givens("1...\n..1.\n.1..\n....\n").unwrap();
        let mv = Entry { row: 0, col: 1, value: 3 };
        let pad_digit = game.apply(&before, &Entry { value: 4, ..mv });
        assert!(SudokuClient::click_entered(&before, &mv, &pad_digit));
        assert!(!SudokuClient::click_entered(&before, &mv, &before));
        let covered = SudokuGrid::parse_givens("14..\n....\n.1..\n....\n").unwrap();
        assert!(!SudokuClient::click_entered(&before, &mv, &covered));
    }

    /// After typing 5, the cell reads as 9: where no other mark the board names 9 has that shape, it is this client's
    /// 5 (learned, and the board taken with the 5); where a given 9 has that very shape, the game took a 9 and the bot
    /// stops.
    #[test]
    fn a_typed_digit_names_the_shape_that_appears_unless_the_board_names_that_shape_another_digit() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration");
        let fonts = discover::DigitShapes::load(&root).unwrap();
        let mut client = SudokuScreen { themes: Vec::new(), digit_shapes: Ok(fonts) }.client();
        let before = SudokuGrid::parse_givens("3...\n..1.\n.1..\n....\n").unwrap();
        let mv = Entry { row: 3, col: 3, value: 4 };
        let mut seen = before.clone();
        seen.cells[15] = 2;
        let (typed, given_two) = (
            Glyph::drawn(&["#....#", "#....#", "######", ".....#", ".....#", ".....#"]),
            Glyph::drawn(&["######", ".....#", "######", "#.....", "#.....", "######"]),
        );
        // Another mark read as 2 (a given 2 elsewhere, drawn otherwise): the new mark is the client's 4.
        seen.cells[1] = 2;
        let mut shapes = vec![None; 16];
        shapes[1] = Some(given_two.clone());
        shapes[15] = Some(typed.clone());
        client.seen_shapes = shapes.clone();
        let board = client.typed_shape(&before, &mv, &seen).unwrap().expect("the shape learned");
        assert_eq!(board.cells[15], 4);
        assert_eq!(board.cells[1], 2);
        // The same shape drawn where the board names a 2: the game took a 2 (or the reader misread); stopped.
        let mut client =
            SudokuScreen { themes: Vec::new(), digit_shapes: Ok(discover::DigitShapes::load(&root).unwrap()) }.client();
        shapes[1] = Some(typed);
        client.seen_shapes = shapes;
        let error = client.typed_shape(&before, &mv, &seen).unwrap_err();
        assert!(format!("{error:#}").contains("after typing 4 into row 4, column 4, the cell reads as 2"), "{error:#}");
        // The digit typed shows: nothing to learn.
        let mut shown = before.clone();
        shown.cells[15] = 4;
        assert!(client.typed_shape(&before, &mv, &shown).unwrap().is_none());
    }
}
