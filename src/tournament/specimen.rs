//! A specimen: one member of a tuning run's population.

use serde::{Deserialize, Serialize};

use crate::eval::WeightPair;

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
