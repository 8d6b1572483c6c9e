//! How moves are made in this client, learned as the game goes.
//!
//! A client offers its ways of making a move ([`Client::actions`], one [`Way`] at a time: the usual one, then
//! the others in their order: colour buttons, a number pad …); [`Ways`] is what the loop knows of them in this game: which way it uses, whether that
//! way has changed the board yet (a *proven* way: a move made that way of which nothing shows is late or lost,
//! not refused, and is waited for: `verify`), and how a move made of a click and then keys chooses its cell (by
//! the click, or by pointing where a click enters a symbol by itself).
//!
//! The rules it keeps: a move that leaves the board as it was for the whole patience, made a way that has not
//! worked yet, turns the loop to the game's next way where there is one (a way whose control was on trial first
//! tries the game's next control); where there is none, the game ends, naming every move that left the board as
//! it was (a move is never made the same way twice). A way other than the usual one, once it works, is offered
//! to the game to remember. A pointed move that does not show as expected turns the loop back to clicking.

use super::failure::{fail, FailureKind};
use anyhow::{Context, Result};

use super::{shown, Attempt, PlayEvent};
use crate::capture::Frame;
use crate::game::{Action, Client, FirstWay, MoveEvents, MoveOf, ReadingOf, Repeat, Way};

/// One move's input events, and how they are named in the log.
#[derive(Clone, Debug)]
pub struct MoveInput {
    pub actions: Vec<Action>,
    pub how: String,
    /// The control the move tries, not yet proved (see [`crate::game::MoveEvents::trial`]).
    pub trial: Option<usize>,
    /// How many of the first actions only choose where the move goes (see [`crate::game::MoveEvents::selects`]).
    pub selects: usize,
    /// What a copy of these events does once they have taken effect (see [`crate::game::Repeat`]).
    pub repeat: Repeat,
}

impl MoveInput {
    /// Whether the move points at its cell (no click) before typing.
    pub fn pointed(&self) -> bool {
        self.actions.iter().any(|a| matches!(a, Action::Point { .. }))
    }

    /// Whether the move is a click followed by keys (a Sudoku entry).
    pub fn clicks_then_types(&self) -> bool {
        matches!(self.actions.as_slice(), [Action::Click { .. }, Action::Type(_), ..])
    }

    /// Whether the move is clicks alone on controls already known (no control on trial): all it can teach is
    /// whether the client takes a press sent at once.
    pub fn clicks_known_controls(&self) -> bool {
        self.trial.is_none() && self.actions.iter().all(|a| matches!(a, Action::Click { .. }))
    }
}

/// How the loop chooses the cell of a move made of a click and then keys.
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

/// What the loop knows of how this client takes moves.
#[derive(Clone, Debug)]
pub struct Ways<W: Way> {
    /// The way in use.
    way: W,
    /// Whether a move made the current way has changed the board.
    worked: bool,
    /// Whether the game has been offered the current way to remember.
    kept: bool,
    /// Whether the way in use is the one the calibration named, not yet left.
    from_calibration: bool,
    /// Whether a way that works is kept in the calibration (`play --learn`), or only reported.
    keep_ways: bool,
    choosing: Choosing,
    /// Whether a click on a cell shows in the window (the client selects the cell), as the first click-then-keys
    /// move's click did: later moves then type only once their click shows.
    click_shows: bool,
    /// The moves in a row, up to the last, that left the board as it was (their numbers and how they were made).
    ignored: Vec<(usize, String)>,
    /// The way whose events that choose a move's place were seen to choose it (a keyboard cursor moved onto the
    /// move's cell by them), if any.
    choice_seen_for: Option<W>,
    /// How many click-then-keys moves in a row showed, after their click, a window that did not read as a board.
    unread_clicks: usize,
}

/// How many clicks in a row whose effect does not read as a board are looked at before the loop takes it that a
/// click enters nothing (see [`Ways::click_probed`]).
pub const UNREAD_CLICKS: usize = 2;

