//! A finished run folder's specimens as weights files: the K-th of its playoff (`export
//! --rank K`, `match RUN`), and the argument every command that takes weights resolves (a run
//! folder, a weights file in any readable format, or `material`).

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::champions::{check_champion_file, kept_per_round, ChampionsIndex};
use super::config_file::{database_pieces_of, holds_run, read_config_table};
use super::csv_table::CsvTable;
use super::names::{
    BEST_FILE, CHAMPIONS_FILE, CHECKPOINT_FILE, CONFIG_FILE, MORNING_RESULT_FILE, PLAYOFF_FILE,
    SPECIMENS_FILE, TABLES_DIR,
};
use crate::tournament::{PatternRanges, Specimen};
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{
    extra_names, ExtraPair, ExtraWeights, KingLayout, PatternTables, PatternWeights, RankLayout,
    RegionLayout, WeightPair, Weights, DEFAULT_ENDGAME_PIECES, EXTRA_COUNT, FEATURE_COUNT,
    FEATURE_NAMES,
};
use checkers_engine::game::SearchParams;
use checkers_engine::search::SelectiveParams;
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// A command-line weights argument for playing, as every command takes it: `material`, a run
/// folder for its best (the champion of a gated run, else the playoff's winner: what `export
/// RUN` writes), or a weights file ([`WeightsFile::load_arg`]); checked playable.
pub fn weights_from_arg(arg: &str) -> Result<WeightsFile> {
    let path = Path::new(arg);
    if arg != "material" && path.is_dir() && holds_run(path) {
        let file = weights_from_run(path, 1)?;
        file.check_playable(arg)?;
        return Ok(file);
    }
    WeightsFile::load_arg(arg)
}

