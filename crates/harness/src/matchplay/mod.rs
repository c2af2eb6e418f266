//! Matches between two weight files: paired openings, results, Elo.
//!
//! For every opening A and B play a *pair* of games: A takes Black in the first and White in the
//! second, from the same position. Pairing cancels most of an opening's colour bias and is what
//! the pentanomial statistics of [`crate::elo`] count. Pairs are played in parallel but handed
//! out and applied in opening order, so a match's results never depend on the thread count —
//! including where an SPRT stops it.
//!
//! Every game keeps its moves: the per-game CSV holds them (column `moves`, from the opening's
//! position) and [`match_pdn`] writes them as PDN. A PDN game starts from the standard
//! position with the opening's moves first, as ballot games are recorded, so it needs no `FEN`
//! tag; the ballot is also in its `Opening` tag.

mod files;
mod game;
mod key;
mod pdn;
mod play;
mod report;
mod rows;
mod seat;
mod side;

use std::path::Path;

use checkers_engine::error::Result;

pub use files::{read_match_file, summary_path};
pub use game::MatchGame;
pub use key::match_key;
pub use pdn::match_pdn;
pub use play::{play_match, play_match_from};
pub use report::{MatchReport, PairReport, SprtOutcome, Thinking};
pub use rows::{read_match_rows, MatchRows};
pub use side::{MatchPlayer, MatchSide};

/// Checks before a match starts that `out` can be written: its folder exists and it is not a
/// folder, a symbolic link or a device itself. A match can take hours; finding this out
/// afterwards would lose them.
pub fn check_output_path(out: &Path, what: &str) -> Result<()> {
    checkers_engine::atomic_file::check_output_path(out, what)
}

/// Writes `bytes` to a temporary file next to `out`, syncs it and renames it over `out`, so
/// that `out` is either the old file or the whole new one. `out` must be a new or regular file
/// in an existing folder ([`check_output_path`]).
pub fn write_file_atomically(out: &Path, bytes: &[u8]) -> Result<()> {
    check_output_path(out, "output file")?;
    checkers_engine::atomic_file::write_atomically(out, bytes)
}
