//! The `export` command: a specimen's weights in a form other engines can read.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use checkers_engine::atomic_file::{refuse_overwriting, same_file};
use checkers_engine::error::{Error, Result};
use checkers_harness::export::{export_to_file, ExportFormat};
use checkers_harness::run_folder::{
    champion_from_run, refuse_writing_runs, resolve_export_source, BEST_FILE,
};
use clap::Args;

/// Arguments of `export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// A finished run folder (the specimen ranked `--rank` in its playoff), a weights file
    /// (json, toml or csv) or `material`.
    #[arg(value_name = "RUN_DIR_OR_WEIGHTS")]
    source: PathBuf,
    /// Rank in the run's final playoff (1 = best); only for a run folder.
    #[arg(long, default_value_t = 1, value_name = "K")]
    rank: usize,
    /// The champion of a gated run (`[gate]`) as it stood after round N: the last one a gate
    /// accepted at or before it (`champions.csv` lists the gates); only for a run folder, and
    /// not with `--rank`.
    #[arg(long, value_name = "N", conflicts_with = "rank")]
    round: Option<u32>,
    /// Output format: json, csv, toml, c (a C header with a reference evaluation) or openbench
    /// (`name, value` lines). Default: from the `-o` file's extension (.json, .csv, .toml, .h,
    /// or .txt for openbench), else json.
    #[arg(long, value_name = "json|csv|toml|c|openbench")]
    format: Option<String>,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: ExportArgs) -> Result<()> {
    let format = match &args.format {
        Some(name) => name
            .parse::<ExportFormat>()
            .map_err(|e| Error::input(format!("--format: {e}")))?,
        None => args
            .out
            .as_deref()
            .and_then(format_from_extension)
            .unwrap_or(ExportFormat::Json),
    };
    if args.source.as_os_str() == "material" && args.rank != 1 {
        return Err(Error::input(format!(
            "--rank {} only applies to a run folder, and `material` is the built-in baseline",
            args.rank
        )));
    }
    if let Some(out) = &args.out {
        // The weights file read, or any file of the run folder it is or lies in; except that a
        // finished run's missing best.json may be written back as the run wrote it (what
        // `resume` advises when it finds one missing).
        refuse_overwriting(out, "-o", &[("the source", &args.source)])?;
        let restoring = args.source.is_dir()
            && args.rank == 1
            && args.round.is_none()
            && format == ExportFormat::Json
            && std::fs::symlink_metadata(out).is_err()
            && same_file(out, &args.source.join(BEST_FILE));
        if !restoring {
            refuse_writing_runs(out, "-o", &[&args.source])?;
        }
    }
    let file = match args.round {
        Some(round) if args.source.is_dir() => champion_from_run(&args.source, round)?,
        Some(round) => {
            return Err(Error::input(format!(
                "--round {round} only applies to a run folder, and {} is not one",
                args.source.display()
            )))
        }
        None => resolve_export_source(&args.source, args.rank)?,
    };
    file.check_playable(&args.source.display().to_string())?;
    format.check(&file)?;
    match &args.out {
        Some(out) => export_to_file(&file, format, out),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(format.render(&file).as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| Error::failure(format!("cannot write to standard output: {e}")))
        }
    }
}

/// The format a file name's extension names, if any.
pub fn format_from_extension(path: &Path) -> Option<ExportFormat> {
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    ExportFormat::ALL.into_iter().find(|f| f.extension() == ext)
}