/// How a move is made, for the log and messages: "click at (x, y)" in screen coordinates, "type 5", "key Left
/// ×11", or several of them.
pub fn describe_actions(actions: &[Action], frame: &Frame) -> String {
    let mut parts: Vec<(String, usize)> = Vec::new();
    for action in actions {
        let part = match *action {
            Action::Click { x, y } | Action::Point { x, y } => {
                let ((sx, sy), _) = frame.screen_point(x, y);
                format!("{} at ({sx}, {sy})", pointer_verb(action))
            }
            Action::Type(c) => format!("type {c}"),
            Action::Key(key) => format!("key {key}"),
        };
        match parts.last_mut() {
            Some((last, times)) if *last == part => *times += 1,
            _ => parts.push((part, 1)),
        }
    }
    let parts: Vec<String> =
        parts.into_iter().map(|(part, times)| if times > 1 { format!("{part} ×{times}") } else { part }).collect();
    parts.join(", ")
}

/// What a pointer event does, for the log: "click" or "point".
pub fn pointer_verb(action: &Action) -> &'static str {
    if let Action::Point { .. } = action {
        "point"
    } else {
        "click"
    }
}

impl<W: Way> Ways<W> {
    /// The ways at the start of a game, from `way` (the client's first: the one the calibration that read the
    /// board names, else the usual one). With `keep_ways`, a way other than the usual one that works is kept in
    /// that calibration.
    pub fn new(first: FirstWay<W>, keep_ways: bool) -> Ways<W> {
        let way = first.way();
        Ways {
            way,
            worked: false,
            kept: way != W::USUAL,
            from_calibration: matches!(first, FirstWay::Calibrated(_)) && way != W::USUAL,
            keep_ways,
            choosing: Choosing::Unseen,
            click_shows: false,
            ignored: Vec::new(),
            choice_seen_for: None,
            unread_clicks: 0,
        }
    }

    /// The way in use.
    pub fn way(&self) -> W {
        self.way
    }

    /// Whether a move made as `input` that does not show is late rather than refused: the way in use has changed
    /// the board, and the move tries no control that is not yet proved.
    pub fn proven_for(&self, input: &MoveInput) -> bool {
        self.worked && input.trial.is_none()
    }

    /// The input events that make `mv` the way in use, planned on `frame`.
    pub fn input<G: Client<Way = W>>(
        &mut self,
        game: &mut G,
        frame: &Frame,
        reading: &ReadingOf<G>,
        mv: &MoveOf<G>,
        number: usize,
        log: &mut dyn FnMut(&PlayEvent),
    ) -> Result<MoveInput> {
        let events = match game.actions(frame, reading, mv, self.way)? {
            Some(events) => events,
            None if self.way == W::USUAL => {
                fail!(FailureKind::NoWay, "move {number}: {mv} has no usual way to be made")
            }
            // The calibration's way is not shown in this window: the usual way, then.
            None if self.from_calibration && !self.worked => {
                log(&PlayEvent::CalibrationWayAbsent { way: self.way.number() });
                (self.way, self.from_calibration) = (W::USUAL, false);
                game.actions(frame, reading, mv, W::USUAL)?
                    .with_context(|| format!("move {number}: {mv} has no usual way to be made"))?
            }
            // This way has nothing for this move (no control of this colour left): a later way that has.
            None => match self.later_way(game, frame, reading, mv)? {
                Some((way, events)) => {
                    let (way_number, next) = (self.way.number(), way.number());
                    log(&PlayEvent::WayOffersNothing { number, mv: mv.to_string(), way: way_number, next });
                    (self.way, self.worked, self.from_calibration) = (way, false, false);
                    events
                }
                None => fail!(
                    FailureKind::NoWay,
                    "move {number}: {mv} cannot be made the way in use (way {}) or any later one: the window shows \
                     nothing to make it with",
                    self.way.number()
                ),
            },
        };
        let described = describe_actions(&events.actions, frame);
        let how = match &events.way {
            Some(name) => format!("{name}, {described}"),
            None => described,
        };
        let mut input = MoveInput {
            actions: events.actions,
            how,
            trial: events.trial,
            selects: events.selects,
            repeat: events.repeat,
        };
        if self.choosing == Choosing::ByPointing && input.clicks_then_types() {
            input.actions = input
                .actions
                .into_iter()
                .map(|a| if let Action::Click { x, y } = a { Action::Point { x, y } } else { a })
                .collect();
            input.how = describe_actions(&input.actions, frame);
        }
        Ok(input)
    }

