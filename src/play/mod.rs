//! The closed loop, one move at a time, for any [`Client`]: **observe** (capture until the board holds
//! still, and read it), **plan** (solve, when the plan is spent or the board was not as expected), **act**
//! (send the move's events, the way this client takes them) and **verify** (watch until the expected board
//! shows, or name what shows instead). Each step is a file of its own ([`observe`], [`plan`], [`act`],
//! [`verify`]; the end of a game in [`end`]); one move travels through them as one [`Attempt`]; every wait is a
//! [`wait::Wait`]; the pointer, keys and focus are in [`hands`]; and what the loop does and sees it reports as
//! typed [`PlayEvent`]s ([`events`]), which `play` prints, a recording stores and a replay compares.
//!
//! The loop never clicks blind: every move is made on a board just read, every click is clamped to the window,
//! and before every event and after every wait it checks that the pointer is where it left it (if the user has
//! moved the mouse, it stops at once). Keys are typed only once the game's window has the input focus.
//!
//! Slow is not refused, and nothing is done twice ([`pace`], [`verify`]): the loop learns how long the client
//! takes to show a move and how busy the desktop is, waits for a move of which nothing has shown up to its whole
//! patience, and sends a move's input again only where the client shows it never got it, or where a copy leaves
//! the board as it was and this client has been seen to ignore one ([`copies`]). It settles on the board, not the
//! window ([`watch`]): a clock or an animation elsewhere in the window does not hold it up, and a board in
//! mid-change is never read, since a board counts only once it holds still. How the client takes moves (cell
//! clicks, buttons, pointing) is learned in [`ways`]; a keyboard cursor that no single look shows is found by what
//! one of its keys moves ([`cursor`]).
//!
//! After the move the plan says wins, a board the game hides (a box or banner over it, a dialog of its own) is
//! the game's report of the win when the board before that move was the expected one; after any other move a
//! board that cannot be read in a window of the same size is named as covered by the game.

mod act;
mod copies;
mod cursor;
mod end;
mod events;
mod failure;
mod hands;
mod observe;
mod options;
mod pace;
mod plan;
mod shown;
mod verify;
mod wait;
mod watch;
mod ways;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use anyhow::Result;

use crate::capture::{Frame, FrameSource, Settle};
use crate::game::{Action, BoardOf, Client, Game, MoveOf, Reading, ReadingOf};
use crate::input::InputDevice;
use copies::CopyProof;
pub use events::{PlayEvent, Replan};
use failure::fail;
pub use failure::{kind_of, Failure, FailureKind};
use hands::Hands;
pub use hands::PointerMoved;
pub use options::{PlayOptions, PlayReport};
pub use pace::Pace;
use verify::Verdict;
use ways::{MoveInput, Ways};

/// One move as the loop makes it: its number, the move and its input events, the frame it was planned on and what
/// that frame read as (the board before the move, and where it lies), the board the rules expect after it, how the
/// window settles, and whether the way it is made has worked in this game.
struct Attempt<'m, G: Client> {
    number: usize,
    mv: &'m MoveOf<G>,
    input: &'m MoveInput,
    frame: &'m Frame,
    reading: &'m ReadingOf<G>,
    expected: &'m BoardOf<G>,
    settle: &'m Settle,
    /// The way the move is made has changed the board in this game (and the move tries no control on trial): a
    /// move of which nothing shows is lost or late, not refused.
    proven: bool,
}

/// The loop's hold on the game: its window, the input device, and what it has learned of the client's pace.
struct Player<'a, G: Client> {
    game: &'a mut G,
    source: &'a mut dyn FrameSource,
    hands: Hands<'a>,
    options: &'a PlayOptions,
    log: &'a mut dyn FnMut(&PlayEvent),
    pace: Pace,
    /// Whether the board's picture holds still in this game (see [`watch::Picture`]).
    picture: watch::Picture,
    /// The waits of the move being verified, for messages.
    waited: Vec<Duration>,
    /// How many times in a row a move was made again because the board moved before it showed (bounded, so that
    /// a board whose place reads differently each time is not chased for ever).
    remade_where_moved: usize,
    /// What a copy of a move has been seen to do in this client ([`copies`]).
    copy_proof: CopyProof,
    /// How many times the events of the move being verified were sent.
    sent: usize,
    /// The window as the move's click left it, before its keys were sent, where the loop waited for the click to
    /// show (see [`act`]): a capture that still shows it shows nothing of the keys, and is not read.
    before_keys: Option<Frame>,
    /// The click of the last click-then-keys move whose keys waited for it: a click on the cell it chose shows
    /// nothing new where the client keeps its cell chosen.
    last_click: Option<Action>,
}

