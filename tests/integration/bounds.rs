//! Upper bounds a user can reach: refused with exit status 2 and the allowed range before
//! anything is created or started.

use std::fs;

use crate::support::bin_without_databases as bin;
use predicates::str::contains;

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

#[test]
fn every_count_and_name_is_bounded_before_the_folder_exists() {
    let tmp = tempfile::tempdir().unwrap();
    let long_name = format!("name = \"{}\"\n", "n".repeat(300));
    for (k, (body, key, wanted)) in [
        (
            "name = \"a\"\n[tournament]\nplayoff_openings = 4294967295\n",
            "tournament.playoff_openings",
            "at most 1000, got 4294967295",
        ),
        (
            "name = \"a\"\n[tournament]\nrounds = 4294967295\n",
            "tournament.rounds",
            "at most 1000000",
        ),
        (
            "name = \"a\"\n[tournament]\nmax_plies = 4294967295\n",
            "tournament.max_plies",
            "at most 10000",
        ),
        (
            "name = \"a\"\n[validation]\nevery = 4294967295\n",
            "validation.every",
            "at most 1000000",
        ),
        (
            "name = \"a\"\n[islands]\ncount = 2\nmigration_interval = 4294967295\n",
            "islands.migration_interval",
            "at most 1000000",
        ),
        (
            "name = \"a\"\n[population]\nsize = 20000\n",
            "tournament.playoff_openings",
            "more than the 100000000 allowed",
        ),
        (
            "name = \"a\"\n[weights.opening]\nkings = [100, 300, \"x\", {a = 1}]\n",
            "weights.opening.kings",
            "a range is exactly two numbers [min, max], got 4 elements",
        ),
        (
            "name = \"a\"\n[weights.endgame]\nmobility = [-5, \"5\"]\n",
            "weights.endgame.mobility",
            "its max is the text \"5\"",
        ),
        (long_name.as_str(), "name", "is 300 bytes long, at most 100"),
    ]
    .into_iter()
    .enumerate()
    {
        let config = tmp.path().join(format!("c{k}.toml"));
        fs::write(&config, body).unwrap();
        let assert = bin()
            .current_dir(tmp.path())
            .args(["tune", "--quiet"])
            .arg(&config)
            .assert()
            .code(2)
            .stderr(contains(format!("`{key}`")))
            .stderr(contains(wanted));
        assert!(
            assert.get_output().stderr.len() < 1000,
            "case {k}: a long message"
        );
        assert!(!tmp.path().join("results").exists(), "case {k}");
    }
}

#[test]
fn a_run_folder_without_a_round_may_have_any_key_edited() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    fs::create_dir(&run).unwrap();
    // A config.toml as `tune` writes it, stopped before its first checkpoint.
    let config = run.join("config.toml");
    fs::write(
        &config,
        "# The resolved config of run \"r\": every default filled in.\n\
         name = \"r\"\n[tournament]\nrounds = 4294967295\n",
    )
    .unwrap();
    bin()
        .arg("resume")
        .arg(&run)
        .assert()
        .code(2)
        .stderr(contains("`tournament.rounds`: must be at most 1000000"))
        .stderr(contains(format!(
            "edit {} (no round is recorded yet, so any key may change) and run resume again",
            config.display()
        )));
    assert!(!run.join("checkpoint.json").exists());
}
