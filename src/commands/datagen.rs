//! `datagen`: plays a data set's games (or one shard of them) into its positions store;
//! `datagen CONFIG` again with the same folder continues a stopped or killed shard.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use checkers_engine::error::{Error, Result};
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::datagen::{DatagenConfig, DatagenProgress, DatagenRun, Shard};
use checkers_harness::run_folder::weights_from_arg;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::egdb::open_database;
use super::output::{note, outln};
use super::{thread_pool, threads_arg, INTERRUPTED_STATUS};

/// Arguments of `datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The data set's config (TOML), e.g. configs/datagen.toml.
    config: PathBuf,
    /// Output folder [default: results/<name>]. A folder holding this data set (a shard stopped
    /// with Ctrl-C or killed, or other shards) is continued.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play shard K of N (1 ≤ K ≤ N) only: the games [(K−1)·G/N, K·G/N) of the G planned, into
    /// shard-K-of-N/; N processes or machines each play one, and `fit` reads them in order as
    /// one data set. Default: 1/1, the whole set.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Threads playing games (default: one per core). The data does not depend on it.
    #[arg(long, value_name = "N", value_parser = threads_arg)]
    threads: Option<usize>,
    /// No progress output on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// How often a plain progress line is written when stderr is not a terminal, in blocks.
const LINE_EVERY: u64 = 50;

/// Runs `datagen`.
pub fn run(args: DatagenArgs) -> Result<()> {
    let config = DatagenConfig::load(&args.config)?;
    let origin = args.config.display().to_string();
    let load = |key: &str, arg: &str| -> Result<WeightsFile> {
        let file = weights_from_arg(arg)
            .map_err(|e| Error::input(format!("config {origin}: {key}: {e}")))?;
        file.check_playable(&format!("config {origin}: {key}"))?;
        Ok(file)
    };
    let weights = load("weights", &config.weights)?;
    let opponents = (config.opponents.iter())
        .map(|arg| load("opponents", arg))
        .collect::<Result<Vec<_>>>()?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let folder = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&config.name));
    let database = open_database(config.database_pieces)?;
    let run = DatagenRun::new(&config, &weights, &opponents, database);
    let range = shard.games(config.games);
    let nodes: Vec<String> = config.nodes.iter().map(u64::to_string).collect();
    outln!(
        "datagen {}: games {}..{} of {} (shard {shard}) at {} nodes a move, {} random plies \
         within {}, seed {}, endgame database {}",
        config.name,
        range.start + 1,
        range.end,
        config.games,
        nodes.join("/"),
        config.book_plies,
        config.book_balance,
        config.seed,
        match config.database_pieces {
            0 => "none".to_string(),
            n => format!("{n} pieces"),
        }
    )?;
    outln!(
        "{} against {}",
        config.weights,
        match config.opponents.len() {
            0 => "itself".to_string(),
            _ => config.opponents.join(", "),
        }
    )?;
    outln!("output: {}", folder.join(shard.folder_name()).display())?;

    let stop = super::interrupt::stop_flag();
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::with_draw_target(
            Some(range.end - range.start),
            ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            ProgressStyle::with_template("games {pos}/{len} {wide_bar} ETA {eta}  {msg}")
        {
            bar.set_style(style);
        }
        bar
    });
    let started = Instant::now();
    let mut blocks = 0u64;
    let mut on_block = |p: &DatagenProgress| {
        let status = rate(p, started);
        match &bar {
            Some(bar) => {
                bar.set_position(p.games);
                bar.set_message(status);
            }
            None if !args.quiet && (blocks.is_multiple_of(LINE_EVERY) || p.games == p.planned) => {
                note!("games {}/{}: {status}", p.games, p.planned);
            }
            None => {}
        }
        blocks += 1;
    };
    let mut play = || run.run(&folder, shard, &stop, &mut on_block);
    let outcome = match args.threads {
        Some(n) => thread_pool(n)?.install(play),
        None => play(),
    }?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let p = outcome.progress;
    if p.continued_from > 0 {
        outln!("continued after {} games", p.continued_from)?;
    }
    outln!(
        "{} of {} games, {}: {}",
        p.games,
        p.planned,
        rate(&p, started),
        outcome.store.display()
    )?;
    if outcome.stopped {
        note!(
            "Stopped: `checkers-tuner datagen {}{}{}` continues it.",
            args.config.display(),
            args.out
                .as_ref()
                .map_or(String::new(), |o| format!(" --out {}", o.display())),
            args.shard
                .map_or(String::new(), |s| format!(" --shard {s}"))
        );
        super::output::flush_out()?;
        std::process::exit(INTERRUPTED_STATUS);
    }
    outln!(
        "fit it: checkers-tuner fit {} -o {}.json --evaluator patterns --unique --first-ply {}",
        folder.display(),
        config.name,
        config.book_plies
    )?;
    Ok(())
}

/// The unique positions so far, and this process's games and new positions a second.
fn rate(p: &DatagenProgress, started: Instant) -> String {
    let seconds = started.elapsed().as_secs_f64().max(1e-3);
    let games = (p.games - p.continued_from) as f64 / seconds;
    let positions = (p.positions - p.positions_before) as f64 / seconds;
    format!(
        "{} unique quiet positions, {games:.1} games/s, {positions:.0} positions/s",
        p.positions
    )
}
