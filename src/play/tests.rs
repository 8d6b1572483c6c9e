//! The play loop against a simulated client on a simulated clock: a counter that each move advances, whose window
//! shows a move only after a lag (its state changes at once, its picture later, as a client on a busy desktop), and
//! which can lose a move, take one twice, take one back, or count a copy. Every wait of the loop runs on the
//! simulated clock, so hours of patience cost microseconds, and the tests count exactly what the client received.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use std::time::Duration;

use anyhow::{bail, Result};
use image::{Rgba, RgbaImage};

use super::{play, PlayOptions, PlayReport};
use crate::capture::{Frame, FrameSource};
use crate::game::{Action, CellLayout, Client, Game, Key, MoveEvents, OnlyWay, Plan, Reading, SolveLimits};
use crate::input::InputDevice;

/// The board: how far the counter has got, out of `goal`.
#[derive(Clone, Debug, PartialEq)]
struct Count {
    value: u32,
    goal: u32,
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} of {}", self.value, self.goal)
    }
}

/// A move: a click that adds one (a copy adds one more), or a digit typed that sets the count (a copy sets it
/// again, and leaves the board as it was).
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Add,
    Set(u32),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Add => write!(f, "add"),
            Step::Set(n) => write!(f, "set {n}"),
        }
    }
}

/// The rules, and how moves are made: by clicks (`Add`), or by typing the next digit (`Set`).
struct Counter {
    goal: u32,
    typed: bool,
}

/// Where the board is in the simulated window, and the pixels outside it where the client shows a move counter
/// and a clock.
const BOARD: u32 = 32;
const COUNTER: (u32, u32) = (80, 80);
const CLOCK: (u32, u32) = (80, 8);
const SIDE: u32 = 96;

impl Game for Counter {
    type Board = Count;
    type Move = Step;

    fn name(&self) -> &'static str {
        "counter"
    }
    fn parse_board(&self, _text: &str) -> Result<Count> {
        bail!("no text form")
    }
    fn solve(&self, board: &Count, _limits: &SolveLimits) -> Result<Plan<Step>> {
        let moves = (board.value + 1..=board.goal).map(|n| if self.typed { Step::Set(n) } else { Step::Add }).collect();
        Ok(Plan { moves, optimal: true, nodes: 0 })
    }
    fn apply(&self, board: &Count, mv: &Step) -> Count {
        let value = match mv {
            Step::Add => (board.value + 1).min(board.goal),
            Step::Set(n) => *n,
        };
        Count { value, ..board.clone() }
    }
    fn is_won(&self, board: &Count) -> bool {
        board.value == board.goal
    }
}

/// The game is its own client: its window holds nothing to learn.
impl Client for Counter {
    type Rules = Counter;
    type Layout = CellLayout;
    type Way = OnlyWay;

    fn rules(&self) -> &Counter {
        self
    }
    fn read(&mut self, frame: &Frame, _hint: Option<&CellLayout>) -> Result<Reading<Count, CellLayout>> {
        let pixel = frame.image.get_pixel(1, 1);
        if pixel[2] != 0 {
            bail!("no board found");
        }
        let layout = CellLayout::square(1, 1, (0.0, 0.0), BOARD as f64);
        Ok(Reading { board: Count { value: pixel[0] as u32, goal: self.goal }, layout, theme: "sim".into() })
    }
    fn actions(
        &mut self,
        _frame: &Frame,
        _reading: &Reading<Count, CellLayout>,
        mv: &Step,
        _way: OnlyWay,
    ) -> Result<Option<MoveEvents>> {
        Ok(match mv {
            Step::Add => MoveEvents::usual(vec![Action::Click { x: 10, y: 10 }]),
            Step::Set(n) => MoveEvents::usual(vec![Action::Type(char::from_digit(*n, 10).expect("a digit"))])
                .map(MoveEvents::same_board_if_repeated),
        })
    }
}

