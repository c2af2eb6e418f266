//! The run config's own sections (`[population]`, `[validation]`, `[islands]`): their keys,
//! bounds and defaults. The other sections belong to the layers that use them
//! (docs/layout.md); `config.rs` holds them all as the run's `Config`.

use serde::{Deserialize, Serialize};

use crate::bounded::int_in;
use crate::game::MAX_RANDOM_OPENING_PLIES;
use crate::tournament::{EvolutionParams, MAX_ROUNDS};

/// The most islands a run may have.
pub const MAX_ISLANDS: u32 = 1024;

/// `[islands]`: `count` populations of `population.size` each evolve side by side (in one
/// process, or one process per island across machines); after every `migration_interval`
/// rounds each island sends copies of its best `migrants` survivors to its neighbour on the
/// ring. The finalists of all islands play one playoff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IslandsConfig {
    /// Number of islands; 1 is a run without islands.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_ISLANDS as i64 }>")]
    pub count: u32,
    /// Rounds between migrations.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_ROUNDS as i64 }>")]
    pub migration_interval: u32,
    /// Survivors each island sends to its neighbour at a migration (fewer if it has fewer).
    #[serde(deserialize_with = "int_in::<_, u32, 0, 100_000>")]
    pub migrants: u32,
    /// Who sends to whom.
    pub topology: Topology,
    /// Whether each island's fits (`evolution.fit_every`) learn from every island's games,
    /// not its own alone; left out of a written config at its default (on).
    #[serde(skip_serializing_if = "is_on")]
    pub pool_games: bool,
}

/// Whether a switch is on (its default, left out of a written config).
fn is_on(switch: &bool) -> bool {
    *switch
}

/// The migration graph of the islands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    /// Island `i` sends to island `i + 1`, the last to island 0.
    Ring,
}

impl IslandsConfig {
    /// Whether this is a run without islands (one population).
    pub fn is_single(&self) -> bool {
        self.count == 1
    }

    /// Whether the islands' fits learn from every island's games (docs/islands.md): islands
    /// that pool them, and fits to pool them for.
    pub fn pool_fits(&self, evolution: &EvolutionParams) -> bool {
        !self.is_single() && self.pool_games && evolution.fit_every > 0
    }
}

/// `[validation]`: every `every` rounds, the round's top survivor (most rounds survived, then
/// most wins in the round, then the lowest id) plays a match against `material` on a deck of
/// random openings that the bracket never uses; the results make `learning.csv`. Validation
/// only watches: it changes no selection, so its estimates are not biased by it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ValidationConfig {
    /// Rounds between validations (0: no validation).
    #[serde(deserialize_with = "int_in::<_, u32, 0, { MAX_ROUNDS as i64 }>")]
    pub every: u32,
    /// Openings of the validation deck; each is played with both colours.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 10_000>")]
    pub openings: u32,
    /// Random plies from the start of each validation opening.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_RANDOM_OPENING_PLIES as i64 }>")]
    pub opening_plies: u32,
    /// The validation deck's own seed, apart from the run's so that runs with different seeds
    /// are validated on the same deck.
    #[serde(deserialize_with = "int_in::<_, u64, 0, { i64::MAX }>")]
    pub seed: u64,
    /// Keep the champion: the specimen with the best validation score so far re-enters every
    /// round's population (in place of one newcomer) and the playoff, even after it lost in the
    /// bracket. Elitism against the bracket's noise.
    pub keep_champion: bool,
}

/// `[population]`: how many specimens compete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PopulationConfig {
    /// Number of specimens N in every round.
    #[serde(deserialize_with = "int_in::<_, usize, 2, 100_000>")]
    pub size: usize,
}

impl Default for IslandsConfig {
    /// One island (no island model); when `count` is raised: a migration every 5 rounds of
    /// the 2 best survivors, on a ring, and fits on every island's games. Rare, small
    /// exchanges of specimens keep the islands diverse; the games are what a fit needs more of.
    fn default() -> Self {
        IslandsConfig {
            count: 1,
            migration_interval: 5,
            migrants: 2,
            topology: Topology::Ring,
            pool_games: true,
        }
    }
}

impl Default for ValidationConfig {
    /// Every 2 rounds, 32 openings of 8 random plies (64 games), deck seed 2718, keep the
    /// champion.
    fn default() -> Self {
        ValidationConfig {
            every: 2,
            openings: 32,
            opening_plies: 8,
            seed: 2718,
            keep_champion: true,
        }
    }
}

impl Default for PopulationConfig {
    /// 100 specimens: the original student project's setting.
    fn default() -> Self {
        PopulationConfig { size: 100 }
    }
}
