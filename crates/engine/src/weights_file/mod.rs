//! The weights file (docs/run-folder.md): its forms, its checks and its sources. One file per
//! form, each with its reader and its writer — JSON (`json.rs`), TOML (`toml.rs`) and CSV
//! (`csv.rs`) are read and written, OpenBench's lines (`openbench.rs`) and the C header
//! (`c_header.rs`, its reference evaluation in `c_header/*.c`) only written —, and the checks
//! of the JSON and TOML forms' values in `validate/`. Every form is a method of [`WeightsFile`],
//! and so is the built-in champion (`champion.rs`): only its name is re-exported.

mod c_header;
mod champion;
mod csv;
mod json;
mod key_lines;
mod openbench;
mod toml;
mod validate;

use std::path::Path;
use std::sync::Arc;

use crate::error::Error;
use crate::eval::{
    extra_names, EvaluatorKind, ExtraPair, PatternWeights, WeightPair, DEFAULT_ENDGAME_PIECES,
    MAX_ABS_WEIGHT,
};
use crate::game::{Player, SearchParams};
use crate::input_file::{self, Links, WEIGHTS_CAP};

pub use champion::CHAMPION;
use validate::Ctx;

/// Where a weights file's weights came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WeightsSource {
    /// A specimen of a tuning run.
    Specimen {
        /// The run's `name`.
        run: String,
        /// The specimen's id within that run.
        id: u64,
        /// The last round the specimen's row was written in `specimens.csv`.
        round: u32,
    },
    /// A regression fit (`fit`) on game records.
    Fit {
        /// What it was fitted on: the inputs, the number of games and positions.
        data: String,
    },
}

impl WeightsSource {
    /// The specimen's id, for a run's specimen.
    pub fn specimen_id(&self) -> Option<u64> {
        match self {
            WeightsSource::Specimen { id, .. } => Some(*id),
            WeightsSource::Fit { .. } => None,
        }
    }

    /// One line saying where the weights came from (`run "x", specimen 4, round 19` or
    /// `fit on …`).
    pub fn describe(&self) -> String {
        match self {
            WeightsSource::Specimen { run, id, round } => {
                format!("run {run:?}, specimen {id}, round {round}")
            }
            WeightsSource::Fit { data } => format!("fit on {data}"),
        }
    }
}

/// The weights file of docs/run-folder.md: what `export --format json`, `best.json`, `match`, `analyse` and
/// `play` read and write.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WeightsFile {
    /// The two weight sets of the ten features.
    pub weights: WeightPair,
    /// The extended evaluator's further weights; `None`: the ten-feature evaluator.
    pub extra: Option<ExtraPair>,
    /// With `extra`, the pattern evaluator's further weights; `None`: the extended evaluator.
    pub patterns: Option<Arc<PatternWeights>>,
    /// Pieces left on the board (both colours) at which the endgame set takes over.
    pub endgame_pieces: u32,
    /// The run and specimen the weights come from; `None` for hand-made files and `material`.
    pub source: Option<WeightsSource>,
    /// The endgame database (most pieces; 0: none) the weights were tuned or fitted with, which
    /// `match`, `analyse`, `play` and `hub` search with by default; `None` when the file does
    /// not say (`material`, CSV, hand-made and older files).
    pub database_pieces: Option<u32>,
    /// The file's `search` table (the keys of a config's `[search]`, keys left out at their
    /// defaults): how the weights want to be searched, which `match`, `analyse`, `play` and
    /// `hub` follow unless told otherwise; `None` when the file has none (`material`, CSV and
    /// files without the table, which are written without it).
    pub search: Option<SearchParams>,
}

impl WeightsFile {
    /// A file holding `weights`, with the default endgame threshold and no source.
    pub fn new(weights: WeightPair) -> WeightsFile {
        WeightsFile {
            weights,
            extra: None,
            patterns: None,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            source: None,
            database_pieces: None,
            search: None,
        }
    }

    /// The evaluator these weights are for.
    pub fn evaluator(&self) -> EvaluatorKind {
        match (&self.extra, &self.patterns) {
            (Some(_), Some(_)) => EvaluatorKind::Patterns,
            (Some(_), None) => EvaluatorKind::Extended,
            (None, _) => EvaluatorKind::Ten,
        }
    }

