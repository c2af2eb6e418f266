//! A tuning run: config, the round loop, output files, checkpoints and progress.

mod checkpoint;
mod config;
mod files;
mod lock;
mod progress;
mod runner;

pub use config::Config;
pub use files::BEST_FILE;
pub use progress::ProgressMode;
pub use runner::{resume, tune, EndgameDbLoader, RunOptions, RunOutcome, RunSummary};
