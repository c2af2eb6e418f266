//! A night as a chain of runs (`[chain]`, docs/chain.md): `links` runs of one config, one after
//! another, each in its own folder `link-K/` of the chain's folder with its own seed, then a
//! morning fit on every link's games, gated against the last link's best.
//!
//! Why a chain and not one long run: past about 1.5 million positions the fits of one run's own
//! games stop improving, while a fit of several runs' games pooled keeps paying (three 7-minute
//! runs pooled beat the best of one by +40, docs/learning.md). The links are ordinary runs, so
//! each is resumed as one; the chain's own files are written once, at the end, and
//! `morning.csv` is the last of them: a chain folder with it has finished.
//!
//! Determinism: each link is a run with its own seed (`seed + K - 1`), the morning fit is the
//! same on any number of threads, and the gate's openings come from the chain's own stream.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use super::config::Config;
use super::files::{write_atomically, CONFIG_FILE};
use super::observer::{RunObserver, RunView, Silent};
use super::options::RunOptions;
use super::process::run_settings;
use super::summary::{RunOutcome, RunSummary};
use crate::elo::{Sprt, SprtVerdict};
use crate::export::{export_to_file, ExportFormat};
use crate::fit::{
    fit_games, Damaged, DeepLabels, FitReport, FitSettings, GameStream, Games, LabelSearch,
    DEEP_LABEL_EXTENSION,
};
use crate::matchplay::{play_match_from, MatchPlayer, MatchReport};
use crate::run_folder::{
    holds_run, interim_path, BEST_FILE, CHAIN_FILE, INTERIM_DIR, MORNING_FILE, MORNING_RESULT_FILE,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::OpeningBook;
use checkers_engine::rng::{stream, tag};
use checkers_engine::text::csv_line;
use checkers_engine::weights_file::WeightsFile;

/// The morning gate's SPRT: the morning fit replaces the last link's best only when it is
/// better (H0: +0 Elo, H1: +15, the bounds a night's gates use, α 5%, β 10%).
const GATE_ELO: (f64, f64) = (0.0, 15.0);
/// See [`GATE_ELO`].
const GATE_ERRORS: (f64, f64) = (0.05, 0.10);
/// Random plies of each morning gate opening: the bracket's, never the 3-move deck.
const GATE_OPENING_PLIES: u32 = 8;

/// The folder of link `link` (from 1) of the chain in `top`.
pub fn link_dir(top: &Path, link: u32) -> PathBuf {
    top.join(format!("link-{link}"))
}

/// The config of link `link` of the chain `config` in `top`: the chain's config without its
/// `[chain]`, named `<name>-link-K`, with seed `seed + K - 1`, and (with `learn_from_earlier`)
/// every earlier link's store among the stores its fits learn from. Checked as a config file
/// would be, so that each link's `config.toml` is an ordinary run's.
pub fn link_config(config: &Config, top: &Path, link: u32) -> Result<Config> {
    let mut table: toml::Table = toml::from_str(&config.to_toml())
        .map_err(|e| Error::failure(format!("the chain's own config does not read back: {e}")))?;
    table.remove("chain");
    table.insert(
        "name".into(),
        toml::Value::String(format!("{}-link-{link}", config.name)),
    );
    let seed = config.seed + u64::from(link - 1);
    let seed = i64::try_from(seed).map_err(|_| {
        Error::input(format!(
            "`seed` {} with {} links passes the largest seed",
            config.seed, config.chain.links
        ))
    })?;
    table.insert("seed".into(), toml::Value::Integer(seed));
    if config.chain.learn_from_earlier && link > 1 {
        let evolution = table
            .entry("evolution")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(evolution) = evolution else {
            return Err(Error::failure("the chain's `[evolution]` is not a table"));
        };
        let sources = evolution
            .entry("fit_with")
            .or_insert_with(|| toml::Value::Array(Vec::new()));
        let toml::Value::Array(sources) = sources else {
            return Err(Error::failure(
                "the chain's `evolution.fit_with` is not a list",
            ));
        };
        // From the link's own folder, where its config is read from.
        for earlier in 1..link {
            sources.push(toml::Value::String(format!("../link-{earlier}")));
        }
    }
    let text = toml::to_string(&table)
        .map_err(|e| Error::failure(format!("cannot write link {link}'s config: {e}")))?;
    // The earlier links' folders are named from this one's, so it must exist to be read from.
    let dir = link_dir(top, link);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, &e))?;
    Config::from_str_named(&text, dir.join(CONFIG_FILE))
}

