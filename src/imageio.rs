//! Reading and writing images from files or standard streams, with errors that say what went wrong.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use image::{ImageFormat, RgbaImage};

/// The most pixels a picture may have (an 8K screen has 33 million): a larger one is refused before it is
/// decoded, so that no picture takes more than a few hundred MB.
pub const MAX_PIXELS: u64 = 40_000_000;

/// Decodes an image in any format the `image` crate was built with (PNG, PNM, BMP, JPEG), guessing the format
/// from the bytes, not the name. Its size is checked from its header before anything is decoded.
pub fn decode_image(bytes: &[u8], what: &str) -> Result<RgbaImage> {
    if bytes.is_empty() {
        bail!("{what} is empty, not an image");
    }
    let format = image::guess_format(bytes)
        .with_context(|| format!("{what} is not an image in a known format (PNG, PNM, BMP or JPEG)"))?;
    let reader = || {
        let mut reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
        let mut limits = image::Limits::default();
        limits.max_alloc = Some(MAX_PIXELS * 4);
        reader.limits(limits);
        reader
    };
    let cannot = |e: image::ImageError| anyhow::anyhow!("{what} looks like {format:?} but cannot be decoded: {e}");
    let (width, height) = reader().into_dimensions().map_err(cannot)?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        bail!("{what} is {width}×{height} pixels; pictures of at most {MAX_PIXELS} pixels are read (an 8K screen has 33 million)");
    }
    Ok(reader().decode().map_err(cannot)?.to_rgba8())
}

/// Loads an image from a path, or from standard input when the path is `-`.
pub fn load_image(path: &Path) -> Result<RgbaImage> {
    let (bytes, what) = read_input(path)?;
    decode_image(&bytes, &what)
}

/// Reads a whole file, or standard input for `-`, and names it for messages.
pub fn read_input(path: &Path) -> Result<(Vec<u8>, String)> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).context("reading standard input")?;
        Ok((bytes, "standard input".into()))
    } else {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok((bytes, path.display().to_string()))
    }
}

/// Reads text from a path or `-`, requiring UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let (bytes, what) = read_input(path)?;
    let text = String::from_utf8(bytes).with_context(|| format!("{what} is not UTF-8 text"))?;
    // A byte-order mark (some editors write one) is not part of the text.
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Encodes an image as PNG, or as PNM (PPM) when the name ends in .pnm/.ppm; `-` writes PNG to standard output.
/// A file is written to a temporary name first and then renamed, so a failed write never leaves half a file.
pub fn save_image(image: &RgbaImage, path: &Path) -> Result<()> {
    let format = match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()) {
        Some(e) if e == "pnm" || e == "ppm" => ImageFormat::Pnm,
        _ => ImageFormat::Png,
    };
    let mut bytes = Vec::new();
    if format == ImageFormat::Pnm {
        // A binary pixmap (P6), which every netpbm tool reads; the encoder's default would be PAM (P7).
        use image::codecs::pnm::{PnmEncoder, PnmSubtype, SampleEncoding};
        use image::ImageEncoder;
        let rgb = image::DynamicImage::ImageRgba8(image.clone()).to_rgb8();
        PnmEncoder::new(&mut bytes).with_subtype(PnmSubtype::Pixmap(SampleEncoding::Binary)).write_image(
            rgb.as_raw(),
            rgb.width(),
            rgb.height(),
            image::ExtendedColorType::Rgb8,
        )?;
    } else {
        image.write_to(&mut std::io::Cursor::new(&mut bytes), format)?;
    }
    write_output(&bytes, path)
}

