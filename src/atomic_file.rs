//! Writing a file so that readers see either the old file or the whole new one.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Writes `bytes` to `path` so that a reader (or a resumed run) sees either the old file or the
/// whole new one: a temporary file in the same folder is written, flushed to disk, and renamed
/// over `path`; the folder is then flushed so the rename itself survives a power loss.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = parent_dir(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
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
