//! Windows as the desktop names them: a program that sets only the old ICCCM `WM_NAME` title (xterm, and the
//! curses program in it: Debian's `sudoku`) is listed by `autoplay windows` with that title, and found by it and
//! by its class. A window captured through the one X connection kept for it shows the pixels, place and title
//! that tools independent of the bot's capture see.

mod common;

use common::desktop::{autoplay, Desktop};

#[test]
fn a_window_with_only_the_old_wm_name_is_listed_and_found_by_its_title_and_class() {
    let mut desktop = Desktop::start();
    desktop.spawn("xterm", &["-geometry", "80x30", "-e", "/usr/games/sudoku"], &[]);
    let window = desktop.wait_for_window("sudoku");
    // The window really has no _NET_WM_NAME: only WM_NAME, a STRING.
    let props = desktop.run("xprop", &["-id", &window, "WM_NAME", "_NET_WM_NAME"]);
    let props = String::from_utf8_lossy(&props.stdout);
    assert!(props.contains("WM_NAME(STRING) = \"sudoku\"") && props.contains("_NET_WM_NAME:  not found"), "{props}");

    let out = autoplay(&desktop, &["windows"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    let line = listed.lines().find(|l| l.contains(&window)).unwrap_or_else(|| panic!("{listed}"));
    assert!(line.trim_end().ends_with(" sudoku"), "{listed}");

    for name in ["sudoku", "xterm"] {
        let shot = tempfile::NamedTempFile::with_suffix(".png").unwrap();
        let out = autoplay(&desktop, &["capture", "--window", name, "-o", &shot.path().display().to_string()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let image = image::open(shot.path()).unwrap();
        assert!(image.width() > 200 && image.height() > 200, "{name}: {}x{}", image.width(), image.height());
    }
}

/// The kept connection's capture of sgt-flood's window (`autoplay::x11_window`) is xwd's picture of it, pixel for
/// pixel; its place is xwininfo's absolute corner, before and after the window manager moves it; its title is the
/// window's; a window without the window manager's state property is captured too.
#[test]
fn a_window_captured_through_its_kept_connection_is_what_xwd_and_xwininfo_see() {
    let mut desktop = Desktop::start();
    desktop.spawn("/usr/games/sgt-flood", &["10x10c6m0#kept"], &[]);
    let window = desktop.wait_for_window("Flood");
    let id: u32 = window.parse().unwrap();
    let kept = autoplay::x11_window::X11Window::open_on(Some(&desktop.display), id).unwrap();
    for moved_to in [None, Some((300, 240))] {
        if let Some((x, y)) = moved_to {
            desktop.move_window(&window, x, y);
        }
        let (width, height, rgb) = desktop.wait_for_still_picture(&window);
        let grabbed = kept.grab().expect("the window is viewable, and the display's pixels are 32-bit");
        assert_eq!((grabbed.image.width() as usize, grabbed.image.height() as usize), (width, height));
        let ours: Vec<u8> = grabbed.image.pixels().flat_map(|p| [p[0], p[1], p[2]]).collect();
        let differing = ours.chunks(3).zip(rgb.chunks(3)).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 0, "pixels unlike xwd's picture (window moved to {moved_to:?})");
        let info = String::from_utf8_lossy(&desktop.run("xwininfo", &["-id", &window]).stdout).into_owned();
        let absolute = |axis: &str| -> i32 {
            let label = format!("Absolute upper-left {axis}:");
            let line = info.lines().find_map(|l| l.trim().strip_prefix(label.as_str()).map(str::to_owned));
            line.unwrap_or_else(|| panic!("no '{label}' in:\n{info}")).trim().parse().unwrap()
        };
        assert_eq!((grabbed.x, grabbed.y), (absolute("X"), absolute("Y")), "{info}");
        assert_eq!(grabbed.title.as_deref(), Some("Flood"));
    }
    // A window manager may set no _NET_WM_STATE: nothing then says the window is hidden.
    desktop.run("xprop", &["-id", &window, "-remove", "_NET_WM_STATE"]);
    let props = String::from_utf8_lossy(&desktop.run("xprop", &["-id", &window, "_NET_WM_STATE"]).stdout).into_owned();
    assert!(props.contains("not found"), "{props}");
    assert!(kept.grab().is_some(), "a window with no _NET_WM_STATE was left to xcap");
}