/// Writes bytes to standard output for `-`, else to a path without destroying what the path is:
///
/// - a regular file or a new name is replaced atomically (a temporary file beside it, synced, then renamed over
///   it, keeping the old file's permissions), so an interrupted write never leaves half a file;
/// - anything else (a device such as `/dev/null`, a named pipe, a terminal) is written straight through, and
///   stays what it was;
/// - a symbolic link is followed to what it names (the link itself stays).
///
/// A failed write (a full disk, `/dev/full`) is an error naming the path.
pub fn write_output(bytes: &[u8], path: &Path) -> Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).context("writing standard output")?;
        return out.flush().context("writing standard output");
    }
    let target = resolve_links(path)?;
    match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .with_context(|| format!("cannot open {}", target.display()))?;
            file.write_all(bytes)
                .and_then(|()| file.flush())
                .with_context(|| format!("cannot write {}", target.display()))
        }
        Ok(meta) if meta.is_dir() => bail!("{} is a folder, not a file", target.display()),
        existing => replace_file(bytes, &target, existing.ok().map(|m| m.permissions())),
    }
}

/// The path a chain of symbolic links ends at (the path itself when it is no link).
fn resolve_links(path: &Path) -> Result<std::path::PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current)
                    .with_context(|| format!("cannot read the link {}", current.display()))?;
                current = match current.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    bail!("{} is a loop of symbolic links", path.display())
}

/// Replaces a regular file (or creates it) atomically: a temporary file beside it, synced, renamed over it.
fn replace_file(bytes: &[u8], path: &Path, permissions: Option<std::fs::Permissions>) -> Result<()> {
    let file_name = path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    let temp = path.with_file_name(format!(".{}.{}.partial", file_name.to_string_lossy(), std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        anyhow::Error::new(e).context(format!("cannot move {} to {}", temp.display(), path.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};

    #[test]
    fn a_regular_file_is_replaced_whole_and_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_output(b"first", &path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_output(b"second", &path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
    }

    #[test]
    fn a_symbolic_link_is_followed_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("link.txt");
        symlink("target.txt", &link).unwrap();
        write_output(b"new", &link).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A link to a name that does not exist yet creates that file.
        let dangling = dir.path().join("dangling");
        symlink("made.txt", &dangling).unwrap();
        write_output(b"made", &dangling).unwrap();
        assert_eq!(std::fs::read(dir.path().join("made.txt")).unwrap(), b"made");
        // A loop of links is an error, not a hang.
        symlink("loop-b", dir.path().join("loop-a")).unwrap();
        symlink("loop-a", dir.path().join("loop-b")).unwrap();
        assert!(write_output(b"x", &dir.path().join("loop-a")).unwrap_err().to_string().contains("loop"));
    }

    #[test]
    fn a_named_pipe_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let (sender, received) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || sender.send(std::fs::read(path).unwrap()));
        write_output(b"through the pipe", &fifo).unwrap();
        let read = received.recv_timeout(std::time::Duration::from_secs(10)).expect("the pipe's reader got nothing");
        assert_eq!(read, b"through the pipe");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the pipe is still a pipe");
    }

    /// A device node of our own with the numbers of /dev/`name`, so that a regression cannot replace the real
    /// one (the tests run as root); the real one where nodes cannot be made.
    fn device(dir: &Path, name: &str, minor: &str) -> std::path::PathBuf {
        let path = dir.join(name);
        let made =
            std::process::Command::new("mknod").arg(&path).args(["c", "1", minor]).status().is_ok_and(|s| s.success());
        if made {
            path
        } else {
            Path::new("/dev").join(name)
        }
    }

    #[test]
    fn a_full_device_is_an_error_and_a_device_stays_a_device() {
        let dir = tempfile::tempdir().unwrap();
        let full = device(dir.path(), "full", "7");
        let error = write_output(b"no room", &full).unwrap_err();
        assert!(format!("{error:#}").contains("No space left"), "{error:#}");
        assert!(std::fs::metadata(&full).unwrap().file_type().is_char_device());
        let null = device(dir.path(), "null", "3");
        write_output(b"gone", &null).unwrap();
        assert!(std::fs::metadata(&null).unwrap().file_type().is_char_device());
    }
}
