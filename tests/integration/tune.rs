//! The main job end to end: `tune` and `resume` on tiny configs, through the binary.
//!
//! Determinism (thread counts, stops, crashes, kills), the tournament's invariants read back
//! from the CSV files of real runs, refusing an existing run, and bad configs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, tune, tune_stopped_after, write_file};
use checkers_engine::board::Color;
use checkers_engine::eval::feature_index;
use checkers_engine::game::{read_pdn, GameResult, SearchMode};
use checkers_engine::search::SelectiveParams;
use checkers_engine::weights_file::{WeightsFile, WeightsSource};
use checkers_harness::run_folder::weights_from_run;
use checkers_harness::tournament::FeatureRanges;
use predicates::str::contains;

/// The files that must be byte-identical between two runs of the same config.
const COMPARED: [&str; 8] = [
    "rounds.csv",
    "specimens.csv",
    "games.csv",
    "games.pdn",
    "playoff.csv",
    "best.json",
    "checkpoint.json",
    "positions.bin",
];

/// A tiny genetic run over the 3-move deck: 8 specimens, 3 rounds, shallow search.
const TINY: &str = r#"
name = "tiny"
seed = 11
[population]
size = 8
[weights]
init = "random"
[tournament]
rounds = 3
openings = "3-move"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 3
"#;

/// TINY with a fitted specimen after every round (in place of an immigrant).
fn tiny_fit() -> String {
    format!("{TINY}[evolution]\nfit_every = 1\nfit_window = 2\n")
}

/// [`tiny_fit`] with the extended evaluator: the fits fill the tables.
fn tiny_extended() -> String {
    tiny_fit().replace("[weights]\n", "[weights]\nevaluator = \"extended\"\n")
}

/// [`tiny_fit`] with the pattern evaluator: the fits fill the tables, each kept once in the
/// tables folder; the fits' labels blend the scores in.
fn tiny_patterns() -> String {
    tiny_fit()
        .replace("[weights]\n", "[weights]\nevaluator = \"patterns\"\n")
        .replace("[evolution]\n", "[evolution]\nfit_score_weight = 0.5\n")
}

/// Another shape: random mode from the start position with random tie-breaks, an odd
/// population (byes) and a higher survival fraction.
const TINY_RANDOM: &str = r#"
name = "tiny-random"
seed = 5
[population]
size = 7
[tournament]
rounds = 2
survival_fraction = 0.3
openings = "start"
max_plies = 50
playoff_openings = 3
[search]
min_depth = 2
max_depth = 4
tie_break = "random"
database_pieces = 2
[evolution]
mode = "random"
"#;

/// A somewhat longer run, for kills at real moments.
const LONGER: &str = r#"
name = "longer"
seed = 3
[population]
size = 12
[tournament]
rounds = 5
openings = "3-move"
max_plies = 80
playoff_openings = 2
[search]
min_depth = 3
max_depth = 6
database_pieces = 3
"#;

fn resume(dir: &Path) -> assert_cmd::assert::Assert {
    bin().args(["resume", "--quiet"]).arg(dir).assert()
}