    /// The first way after the one in use that offers events for `mv`, and those events.
    fn later_way<G: Client<Way = W>>(
        &self,
        game: &mut G,
        frame: &Frame,
        reading: &ReadingOf<G>,
        mv: &MoveOf<G>,
    ) -> Result<Option<(W, MoveEvents)>> {
        let mut way = self.way;
        while let Some(next) = way.next() {
            way = next;
            if let Some(events) = game.actions(frame, reading, mv, way)? {
                return Ok(Some((way, events)));
            }
        }
        Ok(None)
    }

    /// Whether the window is read between the events of this move that choose its place and the rest (see
    /// [`crate::game::MoveEvents::selects`]): until the way in use has been seen to choose places.
    pub fn checks_choice(&self, input: &MoveInput) -> bool {
        input.selects > 0 && self.choice_seen_for != Some(self.way)
    }

    /// A move made the way in use showed (and was then taken back): the way works.
    pub fn taken(&mut self) {
        self.ignored.clear();
        self.worked = true;
    }

    /// The way in use was seen to choose a move's place.
    pub fn choice_seen(&mut self) {
        self.choice_seen_for = Some(self.way);
    }

    /// Whether this move's click must be read before its keys are typed: the first move made of a click and
    /// then keys, to see whether the client enters a symbol on a click by itself.
    pub fn probes_click(&self, input: &MoveInput) -> bool {
        self.choosing == Choosing::Unseen && input.clicks_then_types()
    }

    /// Whether this move's keys wait until its click shows: a click-then-keys move chosen by clicking, in a
    /// client whose clicks show.
    pub fn waits_for_click(&self, input: &MoveInput) -> bool {
        self.choosing == Choosing::ByClick && self.click_shows && input.clicks_then_types()
    }

    /// What the first click-then-keys move's click did: showed in the window at all, and entered a symbol by
    /// itself or not (`entered`), or `None` where the window showed a change that did not read as a board (a
    /// symbol the client entered by itself may break the rules, as KSudoku's selected digit does in a column
    /// that already holds it): nothing is learned, and the next such move's click is looked at again, up to
    /// [`UNREAD_CLICKS`] in a row (a client that covers its board with a number picker on every click, as GNOME
    /// Sudoku does, shows nothing entered there: cells are chosen by clicking).
    pub fn click_probed(&mut self, entered: Option<bool>, shows: bool, number: usize, log: &mut dyn FnMut(&PlayEvent)) {
        let entered = match entered {
            Some(entered) => entered,
            None => {
                self.unread_clicks += 1;
                if self.unread_clicks < UNREAD_CLICKS {
                    return;
                }
                false
            }
        };
        self.click_shows = shows;
        self.choosing = if entered { Choosing::ByPointing } else { Choosing::ByClick };
        if entered {
            log(&PlayEvent::ClickEntered { number });
        }
    }

