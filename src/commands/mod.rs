//! One module per command: its arguments and what it does with the library.

pub mod engine;
pub mod export;
pub mod matchplay;
pub mod play;
pub mod plot;
pub mod tune;

use checkers_tuner::{Error, Position, Result};

/// Reads a `--fen` argument.
pub fn parse_fen(fen: &str) -> Result<Position> {
    Position::from_fen(fen).map_err(|e| Error::input(format!("--fen {fen:?}: {e}")))
}

/// A rayon pool of `threads` threads (0 = one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::failure(format!("cannot start {threads} threads: {e}")))
}