/// How a chain plays its links: the entry points of a run (the runner's), handed in so that the
/// chain knows a run only as its callers do.
pub(super) struct Runs {
    /// Starts the run of a config in a new folder (as `tune` without `--force`).
    pub start: fn(&Config, &Path, bool, &RunOptions) -> Result<RunOutcome>,
    /// Continues the run in a folder, or reports it finished (as `resume`).
    pub resume: fn(&Path, &RunOptions) -> Result<RunOutcome>,
}

/// Plays the chain `config` in its folder `top` (which holds its `config.toml` and is locked
/// by the caller) with `runs`: every link not yet finished, then the morning fit and its
/// gate. A stop request ends it as [`RunOutcome::Interrupted`] with `top` to resume.
pub(super) fn run_chain(
    top: &Path,
    config: &Config,
    options: &RunOptions,
    runs: &Runs,
) -> Result<RunOutcome> {
    if top.join(MORNING_RESULT_FILE).is_file() {
        let last = link_outcome(top, config, config.chain.links, options, runs)?;
        let summary = last_summary(&last).cloned();
        return Ok(RunOutcome::AlreadyFinished(chain_summary(
            top, config, summary,
        )?));
    }
    let mut links = Vec::new();
    for link in 1..=config.chain.links {
        let outcome = link_outcome(top, config, link, options, runs)?;
        match outcome {
            RunOutcome::Interrupted {
                completed_rounds, ..
            } => {
                return Ok(RunOutcome::Interrupted {
                    dir: top.to_path_buf(),
                    completed_rounds: (link - 1) * config.tournament.rounds + completed_rounds,
                });
            }
            RunOutcome::Finished(summary) | RunOutcome::AlreadyFinished(summary) => {
                links.push(summary);
            }
        }
        if config.chain.interim_fits.contains(&link) && !interim_fit(top, config, options, &links)?
        {
            return Ok(RunOutcome::Interrupted {
                dir: top.to_path_buf(),
                completed_rounds: link * config.tournament.rounds,
            });
        }
    }
    let observer = observer(options);
    let Some(morning) = morning(config, options, &links, observer.as_ref())? else {
        return Ok(RunOutcome::Interrupted {
            dir: top.to_path_buf(),
            completed_rounds: config.chain.links * config.tournament.rounds,
        });
    };
    write_chain_files(top, config, &links, &morning)?;
    let last = links.pop().expect("a chain has links");
    Ok(RunOutcome::Finished(chain_summary(
        top,
        config,
        Some(last),
    )?))
}

/// Starts link `link`, or resumes it when its folder holds a run (a finished one reports so).
fn link_outcome(
    top: &Path,
    config: &Config,
    link: u32,
    options: &RunOptions,
    runs: &Runs,
) -> Result<RunOutcome> {
    let dir = link_dir(top, link);
    if holds_run(&dir) {
        (runs.resume)(&dir, options)
    } else {
        (runs.start)(&link_config(config, top, link)?, &dir, false, options)
    }
}

/// The summary of a finished link.
fn last_summary(outcome: &RunOutcome) -> Option<&RunSummary> {
    match outcome {
        RunOutcome::Finished(s) | RunOutcome::AlreadyFinished(s) => Some(s),
        RunOutcome::Interrupted { .. } => None,
    }
}

/// The chain's summary: its folder and name, the last link's playoff, and the morning's result.
fn chain_summary(top: &Path, config: &Config, last: Option<RunSummary>) -> Result<RunSummary> {
    let last = last.ok_or_else(|| {
        Error::input(format!(
            "{}: the chain's last link has not finished, but {MORNING_RESULT_FILE} says the \
             chain has (was a link folder replaced?)",
            top.display()
        ))
    })?;
    let morning = std::fs::read_to_string(top.join(MORNING_RESULT_FILE))
        .map_err(|e| Error::io("read", &top.join(MORNING_RESULT_FILE), &e))?;
    Ok(RunSummary {
        dir: top.to_path_buf(),
        name: config.name.clone(),
        morning: morning_line(&morning),
        ..last
    })
}

