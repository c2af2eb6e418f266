//! `checkpoint.json`: everything a run needs to continue after its last completed round.
//!
//! The checkpoint is the only record of progress. It is written atomically after the round's
//! rows are on disk, and it holds the byte length of every appended file at that moment, so
//! that `resume` can cut away whatever a killed process wrote after it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::config::Config;
use crate::run_folder::{
    check_champions, check_recorded, FileLengths, FileProof, GatedChampion, BEST_FILE,
    CHECKPOINT_FILE, PLAYOFF_FILE,
};
use crate::tournament::{Specimen, Standing};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::OpeningsSource;
use checkers_engine::input_file::{self, Links, DECK_CAP};
use checkers_engine::text::{fingerprint, strip_bom};
use checkers_engine::weights_file::WeightsFile;

/// The checkpoint format; a different number is refused rather than misread.
pub const CHECKPOINT_FORMAT: u32 = 1;

/// A member of the population between rounds: the specimen and how many rounds it survived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The specimen: id, weights, lineage.
    pub specimen: Specimen,
    /// Rounds it was among the survivors, counted over the whole run.
    pub rounds_survived: u32,
}

impl Member {
    /// A specimen new to the population (a newcomer, an immigrant, a returning champion).
    pub fn fresh(specimen: Specimen) -> Member {
        Member {
            specimen,
            rounds_survived: 0,
        }
    }
}

/// The state of a run after its last completed round (or after its playoff).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// [`CHECKPOINT_FORMAT`] at the time of writing.
    pub format: u32,
    /// The resolved config (`Config::to_toml`) the run was started with; `resume` refuses a
    /// `config.toml` that no longer resolves to it.
    pub config: String,
    /// Rounds completed, from 1.
    pub completed_rounds: u32,
    /// The next unused specimen id.
    pub next_id: u64,
    /// The population of the next round in id order; after the last round, the finalists.
    pub population: Vec<Member>,
    /// Byte length of each counted file (`rounds.csv`, `specimens.csv`, `games.csv`) when the
    /// checkpoint was written.
    pub files: FileLengths,
    /// The playoff ranking, once the playoff is done and `playoff.csv` and `best.json` exist.
    pub playoff: Option<Vec<Standing>>,
    /// The best validated specimen so far (with `validation.keep_champion`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<Champion>,
    /// The gated champion (`[gate]`), once a gate crowned one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gated: Option<GatedChampion>,
    /// The fingerprint of the openings file's contents when `tournament.openings` names a file
    /// (see [`openings_fingerprint`]): `resume` refuses a file edited since. Absent for the
    /// other sources, and in checkpoints written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// `champions.csv` (`[gate]`) as the run left it at this checkpoint: `resume` refuses a
    /// file cut short, edited or replaced since (docs/run-folder.md). Absent without a gate,
    /// and in checkpoints written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champions: Option<FileProof>,
}

/// The fingerprint of the run's openings file, when its openings come from a file.
pub fn openings_fingerprint(config: &Config) -> Result<Option<String>> {
    match &config.tournament.openings {
        OpeningsSource::File(path) => {
            let bytes = input_file::read(path, Links::Follow, Some(DECK_CAP))
                .map_err(|e| Error::input(format!("openings file {}: {e}", path.display())))?;
            Ok(Some(fingerprint(&bytes)))
        }
        _ => Ok(None),
    }
}

/// The specimen with the best validation score so far: it re-enters every round's population
/// and the playoff, so that a strong specimen eliminated by one unlucky game is not lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Champion {
    /// The specimen.
    pub specimen: Specimen,
    /// Twice its validation points against the validation opponent.
    pub half_points: u64,
    /// The last round it was among the survivors (its last row in `specimens.csv`).
    pub round: u32,
}

