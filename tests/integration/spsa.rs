//! `spsa`: the same files on any thread count and through a run cut short, the tuned values in
//! `best.json`, the direction of the updates, and one clear error per bad config.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use checkers_engine::search::SelectiveParams;
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::spsa::{PlayedPair, SpsaConfig, SpsaRun};
use predicates::prelude::*;

fn bin() -> Command {
    Command::cargo_bin("checkers-tuner").unwrap()
}

/// Ten features, material and a little more; selective with the defaults.
const WEIGHTS: &str = r#"{"opening": [100, 150, 5, 5, 3, 3, -2, 4, 2, 5], "endgame": [100, 160, 5, 5, 3, 3, -4, 6, 2, 5]}"#;

/// A small run's config: `iterations` pairs of `batch` at 1,500 nodes, no database.
fn config(dir: &Path, iterations: u32, batch: u32, params: &str) -> PathBuf {
    std::fs::write(dir.join("w.json"), WEIGHTS).unwrap();
    let path = dir.join("spsa.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"small\"\nweights = \"w.json\"\niterations = {iterations}\nbatch = {batch}\n\
             nodes = 1500\ndatabase_pieces = 0\n\n{params}"
        ),
    )
    .unwrap();
    path
}

const TWO_KEYS: &str = "[params.futility_margin]\nmin = 0\nmax = 300\nc = 20\nr = 0.05\n\n\
                        [params.lmr_moves]\nmin = 1\nmax = 12\nc = 1.5\nr = 0.05\n";

fn run(config: &Path, out: &Path, threads: &str) {
    bin()
        .args(["spsa", "-q", "--threads", threads, "--out"])
        .arg(out)
        .arg(config)
        .assert()
        .success();
}

/// `spsa CONFIG --out OUT` refused with exit status 2 and a message containing each of `said`.
fn refused(config: &Path, out: &Path, said: &[&str]) {
    let output = bin()
        .args(["spsa", "-q", "--out"])
        .arg(out)
        .arg(config)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    for part in said {
        assert!(stderr.contains(part), "{part:?} not in {stderr}");
    }
}

fn files(out: &Path) -> Vec<Vec<u8>> {
    ["config.toml", "base.json", "spsa.csv", "best.json"]
        .iter()
        .map(|f| std::fs::read(out.join(f)).unwrap())
        .collect()
}

#[test]
fn the_same_files_on_one_and_two_threads_and_through_a_run_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), 12, 4, TWO_KEYS);
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    run(&config, &one, "1");
    run(&config, &two, "2");
    assert_eq!(files(&one), files(&two));
    let rows = String::from_utf8(std::fs::read(one.join("spsa.csv")).unwrap()).unwrap();
    assert_eq!(rows.lines().count(), 13, "{rows}");
    // The values moved: the run played and learnt, not only wrote its start.
    let last: Vec<&str> = rows.lines().last().unwrap().split(',').collect();
    assert_ne!(&last[6..], ["3", "60"], "{rows}");

    // A kill in the middle of a batch's write: 6 rows (one batch and a half) and half a line.
    let cut = dir.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    for f in ["config.toml", "base.json"] {
        std::fs::copy(one.join(f), cut.join(f)).unwrap();
    }
    let lines: Vec<&str> = rows.lines().collect();
    let mut short = lines[..7].join("\n");
    short.push('\n');
    short.push_str(&lines[7][..5]);
    std::fs::write(cut.join("spsa.csv"), short).unwrap();
    bin()
        .args(["spsa", "--threads", "2", "--out"])
        .arg(&cut)
        .arg(&config)
        .assert()
        .success()
        .stdout(predicate::str::contains("continued after 4 pairs"));
    assert_eq!(files(&one), files(&cut));

    // A finished run run again plays nothing and writes the same files.
    run(&config, &one, "2");
    assert_eq!(files(&one), files(&two));
}

