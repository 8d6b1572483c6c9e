//! Recorded sessions: everything a game of play saw and did, kept in a folder, and replayed offline as a test.
//!
//! The play loop's control flow depends only on what its frame source and input device return: frames (picture,
//! position, title), the source's clock, the windows the game opened, and where the pointer is. A recording
//! wraps both and writes every call, in order, with what it returned; the readings the loop acted on are
//! written too. A replay runs the same loop against a source and a device that return the recorded values in
//! the recorded order and check every call the loop makes against the next one recorded: the same kind of call,
//! the same reading, and every pointer move within [`POINT_TOLERANCE`] pixels. So a session replays exactly
//! while the code behaves as it did, and the first difference is reported with the event and frame where it
//! happened.
//!
//! # The folder
//!
//! - `session.json`: `{"version": 1, "game", "window", "theme", "options": {...}, "outcome", "events": [...]}`,
//!   one event per line: `frame` (file, CRC-32, origin, title), `grab_error`, `now` (ms), `sleep` (ms),
//!   `windows_opened`, `uncover`, `focus`, `busy` (the desktop's load), `covering` (windows over the points a late
//!   move was sent to), `pointer`, `move_to` (screen point, and the point in the window), `click`, `type`,
//!   `reading` (board text and layout), `play` (what the loop reported, as a [`PlayEvent`] value: its plans, the
//!   moves it made, what each showed and when, what it learned and why it planned again).
//!
//! Version 2 records the loop's reports as values, and a replay compares them with what the loop reports, as it
//! compares the readings. Version 1 recorded them as text (`note`), which a replay skips: such a recording still
//! replays, checking every call and reading.
//! - `frames/NNNNNN.png`: each distinct picture once (a capture equal to the previous one refers to its file),
//!   cropped to the game window as captured.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;
use serde::{Deserialize, Serialize};

use crate::capture::{Frame, FrameSource};
use crate::input::InputDevice;
use crate::play::PlayEvent;

/// How far (in pixels, on each axis) a replayed pointer move may be from the recorded one.
pub const POINT_TOLERANCE: i32 = 2;

/// The version of the folder format this code writes.
pub const VERSION: u32 = 2;

/// The oldest version this code reads (its notes were text, and are not compared).
pub const OLDEST_VERSION: u32 = 1;

/// One call of the play loop on its source or device, with what it returned; or a reading or a note.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A capture: the file holding its picture, the CRC-32 of the picture's RGB bytes, where it was on the
    /// screen, and the window's title.
    Frame {
        file: String,
        crc: u32,
        origin: (i32, i32),
        title: Option<String>,
    },
    GrabError {
        message: String,
    },
    Now {
        ms: f64,
    },
    Sleep {
        ms: f64,
    },
    WindowsOpened {
        titles: Vec<String>,
    },
    Uncover {
        covering: Vec<String>,
    },
    /// Whether the game's window had the input focus (`None`: the source cannot tell).
    Focus {
        focused: Option<bool>,
    },
    /// Whether another program held the pointer (`None`: the source cannot tell).
    PointerHeld {
        held: Option<bool>,
    },
    /// How busy the desktop was: processes ready to run per processor (`None`: the source cannot tell).
    Busy {
        per_processor: Option<f64>,
    },
    /// The windows found over the points a move's events were sent to.
    Covering {
        covering: Vec<String>,
    },
    Pointer {
        x: i32,
        y: i32,
    },
    /// A pointer move to screen point (x, y); `window` is the same point in the window (the last frame's
    /// picture), for people reading the recording.
    MoveTo {
        x: i32,
        y: i32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<(i32, i32)>,
    },
    Click,
    /// A key that types nothing, by name (`Up`, `Enter`).
    Key {
        key: crate::game::Key,
    },
    Type {
        ch: char,
    },
    Reading {
        board: String,
        layout: serde_json::Value,
    },
    /// What the loop said, as text (version 1 recordings only).
    Note {
        text: String,
    },
    /// What the loop reported (but a reading, which is [`Event::Reading`]).
    Play {
        event: PlayEvent,
    },
}

/// The play options a session ran with (replay runs with the same).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionOptions {
    pub max_moves: usize,
    pub move_delay_ms: u64,
    pub time_limit: Option<f64>,
}

