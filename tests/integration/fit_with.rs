//! Fits that also learn from earlier runs' games (`[evolution] fit_with`): real tiny runs.
//!
//! The run fixes the earlier run's store when it starts (written into its `config.toml`), so
//! that its fits learn from the same games on any thread count, across a crash, and however
//! the earlier run goes on meanwhile; and those games change what the fits learn.

use std::fs;
use std::path::Path;

use checkers_harness::tournament::Fixed;

use crate::support::{bin, tune_stopped_after, write_file};

/// A tiny pattern run with a fit after every round.
const EARLIER: &str = r#"
name = "earlier"
seed = 4
[population]
size = 8
[tournament]
rounds = 3
openings = "random:6"
max_plies = 80
playoff_openings = 2
[weights]
evaluator = "patterns"
[search]
min_depth = 2
max_depth = 4
database_pieces = 3
[evolution]
fit_every = 1
"#;

/// The files that must be the same between runs of one config.
const COMPARED: [&str; 7] = [
    "rounds.csv",
    "specimens.csv",
    "games.csv",
    "playoff.csv",
    "best.json",
    "checkpoint.json",
    "positions.bin",
];

/// Runs `config` into `out` on `threads` threads; its stderr.
fn tune(config: &Path, out: &Path, threads: usize) -> String {
    let output = bin()
        .args(["tune", "--threads", &threads.to_string()])
        .arg(config)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    stderr
}

fn games_in(run: &Path) -> usize {
    fs::read_to_string(run.join("games.csv"))
        .unwrap()
        .lines()
        .count()
        - 1
}

/// The games each fit of a run's log learnt from, in order.
fn fit_games(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter_map(|line| {
            let rest = line.split("fit after round ").nth(1)?;
            let games = rest.split(" on ").nth(1)?.split(' ').next()?;
            games.parse().ok()
        })
        .collect()
}

fn later(fit_with: &str) -> String {
    EARLIER
        .replace("name = \"earlier\"", "name = \"later\"")
        .replace("seed = 4", "seed = 5")
        .replace(
            "fit_every = 1\n",
            &format!("fit_every = 1\nfit_with = {fit_with}\n"),
        )
}

