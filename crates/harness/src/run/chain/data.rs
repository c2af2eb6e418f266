//! A chain's data night (`[chain] data_doublings`, docs/chain.md): after the morning, the
//! champion generates data (`datagen` games of the selective search at a small node budget)
//! and a fit of all the data so far, gated against it, may replace it, once per doubling of
//! the data.
//!
//! Why: the pooled fit of one population's self-play stops improving at about seven million
//! positions, and games of the champion at a few thousand nodes a move cost far less than
//! tournament games; so a night grows the data rather than the links, and the gate keeps the
//! champion from ever getting worse.
//!
//! Files: each doubling's data set in `data/doubling-K/` (continued after a stop or a kill as
//! `datagen` continues one), its fit `data/fit-K.json`, the champion after it
//! `data/champion-K.json`, and `data.csv`, rewritten whole after each doubling: a doubling is
//! done when its row is there. Everything is a function of the config, so a resumed night
//! writes the same bytes as one never stopped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rand::RngCore;

use super::morning::{
    chain_fit_file, fit_links, gate, gate_deck, gate_fields, morning_settings, observer,
    stop_asked, worker_pool,
};
use crate::datagen::{DatagenConfig, DatagenRun, Shard};
use crate::export::{export_to_file, ExportFormat};
use crate::matchplay::MatchReport;
use crate::run::config::Config;
use crate::run::options::RunOptions;
use crate::run::process::run_settings;
use crate::run::summary::RunSummary;
use crate::run_folder::{
    data_champion_path, data_fit_path, data_set_dir, BEST_FILE, DATA_DIR, DATA_RESULT_FILE,
};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::rng::{stream, tag};
use checkers_engine::text::csv_line;
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// Random plies of the data night's openings: the tournaments' `random:8`.
const DATA_BOOK_PLIES: u32 = 8;

/// The header of `data.csv`: a row per doubling.
pub fn data_header() -> Vec<&'static str> {
    vec![
        "doubling",
        "games",
        "data_games",
        "positions",
        "gate_games",
        "wins",
        "draws",
        "losses",
        "elo",
        "elo_95",
        "accepted",
    ]
}

/// The rows of `data.csv` in `top` (its doublings done so far, in order), each a line without
/// its end; none when it is not there. A file that is not ours is one error naming it.
pub(super) fn data_rows(top: &Path) -> Result<Vec<String>> {
    let path = top.join(DATA_RESULT_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &path, &e)),
    };
    let mut lines = text.lines();
    let header = data_header().join(",");
    let header_found = lines.next() == Some(header.as_str());
    let rows: Vec<String> = lines.map(String::from).collect();
    let numbered = rows.iter().enumerate().all(|(k, row)| {
        let fields: Vec<&str> = row.split(',').collect();
        fields.len() == data_header().len()
            && fields[0] == (k + 1).to_string()
            && matches!(fields[fields.len() - 1], "true" | "false")
    });
    if !header_found || !numbered {
        return Err(Error::input(format!(
            "{}: not the data night's rows (`{header}`, doublings 1, 2, … in order); put the \
             file back, or run the chain again into a new folder",
            path.display()
        )));
    }
    Ok(rows)
}

/// Whether the chain in `top` has played every doubling of its data night.
pub(super) fn data_night_finished(top: &Path, config: &Config) -> Result<bool> {
    Ok(data_rows(top)?.len() >= config.chain.data_doublings as usize)
}

/// What the data night made: its doublings' rows and its champion.
pub(super) struct DataNight {
    /// Doublings whose fit the gate accepted.
    pub(super) accepted: u32,
    /// Games of all the doublings.
    pub(super) games: u64,
}

