//! Search parameters as genes (`[search.genes]`, docs/engine.md#search-parameters-as-genes):
//! a config may open some of the selective search's integer keys, each with a range, and every
//! specimen then carries its own values of them beside its weights.
//!
//! Every draw here comes from streams of their own (`tag::SEARCH_GENES`), never from the
//! weights' streams, so that a run with genes draws exactly the weights a run without them
//! draws.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::specimen::Specimen;
use super::weight_space::WeightRange;
use crate::rng::{stream, tag};
use crate::search::SelectiveParams;

/// The keys of `[search]` a config may open as genes, in the section's order: the selective
/// search's integer keys (its switches are not genes: three bits are better measured with a
/// match each).
pub const GENE_KEYS: [&str; 6] = [
    "lmr_depth",
    "lmr_moves",
    "lmr_reduction",
    "futility_depth",
    "futility_margin",
    "aspiration",
];

/// `[search.genes]`: the opened keys, each `key = [min, max]`. Empty by default, and then left
/// out of a written config, so that configs without genes resolve to the text they always did.
/// The ranges are checked against each key's own bounds with the rest of the config
/// (`Config::check_relations`): one owner of those bounds, `SearchParams`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchGenes {
    /// The range of `search.lmr_depth`, when it is a gene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lmr_depth: Option<WeightRange>,
    /// The range of `search.lmr_moves`, when it is a gene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lmr_moves: Option<WeightRange>,
    /// The range of `search.lmr_reduction`, when it is a gene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lmr_reduction: Option<WeightRange>,
    /// The range of `search.futility_depth`, when it is a gene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub futility_depth: Option<WeightRange>,
    /// The range of `search.futility_margin`, when it is a gene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub futility_margin: Option<WeightRange>,
    /// The range of `search.aspiration`, when it is a gene.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aspiration: Option<WeightRange>,
}

/// One opened gene: its place in [`GENE_KEYS`] and its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gene {
    /// Index in [`GENE_KEYS`].
    pub index: usize,
    /// The values it may take.
    pub range: WeightRange,
}

impl Gene {
    /// The key's name, e.g. `lmr_reduction`.
    pub fn key(&self) -> &'static str {
        GENE_KEYS[self.index]
    }

    /// Its column in `specimens.csv`, e.g. `search_lmr_reduction`.
    pub fn column(&self) -> String {
        format!("search_{}", self.key())
    }

    /// Its value in `params`.
    pub fn get(&self, params: &SelectiveParams) -> u32 {
        *slot(params, self.index)
    }

    /// Sets its value in `params`.
    pub fn set(&self, params: &mut SelectiveParams, value: u32) {
        *slot_mut(params, self.index) = value;
    }

    /// A uniform draw from its range.
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        // The range was checked against the key's bounds (at least 0) when the config loaded.
        self.range.draw(rng).max(0) as u32
    }

    /// `value` plus, with probability `rate`, a step of ±1 to ±max(1, width / 8), moved back
    /// into the range: a step scaled to the range, so that a margin of 0..200 and a
    /// reduction of 0..3 both move by a few of their own units.
    fn mutate<R: Rng + ?Sized>(&self, rng: &mut R, value: u32, rate: f64) -> u32 {
        if rng.gen::<f64>() >= rate {
            return value;
        }
        let (min, max) = (i64::from(self.range.min), i64::from(self.range.max));
        let reach = ((max - min) / 8).max(1);
        let step = rng.gen_range(1..=reach);
        let signed = if rng.gen_bool(0.5) { step } else { -step };
        (i64::from(value) + signed).clamp(min, max) as u32
    }
}

/// The field of `params` for gene `index` of [`GENE_KEYS`].
fn slot(params: &SelectiveParams, index: usize) -> &u32 {
    match index {
        0 => &params.lmr_depth,
        1 => &params.lmr_moves,
        2 => &params.lmr_reduction,
        3 => &params.futility_depth,
        4 => &params.futility_margin,
        5 => &params.aspiration,
        _ => unreachable!("a gene index is below {}", GENE_KEYS.len()),
    }
}

/// [`slot`], to change it.
fn slot_mut(params: &mut SelectiveParams, index: usize) -> &mut u32 {
    match index {
        0 => &mut params.lmr_depth,
        1 => &mut params.lmr_moves,
        2 => &mut params.lmr_reduction,
        3 => &mut params.futility_depth,
        4 => &mut params.futility_margin,
        5 => &mut params.aspiration,
        _ => unreachable!("a gene index is below {}", GENE_KEYS.len()),
    }
}

impl SearchGenes {
    /// Each key's range, in [`GENE_KEYS`] order (`None`: not a gene).
    fn ranges(&self) -> [Option<WeightRange>; 6] {
        [
            self.lmr_depth,
            self.lmr_moves,
            self.lmr_reduction,
            self.futility_depth,
            self.futility_margin,
            self.aspiration,
        ]
    }

    /// Whether no key is opened (the default, left out of a written config).
    pub fn is_empty(&self) -> bool {
        self.ranges().iter().all(Option::is_none)
    }

    /// The opened genes, in [`GENE_KEYS`] order.
    pub fn opened(&self) -> Vec<Gene> {
        self.ranges()
            .iter()
            .enumerate()
            .filter_map(|(index, range)| range.map(|range| Gene { index, range }))
            .collect()
    }