/// The specimen at `rank` (1 = best) of a finished run's playoff: its weights from its last row
/// in `specimens.csv`, the run's name and endgame threshold from `config.toml`.
///
/// A gated run (`[gate]`) ranks its champion first: rank 1 is the last champion a gate
/// accepted (the run's `best.json`), not the playoff's winner. A finished chain (`[chain]`)
/// has its `best.json` alone: its links' folders have the ranks.
pub fn weights_from_run(run_dir: &Path, rank: usize) -> Result<WeightsFile> {
    if run_dir.join(MORNING_RESULT_FILE).is_file() {
        if rank != 1 {
            return Err(Error::input(format!(
                "{}: a chain's folder has one best (its best.json); its links' folders \
                 (link-K) have their playoffs' ranks",
                run_dir.display()
            )));
        }
        return WeightsFile::load(&run_dir.join(BEST_FILE));
    }
    if rank == 1 && run_dir.join(CHAMPIONS_FILE).exists() {
        return champion_until(run_dir, None);
    }
    let playoff = CsvTable::read(&run_dir.join(PLAYOFF_FILE))?;
    let rank_col = playoff.column("rank")?;
    let id_col = playoff.column("id")?;
    let mut ranked = Vec::with_capacity(playoff.rows().len());
    for row in playoff.rows() {
        let r: u64 = playoff.parse(row, &rank_col, "a rank (a positive integer)")?;
        let id: u64 = playoff.parse(row, &id_col, "a specimen id (an integer)")?;
        ranked.push((r, id));
    }
    // Sorting (stably) by the rank column makes --rank K mean "the K-th best" even if the file's
    // rows were reordered or ranks were shared.
    ranked.sort_by_key(|&(r, _)| r);
    if rank == 0 || rank > ranked.len() {
        let exist = match ranked.len() {
            0 => "has no ranks".to_string(),
            1 => "has 1 rank".to_string(),
            n => format!("has {n} ranks (1 to {n})"),
        };
        return Err(Error::Input(format!(
            "--rank {rank} is out of range: {} {exist}",
            playoff.path().display()
        )));
    }
    let id = ranked[rank - 1].1;

    let specimens = CsvTable::read(&run_dir.join(SPECIMENS_FILE))?;
    let round_col = specimens.column("round")?;
    let sid_col = specimens.column("id")?;
    let mut cols = Vec::with_capacity(2 * FEATURE_COUNT);
    for prefix in ["open", "end"] {
        for name in FEATURE_NAMES {
            cols.push(specimens.column(&format!("{prefix}_{name}"))?);
        }
    }
    // A run of the extended evaluator has its further weights' columns too.
    let extended = specimens.column("open_bridge").is_ok();
    let mut extra_cols = Vec::new();
    if extended {
        for prefix in ["open", "end"] {
            for name in extra_names() {
                extra_cols.push(specimens.column(&format!("{prefix}_{name}"))?);
            }
        }
    }
    let mut last = None;
    for row in specimens.rows() {
        let row_id: u64 = specimens.parse(row, &sid_col, "a specimen id (an integer)")?;
        if row_id == id {
            last = Some(row);
        }
    }
    let Some(row) = last else {
        // The final fit joins the playoff without a row of its own (rows are the rounds'
        // survivors); the run's last checkpoint keeps every finalist.
        let pattern_run = specimens.optional("tables").is_some();
        return finalist_from_checkpoint(run_dir, id, pattern_run)?.ok_or_else(|| {
            Error::Input(format!(
                "{}: no row for specimen {id} (rank {rank} in {}), and {} does not hold it",
                specimens.path().display(),
                playoff.path().display(),
                run_dir.join(CHECKPOINT_FILE).display()
            ))
        });
    };
    let round: u32 = specimens.parse(row, &round_col, "a round number")?;
    let mut sets = [Weights::default(); 2];
    for (w, set_cols) in sets.iter_mut().zip(cols.chunks(FEATURE_COUNT)) {
        for (value, col) in w.0.iter_mut().zip(set_cols) {
            *value = specimens.parse(row, col, "an integer weight")?;
        }
    }
    let pair = WeightPair {
        opening: sets[0],
        endgame: sets[1],
    };
    let mut extra = None;
    if extended {
        let mut phases = Vec::with_capacity(2);
        for set_cols in extra_cols.chunks(EXTRA_COUNT) {
            let mut values = Vec::with_capacity(EXTRA_COUNT);
            for col in set_cols {
                values.push(specimens.parse(row, col, "an integer weight")?);
            }
            phases.push(ExtraWeights::from_slice(&values).expect("one value per column"));
        }
        extra = Some(ExtraPair {
            opening: phases[0],
            endgame: phases[1],
        });
    }

    // A pattern run's specimen names the fitted specimen whose tables it carries; the tables
    // are kept once, in the run's tables folder (empty: none, zero tables).
    let mut patterns = None;
    if let Some(tables_col) = specimens.optional("tables") {
        let raw = tables_col.raw(row);
        if raw.is_empty() {
            // No fit's tables reached this specimen: its tables are zero.
            patterns = Some(Arc::new(PatternWeights::zero(run_table_shape(run_dir)?)));
        } else {
            let owner: u64 = specimens.parse(row, &tables_col, "a specimen id (an integer)")?;
            let path = run_dir
                .join(TABLES_DIR)
                .join(format!("specimen-{owner}.json"));
            let file = WeightsFile::load(&path)?;
            patterns = Some(file.patterns.ok_or_else(|| {
                Error::Input(format!("{}: holds no pattern tables", path.display()))
            })?);
        }
    }
    let (run, endgame_pieces, database_pieces, search) = read_run_config(run_dir)?;
    let own = row_search(&specimens, row, &search)?;
    Ok(WeightsFile {
        weights: pair,
        extra,
        patterns,
        endgame_pieces,
        source: Some(WeightsSource::Specimen { run, id, round }),
        database_pieces: Some(database_pieces),
        search: table_of(&search, own),
    })
}

/// The `search` table of a run's weights files ([`SearchParams::run_table`]) for a specimen
/// whose own search is `own` (its genes' values; `None`: the run's).
fn table_of(search: &SearchParams, own: Option<SelectiveParams>) -> Option<SearchParams> {
    search.run_table().map(|table| table.with_selective(own))
}

/// A specimen's own search from its row of `specimens.csv`: the run's `[search]` with the
/// values of its genes' columns (`search_<key>`); `None` in a run without genes.
fn row_search(
    specimens: &CsvTable,
    row: &csv::StringRecord,
    search: &SearchParams,
) -> Result<Option<SelectiveParams>> {
    let genes = search.genes.opened();
    if genes.is_empty() {
        return Ok(None);
    }
    let mut own = search.selective().unwrap_or_default();
    for gene in genes {
        let column = specimens.column(&gene.column())?;
        let value: u32 = specimens.parse(row, &column, "a search gene's value (a whole number)")?;
        let range = gene.range;
        if !(i64::from(range.min)..=i64::from(range.max)).contains(&value.into()) {
            return Err(Error::Input(format!(
                "{}: `{}` = {value} is outside the run's range {}..={} (`search.genes.{}`)",
                specimens.path().display(),
                gene.column(),
                range.min,
                range.max,
                gene.key()
            )));
        }
        gene.set(&mut own, value);
    }
    Ok(Some(own))
}