fn assert_same_files(a: &Path, b: &Path) {
    let mut names: Vec<String> = COMPARED.iter().map(|n| n.to_string()).collect();
    // A pattern run's fitted tables.
    if let Ok(entries) = fs::read_dir(a.join("tables")) {
        let mut tables: Vec<String> = entries
            .map(|e| format!("tables/{}", e.unwrap().file_name().to_string_lossy()))
            .collect();
        tables.sort();
        assert!(
            !tables.is_empty(),
            "an empty tables folder in {}",
            a.display()
        );
        assert_eq!(
            fs::read_dir(b.join("tables")).unwrap().count(),
            tables.len(),
            "tables of {} and {}",
            a.display(),
            b.display()
        );
        names.extend(tables);
    }
    for name in names {
        let left = fs::read(a.join(&name)).unwrap_or_else(|e| panic!("{name} in {a:?}: {e}"));
        let right = fs::read(b.join(&name)).unwrap_or_else(|e| panic!("{name} in {b:?}: {e}"));
        assert!(
            left == right,
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// The reference run of `text`, uninterrupted, with one thread.
fn reference(tmp: &Path, text: &str) -> (PathBuf, PathBuf) {
    let config = write_file(tmp, "run.toml", text);
    let out = tmp.join("reference");
    tune(&config, &out, 1);
    (config, out)
}

/// Runs `text` on 1 thread (the reference) and on 2, and asserts the same files; returns the
/// config and both run folders.
fn same_on_one_and_two_threads(tmp: &Path, text: &str) -> (PathBuf, PathBuf, PathBuf) {
    let (config, one) = reference(tmp, text);
    let two = tmp.join("two");
    tune(&config, &two, 2);
    assert_same_files(&one, &two);
    (config, one, two)
}

fn lines(path: &Path) -> usize {
    fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// [`TINY`] with mini-matches of two openings × both colours per pair.
fn tiny_mini_matches() -> String {
    TINY.replace("[tournament]\n", "[tournament]\npairing_openings = 2\n")
}

#[test]
fn thread_count_does_not_change_the_files() {
    for text in [
        TINY,
        TINY_RANDOM,
        &tiny_mini_matches(),
        &tiny_fit(),
        &tiny_extended(),
        &tiny_patterns(),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (_, one, two) = same_on_one_and_two_threads(tmp.path(), text);
        // timings.csv has one row per round plus the playoff, whatever it measured.
        let rounds = lines(&one.join("rounds.csv")) - 1;
        assert_eq!(lines(&two.join("timings.csv")), 1 + rounds + 1);
    }
}

#[test]
fn a_run_with_the_endgame_database_adjudicates_and_does_not_depend_on_the_thread_count() {
    // LONGER searches with the 3-piece database and its games reach it (the SIGKILL test below
    // kills and resumes the same run).
    let tmp = tempfile::tempdir().unwrap();
    let (config, one) = reference(tmp.path(), LONGER);
    let games = fs::read_to_string(one.join("games.csv")).unwrap();
    assert!(
        games.lines().any(|l| l.contains(",database,")),
        "no game reached the database"
    );
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    assert_same_files(&one, &two);
    // Without the database the same run plays other games.
    let off = write_file(
        tmp.path(),
        "off.toml",
        &LONGER.replace("database_pieces = 3", "database_pieces = 0"),
    );
    let without = tmp.path().join("without");
    tune(&off, &without, 2);
    let games_without = fs::read_to_string(without.join("games.csv")).unwrap();
    assert!(!games_without.contains(",database"));
    assert_ne!(games, games_without);
}

/// [`TINY`] with its games at a node budget (`search.nodes`): `extra` adds keys to `[search]`.
fn tiny_nodes(extra: &str) -> String {
    TINY.replace(
        "database_pieces = 3\n",
        &format!("database_pieces = 3\nnodes = 400\n{extra}"),
    )
}

#[test]
fn a_run_at_a_node_budget_does_not_depend_on_the_thread_count() {
    for text in [tiny_nodes(""), tiny_nodes("mode = \"selective\"\n")] {
        let tmp = tempfile::tempdir().unwrap();
        let (config, one, _) = same_on_one_and_two_threads(tmp.path(), &text);
        // The resolved config keeps the key, and a stopped run resumes to the same files.
        let resolved = fs::read_to_string(one.join("config.toml")).unwrap();
        assert!(resolved.contains("\nnodes = 400\n"), "{resolved}");
        let stopped = tmp.path().join("stopped");
        tune_stopped_after(&config, &stopped, 1);
        resume(&stopped).success();
        assert_same_files(&one, &stopped);
        // The budget decides the games: the same run at fixed depths plays others.
        let depths = write_file(
            tmp.path(),
            "depths.toml",
            &text.replace("nodes = 400\n", ""),
        );
        let fixed = tmp.path().join("fixed");
        tune(&depths, &fixed, 2);
        assert_ne!(
            fs::read(one.join("games.csv")).unwrap(),
            fs::read(fixed.join("games.csv")).unwrap()
        );
        let resolved = fs::read_to_string(fixed.join("config.toml")).unwrap();
        assert!(!resolved.contains("nodes"), "{resolved}");
        // best.json carries the search the games were played with, and `export RUN` writes
        // it as the run did; an exact run at fixed depths writes none.
        let selective = text.contains("selective");
        for (run, nodes) in [(&one, Some(400)), (&fixed, None)] {
            let written = fs::read_to_string(run.join("best.json")).unwrap();
            let best = WeightsFile::from_json(&written, "best.json").unwrap();
            match best.search {
                None => assert!(nodes.is_none() && !selective, "{written}"),
                Some(search) => {
                    assert_eq!(search.nodes, nodes);
                    assert_eq!((search.min_depth, search.max_depth), (2, 4));
                    assert_eq!(search.database_pieces, 3);
                    assert_eq!(search.mode == SearchMode::Selective, selective);
                }
            }
            let exported = bin().arg("export").arg(run).output().unwrap();
            assert!(exported.status.success());
            assert_eq!(String::from_utf8(exported.stdout).unwrap(), written);
        }
    }
}

/// [`tiny_nodes`] in the selective search with two of its keys opened as genes.
fn tiny_genes() -> String {
    tiny_nodes("mode = \"selective\"\n")
        + "[search.genes]\nlmr_reduction = [0, 3]\nfutility_margin = [20, 200]\n"
}

/// The gene columns of `specimens.csv` and their ranges, in [`tiny_genes`].
const GENES: [(&str, u32, u32); 2] = [
    ("search_lmr_reduction", 0, 3),
    ("search_futility_margin", 20, 200),
];

/// Every row of `specimens.csv` as a map from column to field.
fn specimen_rows(run: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(run.join("specimens.csv")).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Specimen `id`'s last row of `specimens.csv`.
fn last_row(rows: &[BTreeMap<String, String>], id: u64) -> &BTreeMap<String, String> {
    rows.iter()
        .rev()
        .find(|r| r["id"] == id.to_string())
        .unwrap_or_else(|| panic!("no row of specimen {id}"))
}

/// A weights file's selective value of a gene column (`search_<key>`), its key's default
/// when the table leaves it out.
fn file_gene(file: &WeightsFile, column: &str) -> u32 {
    let search = file.search.expect("a run with genes writes a search table");
    let key = column.strip_prefix("search_").unwrap();
    let value = search
        .entries()
        .into_iter()
        .find(|(k, _)| *k == key)
        .unwrap()
        .1;
    value.to_string().parse().unwrap()
}

#[test]
fn a_run_with_search_genes_is_deterministic_and_writes_each_specimens_own_search() {
    let text = tiny_genes();
    let tmp = tempfile::tempdir().unwrap();
    let (_, one, _) = same_on_one_and_two_threads(tmp.path(), &text);
    let resolved = fs::read_to_string(one.join("config.toml")).unwrap();
    assert!(
        resolved
            .contains("\n[search.genes]\nlmr_reduction = [0, 3]\nfutility_margin = [20, 200]\n"),
        "{resolved}"
    );

    // Every gene in its range; the fresh specimens (no parent: round 1's and the immigrants)
    // do not all draw the same margin; a child's genes are within a mutation's step (max(1,
    // width / 8)) of a parent's.
    let rows = specimen_rows(&one);
    let gene = |row: &BTreeMap<String, String>, column: &str| -> u32 {
        row.get(column)
            .unwrap_or_else(|| panic!("no column {column}"))
            .parse()
            .unwrap()
    };
    for (column, min, max) in GENES {
        assert!(rows.iter().all(|r| (min..=max).contains(&gene(r, column))));
    }
    // Only survivors have rows, and at 400 nodes every surviving fresh specimen drew
    // `lmr_reduction` 0: selection, not the draw (whose spread over 0..=3 is
    // `search_genes`' unit test). The margin, drawn from 181 values, differs.
    let margins: BTreeSet<u32> = rows
        .iter()
        .filter(|r| r["parent_a"].is_empty())
        .map(|r| gene(r, "search_futility_margin"))
        .collect();
    assert!(margins.len() > 1, "{margins:?}");
    let mut children = 0;
    for child in rows.iter().filter(|r| r["origin"] == "child") {
        let born: u32 = child["born_round"].parse().unwrap();
        let parents: Vec<&BTreeMap<String, String>> = ["parent_a", "parent_b"]
            .iter()
            .filter(|p| !child[**p].is_empty())
            .map(|p| {
                rows.iter()
                    .find(|r| r["id"] == child[*p] && r["round"] == (born - 1).to_string())
                    .expect("a parent survived the round before its child's birth")
            })
            .collect();
        for (column, min, max) in GENES {
            let step = ((max - min) / 8).max(1);
            let own = gene(child, column);
            assert!(
                parents
                    .iter()
                    .any(|p| gene(p, column).abs_diff(own) <= step),
                "{column} of child {} is {own}, its parents' {:?}",
                child["id"],
                parents.iter().map(|p| gene(p, column)).collect::<Vec<_>>()
            );
        }
        children += 1;
    }
    assert!(children > 0, "some child survived a round");

    // best.json carries its specimen's genes, and `export RUN` is best.json byte for byte;
    // `--rank 2` carries rank 2's.
    let written = fs::read_to_string(one.join("best.json")).unwrap();
    let best = WeightsFile::from_json(&written, "best.json").unwrap();
    let Some(WeightsSource::Specimen { id, .. }) = best.source else {
        panic!("best.json names its specimen: {written}");
    };
    for (column, _, _) in GENES {
        assert_eq!(file_gene(&best, column), gene(last_row(&rows, id), column));
    }
    let search = best.search.unwrap();
    assert_eq!(search.mode, SearchMode::Selective);
    assert_eq!(search.nodes, Some(400));
    let exported = bin().arg("export").arg(&one).output().unwrap();
    assert!(exported.status.success());
    assert_eq!(String::from_utf8(exported.stdout).unwrap(), written);
    let second = weights_from_run(&one, 2).unwrap();
    let Some(WeightsSource::Specimen { id: second_id, .. }) = second.source else {
        panic!("rank 2 names its specimen");
    };
    for (column, _, _) in GENES {
        assert_eq!(
            file_gene(&second, column),
            gene(last_row(&rows, second_id), column)
        );
    }
    let exported = bin()
        .arg("export")
        .arg(&one)
        .args(["--rank", "2"])
        .output()
        .unwrap();
    assert!(exported.status.success());
    let json = String::from_utf8(exported.stdout).unwrap();
    assert_eq!(WeightsFile::from_json(&json, "rank2.json").unwrap(), second);

    // The genes draw no weight: genes fixed at the config's values (every specimen searches
    // as the run does) give the games, rows and best.json of the run without genes (not its
    // positions store, whose identity is the config's hash).
    let base = SelectiveParams::DEFAULT;
    let plain = write_file(
        tmp.path(),
        "plain.toml",
        text.split("[search.genes]").next().unwrap(),
    );
    let fixed = write_file(
        tmp.path(),
        "fixed.toml",
        &text
            .replace("[0, 3]", &format!("[{0}, {0}]", base.lmr_reduction))
            .replace("[20, 200]", &format!("[{0}, {0}]", base.futility_margin)),
    );
    let (without, with) = (tmp.path().join("without"), tmp.path().join("fixed"));
    tune(&plain, &without, 2);
    tune(&fixed, &with, 2);
    for name in [
        "games.csv",
        "games.pdn",
        "rounds.csv",
        "playoff.csv",
        "best.json",
    ] {
        assert!(
            fs::read(without.join(name)).unwrap() == fs::read(with.join(name)).unwrap(),
            "{name}"
        );
    }
    let specimens = |run: &Path| fs::read_to_string(run.join("specimens.csv")).unwrap();
    let cut: String = specimens(&with)
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            format!("{}\n", fields[..fields.len() - GENES.len()].join(","))
        })
        .collect();
    assert_eq!(cut, specimens(&without));
}

#[test]
fn stopping_after_any_round_and_resuming_gives_the_same_files() {
    for text in [
        TINY.to_string(),
        tiny_genes(),
        tiny_mini_matches(),
        tiny_fit(),
        tiny_extended(),
        tiny_patterns(),
    ] {
        stop_and_resume_after_each_round(&text);
    }
}

fn stop_and_resume_after_each_round(text: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let (config, full) = reference(tmp.path(), text);
    for k in 1..=3 {
        let out = tmp.path().join(format!("stop{k}"));
        bin()
            .args(["tune", "--quiet"])
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .env("CHECKERS_TUNER_STOP_AFTER_ROUND", k.to_string())
            .assert()
            .code(130)
            .stderr(contains(format!(
                "Interrupted: continue with: checkers-tuner resume {}",
                out.display()
            )));
        assert_eq!(lines(&out.join("rounds.csv")), 1 + k);
        assert!(!out.join("playoff.csv").exists());
        resume(&out).success().stdout(contains("Run finished"));
        assert_same_files(&full, &out);
    }
    // A finished run says so and changes nothing.
    let before = fs::read(full.join("timings.csv")).unwrap();
    resume(&full).success().stdout(contains("already finished"));
    assert_eq!(fs::read(full.join("timings.csv")).unwrap(), before);
}

#[test]
fn a_crash_between_the_rows_and_the_checkpoint_is_replayed() {
    for text in [
        TINY.to_string(),
        tiny_genes(),
        tiny_fit(),
        tiny_extended(),
        tiny_patterns(),
    ] {
        crash_before_the_checkpoint_and_resume(&text);
    }
}

fn crash_before_the_checkpoint_and_resume(text: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let (config, full) = reference(tmp.path(), text);
    // Round 1: no checkpoint exists yet. Round 3: rows of the last round are on disk.
    for k in [1, 3] {
        let out = tmp.path().join(format!("crash{k}"));
        let status = StdCommand::new(assert_cmd::cargo::cargo_bin("checkers-tuner"))
            .env(
                "CHECKERS_TUNER_CACHE",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
            )
            .args(["tune", "--quiet"])
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .env("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT", k.to_string())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success());
        // The crashed round's rows are there, the checkpoint does not count them.
        assert_eq!(lines(&out.join("rounds.csv")), 1 + k);
        let checkpoint = out.join("checkpoint.json");
        if k == 1 {
            assert!(!checkpoint.exists());
        } else {
            let text = fs::read_to_string(&checkpoint).unwrap();
            assert!(text.contains("\"completed_rounds\": 2"), "{text}");
        }
        resume(&out).success();
        assert_same_files(&full, &out);
    }
}

#[test]
fn a_fitted_specimen_enters_in_place_of_the_last_newcomer() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "fit.toml", &tiny_fit());
    let out = tmp.path().join("fit");
    tune_stopped_after(&config, &out, 1);
    let text = fs::read_to_string(out.join("checkpoint.json")).unwrap();
    let checkpoint: serde_json::Value = serde_json::from_str(&text).unwrap();
    let population = checkpoint["population"].as_array().unwrap();
    let specimen = |m: &serde_json::Value| m["specimen"].clone();
    let fitted: Vec<serde_json::Value> = population
        .iter()
        .map(specimen)
        .filter(|s| s["fitted"] == true)
        .collect();
    assert_eq!(fitted.len(), 1, "{text}");
    let fit = &fitted[0];
    assert_eq!(fit["born_round"], 2);
    // It took the place of the last newcomer: the largest id, and the next id follows it.
    let largest = population
        .iter()
        .map(|m| m["specimen"]["id"].as_u64().unwrap())
        .max();
    assert_eq!(fit["id"].as_u64(), largest);
    assert_eq!(checkpoint["next_id"].as_u64(), largest.map(|id| id + 1));
    // Its parent is the top survivor of round 1, whose weights it started from.
    let parent = fit["parent_a"].as_u64().unwrap();
    let specimens = Table::read(&out.join("specimens.csv"));
    assert!(specimens
        .rows
        .iter()
        .any(|r| specimens.get::<u32>(r, "round") == 1 && specimens.get::<u64>(r, "id") == parent));
    assert!(fit["parent_b"].is_null());
    let opening = &fit["weights"]["opening"];
    assert_eq!(opening[0], 100, "pawns stay fixed");
    let kings = opening[1].as_i64().unwrap();
    assert!((100..=300).contains(&kings), "{kings}");

    // A run without fits writes no trace of them.
    resume(&out).success();
    let plain = tmp.path().join("plain");
    tune(&write_file(tmp.path(), "plain.toml", TINY), &plain, 2);
    assert!(!fs::read_to_string(plain.join("checkpoint.json"))
        .unwrap()
        .contains("fitted"));
    assert!(!fs::read_to_string(plain.join("config.toml"))
        .unwrap()
        .contains("fit_"));
    let with = fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(with.contains("fit_every = 1") && with.contains("fit_window = 2"));
}

