//! What the play loop reports as it plays, as data: each event a value with its fields, written for people by its
//! `Display` (the lines `play` prints on standard error), stored as it is by a recording, and compared as a value
//! when the recording is replayed ([`crate::session`]).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Why the loop planned again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Replan {
    /// The board after the move differs from the expected one.
    AfterMove,
    /// The board changed in the pause after the move (`--move-delay-ms`).
    InPause,
}

/// One thing the play loop did or saw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "report", rename_all = "snake_case")]
pub enum PlayEvent {
    /// The first reading of the window.
    FirstRead { theme: String, source: String, board: String },
    /// A reading the loop acts on (board text, and the layout as JSON).
    Reading { board: String, layout: serde_json::Value },
    /// A plan: the moves, and whether the solver proved it optimal.
    Planned { moves: Vec<String>, optimal: bool },
    /// Move `number` is made: the move, and its input in words.
    Moving { number: usize, mv: String, how: String },
    /// A click was clamped to the window.
    Clamped { verb: String, x: i32, y: i32 },
    /// The window showed neither the expected board nor the one before, with the pointer over it: the pointer was
    /// moved off the board, and will be after every move.
    PointerParked { number: usize },
    /// Keys that move a keyboard cursor were sent to find it by what moved ([`crate::game::Client::cursor_probe`]),
    /// before move `number`; what the client found, if anything.
    CursorProbed { number: usize, keys: String, found: Option<String> },
    /// The events that choose the move's place showed another place chosen: the rest was not sent.
    OtherPlaceChosen { number: usize, events: String },
    /// The click of a click-then-keys move had not shown by the first look (`after_ms`): its keys wait for it, up
    /// to the whole patience.
    ClickLate { number: usize, after_ms: u64, patience_ms: u64 },
    /// Nothing of the click of a click-then-keys move showed in the whole patience (`waited_ms`): the client never
    /// took it, and it is made again (held, where it was sent at once: `held_ms`).
    ClickMadeAgain { number: usize, waited_ms: u64, held_ms: Option<u64> },
    /// The click of a click-then-keys move, made twice, did not show; the keys were typed anyway.
    ClickNotShown { number: usize, waited_ms: u64 },
    /// The click of the first click-then-keys move entered a symbol by itself: cells are chosen by pointing.
    ClickEntered { number: usize },
    /// The board's picture did not hold still within its bound (`bound_ms`) while its reading did: an animation
    /// is drawn over it for good, and from now on its picture gets only a glance (`glance_ms`).
    PictureNeverStill { bound_ms: u64, glance_ms: u64 },
    /// Nothing of the move has shown by the first look: it is waited for.
    Waiting { number: usize, after_ms: u64, patience_ms: u64 },
    /// The move had not shown, and was made again, for the reason given.
    MadeAgain { number: usize, waits: String, why: String },
    /// The move showed, this long after its input (made this many times).
    Shown { number: usize, after_ms: u64, sent: usize },
    /// The board moved in its window before the move showed: the move is made again where it is.
    BoardMoved { number: usize },
    /// The move showed, and the board went back to how it was before it.
    TakenBack { number: usize },
    /// A move just shown is made once more, to see whether this client ignores a copy.
    CopyTried { number: usize },
    /// The copy of move `number` changed nothing (`what` is `None`), or showed `what`.
    CopySeen { number: usize, what: Option<String> },
    /// What a move showed the client: a rules variant, what a control does (in the client's words).
    Learned { number: usize, how: Option<String>, what: String },
    /// The plan was dropped, and the board is planned again from what is shown.
    Replanned { number: usize, why: Replan },
    /// The way the calibration names is not shown in this window: moves are made the usual way.
    CalibrationWayAbsent { way: usize },
    /// The way in use offers nothing for this move: moves are made the next way that does.
    WayOffersNothing { number: usize, mv: String, way: usize, next: usize },
    /// A move made the way in use left the board as it was for the whole patience: another way is tried.
    WayLeftBoard { number: usize, how: String },
    /// A move left the board as it was: it is made again the same way, each button and key held this long (a game
    /// too busy to poll its input while the usual hold lasted).
    HeldLonger { number: usize, how: String, hold_ms: u64 },
    /// A move sent at once (`input::QUICK`) left the board as it was: it is made again held as a person holds it
    /// (where it may be made again), as every move is from now on.
    QuickMissed { number: usize, how: String, hold_ms: u64 },
    /// A pointed move did not go as expected: cells are chosen by clicking again.
    PointingDropped { number: usize, how: String },
    /// What the client says of a way that worked (kept in its calibration, or how to keep it).
    WayKept { note: String },
    /// A way that worked could not be kept.
    WayNotKept { error: String },
    /// Other windows covered the game's: it was brought to the front.
    Uncovered { covering: String },
    /// After the winning move the board cannot be read, and the game has covered it or opened a window.
    EndScreen { number: usize, error: String, how: String },
    /// After the winning move the game has opened a window over part of its board.
    EndWindow { opened: String },
    /// After the winning move the window shows another game's board (differing from the won board at `differing`
    /// of its `places`): the game dealt a new one at once.
    NewDeal { number: usize, differing: usize, places: usize },
}