/// The simulated client and its clock.
#[derive(Default)]
struct SimClient {
    now: Duration,
    /// The count as the client holds it, and the moves it has counted (copies it counts among them).
    value: u32,
    counted: u32,
    /// What the window shows: count and counter, and the repaints still to come (when, count, counter).
    shown: (u32, u32),
    repaints: Vec<(Duration, u32, u32)>,
    /// How late the picture shows move k (1-based) after it was taken; none by default.
    lag: Vec<(u32, Duration)>,
    /// The moves (1-based, in the order the client would take them) it loses, takes twice, or takes back shortly
    /// after showing them.
    drops: Vec<u32>,
    doubles: Vec<u32>,
    takes_back: Vec<u32>,
    /// Whether a copy of a typed digit (the count it already holds) is counted as a move.
    counts_copies: bool,
    /// Whether a clock outside the board ticks every 250 ms.
    clock: bool,
    /// Whether a shimmer drawn over the board changes its picture every millisecond (never the count it shows).
    shimmer: bool,
    /// The count at which the client celebrates: from a frame after it shows until three seconds after, a wave
    /// over the board that reads as no board; and when that count first showed.
    celebrates_at: Option<u32>,
    celebration_from: Option<Duration>,
    /// Every input event received, and how many inputs would have been moves.
    events: Vec<String>,
    inputs: u32,
    busy: Option<f64>,
    /// Windows over the game's at the first click of move k (for evidence that it went elsewhere).
    covered_for: Vec<u32>,
    pointer: (i32, i32),
    /// How long the bot holds each button (as it sets it), and the shortest click this client sees (a game that
    /// polls its input less often than the usual hold, on a busy desktop); every click is seen by default.
    hold: Duration,
    shortest_seen: Duration,
    /// The move (1-based) whose press comes during a frame that outlasts the usual hold (a game polling its input
    /// on a busy desktop), and the shortest press the client sees then.
    slow_frame: Option<(u32, Duration)>,
    /// Whether the pointer, drawn into the picture, hides the board under it: there the board shows the count it
    /// showed when the pointer came (a compositor that draws its cursor into the pictures it copies, over a thin
    /// digit), and that count.
    pointer_hides: bool,
    under_pointer: Option<u32>,
}

impl SimClient {
    fn advance(&mut self, by: Duration) {
        self.now += by;
        let now = self.now;
        let due: Vec<(Duration, u32, u32)> = self.repaints.iter().copied().filter(|r| r.0 <= now).collect();
        self.repaints.retain(|r| r.0 > now);
        if let Some(&(_, value, counted)) = due.last() {
            self.shown = (value, counted);
            if self.celebrates_at == Some(value) && self.celebration_from.is_none() {
                self.celebration_from = Some(now);
            }
        }
    }

    fn picture(&self) -> RgbaImage {
        let mut image = RgbaImage::from_pixel(SIDE, SIDE, Rgba([40, 40, 40, 255]));
        let count = self.under_pointer.unwrap_or(self.shown.0);
        for y in 0..BOARD {
            for x in 0..BOARD {
                let shimmer = if self.shimmer { (self.now.as_millis() % 97) as u8 + x as u8 } else { 0 };
                image.put_pixel(x, y, Rgba([count as u8, shimmer, 0, 255]));
            }
        }
        if let Some(from) = self.celebration_from {
            let since = self.now - from;
            if since >= Duration::from_millis(20) && since < CELEBRATION {
                // From the next frame, a wave across the board: every capture differs, and none reads.
                image.put_pixel(1, 1, Rgba([self.shown.0 as u8, (since.as_millis() % 200) as u8, 1, 255]));
            }
        }
        image.put_pixel(COUNTER.0, COUNTER.1, Rgba([self.shown.1 as u8, 1, 1, 255]));
        if self.clock {
            let tick = (self.now.as_millis() / 250) as u8;
            image.put_pixel(CLOCK.0, CLOCK.1, Rgba([tick, 2, 2, 255]));
        }
        image
    }

    /// The client takes an input that would be move number `self.inputs`: it sets its count to `value`.
    fn take(&mut self, value: u32) {
        self.inputs += 1;
        let k = self.inputs;
        if self.drops.contains(&k) || self.covered_for.contains(&k) {
            return;
        }
        self.value = value;
        self.counted += 1;
        if self.doubles.contains(&k) {
            self.value += 1;
            self.counted += 1;
        }
        let lag = self.lag.iter().find(|(n, _)| *n == k).map_or(Duration::from_millis(5), |(_, lag)| *lag);
        let at = self.repaints.last().map_or(self.now, |r| r.0).max(self.now) + lag;
        self.repaints.push((at, self.value, self.counted));
        if self.takes_back.contains(&k) {
            self.value -= 1;
            self.repaints.push((at + Duration::from_millis(60), self.value, self.counted));
        }
    }
}

