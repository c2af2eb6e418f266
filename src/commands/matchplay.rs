//! The `matchplay` command.

use checkers_tuner::{Error, Result};
use clap::Args;

/// Arguments of `matchplay`.
#[derive(Args, Debug)]
pub struct MatchArgs {}

/// Runs the command.
pub fn run(_args: MatchArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}
