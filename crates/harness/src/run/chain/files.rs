//! A chain's own files, written once at the end: the morning fit, `best.json`, `chain.csv`
//! and, last, `morning.csv`, which marks a finished chain; and the chain's summary read back
//! from them.

use std::path::Path;

use super::data::{data_rows, data_summary};
use super::morning::{gate_fields, Morning};
use crate::export::{export_to_file, ExportFormat};
use crate::run::checkpoint::Checkpoint;
use crate::run::config::Config;
use crate::run::summary::RunSummary;
use crate::run_folder::{
    data_champion_path, link_dir, BEST_FILE, CHAIN_FILE, DATA_RESULT_FILE, MORNING_FILE,
    MORNING_RESULT_FILE,
};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, Links};
use checkers_engine::text::csv_line;
use checkers_engine::weights_file::WeightsFile;

/// Checks what a finished chain is made of before `resume` reports it finished: every link a
/// finished run, `chain.csv` with a row a link, `morning.csv` one row of the morning's
/// figures, and `morning.json` and `best.json` weights files. A file missing or damaged is
/// one error naming it (exit status 2): nothing is reported of a chain that is not whole.
pub(super) fn check_finished_chain(top: &Path, config: &Config) -> Result<()> {
    let links = config.chain.links;
    let damaged = |file: &str, problem: &str| {
        Error::input(format!(
            "{}: {problem}; the chain's files are written at its end ({MORNING_RESULT_FILE} \
             last, which marks it finished): put the file back, or run the chain again into a \
             new folder",
            top.join(file).display()
        ))
    };
    for link in 1..=links {
        let dir = link_dir(top, link);
        let finished = Checkpoint::load(&dir)
            .map_err(|e| {
                damaged(
                    MORNING_RESULT_FILE,
                    &format!("says the chain finished, but {e}"),
                )
            })?
            .is_some_and(|c| c.playoff.is_some());
        if !finished {
            return Err(damaged(
                MORNING_RESULT_FILE,
                &format!(
                    "says the chain finished, but link {link} of {links} ({}) holds no finished \
                     run",
                    dir.display()
                ),
            ));
        }
    }
    let read = |file: &str| -> Result<String> {
        let path = top.join(file);
        let bytes = input_file::read_existing(&path, Links::Refuse, Some(input_file::CONFIG_CAP))
            .map_err(|e| damaged(file, &e.to_string()))?
            .ok_or_else(|| damaged(file, "is gone"))?;
        String::from_utf8(bytes).map_err(|_| damaged(file, "is not UTF-8 text"))
    };
    let morning = read(MORNING_RESULT_FILE)?;
    let row = table_rows(&morning, &morning_header())
        .map_err(|problem| damaged(MORNING_RESULT_FILE, &problem))?;
    let [row] = &row[..] else {
        return Err(damaged(
            MORNING_RESULT_FILE,
            &format!("holds {} rows, not the one of the morning fit", row.len()),
        ));
    };
    if row[0] != links.to_string() || morning_line(&morning).is_none() {
        return Err(damaged(
            MORNING_RESULT_FILE,
            &format!("is not the morning of this chain's {links} links"),
        ));
    }
    let chain = read(CHAIN_FILE)?;
    let rows =
        table_rows(&chain, &chain_header()).map_err(|problem| damaged(CHAIN_FILE, &problem))?;
    let numbered = rows
        .iter()
        .enumerate()
        .all(|(k, row)| row[0] == (k + 1).to_string());
    if rows.len() != links as usize || !numbered {
        return Err(damaged(
            CHAIN_FILE,
            &format!("does not hold the rows of links 1 to {links}"),
        ));
    }
    if config.chain.data_doublings > 0 {
        let rows = data_rows(top)?;
        let doublings = config.chain.data_doublings;
        if rows.len() != doublings as usize {
            return Err(damaged(
                DATA_RESULT_FILE,
                &format!("does not hold the rows of doublings 1 to {doublings}"),
            ));
        }
        let last = data_champion_path(top, doublings);
        WeightsFile::load(&last).map_err(|e| {
            Error::input(format!(
                "{e}; the data night's champion after its last doubling is best.json: put the \
                 file back, or run the chain again into a new folder"
            ))
        })?;
    }
    for file in [MORNING_FILE, BEST_FILE] {
        let path = top.join(file);
        if std::fs::symlink_metadata(&path).is_err() {
            return Err(damaged(file, "is gone"));
        }
        WeightsFile::load(&path).map_err(|e| damaged(file, &format!("not a weights file: {e}")))?;
    }
    Ok(())
}

/// The rows of a CSV `text` of our writing under `header`, each with its fields; a problem in
/// words.
fn table_rows<'t>(
    text: &'t str,
    header: &[&str],
) -> std::result::Result<Vec<Vec<&'t str>>, String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    if first.split(',').ne(header.iter().copied()) {
        return Err(format!("its header is not `{}`", header.join(",")));
    }
    lines
        .enumerate()
        .map(|(k, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() == header.len() {
                Ok(fields)
            } else {
                Err(format!(
                    "line {} has {} fields, not {}",
                    k + 2,
                    fields.len(),
                    header.len()
                ))
            }
        })
        .collect()
}

/// The chain's summary: its folder and name, the last link's playoff, and the morning's result.
pub(super) fn chain_summary(
    top: &Path,
    config: &Config,
    last: Option<RunSummary>,
) -> Result<RunSummary> {
    let last = last.ok_or_else(|| {
        Error::input(format!(
            "{}: the chain's last link has not finished, but {MORNING_RESULT_FILE} says the \
             chain has (was a link folder replaced?)",
            top.display()
        ))
    })?;
    let morning = std::fs::read_to_string(top.join(MORNING_RESULT_FILE))
        .map_err(|e| Error::io("read", &top.join(MORNING_RESULT_FILE), &e))?;
    let mut line = morning_line(&morning);
    if config.chain.data_doublings > 0 {
        let night = data_summary(top, config)?;
        line = line.map(|morning| {
            format!(
                "{morning}; then the data night: {} doublings, {} games, {} of their fits \
                 accepted, best.json is the champion after the last (data.csv has every gate)",
                config.chain.data_doublings, night.games, night.accepted
            )
        });
    }
    Ok(RunSummary {
        dir: top.to_path_buf(),
        name: config.name.clone(),
        morning: line,
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
pub(super) fn write_chain_files(
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
    row.extend(gate_fields(morning.gate.as_ref()));
    row.push(morning.accepted.to_string());
    row.push(config.chain.label_depth.to_string());
    let text = csv_line(&morning_header()) + &csv_line(&row);
    write_atomically(&top.join(MORNING_RESULT_FILE), text.as_bytes())
}
