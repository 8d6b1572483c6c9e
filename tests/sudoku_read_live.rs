//! Reading Sudoku live: on Xvfb with a window manager, real sgt-solo windows at tile sizes and seeds no fixture has,
//! captured by the bot and read back as the game's own truth.

mod common;

use common::sudoku::{autoplay, parse_id};

/// Live: real sgt-solo windows at tile sizes and seeds no fixture has, captured by the bot and read back as the
/// game's own truth.
#[test]
fn live_windows_at_unseen_tile_sizes_read_as_their_truth() {
    let mut desktop = common::desktop::Desktop::start();
    for (params, tile) in
        [("3x3#live-a", "44"), ("2x3#live-b", "30"), ("3x4#live-c", "52"), ("4x4#live-d", "33"), ("2x2#live-e", "60")]
    {
        let id = std::process::Command::new("/usr/games/sgt-solo").args(["--generate", "1", params]).output().unwrap();
        let truth = parse_id(&String::from_utf8(id.stdout).unwrap()).unwrap();
        desktop.spawn("/usr/games/sgt-solo", &[params], &[("SOLO_TILESIZE", tile)]);
        let window = desktop.wait_for_window("Solo");
        let capture =
            autoplay().args(["capture", "--window", "Solo"]).env("DISPLAY", &desktop.display).output().unwrap();
        assert!(capture.status.success(), "{}", String::from_utf8_lossy(&capture.stderr));
        let out = autoplay().args(["read", "sudoku", "-", "--json"]).write_stdin(capture.stdout).output().unwrap();
        assert!(out.status.success(), "{params} tile {tile}: {}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["givens"].as_str().unwrap(), truth.givens_text(), "{params} tile {tile}");
        assert_eq!(json["box"], serde_json::json!([truth.box_rows, truth.box_cols]), "{params}");
        desktop.run("xdotool", &["windowclose", &window]);
        desktop.run("xdotool", &["windowkill", &window]);
        common::desktop::wait_until("the Solo window to close", std::time::Duration::from_secs(20), || {
            !desktop.visible_windows("Solo").contains(&window)
        });
    }
}
