//! Writing a run's store: started empty, a round appended at a time, cut back on resume; never
//! through a link.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

use crate::fit::recorded_game::RecordedGame;
use crate::run_folder::POSITIONS_FILE;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file;

use super::format::{header, round_block, HEADER, MAGIC, MAGIC_V1};
use super::identity::StoreIdentity;

/// Creates the store of `dir` for `identity`, empty: written anew and renamed into place, so
/// that a `positions.bin` that is a link to another run's store is replaced, never written
/// through.
pub fn start_store(dir: &Path, identity: StoreIdentity) -> Result<()> {
    checkers_engine::atomic_file::write_atomically(&dir.join(POSITIONS_FILE), &header(identity))
}

/// Opens the store at `path` for writing, never through a link: a symbolic link is refused
/// (by `O_NOFOLLOW`), and a file with other hard links (a run folder copied with `cp -al`, or
/// linked by hand) is first copied anew and renamed over its name, so that only this run's
/// store changes.
fn open_own(path: &Path, options: &mut OpenOptions) -> Result<File> {
    let file = input_file::no_links(options)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    if links_of(&file) <= 1 {
        return Ok(file);
    }
    drop(file);
    let bytes = fs::read(path).map_err(|e| Error::io("read", path, &e))?;
    checkers_engine::atomic_file::write_atomically(path, &bytes)?;
    let file = input_file::no_links(options)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    if links_of(&file) > 1 {
        return Err(Error::input(format!(
            "{}: has other hard links even after it was written anew; the run writes only its \
             own store",
            path.display()
        )));
    }
    Ok(file)
}

/// The number of names (hard links) the open file has; 1 where the system does not say.
fn links_of(file: &File) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        file.metadata().map_or(1, |m| m.nlink())
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        1
    }
}

/// Appends round `round`'s games to the store of `dir` and flushes them to disk. The block
/// carries the identity of the store's header (which `resume` checked against the run's).
pub fn append_round(dir: &Path, round: u32, games: &[RecordedGame]) -> Result<()> {
    let path = dir.join(POSITIONS_FILE);
    let mut file = open_own(&path, OpenOptions::new().read(true).append(true))?;
    let mut head = [0u8; HEADER as usize];
    std::io::Read::read_exact(&mut file, &mut head).map_err(|_| {
        Error::input(format!(
            "{}: not a positions store (too short); the run folder was changed",
            path.display()
        ))
    })?;
    if &head[..8] != MAGIC {
        return Err(refuse_old_or_foreign(&path, &head[..8]));
    }
    let identity = StoreIdentity::from_bytes(head[8..].try_into().expect("12 bytes"));
    file.write_all(&round_block(identity, round, games))
        .and_then(|()| file.sync_data())
        .map_err(|e| Error::io("write", &path, &e))
}

/// The refusal of a store that does not begin with this version's magic.
fn refuse_old_or_foreign(path: &Path, magic: &[u8]) -> Error {
    if magic == MAGIC_V1 {
        Error::input(format!(
            "{}: a positions store of the previous version (CTPOS001, without checksums); a run \
             cannot go on with it (start again with `tune --force`; `fit` still reads it)",
            path.display()
        ))
    } else {
        Error::input(format!(
            "{}: damaged at byte 0: not a positions store (expected it to begin with {})",
            path.display(),
            String::from_utf8_lossy(MAGIC)
        ))
    }
}

/// Cuts the store at `path` back to `length` bytes, never through a link (see `open_own`).
pub fn cut_store_to(path: &Path, length: u64) -> Result<()> {
    let file = open_own(path, OpenOptions::new().write(true))?;
    file.set_len(length)
        .and_then(|()| file.sync_all())
        .map_err(|e| Error::io("truncate", path, &e))
}
