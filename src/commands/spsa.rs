//! `spsa`: tunes the selective search's integer keys of a weights file by SPSA at a node
//! budget, or an engine's integer options (`engine = "cb:…"` or `"hub:…"`) at a time a move;
//! `spsa CONFIG` again with the same folder continues a stopped run.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use checkers_engine::error::{Error, Result};
use checkers_harness::spsa::{SpsaConfig, SpsaProgress, SpsaRun, SPSA_ROWS_FILE};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::egdb::open_database;
use super::output::{note, outln};
use super::{thread_pool, threads_arg, INTERRUPTED_STATUS};

/// Arguments of `spsa`.
#[derive(clap::Args, Debug)]
pub struct SpsaArgs {
    /// The SPSA config (TOML), e.g. configs/search-spsa.toml or configs/engine-spsa.toml.
    config: PathBuf,
    /// Output folder [default: results/<name>]. A folder holding this very run (stopped with
    /// Ctrl-C or killed) is continued.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Threads playing pairs (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = threads_arg)]
    threads: Option<usize>,
    /// No progress output on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// How often a plain progress line is written when stderr is not a terminal, in batches.
const LINE_EVERY: u64 = 25;

/// Runs `spsa`.
pub fn run(args: SpsaArgs) -> Result<()> {
    let config = SpsaConfig::load(&args.config)?;
    let weights =
        match &config.weights {
            Some(arg) => Some(checkers_harness::run_folder::weights_from_arg(arg).map_err(
                |e| Error::input(format!("config {}: weights: {e}", args.config.display())),
            )?),
            None => None,
        };
    let folder = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&config.name));
    if holds_other_files(&folder) {
        return Err(Error::input(format!(
            "--out {}: a folder with other files; an SPSA run needs an empty folder or its own",
            folder.display()
        )));
    }
    let database = open_database(config.database_pieces)?;
    // An engine is loaded, and given the values it starts from, before anything is written.
    let run = match (&weights, config.tuned_engine(&super::matchplay::host()?)) {
        (_, Some(engine)) => {
            let engine = engine.map_err(|e| {
                Error::input(format!("config {}: engine: {e}", args.config.display()))
            })?;
            SpsaRun::of_engine(&config, engine, database, &args.config)?
        }
        (Some(weights), None) => SpsaRun::new(&config, weights, database)?,
        (None, None) => unreachable!("a checked config has weights or an engine"),
    };
    let keys = run.keys();
    let pace = match (config.nodes, config.movetime, &config.engine) {
        (_, Some(seconds), Some(engine)) => {
            format!("{seconds} s a move between two instances of {engine}")
        }
        (Some(nodes), ..) => format!("{nodes} nodes a move"),
        _ => String::new(),
    };
    outln!(
        "spsa {}: {} pairs ({} at once) at {pace}, {} openings, seed {}, endgame database {}",
        config.name,
        config.iterations,
        config.batch,
        config.openings,
        config.seed,
        match config.database_pieces {
            0 => "none".to_string(),
            n => format!("{n} pieces"),
        }
    )?;
    let start: Vec<String> = keys
        .iter()
        .zip(run.start())
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    outln!("tuning {} from {}", keys.join(", "), start.join(", "))?;
    outln!("output: {}", folder.display())?;

    let stop = super::interrupt::stop_flag();
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar =
            ProgressBar::with_draw_target(Some(config.iterations), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("pairs {pos}/{len} {wide_bar} ETA {eta}  {msg}")
        {
            bar.set_style(style);
        }
        bar
    });
    let mut batches = 0u64;
    let mut on_batch = |p: &SpsaProgress| {
        let status = values(p);
        match &bar {
            Some(bar) => {
                bar.set_position(p.done);
                bar.set_message(status);
            }
            None if !args.quiet
                && (batches.is_multiple_of(LINE_EVERY) || p.done == p.iterations) =>
            {
                note!("pairs {}/{}: {status}", p.done, p.iterations);
            }
            None => {}
        }
        batches += 1;
    };
    let mut play = || run.run(&folder, &stop, &mut on_batch);
    let outcome = match args.threads {
        Some(n) => thread_pool(n)?.install(play),
        None => play(),
    }?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if outcome.continued_from > 0 {
        outln!("continued after {} pairs", outcome.continued_from)?;
    }
    let reached: Vec<String> = keys
        .iter()
        .zip(&outcome.theta)
        .map(|(k, v)| format!("{k} {v:.2}"))
        .collect();
    outln!(
        "after {} of {} pairs: {}",
        outcome.done,
        config.iterations,
        reached.join(", ")
    )?;
    outln!(
        "{} with these values (rounded): {}; every pair: {}",
        if run.is_engine() {
            "options"
        } else {
            "weights"
        },
        outcome.best.display(),
        folder.join(SPSA_ROWS_FILE).display()
    )?;
    if outcome.stopped {
        note!(
            "Stopped: `checkers-tuner spsa {}{}` continues it.",
            args.config.display(),
            args.out
                .as_ref()
                .map_or(String::new(), |o| format!(" --out {}", o.display()))
        );
        super::output::flush_out()?;
        std::process::exit(INTERRUPTED_STATUS);
    }
    match (&config.engine, &config.weights) {
        // The tuned options against the engine's own values, at the run's time a move.
        (Some(engine), _) => {
            let options: String = run
                .best_options(&outcome.theta)
                .unwrap_or_default()
                .lines()
                .map(|line| format!(" --option-a {line:?}"))
                .collect();
            outln!(
                "measure it: checkers-tuner match {engine} {engine}{options} --movetime {}",
                config.movetime.unwrap_or(0.1)
            )?;
        }
        // Against the same weights with the hand-set values: selective either way.
        (None, Some(weights)) => outln!(
            "measure it: checkers-tuner match {} {weights} --search-b selective --movetime 0.1",
            outcome.best.display(),
        )?,
        (None, None) => {}
    }
    Ok(())
}

/// The current values, one decimal each.
fn values(p: &SpsaProgress) -> String {
    let each: Vec<String> = (p.keys.iter().zip(&p.theta))
        .map(|(k, v)| format!("{k} {v:.1}"))
        .collect();
    each.join(", ")
}

/// Whether `folder` holds files an SPSA run does not write (so is not one).
fn holds_other_files(folder: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return false;
    };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        ![
            checkers_harness::spsa::SPSA_CONFIG_FILE,
            checkers_harness::spsa::SPSA_BASE_FILE,
            checkers_harness::spsa::SPSA_ROWS_FILE,
            checkers_harness::spsa::SPSA_BEST_FILE,
            checkers_harness::spsa::SPSA_BEST_OPTIONS_FILE,
        ]
        .contains(&name.as_ref())
            && !name.starts_with('.')
    })
}
