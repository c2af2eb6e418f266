//! A tuning run: its config, the round loop, checkpoints and progress, in rooms: `config/` (the
//! config file), `gate/` (the gated champion), `chain/` (a night of runs and its morning fit),
//! `islands/` (the island model) and `fits/` (the fitted specimens and the games they learn
//! from). What the run writes into its folder, and reads back on resume, is
//! `crate::run_folder`'s.

mod chain;
mod checkpoint;
mod config;
mod finish;
mod fits;
mod gate;
mod islands;
mod lock;
mod observer;
mod options;
mod process;
mod rounds;
mod runner;
mod state;
mod summary;

#[cfg(test)]
pub(crate) use chain::data_header;
pub use config::{commented_defaults, ChainConfig, Config};
pub use gate::{GateCandidates, GateConfig};
pub use islands::{Island, IslandChoice};
pub use observer::{ObserverFactory, RunObserver, RunView};
pub use options::{CrashHooks, EndgameDbLoader, RunOptions};
pub use runner::{resume, tune, tune_island};
pub use summary::{RunOutcome, RunSummary};
