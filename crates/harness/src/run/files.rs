//! What a run writes into its folder (docs/run-folder.md; the names are
//! `crate::run_folder`'s): headers and rows, appends that reach the disk before the checkpoint
//! that counts them, checks and cuts back to a checkpoint, and atomic writes.
//!
//! Every number is written by `to_string` or a fixed `{:.N}` format, so that the same run always
//! gives the same bytes; only `timings.csv` holds wall-clock figures.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::elo::MatchTally;
use crate::tournament::{BracketGame, RoundStats, Specimen};
use checkers_engine::atomic_file::sync_dir;
pub(crate) use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{
    extra_names, EvaluatorKind, CLASSIC_COUNT, CLASSIC_NAMES, FEATURE_NAMES,
};
use checkers_engine::game::Tally;
use checkers_engine::input_file;
use checkers_engine::search::SearchGenes;
use checkers_engine::text::{csv_line, fingerprint};

pub use crate::run_folder::{
    BEST_FILE, CHAMPIONS_DIR, CHECKPOINT_FILE, CONFIG_FILE, GAMES_FILE, GAMES_PDN_FILE,
    LEARNING_FILE, PLAYOFF_FILE, POSITIONS_FILE, ROUNDS_FILE, SPECIMENS_FILE, TABLES_DIR,
    TIMINGS_FILE,
};

/// The files appended round by round whose byte lengths every checkpoint records. `timings.csv`
/// is appended too, but its length varies with the clock; it is cut by lines instead, so that
/// `checkpoint.json` itself stays the same between identical runs.
pub const COUNTED_FILES: [&str; 4] = [ROUNDS_FILE, SPECIMENS_FILE, GAMES_FILE, LEARNING_FILE];

pub use crate::run_folder::{holds_run, LOCK_FILE, RUN_FILES};

/// Byte length of each appended file, keyed by file name.
pub type FileLengths = BTreeMap<String, u64>;

/// Refuses the run folder `dir` when one of its run files, or of the files in its
/// `champions/` and `tables/` folders, is a symbolic link or anything but a regular file (or
/// one of those folders is not a folder): a run writes its files in place, and writing through
/// a link would change a file outside the folder. Checked before a resumed run reads or writes
/// anything else (the lock checks its own file), so that nothing is played only to be refused
/// at the end.
pub fn refuse_irregular_files(dir: &Path) -> Result<()> {
    let refuse = |path: &Path, e: &dyn std::fmt::Display| {
        Error::input(format!(
            "{}: {e}; a run folder holds only the files the run wrote, so it cannot be \
             resumed like this (put the file itself back in its place)",
            path.display()
        ))
    };
    for name in RUN_FILES {
        let path = dir.join(name);
        input_file::refuse_irregular(&path).map_err(|e| refuse(&path, &e))?;
    }
    for folder in [CHAMPIONS_DIR, TABLES_DIR] {
        let path = dir.join(folder);
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::io("read", &path, &e)),
            Ok(meta) if !meta.file_type().is_dir() => {
                return Err(refuse(&path, &"not a folder (a link, or a file)"));
            }
            Ok(_) => {}
        }
        let entries = fs::read_dir(&path).map_err(|e| Error::io("read", &path, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io("read", &path, &e))?;
            let file = entry.path();
            input_file::refuse_irregular(&file).map_err(|e| refuse(&file, &e))?;
        }
    }
    Ok(())
}

/// The first entry of `dir` that a run did not write, if any: a file that is neither the lock
/// nor a temporary file of a run file (what a killed run may leave before its config). A folder
/// without such an entry is as good as empty.
pub fn foreign_entry(dir: &Path) -> Result<Option<String>> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io("read", dir, &e))?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != LOCK_FILE && !is_run_temporary(name))
        .collect();
    names.sort();
    Ok(names.into_iter().next())
}

