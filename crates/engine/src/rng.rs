//! Seeded random streams keyed by the place of the draw.
//!
//! Every random draw of a run comes from a ChaCha generator whose seed is derived from the run's
//! `seed` and a key naming what is drawn (round, bracket level, pair, game, …). Streams never
//! depend on thread timing, so results are identical whatever the thread count.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Well-known tags that name what a stream is for; used as the first key element.
pub mod tag {
    /// Shuffling the pool at a bracket level.
    pub const SHUFFLE: u64 = 1;
    /// One game (opening choice, random tie-breaks).
    pub const GAME: u64 = 2;
    /// Breeding newcomers after a round.
    pub const BREEDING: u64 = 3;
    /// The initial population.
    pub const INITIAL: u64 = 4;
    /// The playoff after the last round.
    pub const PLAYOFF: u64 = 5;
    /// A `match` between two weight files.
    pub const MATCH: u64 = 6;
    /// The validation deck of a run's learning curve.
    pub const VALIDATION: u64 = 7;
    /// The seed of an island (other than island 0) of an island-model run.
    pub const ISLAND: u64 = 8;
    /// Which games a fit holds out for validation.
    pub const FIT_SPLIT: u64 = 9;
    /// The random openings of a `match --openings random:N`.
    pub const MATCH_OPENINGS: u64 = 10;
    /// The order in which a fit's epoch visits the positions.
    pub const FIT_SHUFFLE: u64 = 11;
    /// The openings of a run's gate (`[gate]`) after a round.
    pub const GATE: u64 = 12;
    /// A specimen's search genes (`[search.genes]`): fresh ones keyed by its id, a child's by
    /// the round and its id, apart from the weights' streams.
    pub const SEARCH_GENES: u64 = 13;
    /// An SPSA iteration's perturbation, opening and games (`spsa`), keyed by the iteration.
    pub const SPSA: u64 = 14;
    /// The openings of a gate's confirming match (`gate.confirm`) after a round.
    pub const GATE_CONFIRM: u64 = 15;
    /// The openings of a chain's morning gate (`[chain]`).
    pub const CHAIN_GATE: u64 = 16;
    /// One game of `datagen` (its random opening, its tie-breaks), keyed by the game's number.
    pub const DATAGEN: u64 = 17;
    /// The seed of a chain's data night's doubling (`[chain] data_doublings`), keyed by the
    /// doubling's number: its games' `datagen` seed.
    pub const DATA_NIGHT: u64 = 18;
    /// The openings of the gate of a data night's doubling, keyed by the doubling's number.
    pub const DATA_NIGHT_GATE: u64 = 19;
}

/// SplitMix64 finaliser: a bijective 64-bit mixer.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A ChaCha8 stream for `seed` and the key `key` (e.g. `[tag::GAME, round, level, pair, game]`).
///
/// Different keys give independent streams; the same key always gives the same stream.
pub fn stream(seed: u64, key: &[u64]) -> ChaCha8Rng {
    let mut state = mix(seed);
    for &k in key {
        state = mix(state ^ mix(k.wrapping_add(0x5851_F42D_4C95_7F2D)));
    }
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&mix(state ^ i as u64).to_le_bytes());
    }
    ChaCha8Rng::from_seed(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn same_key_same_stream_different_key_different_stream() {
        let a: u64 = stream(7, &[1, 2, 3]).gen();
        let b: u64 = stream(7, &[1, 2, 3]).gen();
        let c: u64 = stream(7, &[1, 2, 4]).gen();
        let d: u64 = stream(8, &[1, 2, 3]).gen();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
    }
}