/// How long a client that celebrates its win draws over its board.
const CELEBRATION: Duration = Duration::from_secs(3);

struct SimSource(Rc<RefCell<SimClient>>);
struct SimInput(Rc<RefCell<SimClient>>);

impl FrameSource for SimSource {
    fn grab(&mut self) -> Result<Frame> {
        let mut client = self.0.borrow_mut();
        client.advance(Duration::from_millis(1));
        Ok(Frame { title: Some("Counter".into()), ..Frame::from_image(client.picture()) })
    }
    fn describe(&self) -> String {
        "simulated window".into()
    }
    fn now(&mut self) -> Duration {
        self.0.borrow().now
    }
    fn sleep(&mut self, duration: Duration) {
        self.0.borrow_mut().advance(duration);
    }
    fn busy(&mut self) -> Result<Option<f64>> {
        Ok(self.0.borrow().busy)
    }
    fn covering_at(&mut self, _points: &[(i32, i32)]) -> Result<Vec<String>> {
        let client = self.0.borrow();
        Ok(if client.covered_for.contains(&client.inputs) { vec!["'a notification'".into()] } else { Vec::new() })
    }
}

impl InputDevice for SimInput {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        let mut client = self.0.borrow_mut();
        client.pointer = (x, y);
        let over_board = (0..BOARD as i32).contains(&x) && (0..BOARD as i32).contains(&y);
        client.under_pointer = match client.under_pointer {
            _ if !client.pointer_hides || !over_board => None,
            Some(hidden) => Some(hidden),
            None => Some(client.shown.0),
        };
        Ok(())
    }
    fn click(&mut self) -> Result<()> {
        let mut client = self.0.borrow_mut();
        client.events.push("click".into());
        let shortest_seen = match client.slow_frame {
            Some((number, shortest)) if number == client.counted + 1 => shortest,
            _ => client.shortest_seen,
        };
        if client.hold < shortest_seen {
            return Ok(());
        }
        let next = client.value + 1;
        client.take(next);
        Ok(())
    }
    fn type_char(&mut self, c: char) -> Result<()> {
        let mut client = self.0.borrow_mut();
        client.events.push(format!("type {c}"));
        let value = c.to_digit(10).expect("a digit");
        if value == client.value {
            // A copy: counted as a move, or ignored.
            if client.counts_copies {
                client.counted += 1;
                let (at, value, counted) = (client.now, client.value, client.counted);
                client.repaints.push((at, value, counted));
            }
            return Ok(());
        }
        client.take(value);
        Ok(())
    }
    fn press_key(&mut self, key: Key) -> Result<()> {
        self.0.borrow_mut().events.push(format!("key {key}"));
        Ok(())
    }
    fn pointer(&self) -> Result<(i32, i32)> {
        Ok(self.0.borrow().pointer)
    }
    fn set_hold(&mut self, hold: Duration) {
        self.0.borrow_mut().hold = hold;
    }
}

/// Plays the counter to `goal` against `client`: the report (or the error), the notes, and the client after.
fn run(goal: u32, typed: bool, client: SimClient) -> (Result<PlayReport>, String, SimClient) {
    let client = Rc::new(RefCell::new(client));
    let mut game = Counter { goal, typed };
    let (mut source, mut input) = (SimSource(client.clone()), SimInput(client.clone()));
    let mut notes = String::new();
    let options = PlayOptions::default();
    let result = play(&mut game, &mut source, &mut input, &options, &mut |event| {
        if !event.is_reading() {
            notes.push_str(&event.to_string());
            notes.push('\n');
        }
    });
    drop((source, input));
    let client = Rc::try_unwrap(client).ok().expect("the loop holds no client").into_inner();
    (result, notes, client)
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

#[test]
fn moves_that_repaint_later_than_the_first_look_are_waited_for_and_never_sent_twice() {
    let lag = vec![(1, secs(3.0)), (2, secs(1.0)), (3, secs(2.5)), (5, secs(4.5))];
    let (result, notes, client) = run(6, false, SimClient { lag, ..SimClient::default() });
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (6, 6, 6), "{notes}");
    assert!(notes.contains("move 5 has not shown after"), "{notes}");
}