/// `.NAME.tmp-PID` for a run file `NAME`.
fn is_run_temporary(name: &str) -> bool {
    RUN_FILES.iter().any(|file| {
        name.strip_prefix(&format!(".{file}.tmp-"))
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// What decides the columns of `specimens.csv`: the evaluator's weights, then the search
/// genes the config opens (none: the columns runs without genes always had).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecimenColumns {
    /// Whose weights the rows hold.
    pub evaluator: EvaluatorKind,
    /// The genes whose values follow the weights.
    pub genes: SearchGenes,
}

impl SpecimenColumns {
    /// The columns of run `config`'s `specimens.csv`.
    pub fn of(config: &super::Config) -> SpecimenColumns {
        SpecimenColumns {
            evaluator: config.weights.evaluator,
            genes: config.search.genes,
        }
    }
}

impl From<EvaluatorKind> for SpecimenColumns {
    /// The columns of a run of `evaluator` without genes.
    fn from(evaluator: EvaluatorKind) -> SpecimenColumns {
        SpecimenColumns {
            evaluator,
            genes: SearchGenes::default(),
        }
    }
}

/// The header of `specimens.csv` (docs/run-folder.md).
pub fn specimens_header(columns: SpecimenColumns) -> Vec<String> {
    let evaluator = columns.evaluator;
    let mut header: Vec<String> = [
        "round",
        "id",
        "parent_a",
        "parent_b",
        "born_round",
        "origin",
        "rounds_survived",
        "wins",
        "draws",
        "losses",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for prefix in ["open", "end"] {
        header.extend(FEATURE_NAMES.iter().map(|name| format!("{prefix}_{name}")));
    }
    if evaluator.has_extra() {
        for prefix in ["open", "end"] {
            header.extend(extra_names().iter().map(|name| format!("{prefix}_{name}")));
        }
    }
    if evaluator == EvaluatorKind::Patterns {
        for prefix in ["open", "end"] {
            header.extend(CLASSIC_NAMES.iter().map(|name| format!("{prefix}_{name}")));
        }
        header.push("tables".to_string());
    }
    header.extend(columns.genes.columns());
    header
}

/// A survivor's row of `specimens.csv`; a missing parent is an empty field.
pub fn specimen_record(
    columns: SpecimenColumns,
    round: u32,
    specimen: &Specimen,
    rounds_survived: u32,
    tally: &Tally,
) -> Vec<String> {
    let parent = |p: Option<u64>| p.map(|id| id.to_string()).unwrap_or_default();
    let mut row = vec![
        round.to_string(),
        specimen.id.to_string(),
        parent(specimen.parent_a),
        parent(specimen.parent_b),
        specimen.born_round.to_string(),
        specimen.origin().to_string(),
        rounds_survived.to_string(),
        tally.wins.to_string(),
        tally.draws.to_string(),
        tally.losses.to_string(),
    ];
    for set in [&specimen.weights.opening, &specimen.weights.endgame] {
        row.extend(set.0.iter().map(|w| w.to_string()));
    }
    if let Some(extra) = &specimen.extra {
        for set in [&extra.opening, &extra.endgame] {
            row.extend(set.to_vec().iter().map(|w| w.to_string()));
        }
    }
    if columns.evaluator == EvaluatorKind::Patterns {
        let zero = [0; CLASSIC_COUNT];
        let patterns = specimen.patterns.as_deref();
        for set in [
            patterns.map_or(&zero, |p| &p.classic_opening),
            patterns.map_or(&zero, |p| &p.classic_endgame),
        ] {
            row.extend(set.iter().map(|w| w.to_string()));
        }
        row.push(specimen.tables.map(|id| id.to_string()).unwrap_or_default());
    }
    row.extend(columns.genes.values(specimen.search.as_ref()));
    row
}

/// The header of `timings.csv`.
pub fn timings_header() -> Vec<&'static str> {
    vec!["round", "seconds", "games", "games_per_second"]
}

/// A `timings.csv` row; `round` is a round number or `playoff`.
pub fn timings_record(round: &str, seconds: f64, games: u64) -> Vec<String> {
    let rate = if seconds > 0.0 {
        games as f64 / seconds
    } else {
        0.0
    };
    vec![
        round.to_string(),
        format!("{seconds:.3}"),
        games.to_string(),
        format!("{rate:.2}"),
    ]
}

/// The columns of `learning.csv`.
pub fn learning_header() -> Vec<&'static str> {
    vec![
        "round", "id", "opponent", "games", "wins", "draws", "losses", "score", "elo", "elo_low",
        "elo_high",
    ]
}

/// One row of `learning.csv`: specimen `id`'s validation match against `opponent` after
/// `round`, with A's score and the Elo estimate to one decimal.
pub fn learning_record(round: u32, id: u64, opponent: &str, tally: &MatchTally) -> Vec<String> {
    let e = tally.estimate();
    vec![
        round.to_string(),
        id.to_string(),
        opponent.to_string(),
        tally.results.games().to_string(),
        tally.results.wins.to_string(),
        tally.results.draws.to_string(),
        tally.results.losses.to_string(),
        format!("{:.4}", tally.results.score().unwrap_or(0.5)),
        format!("{:.1}", e.elo),
        format!("{:.1}", e.lower),
        format!("{:.1}", e.upper),
    ]
}

/// The header of `playoff.csv`.
pub fn playoff_header() -> Vec<&'static str> {
    vec!["rank", "id", "points", "wins", "draws", "losses"]
}

/// Header line of each appended file.
pub(super) fn header_line(name: &str, columns: SpecimenColumns) -> String {
    match name {
        ROUNDS_FILE => csv_line(&RoundStats::csv_header()),
        SPECIMENS_FILE => csv_line(&specimens_header(columns)),
        GAMES_FILE => csv_line(&BracketGame::csv_header()),
        TIMINGS_FILE => csv_line(&timings_header()),
        LEARNING_FILE => csv_line(&learning_header()),
        other => unreachable!("{other} is not an appended file"),
    }
}

