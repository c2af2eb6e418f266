//! The main job (docs/tournament.md): rounds of single elimination with newcomers after each, a
//! round-robin playoff of the final survivors, the run folder's files, checkpoints, and resuming.
//!
//! Determinism: every draw comes from a stream keyed by where it is made (the bracket's
//! shuffles, each pair's opening, each game's tie-breaks, breeding, the playoff's openings), and
//! results are collected in a fixed order, so the files do not depend on the thread count.
//! Crash safety: a round's rows are appended and flushed, then the checkpoint recording the new
//! file lengths is renamed into place. A process killed at any moment leaves either the old
//! checkpoint (and `resume` cuts the files back to it and replays the round, which gives the same
//! rows again) or the new one.
//!
//! Islands (`[islands] count > 1`): each island is this same run in its own folder `island-I/`
//! with its own seed and ids, plus the exchanges of `islands/` between its rounds. A round is
//! split in two for them: the play (bracket, validation) and, once the neighbour's migrants are
//! in, the finish (newcomers, rows, checkpoint). One process runs every island in step, or one
//! process runs one island; both do the same steps on the same files, so the files agree.

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use super::config::{refused_config, Config};
use super::fits::check_sources;
use super::islands::{islands_playoff, prepare_island_folder, Island, DEFAULT_WAIT};
use super::lock::RunLock;
use super::options::RunOptions;
use super::process::{IslandPart, Run};
use super::rounds::{behind, play_rounds};
use super::state::{Opened, State};
use super::summary::RunOutcome;
use crate::run_folder::{
    holds_run, island_dir, refuse_irregular_files, remove_island_temporaries, CONFIG_FILE,
};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};

/// Starts the run `config` in folder `out`.
///
/// A folder that already holds a run is refused unless `force` is set, in which case its run
/// files (and only those) are deleted first; a non-empty folder that is not a run folder, and
/// a folder in use by another run, are refused. Validate the config (with [`Config::load`])
/// before calling this: nothing is created for a config that fails.
///
/// With `[islands] count` above 1, every island runs in this process, in step, on one pool of
/// threads: the reference for the same islands run as separate processes ([`tune_island`]).
pub fn tune(config: &Config, out: &Path, force: bool, options: &RunOptions) -> Result<RunOutcome> {
    refuse_own_store(config, out)?;
    // Held until the run returns; refuses folders in use, foreign folders, existing runs.
    let _lock = RunLock::for_new_run(out, force)?;
    let text = config.to_toml();
    write_atomically(&out.join(CONFIG_FILE), text.as_bytes())?;
    // The folder holds no checkpoint now, so the run starts from round 1.
    start_or_continue(out, config, &text, options)
}

/// Refuses a run whose `[evolution] fit_with` names a store in its own folder `out` (its own
/// store, or an island's): the run starts that store anew, so its fits would find it gone or
/// changed. Checked before anything is written.
fn refuse_own_store(config: &Config, out: &Path) -> Result<()> {
    let Ok(own) = std::fs::canonicalize(out) else {
        // A folder that does not exist yet holds no store.
        return Ok(());
    };
    for source in &config.evolution.fit_with {
        let store = std::fs::canonicalize(&source.store).unwrap_or_else(|_| source.store.clone());
        if store.starts_with(&own) {
            return Err(Error::input(format!(
                "`evolution.fit_with`: {} is in this run's own folder {}: a run cannot learn \
                 from the store it writes (name an earlier run's folder, or give this run \
                 another one with --out)",
                source.store.display(),
                out.display()
            )));
        }
    }
    Ok(())
}

/// Runs one island of an island-model run in this process (docs/islands.md): the
/// other islands are other processes, on this machine or others, sharing the run folder `out`.
///
/// The first call for an island starts it; the same call again (a requeued job, a restarted
/// pod) resumes it from its checkpoint in `out/island-I/`. Every island writes its migrants and
/// waits for its neighbour's (at most `options.island_timeout`); island 0 writes the merged
/// files at the top of `out` at the end. The files are those [`tune`] writes for the same
/// config.
pub fn tune_island(
    config: &Config,
    out: &Path,
    island: Island,
    options: &RunOptions,
) -> Result<RunOutcome> {
    refuse_own_store(config, out)?;
    let text = config.to_toml();
    prepare_island_folder(out, &text)?;
    run_islands(out, config, &text, options, Some(island))
}

/// Continues the run in `dir` from its last completed round (or its playoff), cutting the rows a
/// killed process wrote after its checkpoint. A run that never completed a round starts over
/// from round 1; a finished run is reported as such. A `config.toml` that fails the check, or
/// that changed since the checkpoint in a key that may not change, is refused with what to do
/// (see `config/edits.rs`).
pub fn resume(dir: &Path, options: &RunOptions) -> Result<RunOutcome> {
    if !dir.is_dir() {
        return Err(Error::input(format!(
            "{}: no such run folder",
            dir.display()
        )));
    }
    let config_path = dir.join(CONFIG_FILE);
    if !config_path.is_file() || !holds_run(dir) {
        return Err(Error::input(format!(
            "{} is not a run folder: it has no {CONFIG_FILE} written by a run (start a run \
             with `checkers-tuner tune CONFIG --out {}`)",
            dir.display(),
            dir.display()
        )));
    }
    // Before its config is read: an island run's top folder is not one `State::open` checks.
    refuse_irregular_files(dir)?;
    // Held until the run returns: no other `tune` or `resume` meanwhile.
    let _lock = RunLock::acquire(dir)?;
    let config = Config::load_keyed(&config_path).map_err(|e| refused_config(dir, &e))?;
    start_or_continue(dir, &config, &config.to_toml(), options)
}

