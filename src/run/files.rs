//! What a run writes into its folder (docs/run-folder.md; the names are
//! `crate::run_folder`'s): headers and rows, appends that reach the disk before the checkpoint
//! that counts them, checks and cuts back to a checkpoint, and atomic writes.
//!
//! Every number is written by `to_string` or a fixed `{:.N}` format, so that the same run always
//! gives the same bytes; only `timings.csv` holds wall-clock figures.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::atomic_file::sync_dir;
pub(crate) use crate::atomic_file::write_atomically;
use crate::elo::MatchTally;
use crate::error::{Error, Result};
use crate::eval::FEATURE_NAMES;
use crate::game::Tally;
use crate::text::csv_line;
use crate::tournament::{BracketGame, RoundStats, Specimen};

use crate::run_folder::{line_of, CsvTable};
pub use crate::run_folder::{
    BEST_FILE, CHECKPOINT_FILE, CONFIG_FILE, GAMES_FILE, GAMES_PDN_FILE, LEARNING_FILE,
    PLAYOFF_FILE, ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE,
};

/// The files appended round by round whose byte lengths every checkpoint records. `timings.csv`
/// is appended too, but its length varies with the clock; it is cut by lines instead, so that
/// `checkpoint.json` itself stays the same between identical runs.
pub const COUNTED_FILES: [&str; 4] = [ROUNDS_FILE, SPECIMENS_FILE, GAMES_FILE, LEARNING_FILE];

/// Every file a run writes: what `--force` removes (the lock excepted: see [`LOCK_FILE`]).
/// The checkpoint comes first so that a half-finished removal never leaves a checkpoint beside
/// missing files.
pub const RUN_FILES: [&str; 10] = [
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
];

/// The run folder's lock file (see `lock.rs`): created by the first `tune`, never removed.
pub const LOCK_FILE: &str = ".lock";

/// How `config.toml` written by this program begins (see `Config::to_toml`).
const CONFIG_MARK: &str = "# The resolved config of run ";

/// Byte length of each appended file, keyed by file name.
pub type FileLengths = BTreeMap<String, u64>;

/// Whether `dir` is a run folder: it holds `checkpoint.json`, or a `config.toml` written by
/// this program (the run stopped before its first checkpoint).
pub fn holds_run(dir: &Path) -> bool {
    if dir.join(CHECKPOINT_FILE).exists() {
        return true;
    }
    let mut start = [0u8; CONFIG_MARK.len()];
    File::open(dir.join(CONFIG_FILE))
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut start))
        .is_ok_and(|()| start == CONFIG_MARK.as_bytes())
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

/// Removes every run file from `dir` (for `tune --force`), and the folders of an island-model
/// run; other files, and the lock, are left alone.
pub fn clear_run(dir: &Path) -> Result<()> {
    for name in RUN_FILES {
        let path = dir.join(name);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("remove", &path, &e)),
        }
    }
    sync_dir(dir);
    clear_islands(dir)
}

/// The header of `specimens.csv` (docs/run-folder.md).
pub fn specimens_header() -> Vec<String> {
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
    header
}

