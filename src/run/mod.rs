//! A tuning run: config, the round loop, output files, checkpoints and progress.

mod checkpoint;
mod config;
mod files;
mod lock;
mod progress;
mod runner;

pub use checkpoint::{Checkpoint, Member, Standing, CHECKPOINT_FORMAT};
pub use config::*;
pub use files::{
    BEST_FILE, CHECKPOINT_FILE, CONFIG_FILE, COUNTED_FILES, GAMES_FILE, LEARNING_FILE, LOCK_FILE,
    PLAYOFF_FILE, ROUNDS_FILE, RUN_FILES, SPECIMENS_FILE, TIMINGS_FILE,
};
pub use progress::ProgressMode;
pub use runner::{opening_book, resume, tune, RunOptions, RunOutcome, RunSummary};
