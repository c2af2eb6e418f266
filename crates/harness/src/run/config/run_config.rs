//! A tuning run's config (docs/tournament.md): the sections together (the run's own in
//! `sections.rs`), their defaults, and the resolved form written into the run folder.

use serde::{Deserialize, Serialize};

use super::sections::{ChainConfig, IslandsConfig, PopulationConfig, ValidationConfig};
use crate::run::GateConfig;
use crate::run_folder::SpecimenColumns;
use crate::tournament::{EvolutionParams, TournamentParams, WeightSpace};
use checkers_engine::bounded::int_in;
use checkers_engine::game::{GameSettings, OpeningsSource, SearchParams, TimeControl};
use checkers_engine::search::SelectiveParams;

/// The longest run name, in bytes: it names a folder, whose name the file system limits
/// (255 bytes on most), and it is quoted in titles and messages.
pub const MAX_NAME_BYTES: usize = 100;

/// The most games the playoff may play, counted for the most finalists a config allows (see
/// [`Config::most_finalists`]): a round robin of thousands of finalists is weeks of games, and
/// its results are kept in memory until it ends.
pub const MAX_PLAYOFF_GAMES: u64 = 100_000_000;

/// A tuning run, as described by its TOML file. Every key except `name` has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The run's name; its output folder is `results/<name>` unless `--out` says otherwise.
    pub name: String,
    /// Seeds every random stream of the run (see `checkers_engine::rng::stream`).
    #[serde(
        default = "default_seed",
        deserialize_with = "int_in::<_, u64, 0, { i64::MAX }>"
    )]
    pub seed: u64,
    /// Size of the population.
    #[serde(default)]
    pub population: PopulationConfig,
    /// The range of every weight and how fresh specimens are drawn.
    #[serde(default)]
    pub weights: WeightSpace,
    /// How each round's single-elimination tournament and the final playoff are played.
    #[serde(default)]
    pub tournament: TournamentParams,
    /// Search depths and the evaluator's phase switch, shared by every game of the run.
    #[serde(default)]
    pub search: SearchParams,
    /// How newcomers are made after each round.
    #[serde(default)]
    pub evolution: EvolutionParams,
    /// The learning curve: validation matches against `material` every few rounds.
    #[serde(default)]
    pub validation: ValidationConfig,
    /// The gated champion: candidates replace it only by winning a match against it. Left
    /// out of `config.toml` when off, so that runs without a gate keep their files.
    #[serde(default, skip_serializing_if = "GateConfig::is_off")]
    pub gate: GateConfig,
    /// The island model: several populations evolving apart and exchanging their best. Left
    /// out of `config.toml` when there is one island, so that a one-island run's files are
    /// those of a run without islands.
    #[serde(default, skip_serializing_if = "IslandsConfig::is_single")]
    pub islands: IslandsConfig,
    /// A night as a chain of runs of this config and a morning fit of all their games. Left
    /// out of `config.toml` without a chain, so that other runs keep their files.
    #[serde(default, skip_serializing_if = "ChainConfig::is_single")]
    pub chain: ChainConfig,
}

// ---------------------------------------------------------------------------------------------
// Defaults. These are the only place default values are written down.
// ---------------------------------------------------------------------------------------------

/// Default `seed`. A fixed seed, so that two runs of the same file are the same run.
fn default_seed() -> u64 {
    1
}

impl Config {
    /// A config with the given name and every other key at its default.
    pub fn new(name: impl Into<String>) -> Config {
        Config {
            name: name.into(),
            seed: default_seed(),
            population: PopulationConfig::default(),
            weights: WeightSpace::default(),
            tournament: TournamentParams::default(),
            search: SearchParams::default(),
            evolution: EvolutionParams::default(),
            validation: ValidationConfig::default(),
            gate: GateConfig::default(),
            islands: IslandsConfig::default(),
            chain: ChainConfig::default(),
        }
    }
}

impl Config {
    /// The most finalists the playoff can have: every specimen of every island when no round
    /// eliminates anybody (every game drawn, say), plus each island's champion and final fit.
    pub fn most_finalists(&self) -> u64 {
        (self.population.size as u64 + 2) * u64::from(self.islands.count)
    }

    /// The resolved config as TOML, every default filled in, keys in a fixed order. This is
    /// the run folder's `config.toml`; [`Config::from_str_named`] reads it back to an equal
    /// config.
    ///
    /// # Panics
    /// If `seed` exceeds `i64::MAX`, which TOML cannot hold; a loaded config never does.
    pub fn to_toml(&self) -> String {
        let mut config = self.clone();
        if let OpeningsSource::File(path) = &config.tournament.openings {
            // A relative path would change meaning once written into the run folder.
            if let Ok(absolute) = std::path::absolute(path) {
                config.tournament.openings = OpeningsSource::File(absolute);
            }
        }
        let body = toml::to_string(&config).expect("a config with seed <= i64::MAX serialises");
        format!(
            "# The resolved config of run \"{}\": every default filled in.\n\
             # Written by checkers-tuner; `resume` reads it back.\n\n{body}",
            self.name.escape_default()
        )
    }

    /// The ids island `index` gives its specimens: a block of its own, large enough for the
    /// initial population and a full population of newcomers after every round, so ids stay
    /// unique across islands without the islands talking. Island 0's block starts at 0, as a
    /// run without islands does.
    pub fn island_ids(&self, index: u32) -> std::ops::Range<u64> {
        let size = self.population.size as u64;
        let block = size.saturating_mul(u64::from(self.tournament.rounds) + 1);
        let first = block.saturating_mul(u64::from(index));
        first..first.saturating_add(block)
    }

    /// The selective search a specimen's genes (`[search.genes]`) are set over: the run's
    /// (a config with genes is selective; the defaults otherwise, which no gene reads).
    pub fn gene_base(&self) -> SelectiveParams {
        self.search.selective().unwrap_or_default()
    }

    /// The settings every game of this run is played with; the database itself (for
    /// `search.database_pieces` above 0) is the caller's to load into `database`.
    pub fn game_settings(&self) -> GameSettings {
        GameSettings {
            search: self.search,
            max_plies: self.tournament.max_plies,
            no_progress_plies: self.tournament.no_progress_plies,
            time: self.search.nodes.map(TimeControl::Nodes),
            database: None,
            database_adjudication: self.tournament.database_adjudication,
        }
    }

    /// The columns of this run's `specimens.csv`: its evaluator's weights, then its search
    /// genes.
    pub fn specimen_columns(&self) -> SpecimenColumns {
        SpecimenColumns {
            evaluator: self.weights.evaluator,
            genes: self.search.genes,
        }
    }
}
