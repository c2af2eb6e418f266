//! The run folder (docs/run-folder.md): the names of the files a run writes, and the one
//! reader of its CSV files and of the run's name, which `plot` and `export` share. The run
//! writes, checks and cuts these files through `run/files.rs`, which builds on the same names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use checkers_engine::egdb::MAX_DATABASE_PIECES;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, Links, ReadError, CONFIG_CAP};

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

/// Every file a run writes: what `--force` removes (the lock excepted: see [`LOCK_FILE`]).
/// The checkpoint comes first so that a half-finished removal never leaves a checkpoint beside
/// missing files.
pub const RUN_FILES: [&str; 15] = [
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
];

/// The run folder's lock file (see `run/lock.rs`): created by the first `tune`, never removed.
pub const LOCK_FILE: &str = ".lock";

/// How `config.toml` written by this program begins (see `Config::to_toml`).
const CONFIG_MARK: &str = "# The resolved config of run ";

/// The keys of a run's `config.toml` that may change after the run started (while its playoff
/// has not: see `run/edits.rs`, which decides when): they shape no round already played.
pub(crate) const EDITABLE_KEYS: &[&str] = &["tournament.playoff_openings"];

/// The identity of the run whose resolved config is `config` (its `config.toml`, which holds
/// the seed): a hash of its keys and values other than [`EDITABLE_KEYS`], so that comments,
/// spacing and the keys that may still change do not change it. Two runs with the same
/// identity play the same games. Text that is not TOML is hashed as it is.
pub(crate) fn run_identity(config: &str) -> u64 {
    let canonical = match config.parse::<toml::Table>() {
        Ok(mut table) => {
            for key in EDITABLE_KEYS {
                let mut parts: Vec<&str> = key.split('.').collect();
                let last = parts.pop().expect("a key has a name");
                let mut at = Some(&mut table);
                for part in parts {
                    at = at
                        .and_then(|t| t.get_mut(part))
                        .and_then(|v| v.as_table_mut());
                }
                if let Some(t) = at {
                    t.remove(last);
                }
            }
            table.to_string()
        }
        Err(_) => config.to_string(),
    };
    let hex = checkers_engine::text::fingerprint(canonical.as_bytes());
    u64::from_str_radix(&hex, 16).expect("a fingerprint is 16 hexadecimal digits")
}

/// The run identity of the run folder `dir`, from its `config.toml` (an island's folder: the
/// run folder above it): `None` when there is none to read.
pub(crate) fn run_identity_of(dir: &Path) -> Option<u64> {
    let text =
        input_file::read_text(&dir.join(CONFIG_FILE), Links::Follow, Some(CONFIG_CAP)).ok()?;
    Some(run_identity(&text))
}

/// Whether `dir` is a run folder: it holds `checkpoint.json`, or a `config.toml` written by
/// this program (the run stopped before its first checkpoint).
pub fn holds_run(dir: &Path) -> bool {
    if dir.join(CHECKPOINT_FILE).exists() {
        return true;
    }
    let mut start = [0u8; CONFIG_MARK.len()];
    input_file::open(&dir.join(CONFIG_FILE), Links::Follow)
        .ok()
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut start).ok())
        .is_some_and(|()| start == CONFIG_MARK.as_bytes())
}

/// Refuses an output `out` that would write over a file of a run folder: of a run folder among
/// `inputs` (an input that is a folder is taken as a run folder, `export RUN`, `fit RUN`,
/// `plot RUN`, and an input file inside a run folder, `RUN/best.json`, `RUN/games.pdn`, stands
/// for its folder, found through symbolic links to it), and of any other run folder (a folder
/// with a checkpoint, or a run's `config.toml`) that `out` lies in: only a run writes its own
/// files, so `export … -o RUN2/checkpoint.json` would leave RUN2 unable to resume. A file of
/// the run is any of [`RUN_FILES`] or the lock in the folder, and anything in its subfolders
/// (the islands', the migrants', the shared playoff's); `out` is compared by where it really is
/// (its canonical folder, and its device and inode when it exists), so `./`, `..` and links are
/// seen through. A new name beside the run's files (`RUN/weights.h`) is fine. `what` names the
/// output in the message (`-o`).
pub fn refuse_writing_runs(out: &Path, what: &str, inputs: &[&Path]) -> Result<()> {
    let refuse = |file: String, run: &Path, reads: bool| {
        let whose = if reads {
            "which this command reads"
        } else {
            "which this command does not run"
        };
        Err(Error::input(format!(
            "{what} {}: is {file} of the run folder {}, {whose}; only the run writes its files \
             (give another file name)",
            out.display(),
            run.display()
        )))
    };
    for input in inputs {
        // A symbolic link to a run's file stands for that file, in its run folder.
        let input = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
        let run = if input.is_dir() {
            input
        } else {
            match checkers_engine::atomic_file::parent_dir(&input) {
                dir if holds_run(&dir) => dir,
                _ => continue,
            }
        };
        if let Some(file) = run_file_at(out, &run) {
            return refuse(file, &run, true);
        }
    }
    let folder = checkers_engine::atomic_file::parent_dir(out);
    let Ok(folder) = std::fs::canonicalize(&folder) else {
        return Ok(());
    };
    for run in folder.ancestors() {
        if holds_run(run) {
            if let Some(file) = run_file_at(out, run) {
                return refuse(file, run, false);
            }
        }
    }
    Ok(())
}

