//! What the inputs' files are: a run folder's positions store or `games.csv` (or its islands'),
//! a data set's shards' stores, and whose store a store must be.

use std::fs;
use std::path::{Path, PathBuf};

use crate::fit::store::StoreIdentity;
use crate::run_folder::{run_identity_of, CONFIG_FILE, GAMES_FILE, POSITIONS_FILE};
use checkers_engine::error::{Error, Result};

/// What a file of the inputs is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Pdn,
    GamesCsv,
    Store,
}

/// The identity the store at `path` must have: its run folder's (`RUN/positions.bin`), or its
/// island's (`RUN/island-N/positions.bin`), from the run folder's `config.toml`; `None` when
/// there is no config to say (a store copied out of its run folder: its blocks are still
/// checked against its own header).
pub(super) fn store_identity_at(path: &Path) -> Option<StoreIdentity> {
    let dir = checkers_engine::atomic_file::parent_dir(path);
    if dir.join(CONFIG_FILE).is_file() {
        return Some(StoreIdentity {
            run: run_identity_of(&dir)?,
            island: u32::MAX,
        });
    }
    let island = dir
        .file_name()?
        .to_str()?
        .strip_prefix("island-")?
        .parse()
        .ok()?;
    let top = checkers_engine::atomic_file::parent_dir(&dir);
    Some(StoreIdentity {
        run: run_identity_of(&top)?,
        island,
    })
}

/// The `games.csv` files of a run folder: its own, or, for an island-model run whose merged
/// file is not written yet, every island's in island order; a positions store in place of
/// each `games.csv` beside one.
pub(super) fn run_folder_games(dir: &Path) -> Result<Vec<PathBuf>> {
    // A `datagen` data set: its shards' stores in order, one data set.
    if let Some(stores) = crate::run_folder::data_set_stores(dir)? {
        return Ok(stores);
    }
    // The positions store holds the same games as `games.csv`, with the searches' scores, and
    // reads without parsing text.
    let store = dir.join(POSITIONS_FILE);
    if store.is_file() {
        return Ok(vec![store]);
    }
    let own = dir.join(GAMES_FILE);
    if own.is_file() {
        return Ok(vec![own]);
    }
    let mut islands: Vec<(u32, PathBuf)> = fs::read_dir(dir)
        .map_err(|e| Error::input(format!("{}: cannot read the folder ({e})", dir.display())))?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let index = name.to_str()?.strip_prefix("island-")?.parse().ok()?;
            let store = entry.path().join(POSITIONS_FILE);
            let games = entry.path().join(GAMES_FILE);
            if store.is_file() {
                return Some((index, store));
            }
            games.is_file().then_some((index, games))
        })
        .collect();
    islands.sort();
    if islands.is_empty() {
        return Err(Error::input(format!(
            "{}: not a run folder (no {GAMES_FILE}); give a run folder or a PDN file",
            dir.display()
        )));
    }
    Ok(islands.into_iter().map(|(_, path)| path).collect())
}
