//! `datagen`: the same store on one and two threads and through a kill, shards that `fit`
//! reads as the one data set, each position counted once, and one clear error per bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn bin() -> Command {
    Command::cargo_bin("checkers-tuner").unwrap()
}

/// A small data set's config: `games` games in blocks of 3 at two small budgets, no database.
fn config(dir: &Path, games: u32, extra: &str) -> PathBuf {
    let path = dir.join("datagen.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"small\"\nweights = \"material\"\ngames = {games}\nbatch = 3\n\
             nodes = [300, 600]\nbook_plies = 6\ndatabase_pieces = 0\nmax_plies = 160\n{extra}"
        ),
    )
    .unwrap();
    path
}

fn run(config: &Path, out: &Path, args: &[&str]) -> String {
    let output = bin()
        .args(["datagen", "-q", "--out"])
        .arg(out)
        .args(args)
        .arg(config)
        .assert()
        .success();
    String::from_utf8_lossy(&output.get_output().stdout).into_owned()
}

fn store(out: &Path, shard: &str) -> Vec<u8> {
    std::fs::read(out.join(shard).join("positions.bin")).unwrap()
}

/// `fit` of `inputs` (from ply 6, each position once with `--unique`): the fitted file's
/// bytes and the report's positions line.
fn fit(inputs: &[&Path], out: &Path, unique: bool) -> (Vec<u8>, String) {
    let mut command = bin();
    command.arg("fit").args(inputs).arg("-o").arg(out);
    command.args(["--first-ply", "6", "--threads", "2"]);
    if unique {
        command.arg("--unique");
    }
    let output = command.assert().success();
    let report = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    let positions = report
        .lines()
        .find(|l| l.starts_with("positions:"))
        .unwrap()
        .to_string();
    // The weights, without the file's account of its inputs (their paths).
    let text = std::fs::read_to_string(out).unwrap();
    let weights: Vec<u8> = text
        .lines()
        .filter(|l| !l.contains("\"source\""))
        .flat_map(|l| l.bytes().chain([b'\n']))
        .collect();
    (weights, positions)
}

#[test]
fn the_same_store_on_one_and_two_threads_and_through_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), 8, "");
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let said = run(&config, &one, &["--threads", "1"]);
    run(&config, &two, &["--threads", "2"]);
    let whole = store(&one, "shard-1-of-1");
    assert_eq!(whole, store(&two, "shard-1-of-1"));
    assert!(said.contains("8 of 8 games"), "{said}");
    for name in ["datagen.toml", "weights.json"] {
        assert!(one.join(name).is_file(), "{name}");
    }

    // A kill inside a block's write: the block is played again, the store the same.
    for keep in [whole.len() - 1, whole.len() * 2 / 3, 21] {
        let cut = dir.path().join(format!("cut-{keep}"));
        std::fs::create_dir_all(cut.join("shard-1-of-1")).unwrap();
        for name in ["datagen.toml", "weights.json"] {
            std::fs::copy(one.join(name), cut.join(name)).unwrap();
        }
        std::fs::write(cut.join("shard-1-of-1/positions.bin"), &whole[..keep]).unwrap();
        run(&config, &cut, &["--threads", "2"]);
        assert_eq!(store(&cut, "shard-1-of-1"), whole, "cut at {keep}");
    }
    // A finished data set run again plays nothing.
    let again = run(&config, &one, &[]);
    assert!(again.contains("continued after 8 games"), "{again}");
    assert_eq!(store(&one, "shard-1-of-1"), whole);
}

