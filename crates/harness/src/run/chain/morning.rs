//! A chain's fits of its links' games: the morning fit (relabelled when asked) and its gate
//! against the last link's best, and the interim fits after chosen links.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::elo::{Sprt, SprtVerdict};
use crate::export::{export_to_file, ExportFormat};
use crate::fit::{
    fit_games, Damaged, DeepLabels, FitReport, FitSettings, GameStream, Games, LabelSearch,
    DEEP_LABEL_EXTENSION,
};
use crate::matchplay::{play_match_from, MatchPlayer, MatchReport};
use crate::run::config::Config;
use crate::run::observer::{RunObserver, RunView, Silent};
use crate::run::options::RunOptions;
use crate::run::process::run_settings;
use crate::run::summary::RunSummary;
use crate::run_folder::{interim_path, BEST_FILE, INTERIM_DIR};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{Opening, OpeningBook};
use checkers_engine::rng::{stream, tag};
use checkers_engine::weights_file::WeightsFile;

/// The morning gate's SPRT: the morning fit replaces the last link's best only when it is
/// better (H0: +0 Elo, H1: +15, the bounds a night's gates use, α 5%, β 10%).
const GATE_ELO: (f64, f64) = (0.0, 15.0);
/// See [`GATE_ELO`].
const GATE_ERRORS: (f64, f64) = (0.05, 0.10);
/// Random plies of each morning gate opening: the bracket's, never the 3-move deck.
const GATE_OPENING_PLIES: u32 = 8;

/// The observer of the chain's own steps.
pub(super) fn observer(options: &RunOptions) -> Box<dyn RunObserver> {
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
pub(super) struct Morning {
    pub(super) fit: WeightsFile,
    pub(super) games: usize,
    pub(super) positions: usize,
    pub(super) gate: Option<MatchReport>,
    pub(super) accepted: bool,
    pub(super) champion: WeightsFile,
}

/// The morning fit of every link's games from the last link's best, and its gate against that
/// best; `None` when a stop request came during the gate.
pub(super) fn morning(
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
    let deck = gate_deck(config, chain.gate_openings, &[tag::CHAIN_GATE]);
    let Some((gate, accepted)) = gate(&pool, &fit, &champion, &deck, config, options, observer)?
    else {
        return Ok(None);
    };
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

/// `count` distinct openings of 8 random plies for a gate, drawn from the chain's seed and
/// `key` (never the 3-move deck, which stays the judge).
pub(super) fn gate_deck(config: &Config, count: u32, key: &[u64]) -> Vec<Opening> {
    let book = OpeningBook::Random {
        plies: GATE_OPENING_PLIES,
        balance: config.tournament.random_opening_balance,
    };
    book.distinct(count as usize, &mut stream(config.seed, key))
}

/// Plays `fit` against `champion` over both colours of `deck` at the run's settings until an
/// SPRT of +0 against +15 Elo decides: the gate's games and whether it accepted `fit` (the
/// openings running out first refuse it); `None` when a stop came first.
pub(super) fn gate(
    pool: &rayon::ThreadPool,
    fit: &WeightsFile,
    champion: &WeightsFile,
    deck: &[Opening],
    config: &Config,
    options: &RunOptions,
    observer: &dyn RunObserver,
) -> Result<Option<(MatchReport, bool)>> {
    let test = Sprt::with_error_rates(GATE_ELO.0, GATE_ELO.1, GATE_ERRORS.0, GATE_ERRORS.1)?;
    let game_settings = run_settings(config, options)?;
    let stop = options.stop.as_deref();
    let gate = pool.install(|| {
        play_match_from(
            MatchPlayer::from(fit),
            MatchPlayer::from(champion),
            deck,
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
    Ok(Some((gate, accepted)))
}

/// A gate's columns of `morning.csv` and `data.csv`: its games, wins, draws and losses, its Elo
/// and the 95% interval's half-width; zeros and blanks where no gate was played.
pub(super) fn gate_fields(gate: Option<&MatchReport>) -> [String; 6] {
    match gate {
        Some(gate) => {
            let t = &gate.tally.results;
            [
                (t.wins + t.draws + t.losses).to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                t.losses.to_string(),
                format!("{:.1}", gate.estimate.elo),
                format!("{:.1}", (gate.estimate.upper - gate.estimate.lower) / 2.0),
            ]
        }
        None => ["0", "0", "0", "0", "", ""].map(String::from),
    }
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
pub(super) fn morning_settings(config: &Config, champion: &WeightsFile) -> FitSettings {
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
pub(super) fn stop_asked(options: &RunOptions) -> bool {
    (options.stop.as_deref()).is_some_and(|stop| stop.load(Ordering::Relaxed))
}

/// The chain's worker threads.
pub(super) fn worker_pool(options: &RunOptions) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| Error::failure(format!("cannot start the worker threads: {e}")))
}

/// The interim fit after the finished `links` (`chain.interim_fits`): the morning fit's
/// recipe, without its relabel or gate, on their games, from the last one's best, written
/// once to `interim/after-K.json`. `false` when a stop was asked for before it started (the
/// fit itself takes minutes, not a link's time): `resume` fits it then.
pub(super) fn interim_fit(
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
pub(super) fn fit_links(
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
pub(super) fn chain_fit_file(
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
