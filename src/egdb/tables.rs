//! The bytes of a database's tables: built in memory, or mapped from its file.
//!
//! Mapping instead of reading lets a short command (`egdb probe`, `analyse`, a GUI starting
//! `hub` per game) start at once: pages are read on first touch, and every process on the
//! machine shares them.

use std::fs::File;
use std::ops::Deref;

use memmap2::Mmap;

/// Whatever holds a database's table bytes.
enum Backing {
    /// Built in this process.
    Owned(#[allow(dead_code)] Vec<u8>),
    /// Mapped from a file.
    Mapped(#[allow(dead_code)] Mmap),
}

/// A database's table bytes. The slice is kept as a pointer and a length beside its owner, so
/// that a probe (millions a second in a search) reads the bytes without first asking which
/// kind of owner holds them.
pub(crate) struct Tables {
    ptr: *const u8,
    len: usize,
    /// Owns the bytes `ptr` points into; never changed or moved out while `self` lives (a
    /// `Vec`'s heap buffer and a map's pages stay put when the owner itself moves).
    _backing: Backing,
}

// SAFETY: the bytes are never written after construction, and both owners (`Vec<u8>`, `Mmap`)
// are `Send` and `Sync`; the pointer only reads through them.
unsafe impl Send for Tables {}
// SAFETY: as above: shared access only ever reads.
unsafe impl Sync for Tables {}

impl Tables {
    /// Bytes built in this process.
    pub(crate) fn owned(bytes: Vec<u8>) -> Tables {
        Tables {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
            _backing: Backing::Owned(bytes),
        }
    }

    /// The bytes of `file` from `start` on, mapped read-only.
    pub(crate) fn map(file: &File, start: usize) -> std::io::Result<Tables> {
        // SAFETY: the map is read-only, and nothing in this tool writes a database file in
        // place: a build writes a temporary file and renames it over the old one, so a mapped
        // file's bytes never change while it is mapped (the old inode stays whole). Another
        // program truncating the file under a running process could still end it with SIGBUS,
        // as it could for any mapped file; the header and length are checked before use.
        let map = unsafe { Mmap::map(file)? };
        let tables = &map[start.min(map.len())..];
        Ok(Tables {
            ptr: tables.as_ptr(),
            len: tables.len(),
            _backing: Backing::Mapped(map),
        })
    }
}

impl Tables {
    /// The same bytes in this process's own memory (a copy when they are mapped).
    pub(crate) fn into_owned(self) -> Tables {
        match self._backing {
            Backing::Owned(_) => self,
            Backing::Mapped(_) => Tables::owned(self.to_vec()),
        }
    }
}

impl Deref for Tables {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` and `len` describe bytes owned by `_backing`, which lives as long as
        // `self` and never changes them (see the field).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}
