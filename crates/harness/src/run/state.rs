//! Where a run (or an island) stands between rounds: the state a checkpoint saves, made for
//! round 1 or read back from the checkpoint after cutting what a killed process wrote after it.

use std::path::Path;

use super::checkpoint::{Champion, Checkpoint, Member};
use super::config::{accept_edits, playoff_started, Config};
use super::fits::{check_store, cut_store};
use super::islands::Island;
use super::summary::RunSummary;
use crate::fit::{start_store, StoreIdentity};
use crate::run_folder::{
    attach_tables, cut_champions, cut_recorded, load_start_copy, refuse_irregular_files,
    start_champions, start_files, write_tables, FileLengths, GatedChampion, CHECKPOINT_FILE,
    CONFIG_FILE,
};
use crate::tournament::{draw_fresh_genes, initial_population, FreshSource, Specimen};
use checkers_engine::error::{Error, Result};
use checkers_engine::weights_file::WeightsFile;

/// Where a run stands between rounds.
pub(super) struct State {
    /// Rounds completed.
    pub(super) completed: u32,
    pub(super) next_id: u64,
    /// The next round's population in id order; after the last round, the finalists.
    pub(super) population: Vec<Member>,
    pub(super) files: FileLengths,
    /// The best validated specimen so far, if validation keeps one.
    pub(super) champion: Option<Champion>,
    /// The gated champion (`[gate]`), once a gate crowned one.
    pub(super) gated: Option<GatedChampion>,
    /// What the process is told when it takes the run on: the keys of `config.toml` changed
    /// since the checkpoint (see `config/edits.rs`).
    pub(super) notes: Vec<String>,
    /// The specimen fresh specimens are drawn around (`population.start`), if any.
    pub(super) start: Option<Specimen>,
}

/// A run (or an island) found ready to go on, or found finished.
pub(super) enum Opened {
    /// Ready for its next round (or its playoff).
    Ready(Box<State>),
    /// Its playoff is saved.
    Finished(RunSummary),
}

impl State {
    /// The state before round 1: a population drawn from the run's seed (an island's own, its
    /// ids from the island's block on).
    fn initial(
        config: &Config,
        files: FileLengths,
        island: Option<Island>,
        start: Option<Specimen>,
    ) -> State {
        let seed = island.map_or(config.seed, |island| island.seed(config.seed));
        let first_id = island.map_or(0, |island| config.island_ids(island.index).start);
        let size = config.population.size;
        let fresh = FreshSource {
            space: &config.weights,
            start: start.as_ref(),
        };
        let mut specimens = initial_population(size, fresh, seed);
        for specimen in &mut specimens {
            specimen.id += first_id;
        }
        // Keyed by the ids, so drawn once they are the island's.
        let genes = &config.search.genes;
        draw_fresh_genes(genes, &mut specimens, config.gene_base(), seed);
        let population = specimens.into_iter().map(Member::fresh).collect();
        State {
            completed: 0,
            next_id: first_id + size as u64,
            population,
            files,
            champion: None,
            gated: None,
            notes: Vec::new(),
            start,
        }
    }

