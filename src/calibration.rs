//! Calibration data: what the reader needs to know about a game's look that cannot be found from the image
//! alone. It is data, not code: one TOML file per game and theme under `calibration/<game>/<theme>.toml`,
//! written by `autoplay calibrate` from a screenshot whose truth is known (and by `play --learn`), never otherwise.
//! A theme that exists is refreshed, never replaced unasked, and a save keeps the user's comments in it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;

/// The theme named in a reading made with no calibration theme, from what the reader found in the picture itself
/// (Flood-It's colours, a Sudoku's grid and digits).
pub const FOUND_THEME: &str = "found in the picture";

/// Where calibration data lives: `--calibration DIR`, else `$AUTOPLAY_CALIBRATION`, else `./calibration` when
/// it exists, else the `calibration/` folder of the source tree the binary was built from.
pub fn calibration_root(explicit: Option<&Path>) -> PathBuf {
    if let Some(dir) = explicit {
        return dir.to_owned();
    }
    if let Some(dir) = std::env::var_os("AUTOPLAY_CALIBRATION") {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("calibration");
    if local.is_dir() {
        return local;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/calibration"))
}

/// Parses `#rrggbb` (the `#` is optional).
pub fn parse_rgb(text: &str) -> Result<[u8; 3]> {
    let hex = text.trim().trim_start_matches('#');
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        bail!("'{text}' is not a colour of the form #rrggbb");
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("checked hex digits");
    Ok([byte(0), byte(2), byte(4)])
}

pub fn format_rgb(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// Calibration data kept as one TOML file per game and theme: `<root>/<game>/<name>.toml`.
pub trait ThemeFile: Serialize + serde::de::DeserializeOwned {
    fn name(&self) -> &str;
    /// Checks the data once so that readers can rely on it; `origin` names the file in messages.
    fn validate(&self, origin: &str) -> Result<()>;
    /// Comment lines written at the top of the file.
    fn header(&self) -> String;
}

/// Reads with each theme in turn and returns the first reading; when every theme fails, the first failure,
/// naming its theme (`what` names the thing read: "reading Sudoku with theme 'x'").
pub fn first_reading<T: ThemeFile, R>(themes: &[T], what: &str, mut read: impl FnMut(&T) -> Result<R>) -> Result<R> {
    let mut first_error = None;
    for theme in themes {
        match read(theme) {
            Ok(reading) => return Ok(reading),
            Err(e) => {
                first_error.get_or_insert(e.context(format!("reading {what} with theme '{}'", theme.name())));
            }
        }
    }
    Err(first_error
        .unwrap_or_else(|| anyhow::anyhow!("no calibration theme to read {what} with (see `autoplay calibrate`)")))
}

/// Loads and validates one theme file.
pub fn load_theme_file<T: ThemeFile>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let theme: T = toml::from_str(&text).with_context(|| format!("{} is not a valid theme", path.display()))?;
    theme.validate(&path.display().to_string())?;
    Ok(theme)
}

/// Writes a theme to `<root>/<game>/<name>.toml` (atomically) and returns the path. Where the file exists, what
/// the user wrote in it besides the values is kept: its comments (above the values, at their ends, and at the
/// top of the file) and the order of its keys; each value is the theme's.
pub fn save_theme_file<T: ThemeFile>(theme: &T, root: &Path, game: &str) -> Result<PathBuf> {
    let dir = root.join(game);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{}.toml", theme.name()));
    let fresh = toml::to_string(theme)?;
    let existing = std::fs::read_to_string(&path).ok().and_then(|text| text.parse::<toml_edit::DocumentMut>().ok());
    let text = match existing {
        Some(mut kept) => {
            let fresh: toml_edit::DocumentMut = fresh.parse().context("the theme as TOML")?;
            merge_values(kept.as_table_mut(), fresh.as_table());
            kept.to_string()
        }
        None => format!("{}{fresh}", theme.header()),
    };
    crate::imageio::write_output(text.as_bytes(), &path)?;
    Ok(path)
}

/// Gives `kept` the values of `fresh`, keeping `kept`'s comments and key order: a plain value changes in place
/// (with the comments around it), a nested table is merged the same way, anything else (an array of tables) is
/// taken whole; keys `fresh` lacks are dropped, and new ones added at the end.
fn merge_values(kept: &mut toml_edit::Table, fresh: &toml_edit::Table) {
    let gone: Vec<String> =
        kept.iter().map(|(key, _)| key.to_string()).filter(|key| !fresh.contains_key(key)).collect();
    for key in gone {
        kept.remove(&key);
    }
    for (key, item) in fresh.iter() {
        match (kept.get_mut(key), item) {
            (Some(toml_edit::Item::Value(old)), toml_edit::Item::Value(new)) => {
                let decor = old.decor().clone();
                *old = new.clone();
                *old.decor_mut() = decor;
            }
            (Some(toml_edit::Item::Table(old)), toml_edit::Item::Table(new)) => merge_values(old, new),
            (Some(old), new) => *old = new.clone(),
            (None, new) => {
                kept.insert(key, new.clone());
            }
        }
    }
}

/// Every theme of a game under `root`, sorted by name, or only the one named; an error when there are none.
pub fn load_theme_files<T: ThemeFile>(root: &Path, game: &str, only: Option<&str>) -> Result<Vec<T>> {
    let dir = root.join(game);
    let entries = std::fs::read_dir(&dir).with_context(|| {
        format!("no calibration for {game}: cannot read {} (see `autoplay calibrate`)", dir.display())
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    let themes: Vec<T> = paths.iter().map(|p| load_theme_file(p)).collect::<Result<_>>()?;
    match only {
        None if themes.is_empty() => bail!("no calibration themes for {game} in {}", dir.display()),
        None => Ok(themes),
        Some(name) => {
            let names: Vec<String> = themes.iter().map(|t| t.name().to_owned()).collect();
            let chosen: Vec<T> = themes.into_iter().filter(|t| t.name() == name).collect();
            if chosen.is_empty() {
                bail!("no theme '{name}' for {game} (themes: {})", names.join(", "));
            }
            Ok(chosen)
        }
    }
}

/// [`load_theme_files`], except that with no theme named, a missing or empty folder is no themes (for readers
/// that can go on without calibration).
pub fn load_theme_files_or_none<T: ThemeFile>(root: &Path, game: &str, only: Option<&str>) -> Result<Vec<T>> {
    let has_themes = std::fs::read_dir(root.join(game))
        .is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "toml"))));
    if only.is_none() && !has_themes {
        return Ok(Vec::new());
    }
    load_theme_files(root, game, only)
}

