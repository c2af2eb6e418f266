//! The checks of a weights file's values, the JSON and TOML forms' alike (TOML's values map one
//! to one onto JSON's): one file per concern — the top-level keys here, the ten features'
//! weights (`ten.rs`), the extended evaluator's (`extended.rs`), the pattern evaluator's
//! (`patterns.rs`), the `source` and `search` tables, and the strict JSON reader.

mod context;
mod extended;
mod patterns;
mod search;
mod source;
mod strict_json;
mod ten;

pub use context::{line_col, Ctx};
pub use strict_json::{top_level_lines, StrictJson};

use std::sync::Arc;

use serde_json::Value;

use crate::egdb::MAX_DATABASE_PIECES;
use crate::error::Error;
use crate::eval::{WeightPair, DEFAULT_ENDGAME_PIECES, PERSPECTIVE};
use crate::text::excerpt;

use super::WeightsFile;
use context::{kind, KEYS};

/// Largest meaningful `endgame_pieces`: a board never holds more than 24 pieces.
const MAX_PIECES: i64 = 24;

impl Ctx<'_> {
    /// The weights file that `value` holds, every key checked.
    pub fn read_value(&self, value: &Value) -> Result<WeightsFile, Error> {
        let obj = value.as_object().ok_or_else(|| {
            self.err(format!(
                "expected an object with keys `opening` and `endgame` at the top level, found {}",
                kind(value)
            ))
        })?;
        if let Some(key) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(self.err_at(
                key,
                format!(
                    "unknown key `{}`, expected one of: {}",
                    excerpt(key),
                    KEYS.join(", ")
                ),
            ));
        }
        if let Some(features) = obj.get("features") {
            self.check_features(features)?;
        }
        let opening = self.weights(obj, "opening")?;
        let endgame = self.weights(obj, "endgame")?;
        let endgame_pieces = match obj.get("endgame_pieces") {
            None => DEFAULT_ENDGAME_PIECES,
            Some(v) => match v.as_i64() {
                Some(n) if (0..=MAX_PIECES).contains(&n) => n as u32,
                _ => {
                    return Err(self.err_at(
                        "endgame_pieces",
                        format!(
                            "`endgame_pieces` must be an integer from 0 to {MAX_PIECES}, found {}",
                            kind(v)
                        ),
                    ))
                }
            },
        };
        if let Some(p) = obj.get("perspective") {
            if p.as_str() != Some(PERSPECTIVE) {
                return Err(self.err_at(
                    "perspective",
                    format!(
                    "`perspective` is {}, but these weights only make sense as \"{PERSPECTIVE}\"",
                    kind(p)
                ),
                ));
            }
        }
        let source = match obj.get("source") {
            None | Some(Value::Null) => None,
            Some(v) => Some(self.source(v)?),
        };
        let database_pieces = match obj.get("database_pieces") {
            None => None,
            Some(v) => match v.as_u64() {
                Some(n) if n <= u64::from(MAX_DATABASE_PIECES) => Some(n as u32),
                _ => {
                    return Err(self.err_at(
                        "database_pieces",
                        format!(
                            "`database_pieces` must be an integer from 0 to \
                             {MAX_DATABASE_PIECES}, found {}",
                            kind(v)
                        ),
                    ))
                }
            },
        };
        let search = obj.get("search").map(|v| self.search(v)).transpose()?;
        let (extra, patterns) = self.extra(obj)?;
        Ok(WeightsFile {
            weights: WeightPair { opening, endgame },
            extra,
            patterns: patterns.map(Arc::new),
            endgame_pieces,
            source,
            database_pieces,
            search,
        })
    }
}
