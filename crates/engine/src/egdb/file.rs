//! The database on disk: where it lives, its header and checksum, and reading it back.
//!
//! One file per piece count, `egdb-N.bin` in the cache folder ([`cache_dir`]):
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | magic `CKTEGDB` and a zero byte |
//! | 8–11 | format version (little-endian u32) |
//! | 12–15 | pieces N |
//! | 16–23 | number of table bytes that follow |
//! | 24–31 | checksum of those bytes ([`checksum`]) |
//! | 32… | the class tables in [`Material::all`](super::Material::all) order, one byte each |
//!
//! A file whose header, length or checksum does not match what this version would write is
//! damaged: it is never used, and [`open_or_build`] builds it again. Files are written
//! atomically (a temporary file renamed over the old one), so a reader sees a whole file or
//! none. Anything but a regular file in the database's or the stamp's place (a pipe, a device,
//! a folder, a link to nothing) is refused before a byte is read, and a build checks first
//! that its file can be written.
//!
//! The file is read into memory (see `tables.rs` for why not mapped), and its checksum is
//! verified once: after a build, or at the first start that finds no stamp
//! (`egdb-N.bin.stamp`: the size, modification time and checksum of the file verified) or a
//! stamp of another file. Every start checks the header, the length and the stamp; a file that
//! changed while it was read is checked whole.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::atomic_file::write_atomically;
use crate::error::Error;
use crate::input_file::{self, Links, ReadError, STAMP_CAP};

use super::build::build;
use super::error::{EgdbError, CACHE_ENV};
use super::index::MAX_DATABASE_PIECES;
use super::probe::{Checksum, EndgameDb};
use super::tables::Tables;

const MAGIC: &[u8; 8] = b"CKTEGDB\0";
/// Bumped whenever the numbering or the byte meaning changes.
const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 32;

/// The folder the databases live in: `$CHECKERS_TUNER_CACHE/egdb` if that is set, else
/// `$XDG_CACHE_HOME/checkers-tuner/egdb`, else `~/.cache/checkers-tuner/egdb`.
pub fn cache_dir() -> Result<PathBuf, EgdbError> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(CACHE_ENV) {
        return Ok(PathBuf::from(dir).join("egdb"));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(dir).join("checkers-tuner").join("egdb"));
    }
    match var("HOME") {
        Some(home) => Ok(PathBuf::from(home)
            .join(".cache")
            .join("checkers-tuner")
            .join("egdb")),
        None => Err(EgdbError::NoCacheDir),
    }
}

/// The file of the `pieces`-piece database in `dir`.
pub fn database_path(dir: &Path, pieces: u32) -> PathBuf {
    dir.join(format!("egdb-{pieces}.bin"))
}

