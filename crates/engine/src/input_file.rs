//! Opening the files a command reads.
//!
//! Only regular files are read: a folder, a device (`/dev/zero`), a pipe or a socket is refused
//! before a byte is read, so no input can be endless and opening a FIFO never waits for a
//! writer. Small inputs (configs, weights files, decks) are read up to a size cap with a clear
//! message; the run folder's own files, which the tool wrote, can also be refused when they
//! are symbolic links.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use crate::error::{Error, Result};

/// The largest config file read.
pub const CONFIG_CAP: Cap = Cap::new(1 << 20, "a config");
/// The largest weights file read (an extended weights file is about 10 KB).
pub const WEIGHTS_CAP: Cap = Cap::new(4 << 20, "a weights file");
/// The largest endgame-database stamp read (one is under 100 bytes).
pub const STAMP_CAP: Cap = Cap::new(4096, "an endgame database stamp");
/// The largest openings deck read (a million openings of a few moves).
pub const DECK_CAP: Cap = Cap::new(64 << 20, "an openings file");

/// A size cap for one kind of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    bytes: u64,
    what: &'static str,
}

impl Cap {
    const fn new(bytes: u64, what: &'static str) -> Cap {
        Cap { bytes, what }
    }
}

/// Whether a symbolic link may stand in the input's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// A link to a regular file is read (a user's input).
    Follow,
    /// A link is refused (a run folder's own file, which the tool only ever writes in place).
    Refuse,
}

/// Why an input file cannot be read.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing at the path.
    NotFound,
    /// A folder at the path.
    Folder,
    /// A symbolic link where [`Links::Refuse`] wants a file.
    Link,
    /// A device, pipe or socket at the path.
    NotRegular,
    /// A file larger than its cap.
    TooLarge {
        /// The file's size in bytes.
        size: u64,
        /// The cap it is over.
        cap: Cap,
    },
    /// Text that is not UTF-8.
    NotText,
    /// Any other failure of the system.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound => f.write_str("file not found"),
            ReadError::Folder => f.write_str("is a folder, not a file"),
            ReadError::Link => f.write_str("is a symbolic link"),
            ReadError::NotRegular => {
                f.write_str("is not a regular file (a device, pipe or socket)")
            }
            ReadError::TooLarge { size, cap } => write!(
                f,
                "is {} bytes, larger than {} may be ({} bytes)",
                size, cap.what, cap.bytes
            ),
            ReadError::NotText => f.write_str("not UTF-8 text"),
            ReadError::Io(e) => write!(f, "cannot read it ({e})"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl ReadError {
    /// This error as bad input naming `path`: "PATH: is a symbolic link".
    pub fn at(self, path: &Path) -> Error {
        Error::input(format!("{}: {self}", path.display()))
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        match e.kind() {
            io::ErrorKind::NotFound => ReadError::NotFound,
            io::ErrorKind::IsADirectory => ReadError::Folder,
            _ => ReadError::Io(e),
        }
    }
}

/// Opens the regular file at `path` for reading.
pub fn open(path: &Path, links: Links) -> Result<File, ReadError> {
    // Refused by its kind before it is opened: opening a FIFO would wait for a writer.
    let meta = match links {
        Links::Follow => fs::metadata(path)?,
        Links::Refuse => fs::symlink_metadata(path)?,
    };
    check_kind(&meta)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The path may have changed since it was looked at: never wait on a FIFO, never follow
        // a link that now stands there when links are refused.
        let no_follow = if links == Links::Refuse {
            libc::O_NOFOLLOW
        } else {
            0
        };
        options.custom_flags(libc::O_NONBLOCK | no_follow);
    }
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return ReadError::Link;
        }
        ReadError::from(e)
    })?;
    check_kind(&file.metadata()?)?;
    Ok(file)
}

/// Makes `options` refuse to open a symbolic link in the last component of the path (the open
/// fails with [`ReadError::Link`]'s `ELOOP`), for the run folder's own files, which are written
/// in place and must never be written through a link.
pub fn no_links(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options
}

/// Refuses `path` when something other than a regular file stands there (a symbolic link, a
/// folder, a device, a pipe); nothing there is fine.
pub fn refuse_irregular(path: &Path) -> Result<(), ReadError> {
    match fs::symlink_metadata(path) {
        Ok(meta) => check_kind(&meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ReadError::Io(e)),
    }
}

fn check_kind(meta: &fs::Metadata) -> Result<(), ReadError> {
    let kind = meta.file_type();
    if kind.is_file() {
        Ok(())
    } else if kind.is_dir() {
        Err(ReadError::Folder)
    } else if kind.is_symlink() {
        Err(ReadError::Link)
    } else {
        Err(ReadError::NotRegular)
    }
}

/// Reads the regular file at `path` whole; a file larger than `cap` is refused unread.
pub fn read(path: &Path, links: Links, cap: Option<Cap>) -> Result<Vec<u8>, ReadError> {
    let file = open(path, links)?;
    let size = file.metadata()?.len();
    let limit = cap.map_or(u64::MAX, |c| c.bytes);
    if let Some(cap) = cap.filter(|c| size > c.bytes) {
        return Err(ReadError::TooLarge { size, cap });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // A file that grows while it is read stops at the cap all the same.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if let Some(cap) = cap.filter(|c| bytes.len() as u64 > c.bytes) {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// [`read`], with no file at `path` as `None` (a file a run or a match writes later) and any
/// other failure as bad input naming `path`.
pub fn read_existing(path: &Path, links: Links, cap: Option<Cap>) -> Result<Option<Vec<u8>>> {
    match read(path, links, cap) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadError::NotFound) => Ok(None),
        Err(e) => Err(e.at(path)),
    }
}

/// Reads the regular file at `path` as UTF-8 text; see [`read`].
pub fn read_text(path: &Path, links: Links, cap: Option<Cap>) -> Result<String, ReadError> {
    String::from_utf8(read(path, links, cap)?).map_err(|_| ReadError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_fifos_are_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            read(Path::new("/dev/zero"), Links::Follow, None),
            Err(ReadError::NotRegular)
        ));
        assert!(matches!(
            read(dir.path(), Links::Follow, None),
            Err(ReadError::Folder)
        ));
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read(&fifo, Links::Follow, None),
            Err(ReadError::NotRegular)
        ));
        assert!(matches!(
            read(&dir.path().join("none"), Links::Follow, None),
            Err(ReadError::NotFound)
        ));
    }

    #[test]
    fn links_are_followed_or_refused_as_asked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, "text").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_text(&link, Links::Follow, None).unwrap(), "text");
        assert!(matches!(
            read_text(&link, Links::Refuse, None),
            Err(ReadError::Link)
        ));
        assert_eq!(read_text(&file, Links::Refuse, None).unwrap(), "text");
    }

    #[test]
    fn a_file_above_its_cap_is_refused_and_one_at_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        let cap = Cap::new(10, "a test file");
        fs::write(&file, [b'x'; 10]).unwrap();
        assert_eq!(read(&file, Links::Follow, Some(cap)).unwrap().len(), 10);
        fs::write(&file, [b'x'; 11]).unwrap();
        let err = read(&file, Links::Follow, Some(cap)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "is 11 bytes, larger than a test file may be (10 bytes)"
        );
        fs::write(&file, [0xff, 0xfe]).unwrap();
        assert!(matches!(
            read_text(&file, Links::Follow, None),
            Err(ReadError::NotText)
        ));
    }
}