/// Plays the data night of the chain in `top` from `start` (the morning's champion), every
/// doubling not yet done; `None` when a stop came first (`resume` goes on). Ends by writing
/// the last champion as `best.json`, then the last row of `data.csv`.
pub(super) fn data_night(
    top: &Path,
    config: &Config,
    options: &RunOptions,
    links: &[RunSummary],
    start: &WeightsFile,
) -> Result<Option<DataNight>> {
    let chain = &config.chain;
    let folder = top.join(DATA_DIR);
    std::fs::create_dir_all(&folder).map_err(|e| Error::io("create", &folder, &e))?;
    let first = data_champion_path(top, 0);
    if !first.is_file() {
        export_to_file(start, ExportFormat::Json, &first)?;
    }
    let mut rows = data_rows(top)?;
    let observer = observer(options);
    let pool = worker_pool(options)?;
    let database = run_settings(config, options)?.database;
    for doubling in rows.len() as u32 + 1..=chain.data_doublings {
        let champion = WeightsFile::load(&data_champion_path(top, doubling - 1))?;
        let games = chain.data_games_of(doubling);
        let data_config = DatagenConfig {
            name: format!("{}-doubling-{doubling}", config.name),
            weights: format!("../champion-{}.json", doubling - 1),
            opponents: Vec::new(),
            games,
            batch: 64,
            // A TOML integer is signed: 63 bits of the doubling's stream.
            seed: stream(config.seed, &[tag::DATA_NIGHT, u64::from(doubling)]).next_u64() >> 1,
            nodes: chain.data_nodes.clone(),
            book_plies: DATA_BOOK_PLIES,
            book_balance: config.tournament.random_opening_balance,
            database_pieces: config.search.database_pieces,
            max_plies: config.tournament.max_plies,
            no_progress_plies: config.tournament.no_progress_plies,
        };
        if stop_asked(options) {
            return Ok(None);
        }
        observer.note(&format!(
            "data night, doubling {doubling} of {}: {games} games of the champion at {:?} \
             nodes a move",
            chain.data_doublings, chain.data_nodes
        ));
        let run = DatagenRun::new(&data_config, &champion, &[], database);
        let stop = AtomicBool::new(false);
        let began = std::time::Instant::now();
        let mut told = 0;
        let mut on_block = |progress: &crate::datagen::DatagenProgress| {
            if stop_asked(options) {
                stop.store(true, Ordering::SeqCst);
            }
            // A line at each tenth of the doubling's games: its pace and the time left.
            let tenth = progress.games * 10 / progress.planned.max(1);
            if tenth > told && progress.games < progress.planned {
                told = tenth;
                let played = (progress.games - progress.continued_from) as f64;
                let rate = played / began.elapsed().as_secs_f64().max(1e-3);
                let left = (progress.planned - progress.games) as f64 / rate.max(1e-9);
                observer.note(&format!(
                    "data night, doubling {doubling}: {} of {} games, {} unique quiet \
                     positions, {rate:.1} games/s, about {} min left",
                    progress.games,
                    progress.planned,
                    progress.positions,
                    (left / 60.0).ceil()
                ));
            }
        };
        let outcome = pool.install(|| {
            run.run(
                &data_set_dir(top, doubling),
                Shard::WHOLE,
                &stop,
                &mut on_block,
            )
        })?;
        if outcome.stopped || stop_hook(options) == Some(doubling) {
            return Ok(None);
        }
        observer.note(&format!(
            "data night, doubling {doubling}: {} unique quiet positions in its {games} games",
            outcome.progress.positions
        ));
        let fit_path = data_fit_path(top, doubling);
        let fit = if fit_path.is_file() {
            WeightsFile::load(&fit_path)?
        } else {
            let fit = fit_doublings(top, config, options, links, &champion, doubling)?;
            export_to_file(&fit, ExportFormat::Json, &fit_path)?;
            fit
        };
        if stop_asked(options) {
            return Ok(None);
        }
        let (report, accepted) = if chain.gate_openings == 0 {
            (None, true)
        } else {
            let deck = gate_deck(
                config,
                chain.gate_openings,
                &[tag::DATA_NIGHT_GATE, u64::from(doubling)],
            );
            let played = gate(
                &pool,
                &fit,
                &champion,
                &deck,
                config,
                options,
                observer.as_ref(),
            )?;
            let Some((report, accepted)) = played else {
                return Ok(None);
            };
            (Some(report), accepted)
        };
        let next = if accepted { &fit } else { &champion };
        observer.note(&format!(
            "data night, doubling {doubling}: the fit of all the data so far vs the champion: \
             {} -> {}",
            report.as_ref().map_or_else(
                || "no gate".to_string(),
                |r| format!("{}, {}", r.tally.results.line(), r.estimate.summary_line())
            ),
            if accepted { "accepted" } else { "refused" }
        ));
        export_to_file(next, ExportFormat::Json, &data_champion_path(top, doubling))?;
        if doubling == chain.data_doublings {
            export_to_file(next, ExportFormat::Json, &top.join(BEST_FILE))?;
        }
        rows.push(data_row(
            doubling,
            games,
            (1..=doubling).map(|k| chain.data_games_of(k)).sum(),
            &fit,
            report.as_ref(),
            accepted,
        ));
        let mut text = csv_line(&data_header());
        for row in &rows {
            text.push_str(row);
            text.push('\n');
        }
        write_atomically(&top.join(DATA_RESULT_FILE), text.as_bytes())?;
    }
    Ok(Some(data_summary(top, config)?))
}

