//! The run folder's lock: one `tune` or `resume` at a time per folder.
//!
//! The lock is an advisory `flock` on `.lock` in the run folder, taken without waiting and held
//! (by keeping the file open) until the run ends. The kernel drops it when the process exits in
//! any way, SIGKILL included, so a dead run never blocks the next `resume`. The file holds the
//! holder's process id, for the refusal message only; it is never deleted, because a process
//! that deleted it could let a third one lock a new file while the second still holds the old.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use crate::run_folder::{clear_run, foreign_entry, holds_run, LOCK_FILE, RUN_FILES};
use checkers_engine::atomic_file::remove_stale_temporaries;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, no_links};

/// Holds the lock of a run folder until dropped.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Locks the existing folder `dir` for this process, then removes the temporary files that
    /// killed runs left there. A folder locked by another process is refused (bad input, exit
    /// status 2), naming that process.
    pub fn acquire(dir: &Path) -> Result<RunLock> {
        let path = dir.join(LOCK_FILE);
        input_file::refuse_irregular(&path).map_err(|e| {
            Error::input(format!(
                "{}: {e}; a run folder's lock is a regular file (remove this one: the next run \
                 makes a new one)",
                path.display()
            ))
        })?;
        let mut file = no_links(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .open(&path)
        .map_err(|e| {
            Error::failure(format!(
                "cannot lock the run folder {}: cannot open {} ({e})",
                dir.display(),
                path.display()
            ))
        })?;
        // `flock` on Unix: the kernel drops it with the process.
        if let Err(e) = file.try_lock() {
            if let TryLockError::Error(e) = e {
                return Err(Error::failure(format!(
                    "cannot lock the run folder {}: {e}",
                    dir.display()
                )));
            }
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            let holder = match text.trim().parse::<u32>() {
                Ok(pid) => format!("process {pid}"),
                Err(_) => "another process".to_string(),
            };
            return Err(Error::input(format!(
                "{} is in use by {holder} (another `tune` or `resume` of checkers-tuner); wait \
                 for it to finish or stop it, then try again",
                dir.display()
            )));
        }
        // Ours now: record who holds it.
        let pid = std::process::id();
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(format!("{pid}\n").as_bytes()))
            .map_err(|e| Error::io("write", &path, &e))?;
        // Under the lock no other process of this run writes here: every dead one's file goes.
        remove_stale_temporaries(dir, &RUN_FILES, Duration::ZERO)?;
        Ok(RunLock { _file: file })
    }

    /// Prepares `out` for a new run and locks it: creates it if needed; a folder that holds a
    /// run is refused unless `force` is set, in which case its run files are deleted; a folder
    /// holding anything else is refused whatever `force` says, so that a user's files are never
    /// used or deleted. (A run folder is defined by [`holds_run`].)
    pub fn for_new_run(out: &Path, force: bool) -> Result<RunLock> {
        refuse_file(out)?;
        // Checked before the lock file is created: nothing is written into a foreign folder.
        if out.is_dir() {
            refuse_foreign(out)?;
        }
        std::fs::create_dir_all(out).map_err(|e| Error::io("create", out, &e))?;
        let lock = RunLock::acquire(out)?;
        refuse_foreign(out)?;
        if holds_run(out) {
            if !force {
                return Err(Error::input(format!(
                    "{} already holds a run: continue it with `checkers-tuner resume {}`, or \
                     add `--force` to delete its files and start again",
                    out.display(),
                    out.display()
                )));
            }
            clear_run(out)?;
        }
        Ok(lock)
    }
}

/// Refuses an output folder `out` that is a file.
pub fn refuse_file(out: &Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::input(format!(
            "output folder {} is a file",
            out.display()
        )));
    }
    Ok(())
}

/// Refuses a folder with entries that are not a run's, unless it is a run folder.
fn refuse_foreign(dir: &Path) -> Result<()> {
    if holds_run(dir) {
        return Ok(());
    }
    match foreign_entry(dir)? {
        None => Ok(()),
        Some(name) => Err(Error::input(format!(
            "{} is not empty and is not a run folder (it holds {name}, and no checkpoint.json \
             or config.toml of a run); give `--out` a new or empty folder (`--force` only \
             replaces a run)",
            dir.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_folder::CONFIG_FILE;
    use checkers_engine::atomic_file::write_atomically;
    use std::fs;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_freed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let first = RunLock::acquire(dir.path()).unwrap();
        let err = RunLock::acquire(dir.path()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        let message = err.to_string();
        assert!(
            message.contains(&format!("in use by process {}", std::process::id())),
            "{message}"
        );
        drop(first);
        // Another test of this process may be spawning a child right now; until its exec the
        // child shares our descriptors (and so the lock) for a moment: retry briefly.
        let again = (0..100)
            .find_map(|_| {
                RunLock::acquire(dir.path()).ok().or_else(|| {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    None
                })
            })
            .expect("the lock is free once its holder is dropped");
        drop(again);
        assert!(dir.path().join(LOCK_FILE).is_file());
    }

    #[test]
    fn stale_temporaries_of_run_files_are_removed_and_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dead_pid();
        let keep = [
            format!(".notes.txt.tmp-{dead}"),
            // A live process (this one's parent) may be writing it.
            format!(".best.json.tmp-{}", std::os::unix::process::parent_id()),
            "best.json.tmp-1".to_string(),
            ".best.json.tmp-x1".to_string(),
        ];
        let gone = [
            format!(".best.json.tmp-{dead}"),
            format!(".checkpoint.json.tmp-{dead}"),
            format!(".config.toml.tmp-{dead}"),
        ];
        for name in keep.iter().chain(&gone) {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let _lock = RunLock::acquire(dir.path()).unwrap();
        for name in &keep {
            assert!(dir.path().join(name).exists(), "{name} was removed");
        }
        for name in &gone {
            assert!(!dir.path().join(name).exists(), "{name} was kept");
        }
    }

    /// The id of a process that has exited.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn atomic_write_replaces_and_clear_removes_only_run_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        write_atomically(&path, b"one").unwrap();
        // A config.toml that this program did not write does not make a run folder.
        assert!(!holds_run(dir.path()));
        let ours = crate::run::Config::new("x").to_toml();
        write_atomically(&path, ours.as_bytes()).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), ours);
        fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        assert!(holds_run(dir.path()));
        clear_run(dir.path()).unwrap();
        assert!(!holds_run(dir.path()));
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["notes.txt"]);
    }
}