/// What of the run folder `run` the output `out` would write over (`the best.json`, `a file in
/// its subfolder island-1`), if any.
fn run_file_at(out: &Path, run: &Path) -> Option<String> {
    let name = out.file_name()?.to_str().unwrap_or_default().to_owned();
    // A hard link (or any other spelling) of an existing file of the run.
    for file in RUN_FILES.iter().chain([&LOCK_FILE]) {
        if checkers_engine::atomic_file::same_file(out, &run.join(file)) {
            return Some(format!("the {file}"));
        }
    }
    let folder = std::fs::canonicalize(checkers_engine::atomic_file::parent_dir(out)).ok()?;
    let run = std::fs::canonicalize(run).ok()?;
    let inside = folder.strip_prefix(&run).ok()?;
    if inside.as_os_str().is_empty() {
        let ours = RUN_FILES.contains(&name.as_str()) || name == LOCK_FILE;
        ours.then(|| format!("the {name}"))
    } else {
        Some(format!("a file in its subfolder {}", inside.display()))
    }
}

/// A CSV file of a run folder, read whole, whose columns are found by name (so that the
/// reader does not depend on column order, and an island-model run's extra `island` column is
/// just one more column).
pub struct CsvTable {
    path: PathBuf,
    index: HashMap<String, usize>,
    rows: Vec<csv::StringRecord>,
}

/// A column found in a [`CsvTable`]'s header: where it is, and its name for messages.
pub struct Column {
    index: usize,
    name: String,
}

impl Column {
    /// The column's name in the header line.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The (trimmed) text of this field of `record`; empty when the row is short.
    pub fn raw<'r>(&self, record: &'r csv::StringRecord) -> &'r str {
        record.get(self.index).unwrap_or("")
    }
}

impl CsvTable {
    /// Reads the CSV file at `path` with its header line, parsing as it reads. A missing or
    /// unreadable file, one that is not a regular file, or text that is not CSV, is bad input
    /// naming the file (and the line).
    pub fn read(path: &Path) -> Result<CsvTable> {
        CsvTable::from_reader(path, std::io::BufReader::new(open_csv(path)?))
    }

    /// Reads `bytes` as the CSV file at `path` (for a file read up to a recorded length).
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<CsvTable> {
        CsvTable::from_reader(path, bytes)
    }

    fn from_reader(path: &Path, source: impl std::io::Read) -> Result<CsvTable> {
        let mut reader = csv_reader(source);
        let index = header_index(path, &mut reader)?;
        let rows = reader
            .records()
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| not_csv(path, e))?;
        Ok(CsvTable {
            path: path.to_owned(),
            index,
            rows,
        })
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The rows after the header.
    pub fn rows(&self) -> &[csv::StringRecord] {
        &self.rows
    }

    /// Column `name`, or bad input naming the file and the column.
    pub fn column(&self, name: &str) -> Result<Column> {
        self.optional(name).ok_or_else(|| {
            Error::input(format!(
                "{}: missing column `{name}` in the header line",
                self.path.display()
            ))
        })
    }

    /// Column `name`, if the header has it.
    pub fn optional(&self, name: &str) -> Option<Column> {
        let index = *self.index.get(name)?;
        Some(Column {
            index,
            name: name.to_owned(),
        })
    }

    /// The field of `record` in `column` parsed as `T`, or bad input naming the file, the
    /// line, the column and what a valid value is (`expected`).
    pub fn parse<T: FromStr>(
        &self,
        record: &csv::StringRecord,
        column: &Column,
        expected: &str,
    ) -> Result<T> {
        column
            .raw(record)
            .parse()
            .map_err(|_| self.invalid(record, column, expected))
    }

