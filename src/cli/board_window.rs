//! `play` with no `--window`: the window that shows the game's board, found by reading every visible window — a
//! title is no gate, as a game may be titled "Untitled", not at all, or at length (a Java window). One board is
//! played; several are named, for the user to pick one with `--window id:N`. Where no window reads as a board, a
//! window titled as the game usually is (one covered by another, or partly off the screen: the play loop brings it
//! to the front, or says why it cannot be seen), else the whole screen (a fullscreen game the window manager does
//! not list); else an error naming what each window showed instead.

use anyhow::{anyhow, bail, Result};

use crate::capture::{
    describe_window, list_windows, open_window, screen_source, with_wayland_note, FrameSource, WindowInfo,
};
use crate::game::{Client, Game};

/// Windows smaller than this on either side hold no board worth reading (a tray icon, a tooltip).
const MIN_SIDE: u32 = 60;

/// The source of the one window (else the screen) whose picture `client` reads as a board.
pub fn board_source<C: Client>(client: &mut C, usual_titles: &[&str]) -> Result<Box<dyn FrameSource>> {
    let game = client.rules().name();
    let windows = list_windows().map_err(with_wayland_note)?;
    let mut boards: Vec<(WindowInfo, Box<dyn FrameSource>)> = Vec::new();
    let mut not_boards: Vec<String> = Vec::new();
    // Windows titled as the game usually is whose picture does not read (one covered by another): where another
    // window shows a board, which one the user means is not known.
    let mut titled_unread: Vec<String> = Vec::new();
    let titled = |title: &str| usual_titles.iter().any(|usual| title.to_lowercase().contains(&usual.to_lowercase()));
    for info in windows.iter().filter(|w| !w.minimized && w.width >= MIN_SIDE && w.height >= MIN_SIDE) {
        let named = format!("'{}' (id {})", info.title, info.id);
        let read = open_window(&format!("id:{}", info.id)).and_then(|mut source| {
            let frame = source.grab()?;
            client.read(&frame, None)?;
            Ok(source)
        });
        match read {
            Ok(source) => boards.push((info.clone(), source)),
            Err(error) => {
                let why = format!("{named}: {}", first_clause(&format!("{error:#}")));
                if titled(&info.title) {
                    titled_unread.push(why.clone());
                }
                not_boards.push(why);
            }
        }
    }
    if boards.len() > 1 || (boards.len() == 1 && !titled_unread.is_empty()) {
        let named: Vec<String> = boards.iter().map(|(w, _)| describe_window(w)).collect();
        let mut message = format!("{} window(s) show a {game} board: {}", boards.len(), named.join(", "));
        if !titled_unread.is_empty() {
            message += &format!(
                "; and windows titled as the game show none that reads (covered?): {}",
                titled_unread.join("; ")
            );
        }
        bail!("{message}; name one with --window id:N");
    }
    if let Some((_, source)) = boards.pop() {
        return Ok(source);
    }
    if let Some(titled) = usual_titles.iter().find_map(|title| open_window(title).ok()) {
        return Ok(titled);
    }
    let mut screen = screen_source();
    match screen.grab().and_then(|frame| client.read(&frame, None).map(|_| ())) {
        Ok(()) => Ok(screen),
        Err(error) => Err(with_wayland_note(anyhow!(
            "no window shows a {game} board, nor does the whole screen ({}); windows looked at: {}",
            first_clause(&format!("{error:#}")),
            if not_boards.is_empty() { "none".to_owned() } else { not_boards.join("; ") }
        ))),
    }
}

/// The first clause of an error's message (up to its first ';'), so that a list of every window's failure stays
/// readable.
fn first_clause(message: &str) -> &str {
    message.split(';').next().unwrap_or(message).trim()
}