    /// The built-in `material` baseline (no source, default endgame threshold).
    pub fn material() -> WeightsFile {
        WeightsFile::new(WeightPair::material())
    }

    /// Reads a JSON weights file.
    pub fn load(path: &Path) -> Result<WeightsFile, Error> {
        let text = read_weights_text(path)?;
        WeightsFile::from_json(&text, &path.display().to_string())
    }

    /// Reads a weights file in the form its extension names: `.csv`, `.toml`, otherwise JSON.
    pub fn load_any(path: &Path) -> Result<WeightsFile, Error> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let text = read_weights_text(path)?;
        let origin = path.display().to_string();
        match ext.as_deref() {
            Some("csv") => WeightsFile::from_csv(&text, &origin),
            Some("toml") => WeightsFile::from_toml(&text, &origin),
            _ => WeightsFile::from_json(&text, &origin),
        }
    }

    /// A weights argument for playing: the literal `material` is the built-in baseline,
    /// [`CHAMPION`] the built-in champion ([`WeightsFile::champion`]), anything else a path
    /// read by [`WeightsFile::load_any`]; the weights must pass
    /// [`WeightsFile::check_playable`]. (A run folder as well: `weights_from_arg`, above
    /// this layer.)
    pub fn load_arg(arg: &str) -> Result<WeightsFile, Error> {
        if arg == "material" {
            Ok(WeightsFile::material())
        } else if arg == CHAMPION {
            Ok(WeightsFile::champion())
        } else {
            let file = WeightsFile::load_any(Path::new(arg))?;
            file.check_playable(arg)?;
            Ok(file)
        }
    }

    /// Checks that every weight lies within `±MAX_ABS_WEIGHT`, the bound tuning runs use, so
    /// that evaluation sums stay far from `i32` overflow. The file formats themselves carry
    /// any `i32` (exports stay faithful); this is the gate for weights about to be played.
    /// `origin` names the file in the message.
    pub fn check_playable(&self, origin: &str) -> Result<(), Error> {
        for (set, w) in [
            ("opening", &self.weights.opening),
            ("endgame", &self.weights.endgame),
        ] {
            for (i, (name, value)) in w.named().enumerate() {
                if value.unsigned_abs() > MAX_ABS_WEIGHT.unsigned_abs() {
                    return Err(Ctx::new(origin).err(format!(
                        "`{set}` item {} (`{name}`) is {value}, outside \
                         -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT} (larger weights could overflow \
                         the evaluation)",
                        i + 1
                    )));
                }
            }
        }
        if let Some(extra) = &self.extra {
            for (phase, w) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
                for (suffix, list) in w.lists() {
                    if let Some(i) = list
                        .iter()
                        .position(|v| v.unsigned_abs() > MAX_ABS_WEIGHT.unsigned_abs())
                    {
                        return Err(Ctx::new(origin).err(format!(
                            "`{phase}_{suffix}` item {} is {}, outside \
                             -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT} (larger weights could \
                             overflow the evaluation)",
                            i + 1,
                            list[i]
                        )));
                    }
                }
            }
        }
        if let Some(patterns) = &self.patterns {
            if patterns.max_abs() > MAX_ABS_WEIGHT.unsigned_abs() {
                return Err(Ctx::new(origin).err(format!(
                    "a classic term's weight, the exchange term's or a table entry is outside \
                     -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT} (larger weights could overflow the \
                     evaluation)"
                )));
            }
        }
        Ok(())
    }

    /// Every weight the CSV and OpenBench forms carry, as (set, name, weight): the ten
    /// features' of the opening set, then of the endgame set, then the extended evaluator's
    /// further weights ([`extra_names`]) likewise; none of those for the ten-feature evaluator.
    fn named_weights(&self) -> Vec<(&'static str, String, i32)> {
        let sets = [
            ("opening", &self.weights.opening),
            ("endgame", &self.weights.endgame),
        ];
        let mut rows: Vec<(&'static str, String, i32)> = sets
            .into_iter()
            .flat_map(|(set, w)| {
                w.named()
                    .map(move |(name, value)| (set, name.to_string(), value))
            })
            .collect();
        if let Some(extra) = &self.extra {
            let names = extra_names();
            for (set, w) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
                rows.extend(
                    names
                        .iter()
                        .zip(w.to_vec())
                        .map(|(name, value)| (set, name.clone(), value)),
                );
            }
        }
        rows
    }
}

