//! Zobrist keys: 64-bit position hashes, updated incrementally as moves are played.

use super::bitboard::{Bitboard, Bits};
use super::moves::Move;
use super::position::{Color, Position};

/// Keys per (colour, man/king, square), from a fixed-seed SplitMix64 so they never change.
const KEYS: [[[u64; 32]; 2]; 2] = {
    let mut keys = [[[0u64; 32]; 2]; 2];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 2 {
            let mut s = 0;
            while s < 32 {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                keys[c][k][s] = z ^ (z >> 31);
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    keys
};

/// Key XOR-ed in when White is to move.
const WHITE_TO_MOVE: u64 = 0x6A09_E667_F3BC_C909;

#[inline(always)]
fn key(color: usize, king: bool, index: u32) -> u64 {
    KEYS[color][king as usize][index as usize]
}

fn pieces_key(color: usize, men: Bitboard, kings: Bitboard) -> u64 {
    Bits(men).fold(0, |h, i| h ^ key(color, false, i))
        ^ Bits(kings).fold(0, |h, i| h ^ key(color, true, i))
}

impl Position {
    /// The Zobrist key of this position, computed from scratch.
    pub fn zobrist(&self) -> u64 {
        let mut h = 0;
        for c in [Color::Black, Color::White] {
            h ^= pieces_key(c as usize, self.men(c), self.kings_of(c));
        }
        if self.side == Color::White {
            h ^= WHITE_TO_MOVE;
        }
        h
    }

    /// The key of `self.play(mv)`, derived from this position's key `hash` without a rescan.
    #[inline]
    pub fn zobrist_after(&self, hash: u64, mv: &Move) -> u64 {
        let us = self.side as usize;
        let them = us ^ 1;
        let from = mv.from_index();
        let to = mv.to_index();
        let was_king = self.kings & (1 << from) != 0;
        let is_king = was_king || (1 << to) & self.side.crowning_row() != 0;
        let mut h = hash ^ WHITE_TO_MOVE ^ key(us, was_king, from) ^ key(us, is_king, to);
        let captured = mv.captured();
        if captured != 0 {
            h ^= pieces_key(them, captured & !self.kings, captured & self.kings);
        }
        h
    }
}

/// A position with its Zobrist key kept up to date move by move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashedPosition {
    /// The position.
    pub position: Position,
    /// Its Zobrist key.
    pub hash: u64,
}

impl HashedPosition {
    /// Wraps a position, computing its key once.
    pub fn new(position: Position) -> HashedPosition {
        HashedPosition {
            hash: position.zobrist(),
            position,
        }
    }

    /// The position after `mv`, with its key updated incrementally.
    #[inline(always)]
    pub fn play(&self, mv: &Move) -> HashedPosition {
        HashedPosition {
            hash: self.position.zobrist_after(self.hash, mv),
            position: self.position.play(mv),
        }
    }
}
