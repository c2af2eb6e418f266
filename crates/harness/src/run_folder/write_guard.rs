//! The guard of every writer but the run: no output is written over a file of a run folder.

use std::path::Path;

use super::config_file::holds_run;
use super::names::{LOCK_FILE, RUN_FILES};
use checkers_engine::error::{Error, Result};

/// Refuses an output `out` that would write over a file of a run folder: of a run folder among
/// `inputs` (an input that is a folder is taken as a run folder, `export RUN`, `fit RUN`,
/// `plot RUN`, and an input file inside a run folder, `RUN/best.json`, `RUN/games.pdn`, stands
/// for its folder, found through symbolic links to it), and of any other run folder (a folder
/// with a checkpoint, or a run's `config.toml`) that `out` lies in: only a run writes its own
/// files, so `export … -o RUN2/checkpoint.json` would leave RUN2 unable to resume. A file of
/// the run is any of [`RUN_FILES`] or the lock in the folder, and anything in its subfolders
/// (the islands', the migrants', the shared playoff's); `out` is compared by where it really is
/// (its canonical folder, and its device and inode when it exists), so `./`, `..` and links are
/// seen through. A new name beside the run's files (`RUN/weights.h`) is fine. `what` names the
/// output in the message (`-o`).
pub fn refuse_writing_runs(out: &Path, what: &str, inputs: &[&Path]) -> Result<()> {
    let refuse = |file: String, run: &Path, reads: bool| {
        let whose = if reads {
            "which this command reads"
        } else {
            "which this command does not run"
        };
        Err(Error::input(format!(
            "{what} {}: is {file} of the run folder {}, {whose}; only the run writes its files \
             (give another file name)",
            out.display(),
            run.display()
        )))
    };
    for input in inputs {
        // A symbolic link to a run's file stands for that file, in its run folder.
        let input = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
        let run = if input.is_dir() {
            input
        } else {
            match checkers_engine::atomic_file::parent_dir(&input) {
                dir if holds_run(&dir) => dir,
                _ => continue,
            }
        };
        if let Some(file) = run_file_at(out, &run) {
            return refuse(file, &run, true);
        }
    }
    let folder = checkers_engine::atomic_file::parent_dir(out);
    let Ok(folder) = std::fs::canonicalize(&folder) else {
        return Ok(());
    };
    for run in folder.ancestors() {
        if holds_run(run) {
            if let Some(file) = run_file_at(out, run) {
                return refuse(file, run, false);
            }
        }
    }
    Ok(())
}

/// What of the run folder `run` the output `out` would write over (`the best.json`, `a file in
/// its subfolder island-1`), if any.
fn run_file_at(out: &Path, run: &Path) -> Option<String> {
    let name = out.file_name()?.to_str().unwrap_or_default().to_owned();
    // A hard link (or any other spelling) of an existing file of the run.
    for file in RUN_FILES.iter().chain([&LOCK_FILE]) {
        if checkers_engine::atomic_file::same_file(out, &run.join(file)) {
            return Some(format!("the {file}"));
        }
    }
    let folder = std::fs::canonicalize(checkers_engine::atomic_file::parent_dir(out)).ok()?;
    let run = std::fs::canonicalize(run).ok()?;
    let inside = folder.strip_prefix(&run).ok()?;
    if inside.as_os_str().is_empty() {
        let ours = RUN_FILES.contains(&name.as_str()) || name == LOCK_FILE;
        ours.then(|| format!("the {name}"))
    } else {
        Some(format!("a file in its subfolder {}", inside.display()))
    }
}
