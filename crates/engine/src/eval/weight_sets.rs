//! Weight vectors of the ten features: one set, and the opening and endgame pair.

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

/// Largest absolute weight a tuning run or a game accepts; keeps evaluation sums far from
/// `i32` overflow.
pub const MAX_ABS_WEIGHT: i32 = 10_000;

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

/// The `perspective` string of a weights file: the sign convention of every weight.
pub const PERSPECTIVE: &str = "side to move: own count minus opponent count";

/// The position of a feature in [`FEATURE_NAMES`], if `name` is one.
pub fn feature_index(name: &str) -> Option<usize> {
    FEATURE_NAMES.iter().position(|&n| n == name)
}

impl Weights {
    /// The weight of feature `i` (an index into [`FEATURE_NAMES`]).
    ///
    /// # Panics
    /// If `i >= FEATURE_COUNT`, like slice indexing.
    pub fn get(&self, i: usize) -> i32 {
        self.0[i]
    }

    /// Sets the weight of feature `i`.
    ///
    /// # Panics
    /// If `i >= FEATURE_COUNT`, like slice indexing.
    pub fn set(&mut self, i: usize, value: i32) {
        self.0[i] = value;
    }

    /// The weight of the feature called `name`, if it is one of [`FEATURE_NAMES`].
    pub fn by_name(&self, name: &str) -> Option<i32> {
        feature_index(name).map(|i| self.0[i])
    }

    /// `(name, weight)` pairs in feature order.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        FEATURE_NAMES.iter().copied().zip(self.0.iter().copied())
    }

    /// The material baseline: pawns 100, kings 150, everything else 0.
    pub fn material() -> Weights {
        let mut w = Weights::default();
        w.0[0] = 100;
        w.0[1] = 150;
        w
    }
}

impl std::ops::Index<usize> for Weights {
    type Output = i32;
    fn index(&self, i: usize) -> &i32 {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for Weights {
    fn index_mut(&mut self, i: usize) -> &mut i32 {
        &mut self.0[i]
    }
}

impl WeightPair {
    /// The built-in `material` baseline of docs/features.md, the same in both sets.
    pub fn material() -> WeightPair {
        WeightPair {
            opening: Weights::material(),
            endgame: Weights::material(),
        }
    }
}