/// Plays `game`, the client of the window behind `source`, until it is won.
pub fn play<'a, G: Client>(
    game: &'a mut G,
    source: &'a mut dyn FrameSource,
    input: &'a mut dyn InputDevice,
    options: &'a PlayOptions,
    log: &'a mut dyn FnMut(&PlayEvent),
) -> Result<PlayReport> {
    let start = source.now();
    let mut player = Player {
        game,
        source,
        hands: Hands::new(input, options.dry_run),
        options,
        log,
        pace: Pace::default(),
        picture: watch::Picture::default(),
        waited: Vec::new(),
        remade_where_moved: 0,
        copy_proof: CopyProof::Unseen,
        sent: 0,
        before_keys: None,
        last_click: None,
    };
    let (mut frame, mut reading) = player.observe_first()?;
    let mut report = PlayReport {
        won: false,
        moves: 0,
        replans: 0,
        planned_moves: 0,
        plan_optimal: false,
        final_board: String::new(),
        last_move_millis: 0,
        millis: 0,
        first_capture_millis: start.as_millis(),
    };
    let first_way = player.game.start(&reading)?;
    let mut ways = Ways::new(first_way, options.learn && !options.dry_run);
    let mut plan: VecDeque<MoveOf<G>> = VecDeque::new();
    // Whether the board the next move is made on is the one the loop expected (no re-plan since it was read).
    let mut as_expected = true;
    // The boards the window showed where a move's was expected, and how often each was seen so.
    let mut unexpected_boards: HashMap<String, usize> = HashMap::new();
    loop {
        if player.game.rules().is_won(&reading.board) {
            report.won = true;
            break;
        }
        if plan.is_empty() {
            let found = player.plan(&reading.board)?;
            if report.planned_moves == 0 {
                report.planned_moves = found.moves.len();
                report.plan_optimal = found.optimal;
            }
            plan = found.moves.into();
        }
        if report.moves >= options.max_moves {
            fail!(
                FailureKind::MoveLimit,
                "stopped after the move limit of {} moves without winning",
                options.max_moves
            );
        }
        let mv = plan.pop_front().expect("plan is not empty");
        let number = report.moves + 1;
        player.find_cursor(ways.way(), &frame, &reading, number)?;
        let move_input = ways.input(&mut *player.game, &frame, &reading, &mv, number, &mut *player.log)?;
        player.hands.take_controls()?;
        if number == 1 && move_input.clicks_known_controls() {
            player.hands.quick_on_trial_from_here();
        }
        player.report(PlayEvent::Moving { number, mv: mv.to_string(), how: move_input.how.clone() });
        let expected = player.game.rules().apply(&reading.board, &mv);
        let before = reading.board.clone();
        report.moves = number;
        if options.dry_run {
            player.perform(&move_input.actions, &frame, Duration::ZERO)?;
            reading = Reading { board: expected, ..reading };
            continue;
        }
        let winning = player.game.rules().is_won(&expected);
        let mut settle = if winning { options.settle.clone() } else { player.game.settle() };
        settle.quiet = player.quiet(settle.quiet)?;
        let attempt = Attempt {
            number,
            mv: &mv,
            input: &move_input,
            frame: &frame,
            reading: &reading,
            expected: &expected,
            settle: &settle,
            proven: ways.proven_for(&move_input),
        };
        if !player.act(&mut ways, &attempt)? {
            // Nothing was entered (the move's place was not chosen): the window as it is now, and the next way.
            let (shown, read) = player.watch_still(&settle, Some(&reading.layout), settle.quiet)?;
            (frame, reading) = player.take_in(&mut ways, &attempt, (shown, read?), false)?;
            plan.push_front(mv);
            report.moves = number - 1;
            continue;
        }
        report.last_move_millis = player.source.now().saturating_sub(start).as_millis();
        player.hands.check_pointer()?;
        let verdict = player.verify(&attempt)?;
        let seen = match verdict {
            Verdict::Read(seen) => seen,
            Verdict::Moved(seen) => {
                player.report(PlayEvent::BoardMoved { number });
                (frame, reading) = seen;
                plan.push_front(mv);
                report.moves = number - 1;
                continue;
            }
            Verdict::TakenBack(seen) => {
                player.report(PlayEvent::TakenBack { number });
                player.report(PlayEvent::reading(&seen.1));
                ways.taken();
                report.replans += 1;
                plan.clear();
                as_expected = false;
                (frame, reading) = seen;
                reading.board = shown::completed(&mut *player.game, &before, reading.board)?;
                check_not_circling(&mut unexpected_boards, &reading.board, number)?;
                continue;
            }
            Verdict::Unreadable(shown, error) => {
                if winning && as_expected {
                    player.end_screen(number, &error)?;
                    reading = Reading { board: expected, ..reading };
                    report.won = true;
                    break;
                }
                // Another window over the game's is brought to the front; a window of another size keeps its
                // reader's error as it is (shrunk too far, say); in one of the same size the game covered its board.
                let error = if shown.image.dimensions() == frame.image.dimensions() {
                    error.context(format!(
                        "the game covered its board after move {number} (its window shows no board that can be read)"
                    ))
                } else {
                    error
                };
                player.uncover(error, Some(&reading.layout))?
            }
        };
        player.hands.check_pointer()?;
        let (shown, seen) = if seen.1.board == expected && !winning && player.copy_wanted(&move_input) {
            player.look_at_a_copy(&attempt, seen)?
        } else {
            seen
        };
        if winning && seen.board != expected && player.end_window(&before, &mv, &seen.board)? {
            reading = Reading { board: expected, ..seen };
            report.won = true;
            break;
        }
        if winning && as_expected && player.new_deal(number, &before, &expected, &seen.board) {
            reading = Reading { board: expected, ..seen };
            report.won = true;
            break;
        }
        if seen.board != expected {
            player.check_not_doubled(&before, &mv, &move_input, &seen.board, number)?;
        }
        (frame, reading) = player.take_in(&mut ways, &attempt, (shown, seen), true)?;
        if shown::not_taken(&before, &expected, &reading.board) {
            // The window shows the move was never received: it is still to be made (held longer, or another way,
            // as `take_in` chose), and is not counted as made.
            reading.board = shown::completed(&mut *player.game, &before, reading.board)?;
            plan.push_front(mv);
            report.moves = number - 1;
            continue;
        }
        as_expected = reading.board == expected;
        if !as_expected {
            report.replans += 1;
            plan.clear();
            player.report(PlayEvent::Replanned { number, why: Replan::AfterMove });
            check_not_circling(&mut unexpected_boards, &reading.board, number)?;
        }
        // What the window does not show is carried over from what the bot knew.
        // (From the board before the move where the window shows the move was not taken.)
        let known = if reading.board == before && reading.board != expected { &before } else { &expected };
        reading.board = shown::completed(&mut *player.game, known, reading.board)?;
        if !options.move_delay.is_zero() && !player.game.rules().is_won(&reading.board) {
            // The pause for people watching, then the board as it is now: the next move is made on a board just
            // read, whatever happened in the pause.
            player.pause(options.move_delay);
            let known = reading.board.clone();
            let (now_frame, now_reading) = player.observe(&reading.layout)?;
            (frame, reading) = (now_frame, now_reading);
            reading.board = shown::completed(&mut *player.game, &known, reading.board)?;
            if reading.board != known {
                report.replans += 1;
                plan.clear();
                as_expected = false;
                player.report(PlayEvent::Replanned { number, why: Replan::InPause });
            }
        }
    }
    report.final_board = reading.board.to_string();
    report.millis = player.source.now().saturating_sub(start).as_millis();
    Ok(report)
}

