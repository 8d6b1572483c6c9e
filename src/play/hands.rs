//! The bot's hands on the desktop: the pointer and the keys, and the checks that keep them honest.
//!
//! - The pointer is the user's sign: from the moment the bot takes the controls it knows where it left the
//!   pointer, and before every event (and after every wait on the focus) it checks the pointer is still there;
//!   found elsewhere, the user has taken the mouse and the game stops at once ([`PointerMoved`]).
//! - A pointer move is queued like any input: after moving it, the bot waits (bounded) until the X server
//!   reports it there, so that a click is never sent to where the pointer was.
//! - Every click is clamped to the window; keys are typed only once the game's window has the input focus, and,
//!   after a click, only once no other program holds the pointer: a window manager that takes each click on a
//!   window first (openbox does, to focus and raise it) holds it until it lets it through, and keys sent
//!   meanwhile reach the game before the click that chooses where they go.
//! - Each click and key is given as a person gives it (the device's concern: [`crate::input`]): the pointer at
//!   rest before the press, the button or key held about 80 ms, so that games that poll their input once a frame
//!   see it.
//! - Where the client previews a move under the pointer, the pointer is parked off the board after every move.

use std::time::Duration;

use super::failure::{fail, FailureKind};
use anyhow::Result;

use super::wait::{First, Try, Wait};
use super::ways::pointer_verb;
use super::PlayEvent;
use crate::capture::{Frame, FrameSource, Region};
use crate::game::Action;
use crate::input::InputDevice;

/// The user took the mouse: the pointer is not where the bot left it.
#[derive(Debug, thiserror::Error)]
#[error("stopped: the pointer moved to ({found_x}, {found_y}) but the bot had it at ({left_x}, {left_y}); the user has taken the mouse")]
pub struct PointerMoved {
    pub left_x: i32,
    pub left_y: i32,
    pub found_x: i32,
    pub found_y: i32,
}

/// The user pressed the key that stops the bot (where a move of the pointer cannot be seen).
#[derive(Debug, thiserror::Error)]
#[error("stopped: the user pressed {0}")]
pub struct StopKeyPressed(pub &'static str);

/// How long a pointer move of the bot's may take to be reported by the X server.
const POINTER_BOUND: Duration = Duration::from_secs(3);
/// How often the bot asks whether another program still holds the pointer after a click (a question costs a round
/// trip to the X server, a fraction of a millisecond).
const CLICK_DELIVERY_INTERVAL: Duration = Duration::from_millis(2);
/// How long at least a click may be held by another program before the bot gives up typing after it.
const CLICK_DELIVERY_BOUND: Duration = Duration::from_secs(10);

/// The input device, and what the bot knows of the pointer.
pub struct Hands<'a> {
    pub input: &'a mut dyn InputDevice,
    /// Where the bot left the pointer: where it found it as it took the controls (just before its first move is
    /// announced), then wherever it last moved it. A pointer found anywhere else was moved by the user. (None
    /// before the first move, and in a dry run, which takes no controls.)
    pub left_at: Option<(i32, i32)>,
    /// Whether the pointer is moved off the board after each move: the board showed otherwise with the pointer
    /// over it (a client that previews the move under the pointer) and read once the pointer was moved off.
    pub parks_pointer: bool,
    /// A dry run: the events go to a recording device, and no focus is waited for.
    dry_run: bool,
    /// How buttons and keys are held: the usual way, held longer once for a move that left the board as it was,
    /// or held longer for the rest of the game since a move held so showed.
    pub hold: Hold,
    /// A click was sent and no key since: the next key waits until no other program holds the pointer.
    clicked: bool,
}

