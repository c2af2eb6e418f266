//! The bytes of a database's tables: one slice per material class, each read from the file on
//! its first probe.
//!
//! The file is neither mapped nor read whole. A mapped file that another program cuts or
//! copies over while a command runs (`cp` writes into the same file) ends the command with
//! SIGBUS at its next probe, and no lock keeps other programs from doing so; reading the whole
//! 151 MB of five pieces at every start made `egdb probe` and `analyse` ten times slower than
//! without a database. So each class's slice (a few MB at most) is read with `pread` into this
//! process's memory the first time a position of that class is probed, once for every thread
//! (a `OnceLock` per slice: after that, a probe costs one atomic load more than a plain
//! array). A slice that cannot be read whole, or a file whose size or modification time
//! changed since it was opened (cut, or copied over), is never used: its positions are then
//! searched instead of looked up, and one warning says so.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::SystemTime;

/// One class's bytes once read (`None` inside: they could not be read), set once.
type Slice = OnceLock<Option<Box<[u8]>>>;

/// Where the bytes of slices not read yet come from.
struct Source {
    file: File,
    path: PathBuf,
    /// The table bytes start at this offset of the file.
    start: u64,
    /// The file's size and modification time when it was opened (and checked).
    seen: (u64, Option<SystemTime>),
    /// A warning was given already (one per process and database).
    warned: AtomicBool,
}

/// A database's table bytes, class by class.
pub(crate) struct Tables {
    /// Each class's offset in the table bytes and its length.
    bounds: Vec<(usize, usize)>,
    /// Each class's bytes once read; `None` inside: the slice could not be read.
    slices: Box<[Slice]>,
    /// The file the slices are read from (`None`: built in this process, all slices there).
    source: Option<Source>,
    len: usize,
}

impl Tables {
    /// Bytes built in this process, one table per class in order.
    pub(crate) fn owned(tables: Vec<Vec<u8>>) -> Tables {
        let mut bounds = Vec::with_capacity(tables.len());
        let mut len = 0;
        let slices: Box<[Slice]> = tables
            .into_iter()
            .map(|table| {
                bounds.push((len, table.len()));
                len += table.len();
                OnceLock::from(Some(table.into_boxed_slice()))
            })
            .collect();
        Tables {
            len,
            bounds,
            slices,
            source: None,
        }
    }

    /// The tables of the open `file` at `path`, whose table bytes (`len` of them) start at
    /// offset `start`; `meta` is what the file looked like when it was checked. Nothing is
    /// read yet.
    pub(crate) fn file(
        file: File,
        path: PathBuf,
        start: u64,
        len: usize,
        meta: &std::fs::Metadata,
        bounds: Vec<(usize, usize)>,
    ) -> Tables {
        let slices = bounds.iter().map(|_| OnceLock::new()).collect();
        Tables {
            bounds,
            slices,
            source: Some(Source {
                file,
                path,
                start,
                seen: (meta.len(), meta.modified().ok()),
                warned: AtomicBool::new(false),
            }),
            len,
        }
    }

    /// The bytes of all classes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Class `class`'s bytes, read on first use; `None` when they could not be read.
    #[inline(always)]
    pub(crate) fn slice(&self, class: usize) -> Option<&[u8]> {
        match self.slices[class].get() {
            Some(slice) => slice.as_deref(),
            None => self.read_slice(class),
        }
    }

    #[cold]
    fn read_slice(&self, class: usize) -> Option<&[u8]> {
        self.slices[class]
            .get_or_init(|| {
                let source = self.source.as_ref()?;
                let (offset, len) = self.bounds[class];
                match source.read(offset, len) {
                    Ok(bytes) => Some(bytes),
                    Err(why) => {
                        if !source.warned.swap(true, Ordering::Relaxed) {
                            eprintln!(
                                "warning: endgame database {}: {why}; its positions are \
                                 searched instead of looked up from now on",
                                source.path.display()
                            );
                        }
                        None
                    }
                }
            })
            .as_deref()
    }

    /// Every class's bytes in order (each read if needed); `None` if one cannot be read.
    pub(crate) fn all(&self) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(self.len);
        for class in 0..self.slices.len() {
            out.extend_from_slice(self.slice(class)?);
        }
        Some(out)
    }
}

impl Source {
    /// `len` table bytes from `offset`, checked to come from the file that was opened.
    fn read(&self, offset: usize, len: usize) -> Result<Box<[u8]>, String> {
        self.unchanged()?;
        let mut bytes = vec![0u8; len].into_boxed_slice();
        read_at(&self.file, &mut bytes, self.start + offset as u64).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                "the file was cut short since it was opened".to_string()
            } else {
                format!("cannot read it ({e})")
            }
        })?;
        // Copied over during the read: the bytes may mix two files.
        self.unchanged()?;
        Ok(bytes)
    }

    /// Refuses a file whose size or modification time changed since it was opened.
    fn unchanged(&self) -> Result<(), String> {
        let meta = self
            .file
            .metadata()
            .map_err(|e| format!("cannot read it ({e})"))?;
        if (meta.len(), meta.modified().ok()) != self.seen {
            return Err("the file was changed (cut or written over) since it was opened".into());
        }
        Ok(())
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}