/// `session.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub game: String,
    pub window: String,
    pub theme: Option<String>,
    pub options: SessionOptions,
    /// `won`, or the error the game ended with; absent while it is being recorded.
    pub outcome: Option<String>,
    pub events: Vec<Event>,
}

impl Manifest {
    /// Reads and checks `DIR/session.json`.
    pub fn load(dir: &Path) -> Result<Manifest> {
        let path = dir.join("session.json");
        let text = crate::imageio::read_text(&path)?;
        let manifest: Manifest =
            serde_json::from_str(&text).with_context(|| format!("{} is not a session manifest", path.display()))?;
        if !(OLDEST_VERSION..=VERSION).contains(&manifest.version) {
            bail!(
                "{} has format version {}; this autoplay reads versions {OLDEST_VERSION} to {VERSION}",
                path.display(),
                manifest.version
            );
        }
        Ok(manifest)
    }

    /// Writes `DIR/session.json`, one event per line.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let header = Manifest { events: Vec::new(), ..self.clone() };
        let head = serde_json::to_string(&header)?;
        let head = head.strip_suffix("\"events\":[]}").context("the manifest's events come last")?;
        let events: Vec<String> = self.events.iter().map(serde_json::to_string).collect::<Result<_, _>>()?;
        let text = format!("{head}\"events\":[\n{}\n]}}\n", events.join(",\n"));
        crate::imageio::write_output(text.as_bytes(), &dir.join("session.json"))
    }
}

/// The thread writing a recording's frames, and how pictures reach it.
struct FrameWriter {
    sender: mpsc::Sender<(PathBuf, RgbaImage)>,
    /// Set when the recording is thrown away: the frames still queued are not written.
    discarded: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Result<()>>,
}

/// How a recording's frames are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// As small as PNG makes them (`play --record`: a recording asked for may be kept in the repository as a
    /// fixture), at several times the processor time.
    Smallest,
    /// Fast (the recording every game keeps in case it fails, mostly thrown away after a win): the writer thread
    /// takes little of a processor the game and the X server need.
    Fast,
}

/// Checks that a recording may go into `dir`: a new or empty folder, or one holding an earlier recording.
pub fn check_folder(dir: &Path) -> Result<()> {
    let occupied = std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()).unwrap_or(false);
    if occupied && !dir.join("session.json").is_file() {
        bail!("{} is not empty and holds no recording: record into a new or empty folder", dir.display());
    }
    Ok(())
}

/// A session being recorded: the events so far, and a thread writing frames as PNG files.
pub struct Recorder {
    dir: PathBuf,
    manifest: Manifest,
    last_frame: Option<(RgbaImage, String, u32)>,
    /// The screen position of the last frame captured.
    origin: Option<(i32, i32)>,
    frames_written: usize,
    writer: Option<FrameWriter>,
}

