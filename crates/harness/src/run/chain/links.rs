//! A chain's links: each an ordinary run of the chain's config in its own folder `link-K/`,
//! started or resumed as a run is.

use std::path::Path;

use crate::run::config::Config;
use crate::run::options::RunOptions;
use crate::run::summary::{RunOutcome, RunSummary};
use crate::run_folder::{holds_run, link_dir, CONFIG_FILE};
use checkers_engine::error::{Error, Result};

/// The config of link `link` of the chain `config` in `top`: the chain's config without its
/// `[chain]`, named `<name>-link-K`, with seed `seed + K - 1`, and (with `learn_from_earlier`)
/// every earlier link's store among the stores its fits learn from. Checked as a config file
/// would be, so that each link's `config.toml` is an ordinary run's.
pub fn link_config(config: &Config, top: &Path, link: u32) -> Result<Config> {
    let mut table: toml::Table = toml::from_str(&config.to_toml())
        .map_err(|e| Error::failure(format!("the chain's own config does not read back: {e}")))?;
    table.remove("chain");
    table.insert(
        "name".into(),
        toml::Value::String(format!("{}-link-{link}", config.name)),
    );
    let seed = config.seed + u64::from(link - 1);
    let seed = i64::try_from(seed).map_err(|_| {
        Error::input(format!(
            "`seed` {} with {} links passes the largest seed",
            config.seed, config.chain.links
        ))
    })?;
    table.insert("seed".into(), toml::Value::Integer(seed));
    if config.chain.learn_from_earlier && link > 1 {
        let evolution = table
            .entry("evolution")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(evolution) = evolution else {
            return Err(Error::failure("the chain's `[evolution]` is not a table"));
        };
        let sources = evolution
            .entry("fit_with")
            .or_insert_with(|| toml::Value::Array(Vec::new()));
        let toml::Value::Array(sources) = sources else {
            return Err(Error::failure(
                "the chain's `evolution.fit_with` is not a list",
            ));
        };
        // From the link's own folder, where its config is read from.
        for earlier in 1..link {
            sources.push(toml::Value::String(format!("../link-{earlier}")));
        }
    }
    let text = toml::to_string(&table)
        .map_err(|e| Error::failure(format!("cannot write link {link}'s config: {e}")))?;
    // The earlier links' folders are named from this one's, so it must exist to be read from.
    let dir = link_dir(top, link);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, &e))?;
    Config::from_str_named(&text, dir.join(CONFIG_FILE))
}

/// How a chain plays its links: the entry points of a run (the runner's), handed in so that the
/// chain knows a run only as its callers do.
pub(crate) struct Runs {
    /// Starts the run of a config in a new folder (as `tune` without `--force`).
    pub start: fn(&Config, &Path, bool, &RunOptions) -> Result<RunOutcome>,
    /// Continues the run in a folder, or reports it finished (as `resume`).
    pub resume: fn(&Path, &RunOptions) -> Result<RunOutcome>,
}

/// Starts link `link`, or resumes it when its folder holds a run (a finished one reports so).
pub(super) fn link_outcome(
    top: &Path,
    config: &Config,
    link: u32,
    options: &RunOptions,
    runs: &Runs,
) -> Result<RunOutcome> {
    let dir = link_dir(top, link);
    if holds_run(&dir) {
        (runs.resume)(&dir, options)
    } else {
        (runs.start)(&link_config(config, top, link)?, &dir, false, options)
    }
}

/// The summary of a finished link.
pub(super) fn last_summary(outcome: &RunOutcome) -> Option<&RunSummary> {
    match outcome {
        RunOutcome::Finished(s) | RunOutcome::AlreadyFinished(s) => Some(s),
        RunOutcome::Interrupted { .. } => None,
    }
}
