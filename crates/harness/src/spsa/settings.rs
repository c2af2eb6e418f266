//! An SPSA config: the weights whose search is tuned, or the engine whose options are, the
//! keys opened with their ranges and gains, and how the games are played.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{OpeningsSource, SearchParams, TimeControl, DECK_NAMES, MAX_NODES};
use checkers_engine::input_file::{self, Links, CONFIG_CAP};
use checkers_engine::search::MAX_SEARCH_DEPTH;
use checkers_engine::search::{gene_index, GENE_KEYS};

use crate::players::Engine;

/// Most game pairs a run may plan: far more than a week of games.
pub const MAX_ITERATIONS: u64 = 100_000_000;
/// Most pairs played at once from the same values.
pub const MAX_BATCH: u32 = 1024;
/// Longest `movetime`, in seconds: an hour a move is no tuning run.
pub const MAX_MOVETIME: f64 = 3600.0;
/// Largest magnitude of an engine option's `min` and `max`: the 32-bit integers an engine
/// reads an option as.
pub const MAX_OPTION_VALUE: i64 = i32::MAX as i64;

/// One tuned key of `[params]`: where it starts, the values it may take, and its gains in
/// the form the chess tuning frameworks use (the perturbation `c` and learning rate `r` at the
/// run's end; both larger at its start, by the schedule's exponents).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TunedParam {
    /// The value the run starts from; default: the weights file's (or the search's default).
    /// Required for an engine's option: its default cannot be read from every engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<f64>,
    /// Smallest value played.
    pub min: i64,
    /// Largest value played.
    pub max: i64,
    /// Perturbation at the end of the run, in the key's units: each pair plays the values
    /// `θ ± c·Δ`. At least 0.5, so that the two sides differ after rounding.
    pub c: f64,
    /// Learning rate at the end of the run (`a_end / c_end²`): a won pair moves the value by
    /// `r·c` towards the winner's side.
    pub r: f64,
}

/// An `spsa` config (`configs/search-spsa.toml`, `configs/engine-spsa.toml`):
/// simultaneous-perturbation stochastic approximation of the selective search's integer keys
/// at a node budget (`weights`), or of another engine's integer options at a time a move
/// (`engine`). The one owner of these settings, with their defaults and checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaConfig {
    /// The run's name: its folder is `results/<name>` unless `--out` says otherwise.
    pub name: String,
    /// The weights both sides play (a weights file, relative to the config's folder, or
    /// `material`); its `search` table is where the keys not tuned come from. Exactly one of
    /// `weights` and `engine`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<String>,
    /// The engine both sides are, as `match` names one: `cb:LIBRARY` (a CheckerBoard engine,
    /// the library relative to the config's folder) or `hub:COMMAND` (a Hub program, run as
    /// given). `[params]` are then its options, each side sent its values (CheckerBoard
    /// `set NAME VALUE`, Hub `set-param name=NAME value=VALUE`) when it starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Game pairs to play: one SPSA iteration each.
    pub iterations: u64,
    /// Pairs played at once from the same values (each with its own perturbation), then
    /// applied in order: the results do not depend on the thread count.
    #[serde(default = "default_batch")]
    pub batch: u32,
    /// Seed of the perturbations' and openings' streams.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Where each pair starts (`random:N`, a deck name or a file): a pair plays one opening
    /// with both colours. Random by default, so that the 3-move deck stays held out.
    #[serde(default = "default_openings")]
    pub openings: OpeningsSource,
    /// Nodes per move: the keys are judged at equal work, the same games on every machine.
    /// Required with `weights`; refused with `engine` (a CheckerBoard engine knows no node
    /// budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Seconds a move: required with `engine`, refused with `weights` (whose games are played
    /// at `nodes`, the same on every machine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime: Option<f64>,
    /// Plies captures are followed beyond each depth reached (our search's; an engine searches
    /// as it does).
    #[serde(default = "default_capture_plies")]
    pub capture_plies: u32,
    /// The endgame database both sides search with (0: none); with an engine, the one that
    /// adjudicates its games (the engine searches with its own).
    #[serde(default = "default_database_pieces")]
    pub database_pieces: u32,
    /// Adjudicate a draw after this many plies.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// Draw after this many plies without a capture or a man moving.
    #[serde(default = "default_no_progress_plies")]
    pub no_progress_plies: u32,
    /// The learning rate's decay exponent (Spall's α).
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// The perturbation's decay exponent (Spall's γ).
    #[serde(default = "default_gamma")]
    pub gamma: f64,
    /// The stability constant as a fraction of `iterations` (Spall's A / N).
    #[serde(default = "default_stability")]
    pub stability: f64,
    /// The tuned keys: each of the selective search's integer keys, or of the engine's
    /// integer options.
    pub params: BTreeMap<String, TunedParam>,
}

