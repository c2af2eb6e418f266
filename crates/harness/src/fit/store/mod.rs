//! The positions store (`positions.bin`, docs/run-folder.md): every game a run has played, as
//! its start position and each move's index among the legal moves, with the score of the
//! search that chose it. A fit replays the positions from it without parsing text, and learns
//! from the scores as well as from the results.
//!
//! The file is an 8-byte magic (`CTPOS002`), the store's identity (the run's, a `u64`, and the
//! island's, a `u32`: see [`StoreIdentity`]), then blocks appended round by round: a round
//! header (`R`, the round as `u32`, its games as `u32`, the identity again), then each game:
//! `G`, the start position (Black's, White's and the kings' squares as `u32` bitboards, the side
//! to move as a byte), the result (a byte: 0 Black won, 1 White won, 2 drawn), the number of
//! moves as `u16`, and per move its index (a byte) and its score (`i16`: the mover's search
//! score clamped to ±[`SCORE_WIN`](super::recorded_game::SCORE_WIN), wins and losses at the bounds;
//! [`NO_SCORE`](super::recorded_game::NO_SCORE) for a move no search chose, such as an opening's);
//! then the block's checksum (`u64`, FNV-1a of the block from its `R`). Numbers are
//! little-endian. A round is appended whole and reaches the disk before the checkpoint that
//! counts it; a resumed run cuts the store back to its checkpoint's rounds.
//!
//! Every reader checks what it reads: each block's checksum, its identity against the file's,
//! and its round after the one before (a block written twice, or blocks swapped, are found),
//! and the readers that know whose store they expect ([`StoreReader::expect`]) check the
//! file's identity too. The previous format (`CTPOS001`, without identity or checksums) is
//! still read by `fit`; a run never appends to one.

mod format;
mod identity;
mod reader;
#[cfg(test)]
mod tests;
mod writer;

pub use identity::StoreIdentity;
pub use reader::{length_through_round, StoreReader};
pub use writer::{append_round, cut_store_to, start_store};
