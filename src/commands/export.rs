//! The `export` command.

use checkers_tuner::{Error, Result};
use clap::Args;

/// Arguments of `export`.
#[derive(Args, Debug)]
pub struct ExportArgs {}

/// Runs the command.
pub fn run(_args: ExportArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}
