//! The files a run appends to round by round: started with their headers, appended to with
//! each write on disk before the checkpoint that counts it, and the lengths and proofs a
//! checkpoint records of them.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::names::{
    GAMES_FILE, GAMES_PDN_FILE, LEARNING_FILE, ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE,
};
use super::rows::{header_line, SpecimenColumns};
use checkers_engine::atomic_file::sync_dir;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file;
use checkers_engine::text::fingerprint;

/// The files appended round by round whose byte lengths every checkpoint records. `timings.csv`
/// is appended too, but its length varies with the clock; it is cut by lines instead, so that
/// `checkpoint.json` itself stays the same between identical runs.
pub const COUNTED_FILES: [&str; 4] = [ROUNDS_FILE, SPECIMENS_FILE, GAMES_FILE, LEARNING_FILE];

/// Byte length of each appended file, keyed by file name.
pub type FileLengths = BTreeMap<String, u64>;

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