impl Checkpoint {
    /// Writes the checkpoint into `dir` atomically.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::failure(format!("cannot encode the checkpoint: {e}")))?;
        text.push('\n');
        write_atomically(&dir.join(CHECKPOINT_FILE), text.as_bytes())
    }

    /// Reads the checkpoint of `dir`, `None` if the run has none yet (it stopped before the end
    /// of its first round).
    pub fn load(dir: &Path) -> Result<Option<Checkpoint>> {
        let path = dir.join(CHECKPOINT_FILE);
        let Some(bytes) = input_file::read_existing(&path, Links::Refuse, None)? else {
            return Ok(None);
        };
        let checkpoint: Checkpoint = std::str::from_utf8(&bytes)
            .map_err(|e| format!("not UTF-8 text: {e}"))
            .and_then(|text| serde_json::from_str(strip_bom(text)).map_err(|e| e.to_string()))
            .map_err(|e| {
                let path = path.display();
                Error::input(format!("{path}: not a checkpoint of this program ({e})"))
            })?;
        if checkpoint.format != CHECKPOINT_FORMAT {
            return Err(Error::input(format!(
                "{}: checkpoint format {} is not the supported format {CHECKPOINT_FORMAT}",
                path.display(),
                checkpoint.format
            )));
        }
        Ok(Some(checkpoint))
    }

    /// Checks the checkpoint of the run folder `dir` against its config (already known to be
    /// the one the run started with) and its files, without changing anything:
    ///
    /// - `completed_rounds` is between 1 and the config's rounds, and a playoff is recorded
    ///   only after the last round;
    /// - the recorded file lengths fit the files (see [`check_recorded`]);
    /// - the population has the config's size (after the last round: the last round's
    ///   survivors), ids strictly increasing and below `next_id`, weights (and search genes)
    ///   within the config's ranges, and lineage no later than the rounds played;
    /// - an openings file has the contents the run started with;
    /// - a playoff ranks exactly the finalists, 1 to N, with consistent scores, and the finished
    ///   run still has its `playoff.csv` and a `best.json` of the rank-1 specimen.
    ///
    /// Anything else is bad input naming what is wrong: the run cannot continue identically.
    ///
    /// An island's checkpoint (`island` is its index) has its own block of ids
    /// ([`Config::island_ids`]) and may hold migrants from the others' blocks; its finished
    /// playoff ranks the finalists of all islands, and the run's top folder, not the island's,
    /// holds `playoff.csv` and `best.json`, so those are left to the caller.
    pub fn check(&self, config: &Config, dir: &Path, island: Option<u32>) -> Result<()> {
        let path = dir.join(CHECKPOINT_FILE);
        let bad = |problem: String| {
            Error::input(format!(
                "{}: {problem}; the checkpoint was damaged, so the run cannot be resumed \
                 (start again with `tune --force`)",
                path.display()
            ))
        };
        let rounds = config.tournament.rounds;
        let done = self.completed_rounds;
        if done == 0 || done > rounds {
            return Err(bad(format!(
                "`completed_rounds` is {done}, expected 1 to {rounds} (the config's rounds)"
            )));
        }
        if self.playoff.is_some() && done < rounds {
            return Err(bad(format!(
                "it records a playoff after round {done}, but the run has {rounds} rounds"
            )));
        }
        // The config is the one the run started with, so a recorded fingerprint means a file.
        if self.openings.is_some() && openings_fingerprint(config)? != self.openings {
            return Err(Error::input(format!(
                "{}: the openings file was changed since the run started, so the rounds left \
                 would not continue the same run; put back the original or start a new run",
                config.tournament.openings
            )));
        }
        let recorded = check_recorded(
            dir,
            &self.files,
            done,
            config.tournament.games_pdn,
            config.specimen_columns(),
        )?;
        if config.gate.is_on() && island.is_none() {
            check_champions(
                dir,
                &config.name,
                done,
                self.gated.as_ref(),
                self.champions.as_ref(),
            )?;
        }

        // The population.
        let size = config.population.size;
        let count = self.population.len();
        if done < rounds {
            if count != size {
                return Err(bad(format!(
                    "`population` has {count} specimens, but the config's population.size is \
                     {size}"
                )));
            }
        } else {
            // The champion joins the finalists when it is not among the survivors, and so does
            // the final fit of a run with fitted specimens.
            let survivors = recorded.last_survivors;
            let with_extras = survivors
                + u64::from(self.champion.is_some())
                + u64::from(config.evolution.fit_every > 0);
            if !(survivors..=with_extras).contains(&(count as u64)) {
                return Err(bad(format!(
                    "`population` has {count} finalists, but round {done} had {survivors} \
                     survivors"
                )));
            }
        }
        let own = config.island_ids(island.unwrap_or(0));
        let all_ids = config.island_ids(0).start..config.island_ids(config.islands.count).start;
        let max_next_id = own
            .start
            .saturating_add((size as u64).saturating_mul(u64::from(done) + 1));
        if self.next_id > max_next_id || self.next_id < own.start {
            return Err(bad(format!(
                "`next_id` is {}, more than {max_next_id} specimens can exist after round {done}",
                self.next_id
            )));
        }
        let mut previous: Option<u64> = None;
        for (k, member) in self.population.iter().enumerate() {
            let s = &member.specimen;
            let what = format!("`population` item {} (id {})", k + 1, s.id);
            if previous.is_some_and(|id| s.id <= id) {
                let problem = if previous == Some(s.id) {
                    "repeats the id before it"
                } else {
                    "is out of id order"
                };
                return Err(bad(format!("{what} {problem}")));
            }
            previous = Some(s.id);
            let migrant = island.is_some() && !own.contains(&s.id) && all_ids.contains(&s.id);
            if s.id >= self.next_id && !migrant {
                return Err(bad(format!(
                    "{what}: the id is not below `next_id` ({})",
                    self.next_id
                )));
            }
            if let Some((key, value, range)) = config.weights.outside(&s.weights) {
                return Err(bad(format!(
                    "{what}: weight {key} = {value} is outside the config's range {}..={}",
                    range.min, range.max
                )));
            }
            let genes = &config.search.genes;
            if let Some(problem) = genes.problem(s.search.as_ref(), config.search.selective()) {
                return Err(bad(format!("{what} {problem}")));
            }
            if s.born_round > done + 1 || member.rounds_survived > done {
                return Err(bad(format!(
                    "{what}: born in round {} and survived {} round(s), after {done} round(s)",
                    s.born_round, member.rounds_survived
                )));
            }
        }

        // The playoff and the files of a finished run; not an island's, whose playoff ranks every
        // island's finalists and whose files are in the top folder.
        let (Some(standings), None) = (&self.playoff, island) else {
            return Ok(());
        };
        if standings.len() != count {
            return Err(bad(format!(
                "the playoff ranks {} specimens, but there are {count} finalists",
                standings.len()
            )));
        }
        let mut ranked: Vec<u64> = standings.iter().map(|s| s.id).collect();
        ranked.sort_unstable();
        if !ranked
            .iter()
            .eq(self.population.iter().map(|m| &m.specimen.id))
        {
            return Err(bad(
                "the playoff does not rank exactly the finalists of `population`".to_string(),
            ));
        }
        let games = standings[0].results.games();
        for (k, s) in standings.iter().enumerate() {
            let consistent = s.rank as usize == k + 1
                && s.half_points == s.results.half_points()
                && s.results.games() == games
                && (k == 0 || standings[k - 1].half_points >= s.half_points);
            if !consistent {
                return Err(bad(format!(
                    "playoff line {} (id {}) does not follow the ranking",
                    k + 1,
                    s.id
                )));
            }
        }
        let playoff_csv = dir.join(PLAYOFF_FILE);
        if !playoff_csv.is_file() {
            return Err(Error::input(format!(
                "{}: missing, but the checkpoint records a finished playoff; the run folder \
                 is incomplete",
                playoff_csv.display()
            )));
        }
        let best = dir.join(BEST_FILE);
        let restore = format!(
            "write it again with `checkers-tuner export {} -o {}`",
            dir.display(),
            best.display()
        );
        if !best.is_file() {
            return Err(Error::input(format!(
                "{}: missing, but the run finished; {restore}",
                best.display()
            )));
        }
        let file = WeightsFile::load(&best)
            .map_err(|e| Error::input(format!("{e}; the run finished: {restore}")))?;
        let best_id = standings[0].id;
        if file.source.as_ref().and_then(|s| s.specimen_id()) != Some(best_id) {
            return Err(Error::input(format!(
                "{}: not the weights of specimen {best_id}, rank 1 of the playoff; {restore}",
                best.display()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::eval::{WeightPair, Weights};
    use checkers_engine::game::Tally;

    #[test]
    fn save_and_load_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), None);
        let member = Member {
            specimen: Specimen {
                id: 9,
                weights: WeightPair {
                    opening: Weights([3; 10]),
                    endgame: Weights([-3; 10]),
                },
                extra: None,
                patterns: None,
                tables: None,
                parent_a: Some(1),
                parent_b: None,
                born_round: 2,
                fitted: false,
                search: None,
            },
            rounds_survived: 4,
        };
        let member_specimen = member.specimen.clone();
        let checkpoint = Checkpoint {
            format: CHECKPOINT_FORMAT,
            config: "name = \"x\"\n".into(),
            completed_rounds: 5,
            next_id: 40,
            population: vec![member],
            files: [("rounds.csv".to_string(), 120u64)].into_iter().collect(),
            playoff: Some(vec![Standing {
                rank: 1,
                id: 9,
                half_points: 3,
                results: Tally {
                    wins: 1,
                    draws: 1,
                    losses: 0,
                },
            }]),
            champion: Some(Champion {
                specimen: member_specimen.clone(),
                half_points: 90,
                round: 4,
            }),
            gated: Some(GatedChampion {
                specimen: member_specimen,
                since: 3,
                elo: 53.7,
            }),
            openings: Some("0123456789abcdef".to_string()),
            champions: Some(FileProof::of(b"round\n")),
        };
        checkpoint.save(dir.path()).unwrap();
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), Some(checkpoint));
        std::fs::write(dir.path().join(CHECKPOINT_FILE), "{").unwrap();
        let err = Checkpoint::load(dir.path()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
