//! An SPSA config: the weights whose search is tuned, the keys opened with their ranges and
//! gains, and how the games are played.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{OpeningsSource, SearchParams, DECK_NAMES, MAX_NODES};
use checkers_engine::input_file::{self, Links, CONFIG_CAP};
use checkers_engine::search::GENE_KEYS;
use checkers_engine::search::MAX_SEARCH_DEPTH;

/// Most game pairs a run may plan: far more than a week of games.
pub const MAX_ITERATIONS: u64 = 100_000_000;
/// Most pairs played at once from the same values.
pub const MAX_BATCH: u32 = 1024;

/// One tuned key of `[params]`: where it starts, the values it may take, and its gains in
/// the form the chess tuning frameworks use (the perturbation `c` and learning rate `r` at the
/// run's end; both larger at its start, by the schedule's exponents).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TunedParam {
    /// The value the run starts from; default: the weights file's (or the search's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<f64>,
    /// Smallest value played.
    pub min: u32,
    /// Largest value played.
    pub max: u32,
    /// Perturbation at the end of the run, in the key's units: each pair plays the values
    /// `θ ± c·Δ`. At least 0.5, so that the two sides differ after rounding.
    pub c: f64,
    /// Learning rate at the end of the run (`a_end / c_end²`): a won pair moves the value by
    /// `r·c` towards the winner's side.
    pub r: f64,
}

/// An `spsa` config (`configs/search-spsa.toml`): simultaneous-perturbation stochastic
/// approximation of the selective search's integer keys at a node budget. The one owner of
/// these settings, with their defaults and checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaConfig {
    /// The run's name: its folder is `results/<name>` unless `--out` says otherwise.
    pub name: String,
    /// The weights both sides play (a weights file, relative to the config's folder, or
    /// `material`); its `search` table is where the keys not tuned come from.
    pub weights: String,
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
    pub nodes: u64,
    /// Plies captures are followed beyond each depth reached.
    #[serde(default = "default_capture_plies")]
    pub capture_plies: u32,
    /// The endgame database both sides search with (0: none).
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
    /// The tuned keys, each of the selective search's integer keys.
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

/// One tuned key, checked: its place in [`GENE_KEYS`] and its settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuned {
    /// Index in [`GENE_KEYS`].
    pub index: usize,
    /// The config's settings of it.
    pub param: TunedParam,
}

impl Tuned {
    /// The key's name, e.g. `futility_depth`.
    pub fn key(&self) -> &'static str {
        GENE_KEYS[self.index]
    }
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
        if config.weights != "material" && Path::new(&config.weights).is_relative() {
            config.weights = folder.join(&config.weights).display().to_string();
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

    /// The tuned keys in [`GENE_KEYS`] order (checked by [`SpsaConfig::parse`]).
    pub fn tuned(&self) -> Vec<Tuned> {
        GENE_KEYS
            .iter()
            .enumerate()
            .filter_map(|(index, key)| {
                self.params.get(*key).map(|param| Tuned {
                    index,
                    param: *param,
                })
            })
            .collect()
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
        if !(1..=MAX_NODES).contains(&self.nodes) {
            return fail(
                "nodes",
                format!("{}: expected 1 to {MAX_NODES}", self.nodes),
            );
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
            return fail(
                "params",
                format!(
                    "no key to tune; expected a table per key, e.g. [params.futility_depth] \
                     min = 0 max = 8 c = 1 r = 0.002 (keys: {})",
                    GENE_KEYS.join(", ")
                ),
            );
        }
        for (key, p) in &self.params {
            let at = format!("params.{key}");
            if !GENE_KEYS.contains(&key.as_str()) {
                return fail(
                    &at,
                    format!(
                        "not a tunable key; expected one of {}",
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
            for (bound, value) in [("min", p.min), ("max", p.max)] {
                let alone = toml::Table::from_iter([(key.clone(), value.into())]);
                if let Err(e) = toml::Value::Table(alone).try_into::<SearchParams>() {
                    return fail(
                        &format!("{at}.{bound}"),
                        format!("`search.{key}` {}", e.message().trim_end()),
                    );
                }
            }
            if let Some(start) = p.start {
                if !(f64::from(p.min)..=f64::from(p.max)).contains(&start) {
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
