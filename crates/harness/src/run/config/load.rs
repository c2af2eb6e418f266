//! Loading a run's config file, with one clear message per mistake, and the resolved form
//! read back.
//!
//!
//! Loading goes in four steps so that every mistake is reported in the user's terms:
//! 1. the text is parsed as plain TOML, which catches syntax errors, and the parser's positions
//!    give the line of every key;
//! 2. a missing `name` is reported;
//! 3. the typed parse catches wrong types, unknown keys (`deny_unknown_fields`) and numbers out
//!    of range: each number key states its bounds where it is declared and is checked on the
//!    raw value before typing, so `rounds = -3` reads "must be at least 1" rather than
//!    "expected u32";
//! 4. relations between keys, the run name, the weight space and the openings file are checked
//!    last.

use std::path::Path;

use super::messages::{ConfigError, Layout, Reporter};
use super::run_config::Config;
use checkers_engine::error::Error;
use checkers_engine::input_file::{self, Links, CONFIG_CAP};

impl Config {
    /// Reads and checks the config file at `path`. A relative openings path is taken from the
    /// file's folder. Every mistake is an [`Error::Input`] naming the file, the key, the line
    /// (where known) and what is expected.
    pub fn load(path: impl AsRef<Path>) -> Result<Config, Error> {
        Ok(Config::load_keyed(path.as_ref())?)
    }

    /// [`Config::load`], with the key of a mistake kept apart for the caller.
    pub(crate) fn load_keyed(path: &Path) -> Result<Config, ConfigError> {
        let text = input_file::read_text(path, Links::Follow, Some(CONFIG_CAP))
            .map_err(|e| ConfigError::unkeyed(format!("config {}: {e}", path.display())))?;
        Config::parse(checkers_engine::text::strip_bom(&text), path)
    }

    /// Parses and checks config `text`. `origin` is the file it came from: it names the file in
    /// messages, and a relative openings path is taken from its folder.
    pub fn from_str_named(text: &str, origin: impl AsRef<Path>) -> Result<Config, Error> {
        Ok(Config::parse(text, origin.as_ref())?)
    }

    /// [`Config::from_str_named`], with the key of a mistake kept apart for the caller.
    fn parse(text: &str, origin: &Path) -> Result<Config, ConfigError> {
        let report = Reporter { text, origin };

        let table: toml::Table = toml::from_str(text).map_err(|e| report.toml_error(&e, None))?;
        let layout = Layout::scan(text);

        if !table.contains_key("name") {
            return Err(report.at(
                None,
                "name",
                "missing; expected the run's name, e.g. name = \"overnight\" \
                 (the run folder is results/<name>)",
            ));
        }

        // A list would be read onto the keys by position, as in a weights file's `search`.
        if let Some(v) = table.get("search").filter(|v| !v.is_table()) {
            return Err(report.at(
                layout.get("search"),
                "search",
                &format!(
                    "must be a table of keys (a `[search]` section), found {}",
                    v.type_str()
                ),
            ));
        }
        let mut config: Config =
            toml::from_str(text).map_err(|e| report.toml_error(&e, Some(&layout)))?;
        config.check_relations(&report, &layout)?;
        config.resolve_openings(&report, &layout)?;
        config.resolve_start(&report, &layout)?;
        config.resolve_fit_sources(&report, &layout)?;
        Ok(config)
    }
}
