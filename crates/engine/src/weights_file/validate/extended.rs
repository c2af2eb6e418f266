//! The extended evaluator's keys (`terms`, each phase's terms, men's and kings' tables), and
//! which evaluator the file's `evaluator` names.

use serde_json::Value;

use crate::error::Error;
use crate::eval::{EvaluatorKind, ExtraPair, PatternWeights, TERM_NAMES};

use super::context::{kind, Ctx, KEYS, PATTERN_KEYS};

impl Ctx<'_> {
    /// The extended evaluator's lists when `evaluator` is `extended` or `patterns`, and the
    /// pattern evaluator's when it is `patterns`; none may appear without it.
    #[allow(clippy::type_complexity)]
    pub(super) fn extra(
        &self,
        obj: &serde_json::Map<String, Value>,
    ) -> Result<(Option<ExtraPair>, Option<PatternWeights>), Error> {
        let evaluator = match obj.get("evaluator") {
            None => EvaluatorKind::Ten,
            Some(v) => v
                .as_str()
                .and_then(EvaluatorKind::from_name)
                .ok_or_else(|| {
                    self.err_at(
                        "evaluator",
                        format!(
                            "`evaluator` must be \"ten\", \"extended\" or \"patterns\", found {}",
                            kind(v)
                        ),
                    )
                })?,
        };
        if evaluator != EvaluatorKind::Patterns {
            if let Some(key) = PATTERN_KEYS.iter().find(|k| obj.contains_key(**k)) {
                return Err(self.err_at(
                    key,
                    format!(
                        "`{key}` belongs to the pattern evaluator, but `evaluator` is not \"patterns\""
                    ),
                ));
            }
        }
        if evaluator == EvaluatorKind::Ten {
            if let Some(key) = KEYS[4..11].iter().find(|k| obj.contains_key(**k)) {
                return Err(self.err_at(
                    key,
                    format!("`{key}` belongs to the extended evaluator, but `evaluator` is not \"extended\""),
                ));
            }
            return Ok((None, None));
        }
        self.check_names(obj, "terms", "terms", &TERM_NAMES)?;
        let mut extra = ExtraPair::default();
        for (phase, w) in [
            ("opening", &mut extra.opening),
            ("endgame", &mut extra.endgame),
        ] {
            for (suffix, out) in w.lists_mut() {
                let len = out.len();
                let key = format!("{phase}_{suffix}");
                let v = obj.get(&key).ok_or_else(|| {
                    self.err(format!("missing key `{key}` (a list of {len} integers)"))
                })?;
                let list = v.as_array().filter(|l| l.len() == len).ok_or_else(|| {
                    self.err_at(
                        &key,
                        format!(
                            "`{key}` must be a list of {len} integers, found {}",
                            match v {
                                Value::Array(l) => format!("{} numbers", l.len()),
                                other => kind(other),
                            }
                        ),
                    )
                })?;
                for (i, item) in list.iter().enumerate() {
                    out[i] = self.int(item, &key, || format!("`{key}` item {}", i + 1))?;
                }
            }
        }
        let patterns = match evaluator {
            EvaluatorKind::Patterns => Some(self.patterns(obj)?),
            _ => None,
        };
        Ok((Some(extra), patterns))
    }
}