/// What `morning.csv` says, in a line: the fit's games and the gate's result.
fn morning_line(text: &str) -> Option<String> {
    let header: Vec<&str> = text.lines().next()?.split(',').collect();
    let row: Vec<&str> = text.lines().nth(1)?.split(',').collect();
    let get = |name: &str| {
        let at = header.iter().position(|h| *h == name)?;
        row.get(at).copied()
    };
    let fit = format!(
        "the morning fit of {} links ({} games)",
        get("links")?,
        get("games")?
    );
    Some(match get("gate_games")? {
        "0" => format!("{fit} is best.json (no gate)"),
        games => format!(
            "{fit} vs the last link's best: +{} ={} -{} in {games} games, Elo {} ± {}: {}",
            get("wins")?,
            get("draws")?,
            get("losses")?,
            get("elo")?,
            get("elo_95")?,
            match get("accepted")? {
                "true" => "accepted, best.json is the morning fit",
                _ => "refused, best.json is the last link's best",
            }
        ),
    })
}

/// The observer of the chain's own steps.
fn observer(options: &RunOptions) -> Box<dyn RunObserver> {
    let view = RunView {
        total_rounds: 0,
        completed: 0,
        island: None,
        islands_in_this_process: false,
    };
    match &options.observer {
        Some(factory) => (factory.0)(&view),
        None => Box::new(Silent),
    }
}

/// What the morning made: the fit, its gate, and which is `best.json`.
struct Morning {
    fit: WeightsFile,
    games: usize,
    positions: usize,
    gate: Option<MatchReport>,
    accepted: bool,
    champion: WeightsFile,
}

/// The morning fit of every link's games from the last link's best, and its gate against that
/// best; `None` when a stop request came during the gate.
fn morning(
    config: &Config,
    options: &RunOptions,
    links: &[RunSummary],
    observer: &dyn RunObserver,
) -> Result<Option<Morning>> {
    let chain = &config.chain;
    let (champion, dirs) = pooled_links(links)?;
    let settings = morning_settings(config, &champion);
    observer.note(&format!(
        "morning fit: the games of {} links, from the best of link {}",
        links.len(),
        links.len()
    ));
    let pool = worker_pool(options)?;
    let game_settings = run_settings(config, options)?;
    let plain = fit_links(&pool, &dirs, &champion, &settings)?;
    observer.note(&format!(
        "morning fit: {} games, {} positions, held-out loss {:.6} (the start's {:.6})",
        plain.games,
        plain.training_positions + plain.validation_positions,
        plain.fitted.validation.unwrap_or(f64::NAN),
        plain.start.validation.unwrap_or(f64::NAN)
    ));
    let mut fit = morning_file(config, links.len(), &champion, &plain, &settings, None);
    let mut report = plain;
    if chain.label_depth > 0 {
        // A stop asked for during the fit is honoured before the relabel's long search.
        if stop_asked(options) {
            return Ok(None);
        }
        // The plain fit's weights search every position again, and a second fit from them
        // learns those scores: the labels the games' shallow searches could not give.
        observer.note(&format!(
            "morning relabel: every position searched again at depth {}/{} with the morning \
             fit's weights",
            chain.label_depth,
            chain.label_depth + DEEP_LABEL_EXTENSION
        ));
        let relabelled = FitSettings {
            deep_labels: Some(DeepLabels {
                search: LabelSearch::Depth(chain.label_depth),
                database: game_settings.database,
                searched: None,
            }),
            ..settings
        };
        report = fit_links(&pool, &dirs, &fit, &relabelled)?;
        observer.note(&format!(
            "morning relabel: held-out loss {:.6} (the plain fit's, on these labels, {:.6})",
            report.fitted.validation.unwrap_or(f64::NAN),
            report.start.validation.unwrap_or(f64::NAN)
        ));
        fit = morning_file(
            config,
            links.len(),
            &champion,
            &report,
            &settings,
            Some(chain.label_depth),
        );
    }
    let positions = report.training_positions + report.validation_positions;
    if chain.gate_openings == 0 {
        return Ok(Some(Morning {
            fit: fit.clone(),
            games: report.games,
            positions,
            gate: None,
            accepted: true,
            champion: fit,
        }));
    }
    let test = Sprt::with_error_rates(GATE_ELO.0, GATE_ELO.1, GATE_ERRORS.0, GATE_ERRORS.1)?;
    let book = OpeningBook::Random {
        plies: GATE_OPENING_PLIES,
        balance: config.tournament.random_opening_balance,
    };
    let deck = book.distinct(
        chain.gate_openings as usize,
        &mut stream(config.seed, &[tag::CHAIN_GATE]),
    );
    let stop = options.stop.as_deref();
    let gate = pool.install(|| {
        play_match_from(
            MatchPlayer::from(&fit),
            MatchPlayer::from(&champion),
            &deck,
            &game_settings,
            config.seed,
            Some(test),
            &[],
            stop,
            |_| observer.gate_pair(),
        )
    });
    let verdict = gate.sprt.as_ref().map(|s| s.verdict);
    if gate.pairs_played < gate.pairs_total && !verdict.is_some_and(|v| v.is_final()) {
        return Ok(None);
    }
    let accepted = verdict == Some(SprtVerdict::AcceptH1);
    observer.note(&format!(
        "morning gate: the fit vs link {}'s best: {}, {} -> {}",
        links.len(),
        gate.tally.results.line(),
        gate.estimate.summary_line(),
        if accepted { "accepted" } else { "refused" }
    ));
    Ok(Some(Morning {
        champion: if accepted { fit.clone() } else { champion },
        fit,
        games: report.games,
        positions,
        gate: Some(gate),
        accepted,
    }))
}

