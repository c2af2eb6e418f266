//! A tuning run: config, the round loop, output files, checkpoints and progress.

mod checkpoint;
mod config;
mod files;
mod fitted;
mod islands;
mod lock;
mod observer;
mod reference;
mod runner;

pub use config::Config;
pub use files::BEST_FILE;
pub use islands::{Island, IslandChoice};
pub use observer::{ObserverFactory, RunObserver, RunView};
pub use reference::commented_defaults;
pub use runner::{resume, tune, tune_island, EndgameDbLoader, RunOptions, RunOutcome, RunSummary};