impl Recorder {
    /// Starts a recording in `dir`: a new or empty folder, or one holding an earlier recording (which is
    /// replaced); any other folder is refused, so that nothing of the user's is removed.
    pub fn create(
        dir: &Path,
        game: &str,
        window: &str,
        theme: Option<&str>,
        options: SessionOptions,
        packing: Packing,
    ) -> Result<Rc<RefCell<Recorder>>> {
        check_folder(dir)?;
        let frames = dir.join("frames");
        if frames.is_dir() {
            std::fs::remove_dir_all(&frames).with_context(|| format!("cannot clear {}", frames.display()))?;
        }
        std::fs::create_dir_all(&frames).with_context(|| format!("cannot create {}", frames.display()))?;
        let (sender, received) = mpsc::channel::<(PathBuf, RgbaImage)>();
        let discarded = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = discarded.clone();
        let thread = std::thread::spawn(move || -> Result<()> {
            for (path, image) in received {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                save_frame(&image, &path, packing)?;
            }
            Ok(())
        });
        let manifest = Manifest {
            version: VERSION,
            game: game.into(),
            window: window.into(),
            theme: theme.map(String::from),
            options,
            outcome: None,
            events: Vec::new(),
        };
        Ok(Rc::new(RefCell::new(Recorder {
            dir: dir.to_owned(),
            manifest,
            last_frame: None,
            origin: None,
            frames_written: 0,
            writer: Some(FrameWriter { sender, discarded, thread }),
        })))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn push(&mut self, event: Event) {
        self.manifest.events.push(event);
    }

    /// Records a captured frame, writing its picture when it differs from the last one.
    fn frame(&mut self, frame: &Frame) {
        let (file, crc) = match &self.last_frame {
            Some((image, file, crc)) if *image == frame.image => (file.clone(), *crc),
            _ => {
                self.frames_written += 1;
                let file = format!("frames/{:06}.png", self.frames_written);
                let crc = picture_crc(&frame.image);
                if let Some(writer) = &self.writer {
                    // A writer that has stopped reports its error when the recording finishes.
                    let _ = writer.sender.send((self.dir.join(&file), frame.image.clone()));
                }
                self.last_frame = Some((frame.image.clone(), file.clone(), crc));
                (file, crc)
            }
        };
        self.origin = Some((frame.origin_x, frame.origin_y));
        self.push(Event::Frame { file, crc, origin: (frame.origin_x, frame.origin_y), title: frame.title.clone() });
    }

    /// Records what the play loop reported.
    pub fn play_event(&mut self, event: &PlayEvent) {
        match event {
            PlayEvent::Reading { board, layout } => {
                self.push(Event::Reading { board: board.clone(), layout: layout.clone() })
            }
            event => self.push(Event::Play { event: event.clone() }),
        }
    }

    /// Ends the recording with its outcome: waits for the frames to be written and writes the manifest.
    pub fn finish(&mut self, outcome: &str) -> Result<()> {
        self.manifest.outcome = Some(outcome.to_string());
        if let Some(FrameWriter { sender, thread, .. }) = self.writer.take() {
            drop(sender);
            thread.join().map_err(|_| anyhow!("the frame writer panicked"))??;
        }
        self.manifest.save(&self.dir)
    }

    /// Throws the recording away (a game won, recorded only in case it failed): the frames still queued are not
    /// written, and the folder is removed once the writer has stopped.
    pub fn discard(&mut self) {
        if let Some(FrameWriter { sender, discarded, thread }) = self.writer.take() {
            discarded.store(true, std::sync::atomic::Ordering::Relaxed);
            drop(sender);
            let _ = thread.join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The CRC-32 of a picture's RGB bytes (what a frame file keeps), with its size.
fn picture_crc(image: &RgbaImage) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&image.width().to_le_bytes());
    hasher.update(&image.height().to_le_bytes());
    // A row's RGB bytes at a time (the hasher is slow on three bytes at a time).
    let mut row = Vec::with_capacity(image.width() as usize * 3);
    for pixels in image.as_raw().chunks(image.width().max(1) as usize * 4) {
        row.clear();
        row.extend(pixels.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]));
        hasher.update(&row);
    }
    hasher.finalize()
}

/// Writes a frame as a PNG: RGB (captures are opaque), packed as `packing` says.
fn save_frame(image: &RgbaImage, path: &Path, packing: Packing) -> Result<()> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::ImageEncoder;
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).to_rgb8();
    let (compression, filter) = match packing {
        Packing::Smallest => (CompressionType::Best, FilterType::Adaptive),
        Packing::Fast => (CompressionType::Fast, FilterType::Sub),
    };
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, compression, filter).write_image(
        rgb.as_raw(),
        rgb.width(),
        rgb.height(),
        image::ExtendedColorType::Rgb8,
    )?;
    crate::imageio::write_output(&bytes, path)
}

/// A frame source whose calls are recorded.
pub struct RecordingSource<'a> {
    pub inner: &'a mut dyn FrameSource,
    pub recorder: Rc<RefCell<Recorder>>,
}