impl fmt::Display for PlayEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayEvent::FirstRead { theme, source, board } => {
                write!(f, "read the board (theme '{theme}') from {source}:\n{board}")
            }
            PlayEvent::Reading { board, .. } => write!(f, "read:\n{board}"),
            PlayEvent::Planned { moves, optimal } => {
                let proven = if *optimal { "proven optimal" } else { "not proven optimal" };
                write!(f, "planned {} moves ({proven}): {}", moves.len(), moves.join(" "))
            }
            PlayEvent::Moving { number, mv, how } => write!(f, "move {number}: {mv}: {how}"),
            PlayEvent::Clamped { verb, x, y } => {
                write!(f, "warning: {verb} at image point ({x}, {y}) lay outside the window; clamped")
            }
            PlayEvent::PointerParked { number } => write!(
                f,
                "after move {number} the board does not read as expected with the pointer over it: moved the pointer \
                 off the board, and will after every move (the client may show something under the pointer)"
            ),
            PlayEvent::CursorProbed { number, keys, found: Some(found) } => {
                write!(f, "before move {number}: {keys} moved {found}")
            }
            PlayEvent::CursorProbed { number, keys, found: None } => write!(
                f,
                "before move {number}: {keys} showed no keyboard cursor moving (at an edge, or no such cursor)"
            ),
            PlayEvent::OtherPlaceChosen { number, events } => write!(
                f,
                "move {number}: after {events}, the window shows another place chosen than the move's; the rest is not made"
            ),
            PlayEvent::ClickLate { number, after_ms, patience_ms } => write!(
                f,
                "the click of move {number} has not shown after {:.1} s; its keys wait for it, up to {:.1} s in all",
                secs(*after_ms),
                secs(*patience_ms)
            ),
            PlayEvent::ClickMadeAgain { number, waited_ms, held_ms } => {
                write!(
                    f,
                    "nothing of the click of move {number} showed in {:.1} s: the client never took it; clicking again",
                    secs(*waited_ms)
                )?;
                match held_ms {
                    Some(ms) => write!(f, ", holding each button and key {ms} ms, as every move from now on"),
                    None => Ok(()),
                }
            }
            PlayEvent::ClickNotShown { number, waited_ms } => write!(
                f,
                "the click of move {number}, made twice, did not show within {:.1} s; typing anyway",
                secs(*waited_ms)
            ),
            PlayEvent::ClickEntered { number } => write!(
                f,
                "the click of move {number} entered a symbol by itself (the client enters its selected one on a click); \
                 typing over it, and choosing cells by pointing from now on"
            ),
            PlayEvent::PictureNeverStill { bound_ms, glance_ms } => write!(
                f,
                "the board's picture did not hold still within {:.1} s while what it reads as did (something moves \
                 over it for good): from now on a board is taken once its reading holds still, after a glance of \
                 {:.1} s at its picture",
                secs(*bound_ms),
                secs(*glance_ms)
            ),
            PlayEvent::Waiting { number, after_ms, patience_ms } => write!(
                f,
                "move {number} has not shown after {:.1} s; waiting for it, up to {:.1} s in all \
                 (a move is never made twice)",
                secs(*after_ms),
                secs(*patience_ms)
            ),
            PlayEvent::MadeAgain { number, waits, why } => {
                write!(f, "move {number} has not shown after {waits}; {why}: making it again")
            }
            PlayEvent::Shown { number, after_ms, sent } => {
                let tries = if *sent > 1 { format!(" (made {sent} times)") } else { String::new() };
                write!(f, "move {number} showed after {:.1} s{tries}", secs(*after_ms))
            }
            PlayEvent::BoardMoved { number } => write!(
                f,
                "the board moved in its window before move {number} showed (the window was moved, resized or \
                 redrawn), so its input went where the board was: making the move again where the board is now"
            ),
            PlayEvent::TakenBack { number } => write!(
                f,
                "move {number} showed, then the board went back to how it was before it (an undo, or the game took \
                 it back); planning again from what is shown"
            ),
            PlayEvent::CopyTried { number } => write!(
                f,
                "move {number} showed late: making it once more, to see whether this client ignores a copy of a move \
                 (then a lost one can be made again)"
            ),
            PlayEvent::CopySeen { number, what: None } => write!(
                f,
                "the copy of move {number} changed nothing: this client ignores a copy of a move; a move of which \
                 nothing shows may be made again"
            ),
            PlayEvent::CopySeen { number, what: Some(what) } => {
                write!(f, "the copy of move {number} showed: {what}; no move will be made twice")
            }
            PlayEvent::Learned { number, how: Some(how), what } => write!(f, "move {number} ({how}) showed {what}"),
            PlayEvent::Learned { number, how: None, what } => write!(f, "move {number} showed {what}"),
            PlayEvent::Replanned { number, why: Replan::AfterMove } => write!(
                f,
                "the board differs from the expected one after move {number}; planning again from what is shown"
            ),
            PlayEvent::Replanned { number, why: Replan::InPause } => {
                write!(f, "the board changed in the pause after move {number}; planning again from what is shown")
            }
            PlayEvent::CalibrationWayAbsent { way } => write!(
                f,
                "the window shows no way {way} to make moves (the calibration's); making them the usual way"
            ),
            PlayEvent::WayOffersNothing { number, mv, way, next } => {
                write!(f, "way {way} offers nothing to make move {number} ({mv}) with; making moves way {next}")
            }
            PlayEvent::WayLeftBoard { number, how } => {
                write!(f, "move {number} ({how}) left the board as it was; making moves another way")
            }
            PlayEvent::HeldLonger { number, how, hold_ms } => write!(
                f,
                "move {number} ({how}) left the board as it was; making it again the same way, holding each button \
                 and key {hold_ms} ms"
            ),
            PlayEvent::QuickMissed { number, how, hold_ms } => write!(
                f,
                "move {number} ({how}), pressed and released at once, left the board as it was; making it again \
                 the same way, holding each button and key {hold_ms} ms, as every move from now on"
            ),
            PlayEvent::PointingDropped { number, how } => {
                write!(f, "move {number} ({how}) did not go as expected; choosing cells by clicking again")
            }
            PlayEvent::WayKept { note } => write!(f, "{note}"),
            PlayEvent::WayNotKept { error } => write!(f, "warning: the way moves are made could not be kept: {error}"),
            PlayEvent::Uncovered { covering } => {
                write!(f, "the game's window was covered by {covering}: brought it to the front")
            }
            PlayEvent::EndScreen { number, error, how } => write!(
                f,
                "after the winning move {number} the board cannot be read ({error}) and the game has {how}: taken as its \
                 report of the win"
            ),
            PlayEvent::NewDeal { number, differing, places } => write!(
                f,
                "after the winning move {number} the window shows another board, differing from the won one at \
                 {differing} of its {places} places: the game has dealt a new one, taken as its report of the win (the \
                 board before the move was as expected)"
            ),
            PlayEvent::EndWindow { opened } => write!(
                f,
                "after the winning move the game has opened {opened} over part of its board: taken as its report of \
                 the win (the board before the move was as expected, and what the move changed does not read otherwise)"
            ),
        }
    }
}

impl PlayEvent {
    /// A reading the loop acts on (board text, and the layout as JSON).
    pub fn reading<B: fmt::Display, L: Serialize>(reading: &crate::game::Reading<B, L>) -> PlayEvent {
        PlayEvent::Reading {
            board: reading.board.to_string(),
            layout: serde_json::to_value(&reading.layout).unwrap_or_default(),
        }
    }

    /// Whether the event is a reading (a board the loop acts on), which is recorded for replays but not printed.
    pub fn is_reading(&self) -> bool {
        matches!(self, PlayEvent::Reading { .. })
    }
}

/// A time as an event holds it: whole milliseconds (a value that survives a recording exactly; a float read back
/// from JSON may differ in its last bit).
pub fn millis(time: Duration) -> u64 {
    time.as_millis().try_into().unwrap_or(u64::MAX)
}

/// Milliseconds as seconds, for people.
fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}
