//! Newcomers: the initial population, and the random or genetic specimens that refill the
//! population after a round (docs/tournament.md, step 4).

use std::sync::Arc;

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize};

use super::fit_with::FitSource;
use super::settings::MAX_ROUNDS;
use super::specimen::Specimen;
use checkers_engine::bounded::{fraction, int_in, is_zero, number_in};
use checkers_engine::eval::{
    ExtraPair, PatternWeights, WeightPair, Weights, FEATURE_COUNT, MAX_ABS_WEIGHT,
};
use checkers_engine::rng::{stream, tag};

use super::weight_space::{standard_normal, WeightSpace};

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

/// The round-0 population: `n` fresh specimens of `space` with ids `0..n`, drawn from the
/// `[INITIAL]` stream of `seed`.
///
/// With a start specimen (a run's `population.start`), specimen 0 is the start itself and
/// the others are drawn around it ([`WeightSpace::fresh_around`]), each carrying the start's
/// extended and pattern weights.
pub fn initial_population<'a>(
    n: usize,
    fresh: impl Into<FreshSource<'a>>,
    seed: u64,
) -> Vec<Specimen> {
    let FreshSource { space, start } = fresh.into();
    let mut rng = stream(seed, &[tag::INITIAL]);
    (0..n as u64)
        .map(|id| {
            let fresh = match start {
                Some(start) if id == 0 => Fresh::of(start),
                _ => Fresh::draw(space, start, &mut rng),
            };
            fresh.into_specimen(id, None, 0)
        })
        .collect()
}

/// Where fresh specimens come from: the run's weight space, around its start specimen
/// (`population.start`) when it has one. A bare `&WeightSpace` is a source without a start.
#[derive(Clone, Copy, Debug)]
pub struct FreshSource<'a> {
    /// The ranges, the draw and its noise.
    pub space: &'a WeightSpace,
    /// The specimen fresh specimens are drawn around, carrying its further weights.
    pub start: Option<&'a Specimen>,
}

impl<'a> From<&'a WeightSpace> for FreshSource<'a> {
    fn from(space: &'a WeightSpace) -> FreshSource<'a> {
        FreshSource { space, start: None }
    }
}

/// A fresh specimen's weights: drawn from `space` as `init` says, or around a start specimen.
struct Fresh {
    weights: WeightPair,
    extra: Option<Box<ExtraPair>>,
    patterns: Option<Arc<PatternWeights>>,
    tables: Option<u64>,
}

impl Fresh {
    /// `start`'s own weights, unchanged.
    fn of(start: &Specimen) -> Fresh {
        Fresh {
            weights: start.weights,
            extra: start.extra.clone(),
            patterns: start.patterns.clone(),
            tables: start.tables,
        }
    }

    /// A draw from `space`, around `start` when there is one.
    fn draw<R: Rng + ?Sized>(space: &WeightSpace, start: Option<&Specimen>, rng: &mut R) -> Fresh {
        match start {
            Some(start) => Fresh {
                weights: space.fresh_around(&start.weights, rng),
                ..Fresh::of(start)
            },
            None => Fresh {
                weights: space.fresh(rng),
                extra: space.fresh_extra().map(Box::new),
                patterns: None,
                tables: None,
            },
        }
    }

    /// The specimen `id` of `parents` (the first, and the second if any; `None`: a fresh
    /// specimen), born in `born_round`.
    fn into_specimen(
        self,
        id: u64,
        parents: Option<(u64, Option<u64>)>,
        born_round: u32,
    ) -> Specimen {
        Specimen {
            id,
            weights: self.weights,
            extra: self.extra,
            patterns: self.patterns,
            tables: self.tables,
            parent_a: parents.map(|(a, _)| a),
            parent_b: parents.and_then(|(_, b)| b),
            born_round,
            fitted: false,
            search: None,
        }
    }
}

