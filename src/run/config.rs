//! The config file of a tuning run (docs/tournament.md): typed sections, their defaults, loading
//! with one clear message per mistake, and the resolved form written into the run folder.
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

use serde::{Deserialize, Serialize};

use crate::bounded::{int_in, U32_MAX};
use crate::error::Error;
use crate::game::{
    load_openings_file, GameSettings, OpeningsSource, SearchParams, MAX_RANDOM_OPENING_PLIES,
};
use crate::search::LimitsError;
use crate::tournament::{EvolutionParams, TournamentParams, WeightSpace};

/// A tuning run, as described by its TOML file. Every key except `name` has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The run's name; its output folder is `results/<name>` unless `--out` says otherwise.
    pub name: String,
    /// Seeds every random stream of the run (see `crate::rng::stream`).
    #[serde(
        default = "default_seed",
        deserialize_with = "int_in::<_, u64, 0, { i64::MAX }>"
    )]
    pub seed: u64,
    /// Size of the population.
    #[serde(default)]
    pub population: PopulationConfig,
    /// The range of every weight and how fresh specimens are drawn.
    #[serde(default)]
    pub weights: WeightSpace,
    /// How each round's single-elimination tournament and the final playoff are played.
    #[serde(default)]
    pub tournament: TournamentParams,
    /// Search depths and the evaluator's phase switch, shared by every game of the run.
    #[serde(default)]
    pub search: SearchParams,
    /// How newcomers are made after each round.
    #[serde(default)]
    pub evolution: EvolutionParams,
    /// The learning curve: validation matches against `material` every few rounds.
    #[serde(default)]
    pub validation: ValidationConfig,
    /// The island model: several populations evolving apart and exchanging their best. Left
    /// out of `config.toml` when there is one island, so that a one-island run's files are
    /// those of a run without islands.
    #[serde(default, skip_serializing_if = "IslandsConfig::is_single")]
    pub islands: IslandsConfig,
}

/// `[islands]`: `count` populations of `population.size` each evolve side by side (in one
/// process, or one process per island across machines); after every `migration_interval`
/// rounds each island sends copies of its best `migrants` survivors to its neighbour on the
/// ring. The finalists of all islands play one playoff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IslandsConfig {
    /// Number of islands; 1 is a run without islands.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 1024>")]
    pub count: u32,
    /// Rounds between migrations.
    #[serde(deserialize_with = "int_in::<_, u32, 1, U32_MAX>")]
    pub migration_interval: u32,
    /// Survivors each island sends to its neighbour at a migration (fewer if it has fewer).
    #[serde(deserialize_with = "int_in::<_, u32, 0, 100_000>")]
    pub migrants: u32,
    /// Who sends to whom.
    pub topology: Topology,
}

/// The migration graph of the islands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Topology {
    /// Island `i` sends to island `i + 1`, the last to island 0.
    Ring,
}

impl IslandsConfig {
    /// Whether this is a run without islands (one population).
    pub fn is_single(&self) -> bool {
        self.count == 1
    }
}

/// `[validation]`: every `every` rounds, the round's top survivor (most rounds survived, then
/// most wins in the round, then the lowest id) plays a match against `material` on a deck of
/// random openings that the bracket never uses; the results make `learning.csv`. Validation
/// only watches: it changes no selection, so its estimates are not biased by it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ValidationConfig {
    /// Rounds between validations (0: no validation).
    #[serde(deserialize_with = "int_in::<_, u32, 0, U32_MAX>")]
    pub every: u32,
    /// Openings of the validation deck; each is played with both colours.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 10_000>")]
    pub openings: u32,
    /// Random plies from the start of each validation opening.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_RANDOM_OPENING_PLIES as i64 }>")]
    pub opening_plies: u32,
    /// The validation deck's own seed, apart from the run's so that runs with different seeds
    /// are validated on the same deck.
    #[serde(deserialize_with = "int_in::<_, u64, 0, { i64::MAX }>")]
    pub seed: u64,
    /// Keep the champion: the specimen with the best validation score so far re-enters every
    /// round's population (in place of one newcomer) and the playoff, even after it lost in the
    /// bracket. Elitism against the bracket's noise.
    pub keep_champion: bool,
}

/// `[population]`: how many specimens compete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PopulationConfig {
    /// Number of specimens N in every round.
    #[serde(deserialize_with = "int_in::<_, usize, 2, 100_000>")]
    pub size: usize,
}

// ---------------------------------------------------------------------------------------------
// Defaults. These are the only place default values are written down.
// ---------------------------------------------------------------------------------------------

/// Default `seed`. A fixed seed, so that two runs of the same file are the same run.
fn default_seed() -> u64 {
    1
}

