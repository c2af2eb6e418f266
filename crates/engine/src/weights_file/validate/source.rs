//! The `source` table: the run and specimen the weights come from, or the fit.

use serde_json::Value;

use crate::error::Error;
use crate::text::excerpt;
use crate::weights_file::WeightsSource;

use super::context::{kind, Ctx};

impl Ctx<'_> {
    /// The `source` table: `run`, `id` and `round` of a specimen, or `fit` alone.
    pub(super) fn source(&self, v: &Value) -> Result<WeightsSource, Error> {
        let obj = v.as_object().ok_or_else(|| {
            self.err_at(
                "source",
                format!(
                    "`source` must be an object {{\"run\", \"id\", \"round\"}} or \
                     {{\"fit\"}}, or null, found {}",
                    kind(v)
                ),
            )
        })?;
        if obj.contains_key("fit") {
            if let Some(key) = obj.keys().find(|k| k.as_str() != "fit") {
                return Err(self.err_at(
                    "source",
                    format!(
                        "unknown key `source.{}` beside `source.fit`, expected fit alone",
                        excerpt(key)
                    ),
                ));
            }
            let data =
                self.source_field(obj, "fit", "a string", |v| v.as_str().map(str::to_string))?;
            return Ok(WeightsSource::Fit { data });
        }
        if let Some(key) = obj
            .keys()
            .find(|k| !["run", "id", "round"].contains(&k.as_str()))
        {
            return Err(self.err_at(
                "source",
                format!(
                    "unknown key `source.{}`, expected run, id, round (or fit alone)",
                    excerpt(key)
                ),
            ));
        }
        let run = self.source_field(obj, "run", "a string", |v| v.as_str().map(str::to_string))?;
        let id = self.source_field(obj, "id", "a non-negative integer", Value::as_u64)?;
        let round = self.source_field(obj, "round", "a non-negative integer", |v| {
            v.as_u64().and_then(|r| u32::try_from(r).ok())
        })?;
        Ok(WeightsSource::Specimen { run, id, round })
    }

    /// `source.key`, present and read by `read` (`expected` says what it must be).
    fn source_field<T>(
        &self,
        obj: &serde_json::Map<String, Value>,
        key: &str,
        expected: &str,
        read: impl Fn(&Value) -> Option<T>,
    ) -> Result<T, Error> {
        let v = obj
            .get(key)
            .ok_or_else(|| self.err_at("source", format!("missing key `source.{key}`")))?;
        read(v).ok_or_else(|| {
            self.err_at(
                "source",
                format!("`source.{key}` must be {expected}, found {}", kind(v)),
            )
        })
    }
}
