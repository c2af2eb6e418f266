//! The `plot` command.

use std::path::PathBuf;

use super::output::{note, outln};
use checkers_engine::error::Result;
use checkers_harness::plot::plot_run;
use checkers_harness::run_folder::refuse_writing_runs;
use clap::Args;

/// Arguments of `plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    /// A run folder (with rounds.csv, specimens.csv and config.toml).
    run_dir: PathBuf,
    /// Output picture: `.svg`, or `.png` for a bitmap (default RUN_DIR/rounds.svg).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: PlotArgs) -> Result<()> {
    let out = args
        .output
        .unwrap_or_else(|| args.run_dir.join("rounds.svg"));
    refuse_writing_runs(&out, "--output", &[&args.run_dir])?;
    for line in plot_run(&args.run_dir, &out)? {
        note!("note: {line}");
    }
    outln!("{}", out.display())?;
    Ok(())
}