impl FrameSource for RecordingSource<'_> {
    fn grab(&mut self) -> Result<Frame> {
        let grabbed = self.inner.grab();
        let mut recorder = self.recorder.borrow_mut();
        match &grabbed {
            Ok(frame) => recorder.frame(frame),
            Err(e) => recorder.push(Event::GrabError { message: format!("{e:#}") }),
        }
        grabbed
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn windows_opened(&mut self) -> Result<Vec<String>> {
        let titles = self.inner.windows_opened()?;
        self.recorder.borrow_mut().push(Event::WindowsOpened { titles: titles.clone() });
        Ok(titles)
    }

    fn uncover(&mut self) -> Result<Vec<String>> {
        let covering = self.inner.uncover()?;
        self.recorder.borrow_mut().push(Event::Uncover { covering: covering.clone() });
        Ok(covering)
    }

    fn focused(&mut self) -> Result<Option<bool>> {
        let focused = self.inner.focused()?;
        self.recorder.borrow_mut().push(Event::Focus { focused });
        Ok(focused)
    }

    fn pointer_held(&mut self) -> Result<Option<bool>> {
        let held = self.inner.pointer_held()?;
        self.recorder.borrow_mut().push(Event::PointerHeld { held });
        Ok(held)
    }

    fn busy(&mut self) -> Result<Option<f64>> {
        let per_processor = self.inner.busy()?;
        self.recorder.borrow_mut().push(Event::Busy { per_processor });
        Ok(per_processor)
    }

    fn covering_at(&mut self, points: &[(i32, i32)]) -> Result<Vec<String>> {
        let covering = self.inner.covering_at(points)?;
        self.recorder.borrow_mut().push(Event::Covering { covering: covering.clone() });
        Ok(covering)
    }

    fn now(&mut self) -> Duration {
        let now = self.inner.now();
        self.recorder.borrow_mut().push(Event::Now { ms: now.as_secs_f64() * 1e3 });
        now
    }

    fn sleep(&mut self, duration: Duration) {
        self.recorder.borrow_mut().push(Event::Sleep { ms: duration.as_secs_f64() * 1e3 });
        self.inner.sleep(duration)
    }
}

/// An input device whose calls are recorded.
pub struct RecordingInput<'a> {
    pub inner: &'a mut dyn InputDevice,
    pub recorder: Rc<RefCell<Recorder>>,
}

impl InputDevice for RecordingInput<'_> {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        let mut recorder = self.recorder.borrow_mut();
        let window = recorder.origin.map(|(ox, oy)| (x - ox, y - oy));
        recorder.push(Event::MoveTo { x, y, window });
        drop(recorder);
        self.inner.move_pointer(x, y)
    }

    fn click(&mut self) -> Result<()> {
        self.recorder.borrow_mut().push(Event::Click);
        self.inner.click()
    }

    fn type_char(&mut self, c: char) -> Result<()> {
        self.recorder.borrow_mut().push(Event::Type { ch: c });
        self.inner.type_char(c)
    }

    fn press_key(&mut self, key: crate::game::Key) -> Result<()> {
        self.recorder.borrow_mut().push(Event::Key { key });
        self.inner.press_key(key)
    }

    fn pointer(&self) -> Result<(i32, i32)> {
        let (x, y) = self.inner.pointer()?;
        self.recorder.borrow_mut().push(Event::Pointer { x, y });
        Ok((x, y))
    }

    /// (Recorded as the loop's report of it, [`crate::play::PlayEvent::HeldLonger`].)
    fn set_hold(&mut self, hold: Duration) {
        self.inner.set_hold(hold)
    }

    fn click_shown(&mut self) {
        self.inner.click_shown()
    }

    /// (Not recorded: a game the user stopped so ends with the error that says it, and is not replayed past it.)
    fn stop_key_pressed(&self) -> Option<&'static str> {
        self.inner.stop_key_pressed()
    }
}

/// The recorded session a replay walks through.
pub struct Replay {
    dir: PathBuf,
    /// The recorded source's own name for itself ("window 'Flood'"): a replay's messages are the recording's.
    window: String,
    events: Vec<Event>,
    next: usize,
    /// The frame file last served, for messages.
    frame: Option<String>,
    /// The first difference found (an error from a device call may be swallowed by the loop's own handling).
    divergence: Option<String>,
    /// Whether the recording holds the loop's reports as values (version 2), to be compared.
    reports: bool,
}

impl Replay {
    pub fn open(dir: &Path, manifest: &Manifest) -> Rc<RefCell<Replay>> {
        Rc::new(RefCell::new(Replay {
            dir: dir.to_owned(),
            window: manifest.window.clone(),
            events: manifest.events.clone(),
            next: 0,
            frame: None,
            divergence: None,
            reports: manifest.version >= 2,
        }))
    }

