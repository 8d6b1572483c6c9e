//! The screen cast's pictures: a PipeWire stream that takes mutter's frames of a monitor, and keeps the last one.
//!
//! mutter drives the stream: it sends a frame when the monitor's picture changes (and one when the stream starts),
//! nothing while it holds still, so the last frame received is the monitor as it is now. Each frame is a BGRx buffer
//! in shared memory (headless, or where the consumer asks for no DMA-BUF modifier, as here), mapped by PipeWire;
//! it is copied out as RGBA. With the cursor sent as metadata (`cursor-mode` 2), the cursor is not drawn into
//! the pictures (it would hide part of a cell) and its place comes with every frame, and alone, in a frame of
//! no pixels, whenever it moves: that is where the pointer is, whoever moved it.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use image::RgbaImage;
use pipewire as pw;
use pw::spa;
use spa::param::video::VideoFormat;
use spa::pod::{ChoiceValue, Object, Pod, Property, PropertyFlags, Value};
use spa::utils::{Choice, ChoiceEnum, ChoiceFlags, Id, SpaTypes};

/// What the stream has received: the last picture, and where the cursor last was, on the stream's pixels.
#[derive(Default)]
struct Received {
    picture: Option<RgbaImage>,
    cursor: Option<(i32, i32)>,
    /// Why the stream ended, where it did.
    ended: Option<String>,
}

/// The last frame of a screen cast stream, shared between the PipeWire thread that receives them and the bot.
#[derive(Default)]
pub struct LastFrame {
    received: Mutex<Received>,
    arrived: Condvar,
}

