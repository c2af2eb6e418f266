//! The one reader of a run folder's CSV files, which `plot`, `export`, `fit` and `resume` share:
//! columns found by name, fields checked with the file, the line and the column.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, Links, ReadError};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_folder::{GAMES_FILE, ROUNDS_FILE};

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