/// A pointer drawn into the pictures that hides what a move changed under it (the cursor over a thin digit, where
/// the compositor draws it into its copies): a board that reads as before with the pointer over it is looked at
/// again with the pointer off the board, and the pointer is kept off it after every move; no move is sent twice.
#[test]
fn a_move_hidden_under_the_pointer_is_seen_once_the_pointer_is_moved_off_the_board() {
    let (result, notes, client) = run(4, false, SimClient { pointer_hides: true, ..SimClient::default() });
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (4, 4, 4), "{notes}");
    assert_eq!(notes.matches("moved the pointer off the board").count(), 1, "{notes}");
    assert!(!notes.contains("has not shown after"), "seen at the first look again:\n{notes}");
}

/// A client that misses the usual hold (a game polling its input too slowly on a busy desktop): the first move,
/// sent at once on trial, then held, shown never received, is made again the same way held longer, and the longer
/// hold is kept for the game; each move is counted once.
#[test]
fn a_click_held_too_briefly_for_the_client_is_made_again_held_longer_and_the_hold_kept() {
    let sim = SimClient { hold: crate::input::HOLD, shortest_seen: Duration::from_millis(200), ..SimClient::default() };
    let (result, notes, client) = run(4, false, sim);
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (4, 6, 4), "{notes}");
    assert_eq!(notes.matches("holding each button and key 250 ms").count(), 1, "{notes}");
    assert_eq!(client.hold, crate::input::LONG_HOLD, "{notes}");
}

/// A client that celebrates its win with a wave over the board for three seconds: the winning move counts once its
/// board has read, and the game ends then, not once the wave is over.
#[test]
fn the_win_is_taken_when_its_board_reads_not_when_the_celebration_ends() {
    let (result, notes, client) = run(4, false, SimClient { celebrates_at: Some(4), ..SimClient::default() });
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (4, 4, 4), "{notes}");
    let after_last_move = Duration::from_millis((report.millis - report.last_move_millis) as u64);
    assert!(after_last_move < CELEBRATION / 10, "won {after_last_move:?} after the last move:\n{notes}");
}

/// A winning move whose board shows and is then taken back (the client's undo) is not a win: the loop sees the
/// board go back, and makes the move again.
#[test]
fn a_winning_move_taken_back_is_not_taken_for_the_win() {
    let (result, notes, client) = run(3, false, SimClient { takes_back: vec![3], ..SimClient::default() });
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((client.events.len(), client.value), (4, 3), "{notes}");
    assert!(notes.contains("move 3 showed, then the board went back"), "{notes}");
}

/// A client that takes a press and release sent at once (an event-driven toolkit): the first move, a click, is
/// sent so on trial; once it has shown, so is every later move, and each is counted once.
#[test]
fn a_client_that_takes_quick_presses_gets_them_from_the_first_move() {
    let sim = SimClient { hold: crate::input::HOLD, ..SimClient::default() };
    let (result, notes, client) = run(5, false, sim);
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (5, 5, 5), "{notes}");
    assert_eq!(client.hold, crate::input::QUICK, "{notes}");
    assert!(!notes.contains("pressed and released at once"), "{notes}");
}

/// A client that polls its buttons once a frame misses a press sent at once: the move on trial (the first, a
/// click), of which nothing shows in the whole patience, is made again held as a person holds it, and so is every
/// later move; each move is counted once.
#[test]
fn a_quick_press_the_client_misses_is_made_again_held_and_the_hold_kept() {
    let sim = SimClient { hold: crate::input::HOLD, shortest_seen: Duration::from_millis(50), ..SimClient::default() };
    let (result, notes, client) = run(5, false, sim);
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (5, 6, 5), "{notes}");
    assert_eq!(notes.matches("move 1 (click at (10, 10)), pressed and released at once").count(), 1, "{notes}");
    assert_eq!(client.hold, crate::input::HOLD, "{notes}");
}

