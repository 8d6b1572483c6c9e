//! The interfaces every game implements once, and the plain data that crosses stage boundaries.
//!
//! - [`Game`] is a game's rules as the solver sees them: board text in and out, a solver, the board after a
//!   move, and when the game is won. Every single-player game implements it (Flood-It, Sudoku, Cribbage
//!   Solitaire, Lunar Lockout); two-player games keep their own protocol (see `games::dandelions` and
//!   `games::sudoku_duel`), since their "solve" is a value, not a line of moves.
//! - [`Screen`] is a game as its pictures show it, loaded once from the calibration: the `read` and `calibrate`
//!   commands' side, and the maker of a [`Client`].
//! - [`Client`] is one window of a game as the play loop drives it (nine methods, six with defaults): it reads the window, says how
//!   the window settles, gives a move's input events the [`Way`] in use, answers what the window showed after a
//!   move ([`Shown`] → [`Answer`]), and keeps what it learns of the window for as long as the game lasts. The
//!   commands and the play loop ([`crate::play`]) are generic over these and know nothing else about any game.

use std::fmt::{Debug, Display};
use std::path::Path;
use std::time::Instant;

use image::RgbaImage;
use serde::Serialize;

use crate::capture::{Frame, Settle};

/// Where the cells of a read board sit in the image it was read from: a lattice of cells, as wide as
/// `pitch_x` and as tall as `pitch_y` (a window that stretches its board makes them differ; most boards are
/// square, and a lattice measured square within [`CellLayout::SQUARE_WITHIN`] is kept exactly square).
///
/// Coordinates are image pixels (add the frame's screen origin to get screen points). As data (`read --json`,
/// recorded sessions) a square lattice has one `pitch`; another has `pitch_x` and `pitch_y`.
#[derive(Clone, Debug, PartialEq)]
pub struct CellLayout {
    pub rows: usize,
    pub cols: usize,
    /// Image position of the lattice's top-left corner (the outer edge of cell (0, 0)).
    pub origin_x: f64,
    pub origin_y: f64,
    /// Width of one cell, in pixels.
    pub pitch_x: f64,
    /// Height of one cell, in pixels.
    pub pitch_y: f64,
}

impl CellLayout {
    /// How far (pixels) the board's measured width and height may stray from one square pitch for its cells to be
    /// taken as square: the finders place each boundary to within about a pixel.
    pub const SQUARE_WITHIN: f64 = 1.5;

    /// A lattice of square cells.
    pub fn square(rows: usize, cols: usize, origin: (f64, f64), pitch: f64) -> CellLayout {
        CellLayout { rows, cols, origin_x: origin.0, origin_y: origin.1, pitch_x: pitch, pitch_y: pitch }
    }

    /// A lattice as measured along each axis: square (the two pitches' mean) when the board's extents agree with
    /// one pitch within [`CellLayout::SQUARE_WITHIN`], else each axis its own.
    pub fn measured(rows: usize, cols: usize, origin: (f64, f64), (pitch_x, pitch_y): (f64, f64)) -> CellLayout {
        let mean = (pitch_x + pitch_y) / 2.0;
        let square = (pitch_x - mean).abs() * cols as f64 <= Self::SQUARE_WITHIN
            && (pitch_y - mean).abs() * rows as f64 <= Self::SQUARE_WITHIN;
        match square {
            true => CellLayout::square(rows, cols, origin, mean),
            false => CellLayout { rows, cols, origin_x: origin.0, origin_y: origin.1, pitch_x, pitch_y },
        }
    }

    /// The image point at the centre of a cell, rounded down to a pixel.
    pub fn centre(&self, row: usize, col: usize) -> (i32, i32) {
        let x = self.origin_x + (col as f64 + 0.5) * self.pitch_x;
        let y = self.origin_y + (row as f64 + 0.5) * self.pitch_y;
        (x.floor() as i32, y.floor() as i32)
    }

    /// The side of the largest square a cell holds: what sizes a look inside one cell (a ring sampled round its
    /// centre, an inset past its bevel) and whether cells are big enough to read.
    pub fn side(&self) -> f64 {
        self.pitch_x.min(self.pitch_y)
    }

    /// Are the cells square (as measured, see [`CellLayout::measured`])?
    pub fn is_square(&self) -> bool {
        self.pitch_x == self.pitch_y
    }

    /// The lattice's width and height, in pixels.
    pub fn extent(&self) -> (f64, f64) {
        (self.cols as f64 * self.pitch_x, self.rows as f64 * self.pitch_y)
    }
}

