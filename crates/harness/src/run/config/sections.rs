//! The run config's own sections (`[population]`, `[validation]`, `[islands]`, `[chain]`): their keys,
//! bounds and defaults. The other sections belong to the layers that use them
//! (docs/layout.md); `run_config.rs` holds them all as the run's `Config`.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::fit::MAX_LABEL_DEPTH;
use crate::run_folder::MAX_ISLANDS;
use crate::tournament::{EvolutionParams, MAX_ROUNDS};
use checkers_engine::bounded::{int_in, is_zero, number_in};
use checkers_engine::eval::{RankLayout, RegionLayout};
use checkers_engine::game::MAX_RANDOM_OPENING_PLIES;

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

/// Whether a switch is off (its default, left out of a written config).
fn is_off(switch: &bool) -> bool {
    !*switch
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

/// The most links a chain may have: a night of 7-minute links is some 70.
pub const MAX_CHAIN_LINKS: u32 = 1000;

/// `[chain]`: a night as a chain of runs (docs/chain.md). The run is `links` runs of this
/// config one after another, link `k` (from 1) in `link-k/` with seed `seed + k - 1`; then a
/// morning fit learns from every link's games, starting from the last link's best, and
/// replaces it as `best.json` when it wins a gate against it. Seeds pooled pay where one
/// longer run does not: a fit of three 7-minute runs' games beat the best of one by +40
/// (docs/learning.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ChainConfig {
    /// Runs in the chain; 1 is a run without a chain.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_CHAIN_LINKS as i64 }>")]
    pub links: u32,
    /// Whether each link's fits also learn from every earlier link's games (as
    /// `evolution.fit_with`), not only the morning fit; left out of a written config when off.
    #[serde(skip_serializing_if = "is_off")]
    pub learn_from_earlier: bool,
    /// The men regions of the morning fit (`fit --regions`), when wider than the links':
    /// their further regions start at zero and learn from all the links' games; `None` (the
    /// default, left out of a written config): the links' regions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<RegionLayout>,
    /// The rank region the morning fit adds to the tables (`fit --ranks`): with a night's
    /// games there is data enough for it.
    pub ranks: RankLayout,
    /// The morning fit's pull of each table entry toward zero, in positions (`fit
    /// --l2-tables`): the pooled games let rare entries say more than one run's would.
    #[serde(deserialize_with = "l2_tables")]
    pub l2_tables: f64,
    /// The most openings (each with both colours) of the morning gate, an SPRT of the morning
    /// fit against the last link's best; 0: no gate, the morning fit is `best.json`.
    #[serde(deserialize_with = "int_in::<_, u32, 0, 100_000>")]
    pub gate_openings: u32,
    /// The morning relabel (`fit --label-depth`): every pooled position searched again at this
    /// full-width depth with the morning fit's weights, and a second fit from them learns those
    /// scores; 0: none. Three runs relabelled at depth 6 equalled seven with the games' own
    /// labels (docs/learning.md). Left out of a written config when 0.
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, { MAX_LABEL_DEPTH as i64 }>",
        skip_serializing_if = "is_zero"
    )]
    pub label_depth: u32,
    /// The links after which the chain also fits the games so far (links 1 to K), as the
    /// morning fit would but without its relabel or gate, into `interim/after-K.json`: the
    /// night's champion after an eighth, a quarter, a half of it, and a pooled best for a
    /// night stopped early. Increasing, each below `links`; empty (the default, left out of a
    /// written config): none.
    #[serde(
        deserialize_with = "link_numbers",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub interim_fits: Vec<u32>,
    /// Whether the morning and interim fits learn the pattern evaluator's `exchange` term
    /// (`fit --exchange`): level in our own search, it gains on neutral ground, where another
    /// engine's search plays our header without a database (docs/learning.md). Left out of a
    /// written config when off.
    #[serde(skip_serializing_if = "is_off")]
    pub exchange: bool,
    /// The data night (docs/chain.md): after the morning, this many doublings of data, each
    /// `datagen` games of the champion against itself at `data_nodes`, then a fit of all the
    /// data so far gated against the champion; the first plays `data_games` games and each
    /// later one as many as all before it. 0 (the default, left out of a written config):
    /// none, the morning ends the chain.
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, { MAX_DATA_DOUBLINGS as i64 }>",
        skip_serializing_if = "is_zero"
    )]
    pub data_doublings: u32,
    /// Games of the data night's first doubling (left out of a written config at its default).
    #[serde(
        deserialize_with = "int_in::<_, u64, 1, { MAX_DATA_GAMES as i64 }>",
        skip_serializing_if = "is_default_data_games"
    )]
    pub data_games: u64,
    /// Nodes a move of the data night's games, game `g` at `data_nodes[g % len]` (as
    /// `datagen`'s `nodes`; left out of a written config at its default).
    #[serde(skip_serializing_if = "is_default_data_nodes")]
    pub data_nodes: Vec<u64>,
    /// Whether the data night's fits learn from the links' games too, not only the data's
    /// (left out of a written config at its default, on).
    #[serde(skip_serializing_if = "is_on")]
    pub data_with_links: bool,
}

