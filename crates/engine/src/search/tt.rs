//! The transposition table: a fixed-size array of entries indexed by Zobrist key.
//!
//! Each searcher owns its table, so games on different threads never share state. An entry is
//! used for a cutoff only when it was searched with exactly the same remaining depths, so the
//! table never changes a search's value, only its speed.

/// What an entry's value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

/// One slot of the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Full key, to reject index collisions.
    pub key: u64,
    /// Value from the node's point of view (win/loss distances relative to the node).
    pub value: i32,
    /// Remaining full-width plies and remaining plies to the hard limit, packed.
    pub draft: u16,
    /// Bound type of `value`.
    pub bound: Bound,
    /// Index of the best move in generation order (`u8::MAX` if none).
    pub best: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0,
    draft: u16::MAX,
    bound: Bound::Upper,
    best: u8::MAX,
};

/// A direct-mapped transposition table with always-replace.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> TranspositionTable {
        let size = 1usize << bits;
        TranspositionTable {
            entries: vec![EMPTY; size],
            mask: size - 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    /// The entry for `key`, if the slot holds that position.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        let e = &self.entries[key as usize & self.mask];
        (e.key == key && e.draft != u16::MAX).then_some(e)
    }

    /// Stores an entry (always replacing the slot).
    #[inline(always)]
    pub fn store(&mut self, entry: Entry) {
        let i = entry.key as usize & self.mask;
        self.entries[i] = entry;
    }
}
