//! The `tune` and `resume` commands: arguments in, [`checkers_harness::run::tune`] and
//! [`checkers_harness::run::resume`] do the work.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use checkers_engine::error::{Error, Result};
use checkers_harness::run::{
    Config, CrashHooks, EndgameDbLoader, IslandChoice, RunOptions, RunOutcome,
};
use checkers_harness::run_folder::BEST_FILE;
use clap::Args;

use super::egdb::open_database;
use super::output::{note, outln};
use super::progress::{self, duration};
use super::INTERRUPTED_STATUS;

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
    /// Run only this island of an `[islands]` run (`auto`: from SLURM_PROCID/SLURM_NTASKS or
    /// JOB_COMPLETION_INDEX); the same command again resumes it.
    #[arg(long, value_name = "auto|I")]
    island: Option<IslandChoice>,
    /// With --island: seconds to wait for another island's file before giving up.
    #[arg(long, value_name = "SECONDS", requires = "island", value_parser = clap::value_parser!(u64).range(1..))]
    island_timeout: Option<u64>,
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
    let mut options = options(args.threads, args.quiet)?;
    if !args.quiet {
        note!(
            "{}",
            startup_summary(&args.config, &out, &config, args.threads)
        );
    }
    let Some(choice) = args.island else {
        let outcome = checkers_harness::run::tune(&config, &out, args.force, &options)?;
        return report(outcome, None);
    };
    if args.force {
        return Err(Error::input(
            "--force cannot be used with --island: the islands share the run folder, so one \
             of them must not delete it; delete the folder before starting the job instead",
        ));
    }
    let island = choice.resolve(config.islands.count, |var| std::env::var(var).ok())?;
    options.island_timeout = args.island_timeout.map(Duration::from_secs);
    let outcome = checkers_harness::run::tune_island(&config, &out, island, &options)?;
    let again = format!(
        "checkers-tuner tune {} --out {} --island {}",
        args.config.display(),
        out.display(),
        island.index
    );
    report(outcome, Some((island.index, again)))
}

/// One line saying what is about to run: config, folder and the settings that decide its cost.
fn startup_summary(path: &Path, out: &Path, config: &Config, threads: Option<usize>) -> String {
    let threads = threads.unwrap_or_else(rayon::current_num_threads);
    let database = match config.search.database_pieces {
        0 => "no endgame database".to_string(),
        n => format!("{n}-piece endgame database"),
    };
    let islands = match (config.islands.count, config.chain.links) {
        (1, 1) => String::new(),
        (1, links) => format!(" x a chain of {links} links"),
        (n, _) => format!(" x {n} islands"),
    };
    let chain = &config.chain;
    let night = match chain.data_doublings {
        0 => String::new(),
        doublings => {
            let games: u64 = (1..=doublings).map(|k| chain.data_games_of(k)).sum();
            let nodes: Vec<String> = chain.data_nodes.iter().map(u64::to_string).collect();
            format!(
                ", then a data night of {doublings} doublings ({games} games at {} nodes a move)",
                nodes.join("/")
            )
        }
    };
    let (min, max) = (config.search.min_depth, config.search.max_depth);
    let search = match config.search.nodes {
        None => format!("depth {min}/{max}"),
        Some(n) => format!("{n} nodes a move (captures {} plies further)", max - min),
    };
    // Only a run with genes says so: the line of every other run stays as it was.
    let genes: Vec<String> = config
        .search
        .genes
        .opened()
        .iter()
        .map(|g| format!("{} {}..{}", g.key(), g.range.min, g.range.max))
        .collect();
    let search = match genes.is_empty() {
        true => search,
        false => format!("{search}, search genes {}", genes.join(", ")),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let expected = config.expected_cpu_seconds(0) / threads.clamp(1, cores) as f64;
    format!(
        "tune {} -> {}: population {}{islands}, {} rounds, {search}, openings {}, {database}, \
         {threads} threads, seed {}{night}; expected to take {} (a rough model; the time left is \
         shown as rounds finish)",
        path.display(),
        out.display(),
        config.population.size,
        config.tournament.rounds,
        config.tournament.openings,
        config.seed,
        duration(expected)
    )
}

/// Runs `resume`.
pub fn resume(args: ResumeArgs) -> Result<()> {
    let options = options(args.threads, args.quiet)?;
    let outcome = checkers_harness::run::resume(&args.run_dir, &options)?;
    report(outcome, None)
}

fn options(threads: Option<usize>, quiet: bool) -> Result<RunOptions> {
    Ok(RunOptions {
        threads: threads.unwrap_or(0),
        observer: progress::factory(quiet),
        stop: Some(super::interrupt::stop_flag()),
        endgame_db: Some(EndgameDbLoader(Arc::new(|pieces| {
            let db = open_database(pieces)?;
            Ok(db.expect("pieces above 0 give a database"))
        }))),
        island_timeout: None,
        hooks: CrashHooks::from_env(),
    })
}

/// Prints how the run ended; `island` is the island this process ran and the command that
/// continues it, when it ran one island.
fn report(outcome: RunOutcome, island: Option<(u32, String)>) -> Result<()> {
    let summary = match outcome {
        RunOutcome::Interrupted {
            dir,
            completed_rounds,
        } => {
            note!("{completed_rounds} round(s) saved.");
            let again = island.map_or_else(
                || format!("checkers-tuner resume {}", dir.display()),
                |(_, again)| again,
            );
            note!("Interrupted: continue with: {again}");
            std::process::exit(INTERRUPTED_STATUS);
        }
        RunOutcome::AlreadyFinished(summary) => {
            let dir = summary.dir.display();
            outln!("Run {dir} already finished; nothing to do.")?;
            summary
        }
        RunOutcome::Finished(summary) => {
            let dir = summary.dir.display();
            match island {
                Some((index, _)) if index > 0 => {
                    outln!("Island {index} finished; island 0 writes the run's files in {dir}")?
                }
                _ => {
                    outln!("Run finished: files in {dir}")?;
                    outln!("  {}", summary.result_files().join(" "))?;
                }
            }
            summary
        }
    };
    if let Some(morning) = &summary.morning {
        return outln!(
            "Chain: {morning}; weights in {} (chain.csv has every link, morning.csv the gate)",
            summary.dir.join(BEST_FILE).display()
        );
    }
    if let Some((id, since, elo)) = summary.champion {
        let playoff = summary.best();
        return outln!(
            "Champion: specimen {id}, accepted by the gate after round {since}, {elo:+.1} Elo \
             over the first champion by its gates (champions.csv); weights in {} (the \
             playoff's winner was specimen {} with {:.1} points: playoff.csv)",
            summary.dir.join(BEST_FILE).display(),
            playoff.id,
            playoff.results.points()
        );
    }
    let best = summary.best();
    outln!(
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
    )?;
    Ok(())
}
