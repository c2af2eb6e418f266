//! The bitboard engine: positions, move generation, notation, Zobrist keys, perft.

mod bitboard;
mod fen;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
mod zobrist;

pub use bitboard::{rows, Bitboard, Direction, EDGE};
pub use fen::FenError;
pub use movegen::{MoveList, MAX_MOVES};
pub use moves::Move;
pub(crate) use notation::move_text_squares;
pub use notation::MoveParseError;
pub use perft::{perft, perft_parallel};
pub use position::{Color, Position, PositionError};
pub use zobrist::HashedPosition;