/// Starts the run in `dir` whose resolved config is `text`, or continues it from its
/// checkpoint (every island of it, in step, with islands).
fn start_or_continue(
    dir: &Path,
    config: &Config,
    text: &str,
    options: &RunOptions,
) -> Result<RunOutcome> {
    // Before any game: a store the fits learn from that has gone would stop the first fit.
    check_sources(&config.evolution.fit_with)?;
    if !config.chain.is_single() {
        let runs = super::chain::Runs {
            start: tune,
            resume,
        };
        return super::chain::run_chain(dir, config, options, &runs);
    }
    if !config.islands.is_single() {
        return run_islands(dir, config, text, options, None);
    }
    match State::open(dir, dir, config, text, None)? {
        Opened::Finished(summary) => Ok(RunOutcome::AlreadyFinished(summary)),
        Opened::Ready(state) => {
            let run = Run::new(dir, config, text, options, &state, None)?;
            play_to_the_end(vec![(run, *state)], options)
        }
    }
}

/// Runs (or resumes) in this process every island of the run in `top`, in step, or only `one`
/// whose neighbours are other processes. Each island is locked in `top/island-I/` (created if
/// needed), then started, or resumed from its checkpoint after cutting what a killed process
/// wrote after it.
fn run_islands(
    top: &Path,
    config: &Config,
    text: &str,
    options: &RunOptions,
    one: Option<Island>,
) -> Result<RunOutcome> {
    let mut live = Vec::new();
    // Held until the run returns: no other process works on these islands meanwhile.
    let mut locks = Vec::new();
    let mut finished = None;
    let in_step = one.is_none();
    let all = Island::all(config.islands.count);
    for island in one.map_or_else(|| all.collect(), |island| vec![island]) {
        let dir = island_dir(top, island.index);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, &e))?;
        let lock = RunLock::acquire(&dir)?;
        remove_island_temporaries(top, island.index, config.island_ids(island.index))?;
        let state = match State::open(top, &dir, config, text, Some(island))? {
            Opened::Ready(state) => *state,
            Opened::Finished(summary) => {
                finished = finished.or(Some(summary));
                continue;
            }
        };
        let part = IslandPart {
            island,
            top,
            wait: options.island_timeout.unwrap_or(DEFAULT_WAIT),
            opened: Instant::now(),
            exchanging: AtomicU64::new(0),
            pooled_bytes: AtomicU64::new(0),
            in_step,
        };
        let run = Run::new(&dir, config, text, options, &state, Some(part))?;
        live.push((run, state));
        locks.push(lock);
    }
    match finished {
        Some(summary) if live.is_empty() => Ok(RunOutcome::AlreadyFinished(summary)),
        _ => play_to_the_end(live, options),
    }
}

/// Plays the rounds left of `live` (a run, or islands of one) and its playoff on a pool of
/// worker threads of its own.
fn play_to_the_end(mut live: Vec<(Run, State)>, options: &RunOptions) -> Result<RunOutcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build();
    let pool = pool.map_err(|e| Error::failure(format!("cannot start the worker threads: {e}")))?;
    pool.install(|| {
        let summary = if !play_rounds(&mut live)? {
            None
        } else if live[0].0.island.is_none() {
            let (run, state) = &mut live[0];
            run.playoff(state)?
        } else {
            islands_playoff(&mut live)?
        };
        Ok(match summary {
            Some(summary) => RunOutcome::Finished(summary),
            None => RunOutcome::Interrupted {
                dir: live[0].0.top().to_path_buf(),
                completed_rounds: behind(&live),
            },
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_folder::{CHECKPOINT_FILE, GAMES_FILE};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    fn tiny_config(dir: &Path) -> Config {
        let text = "name = \"unit\"\nseed = 2\n[population]\nsize = 6\n\
                    [tournament]\nrounds = 2\nopenings = \"start\"\nmax_plies = 30\n\
                    playoff_openings = 2\n[search]\nmin_depth = 1\nmax_depth = 2\ndatabase_pieces = 0\n";
        Config::from_str_named(text, dir.join("unit.toml")).unwrap()
    }

    #[test]
    fn a_stop_request_drops_the_round_in_progress_and_resume_finishes() {
        let dir = tempfile::tempdir().unwrap();
        let config = tiny_config(dir.path());
        let out = dir.path().join("run");
        let flag = Arc::new(AtomicBool::new(true));
        let options = RunOptions {
            threads: 1,
            stop: Some(Arc::clone(&flag)),
            ..RunOptions::default()
        };
        let outcome = tune(&config, &out, false, &options).unwrap();
        assert_eq!(
            outcome,
            RunOutcome::Interrupted {
                dir: out.clone(),
                completed_rounds: 0
            }
        );
        assert!(!out.join(CHECKPOINT_FILE).exists());
        // Only the header: the stopped round wrote nothing.
        let games = std::fs::read_to_string(out.join(GAMES_FILE)).unwrap();
        assert_eq!(games.lines().count(), 1);

        flag.store(false, Ordering::Relaxed);
        let RunOutcome::Finished(summary) = resume(&out, &options).unwrap() else {
            panic!("the resumed run should finish");
        };
        assert_eq!(summary.rounds, 2);
        assert_eq!(summary.name, "unit");
        // The start position alone gives one playoff opening: 2 games per pair.
        let n = summary.standings.len() as u64;
        assert_eq!(summary.best().results.games(), 2 * (n - 1));
        assert!(matches!(
            resume(&out, &options).unwrap(),
            RunOutcome::AlreadyFinished(s) if s == summary
        ));

        // A changed config is refused rather than continued.
        let path = out.join(CONFIG_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("seed = 2", "seed = 3")).unwrap();
        let err = resume(&out, &options).unwrap_err();
        assert!(err.to_string().contains("changed"), "{err}");
    }
}
