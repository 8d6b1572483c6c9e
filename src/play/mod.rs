//! The closed loop: capture → read → (verify) → solve → act, one move at a time, for any [`ScreenGame`].
//!
//! The loop never clicks blind. Before every move it captures until two frames agree, reads the board, and
//! compares it with the board it expected after its last move; when they differ it re-plans from what it sees.
//! Every click is clamped to the window. Before every event, and after every wait, it checks that the pointer
//! is where it left it: if the user has moved the mouse, it stops at once.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use serde::Serialize;

use crate::capture::{settled_from, stable_frame, Frame, FrameSource, Settle};
use crate::game::{Action, Reading, ScreenGame, SolveLimits};
use crate::input::InputDevice;

#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Send the events to `input` without waiting for the window: the board is advanced by the game's rules,
    /// not re-read. Use with a recording input device to print what would be done.
    pub dry_run: bool,
    /// Stop with an error after this many moves.
    pub max_moves: usize,
    /// Time allowed for each solve (the best plan found by then is used).
    pub solve_time: Option<Duration>,
    /// A pause after each move, for people watching.
    pub move_delay: Duration,
    /// How to settle before the first reading and after the winning move; between moves the game's own
    /// [`ScreenGame::settle`] is used.
    pub settle: Settle,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions { dry_run: false, max_moves: 1000, solve_time: None, move_delay: Duration::ZERO, settle: Settle::default() }
    }
}

/// What the loop reports as it plays: notes for people, and each reading it acts on (for a recording).
pub enum PlayEvent<'a> {
    Note(&'a str),
    Reading { board: String, layout: serde_json::Value },
}

/// The reading the loop acts on, as a [`PlayEvent`].
fn reading_event<B: std::fmt::Display, L: Serialize>(reading: &Reading<B, L>) -> PlayEvent<'static> {
    PlayEvent::Reading { board: reading.board.to_string(), layout: serde_json::to_value(&reading.layout).unwrap_or_default() }
}

/// What a game of play came to.
#[derive(Clone, Debug, Serialize)]
pub struct PlayReport {
    pub won: bool,
    pub moves: usize,
    /// How many times the board differed from the expected one, so that the loop planned again.
    pub replans: usize,
    /// Length of the first plan, and whether it was proven optimal.
    pub planned_moves: usize,
    pub plan_optimal: bool,
    pub final_board: String,
    /// From the start until the last move's input was sent, and until the win was confirmed.
    pub last_move_millis: u128,
    pub millis: u128,
}

/// The user took the mouse: the pointer is not where the bot left it.
#[derive(Debug, thiserror::Error)]
#[error("stopped: the pointer moved to ({found_x}, {found_y}) but the bot left it at ({left_x}, {left_y}); the user has taken the mouse")]
pub struct PointerMoved {
    pub left_x: i32,
    pub left_y: i32,
    pub found_x: i32,
    pub found_y: i32,
}

/// Checks the pointer is where the bot left it (nothing to check before its first event).
fn check_pointer(input: &dyn InputDevice, left_at: Option<(i32, i32)>) -> Result<()> {
    if let Some((left_x, left_y)) = left_at {
        let (found_x, found_y) = input.pointer()?;
        if (found_x, found_y) != (left_x, left_y) {
            return Err(PointerMoved { left_x, left_y, found_x, found_y }.into());
        }
    }
    Ok(())
}

/// How a move is made, for the log and messages: "click at (x, y)" in screen coordinates, "type 5", or both.
fn describe_actions(actions: &[Action], frame: &Frame) -> String {
    let parts: Vec<String> = actions
        .iter()
        .map(|action| match *action {
            Action::Click { x, y } | Action::Point { x, y } => {
                let ((sx, sy), _) = frame.screen_point(x, y);
                format!("{} at ({sx}, {sy})", pointer_verb(action))
            }
            Action::Type(c) => format!("type {c}"),
        })
        .collect();
    parts.join(", ")
}