#[test]
fn an_extended_run_keeps_the_fitted_tables_in_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "extended.toml", &tiny_extended());
    let out = tmp.path().join("extended");
    tune_stopped_after(&config, &out, 1);
    // The initial tables are empty; the fit after round 1 filled its specimen's.
    let text = fs::read_to_string(out.join("checkpoint.json")).unwrap();
    let checkpoint: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tables_filled = |s: &serde_json::Value| {
        let men = s["extra"]["opening"]["men"]
            .as_array()
            .expect("extended weights");
        men.iter().any(|w| w != 0)
    };
    for member in checkpoint["population"].as_array().unwrap() {
        let specimen = &member["specimen"];
        assert_eq!(
            tables_filled(specimen),
            specimen["fitted"] == true,
            "{specimen}"
        );
    }
    resume(&out).success();
    let specimens = fs::read_to_string(out.join("specimens.csv")).unwrap();
    let header: Vec<&str> = specimens.lines().next().unwrap().split(',').collect();
    // The ten features of both sets, then each set's 2 terms and 28 + 32 table entries.
    assert_eq!(header.len(), 10 + 20 + 2 * (2 + 28 + 32));
    assert_eq!(header[30], "open_bridge");
    assert_eq!(header[32], "open_men_1");
    assert_eq!(header.last(), Some(&"end_kings_32"));
    let best = WeightsFile::load(&out.join("best.json")).unwrap();
    assert!(best.extra.is_some(), "an extended best.json");
    // The export of rank 1 reads the same weights back from specimens.csv.
    let ranked = weights_from_run(&out, 1).unwrap();
    assert_eq!((ranked.weights, ranked.extra), (best.weights, best.extra));
    let config = fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(config.contains("evaluator = \"extended\""), "{config}");
}

