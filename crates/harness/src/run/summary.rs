//! How a run ended: its playoff ranking and where its files are, or where it stopped.

use std::path::{Path, PathBuf};

use super::config::Config;
use crate::run_folder::{
    GatedChampion, CHAMPIONS_DIR, CHECKPOINT_FILE, CONFIG_FILE, INTERIM_DIR, RUN_FILES,
};
use crate::tournament::Standing;

/// A finished run: where its files are and its playoff ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// The run folder.
    pub dir: PathBuf,
    /// The run's name.
    pub name: String,
    /// Rounds played.
    pub rounds: u32,
    /// The playoff ranking, best first (never empty).
    pub standings: Vec<Standing>,
    /// A gated run's champion (`[gate]`): its id, the round after which a gate accepted it,
    /// and its cumulative Elo over the first champion. It, not the playoff's winner, is
    /// `best.json` then.
    pub champion: Option<(u64, u32, f64)>,
    /// A chain's morning (`[chain]`): its fit and gate in a line. The other fields are then
    /// the last link's.
    pub morning: Option<String>,
}

impl RunSummary {
    /// The summary of the run in `top` after `rounds` rounds and its playoff.
    pub(super) fn of(
        top: &Path,
        config: &Config,
        rounds: u32,
        standings: Vec<Standing>,
        champion: Option<&GatedChampion>,
    ) -> RunSummary {
        RunSummary {
            dir: top.to_path_buf(),
            name: config.name.clone(),
            rounds,
            standings,
            champion: champion.map(|c| (c.specimen.id, c.since, c.elo)),
            morning: None,
        }
    }

    /// Rank 1 of the playoff: the run's best specimen.
    pub fn best(&self) -> &Standing {
        &self.standings[0]
    }

    /// The result files in the run folder, in the order docs/run-folder.md lists them (the config and
    /// the checkpoint left out).
    pub fn result_files(&self) -> Vec<&'static str> {
        RUN_FILES
            .into_iter()
            .filter(|&name| name != CONFIG_FILE && name != CHECKPOINT_FILE)
            .filter(|name| self.dir.join(name).exists())
            .chain(
                [(CHAMPIONS_DIR, "champions/"), (INTERIM_DIR, "interim/")]
                    .into_iter()
                    .filter(|(folder, _)| self.dir.join(folder).is_dir())
                    .map(|(_, shown)| shown),
            )
            .collect()
    }
}

/// How a call to [`tune`] or [`resume`] ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunOutcome {
    /// The run completed its rounds and playoff.
    Finished(RunSummary),
    /// `resume` found a run that had already finished; nothing was done.
    AlreadyFinished(RunSummary),
    /// Stopped before the end; `resume` continues it.
    Interrupted {
        /// The run folder.
        dir: PathBuf,
        /// Rounds saved so far.
        completed_rounds: u32,
    },
}
