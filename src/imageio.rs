//! Reading and writing images from files or standard streams, with errors that say what went wrong.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use image::{ImageFormat, RgbaImage};

/// Decodes an image in any format the `image` crate was built with (PNG, PNM, BMP, JPEG), guessing the format
/// from the bytes, not the name.
pub fn decode_image(bytes: &[u8], what: &str) -> Result<RgbaImage> {
    if bytes.is_empty() {
        bail!("{what} is empty, not an image");
    }
    let format = image::guess_format(bytes)
        .with_context(|| format!("{what} is not an image in a known format (PNG, PNM, BMP or JPEG)"))?;
    let image = image::load_from_memory_with_format(bytes, format)
        .with_context(|| format!("{what} looks like {format:?} but cannot be decoded"))?;
    Ok(image.to_rgba8())
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
    String::from_utf8(bytes).with_context(|| format!("{what} is not UTF-8 text"))
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

/// Writes bytes to a path (atomically, via a temporary file beside it) or to standard output for `-`.
pub fn write_output(bytes: &[u8], path: &Path) -> Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).context("writing standard output")?;
        return out.flush().context("writing standard output");
    }
    let file_name = path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    let temp = path.with_file_name(format!(".{}.partial", file_name.to_string_lossy()));
    std::fs::write(&temp, bytes).with_context(|| format!("cannot write {}", temp.display()))?;
    std::fs::rename(&temp, path).with_context(|| format!("cannot move {} to {}", temp.display(), path.display()))
}
