//! The open-loop floor of live play (`autoplay bench open-loop GAME --window W`): what a script that knows every
//! move in advance takes on the same window, to set the bot's whole-process time beside.
//!
//! The script reads the window once and solves it, then for each move of the plan sends the move's events the
//! client's usual way and captures the window in-process until it has changed and two captures in a row agree;
//! then the next move. It reads nothing after the first capture and checks nothing: it is the floor a verified
//! move cannot go below, given how the events are sent ([`Touch`]): at once (a press and release sent in the
//! same instant, as a bare script sends them), or as the bot gives them (the pointer at rest, each button and
//! key held as a person holds it: [`crate::input`]), which is the floor for the bot itself.
//! `scripts/bench/live.sh` runs both, each on a new game of the board the bot then plays.

use std::time::{Duration, Instant};

use crate::capture::{Frame, FrameSource, Seat};
use crate::game::{Action, Client, Game, Layout, Reading, SolveLimits, Way};
use crate::input::{devices_of, DesktopInput, Devices, InputDevice, Pressed};
use anyhow::{bail, Context, Result};

/// How events are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Touch {
    /// Press and release in the same instant, the pointer moved just before.
    Instant,
    /// As the bot sends them: the pointer at rest before a press, each button and key held.
    Person,
}

/// What one open-loop game took.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Floor {
    pub moves: usize,
    /// From the first move's events to the last move's board holding still.
    pub millis: f64,
    pub per_move_ms: f64,
    /// How long reading and solving the first capture took, before the first move.
    pub plan_millis: f64,
}

/// How long a move may take to show before the script gives up (it is a benchmark, not the bot: it does not
/// recover).
const MOVE_BOUND: Duration = Duration::from_secs(10);
/// The pause between two captures while a move is awaited.
const POLL: Duration = Duration::from_millis(1);

/// Plays `game`'s board in `source`'s window open-loop, sending events `touch`'s way.
pub fn play<G: Client>(game: &mut G, source: &mut dyn FrameSource, touch: Touch) -> Result<Floor> {
    let planning = Instant::now();
    let mut frame = source.grab()?;
    let mut reading = game.read(&frame, None).context("reading the window's board")?;
    game.start(&reading)?;
    let plan = game.rules().solve(&reading.board, &SolveLimits { deadline: None })?;
    let plan_millis = planning.elapsed().as_secs_f64() * 1000.0;
    let mut hands = Hands::new(touch, source.seat())?;
    let start = Instant::now();
    for (number, mv) in plan.moves.iter().enumerate() {
        let events = game
            .actions(&frame, &reading, mv, G::Way::USUAL)?
            .with_context(|| format!("move {} ({mv}) has no events the usual way", number + 1))?;
        for action in &events.actions {
            hands.send(&frame, action)?;
        }
        frame = changed_and_still(source, &frame, reading.layout.region(), number + 1)?;
        reading = Reading { board: game.rules().apply(&reading.board, mv), ..reading };
    }
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let moves = plan.moves.len();
    Ok(Floor { moves, millis, per_move_ms: millis / moves.max(1) as f64, plan_millis })
}

/// Captures until the board differs from `before` and two captures in a row agree.
fn changed_and_still(
    source: &mut dyn FrameSource,
    before: &Frame,
    region: Option<crate::capture::Region>,
    number: usize,
) -> Result<Frame> {
    let start = Instant::now();
    let mut previous: Option<Frame> = None;
    while start.elapsed() < MOVE_BOUND {
        let frame = source.grab()?;
        if !frame.same_in(before, region) {
            if previous.as_ref().is_some_and(|p| p.same_in(&frame, region)) {
                return Ok(frame);
            }
            previous = Some(frame);
        }
        std::thread::sleep(POLL);
    }
    bail!("move {number} did not show and hold still within {} s", MOVE_BOUND.as_secs())
}

/// The script's hands: the desktop's input devices pressing and releasing at once, or the bot's own input device.
enum Hands {
    Instant(Box<dyn Devices>),
    Person(DesktopInput),
}

impl Hands {
    fn new(touch: Touch, seat: Seat) -> Result<Hands> {
        Ok(match touch {
            Touch::Instant => Hands::Instant(devices_of(seat)?),
            Touch::Person => Hands::Person(DesktopInput::on(seat)?),
        })
    }

    fn send(&mut self, frame: &Frame, action: &Action) -> Result<()> {
        let at_once = |devices: &mut Box<dyn Devices>, pressed: Pressed| -> Result<()> {
            devices.press(pressed, true)?;
            devices.press(pressed, false)
        };
        match (self, action) {
            (Hands::Instant(devices), Action::Click { x, y } | Action::Point { x, y }) => {
                let ((sx, sy), _) = frame.screen_point(*x, *y);
                devices.move_to(sx, sy)?;
                if let Action::Click { .. } = action {
                    at_once(devices, Pressed::LeftButton)?;
                }
            }
            (Hands::Instant(devices), Action::Type(c)) => at_once(devices, Pressed::Char(*c))?,
            (Hands::Instant(devices), Action::Key(key)) => at_once(devices, Pressed::Key(*key))?,
            (Hands::Person(input), Action::Click { x, y } | Action::Point { x, y }) => {
                let ((sx, sy), _) = frame.screen_point(*x, *y);
                input.move_pointer(sx, sy)?;
                if let Action::Click { .. } = action {
                    input.click()?;
                }
            }
            (Hands::Person(input), Action::Type(c)) => input.type_char(*c)?,
            (Hands::Person(input), Action::Key(key)) => input.press_key(*key)?,
        }
        Ok(())
    }
}
