//! The chain played (docs/chain.md): every link not yet finished, then the morning fit and its
//! gate, then the data night's doublings; a stop request leaves it to resume.

use std::path::Path;

use super::data::{data_night, data_night_finished};
use super::files::{chain_summary, check_finished_chain, write_chain_files};
use super::links::{last_summary, link_outcome, Runs};
use super::morning::{interim_fit, morning, observer};
use crate::run::config::Config;
use crate::run::options::RunOptions;
use crate::run::summary::RunOutcome;
use crate::run_folder::{BEST_FILE, MORNING_RESULT_FILE};
use checkers_engine::error::Result;
use checkers_engine::weights_file::WeightsFile;

/// Plays the chain `config` in its folder `top` (which holds its `config.toml` and is locked
/// by the caller) with `runs`: every link not yet finished, then the morning fit and its
/// gate. A stop request ends it as [`RunOutcome::Interrupted`] with `top` to resume.
pub(crate) fn run_chain(
    top: &Path,
    config: &Config,
    options: &RunOptions,
    runs: &Runs,
) -> Result<RunOutcome> {
    let data_night_planned = config.chain.data_doublings > 0;
    let morning_done = std::fs::symlink_metadata(top.join(MORNING_RESULT_FILE)).is_ok();
    if morning_done && (!data_night_planned || data_night_finished(top, config)?) {
        check_finished_chain(top, config)?;
        let last = link_outcome(top, config, config.chain.links, options, runs)?;
        let summary = last_summary(&last).cloned();
        return Ok(RunOutcome::AlreadyFinished(chain_summary(
            top, config, summary,
        )?));
    }
    let all_links = config.chain.links * config.tournament.rounds;
    let mut links = Vec::new();
    for link in 1..=config.chain.links {
        let outcome = link_outcome(top, config, link, options, runs)?;
        match outcome {
            RunOutcome::Interrupted {
                completed_rounds, ..
            } => {
                return Ok(RunOutcome::Interrupted {
                    dir: top.to_path_buf(),
                    completed_rounds: (link - 1) * config.tournament.rounds + completed_rounds,
                });
            }
            RunOutcome::Finished(summary) | RunOutcome::AlreadyFinished(summary) => {
                links.push(summary);
            }
        }
        if config.chain.interim_fits.contains(&link) && !interim_fit(top, config, options, &links)?
        {
            return Ok(RunOutcome::Interrupted {
                dir: top.to_path_buf(),
                completed_rounds: link * config.tournament.rounds,
            });
        }
    }
    let interrupted = || RunOutcome::Interrupted {
        dir: top.to_path_buf(),
        completed_rounds: all_links,
    };
    if !morning_done {
        let observer = observer(options);
        let Some(morning) = morning(config, options, &links, observer.as_ref())? else {
            return Ok(interrupted());
        };
        write_chain_files(top, config, &links, &morning)?;
    }
    if data_night_planned {
        // The morning's champion, which the night starts from, is `best.json` until the
        // night's last doubling replaces it (and `data/champion-0.json` once the night began).
        let start = WeightsFile::load(&top.join(BEST_FILE))?;
        if data_night(top, config, options, &links, &start)?.is_none() {
            return Ok(interrupted());
        }
    }
    let last = links.pop().expect("a chain has links");
    Ok(RunOutcome::Finished(chain_summary(
        top,
        config,
        Some(last),
    )?))
}
