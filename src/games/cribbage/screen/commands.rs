//! The `read cribbage` and `calibrate cribbage` commands.

use std::path::Path;

use anyhow::{Context, Result};
use image::RgbaImage;

use super::reader::{learn, read};
use super::theme::{load_themes, TableTheme};
use crate::games::cribbage::{commands::parse_state, deal, Deal, State};
use crate::imageio::{load_image, read_text};

/// A position as state text (what `solve cribbage` reads): the columns in deal notation, the stack bottom
/// first, and its total as a comment.
pub fn state_text(state: &State) -> String {
    let columns = Deal { columns: state.columns.clone() }.notation();
    let stack: Vec<String> = state.stack.iter().map(|c| c.to_string()).collect();
    format!("{columns}\nstack: {}\n# total {}\n", stack.join(" "), state.total())
}

/// `autoplay read cribbage`: the position on a table screenshot, as state text or JSON (with the click points).
pub fn read_command(image: &RgbaImage, themes: &[TableTheme], json: bool) -> Result<String> {
    let reading = read(image, themes)?;
    if json {
        let stack: String = reading.state.stack.iter().map(|c| c.to_string()).collect();
        let value = serde_json::json!({
            "columns": Deal { columns: reading.state.columns.clone() }.notation(),
            "stack": stack, "total": reading.state.total(), "theme": reading.theme, "points": reading.points,
        });
        Ok(format!("{value}\n"))
    } else {
        Ok(state_text(&reading.state))
    }
}

/// `autoplay calibrate cribbage SHOT (--deal N | --truth FILE|TEXT) [--theme NAME]`: learns (or refreshes) a
/// theme from a screenshot whose position is known (a numbered deal before any move, or state text in a file or
/// given as it is), checks that the learned theme reads it back, and saves it.
pub fn calibrate_command(root: &Path, shot: &Path, truth: Option<&str>, deal_number: Option<u64>, theme_name: &str) -> Result<String> {
    let image = load_image(shot)?;
    let truth = match (truth, deal_number) {
        (_, Some(n)) => State::from(deal(n)),
        (Some(text), None) if Path::new(text).is_file() => {
            parse_state(&read_text(Path::new(text))?).with_context(|| format!("{text} is not a state text"))?
        }
        (Some(text), None) => parse_state(&text.replace("\\n", "\n")).context("--truth is neither a file nor state text")?,
        (None, None) => anyhow::bail!("give the position shown: --deal N (before any move) or --truth FILE|TEXT"),
    };
    let mut theme = load_themes(root, Some(theme_name)).ok().and_then(|t| t.into_iter().next()).unwrap_or_else(|| TableTheme::new(theme_name));
    let ranks = learn(&image, &truth, &mut theme)?;
    let check = read(&image, std::slice::from_ref(&theme)).context("the learned theme does not read its own screenshot")?;
    if check.state.columns != truth.columns || check.state.stack != truth.stack {
        anyhow::bail!("the learned theme reads its own screenshot as\n{}", state_text(&check.state));
    }
    let path = theme.save(root)?;
    Ok(format!(
        "learned {} rank glyph(s): {}; felt {}, outlines up to luminance {}\nwrote {}\n",
        ranks.len(),
        ranks.iter().collect::<String>(),
        theme.felt,
        theme.outline_max,
        path.display()
    ))
}
