//! Step 4 of loading a config (`load.rs`): the checks that only make sense with the whole
//! config, the name and pairs of keys, each naming the key and its line.

use super::messages::{ConfigError, Layout, Reporter};
use super::run_config::{Config, MAX_NAME_BYTES, MAX_PLAYOFF_GAMES};
use crate::run::GateCandidates;
use crate::tournament::playoff_games;
use checkers_engine::eval::EvaluatorKind;
use checkers_engine::game::{SearchMode, SearchParams};
use checkers_engine::search::{LimitsError, MAX_SEARCH_DEPTH};
use checkers_engine::text::excerpt;

impl Config {
    /// Checks that only make sense with the whole config: the name, and pairs of keys.
    pub(super) fn check_relations(
        &self,
        report: &Reporter,
        layout: &Layout,
    ) -> Result<(), ConfigError> {
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
                    "a `[chain]` of one link and no data night is a run without a chain, so \
                     this key would do nothing: set `chain.links` to 2 or more or \
                     `chain.data_doublings` to 1 or more, or leave the section out",
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
        self.check_data_night(report, layout)?;
        if chain.learn_from_earlier && self.evolution.fit_every == 0 {
            return at(
                "chain.learn_from_earlier",
                "the earlier links' games are learnt by each link's fits: set \
                 `evolution.fit_every`, or leave this out",
            );
        }
        Ok(())
    }

    /// The data night's keys (`chain.data_*`): they need doublings, budgets `datagen` takes,
    /// as `datagen` takes them.
    fn check_data_night(&self, report: &Reporter, layout: &Layout) -> Result<(), ConfigError> {
        let at = |key: &str, problem: &str| Err(report.at(layout.get(key), key, problem));
        let chain = &self.chain;
        if chain.data_doublings == 0 {
            let written = (layout.entries.iter()).find(|entry| {
                entry.path.starts_with("chain.data_") && entry.path != "chain.data_doublings"
            });
            if let Some(entry) = written {
                return at(
                    &entry.path,
                    "the data night's keys need doublings: set `chain.data_doublings` to 1 or \
                     more, or leave this out",
                );
            }
            return Ok(());
        }
        let budgets = chain.data_nodes.len();
        if budgets == 0 || budgets > crate::datagen::MAX_BUDGETS {
            return at(
                "chain.data_nodes",
                &format!(
                    "{budgets} budgets: expected 1 to {}, e.g. data_nodes = [3000]",
                    crate::datagen::MAX_BUDGETS
                ),
            );
        }
        let max_nodes = checkers_engine::game::MAX_NODES;
        if let Some(bad) = chain
            .data_nodes
            .iter()
            .find(|n| !(1..=max_nodes).contains(*n))
        {
            return at(
                "chain.data_nodes",
                &format!("{bad}: expected 1 to {max_nodes} nodes a move"),
            );
        }
        let last = chain.data_games_of(chain.data_doublings);
        if last > crate::datagen::MAX_GAMES {
            return at(
                "chain.data_games",
                &format!(
                    "{} games in the last of {} doublings: at most {} games a doubling; give \
                     fewer games or doublings",
                    last,
                    chain.data_doublings,
                    crate::datagen::MAX_GAMES
                ),
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
}