/// Creates (or empties) every appended file with its header line only, and `games.pdn` empty
/// when `pdn`, and returns the lengths of the counted ones: the state of a run before its first
/// round.
pub fn start_files(dir: &Path, pdn: bool, columns: SpecimenColumns) -> Result<FileLengths> {
    let mut lengths = FileLengths::new();
    for name in COUNTED_FILES.into_iter().chain([TIMINGS_FILE]) {
        let path = dir.join(name);
        let header = header_line(name, columns);
        let mut file = File::create(&path).map_err(|e| Error::io("create", &path, &e))?;
        file.write_all(header.as_bytes())
            .map_err(|e| Error::io("write", &path, &e))?;
        file.sync_all().map_err(|e| Error::io("write", &path, &e))?;
        if name != TIMINGS_FILE {
            lengths.insert(name.to_string(), header.len() as u64);
        }
    }
    if pdn {
        let path = dir.join(GAMES_PDN_FILE);
        File::create(&path)
            .and_then(|file| file.sync_all())
            .map_err(|e| Error::io("create", &path, &e))?;
        lengths.insert(GAMES_PDN_FILE.to_string(), 0);
    }
    sync_dir(dir);
    Ok(lengths)
}

/// Appends `text` to the appended file `name` and flushes it to disk; returns the bytes written.
/// The file is never opened through a symbolic link.
pub fn append(dir: &Path, name: &str, text: &str) -> Result<u64> {
    let path = dir.join(name);
    let mut file = input_file::no_links(OpenOptions::new().append(true))
        .open(&path)
        .map_err(|e| Error::io("open", &path, &e))?;
    file.write_all(text.as_bytes())
        .map_err(|e| Error::io("write", &path, &e))?;
    // On disk before the checkpoint that counts these bytes is renamed into place.
    file.sync_data()
        .map_err(|e| Error::io("write", &path, &e))?;
    Ok(text.len() as u64)
}

/// Appends to a counted file and records its new length.
pub fn append_counted(dir: &Path, name: &str, text: &str, lengths: &mut FileLengths) -> Result<()> {
    let written = append(dir, name, text)?;
    *lengths.entry(name.to_string()).or_default() += written;
    Ok(())
}

/// What a checkpoint records of a file the run appends to but cannot rebuild: its length and
/// the fingerprint of its bytes up to there, so that a changed byte is found, not trusted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileProof {
    /// The file's length in bytes.
    pub bytes: u64,
    /// The fingerprint of those bytes (`text::fingerprint`).
    pub fingerprint: String,
}

impl FileProof {
    /// The proof of `bytes`, a whole file.
    pub fn of(bytes: &[u8]) -> FileProof {
        FileProof {
            bytes: bytes.len() as u64,
            fingerprint: fingerprint(bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::island_files::clear_run;
    use checkers_engine::eval::{WeightPair, Weights};

    #[test]
    fn specimen_rows_match_the_header_and_leave_missing_parents_empty() {
        let header = specimens_header(EvaluatorKind::Ten.into());
        assert_eq!(header.len(), 10 + 20);
        assert_eq!(header[5], "origin");
        assert_eq!(header[10], "open_pawns");
        assert_eq!(header[29], "end_jumps");
        let specimen = Specimen {
            id: 17,
            weights: WeightPair {
                opening: Weights([1, -2, 3, -4, 5, -6, 7, -8, 9, -10]),
                endgame: Weights([0; 10]),
            },
            extra: None,
            patterns: None,
            tables: None,
            parent_a: Some(3),
            parent_b: None,
            born_round: 2,
            fitted: false,
            search: None,
        };
        let tally = Tally {
            wins: 2,
            draws: 1,
            losses: 0,
        };
        let line = csv_line(&specimen_record(
            EvaluatorKind::Ten.into(),
            4,
            &specimen,
            3,
            &tally,
        ));
        assert_eq!(
            line,
            "4,17,3,,2,child,3,2,1,0,1,-2,3,-4,5,-6,7,-8,9,-10,0,0,0,0,0,0,0,0,0,0\n"
        );
        let origins = [(0, None, false), (3, None, false), (3, None, true)].map(
            |(born_round, parent_a, fitted)| {
                let specimen = Specimen {
                    born_round,
                    parent_a,
                    fitted,
                    ..specimen.clone()
                };
                specimen_record(EvaluatorKind::Ten.into(), 4, &specimen, 1, &tally)[5].clone()
            },
        );
        assert_eq!(origins, ["initial", "fresh", "fit"]);
    }

    #[test]
    fn timings_format_is_fixed() {
        assert_eq!(
            timings_record("3", 2.0, 5),
            ["3", "2.000", "5", "2.50"].map(String::from)
        );
        assert_eq!(timings_record("playoff", 0.0, 0)[3], "0.00");
    }

    #[test]
    fn atomic_write_replaces_and_clear_removes_only_run_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        write_atomically(&path, b"one").unwrap();
        // A config.toml that this program did not write does not make a run folder.
        assert!(!holds_run(dir.path()));
        let ours = crate::run::Config::new("x").to_toml();
        write_atomically(&path, ours.as_bytes()).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), ours);
        fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        assert!(holds_run(dir.path()));
        clear_run(dir.path()).unwrap();
        assert!(!holds_run(dir.path()));
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["notes.txt"]);
    }
}