#[test]
fn a_pattern_run_keeps_each_fits_tables_once() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "patterns.toml", &tiny_patterns());
    let out = tmp.path().join("patterns");
    tune(&config, &out, 2);
    // Fits after rounds 1 and 3 (round 2 bred no newcomer for a fit to replace): one tables
    // file each, named by the log.
    let mut tables: Vec<String> = fs::read_dir(out.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    tables.sort();
    assert_eq!(tables, ["specimen-13.json", "specimen-14.json"]);
    let specimens = fs::read_to_string(out.join("specimens.csv")).unwrap();
    let header: Vec<&str> = specimens.lines().next().unwrap().split(',').collect();
    // The extended run's columns, each set's 2 classic terms, and the tables' owner.
    assert_eq!(header.len(), 10 + 20 + 2 * (2 + 28 + 32) + 2 * 2 + 1);
    assert_eq!(header.last(), Some(&"tables"));
    // Every specimen with tables names a file that is there.
    let tables_col = header.len() - 1;
    for row in specimens.lines().skip(1) {
        let owner = row.split(',').nth(tables_col).unwrap();
        if !owner.is_empty() {
            assert!(tables.contains(&format!("specimen-{owner}.json")), "{row}");
        }
    }
    let best = WeightsFile::load(&out.join("best.json")).unwrap();
    assert_eq!(
        best.evaluator(),
        checkers_engine::eval::EvaluatorKind::Patterns
    );
    let ranked = weights_from_run(&out, 1).unwrap();
    assert_eq!(
        (ranked.weights, ranked.extra, ranked.patterns),
        (best.weights, best.extra, best.patterns)
    );
    // The final fit (specimen 14) joined the playoff with no row in specimens.csv: its rank
    // exports from the last checkpoint, with its own tables.
    assert!(!specimens
        .lines()
        .any(|row| row.split(',').nth(1) == Some("14")));
    let playoff = fs::read_to_string(out.join("playoff.csv")).unwrap();
    let rank: usize = playoff
        .lines()
        .find(|row| row.split(',').nth(1) == Some("14"))
        .and_then(|row| row.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    let fitted = weights_from_run(&out, rank).unwrap();
    let own = WeightsFile::load(&out.join("tables").join("specimen-14.json")).unwrap();
    assert_eq!(fitted.patterns, own.patterns);
    assert!(matches!(
        fitted.source,
        Some(checkers_engine::weights_file::WeightsSource::Specimen {
            id: 14,
            round: 3,
            ..
        })
    ));
}

#[test]
fn the_log_names_each_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "fit.toml", &tiny_fit());
    let run = bin()
        .arg("tune")
        .arg(&config)
        .arg("--out")
        .arg(tmp.path().join("fit"))
        .assert()
        .success();
    let log = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    // After rounds 1 and 2 in place of a newcomer; after round 3, the last, a final fit joins
    // the playoff beside the finalists.
    let fits: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("fit after round"))
        .collect();
    assert_eq!(fits.len(), 3, "{log}");
    assert!(
        fits[1].starts_with("fit after round 2: specimen "),
        "{}",
        fits[1]
    );
    assert!(
        fits[1].contains(" games (") && fits[1].contains("loss"),
        "{}",
        fits[1]
    );
    let final_fit: String = fits[2]["fit after round 3: specimen ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let playoff = fs::read_to_string(tmp.path().join("fit/playoff.csv")).unwrap();
    assert!(
        playoff
            .lines()
            .any(|l| l.split(',').nth(1) == Some(final_fit.as_str())),
        "the final fit {final_fit} plays the playoff: {playoff}"
    );
}

#[test]
fn resume_cuts_rows_written_after_the_checkpoint_and_refuses_short_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, full) = reference(tmp.path(), TINY);
    let out = tmp.path().join("cut");
    tune_stopped_after(&config, &out, 1);
    // Whole extra rows and a half-written one, as a killed process leaves them.
    for (name, junk) in [
        (
            "games.csv",
            "2,0,0,1,3,4,9-13 22-18 10-14,draw,60,ply_cap\n2,0,1,1,5,",
        ),
        ("specimens.csv", "2,9,1,2,2,child,0,1,0,0,5,5"),
        ("rounds.csv", "2,8,3,9,1,1,1,1,1,0,2,6,40.00,1.00,1.00\n"),
        ("timings.csv", "2,1.0"),
        (
            "games.pdn",
            "[Event \"tiny\"]\n[Round \"2.0.0.1\"]\n\n1. 9-13 22-18 2. 10",
        ),
    ] {
        let mut text = fs::read_to_string(out.join(name)).unwrap();
        text.push_str(junk);
        fs::write(out.join(name), text).unwrap();
    }
    resume(&out).success();
    assert_same_files(&full, &out);

    // A file shorter than the checkpoint says cannot be continued identically.
    let short = tmp.path().join("short");
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&short)
        .env("CHECKERS_TUNER_STOP_AFTER_ROUND", "2")
        .assert()
        .code(130);
    let games = short.join("games.csv");
    let text = fs::read_to_string(&games).unwrap();
    fs::write(&games, &text[..text.len() - 10]).unwrap();
    resume(&short)
        .code(2)
        .stderr(contains("games.csv"))
        .stderr(contains("checkpoint"));
}

