//! The `checkers-tuner` command line: parse, run, report.

mod cli;
mod commands;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    if let Err(err) = cli::run(args) {
        eprintln!("Error: {err}");
        std::process::exit(err.exit_code());
    }
}