/// A survivor's row of `specimens.csv`; a missing parent is an empty field.
pub fn specimen_record(
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
fn header_line(name: &str) -> String {
    match name {
        ROUNDS_FILE => csv_line(&RoundStats::csv_header()),
        SPECIMENS_FILE => csv_line(&specimens_header()),
        GAMES_FILE => csv_line(&BracketGame::csv_header()),
        TIMINGS_FILE => csv_line(&timings_header()),
        LEARNING_FILE => csv_line(&learning_header()),
        other => unreachable!("{other} is not an appended file"),
    }
}

/// Creates (or empties) every appended file with its header line only, and `games.pdn` empty
/// when `pdn`, and returns the lengths of the counted ones: the state of a run before its first
/// round.
pub fn start_files(dir: &Path, pdn: bool) -> Result<FileLengths> {
    let mut lengths = FileLengths::new();
    for name in COUNTED_FILES.into_iter().chain([TIMINGS_FILE]) {
        let path = dir.join(name);
        let header = header_line(name);
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

/// What the counted files hold up to the lengths a checkpoint recorded, once checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedRounds {
    /// `survivors` of the last recorded round in `rounds.csv`.
    pub last_survivors: u64,
    /// `newcomers` of the last recorded round in `rounds.csv`.
    pub last_newcomers: u64,
}

/// Checks the counted files against the lengths a checkpoint recorded after `completed_rounds`
/// rounds, without changing anything: each file exists, begins with its header and is at least
/// as long as recorded; each length ends a row; up to it, `rounds.csv` holds exactly rounds 1 to
/// `completed_rounds` in order, and `games.csv` and `specimens.csv` hold, round by round, as
/// many rows as `rounds.csv` counts games and survivors; with `pdn`, `games.pdn` holds up to its
/// recorded length whole games, as many as `games.csv` rows. Anything else means the folder or
/// the checkpoint was damaged: the run cannot continue identically (bad input).
pub fn check_recorded(
    dir: &Path,
    lengths: &FileLengths,
    completed_rounds: u32,
    pdn: bool,
) -> Result<RecordedRounds> {
    let checkpoint = dir.join(CHECKPOINT_FILE);
    let damaged = |problem: String| {
        Error::input(format!(
            "{}: {problem}; the checkpoint does not match the run's files, so the run cannot be \
             resumed identically (start again with `tune --force`)",
            checkpoint.display()
        ))
    };
    let mut tables: BTreeMap<&str, CsvTable> = BTreeMap::new();
    for name in COUNTED_FILES {
        let (bytes, want) = read_recorded(dir, name, lengths, &damaged)?;
        let header = header_line(name);
        if !bytes.starts_with(header.as_bytes()) {
            return Err(Error::input(format!(
                "{}: line 1 is not the header of {name}; the file was changed, so the run \
                 cannot be resumed (start again with `tune --force`)",
                dir.join(name).display()
            )));
        }
        let want = want as usize;
        if want < header.len() || bytes[want - 1] != b'\n' {
            return Err(damaged(format!(
                "the recorded length of {name}, {want} bytes, does not end a row of it"
            )));
        }
        let table = CsvTable::from_bytes(Path::new(name), &bytes[..want])
            .map_err(|e| damaged(format!("{name} up to the recorded length: {e}")))?;
        tables.insert(name, table);
    }
    // A field the run wrote as a whole number; anything else is damage.
    let count = |table: &CsvTable, row: &csv::StringRecord, column: &str| -> Result<u64> {
        table
            .column(column)
            .and_then(|column| table.parse(row, &column, "a whole number"))
            .map_err(|e| damaged(e.to_string()))
    };

    // rounds.csv: rounds 1..=completed_rounds, in order.
    let rounds = &tables[ROUNDS_FILE];
    if rounds.rows().len() != completed_rounds as usize {
        return Err(damaged(format!(
            "it records {completed_rounds} completed round(s), but {ROUNDS_FILE} holds {} \
             up to its recorded length",
            rounds.rows().len()
        )));
    }
    let mut expected: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let mut last = RecordedRounds {
        last_survivors: 0,
        last_newcomers: 0,
    };
    for (k, row) in rounds.rows().iter().enumerate() {
        if count(rounds, row, "round")? != k as u64 + 1 {
            return Err(damaged(format!(
                "{ROUNDS_FILE} line {} is not round {}",
                k + 2,
                k + 1
            )));
        }
        let games = count(rounds, row, "games")?;
        expected.entry(GAMES_FILE).or_default().push(games);
        last.last_survivors = count(rounds, row, "survivors")?;
        last.last_newcomers = count(rounds, row, "newcomers")?;
        expected
            .entry(SPECIMENS_FILE)
            .or_default()
            .push(last.last_survivors);
    }
    // games.csv and specimens.csv: the rows of each round, as rounds.csv counts them.
    for name in [GAMES_FILE, SPECIMENS_FILE] {
        let table = &tables[name];
        let mut counts = vec![0u64; completed_rounds as usize];
        for row in table.rows() {
            let round = count(table, row, "round")?;
            if round == 0 || round > u64::from(completed_rounds) {
                return Err(damaged(format!(
                    "{name} line {} belongs to round {round}, after the {completed_rounds} \
                     recorded round(s)",
                    line_of(row)
                )));
            }
            counts[round as usize - 1] += 1;
        }
        let wanted = expected.remove(name).unwrap_or_default();
        if let Some(k) = (0..counts.len()).find(|&k| counts[k] != wanted[k]) {
            return Err(damaged(format!(
                "{name} holds {} row(s) of round {} up to its recorded length, but {ROUNDS_FILE} \
                 counts {}",
                counts[k],
                k + 1,
                wanted[k]
            )));
        }
    }
    if pdn {
        check_recorded_pdn(dir, lengths, tables[GAMES_FILE].rows().len(), &damaged)?;
    }
    Ok(last)
}

/// Cuts each counted file back to the length a checkpoint recorded, dropping the rows of a
/// round that was in progress (complete or half-written), and `timings.csv` to its header and
/// `completed_rounds` rows. Everything is checked first ([`check_recorded`]), so a damaged
/// folder is refused before any file is changed.
pub fn cut_to(dir: &Path, lengths: &FileLengths, completed_rounds: u32, pdn: bool) -> Result<()> {
    check_recorded(dir, lengths, completed_rounds, pdn)?;
    let pdn_file = pdn.then_some(GAMES_PDN_FILE);
    for name in COUNTED_FILES.into_iter().chain(pdn_file) {
        let path = dir.join(name);
        let want = lengths[name];
        let have = fs::metadata(&path)
            .map_err(|e| Error::io("read", &path, &e))?
            .len();
        if have > want {
            let file = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| Error::io("open", &path, &e))?;
            file.set_len(want)
                .map_err(|e| Error::io("truncate", &path, &e))?;
            file.sync_all()
                .map_err(|e| Error::io("truncate", &path, &e))?;
        }
    }
    cut_timings(dir, completed_rounds)
}

/// The counted file `name` and the length the checkpoint recorded for it, once it is known to
/// be at least that long.
fn read_recorded(
    dir: &Path,
    name: &str,
    lengths: &FileLengths,
    damaged: &dyn Fn(String) -> Error,
) -> Result<(Vec<u8>, u64)> {
    let path = dir.join(name);
    let Some(&want) = lengths.get(name) else {
        return Err(damaged(format!("no length recorded for {name}")));
    };
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::input(format!(
                "{}: missing; the run folder is incomplete, so the run cannot be resumed \
                 (start again with `tune --force`)",
                path.display()
            )))
        }
        Err(e) => return Err(Error::io("read", &path, &e)),
    };
    let have = bytes.len() as u64;
    if have < want {
        return Err(Error::input(format!(
            "{}: {have} bytes, but the checkpoint recorded {want}; the file was cut short \
             since, so the run cannot be resumed (start again with `tune --force`)",
            path.display()
        )));
    }
    Ok((bytes, want))
}

