//! A tuning run: config, the round loop, output files, checkpoints and progress.

mod checkpoint;
mod config;
mod files;
mod lock;
mod progress;
mod reference;
mod runner;

pub use config::Config;
pub use files::BEST_FILE;
pub use progress::ProgressMode;
pub use reference::commented_defaults;
pub use runner::{resume, tune, EndgameDbLoader, RunOptions, RunOutcome, RunSummary};
