//! A data set's quiet positions, each once: `datagen` counts them, `fit --unique` learns each
//! once however many games reach it.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use checkers_engine::board::{HashedPosition, Position};

use super::positions::quiet_positions;
use super::recorded_game::RecordedGame;

/// The keys are Zobrist keys, uniformly random already: hashing them again buys nothing.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The quiet positions seen, by key (8 bytes each, about 18 with the set's room: 50 million
/// positions in under 1 GB). Two positions with one key would count once: at 64 bits, about
/// one pair in 10^10 among 50 million.
#[derive(Default)]
pub struct UniquePositions {
    keys: HashSet<u64, BuildHasherDefault<KeyHasher>>,
}

impl UniquePositions {
    /// Counts the quiet positions of `game` from ply `first_ply` on (the fit's: see
    /// [`quiet_positions`]) not seen before.
    pub fn add_game(&mut self, game: &RecordedGame, first_ply: u32) {
        for position in quiet_positions(game, first_ply) {
            self.insert(&position);
        }
    }

    /// Counts `position`; whether it was new.
    pub fn insert(&mut self, position: &Position) -> bool {
        self.keys.insert(HashedPosition::new(*position).hash)
    }

    /// Positions counted.
    pub fn len(&self) -> u64 {
        self.keys.len() as u64
    }

    /// Whether none was counted.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}
