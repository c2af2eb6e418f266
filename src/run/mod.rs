//! A tuning run: config, the round loop, output files, checkpoints and progress.

mod checkpoint;
mod config;
mod config_messages;
mod edits;
mod estimate;
mod exchange;
mod files;
mod finish;
mod fit_sources;
mod fitted;
mod gate;
mod gating;
mod island_files;
mod islands;
mod lock;
mod observer;
mod options;
mod pool;
mod process;
mod recorded;
mod reference;
mod rounds;
mod runner;
mod state;
mod summary;
mod tables;

pub use config::Config;
pub(crate) use config::MAX_ISLANDS;
pub use files::BEST_FILE;
pub use gate::{GateCandidates, GateConfig};
pub use islands::{Island, IslandChoice};
pub use observer::{ObserverFactory, RunObserver, RunView};
pub use options::{EndgameDbLoader, RunOptions};
pub use reference::commented_defaults;
pub use runner::{resume, tune, tune_island};
pub use summary::{RunOutcome, RunSummary};
