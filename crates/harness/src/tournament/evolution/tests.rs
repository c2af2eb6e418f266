//! The newcomers' tests: ids, lineage, ranges, crossovers, mutation steps and the start
//! specimen.

use checkers_engine::eval::FEATURE_COUNT;
use checkers_engine::rng::stream;

use crate::tournament::specimen::Specimen;
use crate::tournament::weight_space::{standard_normal, WeightSpace};

use super::params::{Crossover, EvolutionMode};
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
    let mean =
        |f: fn(&Specimen) -> i32| population.iter().map(|s| f64::from(f(s))).sum::<f64>() / 400.0;
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
    let (immigrants, children): (Vec<_>, Vec<_>) = kids.iter().partition(|k| k.parent_a.is_none());
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
