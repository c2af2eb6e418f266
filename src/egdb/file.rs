//! The database on disk: where it lives, its header and checksum, and reading it back.
//!
//! One file per piece count, `egdb-N.bin` in the cache folder ([`cache_dir`]):
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | magic `CKTEGDB` and a zero byte |
//! | 8–11 | format version (little-endian u32) |
//! | 12–15 | pieces N |
//! | 16–23 | number of table bytes that follow |
//! | 24–31 | checksum of those bytes ([`checksum`]) |
//! | 32… | the class tables in [`Material::all`](super::Material::all) order, one byte each |
//!
//! A file whose header, length or checksum does not match what this version would write is
//! damaged: it is never used, and [`open_or_build`] builds it again. Files are written
//! atomically (a temporary file renamed over the old one), so a reader sees a whole file or
//! none.

use std::path::{Path, PathBuf};

use crate::atomic_file::write_atomically;

use super::build::build;
use super::error::{EgdbError, CACHE_ENV};
use super::index::MAX_DATABASE_PIECES;
use super::probe::{checksum, EndgameDb};

const MAGIC: &[u8; 8] = b"CKTEGDB\0";
/// Bumped whenever the numbering or the byte meaning changes.
const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 32;

/// The folder the databases live in: `$CHECKERS_TUNER_CACHE/egdb` if that is set, else
/// `$XDG_CACHE_HOME/checkers-tuner/egdb`, else `~/.cache/checkers-tuner/egdb`.
pub fn cache_dir() -> Result<PathBuf, EgdbError> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(CACHE_ENV) {
        return Ok(PathBuf::from(dir).join("egdb"));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(dir).join("checkers-tuner").join("egdb"));
    }
    match var("HOME") {
        Some(home) => Ok(PathBuf::from(home)
            .join(".cache")
            .join("checkers-tuner")
            .join("egdb")),
        None => Err(EgdbError::NoCacheDir),
    }
}

/// The file of the `pieces`-piece database in `dir`.
pub fn database_path(dir: &Path, pieces: u32) -> PathBuf {
    dir.join(format!("egdb-{pieces}.bin"))
}

impl EndgameDb {
    /// Writes the database to `path` atomically, creating its folder if needed.
    pub fn save(&self, path: &Path) -> Result<(), EgdbError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| EgdbError::Io(format!("cannot create {}: {e}", dir.display())))?;
        }
        let mut bytes = Vec::with_capacity(HEADER_LEN + self.data.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&self.pieces.to_le_bytes());
        bytes.extend_from_slice(&(self.data.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&self.checksum.to_le_bytes());
        bytes.extend_from_slice(&self.data);
        write_atomically(path, &bytes).map_err(|e| EgdbError::Io(e.to_string()))
    }

    /// Reads the `pieces`-piece database from `path`, checking its header, length and
    /// checksum: [`EgdbError::Missing`] if there is no file, [`EgdbError::Damaged`] if it is
    /// not a whole database of this version.
    pub fn load(path: &Path, pieces: u32) -> Result<EndgameDb, EgdbError> {
        if !(1..=MAX_DATABASE_PIECES).contains(&pieces) {
            return Err(EgdbError::Pieces(pieces));
        }
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(EgdbError::Missing(path.to_path_buf()))
            }
            Err(e) => {
                return Err(EgdbError::Io(format!(
                    "cannot read {}: {e}",
                    path.display()
                )))
            }
        };
        let damaged = |why: String| EgdbError::Damaged(path.to_path_buf(), why);
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err(damaged("not an endgame database file".into()));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        if word(8) != FORMAT_VERSION {
            return Err(damaged(format!(
                "format version {}, expected {FORMAT_VERSION}",
                word(8)
            )));
        }
        if word(12) != pieces {
            return Err(damaged(format!("{} pieces, expected {pieces}", word(12))));
        }
        let (classes, lookup, total) = EndgameDb::layout(pieces);
        let body = &bytes[HEADER_LEN..];
        if long(16) != total as u64 || body.len() != total {
            return Err(damaged(format!(
                "{} table bytes, expected {total}",
                body.len()
            )));
        }
        let sum = checksum(body);
        if sum != long(24) {
            return Err(damaged("checksum mismatch".into()));
        }
        let mut data = bytes;
        data.drain(..HEADER_LEN);
        Ok(EndgameDb {
            pieces,
            classes,
            lookup,
            data,
            checksum: sum,
        })
    }
}

/// How [`open_or_build`] found the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// Read from its file.
    Loaded,
    /// There was no file: built and written.
    Built,
    /// The file was damaged: built again and written over it.
    Rebuilt,
}

/// The `pieces`-piece database of folder `dir`: read from its file, or, when there is none or
/// it is damaged, built (told to `before_build` first, with the reason if the file was
/// damaged) and written there. `progress` is [`build`]'s.
pub fn open_or_build(
    dir: &Path,
    pieces: u32,
    before_build: impl FnOnce(Option<&EgdbError>),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(EndgameDb, Opened), EgdbError> {
    let path = database_path(dir, pieces);
    let opened = match EndgameDb::load(&path, pieces) {
        Ok(db) => return Ok((db, Opened::Loaded)),
        Err(EgdbError::Missing(_)) => {
            before_build(None);
            Opened::Built
        }
        Err(e @ EgdbError::Damaged(..)) => {
            before_build(Some(&e));
            Opened::Rebuilt
        }
        Err(e) => return Err(e),
    };
    let db = build(pieces, progress)?;
    db.save(&path)?;
    Ok((db, opened))
}