impl LastFrame {
    /// The last picture, once there is one; waits up to `bound` for the first.
    pub fn picture(&self, bound: Duration) -> Result<RgbaImage> {
        let deadline = Instant::now() + bound;
        let mut received = self.received.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(picture) = &received.picture {
                return Ok(picture.clone());
            }
            if let Some(why) = &received.ended {
                bail!("mutter's screen cast ended: {why}");
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                bail!("mutter's screen cast sent no picture within {:.0} s", bound.as_secs_f64());
            }
            received = self.arrived.wait_timeout(received, left).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Where the cursor was on the stream's pixels when mutter last said (`None` before it has).
    pub fn cursor(&self) -> Option<(i32, i32)> {
        self.received.lock().unwrap_or_else(|e| e.into_inner()).cursor
    }

    fn update(&self, change: impl FnOnce(&mut Received)) {
        change(&mut self.received.lock().unwrap_or_else(|e| e.into_inner()));
        self.arrived.notify_all();
    }
}

/// The PipeWire thread that receives a stream's frames into a [`LastFrame`]; stopped when dropped.
pub struct FrameReceiver {
    quit: pw::channel::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FrameReceiver {
    /// Connects to the PipeWire node `node` (mutter's stream) and keeps its last frame in `last`; an error where
    /// PipeWire cannot be reached or the stream cannot be made.
    pub fn start(node: u32, last: Arc<LastFrame>) -> Result<FrameReceiver> {
        let (quit, quit_here) = pw::channel::channel::<()>();
        let (ready, started) = std::sync::mpsc::channel::<Result<()>>();
        let thread = std::thread::Builder::new()
            .name("screen-cast".into())
            .spawn(move || {
                let ended = last.clone();
                if let Err(e) = receive(node, last, quit_here, &ready) {
                    let why = format!("{e:#}");
                    ended.update(|r| r.ended = Some(why.clone()));
                    let _ = ready.send(Err(e));
                }
            })
            .map_err(|e| anyhow!("cannot start the screen cast's thread: {e}"))?;
        match started.recv() {
            Ok(Ok(())) => Ok(FrameReceiver { quit, thread: Some(thread) }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(anyhow!("the screen cast's thread ended before it connected")),
        }
    }
}

impl Drop for FrameReceiver {
    fn drop(&mut self) {
        let _ = self.quit.send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The stream's format, as negotiated.
#[derive(Default)]
struct Format {
    format: Option<VideoFormat>,
    width: u32,
    height: u32,
}

fn receive(
    node: u32,
    last: Arc<LastFrame>,
    quit: pw::channel::Receiver<()>,
    ready: &std::sync::mpsc::Sender<Result<()>>,
) -> Result<()> {
    pw::init();
    let mainloop = pw::main_loop::MainLoopRc::new(None).map_err(|e| anyhow!("PipeWire's main loop: {e}"))?;
    let context = pw::context::ContextRc::new(&mainloop, None).map_err(|e| anyhow!("PipeWire's context: {e}"))?;
    let core = context
        .connect_rc(None)
        .map_err(|e| anyhow!("cannot reach the PipeWire daemon ($XDG_RUNTIME_DIR/pipewire-0): {e}"))?;
    let stream = pw::stream::StreamBox::new(
        &core,
        "autoplay",
        pw::properties::properties! {
            *pw::keys::MEDIA_TYPE => "Video",
            *pw::keys::MEDIA_CATEGORY => "Capture",
            *pw::keys::MEDIA_ROLE => "Screen",
        },
    )
    .map_err(|e| anyhow!("cannot make a PipeWire stream: {e}"))?;
    let into = last.clone();
    let _listener = stream
        .add_local_listener_with_user_data(Format::default())
        .param_changed(|stream, format, id, param| {
            let Some(param) = param else { return };
            if id != spa::param::ParamType::Format.as_raw() {
                return;
            }
            let mut info = spa::param::video::VideoInfoRaw::default();
            if info.parse(param).is_err() {
                return;
            }
            *format = Format { format: Some(info.format()), width: info.size().width, height: info.size().height };
            // Ask for the cursor's place with each frame (the metadata mutter offers).
            let meta = serialize(cursor_meta());
            match meta.as_deref().ok().and_then(Pod::from_bytes).map(|pod| stream.update_params(&mut [pod])) {
                Some(Ok(())) => {}
                _ => log::warn!(
                    "the screen cast's cursor metadata could not be asked for: the pointer's place is unknown"
                ),
            }
        })
        .process(move |stream, format| {
            let Some(mut buffer) = stream.dequeue_buffer() else { return };
            let cursor = buffer
                .find_meta::<spa::buffer::meta::MetaCursor>()
                .filter(|cursor| cursor.id() != 0)
                .map(|cursor| (cursor.position().x, cursor.position().y));
            let picture = buffer.datas_mut().first_mut().and_then(|data| {
                let (offset, size, stride) =
                    (data.chunk().offset() as usize, data.chunk().size() as usize, data.chunk().stride());
                let bytes = data.data()?;
                let bytes = bytes.get(offset..offset + size)?;
                to_rgba(bytes, stride.max(0) as usize, format)
            });
            if cursor.is_some() || picture.is_some() {
                into.update(|received| {
                    if cursor.is_some() {
                        received.cursor = cursor;
                    }
                    if let Some(picture) = picture {
                        received.picture = Some(picture);
                    }
                });
            }
        })
        .register()
        .map_err(|e| anyhow!("cannot listen to the PipeWire stream: {e}"))?;
    let format = serialize(video_format())?;
    let mut params = [Pod::from_bytes(&format).ok_or_else(|| anyhow!("the stream's format does not serialize"))?];
    stream
        .connect(
            spa::utils::Direction::Input,
            Some(node),
            pw::stream::StreamFlags::AUTOCONNECT | pw::stream::StreamFlags::MAP_BUFFERS,
            &mut params,
        )
        .map_err(|e| anyhow!("cannot connect to mutter's stream (PipeWire node {node}): {e}"))?;
    let quitting = mainloop.clone();
    let _quit = quit.attach(mainloop.loop_(), move |()| quitting.quit());
    let _ = ready.send(Ok(()));
    mainloop.run();
    last.update(|r| r.ended = Some("the bot stopped it".into()));
    Ok(())
}

/// A frame's pixels (rows `stride` bytes apart, 4 bytes a pixel) as an opaque RGBA picture; `None` for a frame
/// of no pixels (the cursor alone moved) or of a format not negotiated.
fn to_rgba(bytes: &[u8], stride: usize, format: &Format) -> Option<RgbaImage> {
    let (width, height) = (format.width as usize, format.height as usize);
    let stride = if stride == 0 { width * 4 } else { stride };
    if width == 0 || height == 0 || bytes.len() < stride * (height - 1) + width * 4 {
        return None;
    }
    let order: [usize; 3] = match format.format? {
        VideoFormat::BGRx | VideoFormat::BGRA => [2, 1, 0],
        VideoFormat::RGBx | VideoFormat::RGBA => [0, 1, 2],
        _ => return None,
    };
    let mut rgba = Vec::with_capacity(width * height * 4);
    for row in 0..height {
        for pixel in bytes[row * stride..row * stride + width * 4].chunks_exact(4) {
            rgba.extend_from_slice(&[pixel[order[0]], pixel[order[1]], pixel[order[2]], 255]);
        }
    }
    RgbaImage::from_raw(width as u32, height as u32, rgba)
}

/// The format asked for: raw video in one of the four 32-bit orders (mutter sends BGRx), any size, any rate; no
/// DMA-BUF modifier, so that the frames come in memory the bot can map.
fn video_format() -> Object {
    pw::spa::pod::object!(
        SpaTypes::ObjectParamFormat,
        spa::param::ParamType::EnumFormat,
        pw::spa::pod::property!(
            spa::param::format::FormatProperties::MediaType,
            Id,
            spa::param::format::MediaType::Video
        ),
        pw::spa::pod::property!(
            spa::param::format::FormatProperties::MediaSubtype,
            Id,
            spa::param::format::MediaSubtype::Raw
        ),
        pw::spa::pod::property!(
            spa::param::format::FormatProperties::VideoFormat,
            Choice,
            Enum,
            Id,
            VideoFormat::BGRx,
            VideoFormat::BGRx,
            VideoFormat::BGRA,
            VideoFormat::RGBx,
            VideoFormat::RGBA
        ),
        pw::spa::pod::property!(
            spa::param::format::FormatProperties::VideoSize,
            Choice,
            Range,
            Rectangle,
            spa::utils::Rectangle { width: 1280, height: 720 },
            spa::utils::Rectangle { width: 1, height: 1 },
            spa::utils::Rectangle { width: 16384, height: 16384 }
        ),
        pw::spa::pod::property!(
            spa::param::format::FormatProperties::VideoFramerate,
            Choice,
            Range,
            Fraction,
            spa::utils::Fraction { num: 30, denom: 1 },
            spa::utils::Fraction { num: 0, denom: 1 },
            spa::utils::Fraction { num: 1000, denom: 1 }
        ),
    )
}

/// The cursor metadata asked for with each buffer: its place, and room for a bitmap of up to 1024×1024 (mutter
/// offers room for one of 384×384, and sends the cursor's picture in it when it changes; the sizes asked for must
/// hold the one offered, or no cursor metadata comes).
fn cursor_meta() -> Object {
    let header = std::mem::size_of::<spa::sys::spa_meta_cursor>() + std::mem::size_of::<spa::sys::spa_meta_bitmap>();
    let size = |side: usize| (header + side * side * 4) as i32;
    Object {
        type_: SpaTypes::ObjectParamMeta.as_raw(),
        id: spa::param::ParamType::Meta.as_raw(),
        properties: vec![
            Property {
                key: spa::sys::SPA_PARAM_META_type,
                flags: PropertyFlags::empty(),
                value: Value::Id(Id(spa::sys::SPA_META_Cursor)),
            },
            Property {
                key: spa::sys::SPA_PARAM_META_size,
                flags: PropertyFlags::empty(),
                value: Value::Choice(ChoiceValue::Int(Choice(
                    ChoiceFlags::empty(),
                    ChoiceEnum::Range { default: size(64), min: size(1), max: size(1024) },
                ))),
            },
        ],
    }
}

fn serialize(object: Object) -> Result<Vec<u8>> {
    Ok(spa::pod::serialize::PodSerializer::serialize(std::io::Cursor::new(Vec::new()), &Value::Object(object))
        .map_err(|e| anyhow!("a PipeWire parameter does not serialize: {e:?}"))?
        .0
        .into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bgrx_frame_with_padded_rows_becomes_an_opaque_rgba_picture() {
        let format = Format { format: Some(VideoFormat::BGRx), width: 2, height: 2 };
        // Rows of 2 pixels, 12 bytes apart (4 of padding); the fourth byte is left as the producer had it.
        let bytes = [
            1, 2, 3, 0, 4, 5, 6, 9, 77, 77, 77, 77, //
            7, 8, 9, 0, 10, 11, 12, 0,
        ];
        let picture = to_rgba(&bytes, 12, &format).unwrap();
        assert_eq!(picture.get_pixel(0, 0).0, [3, 2, 1, 255]);
        assert_eq!(picture.get_pixel(1, 0).0, [6, 5, 4, 255]);
        assert_eq!(picture.get_pixel(0, 1).0, [9, 8, 7, 255]);
        assert_eq!(picture.get_pixel(1, 1).0, [12, 11, 10, 255]);
        // A frame of no pixels (the cursor alone moved) is no picture.
        assert!(to_rgba(&[], 12, &format).is_none());
        // Nor is one before the format is known.
        assert!(to_rgba(&bytes, 12, &Format::default()).is_none());
    }
}
