//! One module per command: its arguments and what it does with the library.

pub mod egdb;
pub mod engine;
pub mod export;
pub mod fit;
pub mod hub;
pub mod matchplay;
pub mod play;
pub mod plot;
mod progress;
pub mod tune;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use checkers_tuner::{Error, Position, Result};

/// Exit status after Ctrl-C (128 + SIGINT), as shells report it.
pub const INTERRUPTED_STATUS: i32 = 130;

/// A flag set by the first Ctrl-C (SIGINT, also when the shell started the program with it
/// ignored); a second one quits at once. What was written so far stays valid either way.
pub fn ctrl_c_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&flag);
    // Failing to install the handler only costs the clean stop; a kill is still safe.
    let _ = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            std::process::exit(INTERRUPTED_STATUS);
        }
        eprintln!("\nStopping after the games in progress (Ctrl-C again to quit at once)…");
    });
    flag
}

/// Reads a `--fen` argument: the FEN itself (`B:W21-32:B1-12`) or its PDN tag as copied from
/// a game file (`[FEN "B:W21-32:B1-12"]`).
pub fn parse_fen(fen: &str) -> Result<Position> {
    Position::from_fen(fen_of_tag(fen)).map_err(|e| Error::input(format!("--fen {fen:?}: {e}")))
}

/// The FEN inside a PDN `[FEN "…"]` tag, or `text` itself when it is not one.
fn fen_of_tag(text: &str) -> &str {
    let trimmed = text.trim();
    trimmed
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .and_then(|t| t.trim().strip_prefix("FEN"))
        .map(str::trim)
        .and_then(|t| t.strip_prefix('"'))
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
}

/// Most worker threads a command accepts: far more than any machine this runs on has cores,
/// and few enough to start at once.
pub const MAX_THREADS: usize = 1024;

/// Parses a `--threads` value: a whole number from 1 to [`MAX_THREADS`].
pub fn threads_arg(text: &str) -> std::result::Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {MAX_THREADS}")),
    }
}

/// A rayon pool of `threads` threads (0 = one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::failure(format!("cannot start {threads} threads: {e}")))
}