/// Checks `games.pdn` against its recorded length: the file is at least that long, and up to it
/// holds `games` whole games (each ends with a blank line).
fn check_recorded_pdn(
    dir: &Path,
    lengths: &FileLengths,
    games: usize,
    damaged: &dyn Fn(String) -> Error,
) -> Result<()> {
    let (bytes, want) = read_recorded(dir, GAMES_PDN_FILE, lengths, damaged)?;
    let recorded = &bytes[..want as usize];
    if !recorded.is_empty() && !recorded.ends_with(b"\n\n") {
        return Err(damaged(format!(
            "the recorded length of {GAMES_PDN_FILE}, {want} bytes, does not end a game of it"
        )));
    }
    let held = pdn_games(recorded).count();
    if held != games {
        return Err(damaged(format!(
            "{GAMES_PDN_FILE} holds {held} game(s) up to its recorded length, but {GAMES_FILE} \
             holds {games} row(s)"
        )));
    }
    Ok(())
}

/// The games of a `games.pdn` as written by a run: each from its `[Event` line up to and
/// including the blank line after its move text.
fn pdn_games(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        // Tags, a blank line, the move text, a blank line: the second blank line ends it.
        let end = rest
            .windows(2)
            .enumerate()
            .filter(|(_, pair)| pair == b"\n\n")
            .nth(1)
            .map_or(rest.len(), |(at, _)| at + 2);
        let (game, tail) = rest.split_at(end);
        rest = tail;
        Some(game)
    })
}