impl Config {
    /// A config with the given name and every other key at its default.
    pub fn new(name: impl Into<String>) -> Config {
        Config {
            name: name.into(),
            seed: default_seed(),
            population: PopulationConfig::default(),
            weights: WeightSpace::default(),
            tournament: TournamentParams::default(),
            search: SearchParams::default(),
            evolution: EvolutionParams::default(),
            validation: ValidationConfig::default(),
            islands: IslandsConfig::default(),
        }
    }
}

impl Default for IslandsConfig {
    /// One island (no island model); when `count` is raised: a migration every 5 rounds of
    /// the 2 best survivors, on a ring. Rare, small exchanges keep the islands diverse.
    fn default() -> Self {
        IslandsConfig {
            count: 1,
            migration_interval: 5,
            migrants: 2,
            topology: Topology::Ring,
        }
    }
}

impl Default for ValidationConfig {
    /// Every 2 rounds, 32 openings of 8 random plies (64 games), deck seed 2718, keep the
    /// champion.
    fn default() -> Self {
        ValidationConfig {
            every: 2,
            openings: 32,
            opening_plies: 8,
            seed: 2718,
            keep_champion: true,
        }
    }
}

impl Default for PopulationConfig {
    /// 100 specimens: the original student project's setting.
    fn default() -> Self {
        PopulationConfig { size: 100 }
    }
}

// ---------------------------------------------------------------------------------------------
// Loading.
// ---------------------------------------------------------------------------------------------

impl Config {
    /// Reads and checks the config file at `path`. A relative openings path is taken from the
    /// file's folder. Every mistake is an [`Error::Input`] naming the file, the key, the line
    /// (where known) and what is expected.
    pub fn load(path: impl AsRef<Path>) -> Result<Config, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::input(format!("cannot read config {}: {e}", path.display())))?;
        Config::from_str_named(crate::text::strip_bom(&text), path)
    }

    /// Parses and checks config `text`. `origin` is the file it came from: it names the file in
    /// messages, and a relative openings path is taken from its folder.
    pub fn from_str_named(text: &str, origin: impl AsRef<Path>) -> Result<Config, Error> {
        let origin = origin.as_ref();
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

        let mut config: Config =
            toml::from_str(text).map_err(|e| report.toml_error(&e, Some(&layout)))?;
        config.check_relations(&report, &layout)?;
        config.resolve_openings(&report, &layout)?;
        Ok(config)
    }

    /// Checks that only make sense with the whole config: the name, and pairs of keys.
    fn check_relations(&self, report: &Reporter, layout: &Layout) -> Result<(), Error> {
        let name = &self.name;
        if name.trim().is_empty() {
            return Err(report.at(
                layout.get("name"),
                "name",
                "must not be empty; it names the run folder results/<name>",
            ));
        }
        if name == "."
            || name.contains('/')
            || name.contains('\\')
            || name.contains("..")
            || name.chars().any(char::is_control)
        {
            return Err(report.at(
                layout.get("name"),
                "name",
                &format!(
                    "{name:?} must not contain `/`, `\\`, `..` or control characters, nor \
                     be `.`; it names the run folder results/<name>"
                ),
            ));
        }
        let search = &self.search;
        // Each depth's own bounds were checked as it was read: only their order is left.
        if let Err(LimitsError::Order { .. }) = search.try_limits() {
            return Err(report.pair(
                layout,
                ("search.min_depth", search.min_depth.into()),
                ("search.max_depth", search.max_depth.into()),
            ));
        }
        let islands = &self.islands;
        if islands.count > 1 && islands.migrants as usize >= self.population.size {
            let key = "islands.migrants";
            return Err(report.at(
                layout.get(key),
                key,
                &format!(
                    "{} must be less than `population.size` ({}): migrants replace newcomers",
                    islands.migrants, self.population.size
                ),
            ));
        }
        if let Some((key, problem)) = self.weights.problem() {
            let key = format!("weights.{key}");
            return Err(report.at(layout.get(&key), &key, &problem));
        }
        Ok(())
    }

    /// Makes an openings path absolute (relative to the config file's folder) and checks that
    /// the file exists and that every opening in it is legal.
    fn resolve_openings(&mut self, report: &Reporter, layout: &Layout) -> Result<(), Error> {
        let OpeningsSource::File(path) = &self.tournament.openings else {
            return Ok(());
        };
        let folder = match report.origin.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let joined = folder.join(path);
        let key = "tournament.openings";
        let entry = layout.get(key);
        let resolved = match std::fs::canonicalize(&joined) {
            Ok(resolved) if resolved.is_file() => resolved,
            Ok(resolved) => {
                return Err(report.at(
                    entry,
                    key,
                    &format!(
                        "{} is not a file; expected \"start\", \"3-move\" or the path of a \
                         file of openings",
                        resolved.display()
                    ),
                ))
            }
            Err(e) => {
                let problem = if e.kind() == std::io::ErrorKind::NotFound {
                    "does not exist".to_string()
                } else {
                    format!("cannot be opened: {e}")
                };
                return Err(report.at(
                    entry,
                    key,
                    &format!(
                        "openings file {} {problem} (a relative path is taken from the config \
                         file's folder); expected \"start\", \"3-move\" or the path of a \
                         file of openings",
                        joined.display()
                    ),
                ));
            }
        };
        // Every opening is played on the board now, so an illegal move stops the run before its
        // folder exists; the deck's own message names the file and its line.
        if let Err(err) = load_openings_file(&resolved) {
            return Err(report.at(entry, key, &err.to_string()));
        }
        self.tournament.openings = OpeningsSource::File(resolved);
        Ok(())
    }

    /// The resolved config as TOML, every default filled in, keys in a fixed order. This is
    /// the run folder's `config.toml`; [`Config::from_str_named`] reads it back to an equal
    /// config.
    ///
    /// # Panics
    /// If `seed` exceeds `i64::MAX`, which TOML cannot hold; a loaded config never does.
    pub fn to_toml(&self) -> String {
        let mut config = self.clone();
        if let OpeningsSource::File(path) = &config.tournament.openings {
            // A relative path would change meaning once written into the run folder.
            if let Ok(absolute) = std::path::absolute(path) {
                config.tournament.openings = OpeningsSource::File(absolute);
            }
        }
        let body = toml::to_string(&config).expect("a config with seed <= i64::MAX serialises");
        format!(
            "# The resolved config of run \"{}\": every default filled in.\n\
             # Written by checkers-tuner; `resume` reads it back.\n\n{body}",
            self.name.escape_default()
        )
    }

    /// The ids island `index` gives its specimens: a block of its own, large enough for the
    /// initial population and a full population of newcomers after every round, so ids stay
    /// unique across islands without the islands talking. Island 0's block starts at 0, as a
    /// run without islands does.
    pub fn island_ids(&self, index: u32) -> std::ops::Range<u64> {
        let size = self.population.size as u64;
        let block = size.saturating_mul(u64::from(self.tournament.rounds) + 1);
        let first = block.saturating_mul(u64::from(index));
        first..first.saturating_add(block)
    }

    /// The settings every game of this run is played with; the database itself (for
    /// `search.database_pieces` above 0) is the caller's to load into `database`.
    pub fn game_settings(&self) -> GameSettings {
        GameSettings {
            search: self.search,
            max_plies: self.tournament.max_plies,
            no_progress_plies: self.tournament.no_progress_plies,
            time: None,
            database: None,
            database_adjudication: self.tournament.database_adjudication,
        }
    }
}

