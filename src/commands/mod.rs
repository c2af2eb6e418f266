//! One module per command: its arguments and what it does with the library.

pub mod datagen;
pub mod egdb;
pub mod engine;
pub mod engine_weights;
pub mod export;
pub mod fit;
pub mod hub;
pub mod interrupt;
pub mod matchplay;
pub mod output;
pub mod play;
pub mod plot;
mod progress;
pub mod search_args;
pub mod spsa;
pub mod tune;

use std::io::{self, BufRead, Read};

use checkers_engine::board::Position;
use checkers_engine::error::{Error, Result};

pub use interrupt::INTERRUPTED_STATUS;

/// Reads one line of `input` without its line end: `None` at the end of the input,
/// `Some(None)` for a line longer than `max` bytes (skipped to its end unkept, so no line can
/// take all memory), else the line's bytes.
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Option<Vec<u8>>>> {
    let mut line = Vec::new();
    let read = Read::take(&mut *input, max as u64 + 1).read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(None);
    }
    // `max + 1` bytes without a line end: the line is longer than `max`.
    if line.len() > max && line.last() != Some(&b'\n') {
        input.skip_until(b'\n')?;
        return Ok(Some(None));
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Some(Some(line)))
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

#[cfg(test)]
mod tests {
    use super::read_line;

    #[test]
    fn lines_up_to_the_limit_are_read_and_longer_ones_skipped_whole() {
        let text = b"abcd\nabcde\nxy\r\nlast";
        let mut input = &text[..];
        let mut lines = Vec::new();
        while let Some(line) = read_line(&mut input, 4).unwrap() {
            lines.push(line);
        }
        assert_eq!(
            lines,
            vec![
                Some(b"abcd".to_vec()),
                None,
                Some(b"xy".to_vec()),
                Some(b"last".to_vec())
            ]
        );
    }
}
