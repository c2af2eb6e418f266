//! `[evolution]`: how the population is refilled after each round, with its defaults and
//! bounds.

use serde::{Deserialize, Deserializer, Serialize};

use checkers_engine::bounded::{fraction, int_in, is_zero, number_in};
use checkers_engine::eval::MAX_ABS_WEIGHT;

use crate::tournament::fit_with::FitSource;
use crate::tournament::settings::MAX_ROUNDS;

/// The strongest pull of a pattern fit's table entries toward zero, in positions (`fit
/// --l2-tables`, `[evolution] fit_l2_tables`): far beyond any data set, every entry at zero.
pub const MAX_L2_TABLES: f64 = 1e9;

/// The longest ending a fit plays on from a game (`fit --endings`, `[evolution]
/// fit_endings`): longer than any win of the 5-piece database.
pub const MAX_ENDING_PLIES: u32 = 1000;

/// How newcomers are made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvolutionMode {
    /// Fresh random specimens, as the original harness did.
    Random,
    /// Children of survivors by crossover and mutation, plus a share of random immigrants.
    #[default]
    Genetic,
}

/// How a child's weights are taken from its two parents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Crossover {
    /// Each weight from one parent or the other with probability 1/2.
    #[default]
    Uniform,
    /// Each weight drawn on the line through both parents' values, reaching a quarter of their
    /// distance beyond each (BLX-α with α = 0.25), so children can leave the parents' box.
    Blend,
}

/// `[evolution]`: how the population is refilled after each round. The one owner of these
/// settings: the run config's section, with its defaults and bounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvolutionParams {
    /// Fresh random newcomers, or children of the survivors.
    pub mode: EvolutionMode,
    /// In genetic mode, the share of newcomers that are random immigrants.
    #[serde(deserialize_with = "fraction")]
    pub immigrants: f64,
    /// How a child's weights are taken from its two parents.
    pub crossover: Crossover,
    /// Probability that each weight of a child is mutated.
    #[serde(deserialize_with = "fraction")]
    pub mutation_rate: f64,
    /// Standard deviation of a mutation's Gaussian step (after the first round).
    #[serde(deserialize_with = "sigma")]
    pub mutation_sigma: f64,
    /// Standard deviation after the last round that breeds, reached geometrically from
    /// `mutation_sigma` (`None`: the same step all run long). Small late steps let a converged
    /// population settle instead of drifting on the noise of single games.
    #[serde(deserialize_with = "optional_sigma")]
    pub mutation_sigma_end: Option<f64>,
    /// Every this many rounds, a regression fit on the run's games (from the round's top
    /// survivor) enters the population as a newcomer, in place of one immigrant, and a final
    /// fit joins the playoff beside the finalists (0: never).
    /// Left out of a written config when 0, so that runs without it keep their files.
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, MAX_FIT_ROUNDS>",
        skip_serializing_if = "is_zero"
    )]
    pub fit_every: u32,
    /// The rounds of games the fit learns from, counting back from the round just played (0:
    /// every round so far).
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, MAX_FIT_ROUNDS>",
        skip_serializing_if = "is_zero"
    )]
    pub fit_window: u32,
    /// The share of the search's score in the labels of the pattern evaluator's fits (the
    /// rest: the game's result); left out of a written config at its default.
    #[serde(
        deserialize_with = "fraction",
        skip_serializing_if = "is_default_score_weight"
    )]
    pub fit_score_weight: f64,
    /// The fits also learn the endings of the games that stopped in the endgame database, each
    /// played on by it for up to this many plies, every quiet position with its exact value
    /// (0: none; left out of a written config then). Needs `search.database_pieces`.
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, { MAX_ENDING_PLIES as i64 }>",
        skip_serializing_if = "is_zero"
    )]
    pub fit_endings: u32,
    /// The pattern evaluator's fits pull each table entry toward zero with the weight of this
    /// many positions (`fit --l2-tables`): a smaller pull lets the entries that few positions
    /// touch say more, as the data grows. Left out of a written config at its default.
    #[serde(
        deserialize_with = "l2_tables",
        skip_serializing_if = "is_default_l2_tables"
    )]
    pub fit_l2_tables: f64,
    /// Earlier runs' positions stores that every fit also learns from, before the run's own
    /// games: all of each store's rounds that it held when this run started (fixed then, and
    /// written into the run's config). Empty by default, and then left out of a written config.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fit_with: Vec<FitSource>,
}