/// What a pointer event does, for the log: "click" or "point".
fn pointer_verb(action: &Action) -> &'static str {
    if let Action::Point { .. } = action {
        "point"
    } else {
        "click"
    }
}

/// Sends one move's events; returns where the pointer was left.
fn perform(
    actions: &[Action],
    frame: &Frame,
    source: &mut dyn FrameSource,
    input: &mut dyn InputDevice,
    mut left_at: Option<(i32, i32)>,
    after_click: Duration,
    log: &mut dyn FnMut(PlayEvent<'_>),
) -> Result<Option<(i32, i32)>> {
    for action in actions {
        check_pointer(input, left_at)?;
        match *action {
            Action::Click { x, y } | Action::Point { x, y } => {
                let ((sx, sy), clamped) = frame.screen_point(x, y);
                if clamped {
                    log(PlayEvent::Note(&format!("warning: {} at image point ({x}, {y}) lay outside the window; clamped", pointer_verb(action))));
                }
                input.move_pointer(sx, sy)?;
                if let Action::Click { .. } = action {
                    input.click()?;
                }
                left_at = Some((sx, sy));
                // Let the window take the click (or follow the pointer) before the next event (a key typed at
                // once can be lost).
                source.sleep(after_click);
            }
            Action::Type(c) => input.type_char(c)?,
        }
    }
    Ok(left_at)
}

/// How the loop chooses the cell of a move made of a click and then keys (a Sudoku entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choosing {
    /// Not known yet: the first such move is read between its click and its keys.
    Unseen,
    /// The click chooses the cell and changes nothing else.
    ByClick,
    /// A click by itself entered a symbol (the client's selected one, as KSudoku's number pad does), so the cell
    /// is chosen by pointing at it: the client's cursor follows the pointer.
    ByPointing,
}

/// A move whose first event is a click followed by keys.
fn clicks_then_types(actions: &[Action]) -> bool {
    matches!(actions, [Action::Click { .. }, Action::Type(_), ..])
}

/// The same events with the click made a pointing.
fn pointing_instead(actions: Vec<Action>) -> Vec<Action> {
    actions.into_iter().map(|a| if let Action::Click { x, y } = a { Action::Point { x, y } } else { a }).collect()
}

