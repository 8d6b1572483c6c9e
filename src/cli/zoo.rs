//! `bench zoo GAME --seeds FROM-TO`: the bot against the client zoo (`crate::bench::zoo`), with what it prints.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;

use super::print;
use crate::bench::zoo::{self, SeedResult, ZooGame, ZooOptions};

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ZooGameArg {
    Flood,
    Sudoku,
    Cribbage,
}

/// Plays seeds of the client zoo (fixtures/zoo), each on a virtual display of its own, with no calibration, and
/// prints the share read and the share won, with each failure's class, seed and recording.
#[derive(Args)]
#[command(after_help = "Example:\n  autoplay bench zoo flood --seeds 1-30 --jobs 2 --json")]
pub struct ZooArgs {
    pub game: ZooGameArg,
    /// The seeds, FROM-TO (both played) or one number.
    #[arg(long, value_name = "FROM-TO")]
    pub seeds: String,
    /// How many seeds are played at once (default: the processors' count).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// Play every seed in this toolkit (web, gtk, sdl) instead of the seed's own.
    #[arg(long)]
    pub toolkit: Option<String>,
    /// Where each seed's folder goes (its recording, the bot's log, the client's state).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The zoo's folder (default: fixtures/zoo of the checkout this binary was built from, or $AUTOPLAY_ZOO).
    #[arg(long, value_name = "DIR")]
    pub zoo: Option<PathBuf>,
    /// How long one game may take, in seconds.
    #[arg(long, default_value_t = 300)]
    pub bound: u64,
    /// Print the summary as JSON: {"seeds", "read", "won", "failures": [{"seed", "class", "recording"}]}.
    #[arg(long)]
    pub json: bool,
}

/// FROM-TO or one seed.
fn parse_seeds(text: &str) -> Result<Vec<u64>> {
    let number = |t: &str| t.trim().parse::<u64>().with_context(|| format!("'{t}' is not a seed (FROM-TO)"));
    let (from, to) = match text.split_once('-') {
        Some((from, to)) => (number(from)?, number(to)?),
        None => (number(text)?, number(text)?),
    };
    if to < from {
        bail!("--seeds {text}: the range ends before it starts");
    }
    Ok((from..=to).collect())
}

pub fn bench(args: &ZooArgs) -> Result<()> {
    let game = match args.game {
        ZooGameArg::Flood => ZooGame::Flood,
        ZooGameArg::Sudoku => ZooGame::Sudoku,
        ZooGameArg::Cribbage => ZooGame::Cribbage,
    };
    let zoo = args
        .zoo
        .clone()
        .or_else(|| std::env::var_os("AUTOPLAY_ZOO").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/zoo")));
    if !zoo.join("zoo.py").exists() {
        bail!("no client zoo in {} (give its folder with --zoo)", zoo.display());
    }
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_secs();
    let options = ZooOptions {
        game,
        seeds: parse_seeds(&args.seeds)?,
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        toolkit: args.toolkit.clone(),
        zoo,
        out: args
            .out
            .clone()
            .unwrap_or_else(|| super::cache_dir().join(format!("autoplay/zoo/{}-{stamp}", game.name()))),
        bound: Duration::from_secs(args.bound),
        autoplay: std::env::current_exe().context("cannot find the autoplay binary")?,
    };
    eprintln!(
        "playing {} seeds of {} ({} at once); folders in {}",
        options.seeds.len(),
        game.name(),
        options.jobs,
        options.out.display()
    );
    let count = std::sync::atomic::AtomicUsize::new(0);
    let total = options.seeds.len();
    let results = zoo::run(&options, &|result: &SeedResult| {
        let n = count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let verdict = match &result.class {
            None => "won".to_owned(),
            Some(class) => format!("{class}: {}", result.detail),
        };
        eprintln!("[{n}/{total}] seed {} ({:.0} s) {verdict}\n    {}", result.seed, result.seconds, result.style);
    })?;
    let summary = zoo::summarise(game, &results);
    if args.json {
        return print(&serde_json::to_string(&summary)?);
    }
    let share = |n: usize| if summary.seeds == 0 { 0.0 } else { 100.0 * n as f64 / summary.seeds as f64 };
    let mut text = format!(
        "{}: {} seeds, read {} ({:.1} %), won {} ({:.1} %)\n",
        summary.game,
        summary.seeds,
        summary.read,
        share(summary.read),
        summary.won,
        share(summary.won)
    );
    for failure in &summary.failures {
        text += &format!(
            "  seed {} {}: {} ({})\n",
            failure.seed,
            failure.class,
            failure.detail,
            failure.recording.display()
        );
    }
    print(text.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_a_range_or_one() {
        assert_eq!(parse_seeds("3-5").unwrap(), vec![3, 4, 5]);
        assert_eq!(parse_seeds("7").unwrap(), vec![7]);
        assert!(parse_seeds("5-3").is_err());
        assert!(parse_seeds("a-3").is_err());
    }
}