impl Serialize for CellLayout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("CellLayout", if self.is_square() { 5 } else { 6 })?;
        s.serialize_field("rows", &self.rows)?;
        s.serialize_field("cols", &self.cols)?;
        s.serialize_field("origin_x", &self.origin_x)?;
        s.serialize_field("origin_y", &self.origin_y)?;
        if self.is_square() {
            s.serialize_field("pitch", &self.pitch_x)?;
        } else {
            s.serialize_field("pitch_x", &self.pitch_x)?;
            s.serialize_field("pitch_y", &self.pitch_y)?;
        }
        s.end()
    }
}

/// What a reader found in a picture, in image pixels, as `read --annotate` draws it: boxes (left, top, width,
/// height) around what was read, and the points the bot would click.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    pub boxes: Vec<(i32, i32, u32, u32)>,
    pub points: Vec<(i32, i32)>,
}

/// Where a game's things sit in the picture it was read from (a cell lattice, or a table's card positions).
pub trait Layout: Clone + Debug + Serialize {
    /// What `read --annotate` draws: boxes around what was read, and the points the bot would click.
    fn marks(&self) -> Marks;
    /// The part of the picture that shows the board: the play loop waits for it to hold still, and nothing
    /// else. By default the boxes of [`Layout::marks`]; the whole picture when there are none.
    fn region(&self) -> Option<crate::capture::Region> {
        crate::capture::Region::around(&self.marks().boxes)
    }
}

impl Layout for CellLayout {
    fn marks(&self) -> Marks {
        let mut marks = Marks::default();
        let (width, height) = (self.pitch_x.round().max(1.0) as u32, self.pitch_y.round().max(1.0) as u32);
        for row in 0..self.rows {
            for col in 0..self.cols {
                let x = (self.origin_x + col as f64 * self.pitch_x).round() as i32;
                let y = (self.origin_y + row as f64 * self.pitch_y).round() as i32;
                marks.boxes.push((x, y, width, height));
                marks.points.push(self.centre(row, col));
            }
        }
        marks
    }
}

/// A board read from an image, with the layout needed to act on it.
#[derive(Clone, Debug)]
pub struct Reading<B, L = CellLayout> {
    pub board: B,
    pub layout: L,
    /// The calibration theme that matched.
    pub theme: String,
}

/// One input event, in image coordinates of the frame the move was planned on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Click {
        x: i32,
        y: i32,
    },
    /// Move the pointer there without clicking (a client whose cursor follows the pointer).
    Point {
        x: i32,
        y: i32,
    },
    Type(char),
    /// A key that types nothing (a cursor key, Enter).
    Key(Key),
}

/// The keys, other than printable characters, that moves are made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    Enter,
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// What a second copy of a move's events does once the first copy has taken effect: whether the loop may ever make
/// a late move again.
///
/// A move once sent is never sent again blind ([`crate::play`]): a copy is made only where the client shows it never
/// got the first, or where the copy changes nothing once the first has taken effect *and* this client is seen to
/// ignore such a copy (it counts no move for it, draws nothing for it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Repeat {
    /// A copy makes another move, or moves something the move is relative to: a Cribbage card clicked again plays
    /// the column's next card; cursor keys pressed again move the cursor on from where the first left it; a click
    /// that the client counts as a move whatever it shows. Never made again without evidence that the first copy
    /// never arrived.
    #[default]
    Changes,
    /// A copy leaves the board as the first left it: a colour flooded again, the digit typed again into the cell that
    /// shows it. Made again after a long wait only in a client seen to ignore a copy.
    SameBoard,
}

/// One way of making a move, as a game offers it: the input events, and for a way other than the game's usual one,
/// a few words naming it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEvents {
    pub way: Option<String>,
    pub actions: Vec<Action>,
    /// The game's number for a control these events use that no move has proved yet (a candidate colour button,
    /// a key whose colour is not known): what the move shows is handed back to the game
    /// ([`Shown::Move`]), and a move that does not show is not made again with it.
    pub trial: Option<usize>,
    /// How many of the first events only choose where the move goes (keys that move a keyboard cursor to a
    /// cell), so that the rest (the digit typed) goes there: until the way has worked, the loop reads the window
    /// between the two and makes the rest only where the game sees the right place chosen
    /// ([`Shown::Choice`]). 0 by default.
    pub selects: usize,
    /// What a second copy of these events does once the first has taken effect ([`Repeat::Changes`] unless the
    /// game says otherwise).
    pub repeat: Repeat,
}

