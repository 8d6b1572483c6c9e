//! Windows as the desktop names them: a program that sets only the old ICCCM `WM_NAME` title (xterm, and the
//! curses program in it: Debian's `sudoku`) is listed by `autoplay windows` with that title, and found by it and
//! by its class.

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
