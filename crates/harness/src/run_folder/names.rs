//! The names of a run folder's files and folders (docs/run-folder.md), and the paths built from
//! them: a run's own files, its gated champions', and a chain's.

use std::path::{Path, PathBuf};

/// The resolved config.
pub const CONFIG_FILE: &str = "config.toml";
/// One row per round.
pub const ROUNDS_FILE: &str = "rounds.csv";
/// One row per survivor per round.
pub const SPECIMENS_FILE: &str = "specimens.csv";
/// One row per game.
pub const GAMES_FILE: &str = "games.csv";
/// Every bracket game as PDN, in the order of `games.csv` (with `tournament.games_pdn`).
pub const GAMES_PDN_FILE: &str = "games.pdn";
/// The final ranking.
pub const PLAYOFF_FILE: &str = "playoff.csv";
/// The best specimen's weights.
pub const BEST_FILE: &str = "best.json";
/// Wall-clock figures per round (the one file that differs between identical runs).
pub const TIMINGS_FILE: &str = "timings.csv";
/// The state after the last completed round.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// The learning curve: validation matches of a round's top survivor.
pub const LEARNING_FILE: &str = "learning.csv";
/// The folder of the pattern weights of a run's fitted specimens (`specimen-<id>.json`).
pub const TABLES_DIR: &str = "tables";
/// The positions store: every game played, compactly, with the searches' scores (what the
/// fits learn from; see `fit::store`).
pub const POSITIONS_FILE: &str = "positions.bin";

/// The gated champion's record (`[gate]`): one row per gate.
pub const CHAMPIONS_FILE: &str = "champions.csv";
/// The folder of every champion a gate accepted (`round-N.json`, N the round it was accepted
/// after): what `export RUN --round N` reads.
pub const CHAMPIONS_DIR: &str = "champions";

/// The file of the champion accepted after `round` in the run folder `top`.
pub fn champion_path(top: &Path, round: u32) -> PathBuf {
    top.join(CHAMPIONS_DIR).join(format!("round-{round}.json"))
}

/// The round of a kept champion's file name `round-N.json`.
pub fn champion_round(name: &str) -> Option<u32> {
    name.strip_prefix("round-")
        .and_then(|n| n.strip_suffix(".json"))
        .and_then(|n| n.parse::<u32>().ok())
}

/// A chain's folder of interim fits (`[chain] interim_fits`): `after-K.json`, the fit of the
/// games of links 1 to K.
pub const INTERIM_DIR: &str = "interim";

/// The interim fit of the chain in `top` after `links` links.
pub fn interim_path(top: &Path, links: u32) -> PathBuf {
    top.join(INTERIM_DIR).join(format!("after-{links}.json"))
}

/// A chain's record of its links (`[chain]`): one row per link.
pub const CHAIN_FILE: &str = "chain.csv";
/// A chain's morning fit of every link's games.
pub const MORNING_FILE: &str = "morning.json";
/// A chain's morning fit and its gate, one row; written last, it marks a finished chain.
pub const MORNING_RESULT_FILE: &str = "morning.csv";

/// A chain's data night (`[chain] data_doublings`): `doubling-K/` (a `datagen` data set),
/// `fit-K.json` (the fit of doublings 1 to K) and `champion-K.json` (the champion after it;
/// `champion-0.json` the one it started from).
pub const DATA_DIR: &str = "data";
/// A chain's data night, a row per doubling; its last row marks a finished chain.
pub const DATA_RESULT_FILE: &str = "data.csv";

/// The data set of doubling `doubling` of the data night of the chain in `top`.
pub fn data_set_dir(top: &Path, doubling: u32) -> PathBuf {
    top.join(DATA_DIR).join(format!("doubling-{doubling}"))
}

/// The fit of the data night's doublings 1 to `doubling`.
pub fn data_fit_path(top: &Path, doubling: u32) -> PathBuf {
    top.join(DATA_DIR).join(format!("fit-{doubling}.json"))
}

/// The data night's champion after doubling `doubling` (0: the one it started from).
pub fn data_champion_path(top: &Path, doubling: u32) -> PathBuf {
    top.join(DATA_DIR).join(format!("champion-{doubling}.json"))
}

/// Every file a run writes: what `--force` removes (the lock excepted: see [`LOCK_FILE`]).
/// The checkpoint comes first so that a half-finished removal never leaves a checkpoint beside
/// missing files.
pub const RUN_FILES: [&str; 16] = [
    CHECKPOINT_FILE,
    CONFIG_FILE,
    ROUNDS_FILE,
    SPECIMENS_FILE,
    GAMES_FILE,
    GAMES_PDN_FILE,
    PLAYOFF_FILE,
    BEST_FILE,
    TIMINGS_FILE,
    LEARNING_FILE,
    POSITIONS_FILE,
    CHAMPIONS_FILE,
    CHAIN_FILE,
    MORNING_FILE,
    MORNING_RESULT_FILE,
    DATA_RESULT_FILE,
];

/// The run folder's lock file (see `run/lock.rs`): created by the first `tune`, never removed.
pub const LOCK_FILE: &str = ".lock";

/// The folder of link `link` (from 1) of the chain in `top`.
pub fn link_dir(top: &Path, link: u32) -> PathBuf {
    top.join(format!("link-{link}"))
}

/// Whether `name` is the folder of a chain's link (`link-K`, `[chain]`).
pub fn is_link_entry(name: &str) -> bool {
    name.strip_prefix("link-")
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}