/// Keeps the header and the first `rounds` complete rows of `timings.csv` (fewer if fewer were
/// written: it only informs). A missing file is started again.
fn cut_timings(dir: &Path, rounds: u32) -> Result<()> {
    let path = dir.join(TIMINGS_FILE);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io("read", &path, &e)),
    };
    let mut keep = 0;
    for (lines, end) in bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(at, _)| at + 1)
        .enumerate()
    {
        if lines > rounds as usize {
            break;
        }
        keep = end;
    }
    let text = if keep == 0 {
        header_line(TIMINGS_FILE).into_bytes()
    } else {
        bytes[..keep].to_vec()
    };
    if text != bytes {
        write_atomically(&path, &text)?;
    }
    Ok(())
}

/// Appends `text` to the appended file `name` and flushes it to disk; returns the bytes written.
pub fn append(dir: &Path, name: &str, text: &str) -> Result<u64> {
    let path = dir.join(name);
    let mut file = OpenOptions::new()
        .append(true)
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

// ---------------------------------------------------------------------------------------------
// The layout of an island-model run (docs/islands.md): each island's own run files
// in `island-I/`, the exchanged files in `migrants/` and `playoff/`, and the merged files at
// the top once the run is over.
// ---------------------------------------------------------------------------------------------

/// The folder of the migrants' files.
pub const MIGRANTS_DIR: &str = "migrants";
/// The folder of the playoff's exchanged files: each island's finalists and games.
pub const PLAYOFF_DIR: &str = "playoff";
/// The first column of the merged files of an island-model run.
pub const ISLAND_COLUMN: &str = "island";

/// Island `index`'s run folder inside the run folder `top`.
pub fn island_dir(top: &Path, index: u32) -> PathBuf {
    top.join(format!("island-{index}"))
}

/// The migrants island `index` sends at migration `epoch` (1 for the first).
pub fn migrants_file(top: &Path, epoch: u32, index: u32) -> PathBuf {
    top.join(MIGRANTS_DIR)
        .join(format!("epoch-{epoch}"))
        .join(format!("island-{index}.json"))
}

/// Island `index`'s finalists, for the playoff of all islands.
pub fn finalists_file(top: &Path, index: u32) -> PathBuf {
    top.join(PLAYOFF_DIR)
        .join(format!("finalists-island-{index}.json"))
}

/// The results of the playoff games island `index` played.
pub fn playoff_games_file(top: &Path, index: u32) -> PathBuf {
    top.join(PLAYOFF_DIR)
        .join(format!("games-island-{index}.json"))
}

/// Whether `name` is an entry an island-model run makes in its run folder.
pub fn is_island_entry(name: &str) -> bool {
    let island = name
        .strip_prefix("island-")
        .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()));
    island || name == MIGRANTS_DIR || name == PLAYOFF_DIR
}

/// Removes the temporary files island `index` left beside its exchanged files when it was
/// killed while writing one. Only island `index` writes those files, and the caller holds its
/// lock, so every such temporary is stale, whatever machine's process id it names.
pub fn remove_island_temporaries(top: &Path, index: u32) -> Result<()> {
    let mut folders = vec![top.join(PLAYOFF_DIR)];
    if let Ok(epochs) = fs::read_dir(top.join(MIGRANTS_DIR)) {
        folders.extend(epochs.flatten().map(|e| e.path()));
    }
    let mine = [
        format!(".island-{index}.json.tmp-"),
        format!(".finalists-island-{index}.json.tmp-"),
        format!(".games-island-{index}.json.tmp-"),
    ];
    for folder in folders {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if mine.iter().any(|prefix| name.starts_with(prefix.as_str())) {
                let path = entry.path();
                fs::remove_file(&path).map_err(|e| Error::io("remove", &path, &e))?;
            }
        }
    }
    Ok(())
}