impl MoveEvents {
    /// The game's usual way: these events.
    pub fn usual(actions: Vec<Action>) -> Option<MoveEvents> {
        Some(MoveEvents { way: None, actions, trial: None, selects: 0, repeat: Repeat::Changes })
    }

    /// Another way, named.
    pub fn named(way: &str, actions: Vec<Action>) -> Option<MoveEvents> {
        Some(MoveEvents { way: Some(way.to_string()), actions, trial: None, selects: 0, repeat: Repeat::Changes })
    }

    /// A copy of these events, once they have taken effect, leaves the board as they left it ([`Repeat::SameBoard`]).
    pub fn same_board_if_repeated(mut self) -> MoveEvents {
        self.repeat = Repeat::SameBoard;
        self
    }

    /// The first `count` events only choose where the move goes (see [`MoveEvents::selects`]).
    pub fn selecting(mut self, count: usize) -> MoveEvents {
        self.selects = count;
        self
    }

    /// These events try control `control`, not yet proved.
    pub fn trying(mut self, control: Option<usize>) -> MoveEvents {
        self.trial = control;
        self
    }
}

/// Limits on one solve.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    pub deadline: Option<Instant>,
}

/// What a solver found.
#[derive(Clone, Debug)]
pub struct Plan<M> {
    pub moves: Vec<M>,
    /// true only when the solver proved that no shorter (or better) plan exists.
    pub optimal: bool,
    pub nodes: u64,
}

/// One game's rules, filled in once: its board's text form, its solver, the board after a move, and when it is
/// won.
pub trait Game {
    type Board: Clone + Debug + PartialEq + Display;
    type Move: Clone + Debug + Display;

    /// The game's name on the command line.
    fn name(&self) -> &'static str;
    /// Parses board text, naming the problem when it is not a valid board.
    fn parse_board(&self, text: &str) -> anyhow::Result<Self::Board>;
    fn solve(&self, board: &Self::Board, limits: &SolveLimits) -> anyhow::Result<Plan<Self::Move>>;
    /// The board expected after `mv`.
    fn apply(&self, board: &Self::Board, mv: &Self::Move) -> Self::Board;
    fn is_won(&self, board: &Self::Board) -> bool;
}

/// The board of a client's game.
pub type BoardOf<C> = <<C as Client>::Rules as Game>::Board;
/// A move of a client's game.
pub type MoveOf<C> = <<C as Client>::Rules as Game>::Move;
/// A board read by a client, and where its things lie.
pub type ReadingOf<C> = Reading<BoardOf<C>, <C as Client>::Layout>;

/// A game as its pictures show it, loaded once per run from the calibration (themes, fonts): what the `read`,
/// `calibrate` and `play` commands need before there is a window. It makes the [`Client`] that plays one window.
/// A new client of a game is a calibration theme (data), plus at most a reader or actions variant in the game's
/// `clients/<game>/` folder.
pub trait Screen: Sized {
    /// The front end that reads and plays one window of the game.
    type Client: Client;
    /// What `calibrate` learns from: the true content of a screenshot.
    type Truth;
    /// The theme `calibrate` creates or refreshes when none is named.
    const DEFAULT_THEME: &'static str;
    /// The titles of the game's windows, tried in this order when the user names none.
    const WINDOW_TITLES: &'static [&'static str];

    /// The game's screen with the calibration themes its reader may use: every theme under `root`, or only the
    /// one named.
    fn load(root: &Path, theme: Option<&str>) -> anyhow::Result<Self>;
    /// A front end for one window, which knows nothing of it yet.
    fn client(self) -> Self::Client;
    /// A reading as `read --json` prints it.
    fn reading_json(reading: &ReadingOf<Self::Client>) -> serde_json::Value;
    /// A reading as `read` prints it: board text by default.
    fn reading_text(reading: &ReadingOf<Self::Client>) -> String {
        reading.board.to_string()
    }
    /// Learns (or refreshes) the theme `target` names from a screenshot whose truth is known, saves it, and says
    /// what was learned ([`crate::calibration::theme_to_refresh`]: a theme that exists is refreshed, and one
    /// that does not load is an error, unless `target.replace`).
    fn calibrate(
        target: &crate::calibration::ThemeTarget,
        image: &RgbaImage,
        truth: &Self::Truth,
    ) -> anyhow::Result<String>;
}

