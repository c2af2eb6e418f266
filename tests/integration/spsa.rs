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
    let (lmr_moves, futility_margin) =
        (i64::from(start.lmr_moves), i64::from(start.futility_margin));
    let pair = |half_points| PlayedPair {
        iteration: 10,
        signs: vec![1.0, -1.0],
        plus: vec![lmr_moves + 1, futility_margin - 20],
        minus: vec![lmr_moves - 1, futility_margin + 20],
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
    let tuned = config.tuned();
    let keys: Vec<&str> = tuned.iter().map(|t| t.key()).collect();
    assert_eq!(keys, checkers_engine::search::GENE_KEYS);
    assert!(config
        .weights
        .as_deref()
        .is_some_and(|w| w.ends_with("results/overnight-patterns/best.json")));
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

// ---------------------------------------------------------------------------------------
// An engine's options (issue 62): two instances of a CheckerBoard library or a Hub program at a
// time a move, each given its side's values.

/// Our CheckerBoard library as `cargo test` built it.
fn our_library() -> PathBuf {
    crate::engines::library("checkers_tuner_cb")
}

/// Our `hub` command as a Hub engine, without a database.
fn our_hub() -> String {
    format!(
        "hub:{} hub --weights material --database-pieces 0",
        assert_cmd::cargo::cargo_bin("checkers-tuner").display()
    )
}

/// A small engine run's config in `dir`: `engine`, `iterations` pairs of 2 at 0.01 s a move,
/// short games, no database; `extra` keys before `params`.
fn engine_config(dir: &Path, engine: &str, iterations: u32, extra: &str, params: &str) -> PathBuf {
    let path = dir.join("engine-spsa.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"engine\"\nengine = {engine:?}\niterations = {iterations}\nbatch = 2\n\
             max_plies = 40\ndatabase_pieces = 0\n{extra}\n\n{params}"
        ),
    )
    .unwrap();
    path
}

const ENGINE_KEYS: &str = "[params.lmr_depth]\nstart = 3\nmin = 1\nmax = 8\nc = 1\nr = 0.05\n\n\
                           [params.futility_margin]\nstart = 33\nmin = 0\nmax = 300\nc = 20\n\
                           r = 0.05\n";

/// `spsa CONFIG --out OUT` of an engine run, without a database cache to find.
fn run_engine(config: &Path, out: &Path) -> String {
    let output = crate::support::bin_without_databases()
        .args(["spsa", "-q", "--threads", "2", "--out"])
        .arg(out)
        .arg(config)
        .assert()
        .success();
    String::from_utf8_lossy(&output.get_output().stdout).into_owned()
}

#[test]
fn spsa_our_library_takes_its_search_keys_as_options_in_their_ranges() {
    use checkers_harness::players::CheckerBoardEngine;
    let engine = CheckerBoardEngine {
        library: our_library(),
        options: vec!["set lmr_depth 3".into()],
        host: assert_cmd::cargo::cargo_bin("checkers-tuner"),
    };
    let mut player = engine.start().unwrap();
    assert_eq!(player.command("get lmr_depth").unwrap(), (1, "3".into()));
    assert_eq!(
        player.command("set futility_margin 50").unwrap(),
        (1, "futility_margin 50".into())
    );
    assert_eq!(player.command("get futility_margin").unwrap().1, "50");
    // Out of its range: not taken, the reply says the range, the value stays.
    let (handled, reply) = player.command("set lmr_depth 41").unwrap();
    assert_eq!(handled, 0);
    assert!(reply.contains("from 1 to 40"), "{reply}");
    assert_eq!(player.command("get lmr_depth").unwrap().1, "3");
    // A key that is not one: not handled.
    assert_eq!(player.command("set nonsense 3").unwrap().0, 0);
}

#[test]
fn spsa_of_our_library_writes_its_rows_and_best_options_and_continues_after_a_stop() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("cb:{}", our_library().display());
    let config = engine_config(dir.path(), &engine, 4, "movetime = 0.01", ENGINE_KEYS);
    let out = dir.path().join("out");
    let stdout = run_engine(&config, &out);
    assert!(
        stdout.contains("at 0.01 s a move between two instances of cb:"),
        "{stdout}"
    );
    assert!(stdout.contains("--option-a \"set lmr_depth"), "{stdout}");
    let rows = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 5, "{rows}");
    // The options in the order of their names.
    assert_eq!(
        lines[0],
        "iteration,plus_points,plus_futility_margin,plus_lmr_depth,minus_futility_margin,\
         minus_lmr_depth,theta_futility_margin,theta_lmr_depth"
    );
    // No weights file: the config, the rows and the best options.
    assert!(!out.join("base.json").exists() && !out.join("best.json").exists());
    let last: Vec<f64> = (lines[4].split(',').skip(6))
        .map(|v| v.parse().unwrap())
        .collect();
    let best = std::fs::read_to_string(out.join("best.txt")).unwrap();
    assert_eq!(
        best,
        format!(
            "set futility_margin {}\nset lmr_depth {}\n",
            last[0].round(),
            last[1].round()
        )
    );

    // A stop in the middle of the second batch's write: one batch kept, played on to 4 rows.
    let cut = dir.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(out.join("config.toml"), cut.join("config.toml")).unwrap();
    std::fs::write(
        cut.join("spsa.csv"),
        format!(
            "{}\n{}\n{}\n{}",
            lines[0],
            lines[1],
            lines[2],
            &lines[3][..4]
        ),
    )
    .unwrap();
    let continued = crate::support::bin_without_databases()
        .args(["spsa", "--threads", "2", "--out"])
        .arg(&cut)
        .arg(&config)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&continued.get_output().stdout).into_owned();
    assert!(stdout.contains("continued after 2 pairs"), "{stdout}");
    let again = std::fs::read_to_string(cut.join("spsa.csv")).unwrap();
    let again: Vec<&str> = again.lines().collect();
    assert_eq!(again.len(), 5);
    assert_eq!(again[..3], lines[..3]);
    assert!(cut.join("best.txt").is_file());
}