/// Reads a weights file's text; any failure is bad input because the path came from the user.
fn read_weights_text(path: &Path) -> Result<String, Error> {
    input_file::read_text(path, Links::Follow, Some(WEIGHTS_CAP))
        .map_err(|e| Error::Input(format!("weights file {}: {e}", path.display())))
}

/// A file's weights as a game's player: the conversion belongs to the file, which knows its
/// evaluator's parts (the game only plays what it is given).
impl<'a> Player<'a> {
    /// A weights file's weights and endgame threshold as a player searching to the game's
    /// depths.
    pub fn of_file(file: &'a WeightsFile) -> Player<'a> {
        Player {
            weights: &file.weights,
            extra: file.extra.as_ref(),
            patterns: file.patterns.as_ref(),
            endgame_pieces: file.endgame_pieces,
            limits: None,
            search: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;

    pub(super) fn sample() -> WeightsFile {
        WeightsFile {
            weights: WeightPair {
                opening: Weights([100, 150, -3, 7, -42, 0, -1, 12, 5, -100]),
                endgame: Weights([90, 170, 0, -8, 4, -100, -15, 33, -2, 1]),
            },
            extra: None,
            patterns: None,
            endgame_pieces: 10,
            source: Some(WeightsSource::Specimen {
                run: "night \"run\"".into(),
                id: 4711,
                round: 19,
            }),
            database_pieces: Some(4),
            search: None,
        }
    }

    pub(super) fn message(r: Result<WeightsFile, Error>) -> String {
        match r {
            Err(Error::Input(m)) => m,
            other => panic!("expected Error::Input, got {other:?}"),
        }
    }

    #[test]
    fn material_baseline() {
        let m = WeightsFile::material();
        for w in [m.weights.opening, m.weights.endgame] {
            assert_eq!(w.0, [100, 150, 0, 0, 0, 0, 0, 0, 0, 0]);
            assert_eq!(w.by_name("kings"), Some(150));
            assert_eq!(w.get(0), 100);
        }
        assert_eq!(m.endgame_pieces, 12);
        assert_eq!(m.source, None);
        assert_eq!(WeightsFile::load_arg("material").unwrap(), m);
    }

    #[test]
    fn missing_file_is_bad_input() {
        let msg = message(WeightsFile::load(Path::new("/no/such/dir/w.json")));
        assert_eq!(msg, "weights file /no/such/dir/w.json: file not found");
        let msg = message(WeightsFile::load_arg("/no/such/dir/w.toml"));
        assert!(msg.contains("/no/such/dir/w.toml") && msg.contains("not found"));
    }

    #[test]
    fn weights_beyond_the_playable_bound_are_rejected_when_loaded_for_play() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let mut f = sample();
        f.weights.endgame.set(6, -MAX_ABS_WEIGHT);
        f.weights.opening.set(0, MAX_ABS_WEIGHT);
        let ok = dir.join("ok.json");
        std::fs::write(&ok, f.to_json()).unwrap();
        assert_eq!(WeightsFile::load_arg(ok.to_str().unwrap()).unwrap(), f);

        f.weights.endgame.set(6, -MAX_ABS_WEIGHT - 1);
        let bad = dir.join("bad.json");
        std::fs::write(&bad, f.to_json()).unwrap();
        let arg = bad.to_str().unwrap();
        let msg = message(WeightsFile::load_arg(arg));
        assert_eq!(
            msg,
            format!(
                "weights file {arg}: `endgame` item 7 (`promotion_distance`) is -10001, outside \
                 -10000..=10000 (larger weights could overflow the evaluation)"
            )
        );
        // The file format itself still carries it (exports stay faithful).
        assert_eq!(WeightsFile::load_any(&bad).unwrap(), f);
        f.weights.endgame.set(6, i32::MIN);
        assert!(f.check_playable("m").is_err());
    }
}