/// The finalist `id` of a finished run as its last checkpoint keeps it (`None` when the
/// checkpoint has no such finalist), its pattern weights from the run's tables folder.
fn finalist_from_checkpoint(
    run_dir: &Path,
    id: u64,
    pattern_run: bool,
) -> Result<Option<WeightsFile>> {
    #[derive(Deserialize)]
    struct Finalist {
        specimen: Specimen,
    }
    #[derive(Deserialize)]
    struct Finalists {
        completed_rounds: u32,
        population: Vec<Finalist>,
    }
    let path = run_dir.join(CHECKPOINT_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let finalists: Finalists = serde_json::from_str(&text)
        .map_err(|e| Error::Input(format!("{}: not a run's checkpoint ({e})", path.display())))?;
    let Some(specimen) = finalists
        .population
        .into_iter()
        .map(|f| f.specimen)
        .find(|s| s.id == id)
    else {
        return Ok(None);
    };
    let patterns = match (pattern_run, specimen.tables) {
        (false, _) => None,
        (true, None) => Some(Arc::new(PatternWeights::zero(run_table_shape(run_dir)?))),
        (true, Some(owner)) => {
            let path = run_dir
                .join(TABLES_DIR)
                .join(format!("specimen-{owner}.json"));
            let file = WeightsFile::load(&path)?;
            Some(file.patterns.ok_or_else(|| {
                Error::Input(format!("{}: holds no pattern tables", path.display()))
            })?)
        }
    };
    let (run, endgame_pieces, database_pieces, search) = read_run_config(run_dir)?;
    Ok(Some(WeightsFile {
        weights: specimen.weights,
        extra: specimen.extra.map(|e| *e),
        patterns,
        endgame_pieces,
        source: Some(WeightsSource::Specimen {
            run,
            id,
            round: finalists.completed_rounds,
        }),
        database_pieces: Some(database_pieces),
        search: table_of(&search, specimen.search),
    }))
}

/// The run's `name`, `[search] endgame_pieces` (default 12), `[search] database_pieces`
/// (default 5) and `[search]` itself (its genes included) from its resolved config.
fn read_run_config(run_dir: &Path) -> Result<(String, u32, u32, SearchParams)> {
    let path = run_dir.join(CONFIG_FILE);
    let bad = |msg: &str| Error::Input(format!("{}: {msg}", path.display()));
    let table = read_config_table(run_dir)?
        .ok_or_else(|| bad("file not found (is this a finished run folder?)"))?;
    let name = match table.get("name") {
        Some(toml::Value::String(s)) => s.clone(),
        Some(_) => return Err(bad("`name` must be a string")),
        None => return Err(bad("missing key `name`")),
    };
    let pieces = match table.get("search").and_then(|s| s.get("endgame_pieces")) {
        None => DEFAULT_ENDGAME_PIECES,
        Some(toml::Value::Integer(n)) if (0..=24).contains(n) => *n as u32,
        Some(_) => {
            return Err(bad(
                "`search.endgame_pieces` must be an integer from 0 to 24",
            ))
        }
    };
    let database = database_pieces_of(&table).map_err(|msg| bad(&msg))?;
    let search = match table.get("search") {
        None => SearchParams::default(),
        Some(value) => SearchParams::deserialize(value.clone())
            .map_err(|e| bad(&format!("`search`: {}", e.message().trim_end())))?,
    };
    Ok((name, pieces, database, search))
}

/// Zero tables in the shape of a pattern run's, from its resolved config (`[weights.patterns]
/// regions`, default bands and strips, `kings`, default none, and `ranks`, default none).
fn run_table_shape(run_dir: &Path) -> Result<PatternTables> {
    let path = run_dir.join(CONFIG_FILE);
    let table = read_config_table(run_dir)?.unwrap_or_default();
    let patterns = table.get("weights").and_then(|w| w.get("patterns"));
    let layout = |key: &str| -> Result<Option<&str>> {
        match patterns.and_then(|p| p.get(key)) {
            None => Ok(None),
            Some(v) => v.as_str().map(Some).ok_or_else(|| {
                Error::Input(format!(
                    "{}: `weights.patterns.{key}` is not a layout name",
                    path.display()
                ))
            }),
        }
    };
    let unknown = |key: &str| {
        Error::Input(format!(
            "{}: `weights.patterns.{key}` is not a layout this version knows",
            path.display()
        ))
    };
    let regions = match layout("regions")? {
        None => RegionLayout::default(),
        Some(name) => RegionLayout::from_name(name).ok_or_else(|| unknown("regions"))?,
    };
    let kings = match layout("kings")? {
        None => KingLayout::default(),
        Some(name) => KingLayout::from_name(name).ok_or_else(|| unknown("kings"))?,
    };
    let ranks = match layout("ranks")? {
        None => RankLayout::default(),
        Some(name) => RankLayout::from_name(name).ok_or_else(|| unknown("ranks"))?,
    };
    let ranges = PatternRanges {
        regions,
        kings,
        ranks,
        ..PatternRanges::DEFAULT
    };
    Ok(ranges.table_shape())
}

/// The champion of a gated run (`[gate]`) as it stood after round `round`: the last one a gate
/// accepted at or before it, as the run's `champions.csv` records it, from its file in the
/// run's `champions/` folder once that is known to be the specimen's. A round past the rounds
/// the run completed, a run without a gate, or one whose gates crowned no champion by then is
/// bad input saying how far the run got.
pub fn champion_from_run(run_dir: &Path, round: u32) -> Result<WeightsFile> {
    champion_until(run_dir, Some(round))
}

/// The champion after `round`, or the latest (`None`: what `best.json` holds).
fn champion_until(run_dir: &Path, round: Option<u32>) -> Result<WeightsFile> {
    let flag = round.map_or(String::new(), |r| format!("--round {r}: "));
    let dir = run_dir.display();
    let Some(config) = read_config_table(run_dir)? else {
        return Err(Error::input(format!(
            "{flag}{dir} is not a run folder (it has no {CONFIG_FILE})"
        )));
    };
    let gated = config
        .get("gate")
        .and_then(|g| g.get("candidates"))
        .and_then(|c| c.as_str())
        .is_some_and(|c| c != "none");
    if !gated {
        return Err(Error::input(format!(
            "{flag}{dir} is a run without a `[gate]`, which keeps no champion per round \
             (`export {dir}` takes its playoff's best, `--rank K` the K-th)"
        )));
    }
    let name = config.get("name").and_then(|n| n.as_str()).unwrap_or("");
    let rounds = config
        .get("tournament")
        .and_then(|t| t.get("rounds"))
        .and_then(|r| r.as_integer())
        .unwrap_or(0);
    let done = completed_rounds(run_dir)?;
    if let Some(r) = round {
        if r == 0 {
            return Err(Error::input(format!(
                "{flag}{dir} has no champion yet after round 0: rounds are counted from 1"
            )));
        }
        if r > done {
            let got = match done {
                0 => "has completed no round yet".to_string(),
                n => format!("got to round {n} of its {rounds} (ask for a round from 1 to {n})"),
            };
            return Err(Error::input(format!("{flag}{dir} {got}")));
        }
    }
    let upto = round.unwrap_or(done);
    let index = ChampionsIndex::read(run_dir)?;
    let kept = kept_per_round(&index.crowned()?);
    let Some(crowned) = kept.iter().rev().find(|c| c.since <= upto) else {
        let first = match kept.first().filter(|c| c.since <= done) {
            Some(c) => format!("its first champion was accepted after round {}", c.since),
            None => format!("no gate has accepted one in the {done} round(s) it completed"),
        };
        return Err(Error::input(format!(
            "{flag}{dir} has no champion after round {upto}: {first} ({} lists its gates)",
            index.path.display()
        )));
    };
    check_champion_file(run_dir, &index.path, name, crowned)
}

/// The rounds the run in `run_dir` completed, as its checkpoint says (0 without one).
fn completed_rounds(run_dir: &Path) -> Result<u32> {
    #[derive(Deserialize)]
    struct Progress {
        completed_rounds: u32,
    }
    let path = run_dir.join(CHECKPOINT_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(0);
    };
    let progress: Progress = serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{}: not a run's checkpoint ({e})", path.display())))?;
    Ok(progress.completed_rounds)
}

/// The `export` argument: a run folder (the specimen at `rank`), a weights file in any readable
/// format, or the literal `material`.
pub fn resolve_export_source(arg: &Path, rank: usize) -> Result<WeightsFile> {
    if arg.as_os_str() == "material" {
        return Ok(WeightsFile::material());
    }
    if arg.is_dir() {
        return weights_from_run(arg, rank);
    }
    if !arg.exists() {
        return Err(Error::Input(format!(
            "{}: no such run folder or weights file (or use `material`)",
            arg.display()
        )));
    }
    if rank != 1 {
        return Err(Error::Input(format!(
            "--rank {rank} only applies to a run folder, and {} is a file",
            arg.display()
        )));
    }
    WeightsFile::load_any(arg)
}