/// How long the bot holds each button and key, learned from what the client showed (see [`Hands::hold_longer`]
/// and [`Hands::move_shown`]).
///
/// A game starts with the hold of a person ([`crate::input::HOLD`]), which every client takes. Once a move held so
/// has shown, the next is sent at once ([`crate::input::QUICK`], on trial; a first move made of clicks alone, or
/// the digit of a first entry whose click has shown, is itself the trial: [`Hands::quick_on_trial_from_here`]):
/// where it shows, every later move is sent so; where nothing of it shows in the whole patience, the client missed
/// it (a game that polls its buttons once a frame), it is made again held, and the hold is kept for the rest of the
/// game. The trial costs nothing in a client that takes it, and one patience in one that does not. A later move
/// sent at once that never shows (a browser under load lost some) is, where it may be made again at all, made
/// again held, and so is every move after it. A client that missed a press sent at once and took it held polls
/// its input once a frame: a later held move of which nothing shows in the whole patience fell between two of its
/// frames (slow on a busy desktop), and is made again held longer ([`Hold::Held`], see `verify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// [`crate::input::HOLD`], as a person holds one; no move has shown yet.
    Usual,
    /// [`crate::input::QUICK`], on trial: a move held the usual time showed.
    QuickOnTrial,
    /// [`crate::input::QUICK`] for the rest of the game: a move sent so showed.
    Quick,
    /// [`crate::input::HOLD`] for the rest of the game: nothing of a move sent at once showed (move `at`).
    QuickMissed { at: usize },
    /// [`crate::input::HOLD`] for the rest of the game, proved: nothing of move `missed_at`, sent at once, showed,
    /// and a move held has shown since (a client that misses a press shorter than one of its frames).
    Held { missed_at: usize },
    /// [`crate::input::LONG_HOLD`], on trial: a move held the usual time left the board as it was.
    LongerOnTrial,
    /// [`crate::input::LONG_HOLD`] for the rest of the game: a move held longer showed where the usual hold did not.
    Longer,
    /// The usual hold: a move held longer did no better, so the hold is not what this client misses.
    NoHelp,
}

