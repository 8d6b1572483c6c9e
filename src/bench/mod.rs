//! The benchmarks, one file per game (`autoplay bench GAME`), and the helpers they share: summary statistics,
//! reading times and peak memory.

pub mod cribbage;
pub mod dandelions;
pub mod flood;
pub mod lunar;
pub mod open_loop;
pub mod sudoku;
pub mod sudoku_duel;
pub mod sudoku_sets;
pub mod zoo;

use std::time::Duration;

/// Mean, median and maximum of a set of durations, in milliseconds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    pub count: usize,
    pub mean_ms: f64,
    pub median_ms: f64,
    pub max_ms: f64,
}

pub fn summarise(times: &[Duration]) -> Summary {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let count = ms.len();
    let mean_ms = if count == 0 { 0.0 } else { ms.iter().sum::<f64>() / count as f64 };
    let median_ms = match count {
        0 => 0.0,
        n if n % 2 == 1 => ms[n / 2],
        n => (ms[n / 2 - 1] + ms[n / 2]) / 2.0,
    };
    Summary { count, mean_ms, median_ms, max_ms: ms.last().copied().unwrap_or(0.0) }
}

/// Times `read` (a reader on one screenshot) `repeats` times, after one untimed call that must succeed.
pub fn time_reads<T>(repeats: usize, mut read: impl FnMut() -> anyhow::Result<T>) -> anyhow::Result<Summary> {
    read()?;
    let times: Vec<Duration> = (0..repeats)
        .map(|_| {
            let start = std::time::Instant::now();
            let reading = read();
            let elapsed = start.elapsed();
            std::hint::black_box(reading).ok();
            elapsed
        })
        .collect();
    Ok(summarise(&times))
}

/// What a `bench GAME --shot` prints: the reader's time on the screenshot, as text or JSON.
pub fn read_time_report(shot: &std::path::Path, image: &image::RgbaImage, time: &Summary, json: bool) -> String {
    if json {
        serde_json::json!({"shot": shot.display().to_string(), "width": image.width(), "height": image.height(), "time": time})
            .to_string()
    } else {
        format!(
            "read {} ({}x{} px): mean {:.3} ms, median {:.3} ms, max {:.3} ms over {} reads",
            shot.display(),
            image.width(),
            image.height(),
            time.mean_ms,
            time.median_ms,
            time.max_ms,
            time.count
        )
    }
}

/// The process's peak resident memory so far (VmHWM), in bytes, where the system reports it.
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// A progress bar on standard error (hidden when it is not a terminal).
pub fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_owned());
    bar
}
