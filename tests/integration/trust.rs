//! Issue 35, "Nothing trusted unchecked", through the binary: stores that prove they are whole
//! and their own, one output guard for every run folder, one validation of weights and
//! options, and bounded PDN reading.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

const TINY: &str = "name = \"tiny\"
seed = 5
[population]
size = 8
[tournament]
rounds = 2
openings = \"3-move\"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
";

fn bin(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command
        .current_dir(dir)
        .env("CHECKERS_TUNER_CACHE", dir.join("cache"));
    command
}

/// Two finished tiny runs, `run` (seed 5) and `run7` (seed 7), in `d`.
fn two_runs(d: &Path) {
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    fs::write(d.join("tiny7.toml"), TINY.replace("seed = 5", "seed = 7")).unwrap();
    for (config, out) in [("tiny.toml", "run"), ("tiny7.toml", "run7")] {
        bin(d)
            .args(["tune", config, "--out", out, "-q"])
            .assert()
            .success();
    }
}

/// The run folder `dir` as if stopped before its playoff, so that `resume` opens its store.
fn unfinish(dir: &Path) {
    let path = dir.join("checkpoint.json");
    let mut checkpoint: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    checkpoint["playoff"] = serde_json::Value::Null;
    fs::write(&path, checkpoint.to_string()).unwrap();
}

fn copy_run(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn stores_are_checked_and_run_folders_guarded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_runs(d);

    // Another run's store, or one with its last round written twice: refused with the offset.
    let ours = fs::read(d.join("run/positions.bin")).unwrap();
    for (what, store) in [
        (
            "another run's",
            fs::read(d.join("run7/positions.bin")).unwrap(),
        ),
        ("changed", {
            let mut bytes = ours.clone();
            bytes[60] ^= 1;
            bytes
        }),
    ] {
        let s = d.join("s");
        let _ = fs::remove_dir_all(&s);
        copy_run(&d.join("run"), &s);
        unfinish(&s);
        fs::write(s.join("positions.bin"), &store).unwrap();
        let checkpoint = fs::read(s.join("checkpoint.json")).unwrap();
        bin(d)
            .args(["resume", "s", "-q"])
            .assert()
            .code(2)
            .stderr(contains("s/positions.bin: damaged at byte"));
        assert_eq!(
            fs::read(s.join("checkpoint.json")).unwrap(),
            checkpoint,
            "{what}"
        );
        bin(d)
            .args(["fit", "s", "-o", "s.json", "-q"])
            .assert()
            .code(2)
            .stderr(contains("damaged at byte"));
        assert!(!d.join("s.json").exists());
    }

    // A hard link to another run's store is never written through.
    let s = d.join("s");
    let _ = fs::remove_dir_all(&s);
    copy_run(&d.join("run"), &s);
    unfinish(&s);
    fs::remove_file(s.join("positions.bin")).unwrap();
    fs::hard_link(d.join("run/positions.bin"), s.join("positions.bin")).unwrap();
    bin(d).args(["resume", "s", "-q"]).assert().success();
    assert_eq!(fs::read(d.join("run/positions.bin")).unwrap(), ours);

    // `fit RUN` says what it learns from.
    bin(d)
        .args(["fit", "run", "-o", "f.json"])
        .assert()
        .success()
        .stderr(contains("learning from the run's positions store"));

    // No command writes a file of a run folder it does not run.
    std::os::unix::fs::symlink("run/games.pdn", d.join("link.pdn")).unwrap();
    let guarded: Vec<(String, Vec<u8>)> = ["run/rounds.csv", "run7/checkpoint.json"]
        .iter()
        .map(|f| (f.to_string(), fs::read(d.join(f)).unwrap()))
        .collect();
    for args in [
        vec!["export", "material", "-o", "run7/checkpoint.json"],
        vec!["fit", "run", "-o", "run7/positions.bin", "-q"],
        vec!["play", "--pdn", "run7/positions.bin"],
        vec!["fit", "link.pdn", "-o", "run/rounds.csv", "-q"],
        vec![
            "match",
            "material",
            "material",
            "--pdn",
            "run/games.pdn",
            "--pairs",
            "1",
        ],
    ] {
        bin(d)
            .args(&args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(contains("only the run writes its files"));
    }
    for (file, bytes) in &guarded {
        assert_eq!(&fs::read(d.join(file)).unwrap(), bytes, "{file}");
    }
    assert!(fs::read(d.join("run7/positions.bin"))
        .unwrap()
        .starts_with(b"CTPOS002"));

    // Weights no command would play are not exported either; fit options are checked.
    let mut weights: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.join("run/best.json")).unwrap()).unwrap();
    weights["opening"][1] = serde_json::json!(100_000_000);
    fs::write(d.join("huge.json"), weights.to_string()).unwrap();
    for format in ["c", "json", "csv"] {
        bin(d)
            .args(["export", "huge.json", "--format", format, "-o", "h.out"])
            .assert()
            .code(2)
            .stderr(contains("huge.json").and(contains("100000000")));
    }
    assert!(!d.join("h.out").exists());
    for option in [
        "--learning-rate=NaN",
        "--learning-rate=inf",
        "--learning-rate=-1",
        "--score-weight=1.5",
        "--score-weight=NaN",
        "--score-weight=1e9",
    ] {
        bin(d)
            .args([
                "fit",
                "run",
                "--evaluator",
                "patterns",
                option,
                "-o",
                "p.json",
                "-q",
            ])
            .assert()
            .code(2)
            .stderr(contains(option.split('=').next().unwrap()));
        assert!(!d.join("p.json").exists(), "{option}");
    }
}

#[test]
fn pattern_ranges_are_checked_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let config = format!(
        "{TINY}[weights]\nevaluator = \"patterns\"\n[weights.patterns]\ntables = [5, -5]\n"
    );
    fs::write(d.join("pat.toml"), config).unwrap();
    bin(d)
        .args(["tune", "pat.toml", "--out", "pat", "-q"])
        .assert()
        .code(2)
        .stderr(contains("weights.patterns.tables").and(contains("must not exceed")));
    assert!(!d.join("pat").exists());
}

#[test]
fn pdn_floods_stay_short_and_printable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut flood = b"1. 9-13 \x1bX".to_vec();
    flood.extend(std::iter::repeat_n(0u8, 4 << 20));
    flood.extend(b" *\n");
    let mut text = Vec::new();
    for _ in 0..30 {
        text.extend(&flood);
    }
    fs::write(d.join("flood.pdn"), &text).unwrap();
    let out = bin(d)
        .args(["fit", "flood.pdn", "-o", "f.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() <= 20_000, "{} bytes", out.stderr.len());
    assert!(!out.stderr.contains(&0x1b) && !out.stderr.contains(&0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("flood.pdn: line 1: game 1: move 2 (\\u{1b}X\\u{0}"),
        "{stderr}"
    );
    assert!(
        stderr.contains("flood.pdn: 10 more damaged games skipped"),
        "{stderr}"
    );

    // A deck's position without a move is refused with its line.
    fs::write(
        d.join("deck.pdn"),
        "[FEN \"B:W18:B14\"] *\n\n[FEN \"B:W32:B28\"] *\n",
    )
    .unwrap();
    bin(d)
        .args([
            "match",
            "material",
            "material",
            "--openings",
            "deck.pdn",
            "--pairs",
            "1",
            "-q",
        ])
        .assert()
        .code(2)
        .stderr(contains("deck.pdn: line 3: game 2"));
}