/// Builds the messages of one document.
struct Reporter<'a> {
    text: &'a str,
    origin: &'a Path,
}

impl Reporter<'_> {
    /// 1-based line of byte offset `at`.
    fn line(&self, at: usize) -> usize {
        self.text.bytes().take(at).filter(|&b| b == b'\n').count() + 1
    }

    /// "FILE line N: `key`: message", without the line when the key is not in the file.
    fn at(&self, entry: Option<&Entry>, key: &str, message: &str) -> Error {
        let place = match entry {
            Some(entry) => format!("{} line {}", self.origin.display(), self.line(entry.start)),
            None => self.origin.display().to_string(),
        };
        Error::input(format!("{place}: `{key}`: {message}"))
    }

    /// `first` must not exceed `second`; reported at whichever is written in the file.
    fn pair(&self, layout: &Layout, first: (&str, i64), second: (&str, i64)) -> Error {
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
    fn toml_error(&self, err: &toml::de::Error, layout: Option<&Layout>) -> Error {
        let message = plain_message(err.message());
        // The typed parse puts document-wide errors (a missing key) at 0..0: no line to show.
        let whole_document = |span: &std::ops::Range<usize>| span.is_empty() && span.start == 0;
        let span = err
            .span()
            .filter(|span| layout.is_none() || !whole_document(span));
        let Some(span) = span else {
            return Error::input(format!("{}: {message}", self.origin.display()));
        };
        let line = self.line(span.start);
        match layout.and_then(|layout| layout.at(span.start)) {
            Some(entry) => Error::input(format!(
                "{} line {line}: `{}`: {message}",
                self.origin.display(),
                entry.path
            )),
            None => Error::input(format!("{} line {line}: {message}", self.origin.display())),
        }
    }
}