/// The last of `links`' best, which a fit of their games starts from, and their folders.
fn pooled_links(links: &[RunSummary]) -> Result<(WeightsFile, Vec<PathBuf>)> {
    let last = links.last().expect("a chain has links");
    let champion = WeightsFile::load(&last.dir.join(BEST_FILE))?;
    Ok((champion, links.iter().map(|s| s.dir.clone()).collect()))
}

/// The options of the chain's fits of its links' games (the morning's and the interim ones),
/// from `champion`: the run's own fit options, with the chain's regions, ranks, pull and
/// exchange term.
fn morning_settings(config: &Config, champion: &WeightsFile) -> FitSettings {
    let chain = &config.chain;
    let mut settings = FitSettings {
        score_weight: config.evolution.fit_score_weight,
        endgame_pieces: champion.endgame_pieces,
        opening: config.weights.opening,
        endgame: config.weights.endgame,
        extended: config.weights.extended,
        patterns: config.weights.patterns,
        evaluator: config.weights.evaluator,
        l2_tables: chain.l2_tables,
        exchange: chain.exchange,
        ..FitSettings::default()
    };
    if let Some(regions) = chain.regions {
        settings.patterns.regions = regions;
    }
    if !chain.ranks.is_none() {
        settings.patterns.ranks = chain.ranks;
    }
    settings
}

/// Whether a stop has been asked for (Ctrl-C): the chain honours it before a long step starts.
fn stop_asked(options: &RunOptions) -> bool {
    (options.stop.as_deref()).is_some_and(|stop| stop.load(Ordering::Relaxed))
}

/// The chain's worker threads.
fn worker_pool(options: &RunOptions) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| Error::failure(format!("cannot start the worker threads: {e}")))
}

/// The interim fit after the finished `links` (`chain.interim_fits`): the morning fit's
/// recipe, without its relabel or gate, on their games, from the last one's best, written
/// once to `interim/after-K.json`. `false` when a stop was asked for before it started (the
/// fit itself takes minutes, not a link's time): `resume` fits it then.
fn interim_fit(
    top: &Path,
    config: &Config,
    options: &RunOptions,
    links: &[RunSummary],
) -> Result<bool> {
    let count = links.len() as u32;
    let path = interim_path(top, count);
    if path.is_file() {
        return Ok(true);
    }
    if stop_asked(options) {
        return Ok(false);
    }
    let (champion, dirs) = pooled_links(links)?;
    let settings = morning_settings(config, &champion);
    let report = fit_links(&worker_pool(options)?, &dirs, &champion, &settings)?;
    let positions = report.training_positions + report.validation_positions;
    let data = format!(
        "the interim fit of chain {} after {count} links: {} games, {positions} positions",
        config.name, report.games
    );
    let fit = chain_fit_file(&champion, &report, &settings, data);
    let folder = top.join(INTERIM_DIR);
    std::fs::create_dir_all(&folder).map_err(|e| Error::io("create", &folder, &e))?;
    export_to_file(&fit, ExportFormat::Json, &path)?;
    observer(options).note(&format!(
        "interim fit after link {count}: {} games, {positions} positions, held-out loss {:.6} \
         (the start's {:.6}): {}",
        report.games,
        report.fitted.validation.unwrap_or(f64::NAN),
        report.start.validation.unwrap_or(f64::NAN),
        path.strip_prefix(top).unwrap_or(&path).display()
    ));
    Ok(true)
}