/// Waits (without asserting anything about time) until `ready` holds or the child exits.
fn kill_when(child: &mut Child, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ready() && Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill(); // SIGKILL on Unix
    child.wait().unwrap();
}

fn spawn(args: &[&str], config: Option<&Path>, dir: &Path) -> Child {
    let mut command = StdCommand::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    command.env(
        "CHECKERS_TUNER_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
    );
    command.args(args);
    if let Some(config) = config {
        command.arg(config).arg("--out");
    }
    command
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn killed_with_sigkill_at_several_moments_and_resumed_gives_the_same_files() {
    // With search genes too: every specimen's own search comes back from the checkpoint.
    let genes = LONGER.replace(
        "database_pieces = 3\n",
        "database_pieces = 3\nnodes = 1500\nmode = \"selective\"\n\
         [search.genes]\nlmr_moves = [1, 6]\naspiration = [0, 80]\n",
    );
    for text in [LONGER, &genes] {
        kill_and_resume(text);
    }
}

fn kill_and_resume(text: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let (config, full) = reference(tmp.path(), text);
    let out = tmp.path().join("killed");
    let rows = |name: &str| lines(&out.join(name)).saturating_sub(1);

    // As soon as the folder has its config: round 1 is in progress, no checkpoint yet.
    let mut child = spawn(&["tune", "--quiet"], Some(&config), &out);
    kill_when(&mut child, || out.join("config.toml").exists());
    // Once round 2 is written (maybe before its checkpoint).
    let mut child = spawn(&["resume", "--quiet"], None, &out);
    kill_when(&mut child, || rows("rounds.csv") >= 2);
    // In the middle of round 4's games.
    let mut child = spawn(&["resume", "--quiet"], None, &out);
    kill_when(&mut child, || rows("rounds.csv") >= 3);
    // During the playoff: every round is written.
    let mut child = spawn(&["resume", "--quiet"], None, &out);
    kill_when(&mut child, || rows("rounds.csv") >= 5);
    resume(&out).success();
    assert_same_files(&full, &out);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_and_points_to_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, full) = reference(tmp.path(), LONGER);
    let out = tmp.path().join("interrupted");
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("checkers-tuner"))
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        )
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once round 1 is saved, interrupt during a later round (or the playoff).
    let deadline = Instant::now() + Duration::from_secs(120);
    while !out.join("checkpoint.json").exists()
        && child.try_wait().unwrap().is_none()
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.success() {
        // The run ended before the signal arrived: nothing to interrupt.
        assert!(out.join("best.json").exists());
    } else {
        assert_eq!(output.status.code(), Some(130), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "Interrupted: continue with: checkers-tuner resume {}",
                out.display()
            )),
            "{stderr}"
        );
        assert!(!out.join("playoff.csv").exists());
        resume(&out).success();
    }
    assert_same_files(&full, &out);
}

/// A CSV file as a header index and rows of strings.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn read(path: &Path) -> Table {
        let mut reader = csv::Reader::from_path(path).unwrap();
        let header = reader.headers().unwrap().iter().map(String::from).collect();
        let rows = reader
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        Table { header, rows }
    }

    fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    fn get<T: std::str::FromStr>(&self, row: &[String], name: &str) -> T
    where
        T::Err: std::fmt::Debug,
    {
        row[self.col(name)].parse().unwrap()
    }
}

#[test]
fn games_pdn_replays_every_game_of_games_csv_to_its_result() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir) = reference(tmp.path(), TINY);
    let games = Table::read(&dir.join("games.csv"));
    let pdn = read_pdn(&fs::read_to_string(dir.join("games.pdn")).unwrap()).unwrap();
    assert_eq!(pdn.len(), games.rows.len());
    assert!(games.rows.len() > 20, "a real run's worth of games");
    let mut reasons = BTreeSet::new();
    for (row, game) in games.rows.iter().zip(&pdn) {
        let field = |name: &str| games.get::<String>(row, name);
        let round = ["round", "level", "pair", "game"].map(field).join(".");
        assert_eq!(game.tag("Round"), Some(round.as_str()));
        assert_eq!(
            game.tag("Black"),
            Some(format!("specimen {}", field("black")).as_str())
        );
        assert_eq!(
            game.tag("White"),
            Some(format!("specimen {}", field("white")).as_str())
        );
        assert_eq!(game.tag("Opening"), Some(field("opening").as_str()));
        assert_eq!(game.tag("Termination"), Some(field("reason").as_str()));
        // From the initial position: the opening's moves, then the game's.
        let opening: usize = game.tag("OpeningPlies").unwrap().parse().unwrap();
        assert_eq!(opening, field("opening").split(' ').count());
        let plies: usize = games.get(row, "plies");
        assert_eq!(game.moves.len(), opening + plies);
        let texts: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(texts[..opening].join(" "), field("opening"));
        assert_eq!(texts[opening..].join(" "), field("moves"));
        let result = match field("result").as_str() {
            "black_win" => GameResult::BlackWin,
            "white_win" => GameResult::WhiteWin,
            _ => GameResult::Draw,
        };
        assert_eq!(game.result, Some(result));
        // Replayed, the game ends as recorded.
        let end = game.end_position();
        match field("reason").as_str() {
            "no_moves" => {
                assert!(end.is_lost(), "round {round}: the loser has a move");
                let winner = match end.side_to_move() {
                    Color::Black => GameResult::WhiteWin,
                    Color::White => GameResult::BlackWin,
                };
                assert_eq!(result, winner, "round {round}");
            }
            "ply_cap" => assert_eq!(plies, 60, "round {round}: TINY's max_plies"),
            "repetition" => {
                let mut pos = game.start;
                let mut seen = vec![pos];
                for mv in &game.moves {
                    pos = pos.play(mv);
                    seen.push(pos);
                }
                let count = seen.iter().filter(|&&p| p == end).count();
                assert!(
                    count >= 3,
                    "round {round}: the end position occurs {count} times"
                );
            }
            other => assert!(other == "no_progress", "round {round}: reason {other}"),
        }
        reasons.insert(field("reason"));
    }
    assert!(reasons.contains("no_moves"), "{reasons:?}");
}

