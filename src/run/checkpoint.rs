//! `checkpoint.json`: everything a run needs to continue after its last completed round.
//!
//! The checkpoint is the only record of progress. It is written atomically after the round's
//! rows are on disk, and it holds the byte length of every appended file at that moment, so
//! that `resume` can cut away whatever a killed process wrote after it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::files::{write_atomically, FileLengths, CHECKPOINT_FILE};
use crate::eval::Specimen;
use crate::{Error, Result};

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

/// A finalist's line of the playoff ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the best.
    pub rank: u32,
    /// The specimen's id.
    pub id: u64,
    /// Twice the points (a win is 2, a draw 1), so the score stays an integer.
    pub half_points: u64,
    /// Playoff games won.
    pub wins: u64,
    /// Playoff games drawn.
    pub draws: u64,
    /// Playoff games lost.
    pub losses: u64,
}

impl Standing {
    /// Points: 1 per win, ½ per draw.
    pub fn points(&self) -> f64 {
        self.half_points as f64 / 2.0
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
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
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("read", &path, &e)),
        };
        let checkpoint: Checkpoint = serde_json::from_str(&text).map_err(|e| {
            Error::input(format!(
                "{}: not a checkpoint of this program ({e})",
                path.display()
            ))
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{WeightPair, Weights};

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
                parent_a: Some(1),
                parent_b: None,
                born_round: 2,
            },
            rounds_survived: 4,
        };
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
                wins: 1,
                draws: 1,
                losses: 0,
            }]),
        };
        checkpoint.save(dir.path()).unwrap();
        assert_eq!(Checkpoint::load(dir.path()).unwrap(), Some(checkpoint));
        std::fs::write(dir.path().join(CHECKPOINT_FILE), "{").unwrap();
        let err = Checkpoint::load(dir.path()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
