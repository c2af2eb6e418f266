//! Where a config's keys are in its text, and the messages that name the file, the line and the
//! key of a mistake.

use std::fmt;
use std::path::Path;

use checkers_engine::error::Error;
use checkers_engine::text::{clip_quoted, excerpt};

/// A mistake in a config: its message (file, line, key, what is expected) and the dotted key
/// it is about when there is one, so that `resume` can tell a key that may still change from
/// one that may not. Bad input (exit status 2) once it reaches the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The key, e.g. `tournament.playoff_openings`; `None` for a syntax error or an unreadable
    /// file.
    pub(super) key: Option<String>,
    message: String,
}

impl ConfigError {
    /// A mistake that is about no one key.
    pub(super) fn unkeyed(message: impl Into<String>) -> ConfigError {
        ConfigError {
            key: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

impl From<ConfigError> for Error {
    fn from(err: ConfigError) -> Error {
        Error::input(err.message)
    }
}

/// Builds the messages of one document.
pub(super) struct Reporter<'a> {
    pub(super) text: &'a str,
    pub(super) origin: &'a Path,
}

impl Reporter<'_> {
    /// The config file's folder, from which its relative paths are taken.
    pub(super) fn folder(&self) -> &Path {
        match self.origin.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        }
    }

    /// 1-based line of byte offset `at`.
    pub(super) fn line(&self, at: usize) -> usize {
        self.text.bytes().take(at).filter(|&b| b == b'\n').count() + 1
    }

    /// "FILE line N: `key`: message", without the line when the key is not in the file.
    pub(super) fn at(&self, entry: Option<&Entry>, key: &str, message: &str) -> ConfigError {
        let place = match entry {
            Some(entry) => format!("{} line {}", self.origin.display(), self.line(entry.start)),
            None => self.origin.display().to_string(),
        };
        ConfigError {
            // A key the file made up can be megabytes long: quote a piece of it.
            message: format!("{place}: `{}`: {message}", excerpt(key)),
            key: Some(key.to_string()),
        }
    }

    /// `first` must not exceed `second`; reported at whichever is written in the file.
    pub(super) fn pair(
        &self,
        layout: &Layout,
        first: (&str, i64),
        second: (&str, i64),
    ) -> ConfigError {
        match layout.get(first.0) {
            Some(entry) => self.at(
                Some(entry),
                first.0,
                &format!("{} must not exceed `{}` ({})", first.1, second.0, second.1),
            ),
            None => self.at(
                layout.get(second.0),
                second.0,
                &format!(
                    "{} must not be less than `{}` ({})",
                    second.1, first.0, first.1
                ),
            ),
        }
    }

    /// A syntax error (no layout yet) or a type / unknown-key error of the typed parse, with
    /// the key found from the error's position.
    pub(super) fn toml_error(&self, err: &toml::de::Error, layout: Option<&Layout>) -> ConfigError {
        let message = plain_message(err.message());
        // The typed parse puts document-wide errors (a missing key) at 0..0: no line to show.
        let whole_document = |span: &std::ops::Range<usize>| span.is_empty() && span.start == 0;
        let span = err
            .span()
            .filter(|span| layout.is_none() || !whole_document(span));
        let Some(span) = span else {
            return ConfigError::unkeyed(format!("{}: {message}", self.origin.display()));
        };
        let line = self.line(span.start);
        match layout.and_then(|layout| layout.at(span.start)) {
            Some(entry) => ConfigError {
                message: format!(
                    "{} line {line}: `{}`: {message}",
                    self.origin.display(),
                    excerpt(&entry.path)
                ),
                key: Some(entry.path.clone()),
            },
            None => match key_on_line(self.text, span.start) {
                // A value the TOML reader itself refuses (an integer beyond 64 bits): no
                // layout to ask, so the key is read off its line and the table above it.
                Some(key) => ConfigError {
                    message: format!(
                        "{} line {line}: `{}`: {message}",
                        self.origin.display(),
                        excerpt(&key)
                    ),
                    key: Some(key),
                },
                None => ConfigError::unkeyed(format!(
                    "{} line {line}: {message}",
                    self.origin.display()
                )),
            },
        }
    }
}

