//! A move: its squares, its path and what it captures. Generated in [`super::movegen`], made
//! in [`super::position`], written and read in [`super::notation`].

use arrayvec::ArrayVec;

use super::bitboard::Bitboard;

/// A legal move: a simple step or a (multi-)jump with its full landing path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Squares of the captured pieces.
    pub(super) captured: Bitboard,
    /// Intermediate landing squares as bit indices, 5 bits each, first jump in the low bits.
    pub(super) path: u64,
    pub(super) from: u8,
    pub(super) to: u8,
    pub(super) jumps: u8,
}

impl Move {
    /// A placeholder (square 1 to square 1) for fixed-size move arrays; never a legal move.
    pub const NULL: Move = Move::simple(0, 0);

    /// A simple (non-capturing) move between two bit indices.
    pub(super) const fn simple(from: u32, to: u32) -> Move {
        Move {
            captured: 0,
            path: 0,
            from: from as u8,
            to: to as u8,
            jumps: 0,
        }
    }

    /// The starting square, 1–32.
    #[inline(always)]
    pub const fn from(&self) -> u8 {
        self.from + 1
    }

    /// The final square, 1–32.
    #[inline(always)]
    pub const fn to(&self) -> u8 {
        self.to + 1
    }

    /// The starting square as a bit index, 0–31.
    #[inline(always)]
    pub const fn from_index(&self) -> u32 {
        self.from as u32
    }

    /// The final square as a bit index, 0–31.
    #[inline(always)]
    pub const fn to_index(&self) -> u32 {
        self.to as u32
    }

    /// The squares of the captured pieces (empty for a simple move).
    #[inline(always)]
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// True for a jump.
    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.jumps != 0
    }

    /// Number of pieces jumped (0 for a simple move).
    #[inline(always)]
    pub const fn jump_count(&self) -> u32 {
        self.jumps as u32
    }

    /// Every square the piece stands on, from the start through each landing square to the end
    /// (squares 1–32): `[9, 18, 27]` for `9x18x27`, `[9, 13]` for `9-13`.
    pub fn squares(&self) -> ArrayVec<u8, 13> {
        let mut out = ArrayVec::new();
        out.push(self.from());
        for k in 0..self.jumps.saturating_sub(1) as u64 {
            out.push(((self.path >> (5 * k)) & 31) as u8 + 1);
        }
        out.push(self.to());
        out
    }
}