#[test]
fn spsa_of_a_hub_program_sends_set_param_lines() {
    let dir = tempfile::tempdir().unwrap();
    let params = "[params.lmr_depth]\nstart = 3\nmin = 1\nmax = 8\nc = 1\nr = 0.05\n";
    let config = engine_config(dir.path(), &our_hub(), 2, "movetime = 0.01", params);
    let out = dir.path().join("out");
    run_engine(&config, &out);
    let rows = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    assert_eq!(rows.lines().count(), 3, "{rows}");
    let best = std::fs::read_to_string(out.join("best.txt")).unwrap();
    assert!(
        best.starts_with("set-param name=lmr_depth value=") && best.lines().count() == 1,
        "{best}"
    );
}

#[test]
fn spsa_refuses_an_engine_it_cannot_tune_before_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ours = format!("cb:{}", our_library().display());
    std::fs::write(d.join("w.json"), WEIGHTS).unwrap();
    std::fs::write(d.join("not-a-library.so"), "text").unwrap();
    let timed = "movetime = 0.01";
    let no_start = "[params.lmr_depth]\nmin = 1\nmax = 8\nc = 1\nr = 0.05\n";
    let nonsense = "[params.nonsense]\nstart = 3\nmin = 1\nmax = 8\nc = 1\nr = 0.05\n";
    let too_deep = "[params.lmr_depth]\nstart = 45\nmin = 1\nmax = 50\nc = 1\nr = 0.05\n";
    let cases: [(&str, &str, &str, &[&str]); 9] = [
        // An engine that cannot be loaded: not a file, not a library.
        (
            "cb:no-such.so",
            timed,
            ENGINE_KEYS,
            &["engine: cb:", "no-such.so"],
        ),
        (
            "cb:not-a-library.so",
            timed,
            ENGINE_KEYS,
            &["engine: cb:", "not-a-library.so"],
        ),
        // An option it does not take, or a value it refuses (checked before any game).
        (
            &ours,
            timed,
            nonsense,
            &["params.nonsense", "did not take it"],
        ),
        (
            &ours,
            timed,
            too_deep,
            &["params.lmr_depth", "from 1 to 40"],
        ),
        (
            &our_hub(),
            timed,
            nonsense,
            &["params.nonsense", "nonsense"],
        ),
        // A node budget, or no time.
        (
            &ours,
            "movetime = 0.01\nnodes = 1000",
            ENGINE_KEYS,
            &["nodes", "movetime"],
        ),
        (&ours, "", ENGINE_KEYS, &["movetime: missing"]),
        // Both what is tuned, and an engine option without a start.
        (
            &ours,
            "movetime = 0.01\nweights = \"w.json\"",
            ENGINE_KEYS,
            &["engine:", "not both"],
        ),
        (&ours, timed, no_start, &["params.lmr_depth.start"]),
    ];
    for (engine, extra, params, said) in cases {
        let config = engine_config(d, engine, 2, extra, params);
        let out = d.join("never");
        let output = crate::support::bin_without_databases()
            .args(["spsa", "-q", "--out"])
            .arg(&out)
            .arg(&config)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
        assert!(stderr.contains("engine-spsa.toml"), "{stderr}");
        for part in said {
            assert!(stderr.contains(part), "{part:?} not in {stderr}");
        }
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(!out.exists(), "{said:?}");
    }
    // Neither weights nor an engine.
    let path = d.join("neither.toml");
    std::fs::write(
        &path,
        format!("name = \"x\"\niterations = 2\nnodes = 100\n\n{TWO_KEYS}"),
    )
    .unwrap();
    refused(
        &path,
        &d.join("never"),
        &["neither.toml", "weights: missing"],
    );
    // Our search at a time a move: the engine's key.
    let path = config(d, 2, 2, TWO_KEYS);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("movetime = 0.1\n{text}")).unwrap();
    refused(&path, &d.join("never"), &["spsa.toml", "movetime"]);
}

#[test]
fn spsa_the_shipped_engine_config_reads_with_starts_for_its_options() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/engine-spsa.toml");
    let config = SpsaConfig::load(&path).unwrap();
    assert_eq!(config.movetime, Some(0.05));
    assert!(config.nodes.is_none() && config.weights.is_none());
    assert!(config
        .engine
        .as_deref()
        .is_some_and(|e| e.starts_with("cb:") && e.ends_with("libcheckers_tuner_cb.so")));
    let tuned = config.tuned();
    let keys: Vec<&str> = tuned.iter().map(|t| t.key()).collect();
    assert_eq!(
        keys,
        [
            "futility_depth",
            "futility_margin",
            "lmr_depth",
            "lmr_moves",
            "lmr_reduction"
        ]
    );
    // Each starts from the library's own value: the search's defaults.
    let defaults = SelectiveParams::DEFAULT;
    let start = |key: &str| config.params[key].start;
    assert_eq!(start("lmr_depth"), Some(f64::from(defaults.lmr_depth)));
    assert_eq!(
        start("futility_margin"),
        Some(f64::from(defaults.futility_margin))
    );
}
