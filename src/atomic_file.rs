//! Writing a file so that readers see either the old file or the whole new one.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Writes `bytes` to `path` so that a reader (or a resumed run) sees either the old file or the
/// whole new one: a temporary file in the same folder is written, flushed to disk, and renamed
/// over `path`; the folder is then flushed so the rename itself survives a power loss.
///
/// An existing `path` must be a regular file: a symbolic link, a device or a folder is refused
/// (bad input) rather than replaced.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    check_replaceable(path, "output file")?;
    let dir = parent_dir(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(temporary_name(&name, std::process::id()));
    let result = (|| {
        let mut file = File::create(&tmp).map_err(|e| Error::io("create", &tmp, &e))?;
        file.write_all(bytes)
            .map_err(|e| Error::io("write", &tmp, &e))?;
        file.sync_all().map_err(|e| Error::io("write", &tmp, &e))?;
        drop(file);
        fs::rename(&tmp, path).map_err(|e| Error::io("write", path, &e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    sync_dir(&dir);
    result
}

/// The temporary file that process `pid` writes before renaming it to `name`.
fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp-{pid}")
}

/// Refuses an existing `path` that is not a regular file (a symbolic link, even to a regular
/// file, a device, a pipe, a folder): writing atomically would replace it, not write into it.
/// `what` names the path in the message (`output file`, `--out`).
pub(crate) fn check_replaceable(path: &Path, what: &str) -> Result<()> {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(());
    };
    let kind = meta.file_type();
    let found = if kind.is_file() {
        return Ok(());
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file (a device, pipe or socket)"
    };
    Err(Error::input(format!(
        "{what} {}: is {found}; give the name of a regular file (or of a new one) instead",
        path.display()
    )))
}

/// Checks before long work that `out` can be written as an output file: it names a file, its
/// folder exists, and it is not a folder, a symbolic link or a device.
pub(crate) fn check_output_path(out: &Path, what: &str) -> Result<()> {
    if out.file_name().is_none() {
        return Err(Error::input(format!(
            "{what} {}: not a file name",
            out.display()
        )));
    }
    let dir = parent_dir(out);
    if !dir.is_dir() {
        return Err(Error::input(format!(
            "{what} {}: folder {} does not exist",
            out.display(),
            dir.display()
        )));
    }
    check_replaceable(out, what)
}

/// Removes the temporary files `.NAME.tmp-PID` of the files `names` in `dir` whose process
/// `PID` is no longer running: what a process killed in the middle of an atomic write leaves.
pub(crate) fn remove_stale_temporaries(dir: &Path, names: &[&str]) -> Result<()> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io("read", dir, &e))?;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let Some(pid) = names.iter().find_map(|name| {
            let pid = file_name.strip_prefix(&format!(".{name}.tmp-"))?;
            if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            pid.parse::<u32>().ok()
        }) else {
            continue;
        };
        if pid != std::process::id() && process_is_alive(pid) {
            continue;
        }
        let path = entry.path();
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("remove", &path, &e)),
        }
    }
    Ok(())
}

/// Whether a process with id `pid` exists (it may belong to another user).
fn process_is_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let status = unsafe { libc::kill(pid, 0) };
        status == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

pub(crate) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Flushes a folder's entries (a rename, a new file). Best effort: not every platform allows
/// opening a folder, and the data itself is already on disk.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