/// The theme `calibrate` learns into: its name, under which calibration folder, and whether to start it afresh.
#[derive(Clone, Debug)]
pub struct ThemeTarget<'a> {
    pub root: &'a Path,
    pub name: &'a str,
    /// Start the theme afresh even where it exists, keeping the old file as `NAME.toml.bak`.
    pub replace: bool,
}

impl ThemeTarget<'_> {
    /// The theme's file for `game`.
    pub fn path(&self, game: &str) -> PathBuf {
        self.root.join(game).join(format!("{}.toml", self.name))
    }
}

/// The theme to refresh: `new()` where its file does not exist yet (or with `replace`, after the old file is
/// kept as `NAME.toml.bak`); the theme as its file has it otherwise. A file that exists but does not load is an
/// error naming the file and the line, and nothing is written: the user's theme is never replaced unasked.
pub fn theme_to_refresh<T: ThemeFile>(target: &ThemeTarget, game: &str, new: impl FnOnce() -> T) -> Result<T> {
    let path = target.path(game);
    if !path.exists() {
        return Ok(new());
    }
    if target.replace {
        let backup = path.with_extension("toml.bak");
        std::fs::rename(&path, &backup)
            .with_context(|| format!("cannot keep {} as {}", path.display(), backup.display()))?;
        eprintln!("kept the old theme as {}", backup.display());
        return Ok(new());
    }
    load_theme_file(&path).with_context(|| {
        format!(
            "theme '{}' exists but cannot be refreshed; it is left as it is (mend it, or start it afresh with --replace, \
             which keeps the old file as {}.toml.bak)",
            target.name, target.name
        )
    })
}
