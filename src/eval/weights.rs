//! Weight vectors, specimens and the JSON weights file (SPEC §7).

use serde::{Deserialize, Serialize};

/// Number of evaluation features.
pub const FEATURE_COUNT: usize = 10;

/// Feature names in the order used by every file and every weight vector.
pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [
    "pawns",
    "kings",
    "safe_pawns",
    "safe_kings",
    "defenders",
    "attackers",
    "promotion_distance",
    "open_promotion",
    "mobility",
    "jumps",
];

/// Default number of pieces left on the board at which a game switches to the endgame set.
pub const DEFAULT_ENDGAME_PIECES: u32 = 12;

/// One weight per feature, in [`FEATURE_NAMES`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Weights(pub [i32; FEATURE_COUNT]);

/// The two weight sets a player uses: `opening` until few pieces are left, then `endgame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WeightPair {
    /// Used while more than the endgame threshold of pieces are on the board.
    pub opening: Weights,
    /// Used from the endgame threshold on.
    pub endgame: Weights,
}

/// A member of the population: its weights and its lineage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Specimen {
    /// Unique within a run, given in order of creation.
    pub id: u64,
    /// Its opening and endgame weight sets.
    pub weights: WeightPair,
    /// First parent (genetic mode), if any.
    pub parent_a: Option<u64>,
    /// Second parent (genetic mode), if any.
    pub parent_b: Option<u64>,
    /// The round in which it was created (0 for the initial population).
    pub born_round: u32,
}