    /// The state of the run (or island) whose files are in `dir` and whose run folder is
    /// `top`: from its checkpoint, after cutting what a killed process wrote after it, or the
    /// initial one when it has none. A checkpoint of another config than `text` is refused,
    /// unless only keys that may still change differ (see `config/edits.rs`).
    pub(super) fn open(
        top: &Path,
        dir: &Path,
        config: &Config,
        text: &str,
        island: Option<Island>,
    ) -> Result<Opened> {
        let games_pdn = config.tournament.games_pdn;
        refuse_irregular_files(dir)?;
        let Some(checkpoint) = Checkpoint::load(dir)? else {
            let lengths = start_files(dir, games_pdn, config.specimen_columns())?;
            start_store(dir, StoreIdentity::new(text, island.map(|i| i.index)))?;
            if config.gate.is_on() {
                start_champions(dir)?;
            }
            let start = start_specimen(top, config, island, Begin::Fresh)?;
            return Ok(Opened::Ready(Box::new(State::initial(
                config, lengths, island, start,
            ))));
        };
        let mut notes = Vec::new();
        if checkpoint.config != text {
            let started = playoff_started(checkpoint.playoff.is_some(), top, config.islands.count);
            let place = dir.join(CHECKPOINT_FILE);
            notes = accept_edits(&checkpoint.config, text, started, &place).map_err(|e| {
                Error::input(match island {
                    None => format!("{}: {e}", dir.join(CONFIG_FILE).display()),
                    Some(island) => format!(
                        "{}: island {} was started with another config: {e}; every island of \
                         a run must go on with the same config",
                        place.display(),
                        island.index
                    ),
                })
            })?;
        }
        checkpoint.check(config, dir, island.map(|island| island.index))?;
        let completed = checkpoint.completed_rounds;
        if let Some(standings) = checkpoint.playoff {
            let gated = checkpoint.gated.as_ref();
            let summary = RunSummary::of(top, config, completed, standings, gated);
            return Ok(Opened::Finished(summary));
        }
        // Everything is read and checked before anything is cut: a refusal leaves the folder
        // as it was.
        let identity = StoreIdentity::new(text, island.map(|i| i.index));
        let store = check_store(dir, identity, completed, &checkpoint.files)?;
        let mut population = checkpoint.population;
        let mut champion = checkpoint.champion;
        let mut gated = checkpoint.gated;
        // An island's specimens may carry any island's fitted tables: all are at the top.
        attach_tables(
            top,
            &config.name,
            population
                .iter_mut()
                .map(|m| &mut m.specimen)
                .chain(champion.iter_mut().map(|c| &mut c.specimen))
                .chain(gated.iter_mut().map(|c| &mut c.specimen)),
        )?;
        cut_recorded(
            dir,
            &checkpoint.files,
            completed,
            games_pdn,
            config.specimen_columns(),
        )?;
        cut_store(dir, store)?;
        if config.gate.is_on() {
            cut_champions(
                dir,
                completed,
                gated.as_ref(),
                checkpoint.champions.as_ref(),
            )?;
        }
        let start = start_specimen(top, config, island, Begin::Resumed)?;
        Ok(Opened::Ready(Box::new(State {
            completed,
            next_id: checkpoint.next_id,
            population,
            files: checkpoint.files,
            champion,
            gated,
            notes,
            start,
        })))
    }
}

/// Whether a run (or island) is starting or going on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Begin {
    Fresh,
    Resumed,
}

/// The start specimen of a run with `population.start`: the first id of the run (or island),
/// carrying the start file's weights. A starting run copies the file into its tables folder
/// (`tables/specimen-<id>.json`, as a fitted specimen's tables are kept); a resumed one reads
/// that copy, so the run goes on from what it started with even if the file changed since.
fn start_specimen(
    top: &Path,
    config: &Config,
    island: Option<Island>,
    begin: Begin,
) -> Result<Option<Specimen>> {
    let Some(path) = &config.population.start else {
        return Ok(None);
    };
    let id = island.map_or(0, |island| config.island_ids(island.index).start);
    let file = match begin {
        Begin::Fresh => WeightsFile::load(path)?,
        Begin::Resumed => load_start_copy(top, &config.name, id)?,
    };
    let start = Specimen {
        id,
        weights: file.weights,
        extra: file.extra.map(Box::new),
        tables: file.patterns.is_some().then_some(id),
        patterns: file.patterns,
        parent_a: None,
        parent_b: None,
        born_round: 0,
        fitted: false,
        search: None,
    };
    if begin == Begin::Fresh {
        write_tables(top, &start, &config.name, &config.search, 0)?;
    }
    Ok(Some(start))
}

/// The round of `id`'s last row in `specimens.csv` once the rounds are over: the last round,
/// or the round in which the champion last survived if it came back for the playoff.
pub(super) fn source_round(state: &State, id: u64) -> u32 {
    state
        .champion
        .as_ref()
        .filter(|c| c.specimen.id == id)
        .map_or(state.completed, |c| c.round)
}