/// A client that polls its buttons once a frame, whose frame once outlasts the usual hold (a busy desktop): the
/// held press of that move falls between two polls and nothing of it shows in the whole patience. The client is
/// known to miss a press shorter than its frame (it missed the first move's, sent at once), so the move is made
/// again held longer, and the longer hold is kept; each move is counted once. Where the longer hold does no better,
/// the game stops rather than send a third copy.
#[test]
fn a_held_press_a_polling_client_misses_in_a_slow_frame_is_made_again_held_longer() {
    let held_for_a_frame = |shortest| SimClient {
        hold: crate::input::HOLD,
        shortest_seen: Duration::from_millis(50),
        slow_frame: Some((3, shortest)),
        ..SimClient::default()
    };
    let (result, notes, client) = run(5, false, held_for_a_frame(Duration::from_millis(200)));
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((report.moves, client.events.len(), client.counted), (5, 7, 5), "{notes}");
    assert_eq!(notes.matches("fell between two of its looks at the input").count(), 1, "{notes}");
    assert_eq!(client.hold, crate::input::LONG_HOLD, "{notes}");

    let (result, notes, client) = run(5, false, held_for_a_frame(Duration::MAX));
    let error = format!("{:#}", result.expect_err("move 3 is never taken"));
    assert!(error.contains("move 3 (click at (10, 10)) has not shown"), "{error}\n{notes}");
    assert_eq!((client.events.len(), client.counted), (5, 2), "{notes}");
}

/// A client that takes no clicks however long they are held: the first click is sent at once on trial, then held,
/// then held longer; after the longer hold did no better, the loop says so (this counter knows no other way)
/// rather than repeat the move a fourth time.
#[test]
fn a_client_that_takes_no_clicks_is_tried_once_held_longer_then_given_up() {
    let sim = SimClient { hold: crate::input::HOLD, shortest_seen: Duration::MAX, ..SimClient::default() };
    let (result, notes, client) = run(4, false, sim);
    let error = format!("{:#}", result.expect_err("no move can be made"));
    assert!(error.contains("does not take moves any way the bot knows"), "{error}\n{notes}");
    assert_eq!((client.events.len(), client.counted), (3, 0), "{notes}");
    assert_eq!(client.hold, crate::input::HOLD, "the usual hold comes back: {notes}");
}

#[test]
fn on_a_busy_desktop_the_patience_stretches_to_ten_seconds() {
    let lag = vec![(3, secs(8.0))];
    let (result, notes, client) =
        run(4, false, SimClient { lag: lag.clone(), busy: Some(2.5), ..SimClient::default() });
    assert!(result.is_ok_and(|r| r.won), "{notes}");
    assert_eq!(client.events.len(), 4, "{notes}");
    assert!(notes.contains("up to 10.0 s in all"), "{notes}");
    // Idle, the same lag is past the patience: the move is named, not made again.
    let (result, notes, client) = run(4, false, SimClient { lag, busy: Some(0.1), ..SimClient::default() });
    let error = format!("{:#}", result.expect_err("the move is past the patience"));
    assert!(error.contains("move 3 (click at") && error.contains("has not shown"), "{error}");
    assert_eq!(client.events.len(), 3, "{notes}");
}

#[test]
fn a_lost_click_is_named_and_never_made_again_blind() {
    let (result, notes, client) = run(5, false, SimClient { drops: vec![3], ..SimClient::default() });
    let error = format!("{:#}", result.expect_err("a lost click ends the game"));
    assert!(error.contains("move 3 (click at (10, 10)) has not shown"), "{error}");
    assert!(error.contains("a second copy of it makes another move"), "{error}");
    assert!(error.contains("Make the move by hand"), "{error}");
    assert_eq!((client.events.len(), client.counted), (3, 2), "{notes}");
}

#[test]
fn a_click_that_went_to_a_window_over_the_game_is_made_again() {
    let (result, notes, client) = run(4, false, SimClient { covered_for: vec![2], ..SimClient::default() });
    assert!(result.is_ok_and(|r| r.won), "{notes}");
    assert!(notes.contains("'a notification' covered the game's window where its input went"), "{notes}");
    assert_eq!((client.events.len(), client.counted), (5, 4), "{notes}");
}

#[test]
fn a_move_the_client_takes_twice_is_named_at_once() {
    let (result, notes, client) = run(5, false, SimClient { doubles: vec![2], ..SimClient::default() });
    let error = format!("{:#}", result.expect_err("a doubled move ends the game"));
    assert!(error.contains("move 2 (click at (10, 10)) showed 2 times, though its input was sent once"), "{error}");
    assert_eq!(client.events.len(), 2, "{notes}");
}

