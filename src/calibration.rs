//! Calibration data: what the reader needs to know about a game's look that cannot be found from the image
//! alone. It is data, not code: one TOML file per game and theme under `calibration/<game>/<theme>.toml`,
//! written by `autoplay calibrate` from a screenshot whose truth is known.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;

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
    Err(first_error.unwrap_or_else(|| anyhow::anyhow!("no calibration theme to read {what} with (see `autoplay calibrate`)")))
}

/// Loads and validates one theme file.
pub fn load_theme_file<T: ThemeFile>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let theme: T = toml::from_str(&text).with_context(|| format!("{} is not a valid theme", path.display()))?;
    theme.validate(&path.display().to_string())?;
    Ok(theme)
}

/// Writes a theme to `<root>/<game>/<name>.toml` (atomically) and returns the path.
pub fn save_theme_file<T: ThemeFile>(theme: &T, root: &Path, game: &str) -> Result<PathBuf> {
    let dir = root.join(game);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{}.toml", theme.name()));
    let text = format!("{}{}", theme.header(), toml::to_string(theme)?);
    crate::imageio::write_output(text.as_bytes(), &path)?;
    Ok(path)
}

/// Every theme of a game under `root`, sorted by name, or only the one named; an error when there are none.
pub fn load_theme_files<T: ThemeFile>(root: &Path, game: &str, only: Option<&str>) -> Result<Vec<T>> {
    let dir = root.join(game);
    let entries = std::fs::read_dir(&dir)
        .with_context(|| format!("no calibration for {game}: cannot read {} (see `autoplay calibrate`)", dir.display()))?;
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

/// The theme named `name` of a game under `root`, to refresh, or `new()` when there is none yet.
pub fn theme_or_new<T: ThemeFile>(root: &Path, game: &str, name: &str, new: impl FnOnce() -> T) -> T {
    load_theme_files(root, game, Some(name)).ok().and_then(|t| t.into_iter().next()).unwrap_or_else(new)
}
