//! The `plot` command.

use std::path::PathBuf;

use super::output::{note, outln};
use checkers_engine::atomic_file::refuse_overwriting;
use checkers_engine::error::Result;
use checkers_harness::plot::PlotSource;
use checkers_harness::run_folder::refuse_writing_runs;
use clap::Args;

/// Arguments of `plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    /// A run folder (with rounds.csv, specimens.csv and config.toml), a chain's folder with its
    /// data night's data.csv, or a tournament's FILE.ratings.csv.
    #[arg(value_name = "RUN_DIR|FILE.ratings.csv")]
    input: PathBuf,
    /// Output picture: `.svg`, or `.png` for a bitmap (default RUN_DIR/rounds.svg, a chain's
    /// DIR/data.svg, FILE.ratings.svg beside the rating list).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: PlotArgs) -> Result<()> {
    let source = PlotSource::of(&args.input);
    let out = args
        .output
        .unwrap_or_else(|| source.default_output(&args.input));
    refuse_writing_runs(&out, "--output", &[&args.input])?;
    if source == PlotSource::Ratings {
        refuse_overwriting(&out, "--output", &[("the rating list", &args.input)])?;
    }
    for line in source.plot(&args.input, &out)? {
        note!("note: {line}");
    }
    outln!("{}", out.display())?;
    Ok(())
}