/// The most doublings of a data night: 2^15 times the first doubling's games.
pub const MAX_DATA_DOUBLINGS: u32 = 16;
/// The most games of a data night's first doubling.
pub const MAX_DATA_GAMES: u64 = 100_000_000;
/// The first doubling's games by default: about five minutes of two cores for a pattern
/// champion at the default budgets (docs/datagen.md), some 0.75 million unique positions.
const DEFAULT_DATA_GAMES: u64 = 20_000;

/// The data night's node budgets by default: `datagen.toml`'s, measured there.
fn default_data_nodes() -> Vec<u64> {
    vec![2000, 4000]
}

fn is_default_data_games(games: &u64) -> bool {
    *games == DEFAULT_DATA_GAMES
}

fn is_default_data_nodes(nodes: &[u64]) -> bool {
    nodes == default_data_nodes().as_slice()
}

/// Reads a list of link numbers (each 1 or more; their order and bound are the chain's check).
fn link_numbers<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<u32>, D::Error> {
    let numbers = Vec::<i64>::deserialize(deserializer)?;
    numbers
        .into_iter()
        .map(|n| {
            u32::try_from(n).map_err(|_| {
                serde::de::Error::custom(format!("link numbers are 1 or more, got {n}"))
            })
        })
        .collect()
}

/// Reads a pull toward zero, in positions, within `fit --l2-tables`' bounds.
fn l2_tables<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    number_in(deserializer, 0.0, crate::tournament::MAX_L2_TABLES)
}

impl ChainConfig {
    /// Whether this is a run without a chain.
    pub fn is_single(&self) -> bool {
        self.links == 1 && self.data_doublings == 0
    }

    /// The games of doubling `doubling` (from 1) of the data night: the first doubling's
    /// `data_games`, then as many as all the doublings before it, so the data doubles.
    pub fn data_games_of(&self, doubling: u32) -> u64 {
        match doubling {
            0 | 1 => self.data_games,
            k => self.data_games << (k - 2),
        }
    }
}

impl Default for ChainConfig {
    /// No chain; when `links` is raised: links that learn apart, and a morning fit with the
    /// home-ranks table and a pull of 10 positions (what paid on three runs pooled), gated by
    /// up to 1,000 openings.
    fn default() -> Self {
        ChainConfig {
            links: 1,
            learn_from_earlier: false,
            regions: None,
            ranks: RankLayout::Home,
            l2_tables: 10.0,
            gate_openings: 1000,
            label_depth: 0,
            interim_fits: Vec::new(),
            exchange: false,
            data_doublings: 0,
            data_games: DEFAULT_DATA_GAMES,
            data_nodes: default_data_nodes(),
            data_with_links: true,
        }
    }
}

/// `[population]`: how many specimens compete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PopulationConfig {
    /// Number of specimens N in every round.
    #[serde(deserialize_with = "int_in::<_, usize, 2, 100_000>")]
    pub size: usize,
    /// A weights file the run starts from (`None`: fresh specimens as `[weights] init` says):
    /// specimen 0 is its weights, the other fresh specimens are drawn around them. Absolute
    /// once loaded (relative to the config file's folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<PathBuf>,
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
    /// 100 specimens (the original student project's setting), drawn as `[weights] init` says.
    fn default() -> Self {
        PopulationConfig {
            size: 100,
            start: None,
        }
    }
}
