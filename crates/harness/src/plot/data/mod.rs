//! The run's data as the picture needs it: `rounds.csv`, `specimens.csv` and `learning.csv`
//! read by column name, each value checked, and values beyond a panel's scale clamped with a
//! note saying so.

mod champions;
mod fields;
mod learning;
mod rounds;
mod specimens;

use std::path::Path;

use crate::run_folder::{
    read_config_table, CHAMPIONS_FILE, LEARNING_FILE, ROUNDS_FILE, SPECIMENS_FILE,
};
use checkers_engine::error::Error;

use champions::{read_champion_weights, read_champions};
pub(crate) use fields::{parse_count, Clamped, MAX_ELO};
use learning::read_learning;
use rounds::read_rounds;
use specimens::read_best;

pub(crate) use champions::Climb;
#[cfg(doc)]
pub(crate) use champions::GateMark;
pub(crate) use learning::Validation;
pub(crate) use rounds::RoundStats;
#[cfg(doc)]
pub(crate) use rounds::OUTCOME_COLUMNS;
pub(crate) use specimens::Best;

/// Whether `run_dir` is a folder, before anything in it is read.
pub(crate) fn check_run_dir(run_dir: &Path) -> Result<(), Error> {
    if run_dir.is_dir() {
        return Ok(());
    }
    Err(Error::input(format!(
        "run folder {} does not exist or is not a folder",
        run_dir.display()
    )))
}

#[derive(Debug)]
pub(crate) struct RunData {
    pub(crate) name: String,
    pub(crate) rounds: Vec<RoundStats>,
    /// One entry per round that has survivors, sorted by round.
    pub(crate) best: Vec<Best>,
    /// The learning curve, sorted by round (empty without `learning.csv`).
    pub(crate) learning: Vec<Validation>,
    /// The gated champion's climb (empty without `champions.csv`).
    pub(crate) climb: Climb,
    /// A gated run's champions as `champions/round-N.json` holds them, one per accepted round
    /// (`round`: the round after which it was accepted), sorted by round; the weights panels
    /// draw these instead of the best survivors. Empty without a gate.
    pub(crate) champions: Vec<Best>,
    /// An extended run's tables: the last champion's in a gated run, otherwise the last
    /// round's best survivor's.
    pub(crate) tables: Option<super::heat_maps::Tables>,
    /// What the picture shows otherwise than the files say: values drawn at the edge of
    /// their scale (see [`Clamped`]).
    pub(crate) notes: Vec<String>,
}

pub(crate) fn read_run(run_dir: &Path) -> Result<RunData, Error> {
    let learning_path = run_dir.join(LEARNING_FILE);
    let mut clamped = Clamped::default();
    let best = read_best(&run_dir.join(SPECIMENS_FILE), &mut clamped)?;
    let rounds = read_rounds(&run_dir.join(ROUNDS_FILE), &mut clamped)?;
    let learning = if learning_path.exists() {
        read_learning(&learning_path, &mut clamped)?
    } else {
        Vec::new()
    };
    let champions_path = run_dir.join(CHAMPIONS_FILE);
    let climb = if champions_path.exists() {
        read_champions(&champions_path, &mut clamped)?
    } else {
        Climb::default()
    };
    let mut notes = clamped.notes();
    let champions = read_champion_weights(run_dir, &climb.accepted_rounds, &mut notes)?;
    // A gated run's tables are its champion's, as `best.json` holds them.
    let tables = match champions.last() {
        Some(champion) => Some((champion, true)),
        None => best.last().map(|b| (b, false)),
    }
    .filter(|(b, _)| !b.extra[0].is_empty())
    .map(|(b, champion)| super::heat_maps::Tables {
        round: b.round,
        id: b.id,
        champion,
        sets: b.extra.clone(),
    });
    Ok(RunData {
        name: run_name(run_dir)?,
        rounds,
        best,
        learning,
        climb,
        champions,
        tables,
        notes,
    })
}

/// The top-level `name` of the folder's `config.toml`, else the folder's name (a run's, or a
/// chain's top folder's: its `config.toml` names the chain).
pub(crate) fn run_name(run_dir: &Path) -> Result<String, Error> {
    let folder_name = || {
        run_dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| run_dir.display().to_string())
    };
    Ok(read_config_table(run_dir)?
        .and_then(|table| table.get("name")?.as_str().map(str::to_owned))
        .unwrap_or_else(folder_name))
}
