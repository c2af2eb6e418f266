//! checkers-tuner: an English-checkers engine (bitboards, move generation, variable-depth
//! alpha-beta over a ten-feature evaluator) and an evolutionary harness that tunes its weights.
//!
//! The engine is usable without the command line:
//!
//! ```
//! use checkers_tuner::{perft, Position, SearchLimits, Searcher, WeightPair};
//!
//! assert_eq!(perft(&Position::start(), 6), 36_768);
//! let pos = Position::from_fen("B:W25,27,31:B3,9,14,17").unwrap();
//! let weights = WeightPair::material().opening;
//! let found = Searcher::default().search(&pos, &weights, SearchLimits::new(6, 12), None);
//! assert_eq!(found.best_move.unwrap().to_string(), "17-22");
//! ```
#![deny(missing_docs)]

mod atomic_file;
mod elo;
mod engine;
mod error;
mod eval;
mod export;
mod game;
mod matchplay;
mod plot;
mod rng;
pub mod run;
mod search;
mod text;
pub mod tournament;

pub use elo::*;
pub use engine::*;
pub use error::*;
pub use eval::*;
pub use export::*;
pub use game::*;
pub use matchplay::*;
pub use plot::*;
pub use rng::*;
pub use search::*;
