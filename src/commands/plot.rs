//! The `plot` command.

use checkers_tuner::{Error, Result};
use clap::Args;

/// Arguments of `plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {}

/// Runs the command.
pub fn run(_args: PlotArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}
