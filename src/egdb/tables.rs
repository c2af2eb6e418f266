//! The bytes of a database's tables, in this process's own memory.
//!
//! The file is read, not mapped: a mapped file that another program cuts or copies over while
//! a command runs (`cp` writes into the same file) ends the command with SIGBUS at its next
//! probe, and no lock keeps other programs from doing so. The bytes are read into anonymous
//! memory asked to be backed by huge pages: the 151 MB of five pieces then take a few hundred
//! page faults instead of 37,000 (docs/egdb.md has the start-up figures), and the long searches
//! probe them fastest.

use std::io::Read;
use std::ops::Deref;

use memmap2::{Advice, Mmap, MmapMut};

/// Whatever holds a database's table bytes.
enum Backing {
    /// Built in this process.
    Owned(#[allow(dead_code)] Vec<u8>),
    /// Read from a file into anonymous memory, then made read-only.
    Read(#[allow(dead_code)] Mmap),
}

/// A database's table bytes. The slice is kept as a pointer and a length beside its owner, so
/// that a probe (millions a second in a search) reads the bytes without first asking which
/// kind of owner holds them.
pub(crate) struct Tables {
    ptr: *const u8,
    len: usize,
    /// Owns the bytes `ptr` points into; never changed or moved out while `self` lives (a
    /// `Vec`'s heap buffer and an anonymous map's pages stay put when the owner itself moves).
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

    /// The next `len` bytes of `source`, read into memory of this process's own (an error of
    /// kind `UnexpectedEof` if the source ends before).
    pub(crate) fn read(source: &mut impl Read, len: usize) -> std::io::Result<Tables> {
        if len == 0 {
            return Ok(Tables::owned(Vec::new()));
        }
        let mut map = MmapMut::map_anon(len)?;
        // Best effort: without transparent huge pages the bytes are read all the same.
        let _ = map.advise(Advice::HugePage);
        source.read_exact(&mut map)?;
        let map = map.make_read_only()?;
        Ok(Tables {
            ptr: map.as_ptr(),
            len: map.len(),
            _backing: Backing::Read(map),
        })
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
