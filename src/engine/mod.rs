//! The bitboard engine: positions, move generation, notation, Zobrist keys, perft.

mod bitboard;
mod fen;
mod movegen;
mod notation;
mod perft;
mod position;
mod zobrist;

pub use bitboard::*;
pub use fen::*;
pub use movegen::*;
pub use notation::*;
pub use perft::*;
pub use position::*;
pub use zobrist::*;
