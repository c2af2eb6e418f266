//! checkers-harness: tunes the evaluation weights of the checkers engine (`checkers-engine`)
//! by evolution — tuning runs and their run folders, regression fits, tournaments, matches with
//! Elo, SPSA, export and plots — as the `checkers-tuner` binary uses it.
//!
//! ```
//! use checkers_engine::WeightsFile;
//! use checkers_harness::export::ExportFormat;
//!
//! let toml = ExportFormat::Toml.render(&WeightsFile::material());
//! assert!(toml.contains("[opening]"));
//! ```
#![deny(missing_docs)]

pub mod datagen;
pub mod elo;
pub mod export;
pub mod fit;
pub mod matchplay;
pub mod players;
pub mod plot;
pub mod run;
pub mod run_folder;
pub mod spsa;
pub mod tournament;
