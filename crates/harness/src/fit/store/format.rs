//! The store's bytes: its magic and header, and a round's block with its checksum.

use crate::fit::records::{RecordedGame, NO_SCORE};
use checkers_engine::board::Color;
use checkers_engine::game::GameResult;

use super::identity::StoreIdentity;
#[cfg(doc)]
use super::writer::start_store;

/// The first bytes of a store.
pub(super) const MAGIC: &[u8; 8] = b"CTPOS002";

/// The first bytes of a store written by the previous version (no identity, no checksums).
pub(super) const MAGIC_V1: &[u8; 8] = b"CTPOS001";

/// The length of the file header: magic and identity.
pub(super) const HEADER: u64 = 8 + 12;

/// The end of the message of a file cut inside a record.
pub(super) const ENDS_INSIDE: &str = "the file ends inside a record";

/// FNV-1a, 64 bits, fed a piece at a time: the blocks' checksum.
#[derive(Clone, Copy)]
pub(super) struct Checksum(pub(super) u64);

impl Checksum {
    pub(super) const fn new() -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    pub(super) fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The bytes of one round's block of the store `identity`, its checksum at the end.
pub fn round_block(identity: StoreIdentity, round: u32, games: &[RecordedGame]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + games.len() * 256);
    out.push(b'R');
    out.extend_from_slice(&round.to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&identity.bytes());
    for game in games {
        out.push(b'G');
        let start = game.start;
        for board in [
            start.pieces(Color::Black),
            start.pieces(Color::White),
            start.kings(),
        ] {
            out.extend_from_slice(&board.to_le_bytes());
        }
        out.push(start.side_to_move() as u8);
        out.push(match game.result {
            GameResult::BlackWin => 0,
            GameResult::WhiteWin => 1,
            GameResult::Draw => 2,
        });
        out.extend_from_slice(&(game.moves.len() as u16).to_le_bytes());
        let mut pos = start;
        for (ply, mv) in game.moves.iter().enumerate() {
            let index = pos
                .legal_moves()
                .iter()
                .position(|m| m == mv)
                .expect("a recorded move is legal");
            out.push(index as u8);
            let score = game.scores.get(ply).copied().unwrap_or(NO_SCORE);
            out.extend_from_slice(&score.to_le_bytes());
            pos = pos.play(mv);
        }
    }
    let mut sum = Checksum::new();
    sum.feed(&out);
    out.extend_from_slice(&sum.0.to_le_bytes());
    out
}

/// The header of a store of `identity`: what [`start_store`] writes.
pub(super) fn header(identity: StoreIdentity) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&identity.bytes());
    out
}
