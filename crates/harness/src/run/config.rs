//! The config file of a tuning run (docs/tournament.md): the sections together (the run's own in
//! `config_sections.rs`), loading
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

pub(super) use super::config_messages::ConfigError;
use super::config_messages::{Layout, Reporter};
pub use super::config_sections::{
    ChainConfig, IslandsConfig, PopulationConfig, ValidationConfig, MAX_ISLANDS,
};
use super::files::CONFIG_FILE;
use super::gate::{GateCandidates, GateConfig};
use super::tables::{load_start_copy, tables_path};
use crate::tournament::{playoff_games, EvolutionParams, InitMode, TournamentParams, WeightSpace};
use checkers_engine::bounded::int_in;
use checkers_engine::error::Error;
use checkers_engine::eval::EvaluatorKind;
use checkers_engine::game::{
    load_openings_file, GameSettings, OpeningsSource, SearchMode, SearchParams, TimeControl,
    DECK_NAMES,
};
use checkers_engine::input_file::{self, Links, CONFIG_CAP};
use checkers_engine::search::{LimitsError, SelectiveParams, MAX_SEARCH_DEPTH};
use checkers_engine::text::excerpt;
use checkers_engine::weights_file::WeightsFile;

/// The longest run name, in bytes: it names a folder, whose name the file system limits
/// (255 bytes on most), and it is quoted in titles and messages.
pub const MAX_NAME_BYTES: usize = 100;

/// The most games the playoff may play, counted for the most finalists a config allows (see
/// [`Config::most_finalists`]): a round robin of thousands of finalists is weeks of games, and
/// its results are kept in memory until it ends.
pub const MAX_PLAYOFF_GAMES: u64 = 100_000_000;

