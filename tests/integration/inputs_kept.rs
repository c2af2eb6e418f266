//! No command writes over one of its inputs (issue "Nothing lost, nothing stuck", class 2): an
//! output that is a file the command reads is refused with exit status 2 and the input is left
//! as it was, whatever the spelling (`./x`, `a/../x`) of either.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use checkers_engine::weights_file::WeightsFile;

/// The binary, with the endgame database's cache in the build folder (never the user's).
fn bin(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command.current_dir(dir).env(
        "CHECKERS_TUNER_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/inputs-kept"),
    );
    command
}

/// Runs `args` in `dir`, expecting exit status 2 and `files` unchanged; returns stderr.
fn refused(dir: &Path, args: &[&str], files: &[&str]) -> String {
    let before: Vec<Option<Vec<u8>>> = files.iter().map(|f| fs::read(dir.join(f)).ok()).collect();
    let out = bin(dir).args(args).write_stdin("").assert().code(2);
    let after: Vec<Option<Vec<u8>>> = files.iter().map(|f| fs::read(dir.join(f)).ok()).collect();
    assert_eq!(before, after, "{args:?} changed an input");
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

/// A folder with a weights file `w.json` (and `w.csv`), an openings deck and a subfolder.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("w.json"), WeightsFile::material().to_json()).unwrap();
    fs::write(dir.path().join("deck.txt"), "9-13 22-18\n11-15 23-19\n").unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    bin(dir.path())
        .args(["export", "w.json", "--format", "csv", "-o", "w.csv"])
        .assert()
        .success();
    dir
}

#[test]
fn match_never_writes_over_its_weights_or_openings() {
    let dir = setup();
    let d = dir.path();
    let inputs = ["w.json", "deck.txt"];
    for (args, says) in [
        (
            vec!["match", "w.json", "material", "--pdn", "w.json"],
            "is A",
        ),
        (
            vec!["match", "material", "w.json", "--pdn", "./w.json"],
            "is B",
        ),
        (
            vec!["match", "w.json", "material", "--out", "sub/../w.json"],
            "is A",
        ),
        (
            vec![
                "match",
                "material",
                "material",
                "--openings",
                "deck.txt",
                "--pdn",
                "deck.txt",
            ],
            "is --openings",
        ),
        (
            vec![
                "match",
                "material",
                "material",
                "--openings",
                "./deck.txt",
                "--out",
                "deck.txt",
            ],
            "is --openings",
        ),
    ] {
        let msg = refused(d, &args, &inputs);
        assert!(msg.contains(says), "{args:?}: {msg}");
    }
    // Two outputs spelled differently that are one new file.
    let msg = refused(
        d,
        &[
            "match", "material", "material", "--out", "x.csv", "--pdn", "./x.csv",
        ],
        &inputs,
    );
    assert!(msg.contains("the same file as --out"), "{msg}");
    assert!(!d.join("x.csv").exists());
}

#[test]
fn export_never_writes_over_its_source() {
    let dir = setup();
    let d = dir.path();
    let inputs = ["w.json", "w.csv"];
    for args in [
        vec!["export", "w.json", "-o", "w.json"],
        vec!["export", "w.csv", "--format", "json", "-o", "./w.csv"],
        vec![
            "export",
            "./w.json",
            "--format",
            "toml",
            "-o",
            "sub/../w.json",
        ],
    ] {
        let msg = refused(d, &args, &inputs);
        assert!(msg.contains("which this command reads"), "{args:?}: {msg}");
    }
    // Another name is fine.
    bin(d)
        .args(["export", "w.json", "-o", "copy.json"])
        .assert()
        .success();
}

#[test]
fn play_never_writes_its_game_over_its_weights() {
    let dir = setup();
    let msg = refused(
        dir.path(),
        &["play", "--weights", "w.json", "--pdn", "./w.json"],
        &["w.json"],
    );
    assert!(msg.contains("is --weights"), "{msg}");
}

/// A tiny run without the endgame database: 8 specimens, 2 rounds, into `run`.
const TINY: &str = r#"
name = "tiny"
seed = 5
[population]
size = 8
[tournament]
rounds = 2
openings = "3-move"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
"#;

#[test]
fn no_writer_writes_over_a_file_of_a_run_folder_it_reads() {
    let dir = setup();
    let d = dir.path();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    bin(d)
        .args(["tune", "tiny.toml", "--out", "run", "--quiet"])
        .assert()
        .success();
    // The run's best.json records the database the run played with.
    let best = WeightsFile::load(&d.join("run/best.json")).unwrap();
    assert_eq!(best.database_pieces, Some(0));
    let files = [
        "best.json",
        "checkpoint.json",
        "config.toml",
        "rounds.csv",
        "specimens.csv",
        "games.csv",
        "games.pdn",
        "playoff.csv",
        "timings.csv",
        ".lock",
    ];
    let kept: Vec<String> = files.iter().map(|f| format!("run/{f}")).collect();
    let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    // A hard link to the checkpoint outside the folder is the checkpoint all the same.
    fs::hard_link(d.join("run/checkpoint.json"), d.join("cp.json")).unwrap();
    for file in files {
        for out in [format!("run/{file}"), format!("sub/../run/./{file}")] {
            for args in [
                vec!["export", "run", "--format", "csv", "-o", &out],
                vec!["fit", "run", "-o", &out, "-q"],
                vec!["plot", "run", "-o", &out],
                vec!["export", "run/best.json", "--format", "toml", "-o", &out],
                vec!["match", "run/best.json", "material", "--out", &out],
                vec!["match", "material", "run/best.json", "--pdn", &out],
            ] {
                let says = refused(d, &args, &kept);
                assert!(
                    says.contains("which this command reads"),
                    "{args:?}: {says}"
                );
                assert_eq!(says.lines().count(), 1, "{says}");
            }
        }
    }
    let says = refused(d, &["fit", "run", "-o", "cp.json", "-q"], &kept);
    assert!(says.contains("checkpoint.json"), "{says}");
    // A game record inside the run stands for its folder, and an island's folder is the run's.
    let says = refused(
        d,
        &["fit", "run/games.pdn", "-o", "run/checkpoint.json"],
        &kept,
    );
    assert!(says.contains("the checkpoint.json"), "{says}");
    fs::create_dir(d.join("run/island-1")).unwrap();
    let says = refused(d, &["export", "run", "-o", "run/island-1/x.json"], &kept);
    assert!(says.contains("subfolder island-1"), "{says}");
    // A new name beside the run's files is fine.
    bin(d)
        .args(["export", "run", "--format", "c", "-o", "run/weights.h"])
        .assert()
        .success();
    bin(d)
        .args(["fit", "run", "-o", "run/fitted.json", "-q"])
        .assert()
        .success();
    let fitted = WeightsFile::load(&d.join("run/fitted.json")).unwrap();
    assert_eq!(fitted.database_pieces, Some(0), "the run's database");
}
