//! Which desktop the bot is on, found once, and what follows from it: where windows are listed, how a window or the
//! whole screen is seen, and what a user is told about the session.
//!
//! Each kind of desktop gives the bot its pictures and takes its input through its own services (each a module of
//! its own: [`crate::capture`] for an X server, [`crate::wlroots`], [`crate::mutter`], [`crate::kwin`]); this module
//! is the one place that chooses among them, so that none of them knows the others. A frame source then names the
//! seat its window's input goes to ([`crate::capture::Seat`]).
//!
//! The kind is asked of the session in this order, each question only where the ones before it found nothing:
//! no Wayland session → the X server; a compositor that copies its outputs to clients (`zwlr_screencopy_manager_v1`)
//! → a wlroots one, which lists its native windows where it is sway or Hyprland; mutter's remote-desktop services on
//! the session bus → GNOME; KWin's screenshot service (or a desktop named KDE) → KDE; else another compositor, of
//! which only XWayland's windows are seen.

use anyhow::{anyhow, bail, Context, Result};

use crate::capture::{describe_window, x11_windows, FrameSource, ScreenSource, WindowInfo, WindowSource};

/// The kind of desktop session this is, as far as the bot's ways of seeing and acting go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Desktop {
    /// An X server (an X11 session): windows listed, captured and played through X11.
    X11,
    /// A wlroots compositor (it copies its outputs to clients and takes virtual input). `lists_windows`: it also
    /// lists its native windows to the bot (sway's IPC, Hyprland's), which are captured and played one by one;
    /// otherwise the board is found in its outputs.
    Wlroots { lists_windows: bool },
    /// GNOME's mutter: the primary monitor through a screen cast, input through its remote desktop.
    Gnome,
    /// KDE Plasma's KWin: the workspace through its screenshot service, input through its fake input.
    Kde,
    /// Another Wayland compositor, offering the bot none of these: only the windows of programs under XWayland.
    OtherWayland,
}

/// A question about the session that needs a connection to answer, asked only where the environment leaves the
/// kind of desktop open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Whether the compositor offers wlr-screencopy.
    ScreenCopy,
    /// Whether mutter's remote-desktop and screen-cast services are on the session bus.
    Mutter,
    /// Whether KWin's screenshot service answers on the session bus.
    Kwin,
}