/// A fit of every link's games (`dirs`) from `start`'s weights, on the chain's threads.
fn fit_links(
    pool: &rayon::ThreadPool,
    dirs: &[PathBuf],
    start: &WeightsFile,
    settings: &FitSettings,
) -> Result<FitReport> {
    let mut games = GameStream::open(dirs, Damaged::Refuse)?;
    pool.install(|| {
        fit_games(
            Games::Stream(&mut games),
            &start.weights,
            start.extra.as_ref(),
            start.patterns.as_ref(),
            settings,
            |_, _| {},
        )
    })
}

/// The morning fit's weights file: what it learnt, the last link's best's search values, and
/// where it came from (with the depth of its labels' search when it was relabelled).
fn morning_file(
    config: &Config,
    links: usize,
    champion: &WeightsFile,
    report: &FitReport,
    settings: &FitSettings,
    label_depth: Option<u32>,
) -> WeightsFile {
    let relabelled = label_depth.map_or_else(String::new, |depth| {
        format!(", labels searched at depth {depth}")
    });
    let data = format!(
        "the morning fit of chain {}: {links} links, {} games, {} positions{relabelled}",
        config.name,
        report.games,
        report.training_positions + report.validation_positions
    );
    chain_fit_file(champion, report, settings, data)
}

/// A chain's fit of its links' games as a weights file: what it learnt, the search values of
/// the best it started from, and `data`, where it came from.
fn chain_fit_file(
    champion: &WeightsFile,
    report: &FitReport,
    settings: &FitSettings,
    data: String,
) -> WeightsFile {
    WeightsFile {
        search: champion.search,
        ..report.weights_file(settings.endgame_pieces, champion.database_pieces, data)
    }
}

/// The header of `chain.csv`: one row per link.
pub fn chain_header() -> Vec<&'static str> {
    vec!["link", "seed", "folder", "rounds", "best_id", "best_points"]
}

/// The header of `morning.csv`: the one row of the morning fit and its gate.
pub fn morning_header() -> Vec<&'static str> {
    vec![
        "links",
        "games",
        "positions",
        "gate_games",
        "wins",
        "draws",
        "losses",
        "elo",
        "elo_95",
        "accepted",
        "label_depth",
    ]
}

/// Writes the morning fit, `best.json`, `chain.csv` and, last, `morning.csv` (each whole or
/// not at all): a chain folder with `morning.csv` has finished.
fn write_chain_files(
    top: &Path,
    config: &Config,
    links: &[RunSummary],
    morning: &Morning,
) -> Result<()> {
    export_to_file(&morning.fit, ExportFormat::Json, &top.join(MORNING_FILE))?;
    export_to_file(&morning.champion, ExportFormat::Json, &top.join(BEST_FILE))?;
    let mut chain = csv_line(&chain_header());
    for (index, summary) in links.iter().enumerate() {
        let link = index as u32 + 1;
        let best = summary.best();
        let folder = format!("link-{link}");
        chain.push_str(&csv_line(&[
            link.to_string(),
            (config.seed + u64::from(link - 1)).to_string(),
            folder,
            summary.rounds.to_string(),
            summary
                .champion
                .map_or(best.id, |(id, _, _)| id)
                .to_string(),
            format!("{:.1}", best.half_points as f64 / 2.0),
        ]));
    }
    write_atomically(&top.join(CHAIN_FILE), chain.as_bytes())?;
    let mut row = vec![
        links.len().to_string(),
        morning.games.to_string(),
        morning.positions.to_string(),
    ];
    match &morning.gate {
        Some(gate) => {
            let t = &gate.tally.results;
            row.extend([
                (t.wins + t.draws + t.losses).to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                t.losses.to_string(),
                format!("{:.1}", gate.estimate.elo),
                format!("{:.1}", (gate.estimate.upper - gate.estimate.lower) / 2.0),
            ]);
        }
        None => row.extend(["0", "0", "0", "0", "", ""].map(String::from)),
    }
    row.push(morning.accepted.to_string());
    row.push(config.chain.label_depth.to_string());
    let text = csv_line(&morning_header()) + &csv_line(&row);
    write_atomically(&top.join(MORNING_RESULT_FILE), text.as_bytes())
}
