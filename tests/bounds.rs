//! Upper bounds a user can reach: refused with exit status 2 and the allowed range before
//! anything is created or started.

use std::fs;

use assert_cmd::Command;
use predicates::str::contains;

/// The binary, with the endgame database's cache in the build folder (never the user's).
fn bin() -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command.env(
        "CHECKERS_TUNER_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
    );
    command
}

#[test]
fn a_huge_population_or_a_dot_name_is_refused_before_the_folder_exists() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, (body, key, wanted)) in [
        (
            "name = \"big\"\n[population]\nsize = 4294967295\n",
            "population.size",
            "at most 100000",
        ),
        (
            "name = \"big\"\n[population]\nsize = 100001\n",
            "population.size",
            "at most 100000",
        ),
        ("name = \".\"\n", "name", "nor be `.`"),
    ]
    .into_iter()
    .enumerate()
    {
        let config = tmp.path().join(format!("c{k}.toml"));
        fs::write(&config, body).unwrap();
        bin()
            .current_dir(tmp.path())
            .args(["tune", "--quiet"])
            .arg(&config)
            .assert()
            .code(2)
            .stderr(contains(format!("`{key}`")))
            .stderr(contains(wanted));
        assert!(!tmp.path().join("results").exists(), "case {k}");
    }
}

#[test]
fn perft_depth_outside_1_to_20_is_refused_with_the_range() {
    for depth in ["0", "21", "4294967295"] {
        bin()
            .args(["perft", "--depth", depth])
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("--depth"))
            .stderr(contains("1..=20"));
    }
    bin()
        .args(["perft", "--depth", "1"])
        .assert()
        .success()
        .stdout(contains("1 7 "));
}

#[test]
fn threads_above_1024_are_refused_by_every_command_that_takes_them() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("c.toml");
    fs::write(&config, "name = \"t\"\n").unwrap();
    let config = config.to_str().unwrap();
    let run = tmp.path().join("run");
    let run = run.to_str().unwrap();
    for args in [
        vec!["tune", config, "--out", run],
        vec!["resume", run],
        vec!["match", "material", "material"],
        vec!["perft", "--depth", "1"],
    ] {
        for threads in ["1025", "10000", "0"] {
            bin()
                .args(&args)
                .args(["--threads", threads])
                .timeout(std::time::Duration::from_secs(20))
                .assert()
                .code(2)
                .stderr(contains("--threads"))
                .stderr(contains("1 to 1024"));
        }
    }
    assert!(!tmp.path().join("run").exists());
}
