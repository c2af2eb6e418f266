//! The files written as the match goes: `--out FILE.csv` with its summary, and `--pdn`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use checkers_engine::atomic_file::write_output_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::Opening;
use checkers_harness::matchplay::{read_match_file, read_match_rows, summary_path, MatchGame};

use super::summary::{in_progress, IN_PROGRESS};

/// A file written as the match goes, one pair's text at a time (in opening order), so a
/// stopped match keeps its games.
pub(super) struct Appender {
    pub(super) path: PathBuf,
    file: File,
    /// The first write that failed; the match stops at it.
    pub(super) error: Option<Error>,
}

impl Appender {
    /// Starts `path` afresh with `initial`, written atomically.
    pub(super) fn create(path: &Path, initial: &[u8]) -> Result<Appender> {
        write_output_atomically(path, initial)?;
        Appender::continue_at(path, initial.len())
    }

    /// Opens `path` to append after its first `len` bytes, dropping the rest.
    fn continue_at(path: &Path, len: usize) -> Result<Appender> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| Error::io("open", path, &e))?;
        file.set_len(len as u64)
            .map_err(|e| Error::io("truncate", path, &e))?;
        Ok(Appender {
            path: path.to_path_buf(),
            file,
            error: None,
        })
    }

    /// Appends `text`; false (keeping the error) if it could not be written.
    pub(super) fn append(&mut self, text: &str) -> bool {
        if self.error.is_some() {
            return false;
        }
        match self.file.write_all(text.as_bytes()) {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(Error::io("write", &self.path, &e));
                false
            }
        }
    }
}

/// `--out FILE.csv` and its summary: the header, then the rows of each pair as soon as it is
/// applied. `T` is what an interrupted file's rows give back: a match's games, or a
/// tournament's games by pairing.
pub(super) struct GamesFile<T = Vec<MatchGame>> {
    pub(super) csv: Appender,
    pub(super) summary: PathBuf,
    /// The games read back from an interrupted match's file, to continue after them.
    pub(super) previous: T,
}

impl GamesFile {
    /// Continues `path` if its summary marks it as an unfinished match with this `key` (a
    /// different key is refused), otherwise starts it afresh (a finished match's file is
    /// replaced, as before). Writes the summary's in-progress form.
    pub(super) fn open(
        path: &Path,
        key: &str,
        openings: &[Opening],
        header: &[String],
        detail: bool,
    ) -> Result<GamesFile> {
        let first = MatchGame::csv_header_line_for(detail);
        GamesFile::open_with(path, key, header, "match", &first, |bytes| {
            let rows = read_match_rows(bytes, &path.display().to_string(), openings)?;
            Ok((rows.complete_len, rows.games))
        })
    }
}

impl<T: Default> GamesFile<T> {
    /// [`GamesFile::open`] for a file whose first line is `first` and whose rows `read` reads
    /// back (to what they hold and the length of their whole pairs); `what` (`match`,
    /// `tournament`) names it in messages.
    pub(super) fn open_with(
        path: &Path,
        key: &str,
        header: &[String],
        what: &str,
        first: &str,
        read: impl FnOnce(&[u8]) -> Result<(usize, T)>,
    ) -> Result<GamesFile<T>> {
        let summary = summary_path(path);
        let marked = read_match_file(&summary)?
            .filter(|text| text.starts_with(format!("{IN_PROGRESS}\n").as_bytes()));
        let unfinished = match marked {
            Some(text) => read_match_file(path)?.map(|bytes| (text, bytes)),
            None => None,
        };
        let (csv, previous) = match unfinished {
            Some((text, bytes)) => {
                let text = String::from_utf8_lossy(&text);
                if text.lines().nth(1) != Some(&format!("key: {key}")) {
                    return Err(Error::input(format!(
                        "--out {}: it holds an unfinished match or tournament with other \
                         players, openings or settings (see {}); run that {what}'s command \
                         again to finish it, or give another --out",
                        path.display(),
                        summary.display()
                    )));
                }
                let (complete_len, previous) = read(&bytes)?;
                // Drop what a killed process left after the last whole pair.
                (Appender::continue_at(path, complete_len)?, previous)
            }
            _ => (Appender::create(path, first.as_bytes())?, T::default()),
        };
        let games_file = GamesFile {
            csv,
            summary,
            previous,
        };
        games_file.write_summary(&in_progress(key, &(header.join("\n") + "\n")))?;
        Ok(games_file)
    }

    pub(super) fn write_summary(&self, text: &str) -> Result<()> {
        write_output_atomically(&self.summary, text.as_bytes())
    }
}