    /// The error for a field of `record` in `column` that is not `expected` (quoting a piece
    /// of the field: a field can be megabytes long).
    pub fn invalid(&self, record: &csv::StringRecord, column: &Column, expected: &str) -> Error {
        Error::input(format!(
            "{}, column `{}`: `{}` is not {expected}",
            self.place(record),
            column.name,
            checkers_engine::text::excerpt(column.raw(record))
        ))
    }

    /// "FILE line N", the place of `record`.
    pub fn place(&self, record: &csv::StringRecord) -> String {
        format!("{} line {}", self.path.display(), line_of(record))
    }
}

/// A run's CSV file read a row at a time, for files too large to hold (a fit's `games.csv`),
/// and whole rows only: a last line without its line break (a row a running or killed writer
/// had not finished, which a resumed run cuts off) is left out, and [`CsvRows::cut_row`] says
/// so.
pub struct CsvRows {
    path: PathBuf,
    index: HashMap<String, usize>,
    reader: csv::Reader<WholeLines<std::io::BufReader<std::fs::File>>>,
}

impl CsvRows {
    /// Opens the CSV file at `path` and reads its header line; errors as [`CsvTable::read`].
    pub fn open_whole_rows(path: &Path) -> Result<CsvRows> {
        let lines = WholeLines {
            source: std::io::BufReader::new(open_csv(path)?),
            line: Vec::new(),
            at: 0,
            cut: false,
        };
        let mut reader = csv_reader(lines);
        let index = header_index(path, &mut reader)?;
        Ok(CsvRows {
            path: path.to_owned(),
            index,
            reader,
        })
    }

    /// Column `name`, or bad input naming the file and the column.
    pub fn column(&self, name: &str) -> Result<Column> {
        let index = *self.index.get(name).ok_or_else(|| {
            Error::input(format!(
                "{}: missing column `{name}` in the header line",
                self.path.display()
            ))
        })?;
        Ok(Column {
            index,
            name: name.to_owned(),
        })
    }

    /// The next row into `row`; `false` after the last. Text that is not CSV is bad input
    /// naming the file and the line.
    pub fn next_row(&mut self, row: &mut csv::StringRecord) -> Result<bool> {
        self.reader
            .read_record(row)
            .map_err(|e| not_csv(&self.path, e))
    }

    /// Whether a last line cut short was left out (known once the rows are read).
    pub fn cut_row(&self) -> bool {
        self.reader.get_ref().cut
    }
}

/// The reader of a run's CSV text: fields trimmed, a header line.
fn csv_reader<R: std::io::Read>(source: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(source)
}

/// The columns of the header line, by name.
fn header_index<R: std::io::Read>(
    path: &Path,
    reader: &mut csv::Reader<R>,
) -> Result<HashMap<String, usize>> {
    let mut index = HashMap::new();
    for (i, name) in reader
        .headers()
        .map_err(|e| not_csv(path, e))?
        .iter()
        .enumerate()
    {
        // A repeated header keeps its first place, as a reader by position would see it.
        index.entry(name.to_owned()).or_insert(i);
    }
    Ok(index)
}

/// The error of text that is not CSV, with its line when known.
fn not_csv(path: &Path, e: csv::Error) -> Error {
    let at = e
        .position()
        .map(|p| format!(" line {}", p.line()))
        .unwrap_or_default();
    Error::input(format!("{}{at}: not valid CSV ({e})", path.display()))
}

/// Opens a run's CSV file for reading.
fn open_csv(path: &Path) -> Result<std::fs::File> {
    input_file::open(path, Links::Follow).map_err(|e| match e {
        ReadError::NotFound => Error::input(format!(
            "{}: file not found (is this a run folder?)",
            path.display()
        )),
        e => e.at(path),
    })
}

/// A reader that passes on whole lines only: bytes after the last line break are held back and
/// dropped at the end of the source (`cut` then says so).
struct WholeLines<R> {
    source: R,
    /// The line being passed on, and how much of it has been.
    line: Vec<u8>,
    at: usize,
    cut: bool,
}