#[test]
fn best_json_carries_the_rounded_values_as_its_search_table() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), 8, 8, TWO_KEYS);
    let out = dir.path().join("out");
    run(&config, &out, "2");
    let rows = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let last: Vec<f64> = (rows.lines().last().unwrap().split(',').skip(6))
        .map(|v| v.parse().unwrap())
        .collect();
    let best = WeightsFile::load(&out.join("best.json")).unwrap();
    let search = best.search.expect("a search table");
    assert_eq!(search.mode.name(), "selective");
    // The keys in `[search]`'s order.
    assert_eq!(search.lmr_moves, last[0].round() as u32);
    assert_eq!(search.futility_margin, last[1].round() as u32);
    // The weights are the base file's.
    let base = WeightsFile::load(&dir.path().join("w.json")).unwrap();
    assert_eq!(best.weights, base.weights);
    // `match` plays the tuned side with them and the other with the defaults.
    bin()
        .args([
            "match",
            "--nodes",
            "500",
            "--pairs",
            "2",
            "--threads",
            "1",
            "-q",
        ])
        .arg(out.join("best.json"))
        .arg(dir.path().join("w.json"))
        .args(["--search-b", "selective", "--database-pieces", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("results for A"));
}

#[test]
fn a_won_pair_moves_each_key_towards_the_winner_and_a_drawn_one_moves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = config(dir.path(), 100, 8, TWO_KEYS);
    let config = SpsaConfig::load(&path).unwrap();
    let weights = WeightsFile::load(&dir.path().join("w.json")).unwrap();
    let run = SpsaRun::new(&config, &weights, None).unwrap();
    let theta = run.start();
    // The keys in the config's order of the search's keys (lmr_moves, futility_margin), each
    // starting at its default.
    let start = SelectiveParams::DEFAULT;
    let (moves, margin) = (f64::from(start.lmr_moves), f64::from(start.futility_margin));
    assert_eq!(theta, [moves, margin]);
    let pair = |half_points| PlayedPair {
        iteration: 10,
        signs: vec![1.0, -1.0],
        plus: vec![start.lmr_moves + 1, start.futility_margin - 20],
        minus: vec![start.lmr_moves - 1, start.futility_margin + 20],
        plus_half_points: half_points,
    };
    let won = run.update(&theta, &pair(4));
    assert!(won[0] > moves && won[1] < margin, "{won:?}");
    let lost = run.update(&theta, &pair(0));
    assert!(lost[0] < moves && lost[1] > margin, "{lost:?}");
    // Two wins move twice as far as a win and a draw; the moves mirror each other.
    let half = run.update(&theta, &pair(3));
    assert!(((won[1] - margin) - 2.0 * (half[1] - margin)).abs() < 1e-9);
    assert!(((won[1] - margin) + (lost[1] - margin)).abs() < 1e-9);
    assert_eq!(run.update(&theta, &pair(2)), theta);
    // Kept in the key's range.
    let at_ends = run.update(&[12.0, 0.0], &pair(4));
    assert_eq!(at_ends, [12.0, 0.0]);
}

#[test]
fn a_bad_config_is_one_error_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[params.history]\nmin = 0\nmax = 1\nc = 1\nr = 0.01\n",
            "params.history",
        ),
        (
            "[params.lmr_reduction]\nmin = 0\nmax = 9\nc = 1\nr = 0.01\n",
            "params.lmr_reduction.max",
        ),
        (
            "[params.lmr_moves]\nmin = 8\nmax = 2\nc = 1\nr = 0.01\n",
            "params.lmr_moves.min",
        ),
        (
            "[params.aspiration]\nmin = 0\nmax = 100\nc = 0.2\nr = 0.01\n",
            "params.aspiration.c",
        ),
        (
            "[params.aspiration]\nmin = 0\nmax = 100\nstart = 150\nc = 1\nr = 0.01\n",
            "params.aspiration.start",
        ),
        (
            "[params.aspiration]\nmin = 0\nmax = 100\nc = 1\nr = 0.01\nspeed = 3\n",
            "speed",
        ),
        ("", "params"),
    ];
    for (params, key) in cases {
        let path = config(dir.path(), 8, 4, params);
        refused(&path, &dir.path().join("never"), &["spsa.toml", key]);
        assert!(!dir.path().join("never").exists(), "{key}");
    }
    // A weights file that is not one names the config and its key.
    let path = config(dir.path(), 8, 4, TWO_KEYS);
    std::fs::write(dir.path().join("w.json"), "{\"opening\": [1]}").unwrap();
    refused(&path, &dir.path().join("never"), &["spsa.toml: weights"]);
}

