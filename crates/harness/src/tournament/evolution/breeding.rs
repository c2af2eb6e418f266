//! Breeding the newcomers after a round: children of the survivors by crossover and mutation,
//! and immigrants.

use rand::Rng;

use checkers_engine::eval::{WeightPair, Weights, FEATURE_COUNT};
use checkers_engine::rng::{stream, tag};

use crate::tournament::specimen::Specimen;
use crate::tournament::weight_space::standard_normal;

use super::fresh::{Fresh, FreshSource};
use super::params::{Crossover, EvolutionMode, EvolutionParams};

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