impl<R: std::io::BufRead> std::io::Read for WholeLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.line.len() {
            self.line.clear();
            self.at = 0;
            self.source.read_until(b'\n', &mut self.line)?;
            if !self.line.ends_with(b"\n") {
                self.cut = !self.line.is_empty();
                self.line.clear();
                return Ok(0);
            }
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The line of the file `record` was read from (1 is the header).
pub fn line_of(record: &csv::StringRecord) -> u64 {
    record.position().map_or(0, |p| p.line())
}

/// The run's resolved config (`config.toml`) as a TOML table; `None` when the folder has none
/// (a run folder from before its first write, or a hand-made one).
pub fn read_config_table(run_dir: &Path) -> Result<Option<toml::Table>> {
    let path = run_dir.join(CONFIG_FILE);
    let text = match input_file::read_text(&path, Links::Follow, Some(CONFIG_CAP)) {
        Ok(text) => text,
        Err(ReadError::NotFound) => return Ok(None),
        Err(e) => return Err(e.at(&path)),
    };
    let text = checkers_engine::text::strip_bom(&text);
    text.parse().map(Some).map_err(|e: toml::de::Error| {
        Error::input(format!(
            "{}: not TOML ({})",
            path.display(),
            e.message().trim_end()
        ))
    })
}

/// `[search] database_pieces` of a run's resolved config (`table`): the endgame database its
/// games were played with (the config's default, 5, when the key is missing), or what is wrong
/// with the key.
pub fn database_pieces_of(table: &toml::Table) -> std::result::Result<u32, String> {
    let max = i64::from(MAX_DATABASE_PIECES);
    match table.get("search").and_then(|s| s.get("database_pieces")) {
        None => Ok(MAX_DATABASE_PIECES),
        Some(toml::Value::Integer(n)) if (0..=max).contains(n) => Ok(*n as u32),
        Some(_) => Err(format!(
            "`search.database_pieces` must be an integer from 0 to {max}"
        )),
    }
}

/// The endgame database the run in `run_dir` played with, from its `config.toml`; `None` when
/// the folder has no config.
pub fn run_database_pieces(run_dir: &Path) -> Result<Option<u32>> {
    let Some(table) = read_config_table(run_dir)? else {
        return Ok(None);
    };
    database_pieces_of(&table)
        .map(Some)
        .map_err(|msg| Error::input(format!("{}: {msg}", run_dir.join(CONFIG_FILE).display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<impl std::fmt::Debug>) -> String {
        match result {
            Err(Error::Input(message)) => message,
            other => panic!("expected bad input, got {other:?}"),
        }
    }

    #[test]
    fn columns_are_found_by_name_and_fields_checked_with_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ROUNDS_FILE);
        std::fs::write(&path, "\u{feff}id, round\n3, 1\n4, x\n").unwrap();
        let table = CsvTable::read(&path).unwrap();
        let round = table.column("round").unwrap();
        assert!(table.optional("island").is_none());
        let rows = table.rows();
        assert_eq!(
            table.parse::<u32>(&rows[0], &round, "an integer").unwrap(),
            1
        );
        let bad = message(table.parse::<u32>(&rows[1], &round, "an integer"));
        assert!(
            bad.ends_with("rounds.csv line 3, column `round`: `x` is not an integer"),
            "{bad}"
        );
        let missing = message(table.column("games").map(|_| ()));
        assert!(missing.contains("missing column `games`"), "{missing}");
        let absent = message(CsvTable::read(&dir.path().join(GAMES_FILE)).map(|_| ()));
        assert!(absent.contains("games.csv: file not found"), "{absent}");
    }

    #[test]
    fn the_config_table_is_none_without_a_config_and_bad_toml_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_config_table(dir.path()).unwrap().is_none());
        std::fs::write(dir.path().join(CONFIG_FILE), "name = \"r\"\n").unwrap();
        let table = read_config_table(dir.path()).unwrap().unwrap();
        assert_eq!(table["name"].as_str(), Some("r"));
        std::fs::write(dir.path().join(CONFIG_FILE), "name = \n").unwrap();
        let bad = message(read_config_table(dir.path()));
        assert!(bad.contains("config.toml: not TOML"), "{bad}");
    }

    #[test]
    fn whole_rows_leave_out_a_last_line_cut_short() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        // Read whole, the cut row would be a row of its own, its last move cut short.
        std::fs::write(&path, "round,moves\n1,9-13 22-18\n2,11-1").unwrap();
        let whole = |path: &Path| {
            let mut rows = CsvRows::open_whole_rows(path).unwrap();
            let moves = rows.column("moves").unwrap();
            let (mut row, mut read) = (csv::StringRecord::new(), Vec::new());
            while rows.next_row(&mut row).unwrap() {
                read.push((line_of(&row), moves.raw(&row).to_string()));
            }
            (read, rows.cut_row())
        };
        let one = vec![(2, "9-13 22-18".to_string())];
        assert_eq!(whole(&path), (one.clone(), true));
        assert_eq!(CsvTable::read(&path).unwrap().rows().len(), 2);
        std::fs::write(&path, "round,moves\n1,9-13 22-18\n").unwrap();
        assert_eq!(whole(&path), (one, false));
        let err = CsvRows::open_whole_rows(&path)
            .unwrap()
            .column("result")
            .err()
            .unwrap();
        assert!(err.to_string().contains("missing column `result`"), "{err}");
    }
}
