//! The database in memory: its tables and the probe.

use std::fmt;

use super::tables::Tables;
use crate::board::{Color, Position};

use super::index::Material;

/// A position's value for the side to move under best play, by the rules alone (see the
/// module documentation of `egdb` for the relation to the draw rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DbValue {
    /// The side to move wins; the game ends after this many plies (odd: the winner moves last).
    Win(u32),
    /// The side to move loses; the game ends after this many plies (even; 0: no move now).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl DbValue {
    /// The value stored in a table byte: 0 for a draw, else the distance plus one (a distance's
    /// parity tells a win, odd, from a loss, even).
    #[inline(always)]
    pub(crate) fn from_byte(byte: u8) -> DbValue {
        match byte {
            0 => DbValue::Draw,
            b if b % 2 == 0 => DbValue::Win(u32::from(b) - 1),
            b => DbValue::Loss(u32::from(b) - 1),
        }
    }
}

impl fmt::Display for DbValue {
    /// `win D`, `loss D` or `draw`, as `egdb probe` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbValue::Win(d) => write!(f, "win {d}"),
            DbValue::Loss(d) => write!(f, "loss {d}"),
            DbValue::Draw => f.write_str("draw"),
        }
    }
}

/// Where one class's table lies in the database's bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassTable {
    pub(crate) material: Material,
    pub(crate) offset: usize,
}

/// An endgame database: the value and distance of every position with at most
/// [`EndgameDb::pieces`] pieces, one byte per position with Black to move.
///
/// Built by [`EndgameDb::build`] or read by [`EndgameDb::open`]; probing never allocates.
pub struct EndgameDb {
    pub(crate) pieces: u32,
    /// Class tables, in [`Material::all`] order.
    pub(crate) classes: Vec<ClassTable>,
    /// For each [`Material::key`], the index in `classes` (`u16::MAX` if none).
    pub(crate) lookup: Box<[u16; Material::KEYS]>,
    pub(crate) data: Tables,
    pub(crate) checksum: u64,
}

impl fmt::Debug for EndgameDb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "EndgameDb {{ pieces: {}, positions: {} }}",
            self.pieces,
            self.data.len()
        )
    }
}

impl PartialEq for EndgameDb {
    /// Two databases are equal when they hold the same tables (same size and checksum).
    fn eq(&self, other: &EndgameDb) -> bool {
        self.pieces == other.pieces
            && self.data.len() == other.data.len()
            && self.checksum == other.checksum
    }
}

impl Eq for EndgameDb {}

impl EndgameDb {
    /// The class layout for `pieces`: tables in [`Material::all`] order and the lookup from a
    /// class to its table; the last value is the total number of bytes.
    pub(crate) fn layout(pieces: u32) -> (Vec<ClassTable>, Box<[u16; Material::KEYS]>, usize) {
        let mut lookup = Box::new([u16::MAX; Material::KEYS]);
        let mut classes = Vec::new();
        let mut offset = 0;
        for (i, material) in Material::all(pieces).into_iter().enumerate() {
            lookup[material.key()] = i as u16;
            classes.push(ClassTable { material, offset });
            offset += material.slots();
        }
        (classes, lookup, offset)
    }

