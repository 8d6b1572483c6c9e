//! `play` with no `--window`: the window that shows the game's board, found by reading every visible window — a
//! title is no gate, as a game may be titled "Untitled", not at all, or at length (a Java window). One board is
//! played; several are named, for the user to pick one with `--window id:N`. Where no window reads as a board, a
//! window titled as the game usually is (one covered by another, or partly off the screen: the play loop brings it
//! to the front, or says why it cannot be seen), else the whole screen (a fullscreen game the window manager does
//! not list); else an error naming what each window showed instead.

use std::time::Duration;

use anyhow::{bail, Result};

use crate::capture::{describe_window, FrameSource, WindowInfo};
use crate::desktop::Desktop;
use crate::game::{Client, Game};
use crate::play::{Failure, FailureKind};

/// Windows smaller than this on either side hold no board worth reading (a tray icon, a tooltip).
const MIN_SIDE: u32 = 60;

/// The source of the one window (else the screen) whose picture `client` reads as a board.
pub fn board_source<C: Client>(client: &mut C, usual_titles: &[&str]) -> Result<Box<dyn FrameSource>> {
    let game = client.rules().name();
    let desktop = Desktop::detect();
    let windows = desktop.list_windows().map_err(|e| desktop.with_note(e))?;
    let mut boards: Vec<(WindowInfo, Box<dyn FrameSource>)> = Vec::new();
    let mut not_boards: Vec<String> = Vec::new();
    // Windows titled as the game usually is whose picture does not read (one covered by another): where another
    // window shows a board, which one the user means is not known.
    let mut titled_unread: Vec<String> = Vec::new();
    let titled = |title: &str| usual_titles.iter().any(|usual| title.to_lowercase().contains(&usual.to_lowercase()));
    for info in windows.iter().filter(|w| !w.minimized && w.width >= MIN_SIDE && w.height >= MIN_SIDE) {
        let named = format!("'{}' (id {})", info.title, info.id);
        let read = desktop.open(info.clone()).and_then(|mut source| {
            let frame = drawn(&mut *source)?;
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
    if let Some(titled) = usual_titles.iter().find_map(|title| desktop.open_window(title).ok()) {
        return Ok(titled);
    }
    let screens = desktop.screen_sources();
    let several = screens.len() > 1;
    let mut unread = Vec::new();
    for mut screen in screens {
        match screen_reads(client, &mut *screen) {
            Ok(()) => return Ok(screen),
            Err(error) if several => {
                unread.push(format!("{}: {}", screen.describe(), first_clause(&format!("{error:#}"))))
            }
            Err(error) => unread.push(first_clause(&format!("{error:#}")).to_owned()),
        }
    }
    let message = format!(
        "no window shows a {game} board, nor does the whole screen ({}); windows looked at: {}",
        unread.join("; "),
        if not_boards.is_empty() { "none".to_owned() } else { not_boards.join("; ") }
    );
    Err(desktop.with_note(Failure { kind: FailureKind::NoBoard, message }.into()))
}

/// How long the whole screen is watched for a board still being drawn (a game's window mapped a moment ago, its
/// first picture still blank) before it is said to show none.
const SCREEN_DRAWN_WITHIN: Duration = Duration::from_secs(3);
/// How long a screen that does not read must hold still to be taken as showing no board.
const SCREEN_STILL: Duration = Duration::from_secs(1);
/// How often the screen is captured meanwhile.
const SCREEN_INTERVAL: Duration = Duration::from_millis(50);

/// Whether the whole screen reads as a board: at once, or, where it is still changing, once it does within
/// [`SCREEN_DRAWN_WITHIN`]. A screen that has held still for [`SCREEN_STILL`] without reading shows none (the
/// reader's error says what it shows); one that changes is a window still being drawn, and watched.
fn screen_reads<C: Client>(client: &mut C, screen: &mut dyn FrameSource) -> Result<()> {
    let start = screen.now();
    let mut shown = screen.grab()?;
    let mut still_since = start;
    let mut error = match client.read(&shown, None) {
        Ok(_) => return Ok(()),
        Err(error) => error,
    };
    loop {
        let now = screen.now();
        if now.saturating_sub(still_since) >= SCREEN_STILL || now.saturating_sub(start) >= SCREEN_DRAWN_WITHIN {
            return Err(error);
        }
        screen.sleep(SCREEN_INTERVAL);
        let next = screen.grab()?;
        if next.same_in(&shown, None) {
            continue;
        }
        still_since = screen.now();
        error = match client.read(&next, None) {
            Ok(_) => return Ok(()),
            Err(error) => error,
        };
        shown = next;
    }
}

/// How long a window that shows nothing at all (one colour throughout: mapped, not yet painted, as a page still
/// loading) is waited for to show something.
const WINDOW_DRAWN_WITHIN: Duration = Duration::from_secs(15);

/// The window's picture, once it shows something: a picture of one colour throughout is a window not yet drawn,
/// captured again until it changes (up to [`WINDOW_DRAWN_WITHIN`]; then it is what it is).
fn drawn(source: &mut dyn FrameSource) -> Result<crate::capture::Frame> {
    let start = source.now();
    loop {
        let frame = source.grab()?;
        let mut pixels = frame.image.pixels();
        let first = pixels.next().copied();
        let blank = pixels.all(|p| Some(*p) == first);
        if !blank || source.now().saturating_sub(start) >= WINDOW_DRAWN_WITHIN {
            return Ok(frame);
        }
        source.sleep(SCREEN_INTERVAL);
    }
}

/// The first clause of an error's message (up to its first ';'), so that a list of every window's failure stays
/// readable.
fn first_clause(message: &str) -> &str {
    message.split(';').next().unwrap_or(message).trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Frame;
    use crate::clients::flood::FloodClient;
    use image::RgbaImage;

    /// A screen on a clock of its own: blank until `drawn_at`, then an sgt-flood window's picture.
    struct Screen {
        clock: Duration,
        drawn_at: Option<Duration>,
        drawn: RgbaImage,
    }

    impl FrameSource for Screen {
        fn grab(&mut self) -> Result<Frame> {
            let blank = RgbaImage::from_pixel(self.drawn.width(), self.drawn.height(), image::Rgba([0, 0, 0, 255]));
            let shown = self.drawn_at.is_some_and(|at| self.clock >= at);
            Ok(Frame::from_image(if shown { self.drawn.clone() } else { blank }))
        }
        fn describe(&self) -> String {
            "the screen".into()
        }
        fn now(&mut self) -> Duration {
            self.clock
        }
        fn sleep(&mut self, duration: Duration) {
            self.clock += duration;
        }
    }

    /// A game's window mapped a moment ago, its first picture still blank: the board is read once drawn. A screen
    /// that holds still and shows no board is given up on after a second, with the reader's error.
    #[test]
    fn a_board_still_being_drawn_on_the_whole_screen_is_waited_for_and_a_still_screen_is_not() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/flood/12x12c6-tile32.png");
        let drawn = crate::imageio::load_image(&path).unwrap();
        let mut client = FloodClient::with_themes(Vec::new());
        let mut late =
            Screen { clock: Duration::ZERO, drawn_at: Some(Duration::from_millis(300)), drawn: drawn.clone() };
        screen_reads(&mut client, &mut late).expect("read once drawn");
        assert!(late.clock >= Duration::from_millis(300));
        let mut blank = Screen { clock: Duration::ZERO, drawn_at: None, drawn };
        assert!(screen_reads(&mut client, &mut blank).is_err());
        assert!(blank.clock >= SCREEN_STILL && blank.clock < SCREEN_DRAWN_WITHIN, "{:?}", blank.clock);
    }
}