/// The default pull of a pattern fit's table entries toward zero, in positions: chosen on a
/// few hundred thousand positions; on the 3.5 million of three long runs pooled, 10 played
/// better (docs/learning.md).
pub const DEFAULT_L2_TABLES: f64 = 30.0;

/// Whether a pull is the default one.
fn is_default_l2_tables(pull: &f64) -> bool {
    *pull == DEFAULT_L2_TABLES
}

/// Reads a pull toward zero, in positions: 0 to [`MAX_L2_TABLES`] (`fit --l2-tables`'s bound).
fn l2_tables<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    number_in(deserializer, 0.0, MAX_L2_TABLES)
}

/// The default share of the search's score in a pattern fit's labels: on the games of a run
/// of `configs/patterns.toml` with eight times its rounds, fits with shares 0, 0.3, 0.6, 0.75,
/// 0.9 and 1 scored +13, +8, +38, +55, +65 and +62 Elo against the extended evaluator's
/// overnight best on random openings (docs/learning.md), though the result alone predicts
/// the results of held-out games best.
pub const DEFAULT_FIT_SCORE_WEIGHT: f64 = 0.8;

/// Whether a share is the default one.
fn is_default_score_weight(share: &f64) -> bool {
    *share == DEFAULT_FIT_SCORE_WEIGHT
}

/// The largest `fit_every` and `fit_window`: a run's most rounds.
const MAX_FIT_ROUNDS: i64 = MAX_ROUNDS as i64;

/// The largest mutation step: the width of the widest weight range, beyond which a step only
/// pushes the weight to a bound of its range.
const MAX_SIGMA: f64 = 2.0 * MAX_ABS_WEIGHT as f64;

/// Reads a mutation step: a number from 0 to [`MAX_SIGMA`].
fn sigma<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    number_in(deserializer, 0.0, MAX_SIGMA)
}

/// Reads a mutation step that may be left out.
fn optional_sigma<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    sigma(deserializer).map(Some)
}

impl Default for EvolutionParams {
    /// Genetic mode, 10% immigrants, uniform crossover, each weight mutated with probability
    /// 0.2 by a Gaussian step of σ = 8 (small against the weights' ranges) all run long.
    fn default() -> Self {
        EvolutionParams {
            mode: EvolutionMode::Genetic,
            immigrants: 0.1,
            crossover: Crossover::Uniform,
            mutation_rate: 0.2,
            mutation_sigma: 8.0,
            mutation_sigma_end: None,
            fit_every: 0,
            fit_window: 0,
            fit_score_weight: DEFAULT_FIT_SCORE_WEIGHT,
            fit_endings: 0,
            fit_l2_tables: DEFAULT_L2_TABLES,
            fit_with: Vec::new(),
        }
    }
}

impl EvolutionParams {
    /// Whether a fitted specimen enters after `round` of a run of `rounds`: every `fit_every`
    /// rounds, and after the last round, when a final fit joins the playoff.
    pub fn fits_after(&self, round: u32, rounds: u32) -> bool {
        self.fit_every > 0 && (round == rounds || round.is_multiple_of(self.fit_every))
    }

    /// The first round whose games the fit after `round` learns from.
    pub fn fit_first_round(&self, round: u32) -> u32 {
        match self.fit_window {
            0 => 1,
            window => round.saturating_sub(window - 1).max(1),
        }
    }

    /// These settings for the newcomers bred after `round` of a run of `rounds`: the mutation
    /// step of [`EvolutionParams::mutation_sigma_after`], held constant.
    pub fn after_round(&self, round: u32, rounds: u32) -> EvolutionParams {
        EvolutionParams {
            mutation_sigma: self.mutation_sigma_after(round, rounds),
            mutation_sigma_end: None,
            ..self.clone()
        }
    }

    /// The mutation step for the newcomers bred after `round` of a run of `rounds`: from
    /// `mutation_sigma` after round 1 to `mutation_sigma_end` after round `rounds - 1`, the last
    /// that breeds (geometrically, or linearly when either end is 0).
    pub fn mutation_sigma_after(&self, round: u32, rounds: u32) -> f64 {
        let Some(end) = self.mutation_sigma_end else {
            return self.mutation_sigma;
        };
        let last = rounds.saturating_sub(1).max(1);
        let progress = if last > 1 {
            f64::from(round.clamp(1, last) - 1) / f64::from(last - 1)
        } else {
            0.0
        };
        let start = self.mutation_sigma;
        if start > 0.0 && end > 0.0 {
            start * (end / start).powf(progress)
        } else {
            start + (end - start) * progress
        }
    }
}
