//! The pattern evaluator's weights of a run's fitted specimens (`tables/specimen-<id>.json`,
//! docs/run-folder.md): each written once, as a playable weights file, when its fit enters the
//! population. Every specimen that carries those weights (the fitted one and the children that
//! inherit them) names it by the fitted specimen's id (`tables` in `specimens.csv` and the
//! checkpoint), so the tens of thousands of table entries are stored once, not per specimen
//! and round.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::run_folder::TABLES_DIR;
use crate::tournament::Specimen;
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::PatternWeights;
use checkers_engine::game::SearchParams;
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// The file of the fitted specimen `id`'s pattern weights in the run (or island) folder `dir`.
pub fn tables_path(dir: &Path, id: u64) -> PathBuf {
    dir.join(TABLES_DIR).join(format!("specimen-{id}.json"))
}

/// Writes the fitted `specimen`'s weights file into `dir`'s tables folder: the endgame
/// threshold and database of the run's `search`, the run `run` and the round of the fit as its
/// source.
pub fn write_tables(
    dir: &Path,
    specimen: &Specimen,
    run: &str,
    search: &SearchParams,
    round: u32,
) -> Result<()> {
    let folder = dir.join(TABLES_DIR);
    std::fs::create_dir_all(&folder).map_err(|e| Error::io("create", &folder, &e))?;
    let file = WeightsFile {
        weights: specimen.weights,
        extra: specimen.extra.as_deref().copied(),
        patterns: specimen.patterns.clone(),
        endgame_pieces: search.endgame_pieces,
        database_pieces: Some(search.database_pieces),
        search: None,
        source: Some(WeightsSource::Specimen {
            run: run.to_string(),
            id: specimen.id,
            round,
        }),
    };
    write_atomically(&tables_path(dir, specimen.id), file.to_json().as_bytes())
}

/// Reads the kept weights file of specimen `id` of the run `run` (a fitted specimen's tables,
/// or the start's copy) and checks that it says so: a file of another run or specimen put in
/// its place would change the run's games without a word.
pub fn load_kept(dir: &Path, run: &str, id: u64) -> Result<WeightsFile> {
    let path = tables_path(dir, id);
    let file = WeightsFile::load(&path)?;
    match &file.source {
        Some(WeightsSource::Specimen {
            run: theirs,
            id: their_id,
            ..
        }) if theirs == run && *their_id == id => Ok(file),
        other => {
            let holds = other
                .as_ref()
                .map_or_else(|| "no source".to_string(), WeightsSource::describe);
            Err(Error::input(format!(
                "{}: holds the weights of {holds}, not of run {run:?}, specimen {id}; \
                 the file was replaced",
                path.display()
            )))
        }
    }
}

/// Reads the copy of its start weights (`population.start`) that the run `run` kept as its
/// specimen `id`, checked as [`load_kept`]: what a started run goes on from.
pub fn load_start_copy(dir: &Path, run: &str, id: u64) -> Result<WeightsFile> {
    load_kept(dir, run, id).map_err(|e| {
        Error::input(format!(
            "{e}: the run's copy of its start weights (`population.start`), which it goes on \
             from; the run cannot go on without it (put the file back)"
        ))
    })
}

/// Gives every specimen that names a fitted specimen's tables their weights, read from `dir`
/// (each file once), each file checked to be the run `run`'s own ([`load_kept`]).
pub fn attach_tables<'a>(
    dir: &Path,
    run: &str,
    specimens: impl IntoIterator<Item = &'a mut Specimen>,
) -> Result<()> {
    let mut loaded: BTreeMap<u64, Arc<PatternWeights>> = BTreeMap::new();
    for specimen in specimens {
        let Some(id) = specimen.tables else {
            continue;
        };
        let patterns = match loaded.entry(id) {
            std::collections::btree_map::Entry::Occupied(known) => Arc::clone(known.get()),
            std::collections::btree_map::Entry::Vacant(slot) => {
                let path = tables_path(dir, id);
                // A table file missing or changed is the run folder's damage (bad input), not
                // a failure of the program.
                let file = load_kept(dir, run, id).map_err(|e| {
                    Error::input(format!(
                        "specimen {} carries the tables of specimen {id}, which cannot be \
                         read: {e}; the run cannot go on without them (put the file back)",
                        specimen.id
                    ))
                })?;
                let patterns = file.patterns.ok_or_else(|| {
                    Error::input(format!("{}: holds no pattern tables", path.display()))
                })?;
                Arc::clone(slot.insert(patterns))
            }
        };
        specimen.patterns = Some(patterns);
    }
    Ok(())
}
