//! The `tune` and `resume` commands: arguments in, [`checkers_tuner::tune`] and
//! [`checkers_tuner::resume`] do the work.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use checkers_tuner::{
    Config, EndgameDbLoader, ProgressMode, Result, RunOptions, RunOutcome, RunSummary, BEST_FILE,
};
use clap::Args;

use super::egdb::open_database;
use super::{ctrl_c_flag, INTERRUPTED_STATUS};

/// Arguments of `tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The run's TOML config file.
    config: PathBuf,
    /// Worker threads for the games [default: one per core].
    #[arg(long, value_name = "N", value_parser = super::threads_arg)]
    threads: Option<usize>,
    /// Output folder [default: results/<name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Delete the run files already in the output folder and start again.
    #[arg(long)]
    force: bool,
    /// No progress bars or log lines.
    #[arg(long, short)]
    quiet: bool,
}

/// Arguments of `resume`.
#[derive(Args, Debug)]
pub struct ResumeArgs {
    /// The run folder (the one `tune` wrote).
    run_dir: PathBuf,
    /// Worker threads for the games [default: one per core].
    #[arg(long, value_name = "N", value_parser = super::threads_arg)]
    threads: Option<usize>,
    /// No progress bars or log lines.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `tune`.
pub fn tune(args: TuneArgs) -> Result<()> {
    let config = Config::load(&args.config)?;
    let out = args
        .out
        .unwrap_or_else(|| Path::new("results").join(&config.name));
    let options = options(args.threads, args.quiet)?;
    let outcome = checkers_tuner::tune(&config, &out, args.force, &options)?;
    report(outcome)
}

/// Runs `resume`.
pub fn resume(args: ResumeArgs) -> Result<()> {
    let options = options(args.threads, args.quiet)?;
    let outcome = checkers_tuner::resume(&args.run_dir, &options)?;
    report(outcome)
}

fn options(threads: Option<usize>, quiet: bool) -> Result<RunOptions> {
    // Test builds only (feature `crash-hooks`): stop cleanly once this round is saved, or abort
    // once its rows are written, before its checkpoint.
    #[cfg(feature = "crash-hooks")]
    let hook = |var: &str| std::env::var(var).ok().and_then(|v| v.trim().parse().ok());
    Ok(RunOptions {
        threads: threads.unwrap_or(0),
        progress: if quiet {
            ProgressMode::Quiet
        } else {
            ProgressMode::Auto
        },
        stop: Some(ctrl_c_flag()),
        endgame_db: Some(EndgameDbLoader(Arc::new(|pieces| {
            open_database(pieces).map(|db| db.expect("pieces above 0 give a database"))
        }))),
        #[cfg(feature = "crash-hooks")]
        stop_after_round: hook("CHECKERS_TUNER_STOP_AFTER_ROUND"),
        #[cfg(feature = "crash-hooks")]
        crash_before_checkpoint: hook("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT"),
    })
}

fn report(outcome: RunOutcome) -> Result<()> {
    match outcome {
        RunOutcome::Finished(summary) => {
            println!("Run finished: files in {}", summary.dir.display());
            println!(
                "  rounds.csv specimens.csv games.csv learning.csv playoff.csv best.json timings.csv"
            );
            print_best(&summary);
            Ok(())
        }
        RunOutcome::AlreadyFinished(summary) => {
            println!(
                "Run {} already finished; nothing to do.",
                summary.dir.display()
            );
            print_best(&summary);
            Ok(())
        }
        RunOutcome::Interrupted {
            dir,
            completed_rounds,
        } => {
            eprintln!("{completed_rounds} round(s) saved.");
            eprintln!(
                "Interrupted: continue with: checkers-tuner resume {}",
                dir.display()
            );
            std::process::exit(INTERRUPTED_STATUS);
        }
    }
}

fn print_best(summary: &RunSummary) {
    let best = summary.best();
    println!(
        "Best specimen: id {} with {:.1} points from {} playoff games ({} wins, {} draws, \
         {} losses) among {} finalists; weights in {}",
        best.id,
        best.results.points(),
        best.results.games(),
        best.results.wins,
        best.results.draws,
        best.results.losses,
        summary.standings.len(),
        summary.dir.join(BEST_FILE).display()
    );
}