/// The dotted key written on the line of byte `at` of `text` (`key = value`, under the last
/// `[table]` header above it), when the line is a plain assignment.
fn key_on_line(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
    let (key, _) = text.get(start..end)?.split_once('=')?;
    let key = key.trim();
    let bare = |k: &str| {
        !k.is_empty()
            && k.split('.').all(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
            })
    };
    if !bare(key) {
        return None;
    }
    let table = text[..start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    match table {
        Some(table) if bare(&table) => Some(format!("{table}.{key}")),
        Some(_) => None,
        None => Some(key.to_string()),
    }
}

/// Turns serde's wording into the config's: one line, "key" for "field", type names a user
/// knows, and no quoted value longer than an excerpt (serde quotes the unknown key or variant
/// it was given, whatever its length).
pub(super) fn plain_message(message: &str) -> String {
    let mut text = clip_quoted(message.trim()).replace('\n', "; ");
    text = text.replace("unknown field", "unknown key");
    for rust in ["u32", "u64", "usize", "i32", "i64"] {
        text = text.replace(&format!("expected {rust}"), "expected an integer");
    }
    text = text.replace("expected f64", "expected a number");
    // "expected struct SearchParams": the user wrote a value where a `[search]` table goes.
    if let Some(at) = text.find("expected struct ") {
        let name_end = text[at + 16..]
            .find(|c: char| !c.is_alphanumeric())
            .map_or(text.len(), |end| at + 16 + end);
        text.replace_range(at..name_end, "expected a table");
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Layout: where each key of a document is written.
// ---------------------------------------------------------------------------------------------

/// One key of the document: its dotted path and the byte where it is written.
#[derive(Debug, PartialEq)]
pub(super) struct Entry {
    pub(super) path: String,
    pub(super) start: usize,
}

/// Every key of a document in text order, with the positions the TOML parser keeps: those of
/// table headers, dotted keys and keys inside inline tables included.
pub(super) struct Layout {
    pub(super) entries: Vec<Entry>,
}

impl Layout {
    /// The layout of `text`, which has already parsed as TOML.
    pub(super) fn scan(text: &str) -> Layout {
        let mut entries = Vec::new();
        if let Ok(document) = toml_edit::ImDocument::parse(text) {
            table_keys("", document.as_table(), &mut entries);
        }
        entries.sort_by_key(|entry| entry.start);
        Layout { entries }
    }

    pub(super) fn get(&self, path: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.path == path)
    }

    /// The key that byte `at` belongs to: the last key written at or before it.
    pub(super) fn at(&self, at: usize) -> Option<&Entry> {
        self.entries.iter().rev().find(|entry| entry.start <= at)
    }
}

/// Records the key `name` of a table or inline table under `prefix`; returns its path.
pub(super) fn record(
    prefix: &str,
    name: &str,
    key: Option<&toml_edit::Key>,
    entries: &mut Vec<Entry>,
) -> String {
    let path = if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    };
    if let Some(span) = key.and_then(toml_edit::Key::span) {
        entries.push(Entry {
            path: path.clone(),
            start: span.start,
        });
    }
    path
}

/// Records every key of `table` and below.
pub(super) fn table_keys(prefix: &str, table: &toml_edit::Table, entries: &mut Vec<Entry>) {
    for (name, item) in table.iter() {
        let path = record(prefix, name, table.key(name), entries);
        match item {
            toml_edit::Item::Table(table) => table_keys(&path, table, entries),
            toml_edit::Item::ArrayOfTables(tables) => {
                for table in tables.iter() {
                    table_keys(&path, table, entries);
                }
            }
            toml_edit::Item::Value(value) => value_keys(&path, value, entries),
            toml_edit::Item::None => {}
        }
    }
}

/// Records the keys of the inline tables in `value`.
pub(super) fn value_keys(prefix: &str, value: &toml_edit::Value, entries: &mut Vec<Entry>) {
    match value {
        toml_edit::Value::InlineTable(table) => {
            for (name, value) in table.iter() {
                let path = record(prefix, name, table.key(name), entries);
                value_keys(&path, value, entries);
            }
        }
        toml_edit::Value::Array(values) => {
            for value in values.iter() {
                value_keys(prefix, value, entries);
            }
        }
        _ => {}
    }
}
