//! Drawing and breeding search genes (`[search.genes]`, docs/engine.md#search-parameters-as-genes):
//! every specimen of a run with genes carries its own values of them beside its weights.
//!
//! Every draw here comes from streams of their own (`tag::SEARCH_GENES`), never from the
//! weights' streams, so that a run with genes draws exactly the weights a run without them
//! draws.

use rand::Rng;

use super::specimen::Specimen;
use checkers_engine::rng::{stream, tag};
use checkers_engine::search::{Gene, SearchGenes, SelectiveParams};

/// Gives each of `specimens` (fresh ones: the initial population, immigrants, `random`
/// newcomers) its own search: `base` with each gene drawn uniformly from its range, from
/// the specimen's own stream `[SEARCH_GENES, id]`. Nothing without genes.
pub fn draw_fresh_genes(
    genes: &SearchGenes,
    specimens: &mut [Specimen],
    base: SelectiveParams,
    seed: u64,
) {
    if genes.is_empty() {
        return;
    }
    let opened = genes.opened();
    for specimen in specimens {
        let mut rng = stream(seed, &[tag::SEARCH_GENES, specimen.id]);
        let mut search = base;
        for gene in &opened {
            gene.set(&mut search, draw(gene, &mut rng));
        }
        specimen.search = Some(search);
    }
}

/// Gives each of the `newcomers` bred after `round` from `survivors` its search: a child
/// takes each gene from one of its parents (a coin; a clone from its one parent), then
/// mutates it with probability `mutation_rate` ([`Gene`]'s step), from its own stream
/// `[SEARCH_GENES, round, id]`; a newcomer without parents is fresh
/// ([`draw_fresh_genes`]). Nothing without genes.
pub fn breed_genes_into(
    genes: &SearchGenes,
    newcomers: &mut [Specimen],
    survivors: &[Specimen],
    base: SelectiveParams,
    mutation_rate: f64,
    (seed, round): (u64, u32),
) {
    if genes.is_empty() {
        return;
    }
    let opened = genes.opened();
    let search_of = |id: Option<u64>| {
        let parent = survivors.iter().find(|s| Some(s.id) == id)?;
        // A parent from before the genes (none in a run with genes) counts as the base.
        Some(parent.search.unwrap_or(base))
    };
    for specimen in newcomers.iter_mut() {
        let Some(a) = search_of(specimen.parent_a) else {
            draw_fresh_genes(genes, std::slice::from_mut(specimen), base, seed);
            continue;
        };
        let b = search_of(specimen.parent_b);
        let mut rng = stream(seed, &[tag::SEARCH_GENES, u64::from(round), specimen.id]);
        let mut search = a;
        for gene in &opened {
            let inherited = match b {
                Some(b) if rng.gen_bool(0.5) => gene.get(&b),
                _ => gene.get(&a),
            };
            gene.set(
                &mut search,
                mutate(gene, &mut rng, inherited, mutation_rate),
            );
        }
        specimen.search = Some(search);
    }
}

/// A uniform draw from its range.
fn draw<R: Rng + ?Sized>(gene: &Gene, rng: &mut R) -> u32 {
    // The range was checked against the key's bounds (at least 0) when the config loaded.
    gene.range.draw(rng).max(0) as u32
}

