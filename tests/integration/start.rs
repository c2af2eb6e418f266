//! A run that starts from a weights file (`population.start`): real tiny runs through the
//! binary, started from an earlier run's best.

use std::fs;
use std::path::Path;

use crate::support::{assert_same_files, bin, resume, tune, tune_stopped_after, write_file};

/// A tiny pattern run with a fit every round.
const RUN: &str = r#"
name = "first"
seed = 4
[population]
size = 8
[tournament]
rounds = 2
openings = "random:6"
max_plies = 60
playoff_openings = 1
[weights]
evaluator = "patterns"
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
[evolution]
fit_every = 1
"#;

/// The files two runs of one config must agree on.
const COMPARED: [&str; 5] = [
    "rounds.csv",
    "specimens.csv",
    "games.csv",
    "playoff.csv",
    "best.json",
];

fn json(path: &Path) -> serde_json::Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The rows of `specimens.csv` of round `round`, by column.
fn initial_rows(run: &Path) -> Vec<Vec<(String, String)>> {
    let text = fs::read_to_string(run.join("specimens.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|line| {
            header
                .iter()
                .cloned()
                .zip(line.split(',').map(String::from))
                .collect()
        })
        .collect()
}

fn field<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(h, _)| h == name).unwrap().1
}

#[test]
fn a_run_started_from_weights_keeps_a_copy_and_is_the_same_on_any_thread_count_and_through_a_crash()
{
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    tune(&write_file(tmp.path(), "first.toml", RUN), &first, 2);
    fs::create_dir(tmp.path().join("configs")).unwrap();
    fs::copy(first.join("best.json"), tmp.path().join("start.json")).unwrap();
    let text = RUN
        .replace("name = \"first\"", "name = \"second\"")
        .replace("seed = 4", "seed = 9")
        .replace("size = 8", "size = 8\nstart = \"../start.json\"");
    let config = write_file(&tmp.path().join("configs"), "second.toml", &text);

    let one = tmp.path().join("one");
    tune(&config, &one, 1);
    // The run's copy of its start: the start file's weights and tables, as specimen 0's.
    let kept = json(&one.join("tables/specimen-0.json"));
    let start = json(&tmp.path().join("start.json"));
    let weights = |file: &serde_json::Value| {
        let mut file = file.as_object().unwrap().clone();
        file.remove("source");
        file
    };
    assert_eq!(weights(&kept), weights(&start));
    // Every specimen of the first population carries the start's tables (none was fitted yet);
    // the survivors of round 1 that were born in it say so in specimens.csv.
    let rows = initial_rows(&one);
    let born_first: Vec<_> = rows
        .iter()
        .filter(|r| field(r, "round") == "1" && field(r, "born_round") == "0")
        .collect();
    assert!(!born_first.is_empty());
    assert!(
        born_first.iter().all(|r| field(r, "tables") == "0"),
        "{born_first:?}"
    );
    let written = fs::read_to_string(one.join("config.toml")).unwrap();
    let absolute = tmp.path().join("start.json").canonicalize().unwrap();
    let line = format!("start = {:?}", absolute.display().to_string());
    assert!(written.contains(&line), "{written}");

    // Two threads; and crashes after round 1, then the start file changed or deleted before
    // `resume`: the run goes on from the copy it kept, file for file.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let crashed = tmp.path().join("crashed");
    tune_stopped_after(&config, &crashed, 1);
    let gone = tmp.path().join("gone");
    tune_stopped_after(&config, &gone, 1);
    let mut changed = start.clone();
    changed["opening"][1] = serde_json::json!(299);
    let start_file = tmp.path().join("start.json");
    fs::write(&start_file, changed.to_string()).unwrap();
    resume(&crashed);
    fs::remove_file(&start_file).unwrap();
    resume(&gone);
    assert_same_files(
        &COMPARED,
        &one,
        &[
            (&two, "2 threads"),
            (&crashed, "resumed"),
            (&gone, "resumed without the file"),
        ],
    );
    // The finished run's folder still reads without the file.
    bin().arg("export").arg(&gone).assert().success();
    fs::write(&start_file, start.to_string()).unwrap();
    // Another seed from material is another run: the start changed the games.
    let plain = tmp.path().join("plain");
    let alone = text.replace("start = \"../start.json\"\n", "");
    tune(
        &write_file(&tmp.path().join("configs"), "plain.toml", &alone),
        &plain,
        2,
    );
    assert_ne!(
        fs::read(plain.join("games.csv")).unwrap(),
        fs::read(one.join("games.csv")).unwrap()
    );

    // A stopped run without its copy is refused, naming it.
    let lost = tmp.path().join("lost");
    tune_stopped_after(&config, &lost, 1);
    fs::remove_file(lost.join("tables/specimen-0.json")).unwrap();
    let refused = bin()
        .args(["resume", "--quiet"])
        .arg(&lost)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("specimen-0.json"), "{stderr}");
    assert!(stderr.contains("put the file back"), "{stderr}");
}

/// A kept weights file swapped for another run's (or another specimen's) is refused when the
/// run goes on: the start's copy and a fitted specimen's tables alike.
#[test]
fn a_kept_weights_file_swapped_for_another_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    tune(&write_file(tmp.path(), "first.toml", RUN), &first, 2);
    let start_file = tmp.path().join("start.json");
    fs::copy(first.join("best.json"), &start_file).unwrap();
    let text = RUN
        .replace("name = \"first\"", "name = \"second\"")
        .replace("size = 8", "size = 8\nstart = \"start.json\"");
    let config = write_file(tmp.path(), "second.toml", &text);
    let refused = |run: &Path, named: &str| {
        let assert = bin().args(["resume", "--quiet"]).arg(run).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(named), "{stderr}");
        assert!(stderr.contains("the file was replaced"), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    };

    // The start's copy, swapped for the file it was copied from (the first run's best).
    let swapped = tmp.path().join("swapped");
    tune_stopped_after(&config, &swapped, 1);
    let copy = swapped.join("tables/specimen-0.json");
    fs::copy(&start_file, &copy).unwrap();
    refused(&swapped, "specimen-0.json");

    // Every fitted specimen's tables, swapped for the start's copy (this run, but specimen 0).
    let fitted = tmp.path().join("fitted");
    tune_stopped_after(&config, &fitted, 1);
    let kept = fitted.join("tables/specimen-0.json");
    let mut replaced = 0;
    for entry in fs::read_dir(fitted.join("tables")).unwrap() {
        let path = entry.unwrap().path();
        if path != kept {
            fs::copy(&kept, &path).unwrap();
            replaced += 1;
        }
    }
    assert!(replaced > 0, "round 1 fitted no specimen");
    refused(
        &fitted,
        "holds the weights of run \"second\", specimen 0, round 0",
    );

    // Untouched, the same run goes on.
    let whole = tmp.path().join("whole");
    tune_stopped_after(&config, &whole, 1);
    resume(&whole);
}
