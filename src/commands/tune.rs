//! The `tune` and `resume` commands.

use checkers_tuner::{Error, Result};
use clap::Args;

/// Arguments of `tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {}

/// Arguments of `resume`.
#[derive(Args, Debug)]
pub struct ResumeArgs {}

/// Runs `tune`.
pub fn tune(_args: TuneArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}

/// Runs `resume`.
pub fn resume(_args: ResumeArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}