/// Removes the island folders and exchanged files of an island-model run from `top` (for
/// `tune --force`).
pub fn clear_islands(top: &Path) -> Result<()> {
    let entries = fs::read_dir(top).map_err(|e| Error::io("read", top, &e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_island_entry(&name) && entry.path().is_dir() {
            let path = entry.path();
            fs::remove_dir_all(&path).map_err(|e| Error::io("remove", &path, &e))?;
        }
    }
    sync_dir(top);
    Ok(())
}

/// Writes the merged appended files of an island-model run into `top`: each island's rows (its
/// folder holds exactly its completed rounds) behind an `island` column, ordered by round, then
/// island, so that the files do not depend on which island finished first. `timings.csv` ends
/// with the islands' playoff rows. With `pdn` (the islands wrote `games.pdn`), `games.pdn`
/// holds their games in the order of the merged `games.csv`.
pub fn merge_islands(top: &Path, count: u32, pdn: bool) -> Result<()> {
    for name in COUNTED_FILES.into_iter().chain([TIMINGS_FILE]) {
        let mut rows: Vec<(u64, u32, csv::StringRecord, &[u8])> = Vec::new();
        let mut pdn_texts = Vec::new();
        if name == GAMES_FILE && pdn {
            for index in 0..count {
                let path = island_dir(top, index).join(GAMES_PDN_FILE);
                pdn_texts.push(fs::read(&path).map_err(|e| Error::io("read", &path, &e))?);
            }
        }
        for index in 0..count {
            let path = island_dir(top, index).join(name);
            let bytes = fs::read(&path).map_err(|e| Error::io("read", &path, &e))?;
            let mut games = pdn_texts.get(index as usize).map(|text| pdn_games(text));
            for record in csv::ReaderBuilder::new()
                .from_reader(&bytes[..])
                .into_records()
            {
                let record = record
                    .map_err(|e| Error::failure(format!("{}: not CSV ({e})", path.display())))?;
                // The playoff's timing row (`playoff`) sorts after every round.
                let round = record
                    .get(0)
                    .and_then(|r| r.parse().ok())
                    .unwrap_or(u64::MAX);
                let game = match games.as_mut() {
                    Some(games) => games.next().ok_or_else(|| {
                        Error::failure(format!(
                            "{}: fewer games than {name} has rows",
                            island_dir(top, index).join(GAMES_PDN_FILE).display()
                        ))
                    })?,
                    None => &[],
                };
                rows.push((round, index, record, game));
            }
        }
        // Stable: an island's rows of one round keep their order.
        rows.sort_by_key(|&(round, index, _, _)| (round, index));
        let header = header_line(name);
        let mut text = format!("{ISLAND_COLUMN},{header}");
        let mut games = Vec::new();
        for (_, index, record, game) in &rows {
            let mut fields = vec![index.to_string()];
            fields.extend(record.iter().map(str::to_string));
            text.push_str(&csv_line(&fields));
            games.extend_from_slice(game);
        }
        write_atomically(&top.join(name), text.as_bytes())?;
        if name == GAMES_FILE && pdn {
            write_atomically(&top.join(GAMES_PDN_FILE), &games)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{WeightPair, Weights};

    #[test]
    fn specimen_rows_match_the_header_and_leave_missing_parents_empty() {
        let header = specimens_header();
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
            parent_a: Some(3),
            parent_b: None,
            born_round: 2,
            fitted: false,
        };
        let tally = Tally {
            wins: 2,
            draws: 1,
            losses: 0,
        };
        let line = csv_line(&specimen_record(4, &specimen, 3, &tally));
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
                specimen_record(4, &specimen, 1, &tally)[5].clone()
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
    fn cut_drops_extra_bytes_and_refuses_short_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut lengths = start_files(dir.path(), true).unwrap();
        assert!(!lengths.contains_key(TIMINGS_FILE));
        assert_eq!(lengths[GAMES_PDN_FILE], 0);
        let before = lengths.clone();
        append_counted(dir.path(), ROUNDS_FILE, "1,2,3\n", &mut lengths).unwrap();
        assert_eq!(lengths[ROUNDS_FILE], before[ROUNDS_FILE] + 6);
        let rounds = dir.path().join(ROUNDS_FILE);
        let text = fs::read_to_string(&rounds).unwrap();
        assert!(text.starts_with("round,population,"));
        assert!(text.ends_with("\n1,2,3\n"));
        append_counted(
            dir.path(),
            GAMES_PDN_FILE,
            "[Event \"x\"]\n\n*\n\n",
            &mut lengths,
        )
        .unwrap();
        cut_to(dir.path(), &before, 0, true).unwrap();
        assert_eq!(fs::metadata(&rounds).unwrap().len(), before[ROUNDS_FILE]);
        assert_eq!(
            fs::metadata(dir.path().join(GAMES_PDN_FILE)).unwrap().len(),
            0
        );
        let mut longer = before.clone();
        *longer.get_mut(GAMES_FILE).unwrap() += 1;
        let err = cut_to(dir.path(), &longer, 0, true).unwrap_err();
        assert!(err.to_string().contains("games.csv"), "{err}");
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn recorded_pdn_games_must_be_whole_and_match_the_csv_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut lengths = start_files(dir.path(), true).unwrap();
        let game = "[Event \"x\"]\n[Round \"1\"]\n\n1. 9-13 *\n\n";
        append_counted(
            dir.path(),
            GAMES_PDN_FILE,
            &format!("{game}{game}"),
            &mut lengths,
        )
        .unwrap();
        let bytes = fs::read(dir.path().join(GAMES_PDN_FILE)).unwrap();
        let games: Vec<&[u8]> = pdn_games(&bytes).collect();
        assert_eq!(games, [game.as_bytes(), game.as_bytes()]);
        // Two games against no games.csv row.
        let err = check_recorded(dir.path(), &lengths, 0, true).unwrap_err();
        assert!(err.to_string().contains("holds 2 game(s)"), "{err}");
        // A length inside a game.
        *lengths.get_mut(GAMES_PDN_FILE).unwrap() -= 3;
        let err = check_recorded(dir.path(), &lengths, 0, true).unwrap_err();
        assert!(err.to_string().contains("does not end a game"), "{err}");
        // Asked for, but not recorded.
        lengths.remove(GAMES_PDN_FILE);
        let err = check_recorded(dir.path(), &lengths, 0, true).unwrap_err();
        assert!(
            err.to_string().contains("no length recorded for games.pdn"),
            "{err}"
        );
        assert!(check_recorded(dir.path(), &lengths, 0, false).is_ok());
    }

    #[test]
    fn timings_are_cut_by_rows() {
        let dir = tempfile::tempdir().unwrap();
        start_files(dir.path(), false).unwrap();
        let path = dir.path().join(TIMINGS_FILE);
        let header = fs::read_to_string(&path).unwrap();
        append(
            dir.path(),
            TIMINGS_FILE,
            "1,0.5,3,6.00\n2,0.25,3,12.00\n3,0.",
        )
        .unwrap();
        cut_timings(dir.path(), 1).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            format!("{header}1,0.5,3,6.00\n")
        );
        // Asking for more rows than exist keeps the complete ones.
        cut_timings(dir.path(), 5).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            format!("{header}1,0.5,3,6.00\n")
        );
        fs::remove_file(&path).unwrap();
        cut_timings(dir.path(), 2).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), header);
        // The counted files are checked before anything is cut.
        let lengths = start_files_lengths(dir.path());
        let err = cut_to(dir.path(), &lengths, 1, false).unwrap_err();
        assert!(err.to_string().contains("1 completed round"), "{err}");
    }

    /// The current lengths of the counted files.
    fn start_files_lengths(dir: &Path) -> FileLengths {
        COUNTED_FILES
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    fs::metadata(dir.join(name)).unwrap().len(),
                )
            })
            .collect()
    }

    #[test]
    fn an_island_removes_only_its_own_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let epoch = migrants_file(dir.path(), 1, 2)
            .parent()
            .unwrap()
            .to_path_buf();
        fs::create_dir_all(&epoch).unwrap();
        fs::create_dir_all(dir.path().join(PLAYOFF_DIR)).unwrap();
        let files = [
            epoch.join(".island-2.json.tmp-77"),
            epoch.join(".island-1.json.tmp-77"),
            epoch.join("island-2.json"),
            dir.path()
                .join(PLAYOFF_DIR)
                .join(".games-island-2.json.tmp-9"),
        ];
        for file in &files {
            fs::write(file, "x").unwrap();
        }
        remove_island_temporaries(dir.path(), 2).unwrap();
        let left: Vec<bool> = files.iter().map(|f| f.exists()).collect();
        assert_eq!(left, [false, true, true, false]);
        assert!(is_island_entry("island-12") && !is_island_entry("island-x"));
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
