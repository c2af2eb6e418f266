//! Fresh specimens: the initial population, and the immigrants drawn from the weight space
//! (around the run's start specimen when it has one).

use std::sync::Arc;

use rand::Rng;

use checkers_engine::eval::{ExtraPair, PatternWeights, WeightPair};
use checkers_engine::rng::{stream, tag};

use crate::tournament::specimen::Specimen;
use crate::tournament::weight_space::WeightSpace;

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
pub(super) struct Fresh {
    pub(super) weights: WeightPair,
    pub(super) extra: Option<Box<ExtraPair>>,
    pub(super) patterns: Option<Arc<PatternWeights>>,
    pub(super) tables: Option<u64>,
}

impl Fresh {
    /// `start`'s own weights, unchanged.
    pub(super) fn of(start: &Specimen) -> Fresh {
        Fresh {
            weights: start.weights,
            extra: start.extra.clone(),
            patterns: start.patterns.clone(),
            tables: start.tables,
        }
    }

    /// A draw from `space`, around `start` when there is one.
    pub(super) fn draw<R: Rng + ?Sized>(
        space: &WeightSpace,
        start: Option<&Specimen>,
        rng: &mut R,
    ) -> Fresh {
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
    pub(super) fn into_specimen(
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