/// The night's totals read back from `data.csv`.
pub(super) fn data_summary(top: &Path, config: &Config) -> Result<DataNight> {
    let rows = data_rows(top)?;
    let accepted = rows
        .iter()
        .filter(|row| row.rsplit(',').next() == Some("true"))
        .count() as u32;
    let games = (1..=config.chain.data_doublings)
        .map(|k| config.chain.data_games_of(k))
        .sum();
    Ok(DataNight { accepted, games })
}

/// The fit of doublings 1 to `doubling`'s data (and the links' games, with
/// `data_with_links`) from `champion`: the morning fit's recipe, each quiet position once.
fn fit_doublings(
    top: &Path,
    config: &Config,
    options: &RunOptions,
    links: &[RunSummary],
    champion: &WeightsFile,
    doubling: u32,
) -> Result<WeightsFile> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if config.chain.data_with_links {
        dirs.extend(links.iter().map(|s| s.dir.clone()));
    }
    dirs.extend((1..=doubling).map(|k| data_set_dir(top, k)));
    let settings = crate::fit::FitSettings {
        unique: true,
        first_ply: DATA_BOOK_PLIES,
        ..morning_settings(config, champion)
    };
    let report = fit_links(&worker_pool(options)?, &dirs, champion, &settings)?;
    let positions = report.training_positions + report.validation_positions;
    observer(options).note(&format!(
        "data night, doubling {doubling}: a fit of {} games, {positions} positions, held-out \
         loss {:.6} (the champion's {:.6})",
        report.games,
        report.fitted.validation.unwrap_or(f64::NAN),
        report.start.validation.unwrap_or(f64::NAN)
    ));
    let data = format!(
        "the data night of chain {} after doubling {doubling}: {} games, {positions} positions",
        config.name, report.games
    );
    Ok(chain_fit_file(champion, &report, &settings, data))
}

/// A row of `data.csv`.
fn data_row(
    doubling: u32,
    games: u64,
    data_games: u64,
    fit: &WeightsFile,
    gate: Option<&MatchReport>,
    accepted: bool,
) -> String {
    let positions = positions_of(fit);
    let mut row = vec![
        doubling.to_string(),
        games.to_string(),
        data_games.to_string(),
        positions,
    ];
    row.extend(gate_fields(gate));
    row.push(accepted.to_string());
    csv_line(&row).trim_end().to_string()
}

/// The positions a data night's fit learnt from, as its weights file says (`… positions`).
fn positions_of(fit: &WeightsFile) -> String {
    let Some(WeightsSource::Fit { data }) = &fit.source else {
        return String::new();
    };
    data.rsplit(", ")
        .next()
        .and_then(|tail| tail.strip_suffix(" positions"))
        .unwrap_or("")
        .to_string()
}

/// The test builds' hook that stops the data night once this doubling's games are played,
/// before its fit.
fn stop_hook(options: &RunOptions) -> Option<u32> {
    #[cfg(feature = "crash-hooks")]
    {
        options.hooks.stop_in_doubling
    }
    #[cfg(not(feature = "crash-hooks"))]
    {
        let _ = options;
        None
    }
}