    /// The columns the genes add to `specimens.csv`, after the weights'.
    pub fn columns(&self) -> Vec<String> {
        self.opened().iter().map(Gene::column).collect()
    }

    /// A specimen's values of the genes for its `specimens.csv` row (empty without genes).
    pub fn values(&self, search: Option<&SelectiveParams>) -> Vec<String> {
        let Some(search) = search else {
            return Vec::new();
        };
        self.opened()
            .iter()
            .map(|gene| gene.get(search).to_string())
            .collect()
    }

    /// Why a specimen's search does not fit these genes over the run's selective search
    /// `base`, if it does not: a run with genes gives every specimen a search, equal to `base`
    /// but for the genes, each in its range; a run without gives none.
    pub fn problem(
        &self,
        search: Option<&SelectiveParams>,
        base: Option<SelectiveParams>,
    ) -> Option<String> {
        match (self.is_empty(), search, base) {
            (true, None, _) => None,
            (true, Some(_), _) => Some("has search genes, but the config opens none".into()),
            (false, None, _) | (false, _, None) => {
                Some("has no search genes, but the config opens some".into())
            }
            (false, Some(own), Some(mut expected)) => {
                for gene in self.opened() {
                    let value = gene.get(own);
                    let range = gene.range;
                    if !(i64::from(range.min)..=i64::from(range.max)).contains(&value.into()) {
                        return Some(format!(
                            "search gene {} = {value} is outside the config's range {}..={}",
                            gene.key(),
                            range.min,
                            range.max
                        ));
                    }
                    gene.set(&mut expected, value);
                }
                (*own != expected)
                    .then(|| "has a search that differs from the config's beyond its genes".into())
            }
        }
    }

    /// Gives each of `specimens` (fresh ones: the initial population, immigrants, `random`
    /// newcomers) its own search: `base` with each gene drawn uniformly from its range, from
    /// the specimen's own stream `[SEARCH_GENES, id]`. Nothing without genes.
    pub fn draw_fresh(&self, specimens: &mut [Specimen], base: SelectiveParams, seed: u64) {
        if self.is_empty() {
            return;
        }
        let genes = self.opened();
        for specimen in specimens {
            let mut rng = stream(seed, &[tag::SEARCH_GENES, specimen.id]);
            let mut search = base;
            for gene in &genes {
                gene.set(&mut search, gene.draw(&mut rng));
            }
            specimen.search = Some(search);
        }
    }

    /// Gives each of the `newcomers` bred after `round` from `survivors` its search: a child
    /// takes each gene from one of its parents (a coin; a clone from its one parent), then
    /// mutates it with probability `mutation_rate` ([`Gene`]'s step), from its own stream
    /// `[SEARCH_GENES, round, id]`; a newcomer without parents is fresh
    /// ([`SearchGenes::draw_fresh`]). Nothing without genes.
    pub fn breed_into(
        &self,
        newcomers: &mut [Specimen],
        survivors: &[Specimen],
        base: SelectiveParams,
        mutation_rate: f64,
        (seed, round): (u64, u32),
    ) {
        if self.is_empty() {
            return;
        }
        let genes = self.opened();
        let search_of = |id: Option<u64>| {
            let parent = survivors.iter().find(|s| Some(s.id) == id)?;
            // A parent from before the genes (none in a run with genes) counts as the base.
            Some(parent.search.unwrap_or(base))
        };
        for specimen in newcomers.iter_mut() {
            let Some(a) = search_of(specimen.parent_a) else {
                self.draw_fresh(std::slice::from_mut(specimen), base, seed);
                continue;
            };
            let b = search_of(specimen.parent_b);
            let mut rng = stream(seed, &[tag::SEARCH_GENES, u64::from(round), specimen.id]);
            let mut search = a;
            for gene in &genes {
                let inherited = match b {
                    Some(b) if rng.gen_bool(0.5) => gene.get(&b),
                    _ => gene.get(&a),
                };
                gene.set(&mut search, gene.mutate(&mut rng, inherited, mutation_rate));
            }
            specimen.search = Some(search);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{breed, initial_population, EvolutionParams, WeightSpace};

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
        genes().draw_fresh(&mut population, base, 3);
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
        genes().draw_fresh(&mut survivors, base, 5);
        let weights = |v: &[Specimen]| v.iter().map(|s| s.weights).collect::<Vec<_>>();
        assert_eq!(weights(&plain), weights(&survivors));

        let kids_plain = breed(&plain, 30, &params, &space, 5, 2, &mut 12);
        let mut kids = breed(&survivors, 30, &params, &space, 5, 2, &mut 12);
        genes().breed_into(&mut kids, &survivors, base, params.mutation_rate, (5, 2));
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
        genes().breed_into(&mut again, &survivors, base, params.mutation_rate, (5, 2));
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
        SearchGenes::default().draw_fresh(&mut population, SelectiveParams::DEFAULT, 1);
        assert!(population.iter().all(|s| s.search.is_none()));
        assert!(SearchGenes::default().columns().is_empty());
        assert_eq!(
            genes().columns(),
            ["search_lmr_reduction", "search_futility_margin"]
        );
    }
}
