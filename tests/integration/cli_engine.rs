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
fn analyse_searches_selectively_by_default_and_says_so() {
    let run = |extra: &[&str]| {
        let out = cmd()
            .args([
                "analyse",
                "--fen",
                "B:W25,27,31:B3,9,14,17",
                "--min-depth",
                "6",
            ])
            .args(extra)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let default = run(&[]);
    assert!(default.contains("\nsearch selective"), "{default}");
    let exact = run(&["--search", "exact"]);
    assert!(exact.contains("\nsearch exact"), "{exact}");
    // A weights file's `search` table decides when --search is not given.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.json");
    std::fs::write(
        &file,
        r#"{"opening": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], "endgame": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], "search": {"mode": "exact"}}"#,
    )
    .unwrap();
    let from_file = run(&["--weights", file.to_str().unwrap()]);
    assert!(from_file.contains("\nsearch exact"), "{from_file}");
    // A bad table is one clear error naming the file and the key.
    std::fs::write(
        &file,
        r#"{"opening": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], "endgame": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], "search": {"lmr_reduction": 9}}"#,
    )
    .unwrap();
    cmd()
        .args(["analyse", "--fen", "B:W25,27,31:B3,9,14,17", "--weights"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("w.json").and(predicate::str::contains("lmr_reduction")));
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

/// `champion` names the shipped champion (weights/hour.json, built in): the pattern
/// evaluator, searched without the database it records when told so, and scoring a position
/// otherwise than `material` does.
#[test]
fn the_shipped_champion_is_a_weights_argument() {
    let score = |weights: &str| {
        let out = cmd()
            .args([
                "analyse",
                "--fen",
                "B:W18,22,23,25,26,27,30,31:B3,5,6,9,10,11,14",
            ])
            .args([
                "--min-depth",
                "2",
                "--max-depth",
                "4",
                "--database-pieces",
                "0",
            ])
            .args(["--weights", weights])
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let first: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        assert_eq!(first[0], "bestmove", "{text}");
        first[3].clone()
    };
    assert_ne!(score("champion"), score("material"));
    let weights = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/hour.json");
    assert_eq!(score("champion"), score(weights.to_str().unwrap()));
}

/// Without `--weights`, `analyse` searches with the built-in champion and, unless asked, no
/// endgame database: not the 5-piece one the champion's run recorded, which `--weights
/// champion` brings (and would build into an empty cache first).
#[test]
fn without_weights_the_engine_commands_play_the_champion_without_a_database() {
    let analyse = |extra: &[&str]| {
        let out = cmd()
            .args([
                "analyse",
                "--fen",
                "W:W18,22,23,K27:B3,K10,14",
                "--min-depth",
                "4",
            ])
            .args(extra)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let default = analyse(&[]);
    assert!(!default.contains("database"), "{default}");
    assert_eq!(
        default,
        analyse(&["--weights", "champion", "--database-pieces", "0"])
    );
    assert_ne!(default, analyse(&["--weights", "material"]));
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

#[test]
fn play_takes_back_a_move_lists_the_game_and_says_goodbye() {
    // 1. 9-13, the engine answers, undo: back at the start; 11-15 then lists as move 1.
    let out = cmd()
        .args(["play", "--min-depth", "2", "--max-depth", "4"])
        .write_stdin("9-13\nmoves\nundo\nmoves\nundo\n11-15\nmoves\nquit\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lists: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start_matches("your move> ").strip_prefix("1. "))
        .collect();
    assert_eq!(lists.len(), 2, "{text}");
    assert!(lists[0].starts_with("9-13 "), "{text}");
    assert!(lists[1].starts_with("11-15 "), "{text}");
    assert!(text.contains("your move> no moves yet"), "{text}");
    assert!(
        text.contains("There is no move of yours to take back."),
        "{text}"
    );
    assert!(
        text.contains("Game left unfinished after 2 plies"),
        "{text}"
    );
}

#[test]
fn a_fen_may_be_given_as_its_pdn_tag() {
    let plain = cmd()
        .args(["moves", "--fen", "W:WK10:B15,19"])
        .assert()
        .success();
    cmd()
        .args(["moves", "--fen", "[FEN \"W:WK10:B15,19\"]"])
        .assert()
        .success()
        .stdout(String::from_utf8(plain.get_output().stdout.clone()).unwrap());
    cmd()
        .args(["moves", "--fen", "[FEN \"W:WK10:B15,33\"]"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("square 33"));
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        cmd()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("tune").and(predicate::str::contains("analyse")));
    }
    cmd()
        .args(["completions", "cmd.exe"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value"));
}

#[test]
fn config_defaults_prints_a_config_that_tune_accepts() {
    let out = cmd().args(["config", "--defaults"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("\n[evolution]\n") && text.contains("\nname = \"my-run\"\n"));
    let config = checkers_harness::run::Config::from_str_named(&text, "defaults.toml").unwrap();
    assert_eq!(config, checkers_harness::run::Config::new("my-run"));
    cmd().args(["config"]).assert().code(2);
}

#[test]
fn tune_starts_with_a_summary_of_what_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tiny.toml");
    std::fs::write(
        &config,
        "name = \"tiny\"\n[population]\nsize = 4\n[tournament]\nrounds = 1\n\
         playoff_openings = 1\n[search]\nmin_depth = 1\nmax_depth = 2\ndatabase_pieces = 0\n\
         [validation]\nevery = 0\n",
    )
    .unwrap();
    let out = dir.path().join("run");
    let assert = cmd()
        .args(["tune", "--threads", "1"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let first = stderr.lines().next().unwrap();
    assert!(
        first.contains("tiny.toml -> ")
            && first.contains("population 4, 1 rounds, depth 1/2, openings 3-move")
            && first.contains("no endgame database, 1 threads, seed 1"),
        "{first}"
    );
}