/// A way of making a move in a client (a click on a cell, on a colour button, keys to a cursor …): what the loop
/// turns to, in order, when a move made one way leaves the board as it was.
pub trait Way: Copy + Debug + PartialEq {
    /// The game's usual way, always there.
    const USUAL: Self;
    /// The way tried after this one; none after the last.
    fn next(self) -> Option<Self>;
    /// Its place in the order (0 for the usual way), as the log and recorded sessions name it.
    fn number(self) -> usize;
}

/// The way a client's first move is made ([`Client::start`]), and who says so: what the loop turns to where the
/// window offers no such way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstWay<W> {
    /// The calibration that read the board names how its client takes moves; where this window shows no such way
    /// (another client matched the theme), the usual way.
    Calibrated(W),
    /// What the board is drawn like says it (a grid of a terminal's characters takes keys), or nothing does (the
    /// usual way); where this window shows no such way, the ways after it, as for any way.
    Shown(W),
}

impl<W: Copy> FirstWay<W> {
    /// The way.
    pub fn way(self) -> W {
        match self {
            FirstWay::Calibrated(way) | FirstWay::Shown(way) => way,
        }
    }
}

/// The way of a client that takes moves one way only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnlyWay;

impl Way for OnlyWay {
    const USUAL: OnlyWay = OnlyWay;
    fn next(self) -> Option<OnlyWay> {
        None
    }
    fn number(self) -> usize {
        0
    }
}

