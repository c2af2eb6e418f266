//! The crate's top-level error: bad input (exit status 2) or another failure (exit status 1).

use std::fmt;

/// An error that reaches the user. Each module has its own small error type; they convert
/// into this one, keeping their message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Bad input: a config, FEN, weights file, openings file or argument (exit status 2).
    Input(String),
    /// Any other failure: I/O, an interrupted run, … (exit status 1).
    Failure(String),
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
    pub fn io(op: &str, path: &std::path::Path, err: &std::io::Error) -> Error {
        Error::Failure(format!("cannot {op} {}: {err}", path.display()))
    }

    /// The process exit status for this error: 2 for bad input, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Failure(_) => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(msg) | Error::Failure(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