/// Turns serde's wording into the config's: one line, "key" for "field", and type names a user
/// knows.
fn plain_message(message: &str) -> String {
    let mut text = message.trim().replace('\n', "; ");
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
struct Entry {
    path: String,
    start: usize,
}

/// Every key of a document in text order, with the positions the TOML parser keeps: those of
/// table headers, dotted keys and keys inside inline tables included.
struct Layout {
    entries: Vec<Entry>,
}

impl Layout {
    /// The layout of `text`, which has already parsed as TOML.
    fn scan(text: &str) -> Layout {
        let mut entries = Vec::new();
        if let Ok(document) = toml_edit::ImDocument::parse(text) {
            table_keys("", document.as_table(), &mut entries);
        }
        entries.sort_by_key(|entry| entry.start);
        Layout { entries }
    }

    fn get(&self, path: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.path == path)
    }

    /// The key that byte `at` belongs to: the last key written at or before it.
    fn at(&self, at: usize) -> Option<&Entry> {
        self.entries.iter().rev().find(|entry| entry.start <= at)
    }
}

/// Records the key `name` of a table or inline table under `prefix`; returns its path.
fn record(
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
fn table_keys(prefix: &str, table: &toml_edit::Table, entries: &mut Vec<Entry>) {
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
fn value_keys(prefix: &str, value: &toml_edit::Value, entries: &mut Vec<Entry>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TieBreak;

    /// The name an enum setting is written with in TOML (`"genetic"`, `"blend"`).
    fn written<T: Serialize>(value: T) -> String {
        serde_json::to_value(value)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }

    fn parse(text: &str) -> Result<Config, Error> {
        Config::from_str_named(text, "configs/x.toml")
    }

    /// The message of a config that must be rejected as bad input.
    fn rejected(text: &str) -> String {
        match parse(text) {
            Err(Error::Input(message)) => message,
            other => panic!("expected Error::Input for {text:?}, got {other:?}"),
        }
    }

    /// Asserts that `text` is rejected with a message naming the file, `key` and `line`.
    fn rejected_at(text: &str, key: &str, line: usize) -> String {
        let message = rejected(text);
        assert!(
            message.starts_with(&format!("configs/x.toml line {line}: `{key}`: ")),
            "message {message:?} should name line {line} and `{key}`"
        );
        message
    }

    /// Every part of a dotted key or table header is a key of its own, on the same line.
    #[test]
    fn layout_finds_keys_in_every_form() {
        let text = "# c = 1\nname = \"x # y\" # z\n\n[search] # s\nmin_depth = 3\n\
                    \"max_depth\" = 4\n[ tournament . deep ]\nopenings = '''\na = 1\n'''\n\
                    list = [\n  1, # one\n  [2, 3],\n]\nwhen = 1979-05-27 07:32:00\n\
                    evolution.mode = \"random\"\npopulation = { size = 3, inner = { k = 'v' } }\n\
                    [[arr]]\nx = { }\n";
        text.parse::<toml::Table>().unwrap();
        let layout = Layout::scan(text);
        let found: Vec<(&str, usize)> = layout
            .entries
            .iter()
            .map(|entry| {
                (
                    entry.path.as_str(),
                    text[..entry.start].matches('\n').count() + 1,
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("name", 2),
                ("search", 4),
                ("search.min_depth", 5),
                ("search.max_depth", 6),
                ("tournament", 7),
                ("tournament.deep", 7),
                ("tournament.deep.openings", 8),
                ("tournament.deep.list", 11),
                ("tournament.deep.when", 15),
                ("tournament.deep.evolution", 16),
                ("tournament.deep.evolution.mode", 16),
                ("tournament.deep.population", 17),
                ("tournament.deep.population.size", 17),
                ("tournament.deep.population.inner", 17),
                ("tournament.deep.population.inner.k", 17),
                ("arr", 18),
                ("arr.x", 19),
            ]
        );
    }

    #[test]
    fn name_alone_gives_every_default() {
        let config = parse("name = \"x\"").unwrap();
        assert_eq!(config, Config::new("x"));
        assert_eq!(config.seed, 1);
        assert_eq!(config.population.size, 100);
        assert_eq!(config.weights, WeightSpace::default());
        let t = &config.tournament;
        assert_eq!(t.rounds, 20);
        assert_eq!(t.survival_fraction, 0.2);
        assert_eq!(t.stall_levels, 2);
        assert_eq!(t.openings, OpeningsSource::ThreeMove);
        assert_eq!(
            (t.max_plies, t.no_progress_plies, t.playoff_openings),
            (300, 80, 8)
        );
        let s = &config.search;
        assert_eq!((s.min_depth, s.max_depth, s.endgame_pieces), (6, 12, 12));
        assert_eq!(s.tie_break, TieBreak::First);
        let e = &config.evolution;
        assert_eq!(written(e.mode), "genetic");
        assert_eq!(e.immigrants, 0.1);
        assert_eq!(written(e.crossover), "uniform");
        assert_eq!((e.mutation_rate, e.mutation_sigma), (0.2, 8.0));
    }

    #[test]
    fn the_mutation_step_shrinks_from_the_first_breeding_to_the_last() {
        let config = parse(
            "name = \"r\"\n[evolution]\nmutation_sigma = 8\nmutation_sigma_end = 1\n\
             [tournament]\nrounds = 5\n",
        )
        .unwrap();
        let e = &config.evolution;
        // Rounds 1..=4 breed (the last round does not): 8, 4, 2, 1, halving each time.
        let steps: Vec<f64> = (1..=4).map(|r| e.mutation_sigma_after(r, 5)).collect();
        for (step, expected) in steps.iter().zip([8.0, 4.0, 2.0, 1.0]) {
            assert!((step - expected).abs() < 1e-9, "{steps:?}");
        }
        let to_zero = EvolutionParams {
            mutation_sigma_end: Some(0.0),
            ..*e
        };
        assert!((to_zero.mutation_sigma_after(3, 5) - 8.0 / 3.0).abs() < 1e-9);
        assert_eq!(to_zero.mutation_sigma_after(4, 5), 0.0);
        // Without an end the step stays put.
        assert_eq!(EvolutionParams::default().mutation_sigma_after(4, 5), 8.0);
        assert!(
            parse("name = \"r\"\n[evolution]\nmutation_sigma_end = -1\n")
                .unwrap_err()
                .to_string()
                .contains("evolution.mutation_sigma_end")
        );
    }

    #[test]
    fn given_keys_override_defaults_and_keep_the_rest() {
        let config = parse(
            "name = \"run\"\nseed = 99\n[search]\nmin_depth = 3\ntie_break = \"random\"\n\
             [evolution]\nmode = \"random\"\ncrossover = \"blend\"\nmutation_sigma = 3\n\
             [tournament]\nopenings = \"start\"\n",
        )
        .unwrap();
        assert_eq!(config.seed, 99);
        assert_eq!(config.search.min_depth, 3);
        assert_eq!(config.search.max_depth, 12);
        assert_eq!(config.search.tie_break, TieBreak::Random);
        assert_eq!(written(config.evolution.mode), "random");
        assert_eq!(written(config.evolution.crossover), "blend");
        assert_eq!(config.evolution.mutation_sigma, 3.0);
        assert_eq!(config.evolution.mutation_rate, 0.2);
        assert_eq!(config.tournament.openings, OpeningsSource::Start);
        let settings = config.game_settings();
        assert_eq!(
            (settings.search.min_depth, settings.search.max_depth),
            (3, 12)
        );
        assert_eq!(settings.search.tie_break, TieBreak::Random);
    }

    #[test]
    fn type_errors_name_key_line_and_expected_type() {
        let message = rejected_at(
            "name = \"x\"\n\n[search]\n# depth\nmax_depth = 9\n\nmin_depth = \"six\"\n",
            "search.min_depth",
            7,
        );
        assert!(message.contains("\"six\""), "{message}");
        assert!(message.contains("expected an integer"), "{message}");
        let message = rejected_at(
            "name = \"x\"\n[tournament]\nsurvival_fraction = \"most\"\n",
            "tournament.survival_fraction",
            3,
        );
        assert!(message.contains("expected a number"), "{message}");
        let message = rejected_at(
            "name = \"x\"\n[evolution]\nmode = \"evolve\"\n",
            "evolution.mode",
            3,
        );
        assert!(message.contains("`random` or `genetic`"), "{message}");
        rejected_at("name = 5\n", "name", 1);
        rejected_at("name = \"x\"\npopulation = 5\n", "population", 2);
        rejected_at(
            "name = \"x\"\n[tournament]\nopenings = 3\n",
            "tournament.openings",
            3,
        );
        rejected_at(
            "name = \"x\"\n[search]\ntie_break = \"last\"\n",
            "search.tie_break",
            3,
        );
        rejected_at(
            "name = \"x\"\n[tournament]\nrounds = 2.5\n",
            "tournament.rounds",
            3,
        );
    }

    #[test]
    fn unknown_keys_are_rejected_by_name_with_the_valid_ones() {
        let message = rejected_at(
            "name = \"x\"\n[population]\nsize = 10\nsizes = 12\n",
            "population.sizes",
            4,
        );
        assert!(message.contains("unknown key `sizes`"), "{message}");
        assert!(message.contains("`size`"), "{message}");
        let message = rejected_at("name = \"x\"\nthreads = 4\n", "threads", 2);
        assert!(message.contains("`evolution`"), "{message}");
        rejected_at("name = \"x\"\n[selection]\nsize = 3\n", "selection", 2);
        rejected_at("name = \"x\"\nsearch.depth = 3\n", "search.depth", 2);
        rejected_at("name = \"x\"\nsearch = { depth = 3 }\n", "search.depth", 2);
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let message = rejected("name = \"x\"\n[search]\nmin_depth 6\n");
        assert!(message.starts_with("configs/x.toml line 3: "), "{message}");
        let message = rejected("name = \"x\"\n[search]\n[search]\n");
        assert!(message.starts_with("configs/x.toml line 3: "), "{message}");
        assert!(!message.contains('\n'), "{message}");
        let message = rejected("name = \"x\"\nseed = 99999999999999999999\n");
        assert!(message.starts_with("configs/x.toml line 2: "), "{message}");
    }

    #[test]
    fn numbers_out_of_range_name_key_line_and_bound() {
        let cases: &[(&str, &str, &str)] = &[
            ("[search]\nmin_depth = 0", "search.min_depth", "at least 1"),
            ("[search]\nmax_depth = 41", "search.max_depth", "at most 40"),
            (
                "[search]\nendgame_pieces = 25",
                "search.endgame_pieces",
                "at most 24",
            ),
            ("[population]\nsize = 1", "population.size", "at least 2"),
            (
                "[weights]\ninit_noise = -1",
                "weights.init_noise",
                "between 0 and 10000",
            ),
            (
                "[tournament]\nrounds = 0",
                "tournament.rounds",
                "at least 1",
            ),
            (
                "[tournament]\nrounds = -3",
                "tournament.rounds",
                "at least 1, got -3",
            ),
            (
                "[tournament]\nsurvival_fraction = 0",
                "tournament.survival_fraction",
                "greater than 0 and less than 1",
            ),
            (
                "[tournament]\nsurvival_fraction = 1.0",
                "tournament.survival_fraction",
                "less than 1",
            ),
            (
                "[tournament]\nsurvival_fraction = nan",
                "tournament.survival_fraction",
                "got NaN",
            ),
            (
                "[tournament]\nstall_levels = 0",
                "tournament.stall_levels",
                "at least 1",
            ),
            (
                "[tournament]\nmax_plies = 0",
                "tournament.max_plies",
                "at least 1",
            ),
            (
                "[tournament]\nno_progress_plies = 1",
                "tournament.no_progress_plies",
                "at least 2",
            ),
            (
                "[tournament]\nplayoff_openings = 0",
                "tournament.playoff_openings",
                "at least 1",
            ),
            (
                "[evolution]\nimmigrants = 1.5",
                "evolution.immigrants",
                "between 0 and 1",
            ),
            (
                "[evolution]\nimmigrants = -0.1",
                "evolution.immigrants",
                "between 0 and 1",
            ),
            (
                "[evolution]\nmutation_rate = 2",
                "evolution.mutation_rate",
                "between 0 and 1",
            ),
            (
                "[evolution]\nmutation_sigma = -1",
                "evolution.mutation_sigma",
                "at least 0",
            ),
            (
                "[evolution]\nmutation_sigma = inf",
                "evolution.mutation_sigma",
                "finite",
            ),
            ("seed = -1", "seed", "at least 0"),
        ];
        for (body, key, bound) in cases {
            let message = rejected_at(
                &format!("name = \"x\"\n{body}\n"),
                key,
                body.lines().count() + 1,
            );
            assert!(
                message.contains(bound),
                "{message} should contain {bound:?}"
            );
        }
    }

    #[test]
    fn bounds_themselves_are_accepted() {
        let config = parse(
            "name = \"x\"\nseed = 0\n[population]\nsize = 2\n[weights.opening]\nkings = [5, 5]\n\
             [tournament]\nrounds = 1\nsurvival_fraction = 0.999\nno_progress_plies = 2\n\
             [search]\nmin_depth = 40\nmax_depth = 40\nendgame_pieces = 0\n\
             [evolution]\nimmigrants = 1\nmutation_rate = 0\nmutation_sigma = 0\n",
        )
        .unwrap();
        assert_eq!(config.search.min_depth, 40);
        assert_eq!(config.evolution.immigrants, 1.0);
    }

    #[test]
    fn pairs_of_keys_must_be_ordered() {
        let message = rejected_at(
            "name = \"x\"\n[search]\nmin_depth = 8\nmax_depth = 6\n",
            "search.min_depth",
            3,
        );
        assert!(message.contains("`search.max_depth` (6)"), "{message}");
        // Only max_depth is written: the mistake is reported where it is.
        rejected_at(
            "name = \"x\"\n[search]\nmax_depth = 4\n",
            "search.max_depth",
            3,
        );
        let message = rejected_at(
            "name = \"x\"\n[weights.endgame]\npawns = [100, 100]\nmobility = [5, -5]\n",
            "weights.endgame.mobility",
            4,
        );
        assert!(message.contains("must not exceed"), "{message}");
        let message = rejected_at(
            "name = \"x\"\n[weights.opening]\nkings = [0, 20000]\n",
            "weights.opening.kings",
            3,
        );
        assert!(message.contains("within -10000..=10000"), "{message}");
        rejected_at(
            "name = \"x\"\n[weights.opening]\nqueens = [0, 2]\n",
            "weights.opening.queens",
            3,
        );
    }

    #[test]
    fn name_is_required_and_must_be_a_folder_name() {
        let message = rejected("seed = 3\n");
        assert!(
            message.starts_with("configs/x.toml: `name`: missing"),
            "{message}"
        );
        rejected_at("seed = 3\nname = \"\"\n", "name", 2);
        rejected_at("name = \"  \"\n", "name", 1);
        for bad in ["a/b", "a\\\\b", "..", "up/../x", "tab\\there"] {
            let message = rejected_at(&format!("name = \"{bad}\"\n"), "name", 1);
            assert!(message.contains("must not contain"), "{message}");
        }
    }

    #[test]
    fn openings_file_is_resolved_from_the_config_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("decks")).unwrap();
        let deck = dir.path().join("decks").join("mine.txt");
        std::fs::write(&deck, "9-13 21-17 5-9\n").unwrap();
        let origin = dir.path().join("run.toml");
        let text = "name = \"x\"\n[tournament]\nopenings = \"decks/mine.txt\"\n";
        let config = Config::from_str_named(text, &origin).unwrap();
        let expected = std::fs::canonicalize(&deck).unwrap();
        assert_eq!(config.tournament.openings, OpeningsSource::File(expected));

        // The same text beside no such file.
        let elsewhere = dir.path().join("decks").join("run.toml");
        let message = match Config::from_str_named(text, &elsewhere) {
            Err(Error::Input(message)) => message,
            other => panic!("expected Error::Input, got {other:?}"),
        };
        assert!(
            message.contains("line 3: `tournament.openings`"),
            "{message}"
        );
        assert!(message.contains("mine.txt"), "{message}");

        // A folder is not a deck.
        let text = "name = \"x\"\n[tournament]\nopenings = \"decks\"\n";
        assert!(matches!(
            Config::from_str_named(text, &origin),
            Err(Error::Input(m)) if m.contains("is not a file")
        ));
    }

    #[test]
    fn an_illegal_move_in_the_openings_file_names_key_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let deck = dir.path().join("deck.txt");
        std::fs::write(&deck, "# mine\n9-13 21-17 5-9\n9-13 22-19 5-9\n").unwrap();
        let origin = dir.path().join("run.toml");
        let text = "name = \"x\"\n[tournament]\nopenings = \"deck.txt\"\n";
        let message = match Config::from_str_named(text, &origin) {
            Err(Error::Input(message)) => message,
            other => panic!("expected Error::Input, got {other:?}"),
        };
        assert!(
            message.contains("line 3: `tournament.openings`"),
            "{message}"
        );
        assert!(message.contains("deck.txt line 3"), "{message}");
        assert!(message.contains("22-19"), "{message}");
    }

    #[test]
    fn to_toml_round_trips_with_every_key_written() {
        let mut config = parse(
            "name = \"round trip\"\nseed = 123456789\n[tournament]\nsurvival_fraction = 0.3\n\
             openings = \"start\"\n[evolution]\nmode = \"random\"\ncrossover = \"blend\"\n\
             mutation_sigma = 0.1\n[search]\ntie_break = \"random\"\n",
        )
        .unwrap();
        let text = config.to_toml();
        assert_eq!(parse(&text).unwrap(), config);
        for key in [
            "seed",
            "size",
            "init",
            "init_noise",
            "kings",
            "promotion_distance",
            "rounds",
            "survival_fraction",
            "stall_levels",
            "openings",
            "max_plies",
            "no_progress_plies",
            "playoff_openings",
            "min_depth",
            "max_depth",
            "endgame_pieces",
            "tie_break",
            "mode",
            "immigrants",
            "crossover",
            "mutation_rate",
            "mutation_sigma",
        ] {
            assert!(
                text.lines()
                    .any(|line| line.starts_with(&format!("{key} = "))),
                "{key} missing from\n{text}"
            );
        }
        // Stable: the same config always writes the same text.
        assert_eq!(parse(&text).unwrap().to_toml(), text);

        // An openings file is written as an absolute path that still resolves.
        let dir = tempfile::tempdir().unwrap();
        let deck = dir.path().join("deck.txt");
        std::fs::write(&deck, "9-13 21-17 5-9\n").unwrap();
        config.tournament.openings = OpeningsSource::File(std::fs::canonicalize(&deck).unwrap());
        let text = config.to_toml();
        let read_back = Config::from_str_named(&text, "/nowhere/else/config.toml").unwrap();
        assert_eq!(read_back, config);
    }

    #[test]
    fn islands_are_written_only_when_there_are_several() {
        let one = parse("name = \"x\"\n[islands]\ncount = 1\nmigrants = 7\n").unwrap();
        assert!(!one.to_toml().contains("[islands]"));
        let text = "name = \"x\"\n[islands]\ncount = 3\nmigration_interval = 2\n";
        let three = parse(text).unwrap();
        let written = three.to_toml();
        assert!(written.contains(
            "[islands]\ncount = 3\nmigration_interval = 2\nmigrants = 2\ntopology = \"ring\"\n"
        ));
        assert_eq!(parse(&written).unwrap(), three);
        // Island blocks of ids: island 0 as a run without islands, the others after it.
        assert_eq!(three.island_ids(0), 0..100 * 21);
        assert_eq!(three.island_ids(2), 2 * 100 * 21..3 * 100 * 21);
        let message = rejected("name = \"x\"\n[islands]\ncount = 2\nmigrants = 100\n");
        assert!(
            message.contains("line 4: `islands.migrants`: 100 must be less than"),
            "{message}"
        );
        let message = rejected("name = \"x\"\n[islands]\ncount = 0\n");
        assert!(
            message.contains("`islands.count`: must be at least 1"),
            "{message}"
        );
        let message = rejected("name = \"x\"\n[islands]\ntopology = \"star\"\n");
        assert!(message.contains("`islands.topology`"), "{message}");
    }

    #[test]
    fn shipped_configs_load() {
        let quick =
            Config::load(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/quick.toml")).unwrap();
        assert_eq!(quick.name, "quick");
        assert_eq!(quick.population.size, 48);
        assert_eq!(quick.tournament.rounds, 10);
        assert_eq!(quick.tournament.openings, OpeningsSource::Random(8));
        assert_eq!((quick.search.min_depth, quick.search.max_depth), (6, 12));
        assert_eq!(quick.tournament.max_plies, 200);
        assert_eq!(quick.tournament.playoff_openings, 4);
        assert_eq!(written(quick.evolution.mode), "genetic");
        let islands =
            Config::load(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/islands.toml")).unwrap();
        assert_eq!(islands.islands.count, 4);
        assert_eq!(islands.population.size * 4, 64);

        let original = Config::load(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/configs/original.toml"
        ))
        .unwrap();
        assert_eq!(original.name, "original");
        assert_eq!(original.population, PopulationConfig::default());
        assert_eq!(original.tournament.rounds, 20);
        assert_eq!(original.tournament.survival_fraction, 0.2);
        assert_eq!(original.tournament.openings, OpeningsSource::Start);
        assert_eq!(written(original.evolution.mode), "random");
        assert_eq!(original.weights, WeightSpace::uniform(-100, 100));
        assert_eq!(original.validation.every, 0);
        assert_eq!(
            (original.search.min_depth, original.search.max_depth),
            (5, 11)
        );

        let overnight = Config::load(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/configs/overnight.toml"
        ))
        .unwrap();
        assert_eq!(overnight.name, "overnight");
        // Trained on random openings, so the 156-ballot deck stays unseen for `match`; a
        // learning curve; the depths `match` uses.
        assert!(matches!(
            overnight.tournament.openings,
            OpeningsSource::Random(_)
        ));
        assert!(overnight.validation.every > 0);
        assert_eq!(written(overnight.evolution.mode), "genetic");
        assert_eq!(
            (overnight.search.min_depth, overnight.search.max_depth),
            (6, 12)
        );
        // A long run: the mutation step shrinks over it, so the population settles.
        let e = &overnight.evolution;
        let rounds = overnight.tournament.rounds;
        assert!(rounds >= 60);
        assert!(e.mutation_sigma_after(rounds - 1, rounds) < e.mutation_sigma_after(1, rounds));

        for config in [quick, original, overnight] {
            assert_eq!(parse(&config.to_toml()).unwrap(), config);
        }
    }

    #[test]
    fn load_reports_a_missing_file_as_bad_input() {
        let err = Config::load("/no/such/dir/run.toml").unwrap_err();
        assert!(matches!(&err, Error::Input(m) if m.contains("/no/such/dir/run.toml")));
    }
}
