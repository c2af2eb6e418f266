//! Writing a file so that readers see either the old file or the whole new one.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use crate::error::{Error, Result};

/// Writes `bytes` to `path` so that a reader (or a resumed run) sees either the old file or the
/// whole new one: a temporary file in the same folder is written, flushed to disk, and renamed
/// over `path`; the folder is then flushed so the rename itself survives a power loss.
///
/// An existing `path` must be a regular file: a symbolic link, a device or a folder is refused
/// (bad input) rather than replaced.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, "", |tmp, mut file| {
        file.write_all(bytes)
            .map_err(|e| Error::io("write", tmp, &e))?;
        file.sync_all().map_err(|e| Error::io("write", tmp, &e))
    })
}

/// Writes `path` atomically through `write`, which fills the temporary file it is given, open
/// and empty, with its name (which ends in `extension`, e.g. `.png`, for writers that choose
/// the format by it); the temporary file is then renamed over `path`. Stale temporary files of
/// `path` left by killed processes are swept first, and the temporary file is removed when
/// `write` fails or when the process is interrupted ([`exit_removing_temporaries`]).
///
/// A writer that writes through the open file leaves nothing behind when interrupted at any
/// moment; one that opens the name again (an encoder that takes a path) may, in the instant
/// between the removal and the end of the process, create it anew, for the next write to sweep.
pub fn write_atomically_with(
    path: &Path,
    extension: &str,
    write: impl FnOnce(&Path, File) -> Result<()>,
) -> Result<()> {
    check_replaceable(path, "output file")?;
    let dir = parent_dir(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Best effort: a folder that cannot be listed is reported by the write itself. Only old
    // ones: on storage shared between machines, a fresh one may be another machine's write in
    // progress, whose process id means nothing here.
    let _ = remove_stale_temporaries(&dir, &[&name], STALE_AFTER);
    let tmp = dir.join(format!(
        "{}{extension}",
        temporary_name(&name, std::process::id())
    ));
    let (registered, file) = Temporary::create(tmp)?;
    let tmp = &registered.path;
    let result = write(tmp, file).and_then(|()| {
        #[cfg(feature = "crash-hooks")]
        pause_before_rename();
        fs::rename(tmp, path).map_err(|e| Error::io("write", path, &e))
    });
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    drop(registered);
    sync_dir(&dir);
    result
}

/// Test builds only (feature `crash-hooks`): waits `CHECKERS_TUNER_PAUSE_BEFORE_RENAME`
/// milliseconds with the temporary file whole and not yet renamed, so that a test can
/// interrupt a writer at that point.
#[cfg(feature = "crash-hooks")]
fn pause_before_rename() {
    if let Some(ms) = std::env::var("CHECKERS_TUNER_PAUSE_BEFORE_RENAME")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// The temporary files this process is writing, which an interrupted process removes before
/// it ends ([`exit_removing_temporaries`]).
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary file listed in [`IN_PROGRESS`] for as long as this value lives.
struct Temporary {
    path: PathBuf,
}

impl Temporary {
    /// Creates the temporary file `path` and lists it, both under the list's lock: an
    /// interruption removes it from the moment it exists, and none can come between.
    fn create(path: PathBuf) -> Result<(Temporary, File)> {
        let mut list = in_progress();
        let file = File::create(&path).map_err(|e| Error::io("create", &path, &e))?;
        list.push(path.clone());
        Ok((Temporary { path }, file))
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut list = in_progress();
        if let Some(i) = list.iter().rposition(|p| *p == self.path) {
            list.swap_remove(i);
        }
    }
}

fn in_progress() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the list was held leaves it intact: it is only pushed to and removed from.
    IN_PROGRESS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Ends the process at once with `status`, first removing the temporary files of the atomic
/// writes in progress, so that an interrupted writer (Ctrl-C, SIGTERM) leaves each output
/// either old or new and nothing hidden beside it. The list stays locked until the process has
/// ended, so no write can create a new temporary file meanwhile; a rename that already
/// happened stands (its temporary file is gone), one that comes after the removal fails.
pub fn exit_removing_temporaries(status: i32) -> ! {
    let list = in_progress();
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
    std::process::exit(status)
}

/// The temporary file that process `pid` writes before renaming it to `name`.
fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp-{pid}")
}

/// Refuses an existing `path` that is not a regular file (a symbolic link, even to a regular
/// file, a device, a pipe, a folder): writing atomically would replace it, not write into it.
/// `what` names the path in the message (`output file`, `--out`).
pub fn check_replaceable(path: &Path, what: &str) -> Result<()> {
    crate::input_file::refuse_irregular(path).map_err(|e| {
        Error::input(format!(
            "{what} {}: {e}; give the name of a regular file (or of a new one) instead",
            path.display()
        ))
    })
}

/// Checks before long work that `out` can be written as an output file: it names a file, its
/// folder exists, and it is not a folder, a symbolic link or a device.
pub fn check_output_path(out: &Path, what: &str) -> Result<()> {
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

/// Writes `bytes` to the output file `out` atomically ([`write_atomically`]), first checking
/// that `out` can be one ([`check_output_path`], `output file` in its messages): a new or
/// regular file in an existing folder.
pub fn write_output_atomically(out: &Path, bytes: &[u8]) -> Result<()> {
    check_output_path(out, "output file")?;
    write_atomically(out, bytes)
}

/// Refuses an output that is one of a command's inputs: writing it would destroy what the
/// command reads (`match a.json b.json --pdn a.json`). Compared by identity, not by spelling:
/// an existing output by device and inode, so `./x`, `a/../x` and symbolic links are caught; a
/// new output by its canonical folder and name (it can only be an input of the same command
/// if the two are spelled differently, e.g. `--out x.csv --pdn ./x.csv`). `what` names the
/// output (`--pdn`), `inputs` pairs each input with its name (`A`, `--openings`).
pub fn refuse_overwriting(out: &Path, what: &str, inputs: &[(&str, &Path)]) -> Result<()> {
    for (name, input) in inputs {
        if same_file(out, input) {
            return Err(Error::input(format!(
                "{what} {}: is {name} ({}), which this command reads; give another file name",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Whether `a` and `b` name the same file: the same device and inode when both exist, else the
/// same canonical folder and file name.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => same_inode(&x, &y),
        (Err(_), Err(_)) => canonical_name(a).is_some_and(|c| Some(c) == canonical_name(b)),
        _ => false,
    }
}

#[cfg(unix)]
fn same_inode(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_inode(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

/// A path's canonical folder joined with its file name (for a file that does not exist yet).
fn canonical_name(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    Some(fs::canonicalize(parent_dir(path)).ok()?.join(name))
}

/// How old a temporary file of a dead process must be before the next write of its file
/// removes it.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Removes the temporary files `.NAME.tmp-PID` (and `.NAME.tmp-PID.EXT`) of the files `names`
/// in `dir` whose process `PID` is no longer running and that were last modified at least
/// `min_age` ago: what a process killed in the middle of an atomic write leaves.
pub fn remove_stale_temporaries(dir: &Path, names: &[&str], min_age: Duration) -> Result<()> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io("read", dir, &e))?;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let Some(pid) = names.iter().find_map(|name| {
            let rest = file_name.strip_prefix(&format!(".{name}.tmp-"))?;
            // The pid, then an extension for writers that need one (`.png`).
            let pid = rest.split_once('.').map_or(rest, |(pid, _)| pid);
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
        if !min_age.is_zero() && !is_older_than(&entry, min_age) {
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

/// Whether `entry` was last modified at least `age` ago (not when its time cannot be read).
fn is_older_than(entry: &fs::DirEntry, age: Duration) -> bool {
    entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|elapsed| elapsed >= age)
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

/// The folder of `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Flushes a folder's entries (a rename, a new file). Best effort: not every platform allows
/// opening a folder, and the data itself is already on disk.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