    /// Keeps the database for the rest of the process and returns a shared handle to it: the
    /// form the search and the games take (one copy serves every thread and game).
    pub fn leak(self) -> &'static EndgameDb {
        Box::leak(Box::new(self))
    }

    /// Numbered positions of the `pieces`-piece database ([`EndgameDb::len`] once built).
    pub fn positions_for(pieces: u32) -> usize {
        EndgameDb::layout(pieces).2
    }

    /// Most pieces of a position this database answers for.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Numbered positions (bytes of the tables).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True if the database holds no position (never for a built one).
    pub fn is_empty(&self) -> bool {
        self.data.len() == 0
    }

    /// The checksum of the tables (written in the file's header).
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The longest win or loss in the database, in plies (every slice is read for it).
    pub fn longest(&self) -> u32 {
        (0..self.classes.len())
            .filter_map(|class| self.data.slice(class))
            .flat_map(|slice| slice.iter().map(|&b| u32::from(b)))
            .max()
            .unwrap_or(0)
            .saturating_sub(1)
    }

    /// The bounds of each class's slice of the table bytes, for [`Tables`].
    pub(crate) fn bounds(classes: &[ClassTable]) -> Vec<(usize, usize)> {
        classes
            .iter()
            .map(|class| (class.offset, class.material.slots()))
            .collect()
    }

    /// The value of `pos` for its side to move, or `None` if it has more pieces than the
    /// database holds, or its class's slice of the file could not be read (cut or changed
    /// since it was opened: one warning says so, and the position is searched).
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<DbValue> {
        if pos.piece_count() > self.pieces {
            return None;
        }
        let pos = match pos.side_to_move() {
            Color::Black => *pos,
            Color::White => pos.mirrored(),
        };
        if pos.black() == 0 {
            return Some(DbValue::Loss(0));
        }
        if pos.white() == 0 {
            // Not a position of any class: the side to move wins with any move, if it has one.
            return Some(if pos.is_lost() {
                DbValue::Loss(0)
            } else {
                DbValue::Win(1)
            });
        }
        self.byte(&pos).map(DbValue::from_byte)
    }

    /// The table byte of `pos` (Black to move, both sides with pieces, at most `pieces`), or
    /// `None` when its slice cannot be read.
    #[inline(always)]
    pub(crate) fn byte(&self, pos: &Position) -> Option<u8> {
        let material = Material::of(pos);
        let slice = self.data.slice(self.lookup[material.key()] as usize)?;
        Some(slice[material.index(pos)])
    }
}

/// A 64-bit checksum of `bytes`: eight bytes at a time, each word mixed into the state by a
/// multiply and a rotation, so that any changed, missing or swapped byte changes it (the
/// whole-slice form of [`Checksum`], which the build and the file check use).
#[cfg(test)]
fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::new(bytes.len() as u64);
    sum.feed(bytes);
    sum.finish()
}

/// [`checksum`] fed a piece at a time (the file in chunks, or a build's tables class by
/// class), the same value whatever the pieces.
pub(crate) struct Checksum {
    h: u64,
    /// Bytes of a word not complete yet.
    pending: [u8; 8],
    held: usize,
}

impl Checksum {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    /// The checksum of `len` bytes, none fed yet.
    pub(crate) fn new(len: u64) -> Checksum {
        Checksum {
            h: len.wrapping_mul(Checksum::K),
            pending: [0; 8],
            held: 0,
        }
    }

    /// Feeds the next bytes.
    pub(crate) fn feed(&mut self, mut bytes: &[u8]) {
        if self.held > 0 {
            let take = (8 - self.held).min(bytes.len());
            self.pending[self.held..self.held + take].copy_from_slice(&bytes[..take]);
            self.held += take;
            bytes = &bytes[take..];
            if self.held < 8 {
                return;
            }
            let w = u64::from_le_bytes(self.pending);
            self.h = (self.h ^ w).wrapping_mul(Checksum::K).rotate_left(29);
            self.held = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            self.h = (self.h ^ w).wrapping_mul(Checksum::K).rotate_left(29);
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.held = rest.len();
    }

    /// The checksum of the bytes fed.
    pub(crate) fn finish(self) -> u64 {
        let mut h = self.h;
        for &b in &self.pending[..self.held] {
            h = (h ^ u64::from(b)).wrapping_mul(Checksum::K).rotate_left(29);
        }
        h ^ (h >> 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_is_the_same_whatever_the_pieces() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 37 % 251) as u8).collect();
        let whole = checksum(&bytes);
        for cuts in [[3, 4, 500], [8, 16, 999], [0, 1, 2], [7, 9, 15]] {
            let mut sum = Checksum::new(bytes.len() as u64);
            let mut at = 0;
            for cut in cuts {
                sum.feed(&bytes[at..cut]);
                at = cut;
            }
            sum.feed(&bytes[at..]);
            assert_eq!(sum.finish(), whole, "{cuts:?}");
        }
        assert_ne!(checksum(&bytes[1..]), whole);
    }
}