/// `count` newcomers bred after round `round` from its `survivors`, drawn from the
/// `[BREEDING, round]` stream of `seed`.
///
/// Newcomers join the population of the next round, so their `born_round` is `round + 1`;
/// ids are taken from `next_id` in creation order (children first, then immigrants), and
/// `next_id` is left at the first unused id.
///
/// In genetic mode `round(immigrants × count)` newcomers are random immigrants and the rest are
/// children of two distinct survivors chosen uniformly; with a single survivor the children are
/// mutated clones of it (`parent_b` is `None`), and with none every newcomer is an immigrant.
/// Immigrants carry no parents, in either mode. Every weight stays in `space`. The mutation
/// step is `params.mutation_sigma`: pass [`EvolutionParams::after_round`] for a schedule.
pub fn breed<'a>(
    survivors: &[Specimen],
    count: usize,
    params: &EvolutionParams,
    fresh: impl Into<FreshSource<'a>>,
    seed: u64,
    round: u32,
    next_id: &mut u64,
) -> Vec<Specimen> {
    let FreshSource { space, start } = fresh.into();
    let mut rng = stream(seed, &[tag::BREEDING, u64::from(round)]);
    let children = match params.mode {
        EvolutionMode::Random => 0,
        EvolutionMode::Genetic if survivors.is_empty() => 0,
        EvolutionMode::Genetic => {
            let immigrants = (params.immigrants.clamp(0.0, 1.0) * count as f64).round() as usize;
            count - immigrants.min(count)
        }
    };
    let mut out = Vec::with_capacity(count);
    let mut take_id = || {
        let id = *next_id;
        *next_id += 1;
        id
    };
    for _ in 0..children {
        let (a, b) = if survivors.len() == 1 {
            (&survivors[0], None)
        } else {
            let i = rng.gen_range(0..survivors.len());
            let mut j = rng.gen_range(0..survivors.len() - 1);
            if j >= i {
                j += 1;
            }
            (&survivors[i], Some(&survivors[j]))
        };
        let mut weights = match b {
            Some(b) => cross(&mut rng, params.crossover, &a.weights, &b.weights),
            None => a.weights,
        };
        for set in [&mut weights.opening, &mut weights.endgame] {
            for w in set.0.iter_mut() {
                *w = mutate(&mut rng, *w, params);
            }
        }
        // The extended and pattern weights come whole from the first parent: a fitted table is
        // one solution, and halves of two are none.
        let child = Fresh {
            weights: space.clamp(&weights),
            ..Fresh::of(a)
        };
        out.push(child.into_specimen(take_id(), Some((a.id, b.map(|b| b.id))), round + 1));
    }
    for _ in children..count {
        let immigrant = Fresh::draw(space, start, &mut rng);
        out.push(immigrant.into_specimen(take_id(), None, round + 1));
    }
    out
}

/// A child's weights from parents `a` and `b`, before mutation and clamping.
fn cross<R: Rng + ?Sized>(
    rng: &mut R,
    crossover: Crossover,
    a: &WeightPair,
    b: &WeightPair,
) -> WeightPair {
    let mut set = |a: &Weights, b: &Weights| {
        Weights(std::array::from_fn::<i32, FEATURE_COUNT, _>(|i| {
            let (x, y) = (a.0[i], b.0[i]);
            match crossover {
                Crossover::Uniform => {
                    if rng.gen_bool(0.5) {
                        x
                    } else {
                        y
                    }
                }
                Crossover::Blend => {
                    let u: f64 = rng.gen_range(-0.25..=1.25);
                    let (x, y) = (f64::from(x), f64::from(y));
                    // Saturating cast: the caller clamps to the weight range anyway.
                    (x + u * (y - x)).round() as i32
                }
            }
        }))
    };
    let opening = set(&a.opening, &b.opening);
    let endgame = set(&a.endgame, &b.endgame);
    WeightPair { opening, endgame }
}