impl EndgameDb {
    /// Writes the database to `path` atomically, creating its folder if needed.
    pub fn save(&self, path: &Path) -> Result<(), EgdbError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| EgdbError::Io(Error::io("create", dir, &e)))?;
        }
        let data = self.data.all().ok_or_else(|| {
            EgdbError::Io(Error::failure(format!(
                "cannot write {}: the tables could not be read whole",
                path.display()
            )))
        })?;
        let mut bytes = Vec::with_capacity(HEADER_LEN + data.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&self.pieces.to_le_bytes());
        bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&self.checksum.to_le_bytes());
        bytes.extend_from_slice(&data);
        // No stamp yet: a stamp refuses a file this fresh (see `Stamp::write`), so the first
        // start after a build checks it once more and stamps it.
        write_atomically(path, &bytes).map_err(EgdbError::Io)
    }

    /// Opens the `pieces`-piece database at `path`: reads the file, checks its header and
    /// length, and its checksum unless the stamp beside it says this very file (same size and
    /// modification time) was checked before. [`EgdbError::Missing`] if there is no file,
    /// [`EgdbError::Damaged`] if it is not a whole database of this version,
    /// [`EgdbError::Unusable`] if something other than a regular file stands in the place of
    /// the file or of its stamp.
    pub fn load(path: &Path, pieces: u32) -> Result<EndgameDb, EgdbError> {
        if !(1..=MAX_DATABASE_PIECES).contains(&pieces) {
            return Err(EgdbError::Pieces(pieces));
        }
        let io = |e: std::io::Error| EgdbError::Io(Error::io("read", path, &e));
        let mut file = match input_file::open(path, Links::Follow) {
            Ok(file) => file,
            Err(ReadError::NotFound) => {
                refuse_dangling_link(path)?;
                return Err(EgdbError::Missing(path.to_path_buf()));
            }
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotADirectory => {
                let dir = path.parent().unwrap_or(path);
                return Err(EgdbError::Unusable(
                    dir.to_path_buf(),
                    format!(
                        "not a folder (a file stands in its path); move it away or set \
                         {CACHE_ENV} to another folder"
                    ),
                ));
            }
            Err(ReadError::Io(e)) => return Err(io(e)),
            Err(e) => return Err(not_a_file(path, &e)),
        };
        let meta = file.metadata().map_err(io)?;
        let damaged = |why: String| EgdbError::Damaged(path.to_path_buf(), why);
        if meta.len() < HEADER_LEN as u64 {
            return Err(damaged("not an endgame database file".into()));
        }
        let mut bytes = [0u8; HEADER_LEN];
        file.read_exact(&mut bytes).map_err(io)?;
        let header =
            Header::read(&bytes).ok_or_else(|| damaged("not an endgame database file".into()))?;
        if header.version != FORMAT_VERSION {
            return Err(damaged(format!(
                "format version {}, expected {FORMAT_VERSION}",
                header.version
            )));
        }
        if header.pieces != pieces {
            return Err(damaged(format!(
                "{} pieces, expected {pieces}",
                header.pieces
            )));
        }
        let (classes, lookup, total) = EndgameDb::layout(pieces);
        let body = meta.len() - HEADER_LEN as u64;
        if header.length != total as u64 || body != total as u64 {
            return Err(damaged(format!("{body} table bytes, expected {total}")));
        }
        // The stamp first: a pipe or a device in its place is refused before the long read.
        let recorded = Stamp::read(path)?;
        let stamp = Stamp::of(&meta, header.checksum);
        if recorded.as_ref() != Some(&stamp) {
            // Not checked in this very state yet: the whole file is checksummed once, in
            // chunks (memory stays small), then stamped.
            match checksum_of(&mut file, total) {
                Ok(sum) if sum == header.checksum => {}
                Ok(_) => return Err(damaged("checksum mismatch".into())),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Err(damaged("cut short while it was read".into()))
                }
                Err(e) => return Err(io(e)),
            }
            // Written over (`cp`) while it was read: the bytes may mix two files; not stamped,
            // and its slices will refuse to be read (their file changed since it was opened).
            let after = file.metadata().map_err(io)?;
            if Stamp::of(&after, header.checksum) == stamp {
                // A cache the user cannot write to still works: it is checked at every start.
                let _ = stamp.write(path);
            }
        }
        let bounds = EndgameDb::bounds(&classes);
        let data = Tables::file(
            file,
            path.to_path_buf(),
            HEADER_LEN as u64,
            total,
            &meta,
            bounds,
        );
        Ok(EndgameDb {
            pieces,
            classes,
            lookup,
            data,
            checksum: header.checksum,
        })
    }
}

/// The checksum of the next `len` bytes of `file`, read in chunks of 1 MB.
fn checksum_of(file: &mut File, len: usize) -> std::io::Result<u64> {
    let mut sum = Checksum::new(len as u64);
    let mut buf = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(buf.len());
        file.read_exact(&mut buf[..n])?;
        sum.feed(&buf[..n]);
        left -= n;
    }
    Ok(sum.finish())
}

/// The error for something other than a regular file at `path`, the database's place or its
/// stamp's.
fn not_a_file(path: &Path, e: &ReadError) -> EgdbError {
    EgdbError::Unusable(
        path.to_path_buf(),
        format!("{e}; move it away (the file is built or written again there)"),
    )
}

/// Refuses a symbolic link to nothing at `path` (where nothing was found by following it): a
/// build could not write through it, so it is found before one starts.
fn refuse_dangling_link(path: &Path) -> Result<(), EgdbError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(EgdbError::Unusable(
            path.to_path_buf(),
            "a symbolic link to nothing; remove it (the database is built there)".into(),
        )),
        _ => Ok(()),
    }
}

/// Checks, before a build that takes minutes, that the `pieces`-piece database can be written
/// into `dir`: the folder exists or can be made, a file can be created in it, and nothing but
/// a regular file (or nothing) stands where the database and its stamp go.
pub fn check_writable(dir: &Path, pieces: u32) -> Result<(), EgdbError> {
    let unusable = |path: &Path, why: String| EgdbError::Unusable(path.to_path_buf(), why);
    std::fs::create_dir_all(dir)
        .map_err(|e| unusable(dir, format!("cannot create the cache folder ({e})")))?;
    let path = database_path(dir, pieces);
    for target in [path.clone(), Stamp::path(&path)] {
        input_file::refuse_irregular(&target).map_err(|e| {
            unusable(
                &target,
                format!("{e}; move it away (the database is written there)"),
            )
        })?;
    }
    let probe = dir.join(format!(".egdb-write-check.tmp-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(unusable(
            dir,
            format!(
                "cannot write into the cache folder ({e}); set {CACHE_ENV} to a folder you can \
                 write to"
            ),
        )),
    }
}