/// The variables that tell what kind of desktop session this is: `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE`,
/// `SWAYSOCK` (sway's IPC socket), `XDG_CURRENT_DESKTOP` (`GNOME`, `KDE`, …) and `HYPRLAND_INSTANCE_SIGNATURE`
/// (Hyprland's IPC); each `None` where unset or empty.
pub fn session_env() -> [(&'static str, Option<String>); 5] {
    ["WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "SWAYSOCK", "XDG_CURRENT_DESKTOP", "HYPRLAND_INSTANCE_SIGNATURE"]
        .map(|name| (name, std::env::var(name).ok().filter(|v| !v.is_empty())))
}

impl Desktop {
    /// This session's desktop.
    pub fn detect() -> Desktop {
        Desktop::of(&session_env(), |probe| match probe {
            Probe::ScreenCopy => crate::wayland::compositor_offers("zwlr_screencopy_manager_v1").unwrap_or(false),
            Probe::Mutter => crate::mutter::mutter_session(),
            Probe::Kwin => crate::kwin::kwin_session(),
        })
    }

    /// The desktop the session variables `env` ([`session_env`]) and the answers of `probe` tell.
    pub fn of(env: &[(&str, Option<String>)], probe: impl Fn(Probe) -> bool) -> Desktop {
        let value = |name: &str| env.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_deref());
        let display = value("WAYLAND_DISPLAY").is_some();
        if !display && !value("XDG_SESSION_TYPE").is_some_and(|t| t.eq_ignore_ascii_case("wayland")) {
            return Desktop::X11;
        }
        let lists_windows = value("SWAYSOCK").is_some() || value("HYPRLAND_INSTANCE_SIGNATURE").is_some();
        // (A compositor is reached only through WAYLAND_DISPLAY; without it, only a bus can be asked.)
        if display && probe(Probe::ScreenCopy) {
            return Desktop::Wlroots { lists_windows };
        }
        if probe(Probe::Mutter) {
            return Desktop::Gnome;
        }
        let named_kde =
            value("XDG_CURRENT_DESKTOP").is_some_and(|d| d.split(':').any(|d| d.eq_ignore_ascii_case("KDE")));
        if named_kde || probe(Probe::Kwin) {
            return Desktop::Kde;
        }
        Desktop::OtherWayland
    }

    /// What this desktop means for the bot, where a user needs telling: what works on it and what to do where
    /// something does not. `None` on an X server and on a compositor whose native windows are listed and played.
    pub fn note(self) -> Option<&'static str> {
        match self {
            Desktop::X11 | Desktop::Wlroots { lists_windows: true } => None,
            Desktop::Wlroots { lists_windows: false } => Some(
                "this Wayland compositor (a wlroots one) lists no windows to autoplay: it sees the windows of programs \
                 running under XWayland (as on X11), and with no --window `play` finds the board in the compositor's \
                 outputs (its screen copy) and plays it through its virtual pointer and keyboard, a native Wayland \
                 window's too; native Wayland windows are not listed",
            ),
            Desktop::Gnome => Some(
                "this is a GNOME (mutter) session on Wayland: GNOME lists its windows to no other program, so autoplay \
                 lists only the windows of programs running under XWayland; with no --window, `play` finds the board \
                 in the primary monitor's picture (mutter's screen cast) and plays it through mutter's remote \
                 desktop, a native Wayland window's too",
            ),
            Desktop::Kde => Some(
                "this is a KDE Plasma (KWin) session on Wayland: KWin lists its windows to no other program, so \
                 autoplay lists only the windows of programs running under XWayland; with no --window, `play` finds \
                 the board in the workspace's picture (KWin's screenshot service) and plays it through KWin's fake \
                 input, where KWin lets autoplay use them (a .desktop file authorising it: see docs/desktops.md); \
                 else start a Qt game under XWayland with QT_QPA_PLATFORM=xcb (for example `QT_QPA_PLATFORM=xcb \
                 ksudoku`), a GTK one with GDK_BACKEND=x11",
            ),
            Desktop::OtherWayland => Some(
                "this is a Wayland session whose compositor offers autoplay no way to see or click its native windows \
                 (no window list, no screen copy, no virtual input it speaks): it sees the windows of programs \
                 running under XWayland, as on X11; start a GTK game so with GDK_BACKEND=x11 (for example \
                 `GDK_BACKEND=x11 /usr/games/sgt-flood`), a Qt one with QT_QPA_PLATFORM=xcb",
            ),
        }
    }

    /// An error about finding a window or a board, with what this desktop means for it ([`Desktop::note`]).
    pub fn with_note(self, error: anyhow::Error) -> anyhow::Error {
        match self.note() {
            Some(note) => anyhow!("{error:#}; {note}"),
            None => error,
        }
    }

    /// Every top-level window the desktop lists, front-most first: a compositor's native windows (sway's,
    /// Hyprland's) first, then the X server's (XWayland's, on Wayland). On a Wayland session with no X server to
    /// ask (no XWayland), the native windows alone: none where the compositor lists none.
    pub fn list_windows(self) -> Result<Vec<WindowInfo>> {
        let mut windows = match self {
            Desktop::Wlroots { lists_windows: true } => crate::wlroots::native_windows()?,
            _ => Vec::new(),
        };
        match x11_windows() {
            Ok(x11) => windows.extend(x11),
            Err(_) if self != Desktop::X11 && std::env::var_os("DISPLAY").is_none() => {}
            Err(e) => return Err(e),
        }
        Ok(windows)
    }

    /// The window `title` names ([`find_window`]) among those the desktop lists.
    pub fn find_window(self, title: &str) -> Result<WindowInfo> {
        self.list_windows().and_then(|windows| find_window(windows, title)).map_err(|e| self.with_note(e))
    }

    /// The source of the window `title` names: a native Wayland window's through its compositor, any other's
    /// through X11.
    pub fn open_window(self, title: &str) -> Result<Box<dyn FrameSource>> {
        self.open(self.find_window(title)?)
    }

    /// The source of the window `info` (as the desktop listed it).
    pub fn open(self, info: WindowInfo) -> Result<Box<dyn FrameSource>> {
        if info.wayland {
            return Ok(Box::new(crate::wlroots::NativeWindowSource::open(&info)?));
        }
        Ok(Box::new(WindowSource::of(info).map_err(|e| self.with_note(e))?))
    }

    /// The whole screen: a wlroots compositor's every output, GNOME's primary monitor, KDE's workspace; else the X
    /// server's screen. Where the desktop's own way cannot be opened, a note says why and the X server's screen
    /// is used (XWayland's, which shows only its own windows).
    pub fn screen_source(self) -> Box<dyn FrameSource> {
        self.screens(false).pop().unwrap_or_else(|| Box::new(ScreenSource))
    }

    /// Where a board is looked for on the screen, in turn: on a wlroots compositor with several outputs each
    /// output, then all of them ([`crate::wlroots::OutputSource::each`]); else as [`Desktop::screen_source`].
    pub fn screen_sources(self) -> Vec<Box<dyn FrameSource>> {
        self.screens(true)
    }

    fn screens(self, each_output: bool) -> Vec<Box<dyn FrameSource>> {
        let opened: Result<Vec<Box<dyn FrameSource>>> = match self {
            Desktop::Wlroots { .. } if each_output => crate::wlroots::OutputSource::each()
                .map(|outputs| outputs.into_iter().map(|o| Box::new(o) as Box<dyn FrameSource>).collect()),
            Desktop::Wlroots { .. } => crate::wlroots::OutputSource::open().map(|o| vec![Box::new(o) as _]),
            Desktop::Gnome => crate::mutter::MonitorSource::open()
                .map(|m| vec![Box::new(m) as _])
                .context("GNOME's screen cannot be seen through mutter"),
            Desktop::Kde => crate::kwin::WorkspaceSource::open()
                .map(|w| vec![Box::new(w) as _])
                .context("KDE's screen cannot be seen through KWin"),
            Desktop::X11 | Desktop::OtherWayland => Ok(Vec::new()),
        };
        match opened {
            Ok(sources) if !sources.is_empty() => sources,
            Ok(_) => vec![Box::new(ScreenSource)],
            Err(e) => {
                eprintln!("note: {e:#}; the X server's screen is looked at instead");
                vec![Box::new(ScreenSource)]
            }
        }
    }
}