#[test]
fn tournament_invariants_hold_in_the_files_of_real_runs() {
    // 10 specimens (byes at odd levels), and an all-but-drawless config (stall rule likely).
    let stall = TINY.replace("max_plies = 60", "max_plies = 12");
    for (text, n, fraction, stall_levels, openings) in [
        (
            TINY.replace("size = 8", "size = 10")
                .replace("rounds = 3", "rounds = 4"),
            10,
            0.2,
            2,
            2,
        ),
        (stall, 8, 0.2, 2, 2),
        // From the start position the playoff has one opening to play.
        (TINY_RANDOM.to_string(), 7, 0.3, 2, 1),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (_, dir) = reference(tmp.path(), &text);
        let rounds = Table::read(&dir.join("rounds.csv"));
        let games = Table::read(&dir.join("games.csv"));
        let specimens = Table::read(&dir.join("specimens.csv"));
        let playoff = Table::read(&dir.join("playoff.csv"));
        let round_count = rounds.rows.len() as u32;
        let mut seen_ids: BTreeSet<u64> = BTreeSet::new();
        let mut expected_new = n;
        let mut survivors_of_previous: BTreeSet<u64> = BTreeSet::new();
        let mut sat_out = 0;

        for row in &rounds.rows {
            let round: u32 = rounds.get(row, "round");
            let get = |name: &str| -> u64 { rounds.get(row, name) };
            assert_eq!(
                get("population"),
                n,
                "population is N at the start of round {round}"
            );
            let outcome_games = get("black_wins")
                + get("white_wins")
                + 2 * (get("draw_then_black_win")
                    + get("draw_then_white_win")
                    + get("double_draws"));
            assert_eq!(get("games"), outcome_games);

            let round_games: Vec<&Vec<String>> = games
                .rows
                .iter()
                .filter(|g| games.get::<u32>(g, "round") == round)
                .collect();
            assert_eq!(
                round_games.len() as u64,
                get("games"),
                "games.csv rows of round {round}"
            );

            // Per level: outcomes of its pairs, eliminations, the pool.
            let mut levels: BTreeMap<u32, BTreeMap<u32, Vec<&Vec<String>>>> = BTreeMap::new();
            for g in &round_games {
                levels
                    .entry(games.get(g, "level"))
                    .or_default()
                    .entry(games.get(g, "pair"))
                    .or_default()
                    .push(g);
            }
            assert_eq!(levels.len() as u64, get("levels"));
            let mut eliminated_per_level = Vec::new();
            let (mut black_wins, mut double_draws) = (0, 0);
            for pairs in levels.values() {
                let mut eliminated = 0;
                for games_of_pair in pairs.values() {
                    let result = |k: usize| games.get::<String>(games_of_pair[k], "result");
                    match games_of_pair.len() {
                        1 => {
                            assert_ne!(result(0), "draw");
                            black_wins += u64::from(result(0) == "black_win");
                            eliminated += 1;
                        }
                        2 => {
                            assert_eq!(result(0), "draw");
                            let (g1, g2) = (games_of_pair[0], games_of_pair[1]);
                            // Colours switched, same opening.
                            assert_eq!(
                                games.get::<u64>(g1, "black"),
                                games.get::<u64>(g2, "white")
                            );
                            assert_eq!(
                                games.get::<u64>(g1, "white"),
                                games.get::<u64>(g2, "black")
                            );
                            assert_eq!(
                                games.get::<String>(g1, "opening"),
                                games.get::<String>(g2, "opening")
                            );
                            if result(1) == "draw" {
                                double_draws += 1;
                            } else {
                                eliminated += 1;
                            }
                        }
                        other => panic!("a pair with {other} games"),
                    }
                }
                eliminated_per_level.push(eliminated);
            }
            assert_eq!(black_wins, get("black_wins"));
            assert_eq!(double_draws, get("double_draws"));

            // The round's population: every id in its games, except a specimen that drew the
            // bye at every level of a round the stall rule ended (it never played).
            let population: BTreeSet<u64> = round_games
                .iter()
                .flat_map(|g| [games.get::<u64>(g, "black"), games.get::<u64>(g, "white")])
                .collect();
            let unplayed = n - population.len() as u64;
            assert!(unplayed <= get("byes").min(1), "round {round}");
            let played_survivors = survivors_of_previous.intersection(&population).count();
            assert!(survivors_of_previous.len() - played_survivors <= unplayed as usize);
            let newcomers: Vec<u64> = population.difference(&seen_ids).copied().collect();
            // Ids first seen now: this round's newcomers, plus any that sat out earlier.
            assert!(
                newcomers.len() as u64 <= expected_new + sat_out
                    && newcomers.len() as u64 + unplayed >= expected_new,
                "round {round}"
            );
            if let Some(max) = seen_ids.last() {
                assert!(
                    newcomers.iter().filter(|id| *id <= max).count() as u64 <= sat_out,
                    "ids grow in creation order"
                );
            }
            seen_ids.extend(newcomers);
            sat_out += unplayed;

            let survivors = get("survivors");
            let limit = (fraction * n as f64 + 1e-9).floor() as u64;
            let stalled = eliminated_per_level.len() >= stall_levels
                && eliminated_per_level[eliminated_per_level.len() - stall_levels..]
                    .iter()
                    .all(|&e| e == 0);
            assert!(
                survivors <= limit.max(1) || stalled,
                "round {round}: {survivors} survivors over {limit} without a stall"
            );
            // Newcomers refill the population; the validation champion, when the bracket
            // eliminated it, takes one place back.
            let newcomers = get("newcomers");
            if round == round_count {
                assert_eq!(newcomers, 0);
            } else {
                assert!(
                    newcomers == n - survivors || newcomers + 1 == n - survivors,
                    "round {round}: {newcomers} newcomers for {survivors} survivors"
                );
            }
            expected_new = newcomers;

            // specimens.csv: one row per survivor, weights in range, tallies add up.
            let rows: Vec<&Vec<String>> = specimens
                .rows
                .iter()
                .filter(|r| specimens.get::<u32>(r, "round") == round)
                .collect();
            assert_eq!(rows.len() as u64, survivors);
            survivors_of_previous.clear();
            for r in rows {
                let id: u64 = specimens.get(r, "id");
                survivors_of_previous.insert(id);
                for (k, name) in specimens.header.iter().enumerate().skip(10) {
                    assert!(name.starts_with("open_") || name.starts_with("end_"));
                    let w: i32 = r[k].parse().unwrap();
                    let feature = name.split_once('_').unwrap().1;
                    let i = feature_index(feature).unwrap();
                    let range = FeatureRanges::default().to_array()[i];
                    assert!(
                        (range.min..=range.max).contains(&w),
                        "{name} = {w} out of range"
                    );
                }
                let played = games
                    .rows
                    .iter()
                    .filter(|g| {
                        games.get::<u32>(g, "round") == round
                            && (games.get::<u64>(g, "black") == id
                                || games.get::<u64>(g, "white") == id)
                    })
                    .count() as u64;
                let tally: u64 = ["wins", "draws", "losses"]
                    .iter()
                    .map(|c| specimens.get::<u64>(r, c))
                    .sum();
                assert_eq!(tally, played);
                let survived: u32 = specimens.get(r, "rounds_survived");
                assert!(survived >= 1 && survived <= round);
            }
        }

        // The playoff ranks the last round's survivors, plus the validation champion when it
        // is not among them (the best of learning.csv); best.json is rank 1.
        let ranked: BTreeSet<u64> = playoff.rows.iter().map(|r| playoff.get(r, "id")).collect();
        let extra: Vec<u64> = ranked.difference(&survivors_of_previous).copied().collect();
        assert!(survivors_of_previous.is_subset(&ranked));
        assert!(extra.len() <= 1, "{extra:?}");
        if let Some(&champion) = extra.first() {
            let learning = Table::read(&dir.join("learning.csv"));
            let best = learning
                .rows
                .iter()
                .max_by_key(|r| {
                    let wins: u64 = learning.get(r, "wins");
                    let draws: u64 = learning.get(r, "draws");
                    let round: u32 = learning.get(r, "round");
                    // The first to reach the best score keeps the title.
                    (2 * wins + draws, std::cmp::Reverse(round))
                })
                .unwrap();
            assert_eq!(learning.get::<u64>(best, "id"), champion);
        }
        let finalists = ranked.len() as u64;
        let mut previous: Option<(f64, u64, u64)> = None;
        for (k, r) in playoff.rows.iter().enumerate() {
            assert_eq!(playoff.get::<usize>(r, "rank"), k + 1);
            let (wins, draws, losses): (u64, u64, u64) = (
                playoff.get(r, "wins"),
                playoff.get(r, "draws"),
                playoff.get(r, "losses"),
            );
            let points: f64 = playoff.get(r, "points");
            assert_eq!(points, wins as f64 + draws as f64 / 2.0);
            assert_eq!(wins + draws + losses, 2 * openings * (finalists - 1));
            let id: u64 = playoff.get(r, "id");
            if let Some(prev) = previous {
                assert!(prev >= (points, wins, u64::MAX - id), "ranking order");
            }
            previous = Some((points, wins, u64::MAX - id));
        }
        let best = WeightsFile::load(&dir.join("best.json")).unwrap();
        assert_eq!(best, weights_from_run(&dir, 1).unwrap());
        let Some(WeightsSource::Specimen { id, round, .. }) = best.source else {
            panic!("best.json names its specimen: {:?}", best.source);
        };
        assert_eq!(id, playoff.get::<u64>(&playoff.rows[0], "id"));
        let last_row = specimens
            .rows
            .iter()
            .filter(|r| specimens.get::<u64>(r, "id") == id)
            .map(|r| specimens.get::<u32>(r, "round"))
            .max();
        assert_eq!(Some(round), last_row);
    }
}