fn default_batch() -> u32 {
    8
}
fn default_seed() -> u64 {
    1
}
fn default_openings() -> OpeningsSource {
    OpeningsSource::Random(6)
}
fn default_capture_plies() -> u32 {
    6
}
fn default_database_pieces() -> u32 {
    5
}
fn default_max_plies() -> u32 {
    300
}
fn default_no_progress_plies() -> u32 {
    80
}
fn default_alpha() -> f64 {
    0.602
}
fn default_gamma() -> f64 {
    0.101
}
fn default_stability() -> f64 {
    0.1
}

/// `v` as a message quotes it: short however large (`1e300`, not 301 digits).
fn number(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-6..1e9).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// One tuned key, checked: its name, its place in [`GENE_KEYS`] for our search's, and its
/// settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The key's name: one of [`GENE_KEYS`], or an engine's option.
    pub name: String,
    /// Index in [`GENE_KEYS`]; `None` for an engine's option.
    pub gene: Option<usize>,
    /// The config's settings of it.
    pub param: TunedParam,
}

impl Tuned {
    /// The key's name, e.g. `futility_depth`.
    pub fn key(&self) -> &str {
        &self.name
    }
}

/// Whether `name` can be an engine's option in a `set NAME VALUE` or `set-param name=NAME`
/// line: one word of letters, digits, `_`, `-` and `.`.
fn is_option_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl SpsaConfig {
    /// Reads and checks a config file; a relative `weights` or openings path is taken from the
    /// file's folder. Every mistake names the file and the key (exit status 2).
    pub fn load(path: &Path) -> Result<SpsaConfig> {
        let text = input_file::read_text(path, Links::Follow, Some(CONFIG_CAP))
            .map_err(|e| Error::input(format!("config {}: {e}", path.display())))?;
        SpsaConfig::parse(checkers_engine::text::strip_bom(&text), path)
    }

    /// Parses and checks config `text`; `origin` names the file in messages and is the folder
    /// relative paths start from.
    pub fn parse(text: &str, origin: &Path) -> Result<SpsaConfig> {
        let mut config: SpsaConfig = toml::from_str(text).map_err(|e| {
            Error::input(format!(
                "config {}: {}",
                origin.display(),
                checkers_engine::text::toml_error_message(text, &e)
            ))
        })?;
        let folder = origin.parent().unwrap_or(Path::new(""));
        if let Some(weights) = &mut config.weights {
            if weights != "material" && Path::new(weights).is_relative() {
                *weights = folder.join(&*weights).display().to_string();
            }
        }
        // A library as the weights file is found; a Hub command runs as given (a program
        // on the PATH, or a path from the current folder, as `match` runs it).
        if let Some(engine) = &mut config.engine {
            if let Some(library) = engine.strip_prefix("cb:") {
                if !library.is_empty() && Path::new(library).is_relative() {
                    *engine = format!("cb:{}", folder.join(library).display());
                }
            }
        }
        if let OpeningsSource::File(path) = &config.openings {
            if path.is_relative() {
                config.openings = OpeningsSource::File(folder.join(path));
            }
        }
        config.check().map_err(|(key, why)| {
            Error::input(format!("config {}: {key}: {why}", origin.display()))
        })?;
        Ok(config)
    }

    /// The tuned keys (checked by [`SpsaConfig::parse`]): our search's in [`GENE_KEYS`]
    /// order, an engine's in the order of their names.
    pub fn tuned(&self) -> Vec<Tuned> {
        if self.engine.is_some() {
            return self
                .params
                .iter()
                .map(|(name, param)| Tuned {
                    name: name.clone(),
                    gene: None,
                    param: *param,
                })
                .collect();
        }
        GENE_KEYS
            .iter()
            .enumerate()
            .filter_map(|(index, key)| {
                self.params.get(*key).map(|param| Tuned {
                    name: key.to_string(),
                    gene: Some(index),
                    param: *param,
                })
            })
            .collect()
    }

    /// The engine `engine` names, without options, hosted (a library) by `host`; `None` for
    /// a run of our search. An error (a library that is not a file, an empty command) is in
    /// the engine's words: the caller names the config.
    pub fn tuned_engine(&self, host: &Path) -> Option<Result<Engine>> {
        let arg = self.engine.as_deref()?;
        Engine::from_arg(arg, Vec::new(), host)
    }

    /// How long a move may take: `nodes` for our search, `movetime` for an engine (checked
    /// by [`SpsaConfig::parse`]: one of them is set).
    pub fn time(&self) -> TimeControl {
        match (self.nodes, self.movetime) {
            (Some(nodes), _) => TimeControl::Nodes(nodes),
            (None, Some(seconds)) => TimeControl::MoveTime(Duration::from_secs_f64(seconds)),
            // Refused by the checks: a node, the least a move can be given.
            (None, None) => TimeControl::Nodes(1),
        }
    }

    /// The config as TOML, as the run folder keeps it (a continued run must match it).
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string(self).map_err(|e| Error::failure(format!("cannot write the config: {e}")))
    }

    /// Checks what serde's types do not: the `(key, why)` of the first mistake.
    fn check(&self) -> std::result::Result<(), (String, String)> {
        let fail = |key: &str, why: String| Err((key.to_string(), why));
        if self.name.trim().is_empty() || self.name.contains(['/', '\\']) || self.name == ".." {
            return fail("name", format!("{:?}: expected a folder name", self.name));
        }
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return fail(
                "iterations",
                format!("{}: expected 1 to {MAX_ITERATIONS}", self.iterations),
            );
        }
        if !(1..=MAX_BATCH).contains(&self.batch) {
            return fail(
                "batch",
                format!("{}: expected 1 to {MAX_BATCH}", self.batch),
            );
        }
        if let Some(why) = self.subject_problem() {
            return Err(why);
        }
        if let Some(nodes) = self.nodes {
            if !(1..=MAX_NODES).contains(&nodes) {
                return fail("nodes", format!("{nodes}: expected 1 to {MAX_NODES}"));
            }
        }
        if let Some(seconds) = self.movetime {
            if !(seconds > 0.0 && seconds <= MAX_MOVETIME) {
                return fail(
                    "movetime",
                    format!(
                        "{}: expected above 0, at most {MAX_MOVETIME} (seconds a move)",
                        number(seconds)
                    ),
                );
            }
        }
        // The depths' bounds are `[search]`'s: one owner of them, told in this key's terms.
        if self.search().try_limits().is_err() {
            let most = MAX_SEARCH_DEPTH - SearchParams::default().min_depth;
            return fail(
                "capture_plies",
                format!("{}: expected 0 to {most}", self.capture_plies),
            );
        }
        if let OpeningsSource::File(path) = &self.openings {
            if !path.exists() {
                return fail(
                    "openings",
                    format!(
                        "{}: no such file; expected a file of openings or one of {DECK_NAMES}",
                        path.display()
                    ),
                );
            }
        }
        if self.database_pieces > checkers_engine::egdb::MAX_DATABASE_PIECES {
            return fail(
                "database_pieces",
                format!(
                    "{}: expected 0 to {}",
                    self.database_pieces,
                    checkers_engine::egdb::MAX_DATABASE_PIECES
                ),
            );
        }
        if self.max_plies == 0 {
            return fail("max_plies", "0: expected at least 1".to_string());
        }
        if self.no_progress_plies < 2 {
            return fail(
                "no_progress_plies",
                format!("{}: expected at least 2", self.no_progress_plies),
            );
        }
        for (key, value, range) in [
            ("alpha", self.alpha, 0.0..=2.0),
            ("gamma", self.gamma, 0.0..=1.0),
            ("stability", self.stability, 0.0..=10.0),
        ] {
            if !range.contains(&value) {
                return fail(
                    key,
                    format!(
                        "{}: expected {} to {}",
                        number(value),
                        range.start(),
                        range.end()
                    ),
                );
            }
        }
        if self.params.is_empty() {
            let example = if self.engine.is_some() {
                "[params.lmr_depth] start = 3 min = 1 max = 8 c = 1 r = 0.006 (the engine's \
                 integer options)"
                    .to_string()
            } else {
                format!(
                    "[params.futility_depth] min = 0 max = 8 c = 1 r = 0.002 (keys: {})",
                    GENE_KEYS.join(", ")
                )
            };
            return fail(
                "params",
                format!("no key to tune; expected a table per key, e.g. {example}"),
            );
        }
        for (key, p) in &self.params {
            let at = format!("params.{key}");
            if self.engine.is_some() {
                if !is_option_name(key) {
                    return fail(
                        &at,
                        "not an option name: expected one word of letters, digits, `_`, `-` \
                         and `.`"
                            .to_string(),
                    );
                }
                if p.start.is_none() {
                    return fail(
                        &format!("{at}.start"),
                        "missing: an engine's option starts from the value given (its \
                         default cannot be read from every engine)"
                            .to_string(),
                    );
                }
                for (bound, value) in [("min", p.min), ("max", p.max)] {
                    if !(-MAX_OPTION_VALUE..=MAX_OPTION_VALUE).contains(&value) {
                        return fail(
                            &format!("{at}.{bound}"),
                            format!("{value}: expected -{MAX_OPTION_VALUE} to {MAX_OPTION_VALUE}"),
                        );
                    }
                }
            } else if gene_index(key).is_none() {
                return fail(
                    &at,
                    format!(
                        "not a tunable key; expected one of {} (any option of an `engine`)",
                        GENE_KEYS.join(", ")
                    ),
                );
            }
            if p.min > p.max {
                return fail(
                    &format!("{at}.min"),
                    format!("{} exceeds max {}", p.min, p.max),
                );
            }
            if self.engine.is_none() {
                for (bound, value) in [("min", p.min), ("max", p.max)] {
                    let alone = toml::Table::from_iter([(key.clone(), value.into())]);
                    if let Err(e) = toml::Value::Table(alone).try_into::<SearchParams>() {
                        return fail(
                            &format!("{at}.{bound}"),
                            format!("`search.{key}` {}", e.message().trim_end()),
                        );
                    }
                }
            }
            if let Some(start) = p.start {
                if !(p.min as f64..=p.max as f64).contains(&start) {
                    return fail(
                        &format!("{at}.start"),
                        format!("{}: outside min {} .. max {}", number(start), p.min, p.max),
                    );
                }
            }
            if !(0.5..=10_000.0).contains(&p.c) {
                return fail(
                    &format!("{at}.c"),
                    format!(
                        "{}: expected 0.5 to 10000 (the perturbation, in the key's units; \
                         below 0.5 both sides round to the same value)",
                        number(p.c)
                    ),
                );
            }
            if !(p.r > 0.0 && p.r <= 1_000.0) {
                return fail(
                    &format!("{at}.r"),
                    format!("{}: expected above 0, at most 1000", number(p.r)),
                );
            }
        }
        Ok(())
    }

    /// What is tuned: exactly one of `weights` and `engine`, and the time a move that goes
    /// with it (`nodes` for our search, `movetime` for an engine); the `(key, why)` of a
    /// mistake.
    fn subject_problem(&self) -> Option<(String, String)> {
        let problem = |key: &str, why: &str| Some((key.to_string(), why.to_string()));
        match (&self.weights, &self.engine) {
            (Some(_), Some(_)) => problem(
                "engine",
                "give `weights` (our search's keys of a weights file) or `engine` (another \
                 program's options), not both",
            ),
            (None, None) => problem(
                "weights",
                "missing: give `weights = FILE` to tune our search's keys of a weights file, \
                 or `engine = \"cb:LIBRARY\"` or `engine = \"hub:COMMAND\"` to tune an engine's \
                 options",
            ),
            (None, Some(engine)) => {
                let named = match engine.split_once(':') {
                    Some(("cb" | "hub", rest)) => !rest.trim().is_empty(),
                    _ => false,
                };
                if !named {
                    return Some((
                        "engine".to_string(),
                        format!(
                            "{engine:?}: expected cb:LIBRARY (a CheckerBoard engine) or \
                             hub:COMMAND (a Hub program)"
                        ),
                    ));
                }
                if self.nodes.is_some() {
                    return problem(
                        "nodes",
                        "an engine is tuned at a time a move (`movetime`), not a node budget: \
                         a CheckerBoard engine knows none",
                    );
                }
                if self.movetime.is_none() {
                    return problem(
                        "movetime",
                        "missing: an engine's games are played at a time a move, e.g. \
                         movetime = 0.05 (seconds)",
                    );
                }
                None
            }
            (Some(_), None) => {
                if self.movetime.is_some() {
                    return problem(
                        "movetime",
                        "our search is tuned at a node budget (`nodes`), the same games on \
                         every machine; `movetime` is for an `engine`",
                    );
                }
                if self.nodes.is_none() {
                    return problem(
                        "nodes",
                        "missing: our search's games are played at a node budget, e.g. \
                         nodes = 40000",
                    );
                }
                None
            }
        }
    }

    /// The games' `[search]`: the default depth with captures followed `capture_plies`
    /// further, and the config's database (the selective keys are each side's own).
    pub fn search(&self) -> SearchParams {
        let defaults = SearchParams::default();
        SearchParams {
            max_depth: defaults.min_depth.saturating_add(self.capture_plies),
            database_pieces: self.database_pieces,
            ..defaults
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "[params.lmr_depth]\nstart = 3\nmin = 1\nmax = 8\nc = 1\nr = 0.01\n";

    #[test]
    fn spsa_a_weights_run_writes_the_config_it_always_did() {
        let text =
            format!("name = \"a\"\nweights = \"w.json\"\niterations = 4\nnodes = 100\n{KEY}");
        let config = SpsaConfig::parse(&text, Path::new("dir/spsa.toml")).unwrap();
        let written = config.to_toml().unwrap();
        // A run folder started before engines could be tuned continues: its config.toml
        // has neither `engine` nor `movetime`.
        assert!(written.contains("weights = \"dir/w.json\""), "{written}");
        assert!(written.contains("nodes = 100"), "{written}");
        assert!(
            !written.contains("engine") && !written.contains("movetime"),
            "{written}"
        );
        assert_eq!(config.time(), TimeControl::Nodes(100));
        assert_eq!(config.tuned()[0].gene, Some(0));
    }

    #[test]
    fn spsa_an_engine_run_names_its_options_in_order_and_finds_its_library() {
        let text = format!(
            "name = \"e\"\nengine = \"cb:lib/x.so\"\niterations = 4\nmovetime = 0.5\n\
             [params.zeta]\nstart = -2\nmin = -5\nmax = 5\nc = 1\nr = 0.01\n{KEY}"
        );
        let config = SpsaConfig::parse(&text, Path::new("dir/spsa.toml")).unwrap();
        assert_eq!(config.engine.as_deref(), Some("cb:dir/lib/x.so"));
        assert_eq!(
            config.time(),
            TimeControl::MoveTime(Duration::from_millis(500))
        );
        let tuned = config.tuned();
        let names: Vec<&str> = tuned.iter().map(Tuned::key).collect();
        assert_eq!(names, ["lmr_depth", "zeta"]);
        assert!(tuned.iter().all(|t| t.gene.is_none()));
        // A Hub command runs as given.
        let hub = text.replace("cb:lib/x.so", "hub:scan hub");
        let config = SpsaConfig::parse(&hub, Path::new("dir/spsa.toml")).unwrap();
        assert_eq!(config.engine.as_deref(), Some("hub:scan hub"));
        // An option name that no `set` line can carry.
        let spaced = text.replace("[params.zeta]", "[params.\"a b\"]");
        let err = SpsaConfig::parse(&spaced, Path::new("dir/spsa.toml")).unwrap_err();
        assert!(
            err.to_string().contains("params.a b: not an option name"),
            "{err}"
        );
    }
}