    /// Learns from what the move of `attempt` shows: `seen`, read from `frame`, and what the client said of the
    /// control the move tried (`control`, [`crate::game::Learned::control`]). A move that left the board as it
    /// was, made a way that has not worked, turns to the next way; an error ends the game when nothing is left to
    /// try.
    pub fn learn<G: Client<Way = W>>(
        &mut self,
        game: &mut G,
        attempt: &Attempt<'_, G>,
        (frame, seen): (&Frame, &ReadingOf<G>),
        control: Option<String>,
        log: &mut dyn FnMut(&PlayEvent),
    ) -> Result<()> {
        let (number, mv, input, expected) = (attempt.number, attempt.mv, attempt.input, attempt.expected);
        let before = &attempt.reading.board;
        let not_taken = shown::not_taken(before, expected, &seen.board);
        if not_taken && !input.pointed() {
            self.ignored.push((number, input.how.clone()));
        }
        if input.trial.is_some() {
            if let Some(learned) = control {
                log(&PlayEvent::Learned { number, how: Some(input.how.clone()), what: learned });
            }
            // A control that did nothing is dropped by the game; the way is tried again with its next one.
            if not_taken && game.actions(frame, seen, mv, self.way)?.is_some() {
                return Ok(());
            }
        }
        // A pointed move not taken turns the loop back to clicking (below), rather than to another way.
        if not_taken && !input.pointed() {
            let another = self.later_way(game, frame, seen, mv)?.map(|(way, _)| way);
            if let Some(another) = another {
                (self.way, self.from_calibration) = (another, false);
                self.worked = false;
                log(&PlayEvent::WayLeftBoard { number, how: input.how.clone() });
            } else {
                let tried: Vec<String> = self.ignored.iter().map(|(n, how)| format!("{n} ({how})")).collect();
                fail!(
                    FailureKind::NoWay,
                    "the game does not take moves any way the bot knows: moves {} left the board as it was, each \
                     waited for in full, and no other way to make them was found; stopped rather than repeat them",
                    tried.join(", ")
                );
            }
        } else if !not_taken {
            self.ignored.clear();
            self.worked |= seen.board != *before;
            if self.way != W::USUAL && self.worked && !self.kept {
                self.kept = true;
                match game.keep_way(seen, self.way, self.keep_ways) {
                    Ok(Some(note)) => log(&PlayEvent::WayKept { note }),
                    Ok(None) => {}
                    Err(e) => log(&PlayEvent::WayNotKept { error: format!("{e:#}") }),
                }
            }
        }
        if seen.board != *expected && input.pointed() && self.choosing == Choosing::ByPointing {
            self.choosing = Choosing::ByClick;
            log(&PlayEvent::PointingDropped { number, how: input.how.clone() });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::OnlyWay;

    fn entry(x: i32, y: i32, digit: char) -> MoveInput {
        MoveInput {
            actions: vec![Action::Click { x, y }, Action::Type(digit)],
            how: format!("click at ({x}, {y}), type {digit}"),
            trial: None,
            selects: 1,
            repeat: Repeat::SameBoard,
        }
    }

    /// The first entry's click is looked at; where what it showed did not read as a board (KSudoku's number pad
    /// put its selected digit in a column that held it), nothing is learned and the next entry's click is
    /// looked at again: where that one reads, it entered a digit, and cells are chosen by pointing from then on;
    /// where two in a row do not read (a number picker over the board), cells are chosen by clicking.
    #[test]
    fn a_click_whose_effect_does_not_read_is_looked_at_again_on_the_next_move() {
        let mut ways = Ways::new(FirstWay::Shown(OnlyWay), false);
        let mut said = Vec::new();
        let mut log = |event: &PlayEvent| said.push(event.to_string());
        assert!(ways.probes_click(&entry(10, 10, '3')));
        ways.click_probed(None, true, 1, &mut log);
        assert!(ways.probes_click(&entry(20, 10, '1')), "an unread probe teaches nothing");
        assert!(!ways.waits_for_click(&entry(20, 10, '1')));
        ways.click_probed(Some(true), true, 2, &mut log);
        assert!(!ways.probes_click(&entry(30, 10, '4')));
        assert_eq!(ways.choosing, Choosing::ByPointing);
        assert_eq!(said.len(), 1, "{said:?}");

        let mut covered = Ways::new(FirstWay::Shown(OnlyWay), false);
        covered.click_probed(None, true, 1, &mut |_| {});
        covered.click_probed(None, true, 2, &mut |_| {});
        assert!(!covered.probes_click(&entry(30, 10, '4')), "two unread probes in a row: clicks choose cells");
        assert!(covered.waits_for_click(&entry(30, 10, '4')));
    }
}