#[test]
fn fits_learn_from_the_earlier_run_as_it_stood_when_the_run_started() {
    let tmp = tempfile::tempdir().unwrap();
    let earlier = tmp.path().join("earlier");
    // The earlier run is stopped after 2 of its 3 rounds, and goes on later.
    tune_stopped_after(
        &write_file(tmp.path(), "earlier.toml", EARLIER),
        &earlier,
        2,
    );
    let earlier_games = games_in(&earlier);

    let config = write_file(tmp.path(), "later.toml", &later("[\"earlier\"]"));
    let one = tmp.path().join("one");
    let log = tune(&config, &one, 1);
    // Every fit learnt from the earlier run's games and the rounds played so far.
    let fits = fit_games(&log);
    assert_eq!(fits.len(), 3, "{log}");
    let rows: Vec<u32> = fs::read_to_string(one.join("games.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| row.split(',').next().unwrap().parse().unwrap())
        .collect();
    for (k, &games) in fits.iter().enumerate() {
        let own = rows.iter().filter(|&&round| round <= k as u32 + 1).count();
        assert_eq!(games, earlier_games + own, "fit {}: {log}", k + 1);
    }
    // The run fixed the earlier store: its path, rounds and identity are in config.toml.
    let written = fs::read_to_string(one.join("config.toml")).unwrap();
    let store = earlier.canonicalize().unwrap().join("positions.bin");
    let quoted = format!("store = {:?}", store.display().to_string());
    assert!(written.contains(&quoted), "{written}");
    assert!(written.contains("rounds = 2"), "{written}");
    let games = format!("games = {earlier_games}\n");
    assert!(written.contains(&games), "{written}");

    // Two threads, and a crash before round 3's checkpoint then `resume` once the earlier run
    // has finished: the same files, from the earlier run's first two rounds.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let crashed = tmp.path().join("crashed");
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&crashed)
        .env("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT", "3")
        .assert()
        .failure();
    bin()
        .args(["resume", "--quiet"])
        .arg(&earlier)
        .assert()
        .success();
    assert!(games_in(&earlier) > earlier_games);
    bin()
        .args(["resume", "--quiet"])
        .arg(&crashed)
        .assert()
        .success();
    for file in COMPARED {
        let a = fs::read(one.join(file)).unwrap();
        assert_eq!(
            a,
            fs::read(two.join(file)).unwrap(),
            "{file}: 1 vs 2 threads"
        );
        assert_eq!(a, fs::read(crashed.join(file)).unwrap(), "{file}: resumed");
    }

    // A window counts the run's own rounds only: the earlier games stay in every fit.
    let windowed = tmp.path().join("windowed");
    let text = later("[\"earlier\"]").replace("fit_every = 1\n", "fit_every = 1\nfit_window = 1\n");
    let log = tune(
        &write_file(tmp.path(), "windowed.toml", &text),
        &windowed,
        2,
    );
    let rows = fs::read_to_string(windowed.join("games.csv")).unwrap();
    let fixed = games_in(&earlier);
    for (k, &games) in fit_games(&log).iter().enumerate() {
        let round = (k + 1).to_string();
        let own = rows
            .lines()
            .filter(|row| row.split(',').next() == Some(&round))
            .count();
        assert_eq!(games, fixed + own, "fit {}: {log}", k + 1);
    }

    // Without the earlier games the same config learns something else.
    let alone = tmp.path().join("alone");
    tune(
        &write_file(tmp.path(), "alone.toml", &later("[]")),
        &alone,
        2,
    );
    assert_ne!(
        fs::read(one.join("specimens.csv")).unwrap(),
        fs::read(alone.join("specimens.csv")).unwrap()
    );
}

#[test]
fn fits_learn_from_pdn_games_the_same_on_any_thread_count_and_through_a_crash() {
    let tmp = tempfile::tempdir().unwrap();
    // Sparring games as `match --pdn` writes them (here our engine against itself).
    let sparring = tmp.path().join("sparring");
    fs::create_dir_all(&sparring).unwrap();
    bin()
        .args([
            "match",
            "material",
            "material",
            "--openings",
            "random:6",
            "--pairs",
            "5",
        ])
        .args([
            "--min-depth",
            "2",
            "--max-depth",
            "4",
            "--database-pieces",
            "0",
            "-q",
        ])
        .arg("--pdn")
        .arg(sparring.join("games.pdn"))
        .assert()
        .success();
    let config = write_file(tmp.path(), "later.toml", &later("[\"sparring\"]"));
    let one = tmp.path().join("one");
    let log = tune(&config, &one, 1);
    let rows: Vec<u32> = fs::read_to_string(one.join("games.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| row.split(',').next().unwrap().parse().unwrap())
        .collect();
    let fits = fit_games(&log);
    assert_eq!(fits.len(), 3, "{log}");
    for (k, &games) in fits.iter().enumerate() {
        let own = rows.iter().filter(|&&round| round <= k as u32 + 1).count();
        assert_eq!(
            games,
            10 + own,
            "fit {}: the 10 sparring games first: {log}",
            k + 1
        );
    }
    let written = fs::read_to_string(one.join("config.toml")).unwrap();
    assert!(
        written.contains("pdn = ") && written.contains("checksum = "),
        "{written}"
    );

    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let crashed = tmp.path().join("crashed");
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&crashed)
        .env("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT", "3")
        .assert()
        .failure();
    bin()
        .args(["resume", "--quiet"])
        .arg(&crashed)
        .assert()
        .success();
    for file in COMPARED {
        let a = fs::read(one.join(file)).unwrap();
        assert_eq!(
            a,
            fs::read(two.join(file)).unwrap(),
            "{file}: 1 vs 2 threads"
        );
        assert_eq!(a, fs::read(crashed.join(file)).unwrap(), "{file}: resumed");
    }

    // The sparring games change what the fits learn.
    let alone = tmp.path().join("alone");
    tune(
        &write_file(tmp.path(), "alone.toml", &later("[]")),
        &alone,
        2,
    );
    assert_ne!(
        fs::read(one.join("specimens.csv")).unwrap(),
        fs::read(alone.join("specimens.csv")).unwrap()
    );

    // A file changed after the run started: its resumption is refused before any game.
    let stopped = tmp.path().join("stopped");
    tune_stopped_after(&config, &stopped, 1);
    let pdn = sparring.join("games.pdn");
    let mut text = fs::read_to_string(&pdn).unwrap();
    text.push_str("\n[Event \"added\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 1-0\n");
    fs::write(&pdn, text).unwrap();
    let before = fs::read(stopped.join("checkpoint.json")).unwrap();
    let out = bin()
        .args(["resume", "--quiet"])
        .arg(&stopped)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("games.pdn changed since the run started"),
        "{stderr}"
    );
    assert_eq!(fs::read(stopped.join("checkpoint.json")).unwrap(), before);
}

#[test]
fn a_source_that_cannot_be_read_is_refused_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    for (text, needle) in [
        (later("[\"nowhere\"]"), "cannot be opened"),
        (
            later("[\"earlier\"]").replace("fit_every = 1\n", ""),
            "set `evolution.fit_every`",
        ),
        (
            later("[{ store = \"x\", rounds = 2, games = 9, run = \"12\" }]"),
            "16 hexadecimal digits",
        ),
    ] {
        let config = write_file(tmp.path(), "bad.toml", &text);
        let output = bin()
            .args(["tune", "--quiet"])
            .arg(&config)
            .arg("--out")
            .arg(tmp.path().join("out"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("evolution.fit_with"), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
        assert!(stderr.contains("bad.toml"), "{stderr}");
        assert!(!tmp.path().join("out").exists(), "{stderr}");
    }
}

/// `configs/hour-next.toml` as a user runs it: beside a `results/hour-gated` (here a tiny run), it
/// fixes that run's store; without one it is refused, naming the key.
#[test]
fn the_shipped_next_run_reads_results_hour_gated_and_is_refused_without_it() {
    let tmp = tempfile::tempdir().unwrap();
    let configs = tmp.path().join("configs");
    fs::create_dir_all(&configs).unwrap();
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/hour-next.toml");
    let config = configs.join("hour-next.toml");
    fs::copy(shipped, &config).unwrap();
    let err = checkers_harness::run::Config::load(&config)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("evolution.fit_with") && err.contains("results/hour-gated"),
        "{err}"
    );

    let hour = tmp.path().join("results").join("hour-gated");
    tune(&write_file(tmp.path(), "earlier.toml", EARLIER), &hour, 2);
    let loaded = checkers_harness::run::Config::load(&config).unwrap();
    let sources = &loaded.evolution.fit_with;
    assert_eq!(sources.len(), 1);
    let store = hour.canonicalize().unwrap().join("positions.bin");
    assert_eq!(sources[0].store, store);
    let Some(Fixed::Store(fixed)) = sources[0].fixed else {
        panic!("{sources:?}");
    };
    assert_eq!(fixed.rounds, 3);
    assert_eq!(fixed.games, games_in(&hour) as u64);
    // One fit per gate, and about half an hour of two cores with a real hour run's 30,534
    // games to learn from (the model a run prints at its start).
    assert_eq!(loaded.gate.every, loaded.evolution.fit_every);
    let mut real = loaded.clone();
    if let Some(Fixed::Store(fixed)) = real.evolution.fit_with[0].fixed.as_mut() {
        fixed.games = 30_534;
    }
    let hours = real.expected_cpu_seconds(0) / 2.0 / 3600.0;
    assert!((0.3..=0.75).contains(&hours), "{hours} h");
}

#[test]
fn the_same_pdn_games_are_never_learnt_twice_however_named() {
    let tmp = tempfile::tempdir().unwrap();
    let game = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n";
    fs::write(tmp.path().join("spar.pdn"), game).unwrap();
    fs::create_dir_all(tmp.path().join("links")).unwrap();
    std::os::unix::fs::symlink("../spar.pdn", tmp.path().join("links/spar.pdn")).unwrap();
    fs::create_dir_all(tmp.path().join("copies")).unwrap();
    fs::write(tmp.path().join("copies/again.pdn"), game).unwrap();
    for (fit_with, says) in [
        ("[\"spar.pdn\", \"links\"]", "the same PDN games twice"),
        ("[\"links/spar.pdn\", \"spar.pdn\"]", "the same store"),
        ("[\"copies\", \"spar.pdn\"]", "the same PDN games twice"),
    ] {
        let config = write_file(tmp.path(), "twice.toml", &later(fit_with));
        let output = bin()
            .args(["tune", "--quiet"])
            .arg(&config)
            .arg("--out")
            .arg(tmp.path().join("out"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{fit_with}: {stderr}");
        assert!(
            stderr.contains("evolution.fit_with")
                && stderr.contains("items 1 and 2")
                && stderr.contains(says),
            "{stderr}"
        );
        assert!(!tmp.path().join("out").exists());
    }
}

#[test]
fn every_damaged_game_of_a_pdn_source_is_told_as_fit_tells_it() {
    let tmp = tempfile::tempdir().unwrap();
    let good = "[Event \"good\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n";
    let bad = "[Event \"bad\"]\n[Result \"0-1\"]\n\n1. 9-18 22-17 0-1\n\n";
    let pdn = write_file(tmp.path(), "spar.pdn", &format!("{bad}{good}{bad}"));
    let fit = bin()
        .args(["fit", "--first-ply", "0", "--validation", "0", "-o"])
        .arg(tmp.path().join("w.json"))
        .arg(&pdn)
        .output()
        .unwrap();
    let fit_told = String::from_utf8_lossy(&fit.stderr)
        .matches("game skipped")
        .count();
    let text = later("[\"spar.pdn\"]").replace("rounds = 3", "rounds = 1");
    let config = write_file(tmp.path(), "later.toml", &text);
    let stderr = tune(&config, &tmp.path().join("run"), 1);
    let told: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("evolution.fit_with") && l.contains("game skipped"))
        .collect();
    assert_eq!(told.len(), 2, "{stderr}");
    assert_eq!(fit_told, 2, "fit tells each too");
    assert!(told.iter().all(|l| l.contains("spar.pdn")), "{told:?}");
}
