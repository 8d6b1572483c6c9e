//! The `read sudoku` and `calibrate sudoku` commands: their output text, for the command line to print.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::play::Sudoku;
use super::theme::{load_themes, SudokuTheme};
use super::{board::parse_board_text, read, reader, sgt_id};
use crate::game::Game;
use crate::imageio::{load_image, read_text, save_image};

/// `autoplay read sudoku`: the grid then the givens (or JSON with the layout, pencil marks and clashes); with
/// `annotate`, a copy of the picture marking the cells found.
pub fn read_command(image: &RgbaImage, themes: &[SudokuTheme], json: bool, annotate: Option<&Path>) -> Result<String> {
    let reading = read(image, themes)?;
    if let Some(path) = annotate {
        save_image(&crate::vision::annotate::annotate(image, &reading.layout, image::Rgba([255, 0, 255, 255])), path)?;
    }
    let g = &reading.grid;
    if json {
        let value = serde_json::json!({
            "size": g.size, "box": [g.box_rows, g.box_cols],
            "givens": g.givens_text(), "entered": g.entered_text(), "board": g.board_text(),
            "layout": reading.layout, "theme": reading.theme,
            "pencil": reading.pencil, "clashes": reading.clashes,
        });
        Ok(format!("{value}\n"))
    } else {
        Ok(g.to_string())
    }
}

/// `autoplay calibrate sudoku SHOT --truth ID|FILE [--entered FILE]`: learns (or refreshes) a theme from a
/// screenshot whose givens (an sgt-solo game ID, or board text) and player digits are known, and saves it.
pub fn calibrate_command(root: &Path, shot: &Path, truth: &str, theme_name: &str, entered: Option<&Path>) -> Result<String> {
    let image = load_image(shot)?;
    let mut truth_grid = if Path::new(truth).exists() {
        let text = read_text(Path::new(truth))?;
        let content: String = text.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n");
        if content.contains(':') {
            sgt_id::parse_id(content.trim())?
        } else {
            Sudoku { themes: Vec::new() }.parse_board(&text).with_context(|| format!("{truth}: the givens as board text"))?
        }
    } else {
        sgt_id::parse_id(truth)?
    };
    if let Some(path) = entered {
        let cells = parse_board_text(&read_text(path)?, truth_grid.size)
            .with_context(|| format!("{} is not the board text of the player's digits", path.display()))?;
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                if truth_grid.given[i] {
                    bail!("{}: cell {} is a given and cannot hold a player's digit", path.display(), i);
                }
                truth_grid.cells[i] = v;
            }
        }
    }
    let mut theme = load_themes(root, Some(theme_name)).ok().and_then(|t| t.into_iter().next()).unwrap_or_else(|| SudokuTheme::new(theme_name));
    let learned = reader::learn(&image, &truth_grid, &mut theme)?;
    theme.validate("the learned theme")?;
    let path = theme.save(root)?;
    let mut out = String::new();
    let symbols: String = learned.symbols.iter().collect();
    writeln!(out, "learned {} glyph(s) at pitch {:.1} from a {}x{} grid: {symbols}", learned.symbols.len(), learned.pitch, learned.size, learned.size)?;
    let ink = &theme.ink;
    let or_dash = |c: &Option<String>| c.clone().unwrap_or_else(|| "-".into());
    writeln!(out, "ink: given {}, entered {}, clash {}, pencil {}", ink.given, or_dash(&ink.entered), or_dash(&ink.clash), or_dash(&ink.pencil))?;
    eprintln!("wrote {} ({} glyph templates)", path.display(), theme.glyphs.len());
    Ok(out)
}