impl<'a> Hands<'a> {
    pub fn new(input: &'a mut dyn InputDevice, dry_run: bool) -> Hands<'a> {
        Hands { input, left_at: None, parks_pointer: false, dry_run, hold: Hold::Usual, clicked: false }
    }

    /// A move left the board as it was, waited for in full: whether to make it again the same way held longer.
    /// Yes (with the hold now used) the first time in a game; where the longer hold did no better, the usual hold
    /// comes back for the rest of the game and the move is made another way (the way, not the hold, is what the
    /// client does not take).
    pub fn hold_longer(&mut self) -> Option<std::time::Duration> {
        match self.hold {
            Hold::Usual | Hold::QuickMissed { .. } | Hold::Held { .. } => {
                self.hold = Hold::LongerOnTrial;
                self.input.set_hold(crate::input::LONG_HOLD);
                Some(crate::input::LONG_HOLD)
            }
            Hold::LongerOnTrial => {
                self.hold = Hold::NoHelp;
                self.input.set_hold(crate::input::HOLD);
                None
            }
            Hold::QuickOnTrial | Hold::Quick | Hold::Longer | Hold::NoHelp => None,
        }
    }

    /// A move showed: its clicks have reached the client (the pointer may leave at once), a hold on trial is kept
    /// for the rest of the game, and after the first move held as a person holds, the next is sent at once, on
    /// trial.
    pub fn move_shown(&mut self) {
        self.input.click_shown();
        self.hold = match self.hold {
            Hold::Usual => {
                self.quick_on_trial_from_here();
                return;
            }
            Hold::QuickOnTrial => Hold::Quick,
            Hold::QuickMissed { at } => Hold::Held { missed_at: at },
            Hold::LongerOnTrial => Hold::Longer,
            held => held,
        };
    }

    /// The presses from here on are sent at once, on trial, as the move after a held one is (nothing of it in the
    /// whole patience: made again held), where the hold is still a person's and none has been tried. For the first
    /// move where what is left of it can teach only whether the client takes it: a move of clicks alone on
    /// controls already known, or the digit typed once the first entry's click, held, has shown. A click that
    /// probes what a click does is held (missed, it would teach the wrong thing), and so are keys that move a
    /// cursor (never sent twice).
    pub fn quick_on_trial_from_here(&mut self) {
        if self.hold == Hold::Usual {
            self.input.set_hold(crate::input::QUICK);
            self.hold = Hold::QuickOnTrial;
        }
    }

    /// The move sent at once that this client missed, where a move held as a person holds it has shown since and
    /// every move is held so: a client that misses a press shorter than one of its frames (a game that polls its
    /// input once a frame).
    pub fn misses_brief_presses(&self) -> Option<usize> {
        match self.hold {
            Hold::Held { missed_at } => Some(missed_at),
            _ => None,
        }
    }

    /// Whether moves are sent at once, proved by a move that showed.
    pub fn quick(&self) -> bool {
        self.hold == Hold::Quick
    }

    /// Whether the move being made is the one sent at once on trial.
    pub fn quick_on_trial(&self) -> bool {
        self.hold == Hold::QuickOnTrial
    }

    /// Nothing of move `number`, sent at once, showed in the whole patience (the one on trial, or a later one the
    /// client lost): every move is held as a person holds it from now on.
    pub fn quick_missed(&mut self, number: usize) {
        self.hold = Hold::QuickMissed { at: number };
        self.input.set_hold(crate::input::HOLD);
    }

    /// The bot takes the controls: from now on the pointer moves only by its hand, whether it plays by clicks or
    /// by keys alone, and a user who moves it right as the first move is announced is seen.
    pub fn take_controls(&mut self) -> Result<()> {
        if self.left_at.is_none() && !self.dry_run {
            self.left_at = Some(self.input.pointer()?);
        }
        Ok(())
    }

    /// Checks the user has not taken the controls: no stop key pressed, and the pointer where the bot left it (nothing
    /// to check before it takes the controls).
    pub fn check_pointer(&self) -> Result<()> {
        if let Some(key) = self.input.stop_key_pressed() {
            return Err(StopKeyPressed(key).into());
        }
        if let Some((left_x, left_y)) = self.left_at {
            let (found_x, found_y) = self.input.pointer()?;
            if (found_x, found_y) != (left_x, left_y) {
                return Err(PointerMoved { left_x, left_y, found_x, found_y }.into());
            }
        }
        Ok(())
    }

    /// Sends events; keys only once the game's window has the input focus (waited for up to `focus_bound`). A
    /// click is given `after_click` to land before the next event of `actions`; after the last, the caller
    /// watches the window anyway.
    pub fn perform(
        &mut self,
        source: &mut dyn FrameSource,
        actions: &[Action],
        frame: &Frame,
        after_click: Duration,
        focus_bound: Duration,
        log: &mut dyn FnMut(&PlayEvent),
    ) -> Result<()> {
        for (i, action) in actions.iter().enumerate() {
            let more = i + 1 < actions.len();
            self.check_pointer()?;
            match *action {
                Action::Click { x, y } | Action::Point { x, y } => {
                    let ((sx, sy), clamped) = frame.screen_point(x, y);
                    if clamped {
                        let verb = pointer_verb(action);
                        log(&PlayEvent::Clamped { verb: verb.to_string(), x, y });
                    }
                    self.move_pointer(source, sx, sy, after_click)?;
                    if let Action::Click { .. } = action {
                        self.input.click()?;
                        self.clicked = true;
                    }
                    // Let the window take the click (or follow the pointer) before the next event.
                    if more {
                        source.sleep(after_click);
                    }
                }
                Action::Type(c) => {
                    if !self.dry_run {
                        self.await_keys_reach(source, after_click, focus_bound)?;
                    }
                    self.input.type_char(c)?
                }
                Action::Key(key) => {
                    if !self.dry_run {
                        self.await_keys_reach(source, after_click, focus_bound)?;
                    }
                    self.input.press_key(key)?
                }
            }
        }
        Ok(())
    }

    /// Moves the pointer to screen point (x, y) and waits (bounded) until the X server reports it there: a moved
    /// pointer is queued like any input, and on a busy desktop a look at the pointer can still find it where it
    /// was. A pointer found neither there nor where the bot left it has been moved by the user.
    pub fn move_pointer(&mut self, source: &mut dyn FrameSource, x: i32, y: i32, interval: Duration) -> Result<()> {
        self.input.move_pointer(x, y)?;
        let start = source.now();
        let wait = Wait::new(
            format!("the pointer to reach ({x}, {y})"),
            POINTER_BOUND,
            interval.max(Duration::from_millis(2)),
            First::Try,
        );
        let (input, left_at) = (&*self.input, self.left_at);
        let mut last = (x, y);
        let reached = wait.run(source, start, |_| {
            let found = input.pointer()?;
            last = found;
            if found == (x, y) {
                return Ok(Try::Holds(()));
            }
            // (In a dry run the pointer is wherever the user left it.)
            if let Some((left_x, left_y)) = left_at.filter(|&left| left != found) {
                return Err(PointerMoved { left_x, left_y, found_x: found.0, found_y: found.1 }.into());
            }
            Ok(Try::Lacks(format!("at ({}, {})", found.0, found.1)))
        })?;
        if reached.is_err() {
            fail!(
                FailureKind::InputBlocked,
                "the pointer was moved to ({x}, {y}) but is still reported at ({}, {}) after {:.1} s",
                last.0,
                last.1,
                POINTER_BOUND.as_secs_f64()
            );
        }
        self.left_at = Some((x, y));
        Ok(())
    }

    /// Waits (bounded) until keys typed now reach the game after what was sent before them: the click before
    /// them delivered (no other program holds the pointer: a window manager that takes each click first lets
    /// the keys by while it holds the click, and they would go to the cell chosen before), and the game's
    /// window holding the input focus, which that click gives it. The pointer is checked between two looks.
    fn await_keys_reach(&mut self, source: &mut dyn FrameSource, interval: Duration, bound: Duration) -> Result<()> {
        if self.clicked {
            self.await_click_delivered(source, bound.max(CLICK_DELIVERY_BOUND))?;
            self.clicked = false;
        }
        self.await_focus(source, interval, bound)
    }

    /// Waits (bounded) until no other program holds the pointer, so that the click sent last has reached the
    /// window under it (see [`FrameSource::pointer_held`]).
    fn await_click_delivered(&mut self, source: &mut dyn FrameSource, bound: Duration) -> Result<()> {
        if source.pointer_held()? != Some(true) {
            return Ok(());
        }
        let look = |source: &mut dyn FrameSource| {
            Ok(match source.pointer_held()? {
                None | Some(false) => Try::Holds(()),
                Some(true) => Try::Lacks("another program holds the pointer".into()),
            })
        };
        let delivered = self.wait_checking_pointer(
            source,
            "the click to be let through to the game",
            bound,
            CLICK_DELIVERY_INTERVAL,
            look,
        )?;
        if !delivered {
            fail!(
                FailureKind::InputBlocked,
                "another program (the window manager?) held the pointer for {:.1} s after the click on the game, \
                 which has not reached the game: keys typed now would reach it before the click, so none were typed",
                bound.as_secs_f64()
            );
        }
        Ok(())
    }

    /// Waits (bounded) until the game's window has the input focus, which the click before the keys gives it
    /// once the window manager and the client have handled it; the pointer is checked between two looks.
    fn await_focus(&mut self, source: &mut dyn FrameSource, interval: Duration, bound: Duration) -> Result<()> {
        let look = |source: &mut dyn FrameSource| {
            Ok(match source.focused()? {
                None | Some(true) => Try::Holds(()),
                Some(false) => Try::Lacks("another window has it".into()),
            })
        };
        let interval = interval.max(Duration::from_millis(10));
        let focused =
            self.wait_checking_pointer(source, "the game's window to take the input focus", bound, interval, look)?;
        if !focused {
            // A window the game opened (a message box at the end of a game, say) holds the focus as a rule.
            let opened = source.windows_opened()?;
            let holder = match opened.as_slice() {
                [] => String::new(),
                titles => format!(" (the game opened {}, which may hold it)", titles.join(", ")),
            };
            fail!(
                FailureKind::InputBlocked,
                "the game's window did not take the input focus within {:.1} s of the click on it{holder}; keys \
                 typed now would go to another window, so none were typed",
                bound.as_secs_f64()
            );
        }
        Ok(())
    }

    /// Looks (`look`) every `interval` until it holds or `bound` has passed, checking between two looks that the
    /// user has not taken the pointer; whether it held.
    fn wait_checking_pointer(
        &self,
        source: &mut dyn FrameSource,
        what: &str,
        bound: Duration,
        interval: Duration,
        mut look: impl FnMut(&mut dyn FrameSource) -> Result<Try<()>>,
    ) -> Result<bool> {
        let start = source.now();
        let wait = Wait::new(what, bound, interval, First::Try);
        let held = wait.run(source, start, |round| {
            if round.number > 0 {
                self.check_pointer()?;
            }
            look(&mut *round.source)
        })?;
        Ok(held.is_ok())
    }

    /// Moves the pointer off the board (`board`, in `frame`'s picture) to the middle of the widest margin between
    /// the board and the window's edge, after a move, where the client previews moves under it; returns whether
    /// it was moved (not where the board fills the window).
    pub fn park(&mut self, source: &mut dyn FrameSource, frame: &Frame, board: Option<Region>) -> Result<bool> {
        let Some(region) = board else { return Ok(false) };
        let Some((x, y)) = park_point(frame, region) else { return Ok(false) };
        self.check_pointer()?;
        let ((sx, sy), _) = frame.screen_point(x, y);
        self.move_pointer(source, sx, sy, Duration::from_millis(5))?;
        Ok(true)
    }

    /// Whether the bot left the pointer over the board (`board`, in `frame`'s picture).
    pub fn over_board(&self, frame: &Frame, board: Option<Region>) -> bool {
        let (Some((x, y)), Some(region)) = (self.left_at, board) else { return false };
        let (x, y) = (x - frame.origin_x, y - frame.origin_y);
        x >= region.x as i32
            && y >= region.y as i32
            && x < (region.x + region.width) as i32
            && y < (region.y + region.height) as i32
    }
}

/// Where to leave the pointer so that it is off the board but inside the window: the middle of the widest
/// margin between the board's region and the window's edge; `None` when the board fills the window.
fn park_point(frame: &Frame, board: Region) -> Option<(i32, i32)> {
    let (width, height) = (frame.image.width() as i32, frame.image.height() as i32);
    let (left, top) = (board.x as i32, board.y as i32);
    let (right, bottom) = (left + board.width as i32, top + board.height as i32);
    let (middle_x, middle_y) = ((left + right) / 2, (top + bottom) / 2);
    let margins = [
        (top, (middle_x, top / 2)),
        (height - bottom, (middle_x, (bottom + height) / 2)),
        (left, (left / 2, middle_y)),
        (width - right, ((right + width) / 2, middle_y)),
    ];
    let (margin, point) = margins.into_iter().max_by_key(|(margin, _)| *margin)?;
    (margin >= 4).then_some(point)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::game::Key;

    /// A desktop whose window manager holds every click until `held_until` on its clock, and the events sent to
    /// it, with when.
    #[derive(Default)]
    struct Desk {
        now: Duration,
        held_until: Duration,
        pointer: (i32, i32),
        sent: Vec<(String, Duration)>,
    }
    struct DeskSource(Rc<RefCell<Desk>>);
    struct DeskInput(Rc<RefCell<Desk>>);

    impl FrameSource for DeskSource {
        fn grab(&mut self) -> Result<Frame> {
            Ok(Frame::from_image(image::RgbaImage::new(20, 20)))
        }
        fn describe(&self) -> String {
            "a desk".into()
        }
        fn now(&mut self) -> Duration {
            self.0.borrow().now
        }
        fn sleep(&mut self, duration: Duration) {
            self.0.borrow_mut().now += duration;
        }
        fn pointer_held(&mut self) -> Result<Option<bool>> {
            let desk = self.0.borrow();
            Ok(Some(desk.now < desk.held_until))
        }
    }

    impl InputDevice for DeskInput {
        fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
            self.0.borrow_mut().pointer = (x, y);
            Ok(())
        }
        fn click(&mut self) -> Result<()> {
            let mut desk = self.0.borrow_mut();
            let now = desk.now;
            desk.sent.push(("click".into(), now));
            Ok(())
        }
        fn type_char(&mut self, c: char) -> Result<()> {
            let mut desk = self.0.borrow_mut();
            let now = desk.now;
            desk.sent.push((format!("type {c}"), now));
            Ok(())
        }
        fn press_key(&mut self, key: Key) -> Result<()> {
            let mut desk = self.0.borrow_mut();
            let now = desk.now;
            desk.sent.push((format!("key {key}"), now));
            Ok(())
        }
        fn pointer(&self) -> Result<(i32, i32)> {
            Ok(self.0.borrow().pointer)
        }
    }

