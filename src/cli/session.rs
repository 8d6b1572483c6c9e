//! `autoplay replay DIR`: a recorded session run again offline, for any screen game (see [`crate::session`]);
//! the game is chosen by its name in the recording ([`replay`]).

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use clap::Args;

use super::{print, seconds};
use crate::clients::{cribbage::CribbageScreen, flood::FloodScreen, sudoku::SudokuScreen};
use crate::game::{Client, Game, Screen};
use crate::play::{play, PlayOptions};
use crate::session::{Manifest, Replay, ReplayInput, ReplaySource};

/// Replay a recorded session offline (no display needed): exit 0 when it reproduces, else name the first
/// difference.
#[derive(Args)]
pub struct ReplayArgs {
    /// The session's folder (holding session.json).
    pub dir: PathBuf,
}

/// Replays the recorded session in `dir` with the screen game it names (see [`crate::session`]).
pub fn replay(root: &Path, dir: &Path) -> Result<()> {
    let manifest = Manifest::load(dir)?;
    match manifest.game.as_str() {
        "flood" => replay_game::<FloodScreen>(root, dir, &manifest),
        "sudoku" => replay_game::<SudokuScreen>(root, dir, &manifest),
        "cribbage" => replay_game::<CribbageScreen>(root, dir, &manifest),
        other => bail!("{}: '{other}' is not a game played in a window", dir.display()),
    }
}

/// Runs the play loop on the recording and compares how it ends with how the recording ended.
pub fn replay_game<G: Screen>(root: &Path, dir: &Path, manifest: &Manifest) -> Result<()> {
    let mut game = G::load(root, manifest.theme.as_deref())?.client();
    let options = PlayOptions {
        max_moves: manifest.options.max_moves,
        move_delay: Duration::from_millis(manifest.options.move_delay_ms),
        solve_time: manifest.options.time_limit.map(seconds).transpose()?,
        ..PlayOptions::default()
    };
    let replay = Replay::open(dir, manifest);
    let mut source = ReplaySource::new(replay.clone());
    let mut input = ReplayInput::new(replay.clone());
    let checker: Rc<RefCell<Replay>> = replay.clone();
    let result =
        play(&mut game, &mut source, &mut input, &options, &mut |event| checker.borrow_mut().play_event(event));
    let mut replay = replay.borrow_mut();
    if let Some(divergence) = replay.divergence() {
        bail!("{divergence}");
    }
    let ended = match &result {
        Ok(_) => "won".to_string(),
        Err(e) => format!("error: {e:#}"),
    };
    let recorded = manifest.outcome.as_deref().unwrap_or("(no outcome: the recording was cut short)");
    if ended != recorded {
        return Err(anyhow!(
            "the replay ended differently: the recording ended with '{recorded}', the replay with '{ended}'"
        ));
    }
    replay.finish()?;
    print(&format!(
        "{}: {} session reproduced ({} events, ended: {ended})",
        dir.display(),
        game.rules().name(),
        manifest.events.len()
    ))
}
