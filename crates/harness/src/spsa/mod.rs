//! `spsa`: tuning the selective search's integer keys by simultaneous-perturbation stochastic
//! approximation, as the chess tuning frameworks tune search parameters
//! (docs/engine.md#tuning-the-search-by-spsa), or any engine's integer options, as OpenBench
//! tunes UCI options (docs/engines.md#tuning-an-engines-options).
//!
//! Each iteration draws a sign per tuned key and plays one opening, both colours, between the
//! values `θ + c·Δ` and `θ − c·Δ`: our search at a node budget, or two instances of an engine
//! at a time a move; the pair's score moves every key towards the side that won. Pairs are played in batches from the same values and applied in order,
//! so a run is the same on any thread count and through a stop and continuation.

mod runner;
mod schedule;
mod settings;

pub use runner::{
    PlayedPair, SpsaOutcome, SpsaProgress, SpsaRun, SPSA_BASE_FILE, SPSA_BEST_FILE,
    SPSA_BEST_OPTIONS_FILE, SPSA_CONFIG_FILE, SPSA_ROWS_FILE,
};
pub use schedule::Schedule;
pub use settings::{SpsaConfig, Tuned, TunedParam, MAX_MOVETIME};