/// `value` plus, with probability `rate`, a step of ±1 to ±max(1, width / 8), moved back
/// into the range: a step scaled to the range, so that a margin of 0..200 and a
/// reduction of 0..3 both move by a few of their own units.
fn mutate<R: Rng + ?Sized>(gene: &Gene, rng: &mut R, value: u32, rate: f64) -> u32 {
    if rng.gen::<f64>() >= rate {
        return value;
    }
    let (min, max) = (i64::from(gene.range.min), i64::from(gene.range.max));
    let reach = ((max - min) / 8).max(1);
    let step = rng.gen_range(1..=reach);
    let signed = if rng.gen_bool(0.5) { step } else { -step };
    (i64::from(value) + signed).clamp(min, max) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{breed, initial_population, EvolutionParams, WeightSpace};
    use checkers_engine::eval::WeightRange;

    fn genes() -> SearchGenes {
        SearchGenes {
            lmr_reduction: Some(WeightRange::new(0, 3)),
            futility_margin: Some(WeightRange::new(20, 200)),
            ..SearchGenes::default()
        }
    }

    #[test]
    fn fresh_genes_are_in_range_and_leave_the_other_keys_at_the_base() {
        let space = WeightSpace::default();
        let mut population = initial_population(40, &space, 3);
        let base = SelectiveParams::DEFAULT;
        draw_fresh_genes(&genes(), &mut population, base, 3);
        let mut reductions = std::collections::BTreeSet::new();
        for s in &population {
            let search = s.search.expect("drawn");
            assert!(search.lmr_reduction <= 3);
            assert!((20..=200).contains(&search.futility_margin));
            reductions.insert(search.lmr_reduction);
            assert_eq!(genes().problem(Some(&search), Some(base)), None);
            let back = SelectiveParams {
                lmr_reduction: base.lmr_reduction,
                futility_margin: base.futility_margin,
                ..search
            };
            assert_eq!(back, base);
        }
        assert_eq!(
            reductions.len(),
            4,
            "every value of 0..=3 is drawn among 40"
        );
    }

    #[test]
    fn weights_are_drawn_as_without_genes_and_children_stay_near_a_parent() {
        let space = WeightSpace::default();
        let params = EvolutionParams {
            mutation_rate: 0.5,
            ..EvolutionParams::default()
        };
        let base = SelectiveParams::DEFAULT;
        let plain = initial_population(12, &space, 5);
        let mut survivors = plain.clone();
        draw_fresh_genes(&genes(), &mut survivors, base, 5);
        let weights = |v: &[Specimen]| v.iter().map(|s| s.weights).collect::<Vec<_>>();
        assert_eq!(weights(&plain), weights(&survivors));

        let kids_plain = breed(&plain, 30, &params, &space, 5, 2, &mut 12);
        let mut kids = breed(&survivors, 30, &params, &space, 5, 2, &mut 12);
        breed_genes_into(
            &genes(),
            &mut kids,
            &survivors,
            base,
            params.mutation_rate,
            (5, 2),
        );
        assert_eq!(weights(&kids_plain), weights(&kids), "genes draw no weight");
        assert_eq!(
            kids_plain.iter().map(|s| s.parent_a).collect::<Vec<_>>(),
            kids.iter().map(|s| s.parent_a).collect::<Vec<_>>()
        );
        let search = |id: Option<u64>| {
            survivors
                .iter()
                .find(|s| Some(s.id) == id)
                .and_then(|s| s.search)
        };
        let mut moved = false;
        for kid in &kids {
            let own = kid.search.expect("every newcomer has a search");
            assert_eq!(genes().problem(Some(&own), Some(base)), None);
            let parents = [search(kid.parent_a), search(kid.parent_b)];
            for gene in genes().opened() {
                let reach = ((gene.range.max - gene.range.min) / 8).max(1) as u32;
                let value = gene.get(&own);
                let near = parents
                    .iter()
                    .flatten()
                    .any(|p| gene.get(p).abs_diff(value) <= reach);
                assert!(near || kid.parent_a.is_none(), "{gene:?}: {value}");
                moved |= kid.parent_a.is_some()
                    && parents.iter().flatten().all(|p| gene.get(p) != value);
            }
        }
        assert!(moved, "mutation moves some gene off both parents'");
        let mut again = breed(&survivors, 30, &params, &space, 5, 2, &mut 12);
        breed_genes_into(
            &genes(),
            &mut again,
            &survivors,
            base,
            params.mutation_rate,
            (5, 2),
        );
        assert_eq!(again, kids, "the same seed and round breed the same genes");
    }

    #[test]
    fn a_search_that_does_not_fit_the_genes_is_named() {
        let base = SelectiveParams::DEFAULT;
        let own = SelectiveParams {
            lmr_reduction: 2,
            futility_margin: 150,
            ..base
        };
        assert_eq!(genes().problem(Some(&own), Some(base)), None);
        let outside = SelectiveParams {
            lmr_reduction: 4,
            ..own
        };
        let problem = genes().problem(Some(&outside), Some(base)).unwrap();
        assert!(problem.contains("lmr_reduction = 4"), "{problem}");
        let other = SelectiveParams {
            history: false,
            ..own
        };
        assert!(genes().problem(Some(&other), Some(base)).is_some());
        assert!(genes().problem(None, Some(base)).is_some());
        assert!(SearchGenes::default().problem(Some(&own), None).is_some());
        assert_eq!(SearchGenes::default().problem(None, None), None);
    }

    #[test]
    fn without_genes_nothing_is_drawn() {
        let space = WeightSpace::default();
        let mut population = initial_population(4, &space, 1);
        draw_fresh_genes(
            &SearchGenes::default(),
            &mut population,
            SelectiveParams::DEFAULT,
            1,
        );
        assert!(population.iter().all(|s| s.search.is_none()));
        assert!(SearchGenes::default().columns().is_empty());
        assert_eq!(
            genes().columns(),
            ["search_lmr_reduction", "search_futility_margin"]
        );
    }
}
