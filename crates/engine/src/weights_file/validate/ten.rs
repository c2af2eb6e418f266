//! The ten features' keys: `features` (their names, in order) and the `opening` and `endgame`
//! weight sets.

use serde_json::Value;

use crate::error::Error;
use crate::eval::{feature_index, Weights, FEATURE_COUNT, FEATURE_NAMES};
use crate::text::excerpt;

use super::context::{kind, Ctx};

impl Ctx<'_> {
    /// Refuses a `features` list that is not the ten names in order.
    pub(super) fn check_features(&self, v: &Value) -> Result<(), Error> {
        let list = v.as_array().ok_or_else(|| {
            self.err_at(
                "features",
                format!(
                    "`features` must be a list of the 10 feature names, found {}",
                    kind(v)
                ),
            )
        })?;
        for (i, item) in list.iter().enumerate() {
            let name = item.as_str().ok_or_else(|| {
                self.err_at(
                    "features",
                    format!(
                        "item {} of `features` is {}, expected a feature name",
                        i + 1,
                        kind(item)
                    ),
                )
            })?;
            if feature_index(name).is_none() {
                return Err(self.err_at(
                    "features",
                    format!(
                    "unknown feature name `{}` at position {} of `features`, expected one of: {}",
                    excerpt(name),
                    i + 1,
                    FEATURE_NAMES.join(", ")
                ),
                ));
            }
        }
        if list.len() != FEATURE_COUNT {
            return Err(self.err_at(
                "features",
                format!(
                    "`features` has {} names, expected {FEATURE_COUNT}",
                    list.len()
                ),
            ));
        }
        for (i, (item, want)) in list.iter().zip(FEATURE_NAMES).enumerate() {
            let got = item.as_str().unwrap_or_default();
            if got != want {
                return Err(self.err_at(
                    "features",
                    format!(
                        "`features` is not in the standard order: position {} is `{got}`, \
                     expected `{want}` (order: {})",
                        i + 1,
                        FEATURE_NAMES.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The weight set under `key`: a list of ten integers or an object keyed by feature name.
    pub(super) fn weights(
        &self,
        obj: &serde_json::Map<String, Value>,
        key: &str,
    ) -> Result<Weights, Error> {
        let v = obj.get(key).ok_or_else(|| {
            self.err(format!(
                "missing key `{key}` (a list of {FEATURE_COUNT} integers, one per feature)"
            ))
        })?;
        let mut w = Weights::default();
        match v {
            Value::Array(list) => {
                if list.len() != FEATURE_COUNT {
                    return Err(self.err_at(
                        key,
                        format!(
                            "`{key}` has {} numbers, expected {FEATURE_COUNT}",
                            list.len()
                        ),
                    ));
                }
                for (i, item) in list.iter().enumerate() {
                    w.0[i] = self.int(item, key, || format!("`{key}` item {}", i + 1))?;
                }
            }
            Value::Object(map) => {
                if let Some(name) = map.keys().find(|k| feature_index(k).is_none()) {
                    return Err(self.err_at(
                        key,
                        format!(
                            "unknown feature name `{}` in `{key}`, expected one of: {}",
                            excerpt(name),
                            FEATURE_NAMES.join(", ")
                        ),
                    ));
                }
                for (i, name) in FEATURE_NAMES.iter().enumerate() {
                    let item = map.get(*name).ok_or_else(|| {
                        self.err_at(key, format!("`{key}` has no weight for `{name}`"))
                    })?;
                    w.0[i] = self.int(item, key, || format!("`{key}.{name}`"))?;
                }
            }
            other => {
                return Err(self.err_at(
                    key,
                    format!(
                        "`{key}` must be a list of {FEATURE_COUNT} integers, found {}",
                        kind(other)
                    ),
                ))
            }
        }
        Ok(w)
    }
}