#[test]
fn shards_read_by_fit_are_the_one_data_set_and_unique_counts_each_position_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path(), 10, "");
    let (whole, cut) = (dir.path().join("whole"), dir.path().join("cut"));
    let said = run(&config, &whole, &[]);
    for k in 1..=3 {
        run(&config, &cut, &["--shard", &format!("{k}/3")]);
    }
    for k in 1..=3 {
        assert!(cut.join(format!("shard-{k}-of-3/positions.bin")).is_file());
    }
    let (fitted, positions) = fit(&[&whole], &dir.path().join("a.json"), false);
    let (sharded, sharded_positions) = fit(&[&cut], &dir.path().join("b.json"), false);
    assert_eq!(positions, sharded_positions);
    assert_eq!(fitted, sharded);

    // `--unique`: fewer positions, as many as datagen counted.
    let (_, unique) = fit(&[&whole], &dir.path().join("c.json"), true);
    let count = |line: &str| -> u64 {
        let words: Vec<&str> = line.split(' ').collect();
        words[1].parse::<u64>().unwrap() + words[3].parse::<u64>().unwrap()
    };
    assert!(count(&unique) < count(&positions), "{unique} / {positions}");
    let counted: u64 = said
        .split(", ")
        .find_map(|part| part.strip_suffix(" unique quiet positions"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(count(&unique), counted, "{said}");
    // The same data set twice is still each position once.
    let (_, twice) = fit(&[&whole, &cut], &dir.path().join("d.json"), true);
    assert_eq!(count(&twice), counted);
}

#[test]
fn bad_input_is_one_error_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (extra, said) in [
        ("nodes = [0]\n", "nodes: 0: expected 1 to"),
        ("book_plies = 99\n", "book_plies: 99: expected 0 to 40"),
        ("seed = -1\n", "line 9: seed: invalid value"),
        ("colour = 1\n", "unknown field `colour`"),
    ] {
        let text = std::fs::read_to_string(config(dir.path(), 4, "")).unwrap();
        let text = if extra.starts_with("nodes") {
            text.replace("nodes = [300, 600]\n", extra)
        } else if extra.starts_with("book_plies") {
            text.replace("book_plies = 6\n", extra)
        } else {
            format!("{text}{extra}")
        };
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, text).unwrap();
        bin()
            .args(["datagen", "-q", "--out"])
            .arg(&out)
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("bad.toml").and(predicate::str::contains(said)));
    }
    assert!(!out.exists(), "a refused config leaves nothing behind");
    let good = config(dir.path(), 4, "");
    for shard in ["0/2", "3/2", "two"] {
        bin()
            .args(["datagen", "-q", "--shard", shard])
            .arg(&good)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--shard"));
    }
    let missing = config(dir.path(), 4, "").with_file_name("w.toml");
    std::fs::write(
        &missing,
        std::fs::read_to_string(&good)
            .unwrap()
            .replace("\"material\"", "\"none.json\""),
    )
    .unwrap();
    bin()
        .args(["datagen", "-q", "--out"])
        .arg(&out)
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("w.toml: weights").and(predicate::str::contains("none.json")),
        );

    // A folder of another data set, or of other files, is refused.
    run(&good, &out, &[]);
    let other = dir.path().join("other.toml");
    std::fs::write(
        &other,
        std::fs::read_to_string(&good)
            .unwrap()
            .replace("games = 4", "games = 5"),
    )
    .unwrap();
    bin()
        .args(["datagen", "-q", "--out"])
        .arg(&out)
        .arg(&other)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("another config").or(predicate::str::contains("other config")),
        );
    bin()
        .args(["datagen", "-q", "--shard", "1/2", "--out"])
        .arg(&out)
        .arg(&good)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--shard 1/2")
                .and(predicate::str::contains("cut into 1 shards")),
        );
    assert!(!out.join("shard-1-of-2").exists());
    let busy = dir.path().join("busy");
    std::fs::create_dir(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), "mine").unwrap();
    bin()
        .args(["datagen", "-q", "--out"])
        .arg(&busy)
        .arg(&good)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("other files"));
    assert_eq!(
        std::fs::read_to_string(busy.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn the_shipped_config_reads() {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/datagen.toml");
    checkers_harness::datagen::DatagenConfig::load(&config).unwrap();
}
