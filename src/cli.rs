//! Command-line arguments (clap derive) and the dispatch to the library.

use checkers_tuner::Result;
use clap::{Parser, Subcommand};

/// Tunes the evaluation weights of an English-checkers engine by evolution.
#[derive(Parser, Debug)]
#[command(name = "checkers-tuner", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {}

/// Runs the parsed command.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {}
}