/// A database file's header fields.
struct Header {
    version: u32,
    pieces: u32,
    length: u64,
    checksum: u64,
}

impl Header {
    /// The fields of `bytes`, or `None` when they do not start with the magic.
    fn read(bytes: &[u8]) -> Option<Header> {
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return None;
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        Some(Header {
            version: word(8),
            pieces: word(12),
            length: long(16),
            checksum: long(24),
        })
    }
}

/// What a database file looked like when its checksum was last verified: kept beside it in
/// `egdb-N.bin.stamp`, so that a start checks the header and these, not the whole file. A file
/// rebuilt, copied or edited gets another size or modification time, and is checked again.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stamp {
    size: u64,
    modified_nanos: u128,
    checksum: u64,
}

/// How old a file's modification time must be before a stamp trusts it (as git does for its
/// index): two writes within a file system's clock tick can share one time.
const RACY_SECONDS: u64 = 2;

/// The first line of a stamp file.
const STAMP_TITLE: &str = "checkers-tuner endgame database stamp 1";

impl Stamp {
    /// The stamp of a file with metadata `meta` whose header holds `checksum`.
    fn of(meta: &std::fs::Metadata, checksum: u64) -> Stamp {
        let modified_nanos = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        Stamp {
            size: meta.len(),
            modified_nanos,
            checksum,
        }
    }

    /// The stamp file of the database at `path`.
    fn path(path: &Path) -> PathBuf {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".stamp");
        path.with_file_name(name)
    }

    /// The stamp beside the database at `path`, if there is a readable one (`None` for none,
    /// or for text that is not a stamp: the file is then checked and stamped anew). Anything
    /// but a small regular file is refused: a stamp linked to `/dev/zero` or a pipe would be
    /// read forever.
    fn read(path: &Path) -> Result<Option<Stamp>, EgdbError> {
        let stamp_path = Stamp::path(path);
        let text = match input_file::read_text(&stamp_path, Links::Follow, Some(STAMP_CAP)) {
            Ok(text) => text,
            Err(ReadError::NotFound | ReadError::NotText) => return Ok(None),
            Err(ReadError::Io(e)) => return Err(EgdbError::Io(Error::io("read", &stamp_path, &e))),
            Err(e) => return Err(not_a_file(&stamp_path, &e)),
        };
        let mut lines = text.lines();
        if lines.next() != Some(STAMP_TITLE) {
            return Ok(None);
        }
        let mut field = |name: &str| lines.next()?.strip_prefix(name)?.parse::<u128>().ok();
        let stamp = (|| {
            let size = u64::try_from(field("size ")?).ok()?;
            let modified_nanos = field("modified_nanos ")?;
            let checksum = u64::try_from(field("checksum ")?).ok()?;
            Some(Stamp {
                size,
                modified_nanos,
                checksum,
            })
        })();
        Ok(stamp)
    }

    /// Writes the stamp beside the database at `path`, atomically; not for a file modified
    /// within the last [`RACY_SECONDS`], whose modification time may not change at its next
    /// write (file systems keep coarse clocks): that file is checked again at its next start.
    fn write(&self, path: &Path) -> Result<(), EgdbError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        if now.saturating_sub(self.modified_nanos) < u128::from(RACY_SECONDS) * 1_000_000_000 {
            return Ok(());
        }
        let text = format!(
            "{STAMP_TITLE}\nsize {}\nmodified_nanos {}\nchecksum {}\n",
            self.size, self.modified_nanos, self.checksum
        );
        write_atomically(&Stamp::path(path), text.as_bytes()).map_err(EgdbError::Io)
    }
}

/// How [`open_or_build`] found the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// Read from its file.
    Loaded,
    /// There was no file: built and written.
    Built,
    /// The file was damaged: built again and written over it.
    Rebuilt,
}

/// The `pieces`-piece database of folder `dir`: read from its file, or, when there is none or
/// it is damaged, built (told to `before_build` first, with the reason if the file was
/// damaged) and written there. `progress` is [`build`]'s.
pub fn open_or_build(
    dir: &Path,
    pieces: u32,
    before_build: impl FnOnce(Option<&EgdbError>),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(EndgameDb, Opened), EgdbError> {
    let path = database_path(dir, pieces);
    let opened = match EndgameDb::load(&path, pieces) {
        Ok(db) => return Ok((db, Opened::Loaded)),
        Err(EgdbError::Missing(_)) => {
            check_writable(dir, pieces)?;
            before_build(None);
            Opened::Built
        }
        Err(e @ EgdbError::Damaged(..)) => {
            check_writable(dir, pieces)?;
            before_build(Some(&e));
            Opened::Rebuilt
        }
        Err(e) => return Err(e),
    };
    let db = build(pieces, progress)?;
    db.save(&path)?;
    Ok((db, opened))
}
