//! What every check of a weights file's values shares: the context that names the file (and
//! the line of each top-level key) in messages, the file's keys, and the readers of integers
//! and lists of names.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::Error;
use crate::text::excerpt;

/// Top-level keys a weights file may have (JSON and TOML forms).
pub const KEYS: [&str; 25] = [
    "evaluator",
    "features",
    "opening",
    "endgame",
    "terms",
    "opening_terms",
    "endgame_terms",
    "opening_men",
    "endgame_men",
    "opening_kings",
    "endgame_kings",
    "endgame_pieces",
    "perspective",
    "source",
    "database_pieces",
    "classic",
    "opening_classic",
    "endgame_classic",
    "exchange",
    "regions",
    "king_regions",
    "rank_regions",
    "opening_tables",
    "endgame_tables",
    "search",
];

/// The keys of the pattern evaluator's further weights.
pub const PATTERN_KEYS: [&str; 9] = [
    "classic",
    "opening_classic",
    "endgame_classic",
    "exchange",
    "regions",
    "king_regions",
    "rank_regions",
    "opening_tables",
    "endgame_tables",
];

/// Validation context: names the file in every message, and the line of each top-level key
/// where known.
pub struct Ctx<'a> {
    /// The file, as messages name it.
    origin: &'a str,
    /// The line on which the value of each top-level key starts (empty when unknown).
    pub lines: BTreeMap<String, usize>,
}

impl<'a> Ctx<'a> {
    /// A context for the file `origin`, no line known.
    pub fn new(origin: &'a str) -> Ctx<'a> {
        Ctx {
            origin,
            lines: BTreeMap::new(),
        }
    }

    /// An error naming the file.
    pub fn err(&self, msg: impl std::fmt::Display) -> Error {
        Error::Input(format!("weights file {}: {msg}", self.origin))
    }

    /// An error about the top-level key `key`, with its line when known.
    pub fn err_at(&self, key: &str, msg: impl std::fmt::Display) -> Error {
        match self.lines.get(key) {
            Some(line) => self.err(format!("line {line}: {msg}")),
            None => self.err(msg),
        }
    }

    /// `v` as an `i32`; `what` names it in messages about the top-level key `key`.
    pub fn int(&self, v: &Value, key: &str, what: impl Fn() -> String) -> Result<i32, Error> {
        match v {
            Value::Number(n) if n.is_i64() || n.is_u64() => n
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| {
                    self.err_at(
                        key,
                        format!(
                            "{} ({n}) is out of range {}..={}",
                            what(),
                            i32::MIN,
                            i32::MAX
                        ),
                    )
                }),
            other => Err(self.err_at(
                key,
                format!("{} is not an integer (found {})", what(), kind(other)),
            )),
        }
    }

    /// A list of integers under `key`, of `len` items when given.
    pub fn int_list(
        &self,
        v: &Value,
        key: &str,
        what: &str,
        len: Option<usize>,
    ) -> Result<Vec<i32>, Error> {
        let list = v
            .as_array()
            .filter(|l| len.is_none_or(|n| l.len() == n))
            .ok_or_else(|| {
                let want = len.map_or(String::new(), |n| format!(" of {n}"));
                self.err_at(
                    key,
                    format!(
                        "{what} must be a list{want} integers, found {}",
                        match v {
                            Value::Array(l) => format!("{} numbers", l.len()),
                            other => kind(other),
                        }
                    ),
                )
            })?;
        list.iter()
            .enumerate()
            .map(|(i, item)| self.int(item, key, || format!("{what} item {}", i + 1)))
            .collect()
    }

    /// Refuses a `key` (a list of names, optional) that does not list `names` in order.
    pub fn check_names(
        &self,
        obj: &serde_json::Map<String, Value>,
        key: &str,
        what: &str,
        names: &[&str],
    ) -> Result<(), Error> {
        let Some(v) = obj.get(key) else {
            return Ok(());
        };
        let listed: Option<Vec<&str>> = v
            .as_array()
            .map(|list| list.iter().map(|n| n.as_str().unwrap_or("?")).collect());
        if listed.as_deref() == Some(names) {
            return Ok(());
        }
        Err(self.err_at(
            key,
            format!(
                "`{key}` must list the {what} in order: {}",
                names.join(", ")
            ),
        ))
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Describes a JSON value's kind for "found …" messages.
pub fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!(
            "the string {}",
            excerpt(&Value::String(s.clone()).to_string())
        ),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}