    /// Where the replay is, for messages: the event number and the last frame served.
    fn place(&self) -> String {
        let frame = self.frame.as_deref().map(|f| format!(", after {f}")).unwrap_or_default();
        format!("event {}{frame}", self.next + 1)
    }

    /// Records the first difference and returns it as an error.
    fn diverge(&mut self, what: String) -> anyhow::Error {
        let message = format!("the replay differs from the recording at {}: {what}", self.place());
        self.divergence.get_or_insert(message.clone());
        anyhow!(message)
    }

    /// The next recorded call, skipping notes (of version 1); `want` names the call the loop makes, for messages.
    fn take(&mut self, want: &str) -> Result<Event> {
        self.skip_notes();
        match self.events.get(self.next).cloned() {
            Some(event) => {
                self.next += 1;
                Ok(event)
            }
            None => Err(self.diverge(format!("the loop asks for {want}, but the recording has ended"))),
        }
    }

    /// Passes over the notes at the recording's place.
    fn skip_notes(&mut self) {
        while let Some(Event::Note { .. }) = self.events.get(self.next) {
            self.next += 1;
        }
    }

    /// The next event, where `wanted` takes it (notes passed over); otherwise nothing is taken.
    fn take_if(&mut self, wanted: impl Fn(&Event) -> bool) -> Option<Event> {
        self.skip_notes();
        let event = self.events.get(self.next).filter(|event| wanted(event)).cloned()?;
        self.next += 1;
        Some(event)
    }

    /// The first difference found, if any.
    pub fn divergence(&self) -> Option<&str> {
        self.divergence.as_deref()
    }

    /// Checks that the recording has no call left that the loop did not make.
    pub fn finish(&mut self) -> Result<()> {
        self.skip_notes();
        match self.events.get(self.next).cloned() {
            Some(event) => {
                Err(self.diverge(format!("the loop has ended, but the recording goes on with {}", describe(&event))))
            }
            None => Ok(()),
        }
    }

    /// Checks a reading the loop acted on against the recorded one, and what the loop reported against what it
    /// reported when recorded (where the recording holds reports: version 2). Where the screen was is not
    /// compared: a replay reads a recording, not the window.
    pub fn play_event(&mut self, event: &PlayEvent) {
        if let PlayEvent::Reading { board, .. } = event {
            match self.take("a reading") {
                Ok(Event::Reading { board: recorded, .. }) if recorded == *board => {}
                Ok(Event::Reading { board: recorded, .. }) => {
                    self.diverge(format!("the board was read as\n{board}but the recording read\n{recorded}"));
                }
                Ok(other) => {
                    self.diverge(format!("the loop read a board, but the recording has {}", describe(&other)));
                }
                Err(_) => {}
            }
        } else if self.reports {
            match self.take("a report") {
                Ok(Event::Play { event: recorded }) if same_report(&recorded, event) => {}
                Ok(Event::Play { event: recorded }) => {
                    self.diverge(format!("the loop reported '{event}', but the recording reported '{recorded}'"));
                }
                Ok(other) => {
                    self.diverge(format!("the loop reported '{event}', but the recording has {}", describe(&other)));
                }
                Err(_) => {}
            }
        }
    }
}

/// An event as messages name it.
fn describe(event: &Event) -> String {
    match event {
        Event::Frame { file, .. } => format!("a capture ({file})"),
        Event::GrabError { message } => format!("a failed capture ({message})"),
        Event::Now { .. } => "a look at the clock".into(),
        Event::Sleep { ms } => format!("a wait of {ms:.0} ms"),
        Event::WindowsOpened { .. } => "a look at the game's windows".into(),
        Event::Uncover { .. } => "a look at what covers the window".into(),
        Event::Focus { .. } => "a look at the input focus".into(),
        Event::PointerHeld { .. } => "a look at who holds the pointer".into(),
        Event::Busy { .. } => "a look at the desktop's load".into(),
        Event::Covering { .. } => "a look at the windows over the game's".into(),
        Event::Pointer { .. } => "a look at the pointer".into(),
        Event::MoveTo { x, y, .. } => format!("a pointer move to ({x}, {y})"),
        Event::Click => "a click".into(),
        Event::Type { ch } => format!("the key '{ch}'"),
        Event::Key { key } => format!("the key {key}"),
        Event::Reading { board, .. } => format!("a reading of\n{board}"),
        Event::Note { text } => format!("the note '{text}'"),
        Event::Play { event } => format!("the report '{event}'"),
    }
}

