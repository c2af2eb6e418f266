//! The strict JSON value reader: a key given twice is an error, not "the last one wins", and
//! the line of each top-level key is known for messages.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::text::excerpt;

use super::context::line_col;

/// A JSON value read like `serde_json::Value`, except that a key given twice in an object is an
/// error (reported by serde_json with its line and column) instead of "the last one wins".
pub struct StrictJson(pub Value);

impl<'de> Deserialize<'de> for StrictJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<StrictJson, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictJson)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    // Scalars become what `serde_json::Value` makes of them (a non-finite float: null).
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictJson(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "key `{}` is given twice",
                    excerpt(&key)
                )));
            }
            let StrictJson(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// The line on which the value of each top-level key starts, for JSON text that parsed (empty
/// if the top level is not an object).
pub fn top_level_lines(text: &str) -> BTreeMap<String, usize> {
    let Ok(raw) = serde_json::from_str::<BTreeMap<String, &RawValue>>(text) else {
        return BTreeMap::new();
    };
    raw.into_iter()
        .map(|(key, value)| {
            let offset = (value.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            (key, line_col(text, offset).0)
        })
        .collect()
}