#[test]
fn tune_refuses_a_folder_that_holds_a_run_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, out) = reference(tmp.path(), TINY);
    let copy = tmp.path().join("copy");
    fs::create_dir(&copy).unwrap();
    for name in COMPARED {
        fs::copy(out.join(name), copy.join(name)).unwrap();
    }
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("already holds a run"))
        .stderr(contains("resume"))
        .stderr(contains("--force"));
    assert_same_files(&copy, &out);
    fs::write(out.join("notes.txt"), "keep me").unwrap();
    fs::write(out.join("rounds.csv"), "garbage\n").unwrap();
    bin()
        .args(["tune", "--quiet", "--force"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_same_files(&copy, &out);
    assert_eq!(
        fs::read_to_string(out.join("notes.txt")).unwrap(),
        "keep me"
    );
}

#[test]
fn the_default_folder_is_results_slash_name_and_resume_needs_a_run_folder() {
    let tmp = tempfile::tempdir().unwrap();
    write_file(tmp.path(), "run.toml", TINY_RANDOM);
    bin()
        .current_dir(tmp.path())
        .args(["tune", "run.toml", "--quiet", "--threads", "2"])
        .assert()
        .success()
        .stdout(contains("Best specimen: id "));
    assert!(tmp.path().join("results/tiny-random/best.json").is_file());
    bin()
        .args(["resume"])
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(contains("not a run folder"));
    bin()
        .args(["resume"])
        .arg(tmp.path().join("nowhere"))
        .assert()
        .code(2)
        .stderr(contains("no such run folder"));
    bin()
        .current_dir(tmp.path())
        .args(["tune", "run.toml", "--threads", "0"])
        .assert()
        .code(2)
        .stderr(contains("--threads"));
}

#[test]
fn bad_configs_exit_2_naming_the_key_and_create_no_run_folder() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(
        tmp.path().join("illegal.txt"),
        "9-13 22-18 10-14\n9-13 22-19 10-14\n",
    )
    .unwrap();
    let base = "name = \"bad\"\n";
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "[search]\nmin_depth = 6\nmax_depth = 4\n",
            "search.min_depth",
            &["must not exceed"],
        ),
        (
            "[population]\nsize = 1\n",
            "population.size",
            &["at least 2"],
        ),
        (
            "[tournament]\nsurvival_fraction = 0\n",
            "tournament.survival_fraction",
            &[],
        ),
        (
            "[tournament]\nsurvival_fraction = 1.5\n",
            "tournament.survival_fraction",
            &[],
        ),
        (
            "[weights.opening]\nkings = [10, -10]\n",
            "weights.opening.kings",
            &[],
        ),
        (
            "[tournament]\nopenings = \"missing.txt\"\n",
            "tournament.openings",
            &["does not exist"],
        ),
        (
            "[tournament]\nopenings = \"illegal.txt\"\n",
            "tournament.openings",
            &["illegal.txt line 2", "22-19"],
        ),
        (
            "[tournament]\nrounds = 0\n",
            "tournament.rounds",
            &["at least 1"],
        ),
        (
            "[tournament]\nrounds = -2\n",
            "tournament.rounds",
            &["at least 1"],
        ),
        (
            "[search]\nmin_depth = \"six\"\n",
            "search.min_depth",
            &["expected an integer"],
        ),
        ("[search]\ndepth = 3\n", "search.depth", &["unknown key"]),
        ("[search]\nnodes = 0\n", "search.nodes", &["at least 1"]),
        (
            "[search]\nnodes = 1000000001\n",
            "search.nodes",
            &["at most 1000000000"],
        ),
        (
            "[search]\nnodes = 1000\n[tournament]\ndeepen_every = 5\n",
            "search.nodes",
            &["`tournament.deepen_every` (5) would change nothing"],
        ),
        (
            "[search]\nnodes = 1000\ntie_break = \"random\"\n",
            "search.nodes",
            &["tie_break"],
        ),
        ("colour = \"blue\"\n", "colour", &["unknown key"]),
        (
            "[search]\nnodes = 400\nmode = \"selective\"\n[search.genes]\nlmr_foo = [0, 1]\n",
            "search.genes.lmr_foo",
            &["unknown key", "lmr_reduction"],
        ),
        (
            "[search]\nnodes = 400\nmode = \"selective\"\n[search.genes]\nlmr_reduction = [3, 1]\n",
            "search.genes.lmr_reduction",
            &["must not exceed"],
        ),
        (
            "[search]\nnodes = 400\nmode = \"selective\"\n[search.genes]\nlmr_reduction = [0, 5]\n",
            "search.genes.lmr_reduction",
            &["`search.lmr_reduction` must be at most 4, got 5"],
        ),
        (
            "[search]\nnodes = 400\nmode = \"selective\"\n[search.genes]\nlmr_depth = [0, 3]\n",
            "search.genes.lmr_depth",
            &["must be at least 1, got 0"],
        ),
        (
            "[search]\nnodes = 400\nmode = \"selective\"\n[search.genes]\naspiration = [5]\n",
            "search.genes.aspiration",
            &["exactly two numbers"],
        ),
        (
            "[search]\nnodes = 400\n[search.genes]\nlmr_reduction = [0, 2]\n",
            "search.genes.lmr_reduction",
            &["search.mode = \"selective\""],
        ),
        (
            "[search]\nmode = \"selective\"\n[search.genes]\nfutility_margin = [0, 90]\n",
            "search.genes.futility_margin",
            &["equal nodes", "`search.nodes`"],
        ),
    ];
    for (k, (body, key, also)) in cases.iter().enumerate() {
        let config = write_file(
            tmp.path(),
            &format!("bad{k}.toml"),
            &format!("{base}{body}"),
        );
        let out = tmp.path().join(format!("out{k}"));
        let mut assert = bin()
            .current_dir(tmp.path())
            .args(["tune", "--quiet"])
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(contains(format!("`{key}`")))
            .stderr(contains(format!("bad{k}.toml")));
        for text in *also {
            assert = assert.stderr(contains(*text));
        }
        assert!(!out.exists(), "case {k}: {out:?} was created");
        // Without --out either: no results/ folder.
        bin()
            .current_dir(tmp.path())
            .args(["tune", "--quiet"])
            .arg(&config)
            .assert()
            .code(2);
        assert!(!tmp.path().join("results").exists(), "case {k}");
    }
    bin()
        .args(["tune"])
        .arg(tmp.path().join("no-such.toml"))
        .assert()
        .code(2)
        .stderr(contains("no-such.toml"));
}