/// A frame source serving the recorded frames and times.
pub struct ReplaySource {
    pub replay: Rc<RefCell<Replay>>,
    pictures: std::collections::HashMap<String, RgbaImage>,
}

impl ReplaySource {
    pub fn new(replay: Rc<RefCell<Replay>>) -> Self {
        ReplaySource { replay, pictures: Default::default() }
    }
}

impl FrameSource for ReplaySource {
    fn grab(&mut self) -> Result<Frame> {
        let mut replay = self.replay.borrow_mut();
        match replay.take("a capture")? {
            Event::Frame { file, crc, origin, title } => {
                let image = match self.pictures.get(&file) {
                    Some(image) => image.clone(),
                    None => {
                        let image = crate::imageio::load_image(&replay.dir.join(&file))?;
                        if picture_crc(&image) != crc {
                            replay.frame = Some(file.clone());
                            return Err(replay.diverge(format!(
                                "{file} is not the picture that was recorded (its checksum differs)"
                            )));
                        }
                        self.pictures.insert(file.clone(), image.clone());
                        image
                    }
                };
                replay.frame = Some(file);
                Ok(Frame { image, origin_x: origin.0, origin_y: origin.1, title })
            }
            Event::GrabError { message } => Err(anyhow!(message)),
            other => {
                Err(replay.diverge(format!("the loop captures the window, but the recording has {}", describe(&other))))
            }
        }
    }

    fn describe(&self) -> String {
        self.replay.borrow().window.clone()
    }

    fn windows_opened(&mut self) -> Result<Vec<String>> {
        let mut replay = self.replay.borrow_mut();
        match replay.take("the game's windows")? {
            Event::WindowsOpened { titles } => Ok(titles),
            other => Err(replay
                .diverge(format!("the loop looks at the game's windows, but the recording has {}", describe(&other)))),
        }
    }

    fn uncover(&mut self) -> Result<Vec<String>> {
        let mut replay = self.replay.borrow_mut();
        match replay.take("what covers the window")? {
            Event::Uncover { covering } => Ok(covering),
            other => Err(replay.diverge(format!(
                "the loop looks at what covers the window, but the recording has {}",
                describe(&other)
            ))),
        }
    }

    fn focused(&mut self) -> Result<Option<bool>> {
        let mut replay = self.replay.borrow_mut();
        match replay.take("the input focus")? {
            Event::Focus { focused } => Ok(focused),
            other => Err(replay
                .diverge(format!("the loop looks at the input focus, but the recording has {}", describe(&other)))),
        }
    }

    /// A recording made before the loop asked this has none of these looks: there, nothing held the pointer.
    fn pointer_held(&mut self) -> Result<Option<bool>> {
        let mut replay = self.replay.borrow_mut();
        Ok(replay.take_if(|event| matches!(event, Event::PointerHeld { .. })).and_then(|event| match event {
            Event::PointerHeld { held } => held,
            _ => None,
        }))
    }

    /// A recording made before the loop looked at the load before every quiet period has fewer of these looks:
    /// where it has none, the load could not be told (and the quiet period is the configured one, as then).
    fn busy(&mut self) -> Result<Option<f64>> {
        let mut replay = self.replay.borrow_mut();
        Ok(replay.take_if(|event| matches!(event, Event::Busy { .. })).and_then(|event| match event {
            Event::Busy { per_processor } => per_processor,
            _ => None,
        }))
    }

    fn covering_at(&mut self, _points: &[(i32, i32)]) -> Result<Vec<String>> {
        let mut replay = self.replay.borrow_mut();
        match replay.take("the windows over the game's")? {
            Event::Covering { covering } => Ok(covering),
            other => Err(replay.diverge(format!(
                "the loop looks at the windows over the game's, but the recording has {}",
                describe(&other)
            ))),
        }
    }

