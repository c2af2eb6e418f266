//! The `play` command.

use checkers_tuner::{Error, Result};
use clap::Args;

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {}

/// Runs the command.
pub fn run(_args: PlayArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}