/// A tiny run on random openings (what made the playoff of `playoff_openings = 4294967295`
/// allocate its openings first), without an endgame database.
const STUCK: &str = r#"
name = "stuck"
seed = 4
[population]
size = 6
[tournament]
rounds = 2
openings = "random:4"
max_plies = 40
playoff_openings = 2
[search]
min_depth = 1
max_depth = 2
database_pieces = 0
"#;

#[test]
fn a_run_stuck_on_a_value_an_older_version_took_goes_on_once_the_value_is_edited() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "stuck.toml", STUCK);
    let out = tmp.path().join("stuck");
    tune_stopped_after(&config, &out, 2);
    // What an older version wrote for `playoff_openings = 4294967295`, which it accepted: the
    // run folder's config.toml and the checkpoint's copy of it, every round played.
    let config_toml = out.join("config.toml");
    let set = |name: &str, from: &str, to: &str| {
        let path = out.join(name);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{name} has no {from:?}");
        fs::write(&path, text.replace(from, to)).unwrap();
    };
    let huge = "playoff_openings = 4294967295";
    set("config.toml", "playoff_openings = 2", huge);
    set("checkpoint.json", "playoff_openings = 2", huge);
    resume(&out)
        .code(2)
        .stderr(contains(
            "`tournament.playoff_openings`: must be at most 1000, got 4294967295",
        ))
        .stderr(contains(format!(
            "edit {} (only `tournament.playoff_openings` may change",
            config_toml.display()
        )))
        .stderr(contains("and run resume again"));

    // Every other key stays frozen, in range or not.
    set("config.toml", huge, "playoff_openings = 3");
    set("config.toml", "seed = 4", "seed = 5");
    resume(&out)
        .code(2)
        .stderr(contains("changed since the run started (`seed`)"))
        .stderr(contains("only `tournament.playoff_openings` may change"));
    set("config.toml", "seed = 5", "seed = 4");
    set("config.toml", "rounds = 2", "rounds = 4294967295");
    resume(&out)
        .code(2)
        .stderr(contains("`tournament.rounds`: must be at most 1000000"))
        .stderr(contains(
            "`tournament.rounds` cannot change after a run started",
        ));
    set("config.toml", "rounds = 4294967295", "rounds = 2");
    assert!(!out.join("playoff.csv").exists());

    // The edit is taken, with a note, and the run ends as one started with the new value.
    bin()
        .args(["resume", "--threads", "1"])
        .arg(&out)
        .assert()
        .success()
        .stderr(contains(
            "`tournament.playoff_openings` changed from 4294967295 to 3",
        ));
    let edited = write_file(
        tmp.path(),
        "edited.toml",
        &STUCK.replace("playoff_openings = 2", "playoff_openings = 3"),
    );
    let reference = tmp.path().join("reference");
    tune(&edited, &reference, 1);
    assert_same_files(&reference, &out);

    // Once the playoff is played, nothing may change.
    set(
        "config.toml",
        "playoff_openings = 3",
        "playoff_openings = 4",
    );
    resume(&out)
        .code(2)
        .stderr(contains("(`tournament.playoff_openings`)"))
        .stderr(contains("once the playoff has started"));
}

/// A pattern run whose fits learn the endings the database plays on (`fit_endings`): the same
/// files on 1 and 2 threads and through a stop and `resume` (the endings are extracted again
/// from the store), and its first fit learns more positions than the same run's without.
#[test]
fn a_run_whose_fits_learn_the_database_endings_is_reproducible() {
    let with_fits = LONGER.replace("[search]", "[weights]\nevaluator = \"patterns\"\n[search]")
        + "[evolution]\nfit_every = 2\n";
    let endings = with_fits.clone() + "fit_endings = 20\n";
    let tmp = tempfile::tempdir().unwrap();
    let (config, one, _) = same_on_one_and_two_threads(tmp.path(), &endings);
    let stopped = tmp.path().join("stopped");
    tune_stopped_after(&config, &stopped, 3);
    resume(&stopped).success();
    assert_same_files(&one, &stopped);

    // The fits' positions, as the log names them, with and without the endings.
    let fit_positions = |text: &str, name: &str| -> Vec<u64> {
        let config = write_file(tmp.path(), &format!("{name}.toml"), text);
        let run = bin()
            .arg("tune")
            .arg(&config)
            .arg("--out")
            .arg(tmp.path().join(name))
            .assert()
            .success();
        let log = String::from_utf8(run.get_output().stderr.clone()).unwrap();
        log.lines()
            .filter(|l| l.starts_with("fit after round"))
            .map(|l| {
                let from = l.find(" games (").expect("the fit line counts games") + 8;
                l[from..].split(' ').next().unwrap().parse().unwrap()
            })
            .collect()
    };
    let with = fit_positions(&endings, "with");
    let without = fit_positions(&with_fits, "without");
    // The first fit learns the same games in both runs (later ones differ: so do their fits'
    // specimens, and with them the games).
    assert_eq!(with.len(), without.len());
    assert!(
        with[0] > without[0],
        "with endings {with:?}, without {without:?}"
    );
}
