//! The `read flood` and `calibrate flood` commands: their output text, for the command line to print.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::sgt_id::SgtFloodId;
use super::{reader, Flood, FloodBoard};
use crate::calibration::{format_rgb, load_theme_files, load_themes, PaletteTheme};
use crate::game::Game;
use crate::imageio::{load_image, read_text, save_image};

/// `autoplay read flood`: the board text (or JSON with the cell layout); with `learn`, colours missing from the one
/// theme named are added to it and saved; with `annotate`, a copy of the picture marking what was found.
pub fn read_command(image: &RgbaImage, root: &Path, only: Option<&str>, json: bool, learn: bool, annotate: Option<&Path>) -> Result<String> {
    let themes: Vec<PaletteTheme> = load_theme_files(root, "flood", only)?;
    let reading = if learn {
        let [theme] = themes.as_slice() else { bail!("--learn needs one theme: name it with --theme") };
        let (reading, learned) = reader::read_learning(image, theme, None)?;
        if learned != *theme {
            let path = learned.save(root)?;
            eprintln!("learned {} new colour(s) into {}", learned.colours.len() - theme.colours.len(), path.display());
        }
        reading
    } else {
        Flood { themes }.read(image, None)?
    };
    if let Some(path) = annotate {
        save_image(&crate::vision::annotate::annotate(image, &reading.layout, image::Rgba([255, 0, 255, 255])), path)?;
    }
    if json {
        let l = &reading.layout;
        let centres: Vec<Vec<(i32, i32)>> = (0..l.rows).map(|r| (0..l.cols).map(|c| l.centre(r, c)).collect()).collect();
        let value = serde_json::json!({
            "board": reading.board.to_string(),
            "rows": l.rows, "cols": l.cols, "theme": reading.theme,
            "layout": l, "cell_centres": centres,
        });
        Ok(format!("{value}\n"))
    } else {
        Ok(reading.board.to_string())
    }
}

/// `autoplay calibrate flood SHOT --truth ID|FILE`: learns (or refreshes) a palette theme from a screenshot whose
/// board is known, saves it, and lists the colours learned.
pub fn calibrate_command(root: &Path, shot: &Path, truth: &str, theme_name: &str, symbols: Option<&str>) -> Result<String> {
    let image = load_image(shot)?;
    let existing = load_themes(root, "flood").unwrap_or_default();
    let mut theme = existing.iter().find(|t| t.theme == theme_name).cloned().unwrap_or_else(|| PaletteTheme {
        game: "flood".into(),
        theme: theme_name.into(),
        description: String::new(),
        tolerance: 8,
        min_cell: 8,
        colours: Vec::new(),
    });
    // The symbol of each game colour number: given, else this theme's, else another theme's.
    let mut symbol_of_index: HashMap<u32, u8> = HashMap::new();
    if let Some(symbols) = symbols {
        for (i, s) in symbols.chars().enumerate() {
            symbol_of_index.insert(i as u32, s as u8);
        }
    } else {
        for t in std::iter::once(&theme).chain(existing.iter()) {
            for c in &t.colours {
                if let Some(i) = c.game_index {
                    symbol_of_index.entry(i).or_insert(c.symbol as u8);
                }
            }
        }
    }
    let truth_board = if truth.contains(':') && truth.contains(',') && !Path::new(truth).exists() {
        let id = SgtFloodId::parse(truth)?;
        let cells = id
            .colours
            .iter()
            .map(|n| symbol_of_index.get(n).copied().with_context(|| format!("no symbol for game colour {n}: give --symbols")))
            .collect::<Result<_>>()?;
        FloodBoard { width: id.width, height: id.height, cells }
    } else {
        FloodBoard::parse(&read_text(Path::new(truth))?)?
    };
    let learned = reader::learn_palette(&image, &truth_board, theme.min_cell)?;
    let index_of_symbol = symbol_of_index.iter().map(|(&i, &s)| (s, i)).collect();
    reader::merge_learned(&mut theme, &learned, &index_of_symbol);
    theme.validate("the learned theme")?;
    let path = theme.save(root)?;
    let mut out = String::new();
    for l in &learned {
        writeln!(out, "{} {}{}", l.symbol as char, format_rgb(l.rgb), if l.marked { " marked" } else { "" })?;
    }
    eprintln!("wrote {} ({} colours)", path.display(), theme.colours.len());
    Ok(out)
}
