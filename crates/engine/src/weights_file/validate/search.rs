//! The `search` table: the keys of a config's `[search]`, checked as the config's are.

use serde::Deserialize;
use serde_json::Value;

use crate::error::Error;
// The `search` table holds the config's `[search]` keys: one reader (and one set of bounds)
// for both.
use crate::game::SearchParams;
use crate::text::excerpt;

use super::context::{kind, Ctx};

impl Ctx<'_> {
    /// The `search` table, checked as the config's `[search]` is.
    pub(super) fn search(&self, v: &Value) -> Result<SearchParams, Error> {
        // A list would be read onto the keys by position: a table names each key.
        if !v.is_object() {
            return Err(self.err_at(
                "search",
                format!(
                    "`search` must be a table of `[search]` keys, e.g. {{\"mode\": \"selective\"}}, \
                     found {}",
                    kind(v)
                ),
            ));
        }
        let params = SearchParams::deserialize(v).map_err(|e| {
            // Name the key at fault: the first one that fails on its own.
            let key = v.as_object().and_then(|table| {
                table.iter().find_map(|(k, x)| {
                    let alone = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    SearchParams::deserialize(&alone)
                        .err()
                        .map(|e| (k.clone(), e))
                })
            });
            match key {
                Some((k, e)) => self.err_at("search", format!("`search.{}`: {e}", excerpt(&k))),
                None => self.err_at("search", format!("`search`: {e}")),
            }
        })?;
        params.try_limits().map_err(|e| {
            self.err_at(
                "search",
                e.describe("`search.min_depth`", "`search.max_depth`"),
            )
        })?;
        if let Some((key, problem)) = params.cross_key_problem() {
            return Err(self.err_at("search", format!("`search.{key}`: {problem}")));
        }
        if !params.genes.is_empty() {
            // A run's ranges are not a search: the file plays one value of each key.
            return Err(self.err_at(
                "search",
                "`search.genes`: ranges are a tuning config's; a weights file gives each key \
                 one value, e.g. \"lmr_reduction\": 2"
                    .to_string(),
            ));
        }
        Ok(params)
    }
}
