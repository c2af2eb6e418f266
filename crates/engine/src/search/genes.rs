//! Search parameters as genes (`[search.genes]`, docs/engine.md#search-parameters-as-genes):
//! which of the selective search's integer keys a config opens, each with a range. How the
//! genes are drawn and bred is the tournament's business (`tournament::search_genes`); this is
//! the setting, kept beside the search it sets so that `[search]` can hold it.

use serde::{Deserialize, Serialize};

use super::{SelectiveParams, MAX_SEARCH_DEPTH};
use crate::eval::WeightRange;

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

/// The values each of [`GENE_KEYS`] may take (`min`, `max`, both included), in its order: the
/// bounds `[search]` reads the key with (its `deserialize_with` takes them from here) and the
/// ones our CheckerBoard library and `hub` check a `set` of it against, one owner of them.
pub const GENE_BOUNDS: [(u32, u32); 6] = [
    (1, MAX_SEARCH_DEPTH),
    (1, 64),
    (0, 4),
    (0, 8),
    (0, 10_000),
    (0, 10_000),
];

/// The place in [`GENE_KEYS`] of `key`, if it is one.
pub fn gene_index(key: &str) -> Option<usize> {
    GENE_KEYS.iter().position(|k| *k == key)
}

/// `text` as a value of gene `index` of [`GENE_KEYS`], or why it is not one (a message that
/// names the key and its range, as an engine's `set` answers it).
pub fn gene_value(index: usize, text: &str) -> Result<u32, String> {
    let (min, max) = GENE_BOUNDS[index];
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            format!(
                "{} {text:?}: expected a whole number from {min} to {max}",
                GENE_KEYS[index]
            )
        })
}

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
    /// Gene `index` of [`GENE_KEYS`] over every value it may take ([`GENE_BOUNDS`]).
    pub fn whole(index: usize) -> Gene {
        let (min, max) = GENE_BOUNDS[index];
        Gene {
            index,
            range: WeightRange {
                min: min as i32,
                max: max as i32,
            },
        }
    }

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SearchParams;

    /// A `[search]` table of one key.
    fn table(key: &str, value: i64) -> Result<SearchParams, toml::de::Error> {
        toml::from_str(&format!("{key} = {value}"))
    }

    #[test]
    fn a_gene_takes_the_values_the_search_table_reads_and_no_other() {
        for (index, key) in GENE_KEYS.iter().enumerate() {
            let (min, max) = GENE_BOUNDS[index];
            assert_eq!(gene_index(key), Some(index));
            for v in [min, max] {
                assert!(table(key, v.into()).is_ok(), "{key} = {v}");
                assert_eq!(gene_value(index, &v.to_string()), Ok(v));
            }
            for v in [i64::from(min) - 1, i64::from(max) + 1] {
                assert!(table(key, v).is_err(), "{key} = {v}");
                let why = gene_value(index, &v.to_string()).unwrap_err();
                assert!(why.contains(&format!("from {min} to {max}")), "{why}");
            }
        }
        assert_eq!(gene_index("history"), None);
        assert!(gene_value(0, "three").is_err());
    }
}
