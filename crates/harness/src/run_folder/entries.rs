//! The entries of a run folder: those a resumed run refuses (a link or anything but a regular
//! file in a run file's place), those a new run takes for another's (anything but the lock and
//! a run file's temporary), and removing every entry a run made, for `tune --force`.

use std::fs;
use std::path::Path;

use super::islands::is_island_entry;
use super::names::{
    is_link_entry, CHAMPIONS_DIR, DATA_DIR, INTERIM_DIR, LOCK_FILE, RUN_FILES, TABLES_DIR,
};
use checkers_engine::atomic_file::sync_dir;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file;

/// Refuses the run folder `dir` when one of its run files, or of the files in its
/// `champions/` and `tables/` folders, is a symbolic link or anything but a regular file (or
/// one of those folders is not a folder): a run writes its files in place, and writing through
/// a link would change a file outside the folder. Checked before a resumed run reads or writes
/// anything else (the lock checks its own file), so that nothing is played only to be refused
/// at the end.
pub fn refuse_irregular_files(dir: &Path) -> Result<()> {
    let refuse = |path: &Path, e: &dyn std::fmt::Display| {
        Error::input(format!(
            "{}: {e}; a run folder holds only the files the run wrote, so it cannot be \
             resumed like this (put the file itself back in its place)",
            path.display()
        ))
    };
    for name in RUN_FILES {
        let path = dir.join(name);
        input_file::refuse_irregular(&path).map_err(|e| refuse(&path, &e))?;
    }
    for folder in [CHAMPIONS_DIR, TABLES_DIR] {
        let path = dir.join(folder);
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::io("read", &path, &e)),
            Ok(meta) if !meta.file_type().is_dir() => {
                return Err(refuse(&path, &"not a folder (a link, or a file)"));
            }
            Ok(_) => {}
        }
        let entries = fs::read_dir(&path).map_err(|e| Error::io("read", &path, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io("read", &path, &e))?;
            let file = entry.path();
            input_file::refuse_irregular(&file).map_err(|e| refuse(&file, &e))?;
        }
    }
    Ok(())
}

/// The first entry of `dir` that a run did not write, if any: a file that is neither the lock
/// nor a temporary file of a run file (what a killed run may leave before its config). A folder
/// without such an entry is as good as empty.
pub fn foreign_entry(dir: &Path) -> Result<Option<String>> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io("read", dir, &e))?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != LOCK_FILE && !is_run_temporary(name))
        .collect();
    names.sort();
    Ok(names.into_iter().next())
}

/// `.NAME.tmp-PID` for a run file `NAME`.
fn is_run_temporary(name: &str) -> bool {
    RUN_FILES.iter().any(|file| {
        name.strip_prefix(&format!(".{file}.tmp-"))
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Removes every run file from `dir` (for `tune --force`), and the folders of an island-model
/// run; other files, and the lock, are left alone.
pub fn clear_run(dir: &Path) -> Result<()> {
    for name in RUN_FILES {
        let path = dir.join(name);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("remove", &path, &e)),
        }
    }
    for folder in [TABLES_DIR, CHAMPIONS_DIR, INTERIM_DIR, DATA_DIR] {
        let folder = dir.join(folder);
        if folder.is_dir() && !folder.is_symlink() {
            fs::remove_dir_all(&folder).map_err(|e| Error::io("remove", &folder, &e))?;
        }
    }
    sync_dir(dir);
    clear_islands(dir)
}

/// Removes the island folders and exchanged files of an island-model run, and the link folders
/// of a chain, from `top` (for `tune --force`).
pub fn clear_islands(top: &Path) -> Result<()> {
    let entries = fs::read_dir(top).map_err(|e| Error::io("read", top, &e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if (is_island_entry(&name) || is_link_entry(&name)) && entry.path().is_dir() {
            let path = entry.path();
            fs::remove_dir_all(&path).map_err(|e| Error::io("remove", &path, &e))?;
        }
    }
    sync_dir(top);
    Ok(())
}
