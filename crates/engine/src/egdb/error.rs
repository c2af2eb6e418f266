//! What can go wrong with an endgame database, and the variable that names its cache folder.

use std::fmt;
use std::path::PathBuf;

use super::index::MAX_DATABASE_PIECES;

/// The environment variable that overrides the cache folder.
pub const CACHE_ENV: &str = "CHECKERS_TUNER_CACHE";

/// What can go wrong with a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgdbError {
    /// A piece count outside 1 to [`MAX_DATABASE_PIECES`].
    Pieces(u32),
    /// No database file for this piece count.
    Missing(PathBuf),
    /// A file that is not a whole database of this version (the reason says what is wrong).
    Damaged(PathBuf, String),
    /// Something in the cache that no database can be read from or written to: a pipe, a
    /// device, a folder or a dangling link in place of a file, an oversized stamp, a folder
    /// that cannot be written (the reason says which).
    Unusable(PathBuf, String),
    /// The file could not be read or written (the error says what failed on which path; its
    /// [`source`](std::error::Error::source) is the system's error where there is one).
    Io(crate::error::Error),
    /// No cache folder: neither `CHECKERS_TUNER_CACHE`, `XDG_CACHE_HOME` nor `HOME` is set.
    NoCacheDir,
    /// A distance too long for a table byte (never seen up to five pieces).
    TooLong(u32),
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Pieces(n) => write!(
                f,
                "an endgame database of {n} pieces: expected 1 to {MAX_DATABASE_PIECES}"
            ),
            EgdbError::Missing(path) => write!(
                f,
                "no endgame database at {} (build it with `checkers-tuner egdb build`)",
                path.display()
            ),
            EgdbError::Damaged(path, why) => {
                write!(f, "endgame database {} is damaged: {why}", path.display())
            }
            EgdbError::Unusable(path, why) => write!(f, "{}: {why}", path.display()),
            EgdbError::Io(e) => e.fmt(f),
            EgdbError::NoCacheDir => write!(
                f,
                "no cache folder for the endgame database: set {CACHE_ENV} (or HOME)"
            ),
            EgdbError::TooLong(d) => write!(f, "a distance above {d} plies: cannot be stored"),
        }
    }
}

impl std::error::Error for EgdbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EgdbError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<EgdbError> for crate::error::Error {
    fn from(e: EgdbError) -> crate::error::Error {
        match e {
            EgdbError::Pieces(_)
            | EgdbError::Missing(_)
            | EgdbError::NoCacheDir
            | EgdbError::Unusable(..) => crate::error::Error::input(e.to_string()),
            // The I/O failure as it is, its cause kept.
            EgdbError::Io(e) => e,
            _ => crate::error::Error::failure(e.to_string()),
        }
    }
}