/// How often the window may show one board where another was expected before the loop is taken to go in circles.
const SAME_SURPRISE: usize = 2;

/// The window showed `board` where move `number`'s board was expected. A game goes forward: no board comes back
/// unless something undoes moves. One board shown against expectation more than [`SAME_SURPRISE`] times (a user's
/// undo, then the move made again, is once) means the reading flips between looks or something undoes each move:
/// making the same moves again would go on for ever, so the loop stops and says so.
fn check_not_circling<B: std::fmt::Display>(seen: &mut HashMap<String, usize>, board: &B, number: usize) -> Result<()> {
    let times = seen.entry(board.to_string()).or_insert(0);
    *times += 1;
    if *times > SAME_SURPRISE {
        fail!(
            FailureKind::Circling,
            "after move {number} the window showed a board it had shown {} times before where another was expected: \
             the board reads differently from one look to the next, or something takes moves back; stopped rather \
             than make the same moves again\n{board}",
            *times - 1
        );
    }
    Ok(())
}

impl<'a, G: Client> Player<'a, G> {
    /// Reports what the loop did or saw: printed for people, recorded, and compared in a replay.
    fn report(&mut self, event: PlayEvent) {
        (self.log)(&event);
    }

    /// The pause for people watching after a move (`--move-delay-ms`).
    fn pause(&mut self, delay: Duration) {
        if !delay.is_zero() {
            self.source.sleep(delay);
        }
    }
}