    fn now(&mut self) -> Duration {
        let mut replay = self.replay.borrow_mut();
        match replay.take("the clock") {
            Ok(Event::Now { ms }) => Duration::from_secs_f64(ms.max(0.0) / 1e3),
            Ok(other) => {
                replay.diverge(format!("the loop looks at the clock, but the recording has {}", describe(&other)));
                // Far in the future: every wait ends, and the loop stops at its next call.
                Duration::from_secs(1 << 30)
            }
            Err(_) => Duration::from_secs(1 << 30),
        }
    }

    fn sleep(&mut self, _duration: Duration) {
        let mut replay = self.replay.borrow_mut();
        match replay.take("a wait") {
            Ok(Event::Sleep { .. }) | Err(_) => {}
            Ok(other) => {
                replay.diverge(format!("the loop waits, but the recording has {}", describe(&other)));
            }
        }
    }
}

/// An input device checking every call against the recording.
pub struct ReplayInput {
    replay: Rc<RefCell<Replay>>,
    /// The last pointer move, as recorded and as replayed: a recorded pointer that is where the recording left
    /// it is where the replay left it (the two may differ within the tolerance).
    moved: Option<((i32, i32), (i32, i32))>,
}

impl ReplayInput {
    pub fn new(replay: Rc<RefCell<Replay>>) -> Self {
        ReplayInput { replay, moved: None }
    }
}

impl ReplayInput {
    fn expect(&mut self, want: &str, matches: impl Fn(&Event) -> bool) -> Result<Event> {
        let mut replay = self.replay.borrow_mut();
        let event = replay.take(want)?;
        if matches(&event) {
            Ok(event)
        } else {
            Err(replay.diverge(format!("the loop makes {want}, but the recording has {}", describe(&event))))
        }
    }
}

impl InputDevice for ReplayInput {
    fn move_pointer(&mut self, x: i32, y: i32) -> Result<()> {
        let near = |e: &Event| matches!(*e, Event::MoveTo { x: rx, y: ry, .. } if (rx - x).abs() <= POINT_TOLERANCE && (ry - y).abs() <= POINT_TOLERANCE);
        if let Event::MoveTo { x: rx, y: ry, .. } = self.expect(&format!("a pointer move to ({x}, {y})"), near)? {
            self.moved = Some(((rx, ry), (x, y)));
        }
        Ok(())
    }

    fn click(&mut self) -> Result<()> {
        self.expect("a click", |e| *e == Event::Click).map(|_| ())
    }

    fn type_char(&mut self, c: char) -> Result<()> {
        self.expect(&format!("the key '{c}'"), |e| *e == Event::Type { ch: c }).map(|_| ())
    }

    fn press_key(&mut self, key: crate::game::Key) -> Result<()> {
        self.expect(&format!("the key {key}"), |e| *e == Event::Key { key }).map(|_| ())
    }

    fn pointer(&self) -> Result<(i32, i32)> {
        let mut replay = self.replay.borrow_mut();
        match replay.take("a look at the pointer")? {
            Event::Pointer { x, y } => Ok(match self.moved {
                Some((recorded, replayed)) if recorded == (x, y) => replayed,
                _ => (x, y),
            }),
            other => {
                Err(replay
                    .diverge(format!("the loop looks at the pointer, but the recording has {}", describe(&other))))
            }
        }
    }
}

/// Whether two reports of the loop are the same but for where the screen was read from (a live window when
/// recorded, the recording when replayed).
fn same_report(recorded: &PlayEvent, replayed: &PlayEvent) -> bool {
    match (recorded, replayed) {
        (
            PlayEvent::FirstRead { theme, board, .. },
            PlayEvent::FirstRead { theme: theme_again, board: board_again, .. },
        ) => theme == theme_again && board == board_again,
        _ => recorded == replayed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replay names its source as the recording named it ("window 'Flood'"), so that a recorded error that
    /// names the window (the board in window 'Flood' did not hold still) replays to the same words.
    #[test]
    fn a_replay_names_its_source_as_the_recording_did() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sessions/flood-sgt-flood");
        let manifest = Manifest::load(&dir).unwrap();
        assert!(manifest.window.starts_with("window '"), "{}", manifest.window);
        let source = ReplaySource::new(Replay::open(&dir, &manifest));
        assert_eq!(source.describe(), manifest.window);
    }
}
