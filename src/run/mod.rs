//! A tuning run: config, the round loop, output files, checkpoints and progress.

mod config;

pub use config::*;
