//! checkers-engine: an English-checkers (American checkers, ACF rules) engine — bitboards,
//! move generation, the ten-feature, extended and pattern evaluators, variable-depth
//! alpha-beta (exact or selective), the endgame database, games and their PDN records, the
//! weights file, and the pieces of the Hub and CheckerBoard protocols.
//!
//! It knows nothing of tuning runs, terminals or command lines: the harness
//! (`checkers-harness`) and the `checkers-tuner` binary are built on it, and so is our
//! CheckerBoard engine library.
//!
//! ```
//! use checkers_engine::{perft, Position, SearchLimits, Searcher, WeightPair};
//!
//! assert_eq!(perft(&Position::start(), 6), 36_768);
//! let pos = Position::from_fen("B:W25,27,31:B3,9,14,17").unwrap();
//! let weights = WeightPair::material().opening;
//! let found = Searcher::default().search(&pos, &weights, SearchLimits::new(6, 12), None);
//! assert_eq!(found.best_move.unwrap().to_string(), "17-22");
//! ```
#![deny(missing_docs)]

pub mod atomic_file;
pub mod board;
pub mod bounded;
pub mod checkerboard;
pub mod egdb;
pub mod error;
pub mod eval;
pub mod game;
pub mod hub;
pub mod input_file;
pub mod rng;
pub mod search;
pub mod text;
pub mod weights_file;

pub use board::{perft, Color, Move, Position};
pub use egdb::EndgameDb;
pub use error::{Error, Result};
pub use eval::{Evaluator, WeightPair};
pub use game::{play_game, GameRecord, SearchParams};
pub use search::{SearchLimits, Searcher};
pub use weights_file::{WeightsFile, CHAMPION};
