//! The engine commands as a user runs them: output formats, exit codes, messages.

use assert_cmd::Command;
use predicates::prelude::*;

/// The binary, with an endgame-database cache that stays empty (never the user's).
fn cmd() -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command.env(
        "CHECKERS_TUNER_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
    );
    command
}

#[test]
fn perft_prints_depth_nodes_seconds_lines() {
    let out = cmd().args(["perft", "--depth", "5"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let expected = [7u64, 49, 302, 1469, 7361];
    for (i, n) in expected.iter().enumerate() {
        let cols: Vec<&str> = lines[i].split_whitespace().collect();
        assert_eq!(cols.len(), 3, "{}", lines[i]);
        assert_eq!(cols[0], (i + 1).to_string());
        assert_eq!(cols[1], n.to_string());
        assert!(cols[2].parse::<f64>().is_ok());
    }
    cmd()
        .args([
            "perft",
            "--depth",
            "4",
            "--threads",
            "2",
            "--fen",
            "W:WK10:B15,19",
        ])
        .assert()
        .success();
}

#[test]
fn moves_lists_full_paths_one_per_line() {
    cmd()
        .args(["moves", "--fen", "B:W6,14,15,22,24:B1"])
        .assert()
        .success()
        .stdout("1x10x17x26\n1x10x19x28\n");
}

#[test]
fn analyse_prints_bestmove_then_the_principal_variation() {
    let out = cmd()
        .args([
            "analyse",
            "--fen",
            "B:W25,27,31:B3,9,14,17",
            "--min-depth",
            "4",
        ])
        .args(["--max-depth", "8"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut lines = text.lines();
    let first: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(first[..3], ["bestmove", "17-22", "score"]);
    assert_eq!(first[4..6], ["depth", "4"]);
    assert_eq!(first[6], "nodes");
    assert!(first[7].parse::<u64>().unwrap() > 0);
    assert!(lines.next().unwrap().starts_with("pv 17-22 25x18 14x23x32"));
}

#[test]
fn bench_prints_one_line_per_position_and_a_total() {
    let out = cmd().args(["bench", "--depth", "4"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[3].starts_with("total "));
    for line in lines {
        assert_eq!(line.split_whitespace().count(), 4, "{line}");
    }
}

#[test]
fn bad_input_exits_2_with_one_clear_message() {
    for args in [
        vec!["moves", "--fen", "B:W21:B33"],
        vec!["perft", "--depth", "3", "--fen", "X:W1:B2"],
        vec![
            "analyse",
            "--fen",
            "B:W21:B1",
            "--min-depth",
            "5",
            "--max-depth",
            "3",
        ],
        vec![
            "analyse",
            "--fen",
            "B:W21:B1",
            "--weights",
            "no/such/file.json",
        ],
        vec!["perft", "--depth", "three"],
    ] {
        cmd().args(&args).assert().code(2).stderr(
            predicate::str::contains("rror").and(predicate::str::contains("panicked").not()),
        );
    }
    cmd()
        .args(["moves", "--fen", "B:W21:B33"])
        .assert()
        .stderr(predicate::str::contains("square 33"));
}

#[test]
fn play_takes_moves_by_number_or_notation_and_rejects_bad_input() {
    cmd()
        .args(["play", "--min-depth", "2", "--max-depth", "4"])
        .write_stdin("1\nfoo\n99\n10-14\nquit\n")
        .assert()
        .success()
        .stdout(
            predicate::str::contains("engine plays")
                .and(predicate::str::contains("\"foo\" is not a move"))
                .and(predicate::str::contains("there is no move number 99")),
        );
}