/// Plays `game` in the window behind `source` until it is won.
///
/// A move made of a click and then keys (a Sudoku entry) is, the first time, read between the click and the
/// keys: where the click alone changed the board, the client enters a symbol on a click (KSudoku enters its
/// number pad's selected digit), and the bot's keys would come second. That move's keys still set the cell
/// right; every later such move points at its cell without clicking, then types. A move made by pointing that
/// does not show as expected turns the loop back to clicking.
pub fn play<G: ScreenGame>(
    game: &G,
    source: &mut dyn FrameSource,
    input: &mut dyn InputDevice,
    options: &PlayOptions,
    log: &mut dyn FnMut(PlayEvent<'_>),
) -> Result<PlayReport> {
    let start = source.now();
    let limits = || SolveLimits { deadline: options.solve_time.map(|t| Instant::now() + t) };
    let first = stable_frame(source, &options.settle, None)?;
    let (mut frame, mut reading) = read_uncovered(game, source, first, None, &options.settle, log)?;
    log(PlayEvent::Note(&format!("read the board (theme '{}') from {}:\n{}", reading.theme, source.describe(), reading.board)));
    log(reading_event(&reading));
    game.check_playable(&reading)?;
    let mut report = PlayReport {
        won: false,
        moves: 0,
        replans: 0,
        planned_moves: 0,
        plan_optimal: false,
        final_board: String::new(),
        last_move_millis: 0,
        millis: 0,
    };
    let mut plan: VecDeque<<G as crate::game::Game>::Move> = VecDeque::new();
    let mut first_plan = true;
    let mut left_at: Option<(i32, i32)> = None;
    // The last move that left the board as it was (its number and how it was made), if the one before now was.
    let mut ignored: Option<(usize, String)> = None;
    // How moves are made: 0, the game's usual way; n, its `other_actions` way n. A way other than the usual
    // one, once it has changed the board, is offered to the game to remember (its calibration may keep it).
    let mut way = game.first_way(&reading);
    // Whether a move made the current way has changed the board, and whether the game has been offered the way.
    let (mut way_worked, mut way_kept) = (false, way != 0);
    let mut choosing = Choosing::Unseen;
    loop {
        if game.is_won(&reading.board) {
            report.won = true;
            break;
        }
        if plan.is_empty() {
            let found = game.solve(&reading.board, &limits())?;
            if found.moves.is_empty() {
                bail!("the solver found no move on a board that is not won:\n{}", reading.board);
            }
            log(PlayEvent::Note(&format!(
                "planned {} moves ({}): {}",
                found.moves.len(),
                if found.optimal { "proven optimal" } else { "not proven optimal" },
                found.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
            )));
            if first_plan {
                report.planned_moves = found.moves.len();
                report.plan_optimal = found.optimal;
                first_plan = false;
            }
            plan = found.moves.into();
        }
        if report.moves >= options.max_moves {
            bail!("stopped after the move limit of {} moves without winning", options.max_moves);
        }
        let mv = plan.pop_front().expect("plan is not empty");
        let (actions, how) = if way == 0 {
            let actions = game.actions(&reading, &mv)?;
            let how = describe_actions(&actions, &frame);
            (actions, how)
        } else {
            match game.other_actions(&frame, &reading, &mv, way)? {
                Some((name, actions)) => {
                    let how = format!("{name}, {}", describe_actions(&actions, &frame));
                    (actions, how)
                }
                // The calibration's way is not shown in this window: the usual way, then.
                None if !way_worked => {
                    log(PlayEvent::Note(&format!("the window shows no way {way} to make moves (the calibration's); making them the usual way")));
                    way = 0;
                    let actions = game.actions(&reading, &mv)?;
                    let how = describe_actions(&actions, &frame);
                    (actions, how)
                }
                None => bail!("move {}: {mv} cannot be made the way that worked so far (way {way}): the window no longer shows it", report.moves + 1),
            }
        };
        let (actions, how) = if choosing == Choosing::ByPointing && clicks_then_types(&actions) {
            let actions = pointing_instead(actions);
            let how = describe_actions(&actions, &frame);
            (actions, how)
        } else {
            (actions, how)
        };
        let pointed = actions.iter().any(|a| matches!(a, Action::Point { .. }));
        log(PlayEvent::Note(&format!("move {}: {mv}: {how}", report.moves + 1)));
        let expected = game.apply(&reading.board, &mv);
        let board_before = reading.board.clone();
        report.moves += 1;
        if options.dry_run {
            perform(&actions, &frame, source, input, None, Duration::ZERO, log)?;
            reading = Reading { board: expected, ..reading };
            continue;
        }
        let settle = if game.is_won(&expected) { options.settle.clone() } else { game.settle() };
        left_at = if choosing == Choosing::Unseen && clicks_then_types(&actions) {
            let clicked = perform(&actions[..1], &frame, source, input, left_at, settle.after_click, log)?;
            let after_click = stable_frame(source, &settle, Some(&frame.image))?;
            let entered = matches!(read_again(game, &after_click, &reading.layout), Ok(seen) if game.click_entered(&board_before, &mv, &seen.board));
            choosing = if entered { Choosing::ByPointing } else { Choosing::ByClick };
            if entered {
                log(PlayEvent::Note(&format!(
                    "the click of move {} entered a symbol by itself (the client enters its selected one on a click); \
                     typing over it, and choosing cells by pointing from now on",
                    report.moves
                )));
            }
            perform(&actions[1..], &frame, source, input, clicked, settle.after_click, log)?
        } else {
            perform(&actions, &frame, source, input, left_at, settle.after_click, log)?
        };
        report.last_move_millis = source.now().saturating_sub(start).as_millis();
        source.sleep(options.move_delay);
        check_pointer(input, left_at)?;
        let before = frame.image.clone();
        let seen = match await_expected(game, source, &settle, &before, &reading.layout, &expected)? {
            Some(seen) => Ok(seen),
            None => {
                let frame = stable_frame(source, &settle, Some(&before))?;
                // After the winning move an unreadable board may be the game's own report of the win (below).
                if game.is_won(&expected) {
                    read_again(game, &frame, &reading.layout).map(|reading| (frame, reading))
                } else {
                    read_uncovered(game, source, frame, Some(&reading.layout), &settle, log)
                }
            }
        };
        (frame, reading) = match seen {
            Ok(seen) => seen,
            Err(error) => {
                // Some games hide the board once it is solved and say so in a window of their own (GNOME Sudoku
                // greys the board out behind a "Well done" dialog): after the winning move that is the win.
                let opened = if game.is_won(&expected) { source.windows_opened()? } else { Vec::new() };
                if opened.is_empty() {
                    return Err(error);
                }
                log(PlayEvent::Note(&format!(
                    "after the winning move the board cannot be read ({error:#}) and the game has opened {}: taken as its report of the win",
                    opened.join(", ")
                )));
                reading = Reading { board: expected, ..reading };
                report.won = true;
                break;
            }
        };
        check_pointer(input, left_at)?;
        // After the winning move the game may open a window over its board (KSudoku's "Information" box) and the
        // cells under it read as anything. The board before this move was read as expected; what the move changed
        // must not read otherwise; no further move is made into that window.
        if reading.board != expected && game.is_won(&expected) {
            let opened = source.windows_opened()?;
            if !opened.is_empty() {
                if reading.board == board_before {
                    bail!(
                        "after the last move the game has opened {} over its board, and the board reads as it did before \
                         the move: whether the move was taken cannot be told; stopped rather than act into that window",
                        opened.join(", ")
                    );
                }
                game.check_move(&board_before, &mv, &reading.board)?;
                log(PlayEvent::Note(&format!(
                    "after the winning move the game has opened {} over part of its board: taken as its report of the win \
                     (the board before the move was as expected, and what the move changed does not read otherwise)",
                    opened.join(", ")
                )));
                reading = Reading { board: expected, ..reading };
                report.won = true;
                break;
            }
        }
        if reading.board != expected {
            game.check_move(&board_before, &mv, &reading.board)?;
        }
        if reading.board != expected && reading.board != board_before {
            if let Some((board, learned)) = game.learn_from_move(&board_before, &mv, &reading.board) {
                log(PlayEvent::Note(&format!("move {} showed {learned}", report.moves)));
                reading.board = board;
            }
        }
        log(reading_event(&reading));
        // A move that leaves the board exactly as it was was not taken. Where the game has another way to make
        // moves, the next move is made that way (and every later one, once it works). Where it has none, the
        // same way is tried once more, as one such move may be a user's undo (which looks the same); a second
        // move in a row not taken ends the game, rather than repeat what has no effect.
        // A pointed move not taken turns the loop back to clicking (below), rather than to another way.
        let not_taken = reading.board == board_before && expected != board_before;
        if not_taken && !pointed {
            let another = game.other_actions(&frame, &reading, &mv, way + 1)?.is_some();
            let previous = ignored.replace((report.moves, how.clone()));
            if another {
                way += 1;
                way_worked = false;
                log(PlayEvent::Note(&format!("move {} ({how}) left the board as it was; making moves another way", report.moves)));
            } else if let Some((previous, previous_how)) = previous {
                bail!(
                    "the game does not take moves this way: moves {previous} ({previous_how}) and {} ({how}) both left the board as it was, and no other way to make them was found; stopped rather than repeat them",
                    report.moves
                );
            }
        } else if !not_taken {
            ignored = None;
            way_worked |= reading.board != board_before;
            if way != 0 && way_worked && !way_kept {
                way_kept = true;
                match game.remember_way(&reading, way) {
                    Ok(Some(note)) => log(PlayEvent::Note(&note)),
                    Ok(None) => {}
                    Err(e) => log(PlayEvent::Note(&format!("warning: the way moves are made could not be kept: {e:#}"))),
                }
            }
        }
        if reading.board != expected && pointed && choosing == Choosing::ByPointing {
            choosing = Choosing::ByClick;
            log(PlayEvent::Note(&format!("move {} ({how}) did not go as expected; choosing cells by clicking again", report.moves)));
        }
        if reading.board != expected {
            report.replans += 1;
            plan.clear();
            log(PlayEvent::Note(&format!("the board differs from the expected one after move {}; planning again from what is shown", report.moves)));
        }
        // What the window does not show is carried over from what the bot knew.
        // (From the board before the move where the window shows the move was not taken.)
        let known = if reading.board == board_before && reading.board != expected { &board_before } else { &expected };
        reading.board = game.carry_over(known, reading.board);
    }
    report.final_board = reading.board.to_string();
    report.millis = source.now().saturating_sub(start).as_millis();
    Ok(report)
}

/// A frame and what was read from it.
type Seen<G> = (Frame, Reading<<G as crate::game::Game>::Board, <G as ScreenGame>::Layout>);

/// Watches the window after a move until it shows the expected board and stays so for the settle's quiet
/// period; `None` when it has not within the settle's change timeout (the caller then reads what settles).
fn await_expected<G: ScreenGame>(
    game: &G,
    source: &mut dyn FrameSource,
    settle: &Settle,
    before: &image::RgbaImage,
    layout: &G::Layout,
    expected: &G::Board,
) -> Result<Option<Seen<G>>> {
    let start = source.now();
    while source.now().saturating_sub(start) < settle.change_timeout {
        source.sleep(settle.interval);
        let frame = source.grab()?;
        if frame.image == *before {
            continue;
        }
        let grabbed_at = source.now();
        let Ok(reading) = read_again(game, &frame, layout) else { continue };
        if reading.board != *expected {
            continue;
        }
        // Seen: it counts once the picture holds still for the quiet period (at least one more capture agrees).
        let confirmed = settled_from(source, settle, frame.clone(), grabbed_at)?;
        if confirmed.same_as(&frame) {
            return Ok(Some((confirmed, reading)));
        }
        // It moved on (an animation, such as a flash on completion) and has settled since: what does it show now?
        if let Ok(settled) = read_again(game, &confirmed, layout) {
            if settled.board == *expected {
                return Ok(Some((confirmed, settled)));
            }
        }
    }
    Ok(None)
}

/// Reads a frame; when that fails and other windows cover the game's, brings it to the front and reads it again
/// once it has settled, so that a covered window is never taken for a missing board.
fn read_uncovered<G: ScreenGame>(
    game: &G,
    source: &mut dyn FrameSource,
    frame: Frame,
    hint: Option<&G::Layout>,
    settle: &Settle,
    log: &mut dyn FnMut(PlayEvent<'_>),
) -> Result<Seen<G>> {
    let error = match game.read(&frame, hint) {
        Ok(reading) => return Ok((frame, reading)),
        Err(error) => error,
    };
    let covering = source.uncover()?;
    if covering.is_empty() {
        return Err(error);
    }
    let covering = covering.join(", ");
    log(PlayEvent::Note(&format!("the game's window was covered by {covering}: brought it to the front")));
    let frame = stable_frame(source, settle, Some(&frame.image))?;
    match game.read(&frame, hint) {
        Ok(reading) => Ok((frame, reading)),
        Err(e) => Err(e.context(format!("the game's window was covered by {covering}, and cannot be read after it was brought to the front"))),
    }
}

/// Reads a frame of a board already read once, using the earlier layout where the picture is ambiguous.
fn read_again<G: ScreenGame>(game: &G, frame: &Frame, layout: &G::Layout) -> Result<Reading<G::Board, G::Layout>> {
    game.read(frame, Some(layout))
}