#[test]
fn a_move_that_showed_and_was_taken_back_is_planned_again() {
    let lag = vec![(2, secs(0.01))];
    let (result, notes, client) = run(4, false, SimClient { lag, takes_back: vec![2], ..SimClient::default() });
    assert!(result.as_ref().is_ok_and(|r| r.won), "{:?}\n{notes}", result.err());
    assert!(notes.contains("move 2 showed, then the board went back"), "{notes}");
    assert_eq!(client.value, 4, "{notes}");
}

/// A client that takes back every move once shown (or a reading that loses what it showed) would have the loop
/// make the same move for ever: the third time the window shows a board it showed before where another was
/// expected, the loop stops and says why, having made the move three times (each time seen to be taken back) after the first move.
#[test]
fn a_game_going_in_circles_is_stopped_on_the_third_return_to_one_board() {
    let lag = (2..=100).map(|k| (k, secs(0.01))).collect();
    let client = SimClient { lag, takes_back: (2..=100).collect(), ..SimClient::default() };
    let (result, notes, client) = run(4, false, client);
    let error = format!("{:#}", result.expect_err("the game goes in circles"));
    assert!(error.contains("a board it had shown 2 times before where another was expected"), "{error}\n{notes}");
    assert_eq!(client.inputs, 4, "{notes}");
}

/// A client that shows a move late is asked once what it does with a copy; one that ignores it has a lost typed
/// digit typed again, and is won with every digit counted once.
#[test]
fn a_lost_move_is_made_again_in_a_client_seen_to_ignore_a_copy() {
    let client = SimClient { lag: vec![(1, secs(1.5))], drops: vec![4], clock: true, ..SimClient::default() };
    let (result, notes, client) = run(6, true, client);
    assert!(result.as_ref().is_ok_and(|r| r.won), "{:?}\n{notes}", result.err());
    assert!(notes.contains("the copy of move 1 changed nothing"), "{notes}");
    assert!(notes.contains("this client was seen to ignore one (at move 1): making it again"), "{notes}");
    assert_eq!(client.counted, 6, "{notes}");
    // It was lost when sent at once: the copy, and every move after it, is held as a person holds it.
    assert!(notes.contains("pressed and released at once, left the board as it was"), "{notes}");
    assert_eq!(client.hold, crate::input::HOLD, "{notes}");
}

/// A client that counts a copy as a move (its counter shows one more) is never sent a copy of a lost move.
#[test]
fn a_client_that_counts_a_copy_is_never_sent_one_of_a_lost_move() {
    let client = SimClient {
        lag: vec![(1, secs(1.5))],
        drops: vec![4],
        counts_copies: true,
        clock: true,
        ..SimClient::default()
    };
    let (result, notes, client) = run(6, true, client);
    let error = format!("{:#}", result.expect_err("the lost move ends the game"));
    assert!(notes.contains(&format!("the window changed at ({}, {})", COUNTER.0, COUNTER.1)), "{notes}");
    assert!(error.contains("a copy of move 1 showed in this client"), "{error}");
    assert_eq!(client.events.iter().filter(|e| *e == "type 4").count(), 1, "{notes}");
}

/// A board whose picture never holds still (a shimmer over it): each board is taken once its reading holds still,
/// and the game is won with every move made once.
#[test]
fn a_board_whose_picture_never_holds_still_is_read_when_its_reading_does() {
    let (result, notes, client) = run(4, false, SimClient { shimmer: true, ..SimClient::default() });
    let report = result.unwrap_or_else(|e| panic!("{e:#}\n{notes}"));
    assert!(report.won, "{notes}");
    assert_eq!((client.counted, client.inputs), (4, 4), "every move made once:\n{notes}");
    // Learned once, from the first board: the later boards' pictures get a glance, not the whole bound each.
    assert_eq!(notes.matches("did not hold still within 12.0 s while what it reads as did").count(), 1, "{notes}");
    assert!(report.millis < 2 * 12_000 + 4 * 3_000, "{} ms of the simulated clock:\n{notes}", report.millis);
}