/// `w`, plus with probability `mutation_rate` a step of `round(N(0, sigma))`.
fn mutate<R: Rng + ?Sized>(rng: &mut R, w: i32, params: &EvolutionParams) -> i32 {
    if rng.gen::<f64>() < params.mutation_rate {
        let step = (params.mutation_sigma * standard_normal(rng)).round() as i32;
        w.saturating_add(step)
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_weights(s: &Specimen) -> impl Iterator<Item = i32> + '_ {
        s.weights
            .opening
            .0
            .iter()
            .chain(&s.weights.endgame.0)
            .copied()
    }

    fn genetic(crossover: Crossover) -> EvolutionParams {
        EvolutionParams {
            crossover,
            mutation_rate: 0.5,
            mutation_sigma: 30.0,
            ..EvolutionParams::default()
        }
    }

    /// The space of the tests' [`genetic`] settings.
    fn narrow() -> WeightSpace {
        WeightSpace::uniform(-20, 20)
    }

    fn initial_population(n: usize, min: i32, max: i32, seed: u64) -> Vec<Specimen> {
        super::initial_population(n, &WeightSpace::uniform(min, max), seed)
    }

    #[test]
    fn initial_population_ids_range_and_determinism() {
        let pop = initial_population(50, -7, 9, 42);
        assert_eq!(pop.len(), 50);
        for (i, s) in pop.iter().enumerate() {
            assert_eq!(s.id, i as u64);
            assert_eq!((s.parent_a, s.parent_b, s.born_round), (None, None, 0));
            assert!(all_weights(s).all(|w| (-7..=9).contains(&w)));
        }
        // Both ends of the range are reachable (1000 draws from 17 values).
        let all: Vec<i32> = pop.iter().flat_map(all_weights).collect();
        assert!(all.contains(&-7) && all.contains(&9));
        assert_eq!(pop, initial_population(50, -7, 9, 42));
        assert_ne!(pop, initial_population(50, -7, 9, 43));
    }

    #[test]
    fn random_mode_makes_fresh_specimens_without_lineage() {
        let survivors = initial_population(4, -100, 100, 1);
        let params = EvolutionParams {
            mode: EvolutionMode::Random,
            ..genetic(Crossover::Uniform)
        };
        let mut next_id = 4;
        let kids = breed(&survivors, 16, &params, &narrow(), 1, 3, &mut next_id);
        assert_eq!(kids.len(), 16);
        assert_eq!(next_id, 20);
        for (k, s) in kids.iter().enumerate() {
            assert_eq!(s.id, 4 + k as u64);
            assert_eq!((s.parent_a, s.parent_b, s.born_round), (None, None, 4));
            assert!(all_weights(s).all(|w| (-20..=20).contains(&w)));
        }
    }

    #[test]
    fn genetic_mode_records_lineage_respects_range_and_immigrant_share() {
        // Parents far outside the range: children must still be clamped into it.
        let mut survivors = initial_population(5, -1000, 1000, 2);
        for (k, s) in survivors.iter_mut().enumerate() {
            s.id = 100 + k as u64;
        }
        for crossover in [Crossover::Uniform, Crossover::Blend] {
            let params = EvolutionParams {
                immigrants: 0.25,
                ..genetic(crossover)
            };
            let mut next_id = 200;
            let kids = breed(&survivors, 20, &params, &narrow(), 9, 5, &mut next_id);
            assert_eq!(kids.len(), 20);
            assert_eq!(next_id, 220);
            let ids: Vec<u64> = kids.iter().map(|s| s.id).collect();
            assert_eq!(ids, (200..220).collect::<Vec<_>>());
            let immigrants = kids.iter().filter(|s| s.parent_a.is_none()).count();
            assert_eq!(immigrants, 5, "round(0.25 × 20) immigrants");
            for s in &kids {
                assert_eq!(s.born_round, 6);
                assert!(all_weights(s).all(|w| (-20..=20).contains(&w)));
                match (s.parent_a, s.parent_b) {
                    (Some(a), Some(b)) => {
                        assert_ne!(a, b, "two distinct parents");
                        assert!((100..105).contains(&a) && (100..105).contains(&b));
                    }
                    (None, None) => {}
                    other => panic!("half a lineage: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn uniform_crossover_without_mutation_takes_each_weight_from_a_parent() {
        let survivors = initial_population(2, -100, 100, 3);
        let params = EvolutionParams {
            immigrants: 0.0,
            mutation_rate: 0.0,
            ..genetic(Crossover::Uniform)
        };
        let space = WeightSpace::uniform(-100, 100);
        let kids = breed(&survivors, 10, &params, &space, 3, 0, &mut 2);
        let mut from = [false; 2];
        for kid in &kids {
            let parents = [&survivors[0], &survivors[1]];
            for set in 0..2 {
                for i in 0..FEATURE_COUNT {
                    let pick = |s: &Specimen| {
                        if set == 0 {
                            s.weights.opening.0[i]
                        } else {
                            s.weights.endgame.0[i]
                        }
                    };
                    let w = pick(kid);
                    assert!(parents.iter().any(|p| pick(p) == w));
                    for (k, p) in parents.iter().enumerate() {
                        from[k] |= pick(p) == w && pick(parents[1 - k]) != w;
                    }
                }
            }
        }
        assert_eq!(from, [true, true], "both parents contribute");
    }

    #[test]
    fn blend_crossover_stays_near_the_parents() {
        let survivors = initial_population(2, -100, 100, 4);
        let params = EvolutionParams {
            immigrants: 0.0,
            mutation_rate: 0.0,
            ..genetic(Crossover::Blend)
        };
        let space = WeightSpace::uniform(-1000, 1000);
        let kids = breed(&survivors, 10, &params, &space, 4, 0, &mut 2);
        let (a, b) = (
            &survivors[0].weights.opening.0,
            &survivors[1].weights.opening.0,
        );
        let mut novel = false;
        for kid in &kids {
            for i in 0..FEATURE_COUNT {
                let (lo, hi) = (a[i].min(b[i]) as f64, a[i].max(b[i]) as f64);
                let reach = 0.25 * (hi - lo) + 0.5;
                let w = kid.weights.opening.0[i] as f64;
                assert!(
                    w >= lo - reach && w <= hi + reach,
                    "{w} outside [{lo}, {hi}]"
                );
                novel |= w != lo && w != hi;
            }
        }
        assert!(novel, "blend makes values other than the parents'");
    }

    #[test]
    fn single_survivor_gives_mutated_clones() {
        let survivors = initial_population(1, -50, 50, 5);
        let params = EvolutionParams {
            immigrants: 0.0,
            mutation_rate: 1.0,
            mutation_sigma: 5.0,
            ..genetic(Crossover::Blend)
        };
        let mut next_id = 1;
        let kids = breed(&survivors, 6, &params, &narrow(), 5, 2, &mut next_id);
        assert_eq!(kids.len(), 6);
        for kid in &kids {
            assert_eq!((kid.parent_a, kid.parent_b), (Some(0), None));
            assert_ne!(kid.weights, survivors[0].weights, "mutated");
        }
        // No survivors at all: every newcomer is an immigrant.
        let kids = breed(&[], 3, &params, &narrow(), 5, 2, &mut next_id);
        assert!(kids.iter().all(|s| s.parent_a.is_none()));
        assert_eq!(next_id, 10);
    }

    #[test]
    fn breeding_is_deterministic_per_seed_and_round() {
        let survivors = initial_population(6, -100, 100, 6);
        let params = genetic(Crossover::Uniform);
        let run = |seed, round| breed(&survivors, 12, &params, &narrow(), seed, round, &mut 6);
        assert_eq!(run(7, 1), run(7, 1));
        let weights = |v: Vec<Specimen>| v.into_iter().map(|s| s.weights).collect::<Vec<_>>();
        assert_ne!(weights(run(7, 1)), weights(run(7, 2)));
        assert_ne!(weights(run(7, 1)), weights(run(8, 1)));
    }

    #[test]
    fn children_respect_per_feature_ranges() {
        let space = WeightSpace::default();
        let survivors = super::initial_population(8, &space, 12);
        let params = EvolutionParams {
            mutation_rate: 1.0,
            mutation_sigma: 200.0,
            immigrants: 0.3,
            ..EvolutionParams::default()
        };
        let kids = breed(&survivors, 40, &params, &space, 12, 1, &mut 8);
        assert!(kids.iter().all(|k| space.contains(&k.weights)));
        // Huge mutations reach both ends of the kings range; pawns never move.
        let kings: Vec<i32> = kids.iter().map(|k| k.weights.endgame.0[1]).collect();
        assert!(kings.contains(&100) && kings.contains(&300), "{kings:?}");
        assert!(kids.iter().all(|k| k.weights.opening.0[0] == 100));
    }

    #[test]
    fn a_start_specimen_begins_the_population_and_centres_every_fresh_draw() {
        let space = WeightSpace::default();
        let mut start = super::initial_population(1, &space, 7).remove(0);
        start.weights.opening.0[1] = 230;
        start.weights.endgame.0[5] = -40;
        start.extra = Some(Box::default());
        start.tables = Some(0);
        let fresh = FreshSource {
            space: &space,
            start: Some(&start),
        };
        let population = super::initial_population(400, fresh, 3);
        // Specimen 0 is the start itself; the others are drawn around it, with its tables.
        assert_eq!(population[0].weights, start.weights);
        assert!(population[1..].iter().all(|s| s.weights != start.weights));
        for specimen in &population {
            assert_eq!((specimen.tables, specimen.born_round), (Some(0), 0));
            assert!(specimen.extra.is_some() && space.contains(&specimen.weights));
        }
        let mean = |f: fn(&Specimen) -> i32| {
            population.iter().map(|s| f64::from(f(s))).sum::<f64>() / 400.0
        };
        assert!((mean(|s| s.weights.opening.0[1]) - 230.0).abs() < 2.0);
        assert!((mean(|s| s.weights.endgame.0[5]) + 40.0).abs() < 2.0);
        // The same seed, the same population; without a start, the run's usual draws.
        assert_eq!(population, super::initial_population(400, fresh, 3));
        let plain = super::initial_population(400, &space, 3);
        assert!(plain.iter().all(|s| s.tables.is_none()));
        assert!(
            (plain
                .iter()
                .map(|s| f64::from(s.weights.opening.0[1]))
                .sum::<f64>()
                / 400.0
                - 150.0)
                .abs()
                < 2.0
        );

        // Immigrants are drawn around the start too; children keep their parents' tables.
        let survivors = vec![plain[0].clone(), plain[1].clone()];
        let params = EvolutionParams {
            immigrants: 0.5,
            ..EvolutionParams::default()
        };
        let kids = breed(&survivors, 20, &params, fresh, 3, 1, &mut 1000);
        let (immigrants, children): (Vec<_>, Vec<_>) =
            kids.iter().partition(|k| k.parent_a.is_none());
        assert_eq!((immigrants.len(), children.len()), (10, 10));
        assert!(immigrants
            .iter()
            .all(|k| k.tables == Some(0) && k.extra.is_some()));
        assert!(children.iter().all(|k| k.tables.is_none()));
        // Without a start the same breeding draws the same children and plain immigrants.
        let without = breed(&survivors, 20, &params, &space, 3, 1, &mut 1000);
        assert_eq!(kids[..10], without[..10]);
        assert!(without[10..].iter().all(|k| k.tables.is_none()));
    }

    #[test]
    fn mutation_steps_follow_sigma() {
        // Mean ≈ 0 and standard deviation ≈ sigma over many draws.
        let mut rng = stream(11, &[99]);
        let n = 20_000;
        let draws: Vec<f64> = (0..n).map(|_| standard_normal(&mut rng)).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let sd = (draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        assert!(mean.abs() < 0.05, "mean {mean}");
        assert!((sd - 1.0).abs() < 0.05, "sd {sd}");
    }
}