/// A tuning run, as described by its TOML file. Every key except `name` has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The run's name; its output folder is `results/<name>` unless `--out` says otherwise.
    pub name: String,
    /// Seeds every random stream of the run (see `checkers_engine::rng::stream`).
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
    /// The gated champion: candidates replace it only by winning a match against it. Left
    /// out of `config.toml` when off, so that runs without a gate keep their files.
    #[serde(default, skip_serializing_if = "GateConfig::is_off")]
    pub gate: GateConfig,
    /// The island model: several populations evolving apart and exchanging their best. Left
    /// out of `config.toml` when there is one island, so that a one-island run's files are
    /// those of a run without islands.
    #[serde(default, skip_serializing_if = "IslandsConfig::is_single")]
    pub islands: IslandsConfig,
    /// A night as a chain of runs of this config and a morning fit of all their games. Left
    /// out of `config.toml` without a chain, so that other runs keep their files.
    #[serde(default, skip_serializing_if = "ChainConfig::is_single")]
    pub chain: ChainConfig,
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
            gate: GateConfig::default(),
            islands: IslandsConfig::default(),
            chain: ChainConfig::default(),
        }
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
        Ok(Config::load_keyed(path.as_ref())?)
    }

    /// [`Config::load`], with the key of a mistake kept apart for the caller.
    pub(super) fn load_keyed(path: &Path) -> Result<Config, ConfigError> {
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

    /// The most finalists the playoff can have: every specimen of every island when no round
    /// eliminates anybody (every game drawn, say), plus each island's champion and final fit.
    pub fn most_finalists(&self) -> u64 {
        (self.population.size as u64 + 2) * u64::from(self.islands.count)
    }

    /// Checks that only make sense with the whole config: the name, and pairs of keys.
    fn check_relations(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let name = &self.name;
        if name.trim().is_empty() {
            return Err(report.at(
                layout.get("name"),
                "name",
                "must not be empty; it names the run folder results/<name>",
            ));
        }
        if name.len() > MAX_NAME_BYTES {
            return Err(report.at(
                layout.get("name"),
                "name",
                &format!(
                    "\"{}\" is {} bytes long, at most {MAX_NAME_BYTES} are allowed; it names \
                     the run folder results/<name>",
                    excerpt(name),
                    name.len()
                ),
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
        self.check_playoff_size(report, layout)?;
        self.check_gate(report, layout)?;
        self.check_chain(report, layout)?;
        let tournament = &self.tournament;
        let deepest = search.max_depth + tournament.deepen_plies;
        if tournament.deepen_every > 0 && deepest > MAX_SEARCH_DEPTH {
            let key = "tournament.deepen_plies";
            return Err(report.at(
                layout.get(key),
                key,
                &format!(
                    "{} plies on `search.max_depth` ({}) make {deepest}, beyond the search's \
                     limit of {MAX_SEARCH_DEPTH}",
                    tournament.deepen_plies, search.max_depth
                ),
            ));
        }
        self.check_nodes(report, layout)?;
        if self.evolution.fit_endings > 0 && self.search.database_pieces == 0 {
            let key = "evolution.fit_endings";
            return Err(report.at(
                layout.get(key),
                key,
                "the endings are played on by the endgame database: set \
                 `search.database_pieces`, or leave this out",
            ));
        }
        if !self.evolution.fit_with.is_empty() && self.evolution.fit_every == 0 {
            let key = "evolution.fit_with";
            return Err(report.at(
                layout.get(key),
                key,
                "the earlier runs' games are learnt by the run's fits: set \
                 `evolution.fit_every`, or leave this out",
            ));
        }
        self.check_genes(report, layout)?;
        if let Some((key, problem)) = self.weights.problem() {
            let key = format!("weights.{key}");
            return Err(report.at(layout.get(&key), &key, &problem));
        }
        Ok(())
    }

    /// A chain (`[chain]`) is runs of one population each whose games a pattern fit pools:
    /// its keys need links, and its links need what the morning fit and `learn_from_earlier`
    /// use.
    fn check_chain(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let at = |key: &str, problem: &str| Err(report.at(layout.get(key), key, problem));
        let chain = &self.chain;
        if chain.is_single() {
            let written = (layout.entries.iter()).find(|entry| entry.path.starts_with("chain."));
            if let Some(entry) = written {
                return at(
                    &entry.path,
                    "a `[chain]` of one link is a run without a chain, so this key would do \
                     nothing: set `chain.links` to 2 or more, or leave the section out",
                );
            }
            return Ok(());
        }
        if !self.islands.is_single() {
            return at(
                "chain.links",
                "a chain needs a run without islands (`islands.count` = 1): its links are \
                 the runs whose games are pooled",
            );
        }
        if self.weights.evaluator != EvaluatorKind::Patterns {
            return at(
                "chain.links",
                &format!(
                    "the morning fit of a chain fits the pattern evaluator's tables, and this \
                     run's is the {} evaluator: set `weights.evaluator = \"patterns\"`",
                    self.weights.evaluator
                ),
            );
        }
        if let Some(regions) = chain.regions {
            let links = self.weights.patterns.regions;
            let wider = regions.regions();
            if !links.regions().iter().all(|r| wider.contains(r)) {
                return at(
                    "chain.regions",
                    &format!(
                        "\"{}\" does not hold the links' regions (\"{}\"), so the morning fit \
                         would keep theirs: name a wider layout, or leave this out",
                        regions.name(),
                        links.name()
                    ),
                );
            }
        }
        let mut after = 0;
        for &links in &chain.interim_fits {
            if links <= after || links >= chain.links {
                return at(
                    "chain.interim_fits",
                    &format!(
                        "{links} is not a link after which to fit: give increasing link \
                         numbers, each from 1 to {} (the last link's fit is the morning's)",
                        chain.links - 1
                    ),
                );
            }
            after = links;
        }
        if chain.learn_from_earlier && self.evolution.fit_every == 0 {
            return at(
                "chain.learn_from_earlier",
                "the earlier links' games are learnt by each link's fits: set \
                 `evolution.fit_every`, or leave this out",
            );
        }
        Ok(())
    }

    /// Games at a node budget (`search.nodes`) deepen while their nodes last: a deepening of
    /// the depths would change nothing, and their searches break ties by move order.
    fn check_nodes(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let Some(nodes) = self.search.nodes else {
            return Ok(());
        };
        let key = "search.nodes";
        if self.tournament.deepen_every > 0 {
            return Err(report.at(
                layout.get(key),
                key,
                &format!(
                    "games at {nodes} nodes a move deepen while the nodes last, so \
                     `tournament.deepen_every` ({}) would change nothing: leave one of them out",
                    self.tournament.deepen_every
                ),
            ));
        }
        if let Some((at, problem)) = self.search.cross_key_problem() {
            let at = format!("search.{at}");
            return Err(report.at(layout.get(&at), &at, problem));
        }
        Ok(())
    }

    /// Search genes (`[search.genes]`) are the selective search's keys, judged at equal nodes
    /// (at a fixed depth a smaller reduction or a wider margin always wins by searching more,
    /// whatever it costs), and each range lies within its key's own bounds: those
    /// `SearchParams` reads `[search]` with, the one owner of them.
    fn check_genes(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let genes = self.search.genes.opened();
        let Some(first) = genes.first() else {
            return Ok(());
        };
        let at = |key: &str, problem: &str| Err(report.at(layout.get(key), key, problem));
        let first = format!("search.genes.{}", first.key());
        if self.search.mode != SearchMode::Selective {
            return at(
                &first,
                "search genes are keys of the selective search: they need \
                 `search.mode = \"selective\"`",
            );
        }
        if self.search.nodes.is_none() {
            return at(
                &first,
                "search genes are judged at equal nodes: they need `search.nodes` (at a fixed \
                 depth a smaller reduction always wins by searching more)",
            );
        }
        for gene in genes {
            let key = format!("search.genes.{}", gene.key());
            let (min, max) = (gene.range.min, gene.range.max);
            if min > max {
                return at(
                    &key,
                    &format!("[{min}, {max}]: the first bound must not exceed the second"),
                );
            }
            for bound in [min, max] {
                let alone = toml::Table::from_iter([(gene.key().to_string(), bound.into())]);
                if let Err(e) = toml::Value::Table(alone).try_into::<SearchParams>() {
                    return at(
                        &key,
                        &format!(
                            "[{min}, {max}]: `search.{}` {}",
                            gene.key(),
                            e.message().trim_end()
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// A gate needs one island, fits to test (when it tests fits) in every gate round, and an
    /// SPRT its bounds make.
    fn check_gate(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let gate = &self.gate;
        let at = |key: &str, problem: &str| Err(report.at(layout.get(key), key, problem));
        if gate.is_off() {
            // A `[gate]` of settings without `candidates` is off: its keys would do nothing.
            let written = layout
                .entries
                .iter()
                .find(|entry| entry.path.starts_with("gate."));
            if let (Some(entry), None) = (written, layout.get("gate.candidates")) {
                return at(
                    &entry.path,
                    "a `[gate]` without `candidates` is off, so this key would do nothing: set \
                     `gate.candidates` to \"fits\" or \"fits-and-winners\" (or \"none\" to \
                     keep the gate off)",
                );
            }
            return Ok(());
        }
        if !self.islands.is_single() {
            return at(
                "gate.candidates",
                "a gate needs a run without islands (`islands.count` = 1): each island would \
                 keep a champion of its own",
            );
        }
        let fit_every = self.evolution.fit_every;
        if gate.candidates == GateCandidates::Fits && fit_every == 0 {
            return at(
                "gate.candidates",
                "\"fits\" needs fits: set `evolution.fit_every`, or use \"fits-and-winners\"",
            );
        }
        if fit_every > 0 && !gate.every.is_multiple_of(fit_every) {
            return at(
                "gate.every",
                &format!(
                    "{} must be a multiple of `evolution.fit_every` ({fit_every}), so that \
                     every gate has a fresh fit to test",
                    gate.every
                ),
            );
        }
        if gate.elo1 <= gate.elo0 {
            return at(
                "gate.elo1",
                &format!(
                    "{} must be greater than `gate.elo0` ({})",
                    gate.elo1, gate.elo0
                ),
            );
        }
        if gate.alpha + gate.beta >= 1.0 {
            return at(
                "gate.beta",
                &format!(
                    "{} plus `gate.alpha` ({}) must be less than 1: the SPRT's two error rates \
                     together",
                    gate.beta, gate.alpha
                ),
            );
        }
        Ok(())
    }

    /// The playoff's games, counted for [`Config::most_finalists`], must stay within
    /// [`MAX_PLAYOFF_GAMES`]: it is a round robin, so its games grow with the square of the
    /// finalists, and a run must not fail at its end on what its config asked for.
    fn check_playoff_size(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let finalists = self.most_finalists();
        let openings = self.tournament.playoff_openings;
        let games = playoff_games(finalists as usize, openings as usize);
        if games <= MAX_PLAYOFF_GAMES {
            return Ok(());
        }
        let key = "tournament.playoff_openings";
        let islands = match self.islands.count {
            1 => String::new(),
            n => format!(", times `islands.count` ({n})"),
        };
        Err(report.at(
            layout.get(key),
            key,
            &format!(
                "{openings} openings for up to {finalists} finalists (`population.size` ({}) \
                 plus a champion and a fit{islands}: every specimen reaches the playoff when no \
                 round eliminates anybody) make up to {games} playoff games, more than the \
                 {MAX_PLAYOFF_GAMES} allowed; lower `tournament.playoff_openings` or \
                 `population.size`",
                self.population.size
            ),
        ))
    }

    /// Makes an openings path absolute (relative to the config file's folder) and checks that
    /// the file exists and that every opening in it is legal.
    fn resolve_openings(&mut self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let OpeningsSource::File(path) = &self.tournament.openings else {
            return Ok(());
        };
        let folder = report.folder();
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
                        "{} is not a file; expected a deck ({DECK_NAMES}) or the path of a \
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
                         file's folder); expected a deck ({DECK_NAMES}) or the path of a file of \
                         openings",
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

    /// Makes the start weights file (`population.start`) absolute (relative to the config
    /// file's folder) and checks that it is a weights file the run can start from: of the
    /// run's evaluator, every weight in the run's ranges, fresh specimens drawn around it.
    ///
    /// A run folder's own `config.toml` whose run has started is checked against the copy the
    /// run kept: that copy is what the run goes on from, and the file itself may have changed
    /// or gone since.
    fn resolve_start(&mut self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let Some(path) = &self.population.start else {
            return Ok(());
        };
        let key = "population.start";
        let refuse = |problem: &str| report.at(layout.get(key), key, problem);
        let joined = report.folder().join(path);
        // Canonical where it exists, so that the run folder's config.toml names it plainly.
        let resolved = std::fs::canonicalize(&joined)
            .or_else(|_| std::path::absolute(&joined))
            .unwrap_or(joined);
        let kept = tables_path(report.folder(), 0);
        let in_run_folder = report.origin.file_name() == Some(CONFIG_FILE.as_ref());
        let (checked, file) = if in_run_folder && kept.is_file() {
            let file = load_start_copy(report.folder(), &self.name, 0)
                .map_err(|e| refuse(&e.to_string()))?;
            (&kept, file)
        } else {
            let file = WeightsFile::load(&resolved).map_err(|e| {
                refuse(&format!(
                    "{e} (a relative path is taken from the config file's folder)"
                ))
            })?;
            (&resolved, file)
        };
        let (theirs, ours) = (file.evaluator(), self.weights.evaluator);
        if theirs != ours {
            return Err(refuse(&format!(
                "{} holds weights of the {} evaluator, and this run tunes the {} one \
                 (`weights.evaluator`)",
                checked.display(),
                theirs.name(),
                ours.name()
            )));
        }
        if let Some((weight, value, range)) = self.weights.outside(&file.weights) {
            return Err(refuse(&format!(
                "{}: {weight} = {value} is outside the run's range [{}, {}] \
                 (`weights.{weight}`); widen the range or start from another file",
                checked.display(),
                range.min,
                range.max
            )));
        }
        if self.weights.init == InitMode::Random {
            return Err(refuse(
                "fresh specimens are drawn around the start weights (with `weights.init_noise`), \
                 so `weights.init = \"random\"` would be ignored: leave `init` out",
            ));
        }
        self.population.start = Some(resolved);
        Ok(())
    }

    /// Fixes every earlier run's store the fits learn from (`evolution.fit_with`): its absolute
    /// path (relative to the config file's folder), the rounds it holds whole now and whose it
    /// is, so that the run and its resumptions read the same games.
    fn resolve_fit_sources(
        &mut self,
        report: &Reporter,
        layout: &Layout,
    ) -> Result<(), ConfigError> {
        let folder = report.folder();
        let key = "evolution.fit_with";
        for source in &mut self.evolution.fit_with {
            *source = super::fit_sources::resolve(source, folder)
                .map_err(|problem| report.at(layout.get(key), key, &problem))?;
        }
        // A store read twice would weigh its games twice: a folder and its positions.bin are
        // one store once resolved.
        let sources = &self.evolution.fit_with;
        for (k, source) in sources.iter().enumerate() {
            if let Some(first) = sources[..k].iter().position(|s| s.store == source.store) {
                return Err(report.at(
                    layout.get(key),
                    key,
                    &format!(
                        "items {} and {} are the same store ({}): name each earlier run once",
                        first + 1,
                        k + 1,
                        source.store.display()
                    ),
                ));
            }
        }
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

    /// The selective search a specimen's genes (`[search.genes]`) are set over: the run's
    /// (a config with genes is selective; the defaults otherwise, which no gene reads).
    pub fn gene_base(&self) -> SelectiveParams {
        self.search.selective().unwrap_or_default()
    }

    /// The settings every game of this run is played with; the database itself (for
    /// `search.database_pieces` above 0) is the caller's to load into `database`.
    pub fn game_settings(&self) -> GameSettings {
        GameSettings {
            search: self.search,
            max_plies: self.tournament.max_plies,
            no_progress_plies: self.tournament.no_progress_plies,
            time: self.search.nodes.map(TimeControl::Nodes),
            database: None,
            database_adjudication: self.tournament.database_adjudication,
        }
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
