//! checkers-tuner: an English-checkers engine (bitboards, move generation, variable-depth
//! alpha-beta over a ten-feature evaluator) and an evolutionary harness that tunes its weights.
#![deny(missing_docs)]

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