/// What the loop shows a client of what a window showed, for the client to answer ([`Client::shown`]).
pub enum Shown<'a, C: Client + ?Sized> {
    /// Where a move's place shows chosen: `layout`, read after the events that choose it (keys that move a
    /// keyboard cursor), for `mv`. Answered by [`Answer::Chosen`] where the layout shows a choice.
    Choice { layout: &'a C::Layout, mv: &'a MoveOf<C> },
    /// `seen`, read after only the click of `mv` (a click and then keys) on `before`. Answered by
    /// [`Answer::Entered`] where the click by itself made a move in `mv`'s place and changed nothing else (the
    /// client enters its selected symbol on a click, as KSudoku's number pad does).
    Click { before: &'a BoardOf<C>, mv: &'a MoveOf<C>, seen: &'a BoardOf<C> },
    /// The window after only the click of `mv` (a click and then keys, made on the board laid out as `layout`) did
    /// not read as a board, for `error`. Answered by [`Answer::Entered`] where the error itself shows that the
    /// click entered a symbol (the board's marks were all found, on the board's own cells, and those after the
    /// click no longer make a legal board: the client entered its selected symbol where the rules do not allow it).
    ClickUnread { layout: &'a C::Layout, mv: &'a MoveOf<C>, error: &'a anyhow::Error },
    /// `seen`, read after `mv` was made on `before` (the rules expect `expected`), with `trial`, the control on
    /// trial in the move's events ([`MoveEvents::trial`]). An error stops the game where the client can tell a
    /// misreading from a board that moved on (a Sudoku cell that shows another digit than the one just typed is
    /// never typed over); else answered by [`Answer::Learned`] where the move taught something.
    Move {
        before: &'a BoardOf<C>,
        mv: &'a MoveOf<C>,
        seen: &'a BoardOf<C>,
        expected: &'a BoardOf<C>,
        trial: Option<usize>,
    },
    /// The window over a while before the keys of [`Client::cursor_probe`] (`watched`: each pixel's range), and
    /// the captures from the first that showed anything beyond it (`after`), `layout` read before: answered by
    /// [`Answer::Found`] where what the keys moved shows where the keyboard cursor is now.
    Probed { layout: &'a C::Layout, watched: &'a crate::vision::extremes::Extremes, after: &'a [RgbaImage] },
    /// A board just read, `seen`, and the board the bot knew (`known`): answered by [`Answer::Completed`] where
    /// the window does not show everything the rules track (Cribbage Solitaire's score, when no title shows it).
    Read { known: &'a BoardOf<C>, seen: &'a BoardOf<C> },
}

/// What a client makes of what was shown ([`Shown`]).
pub enum Answer<B> {
    /// Nothing: the picture says what it says.
    Nothing,
    /// The place of the move is chosen (`true`), or another is (`false`), so that keys typed now would go there.
    Chosen(bool),
    /// The click by itself entered the move.
    Entered,
    /// What a move taught ([`Learned`]).
    Learned(Learned<B>),
    /// The board read, completed with what the bot knew.
    Completed(B),
    /// What a probe's keys showed ([`Shown::Probed`]), in a few words for the log ("the keyboard cursor, at row 5,
    /// column 6").
    Found(String),
}

/// What a move taught a client.
pub struct Learned<B> {
    /// Where the board seen is explained by a variant of the rules the reading could not tell (a Flood-It whose
    /// flood grows from the centre, not the corner): the board under that variant, kept for the rest of the
    /// game, and a few words saying what was learned.
    pub variant: Option<(B, String)>,
    /// What the control on trial does, or that it was dropped for doing nothing (a few words for the log): it is
    /// never tried again for what it does not do.
    pub control: Option<String>,
}

/// One window of a game, as the play loop drives it (Tatham's `game_ui`): the rules, and what the front end has
/// found in this window (its palette, its controls, a start cell the moves showed) — the loop owns it, and it
/// lives as long as the game in that window.
pub trait Client {
    /// The game's rules.
    type Rules: Game;
    /// Where the things to act on are in a picture.
    type Layout: Layout;
    /// The ways this client's game offers to make a move.
    type Way: Way;

    /// The rules the client plays by.
    fn rules(&self) -> &Self::Rules;
    /// Reads the board from a frame (its picture, and its window title where it has one). `hint` is the layout
    /// of an earlier reading of the same window, used where the picture alone is ambiguous (for example a
    /// board of one colour).
    fn read(&mut self, frame: &Frame, hint: Option<&Self::Layout>) -> anyhow::Result<ReadingOf<Self>>;
    /// How long to wait for the window to settle after a move. The default suits games that animate their
    /// moves; a game that draws each move at once can wait less. (After the move expected to win, the play loop
    /// always waits the default, so that a victory animation is never read half-way.)
    fn settle(&self) -> Settle {
        Settle::default()
    }
    /// The way to make the first move, once the window's first reading is known ([`FirstWay`]): the usual one,
    /// unless the calibration that read the board, or what the board is drawn like, says the client takes moves
    /// another way. An error, before any input is sent, names why the game cannot be played as read (for example
    /// a move the game is known to crash on).
    fn start(&mut self, _reading: &ReadingOf<Self>) -> anyhow::Result<FirstWay<Self::Way>> {
        Ok(FirstWay::Shown(Self::Way::USUAL))
    }
    /// The input events that play `mv` on the board shown by `reading` (planned on `frame`), the way `way`: the
    /// usual way is always there; the others are found from the frame (colour buttons, a number pad), each
    /// named in a few words ("a click on the colour's button"). The play loop turns to the next way when a move
    /// made the current one left the board as it was, and keeps to a way once it works (`play::ways`). `None`
    /// where the frame shows no such way.
    fn actions(
        &mut self,
        frame: &Frame,
        reading: &ReadingOf<Self>,
        mv: &MoveOf<Self>,
        way: Self::Way,
    ) -> anyhow::Result<Option<MoveEvents>>;
    /// Keys that move the keyboard cursor `way` moves to a cell, and change no board (one arrow key), where that
    /// way needs the cursor's place and neither `reading` nor what the client learned shows it: the loop watches
    /// the window, sends them, and shows the client what moved ([`Shown::Probed`]), for as long as the client
    /// has keys to try. A terminal's own cursor (an underline, blinking) is seen by no single look, only by what
    /// moves when an arrow is pressed. `None` by default.
    fn cursor_probe(&mut self, _reading: &ReadingOf<Self>, _way: Self::Way) -> Option<Vec<Action>> {
        None
    }
    /// The move's last events (those that enter it, after any that choose its place) are about to be sent:
    /// readings from now on may show the move, unlike those taken between a click and its keys. Nothing by
    /// default.
    fn completing(&mut self, _mv: &MoveOf<Self>) {}
    /// What the window showed, answered ([`Shown`], [`Answer`]). Nothing by default.
    fn shown(&mut self, _shown: Shown<'_, Self>) -> anyhow::Result<Answer<BoardOf<Self>>> {
        Ok(Answer::Nothing)
    }
    /// A way other than the usual one has worked (a move made that way changed the board): where the calibration
    /// that read the board could keep it for the next game, says so; and with `keep` (`play --learn`, never by
    /// default: play writes no calibration unasked) keeps it there and says what it wrote. Nothing by default.
    fn keep_way(&mut self, _reading: &ReadingOf<Self>, _way: Self::Way, _keep: bool) -> anyhow::Result<Option<String>> {
        Ok(None)
    }
}