/// Windows as messages name them, in a list.
fn described(windows: &[&WindowInfo]) -> String {
    windows.iter().map(|w| describe_window(w)).collect::<Vec<_>>().join(", ")
}

/// Finds a window among `windows`: `id:N` names one by its id (as `autoplay windows` lists them); otherwise by
/// title, the one window with exactly that title, else the one window whose title contains it (ignoring case), else
/// the one window of a program of that class (`xterm`). Several matches, or none, are errors that list the
/// candidates, so that the user can name one by its id.
pub fn find_window(windows: Vec<WindowInfo>, title: &str) -> Result<WindowInfo> {
    if let Some(id) = title.strip_prefix("id:") {
        let id: u32 = id
            .trim()
            .parse()
            .with_context(|| format!("'{title}' is not a window id (id:N, from `autoplay windows`)"))?;
        return windows.into_iter().find(|w| w.id == id).with_context(|| format!("no window has id {id}"));
    }
    let shown = |w: &&WindowInfo| !w.minimized;
    let exact: Vec<&WindowInfo> = windows.iter().filter(|w| w.title == title).filter(shown).collect();
    match exact.as_slice() {
        [one] => return Ok((*one).clone()),
        [] => {}
        many => bail!("several windows are titled '{title}': {}; name one with --window id:N", described(many)),
    }
    let wanted = title.to_lowercase();
    let partial: Vec<&WindowInfo> =
        windows.iter().filter(|w| w.title.to_lowercase().contains(&wanted)).filter(shown).collect();
    match partial.as_slice() {
        [one] => return Ok((*one).clone()),
        [] => {}
        many => bail!(
            "several windows match '{title}': {}; give the exact title, or name one with --window id:N",
            described(many)
        ),
    }
    // No title has it: the window's class (its program, as `autoplay windows` shows it).
    let by_class: Vec<&WindowInfo> =
        windows.iter().filter(|w| w.app.eq_ignore_ascii_case(title)).filter(shown).collect();
    match by_class.as_slice() {
        [one] => Ok((*one).clone()),
        [] => {
            let titles: Vec<String> = windows.iter().map(|w| format!("'{}'", w.title)).collect();
            bail!(
                "no window titled '{title}' (windows: {})",
                if titles.is_empty() { "none".into() } else { titles.join(", ") }
            )
        }
        many => bail!("several windows of program '{title}': {}; name one with --window id:N", described(many)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(wayland: Option<&str>, kind: Option<&str>, desktop: Option<&str>) -> [(&'static str, Option<String>); 5] {
        [
            ("WAYLAND_DISPLAY", wayland.map(String::from)),
            ("XDG_SESSION_TYPE", kind.map(String::from)),
            ("SWAYSOCK", None),
            ("XDG_CURRENT_DESKTOP", desktop.map(String::from)),
            ("HYPRLAND_INSTANCE_SIGNATURE", None),
        ]
    }

    /// A session whose probes answer yes to `yes` only, and which panics at a probe it should not need.
    fn answering<'a>(yes: &'a [Probe], asked: &'a [Probe]) -> impl Fn(Probe) -> bool + 'a {
        move |probe| {
            assert!(asked.contains(&probe), "{probe:?} asked where the session had told already");
            yes.contains(&probe)
        }
    }

    #[test]
    fn the_desktop_is_told_by_the_session_and_asked_of_it_only_where_the_session_leaves_it_open() {
        use Probe::*;
        // No Wayland session: the X server, with nothing asked (no bus, no compositor).
        assert_eq!(Desktop::of(&env(None, None, None), answering(&[], &[])), Desktop::X11);
        assert_eq!(Desktop::of(&env(None, Some("x11"), Some("GNOME")), answering(&[], &[])), Desktop::X11);
        // A compositor that copies its outputs: wlroots; listing its windows where it is sway or Hyprland.
        let all = [ScreenCopy, Mutter, Kwin];
        let labwc = Desktop::of(&env(Some("wayland-0"), None, None), answering(&[ScreenCopy], &all));
        assert_eq!(labwc, Desktop::Wlroots { lists_windows: false });
        let mut sway = env(Some("wayland-1"), Some("wayland"), None);
        sway[2].1 = Some("/run/user/1000/sway-ipc.sock".into());
        assert_eq!(Desktop::of(&sway, answering(&[ScreenCopy], &all)), Desktop::Wlroots { lists_windows: true });
        let mut hyprland = env(Some("wayland-1"), Some("wayland"), Some("Hyprland"));
        hyprland[4].1 = Some("v0.41_1700000000_1234".into());
        assert_eq!(Desktop::of(&hyprland, answering(&[ScreenCopy], &all)), Desktop::Wlroots { lists_windows: true });
        // GNOME: mutter answers on the bus.
        let gnome = env(Some("wayland-0"), Some("wayland"), Some("GNOME"));
        assert_eq!(Desktop::of(&gnome, answering(&[Mutter], &all)), Desktop::Gnome);
        // KDE: KWin answers, or the desktop is named so (then KWin is not asked).
        assert_eq!(Desktop::of(&env(Some("wayland-0"), None, None), answering(&[Kwin], &all)), Desktop::Kde);
        let named = env(Some("wayland-0"), Some("wayland"), Some("KDE"));
        assert_eq!(Desktop::of(&named, answering(&[], &[ScreenCopy, Mutter])), Desktop::Kde);
        // None of them.
        assert_eq!(Desktop::of(&env(Some("wayland-0"), None, None), answering(&[], &all)), Desktop::OtherWayland);
        // A Wayland session with no compositor named: only the bus can be asked.
        assert_eq!(
            Desktop::of(&env(None, Some("wayland"), None), answering(&[], &[Mutter, Kwin])),
            Desktop::OtherWayland
        );
    }

    #[test]
    fn a_wayland_session_is_told_what_works_on_its_desktop_and_how_to_start_a_game_under_xwayland() {
        assert_eq!(Desktop::X11.note(), None);
        // On sway and Hyprland, native windows are listed and played: nothing to tell.
        assert_eq!(Desktop::Wlroots { lists_windows: true }.note(), None);
        let outputs = Desktop::Wlroots { lists_windows: false }.note().unwrap();
        assert!(outputs.contains("XWayland") && outputs.contains("outputs") && !outputs.contains("GDK_BACKEND"));
        let other = Desktop::OtherWayland.note().unwrap();
        assert!(other.contains("XWayland") && other.contains("GDK_BACKEND=x11"), "{other}");
        // GNOME: the monitor is read and played through mutter.
        let gnome = Desktop::Gnome.note().unwrap();
        assert!(gnome.contains("mutter's remote desktop") && !gnome.contains("GDK_BACKEND"), "{gnome}");
        // KDE: the workspace through KWin where it lets the bot, else how to start a Qt game under XWayland.
        let kde = Desktop::Kde.note().unwrap();
        assert!(kde.contains("KWin's fake input") && kde.contains("QT_QPA_PLATFORM=xcb"), "{kde}");
        let error = Desktop::Gnome.with_note(anyhow!("no window titled 'Flood'"));
        assert!(format!("{error:#}").starts_with("no window titled 'Flood'; this is a GNOME"), "{error:#}");
    }

    #[test]
    fn a_window_is_found_by_id_exact_title_part_of_a_title_or_program_and_several_are_named() {
        let window = |id: u32, title: &str, app: &str, minimized: bool| WindowInfo {
            id,
            title: title.into(),
            app: app.into(),
            x: 0,
            y: 0,
            width: 100,
            height: 100,
            minimized,
            wayland: false,
        };
        let windows = vec![
            window(1, "Flood", "sgt-flood", false),
            window(2, "Flood (old)", "sgt-flood", true),
            window(3, "Sudoku", "gnome-sudoku", false),
            window(4, "Sudoku 2", "gnome-sudoku", false),
            window(5, "~", "xterm", false),
        ];
        let found = |title: &str| find_window(windows.clone(), title).map(|w| w.id);
        assert_eq!(found("id:2").unwrap(), 2);
        assert_eq!(found("Flood").unwrap(), 1);
        assert_eq!(found("flo").unwrap(), 1, "a minimised window is not a match by title");
        assert_eq!(found("Sudoku").unwrap(), 3, "the exact title before a part of one");
        assert_eq!(found("XTERM").unwrap(), 5);
        assert_eq!(found("sudoku 2").unwrap(), 4, "part of one title only, ignoring case");
        let several = format!("{:#}", found("doku").unwrap_err());
        assert!(several.contains("id 3") && several.contains("id 4") && several.contains("--window id:N"), "{several}");
        assert!(format!("{:#}", found("Mines").unwrap_err()).contains("no window titled 'Mines'"));
        assert!(format!("{:#}", found("id:x").unwrap_err()).contains("not a window id"));
    }
}