    /// Sends a click and a key to a desk whose window manager holds the click for `held`.
    fn click_and_type(held: Duration) -> (Result<()>, Vec<(String, Duration)>) {
        let desk = Rc::new(RefCell::new(Desk { held_until: held, ..Desk::default() }));
        let (mut source, mut input) = (DeskSource(desk.clone()), DeskInput(desk.clone()));
        let mut hands = Hands::new(&mut input, false);
        let frame = Frame::from_image(image::RgbaImage::new(20, 20));
        let actions = [Action::Click { x: 5, y: 5 }, Action::Type('7')];
        let ms = Duration::from_millis;
        let sent = hands.perform(&mut source, &actions, &frame, ms(3), Duration::from_secs(3), &mut |_| {});
        let log = desk.borrow().sent.clone();
        (sent, log)
    }

    /// The key after a click waits until the window manager lets the click through, not a fixed time.
    #[test]
    fn a_key_after_a_click_waits_until_no_other_program_holds_the_pointer() {
        let held = Duration::from_millis(1500);
        let (sent, log) = click_and_type(held);
        sent.unwrap();
        assert_eq!(log.iter().map(|(event, _)| event.as_str()).collect::<Vec<_>>(), ["click", "type 7"]);
        assert!(log[0].1 < held, "{log:?}");
        assert!(log[1].1 >= held && log[1].1 < held + Duration::from_millis(20), "{log:?}");
        // Nothing held: the key follows at once.
        let (sent, log) = click_and_type(Duration::ZERO);
        sent.unwrap();
        assert!(log[1].1 - log[0].1 < Duration::from_millis(20), "{log:?}");
    }

    /// A click held for good: no key is typed, and the error says why.
    #[test]
    fn no_key_is_typed_after_a_click_another_program_holds_for_good() {
        let (sent, log) = click_and_type(Duration::from_secs(60));
        let error = sent.unwrap_err().to_string();
        assert!(error.contains("held the pointer for 10.0 s after the click"), "{error}");
        assert_eq!(log.iter().map(|(event, _)| event.as_str()).collect::<Vec<_>>(), ["click"]);
    }
}