#[test]
fn a_folder_of_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), 4, 4, TWO_KEYS);
    let out = dir.path().join("out");
    run(&config, &out, "1");
    let before = files(&out);
    // The same folder with another seed is another run.
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("batch = 4", "batch = 4\nseed = 2")).unwrap();
    refused(&config, &out, &["another config"]);
    assert_eq!(files(&out), before);
    // The run's own files are written in place: a link standing for one is refused, and
    // what it points to is left as it was.
    let linked = dir.path().join("linked");
    std::fs::create_dir(&linked).unwrap();
    let elsewhere = dir.path().join("elsewhere.csv");
    std::fs::copy(out.join("spsa.csv"), &elsewhere).unwrap();
    std::fs::write(&config, &text).unwrap();
    for f in ["config.toml", "base.json"] {
        std::fs::copy(out.join(f), linked.join(f)).unwrap();
    }
    std::os::unix::fs::symlink(&elsewhere, linked.join("spsa.csv")).unwrap();
    refused(&config, &linked, &["spsa.csv"]);
    assert_eq!(
        std::fs::read(&elsewhere).unwrap(),
        std::fs::read(out.join("spsa.csv")).unwrap()
    );
    // A folder with other files (a tuning run's, say) is not an SPSA run's.
    std::fs::write(dir.path().join("other.txt"), "x").unwrap();
    refused(&config, dir.path(), &["other files"]);
}

#[test]
fn the_shipped_config_reads_and_opens_every_key() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/search-spsa.toml");
    let config = SpsaConfig::load(&path).unwrap();
    let keys: Vec<&str> = config.tuned().iter().map(|t| t.key()).collect();
    assert_eq!(keys, checkers_engine::search::GENE_KEYS);
    assert!(config
        .weights
        .ends_with("results/overnight-patterns/best.json"));
}

/// Issue 47: a continued run goes on only from rows that prove themselves. Each row's values
/// played follow from the values before it, and its values after from its points and the
/// schedule: an edited row is refused naming its line, and the folder is left as it was.
#[test]
fn edited_rows_are_refused_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), 8, 4, TWO_KEYS);
    let whole = dir.path().join("whole");
    run(&config, &whole, "1");
    let rows = std::fs::read_to_string(whole.join("spsa.csv")).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 9, "{rows}");
    // Each edit of the first batch's rows (lines 2 to 5), kept to whole batches so that the
    // continued run reads them: (line, column, new value).
    let field = |line: usize, column: usize| lines[line - 1].split(',').nth(column).unwrap();
    let other_points = if field(3, 1) == "2" { "0" } else { "2" };
    let edits: [(usize, usize, String); 4] = [
        // the last row's theta
        (
            5,
            6,
            format!("{}", field(5, 6).parse::<f64>().unwrap() + 7.0),
        ),
        // a row's points
        (3, 1, other_points.to_string()),
        // a value played
        (4, 2, format!("{}", field(4, 2).parse::<u32>().unwrap() + 1)),
        // points that no pair scores
        (2, 1, "1.25".to_string()),
    ];
    for (line, column, value) in edits {
        let out = dir.path().join(format!("edited-{line}-{column}"));
        std::fs::create_dir(&out).unwrap();
        for f in ["config.toml", "base.json"] {
            std::fs::copy(whole.join(f), out.join(f)).unwrap();
        }
        let mut kept: Vec<String> = lines[..5].iter().map(|l| l.to_string()).collect();
        let mut fields: Vec<&str> = kept[line - 1].split(',').collect();
        fields[column] = &value;
        kept[line - 1] = fields.join(",");
        let text = kept.join("\n") + "\n";
        std::fs::write(out.join("spsa.csv"), &text).unwrap();
        refused(&config, &out, &[&format!("spsa.csv line {line}:")]);
        assert_eq!(std::fs::read_to_string(out.join("spsa.csv")).unwrap(), text);
        assert!(!out.join("best.json").exists());
    }
}
