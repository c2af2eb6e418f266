//! The crate's top-level error: bad input (exit status 2) or another failure (exit status 1),
//! an I/O failure keeping the system's error as its cause.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An error that reaches the user. Each module has its own small error type; they convert
/// into this one, keeping their message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Bad input: a config, FEN, weights file, openings file or argument (exit status 2).
    Input(String),
    /// Any other failure: an interrupted run, … (exit status 1).
    Failure(String),
    /// An operation on a file or folder failed (exit status 1); its
    /// [`source`](std::error::Error::source) is the system's error.
    Io(IoError),
}

/// What failed on which path, and the system's error: "cannot read PATH: REASON".
#[derive(Debug, Clone)]
pub struct IoError {
    op: &'static str,
    path: PathBuf,
    // Shared, so that the error stays `Clone` (an `io::Error` is not).
    source: Arc<io::Error>,
}

impl IoError {
    /// What was being done: `"read"`, `"write"`, `"create"`, …
    pub fn op(&self) -> &'static str {
        self.op
    }

    /// The file or folder it was done to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The system's error.
    pub fn io_error(&self) -> &io::Error {
        &self.source
    }

    /// The kind of the system's error (`NotFound`, `PermissionDenied`, …).
    pub fn kind(&self) -> io::ErrorKind {
        self.source.kind()
    }
}

impl PartialEq for IoError {
    /// The same operation on the same path, failed the same way (an `io::Error` has no
    /// equality: its kind and message stand for it).
    fn eq(&self, other: &IoError) -> bool {
        self.op == other.op
            && self.path == other.path
            && self.source.kind() == other.source.kind()
            && self.source.to_string() == other.source.to_string()
    }
}

impl Eq for IoError {}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} {}: {}",
            self.op,
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

impl Error {
    /// Shorthand for a bad-input error.
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(msg.into())
    }

    /// Shorthand for another failure.
    pub fn failure(msg: impl Into<String>) -> Error {
        Error::Failure(msg.into())
    }

    /// An I/O failure on `path`, with the operation that failed (`"read"`, `"write"`, …).
    pub fn io(op: &'static str, path: &Path, err: &io::Error) -> Error {
        Error::Io(IoError {
            op,
            path: path.to_path_buf(),
            // An `io::Error` cannot be cloned; its kind and message are what it says.
            source: Arc::new(io::Error::new(err.kind(), err.to_string())),
        })
    }

    /// The process exit status for this error: 2 for bad input, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Failure(_) | Error::Io(_) => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(msg) | Error::Failure(msg) => f.write_str(msg),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input(_) | Error::Failure(_) => None,
            // The I/O failure's own cause: the system's error.
            Error::Io(e) => std::error::Error::source(e),
        }
    }
}

impl From<IoError> for Error {
    fn from(e: IoError) -> Error {
        Error::Io(e)
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
