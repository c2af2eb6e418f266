//! The `fit` command: run folders and PDN files in, a weights file out, the same on any thread
//! count, and one clear error (exit 2, no output file) for every kind of bad input.

use std::fs;
use std::path::Path;

use checkers_engine::eval::{EvaluatorKind, WeightPair};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};
use checkers_harness::fit::{fit_games, Damaged, FitSettings, GameRecords, GameStream, Games};
use tempfile::TempDir;

/// The binary, with the endgame database's cache in the build folder (never the user's).
fn bin() -> assert_cmd::Command {
    crate::support::bin_with_cache("fit-egdb")
}

/// A small run: 8 specimens, 2 rounds over the 3-move deck, shallow search.
const RUN: &str = r#"
name = "fit-source"
seed = 5
[population]
size = 8
[tournament]
rounds = 2
openings = "3-move"
max_plies = 80
playoff_openings = 1
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
"#;

/// A folder with a finished small run in `run/` (its games.csv and games.pdn).
fn with_run() -> TempDir {
    let dir = TempDir::new().unwrap();
    let config = dir.path().join("run.toml");
    fs::write(&config, RUN).unwrap();
    bin()
        .arg("tune")
        .arg(&config)
        .arg("--out")
        .arg(dir.path().join("run"))
        .arg("-q")
        .assert()
        .success();
    dir
}

/// Runs `fit` in `dir` with `args`, expecting success; returns stdout.
fn fit(dir: &Path, args: &[&str]) -> String {
    let out = bin()
        .current_dir(dir)
        .arg("fit")
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Runs `fit` in `dir` with `args`, expecting exit status 2 and no `out.json`; returns stderr.
fn fit_fails(dir: &Path, args: &[&str]) -> String {
    let out = bin()
        .current_dir(dir)
        .arg("fit")
        .args(args)
        .assert()
        .code(2);
    assert!(
        !dir.join("out.json").exists(),
        "a failed fit leaves no output"
    );
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn a_run_folder_and_its_pdn_give_the_same_fit_on_any_thread_count() {
    let dir = with_run();
    let d = dir.path();
    let report = fit(d, &["run", "-o", "csv.json", "--threads", "1"]);
    assert!(report.contains("positions: "), "{report}");
    assert!(report.contains("K: "), "{report}");
    for name in ["material", "start", "fit"] {
        assert!(
            report.lines().any(|l| l.starts_with(name)),
            "{name}: {report}"
        );
    }
    fit(d, &["run", "-o", "two.json", "--threads", "2", "-q"]);
    fit(
        d,
        &["run/games.pdn", "-o", "pdn.json", "--threads", "2", "-q"],
    );
    let csv = fs::read_to_string(d.join("csv.json")).unwrap();
    assert_eq!(csv, fs::read_to_string(d.join("two.json")).unwrap());
    let from_pdn = WeightsFile::load(&d.join("pdn.json")).unwrap();
    let from_csv = WeightsFile::load(&d.join("csv.json")).unwrap();
    // The same games in the same order: the same weights (the sources name other files).
    assert_eq!(from_pdn.weights, from_csv.weights);
    assert_ne!(
        from_csv.weights,
        checkers_engine::eval::WeightPair::material()
    );
    // Pawns stay fixed at 100; every weight within the default ranges.
    assert_eq!(from_csv.weights.opening.0[0], 100);
    assert_eq!(from_csv.weights.endgame.0[0], 100);
    assert!((100..=300).contains(&from_csv.weights.opening.0[1]));
    match &from_csv.source {
        Some(WeightsSource::Fit { data }) => {
            // A run folder's games are read from its positions store.
            assert!(data.contains("positions.bin"), "{data}");
            assert!(data.contains(" games, "), "{data}");
        }
        other => panic!("the source says it was fitted: {other:?}"),
    }
}

#[test]
fn other_formats_config_ranges_start_weights_and_pooled_inputs() {
    let dir = with_run();
    let d = dir.path();
    fit(d, &["run", "-o", "fit.toml", "-q", "--validation", "0"]);
    let toml = WeightsFile::load_any(&d.join("fit.toml")).unwrap();
    assert!(matches!(toml.source, Some(WeightsSource::Fit { .. })));
    fit(d, &["run", "-o", "fit.h", "-q"]);
    assert!(fs::read_to_string(d.join("fit.h"))
        .unwrap()
        .contains("Source: fit on run/positions.bin"));

    // Ranges from a config: kings fixed at 180 in both sets.
    fs::write(
        d.join("ranges.toml"),
        "name = \"r\"\n[weights.opening]\nkings = [180, 180]\n[weights.endgame]\nkings = [180, 180]\n",
    )
    .unwrap();
    fit(
        d,
        &["run", "-o", "ranged.json", "-q", "--config", "ranges.toml"],
    );
    let ranged = WeightsFile::load(&d.join("ranged.json")).unwrap();
    assert_eq!(ranged.weights.opening.0[1], 180);
    assert_eq!(ranged.weights.endgame.0[1], 180);

    // A strong L2 pull keeps the fit at its start.
    let pulled = fit(d, &["run", "-o", "pulled.json", "--l2", "1000000"]);
    let pulled_file = WeightsFile::load(&d.join("pulled.json")).unwrap();
    assert_eq!(
        pulled_file.weights,
        checkers_engine::eval::WeightPair::material(),
        "{pulled}"
    );

    // Two inputs are pooled: twice the games.
    let one = fit(d, &["run", "-o", "one.json"]);
    let two = fit(d, &["run", "run/games.pdn", "-o", "two.json"]);
    let games = |report: &str| -> u64 {
        // A PDN input's counts come first (`run/games.pdn: N games, N read`).
        let line = report.lines().find(|l| l.starts_with("games: ")).unwrap();
        line["games: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(2 * games(&one), games(&two), "{one}\n{two}");
}

#[test]
fn unfinished_games_are_counted_and_left_out() {
    let dir = with_run();
    let d = dir.path();
    let pdn = fs::read_to_string(d.join("run/games.pdn")).unwrap();
    let unfinished = "[Event \"x\"]\n\n1. 11-15 22-18 *\n\n";
    fs::write(d.join("more.pdn"), format!("{unfinished}{pdn}{unfinished}")).unwrap();
    let report = fit(d, &["more.pdn", "-o", "out.json"]);
    assert!(report.contains("2 without a result left out"), "{report}");
}

#[test]
fn bad_input_is_one_clear_error_with_no_output() {
    let dir = with_run();
    let d = dir.path();
    let pdn = fs::read_to_string(d.join("run/games.pdn")).unwrap();

    // An illegal move in the third game, with --strict: the file, the move's line and the move.
    let games: Vec<&str> = pdn.split("\n\n[").collect();
    let broken = pdn.replacen(games[2], &games[2].replacen("1. ", "1. 1-5 ", 1), 1);
    let line_of_move = broken[..broken.find("1. 1-5").unwrap()].lines().count() + 1;
    fs::write(d.join("broken.pdn"), broken).unwrap();
    let msg = fit_fails(d, &["broken.pdn", "-o", "out.json", "--strict"]);
    assert!(
        msg.contains(&format!(
            "broken.pdn: line {line_of_move}: game 3: move 1 (1-5)"
        )),
        "{msg}"
    );

    // Only unfinished games, an empty file, a file that is not text.
    fs::write(d.join("open.pdn"), "1. 11-15 22-18 *\n\n1. 9-13 *\n").unwrap();
    let msg = fit_fails(d, &["open.pdn", "-o", "out.json"]);
    assert!(
        msg.contains("no finished game") && msg.contains("2 without a result"),
        "{msg}"
    );
    fs::write(d.join("empty.pdn"), "").unwrap();
    assert!(fit_fails(d, &["empty.pdn", "-o", "out.json"]).contains("no finished game"));
    // Bytes that are not UTF-8 are Latin-1 text: here a word that is not a move.
    fs::write(d.join("binary.pdn"), [0x31, 0x2e, 0xff, 0xfe]).unwrap();
    let msg = fit_fails(d, &["binary.pdn", "-o", "out.json"]);
    assert!(
        msg.contains("no finished game to learn from (1 skipped (damaged))"),
        "{msg}"
    );

    // A folder that is not a run, a missing input.
    fs::create_dir(d.join("empty-folder")).unwrap();
    let msg = fit_fails(d, &["empty-folder", "-o", "out.json"]);
    assert!(msg.contains("empty-folder: not a run folder"), "{msg}");
    let msg = fit_fails(d, &["missing.pdn", "-o", "out.json"]);
    assert!(msg.contains("missing.pdn: file not found"), "{msg}");

    // A games.csv with an illegal move: the file and the row's line.
    fs::create_dir(d.join("damaged")).unwrap();
    let csv = fs::read_to_string(d.join("run/games.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    lines[3] = format!("{} 1-5", lines[3]);
    fs::write(d.join("damaged/games.csv"), lines.join("\n") + "\n").unwrap();
    let msg = fit_fails(d, &["damaged", "-o", "out.json"]);
    assert!(msg.contains("damaged/games.csv: line 4: move "), "{msg}");

    // Settings out of range; no position after the first plies.
    let msg = fit_fails(d, &["run", "-o", "out.json", "--validation", "1"]);
    assert!(msg.contains("--validation 1 is outside"), "{msg}");
    let msg = fit_fails(d, &["run", "-o", "out.json", "--l2=-1"]);
    assert!(msg.contains("--l2 -1"), "{msg}");
    let msg = fit_fails(d, &["run", "-o", "out.json", "--first-ply", "100000"]);
    assert!(msg.contains("no position to learn from"), "{msg}");
    let msg = fit_fails(d, &["run", "-o", "out.json", "--format", "xml"]);
    assert!(msg.contains("--format"), "{msg}");
    fs::write(d.join("bad.json"), "{").unwrap();
    let msg = fit_fails(d, &["run", "-o", "out.json", "--weights", "bad.json"]);
    assert!(msg.contains("bad.json"), "{msg}");
}

#[test]
fn an_input_is_never_overwritten() {
    let dir = with_run();
    let d = dir.path();
    let pdn = fs::read(d.join("run/games.pdn")).unwrap();
    for out in ["run/games.pdn", "./run/games.pdn", "run/../run/games.pdn"] {
        let msg = fit_fails(d, &["run/games.pdn", "-o", out]);
        assert!(msg.contains("which this command reads"), "{out}: {msg}");
    }
    // A start weights file and a run's own games.csv are inputs too.
    fs::write(d.join("start.json"), WeightsFile::material().to_json()).unwrap();
    let msg = fit_fails(d, &["run", "--weights", "start.json", "-o", "start.json"]);
    assert!(msg.contains("which this command reads"), "{msg}");
    let csv = fs::read(d.join("run/games.csv")).unwrap();
    let msg = fit_fails(d, &["run", "-o", "run/games.csv", "--format", "csv"]);
    assert!(msg.contains("which this command reads"), "{msg}");
    assert_eq!(fs::read(d.join("run/games.csv")).unwrap(), csv);
    assert_eq!(fs::read(d.join("run/games.pdn")).unwrap(), pdn);
}

/// The same games give the same fit whether the fit streams them from the files or they are
/// held in memory first, for every evaluator: the whole report (weights, losses, counts).
#[test]
fn a_streamed_fit_is_the_fit_of_the_games_held_in_memory() {
    let dir = with_run();
    let inputs = vec![dir.path().join("run"), dir.path().join("run/games.pdn")];
    let held = GameRecords::read(&inputs, Damaged::Skip).unwrap();
    let material = WeightPair::material();
    for evaluator in [
        EvaluatorKind::Ten,
        EvaluatorKind::Extended,
        EvaluatorKind::Patterns,
    ] {
        let settings = FitSettings {
            evaluator,
            max_iterations: 40,
            ..FitSettings::default()
        };
        let from_memory =
            checkers_harness::fit::fit(&held, &material, None, None, &settings, |_, _| {}).unwrap();
        let mut stream = GameStream::open(&inputs, Damaged::Skip).unwrap();
        let streamed = fit_games(
            Games::Stream(&mut stream),
            &material,
            None,
            None,
            &settings,
            |_, _| {},
        )
        .unwrap();
        assert_eq!(streamed, from_memory, "{evaluator:?}");
        assert_eq!(streamed.games, held.games.len());
        assert_eq!(stream.report(), &held.report);
    }
}

/// Reading tells on stderr what it leaves out as it meets it (damaged games, the first twenty
/// one by one; a row cut short), and the report counts each file's games.
#[test]
fn what_reading_leaves_out_is_told_and_counted() {
    let dir = with_run();
    let d = dir.path();
    // A run folder without its store, whose games.csv ends inside a row.
    fs::create_dir(d.join("cut")).unwrap();
    let csv = fs::read_to_string(d.join("run/games.csv")).unwrap();
    fs::write(d.join("cut/games.csv"), &csv[..csv.len() - 5]).unwrap();
    let rows = csv.lines().count() - 1;
    // The run's games after 22 damaged ones.
    let pdn = fs::read_to_string(d.join("run/games.pdn")).unwrap();
    let damaged = "1. 9-13 9-14 0-1\n\n".repeat(22);
    fs::write(d.join("mixed.pdn"), format!("{damaged}{pdn}")).unwrap();

    let run = bin()
        .current_dir(d)
        .args(["fit", "cut", "mixed.pdn", "-o", "out.json"])
        .assert()
        .success();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.matches("; game skipped").count(), 20, "{stderr}");
    assert!(
        stderr.contains("mixed.pdn: line 1: game 1: move 2 (9-14)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("mixed.pdn: 2 more damaged games skipped"),
        "{stderr}"
    );
    assert!(
        stderr.contains("cut/games.csv: the last row is cut short"),
        "{stderr}"
    );
    assert!(
        stdout.contains(&format!(
            "mixed.pdn: {} games, {rows} read, 22 skipped (damaged)",
            rows + 22
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("games: {} from 2 file(s)", 2 * rows - 1)),
        "{stdout}"
    );
    match WeightsFile::load(&d.join("out.json")).unwrap().source {
        Some(WeightsSource::Fit { data }) => assert!(
            data.starts_with(&format!(
                "cut/games.csv, mixed.pdn ({} games, ",
                2 * rows - 1
            )),
            "{data}"
        ),
        other => panic!("the source says it was fitted: {other:?}"),
    }

    let quiet = bin()
        .current_dir(d)
        .args(["fit", "cut", "mixed.pdn", "-o", "quiet.json", "-q"])
        .assert()
        .success();
    assert!(quiet.get_output().stderr.is_empty());
    assert!(quiet.get_output().stdout.is_empty());
}

/// `--endings`: a game that stopped in the endgame database is played on by it, and its
/// ending's positions are learnt too; without a database the option is refused.
#[test]
fn endings_of_games_that_stopped_in_the_database() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Two kings against one, White to win: a game stopped there by the database.
    fs::write(
        d.join("ending.pdn"),
        "[FEN \"B:WK32,K28:BK1\"]\n[Result \"0-1\"]\n1. 1-5 28-24 0-1\n",
    )
    .unwrap();
    fs::write(
        d.join("db.toml"),
        RUN.replace("database_pieces = 0", "database_pieces = 3"),
    )
    .unwrap();
    let base = [
        "ending.pdn",
        "--config",
        "db.toml",
        "--validation",
        "0",
        "--first-ply",
        "0",
    ];
    let positions = |report: &str| -> usize {
        let line = report
            .lines()
            .find(|l| l.starts_with("positions: "))
            .unwrap();
        line["positions: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let without = fit(d, &[&base[..], &["-o", "a.json"]].concat());
    let with = fit(
        d,
        &[&base[..], &["-o", "b.json", "--endings", "30"]].concat(),
    );
    assert!(!without.contains("endings"), "{without}");
    assert!(
        with.contains("with the endings of games that stopped in the 3-piece database"),
        "{with}"
    );
    // The game's own three positions, then the rest of the win (at most 30 plies of it).
    assert_eq!(positions(&without), 3, "{without}");
    assert!((4..=33).contains(&positions(&with)), "{with}");
    match WeightsFile::load(&d.join("b.json")).unwrap().source {
        Some(WeightsSource::Fit { data }) => {
            assert!(
                data.contains(&format!("{} training positions", positions(&with))),
                "{data}"
            )
        }
        other => panic!("the source says it was fitted: {other:?}"),
    }

    // The pattern evaluator's fit learns them too.
    let patterns = [&base[..], &["--evaluator", "patterns"]].concat();
    let without = fit(d, &[&patterns[..], &["-o", "c.json"]].concat());
    let with = fit(
        d,
        &[&patterns[..], &["-o", "d.json", "--endings", "30"]].concat(),
    );
    assert_eq!(positions(&without), 3, "{without}");
    assert!((4..=33).contains(&positions(&with)), "{with}");

    let msg = fit_fails(d, &["ending.pdn", "-o", "out.json", "--endings", "10"]);
    assert!(msg.contains("--endings: no endgame database"), "{msg}");
}

/// `--label-depth`: the pattern fit's labels come from a deeper search of every position with
/// the start weights; the report says so, the weights differ from the games' own labels', the
/// file is byte-identical on 1 and 2 threads, and a depth out of range or an evaluator other
/// than the pattern evaluator is refused with exit 2, naming the option.
#[test]
fn labels_from_a_deeper_search() {
    let dir = with_run();
    let d = dir.path();
    let base = ["run", "--evaluator", "patterns", "-q"];
    fit(d, &[&base[..], &["-o", "games.json"]].concat());
    let report = fit(
        d,
        &[
            "run",
            "--evaluator",
            "patterns",
            "--label-depth",
            "3",
            "-o",
            "deep1.json",
            "--threads",
            "1",
        ],
    );
    assert!(
        report
            .contains("labels: every position searched again at depth 3/9 with the start weights"),
        "{report}"
    );
    fit(
        d,
        &[
            &base[..],
            &["--label-depth", "3", "-o", "deep2.json", "--threads", "2"],
        ]
        .concat(),
    );
    let read = |name: &str| fs::read(d.join(name)).unwrap();
    assert_eq!(read("deep1.json"), read("deep2.json"));
    let tables = |name: &str| {
        WeightsFile::load(&d.join(name))
            .unwrap()
            .patterns
            .expect("a pattern fit")
    };
    assert_ne!(
        tables("games.json"),
        tables("deep1.json"),
        "deeper labels teach other weights"
    );

    let msg = fit_fails(
        d,
        &[
            "run",
            "--evaluator",
            "patterns",
            "--label-depth",
            "17",
            "-o",
            "out.json",
        ],
    );
    assert!(
        msg.contains("--label-depth 17 is outside 1 ..= 16"),
        "{msg}"
    );
    let msg = fit_fails(d, &["run", "--label-depth", "3", "-o", "out.json"]);
    assert!(
        msg.contains("--label-depth labels the pattern evaluator's positions"),
        "{msg}"
    );
}

/// `--label-nodes`: labels from the selective search at a node budget; the report says so,
/// the weights are their own (not the exact search's nor the games'), the file is
/// byte-identical on 1 and 2 threads, and a budget out of range, beside `--label-depth` or for
/// another evaluator is refused with exit 2, naming the option.
#[test]
fn labels_from_the_selective_search_at_a_node_budget() {
    let dir = with_run();
    let d = dir.path();
    let base = ["run", "--evaluator", "patterns", "-q"];
    fit(d, &[&base[..], &["-o", "games.json"]].concat());
    fit(
        d,
        &[&base[..], &["--label-depth", "3", "-o", "exact.json"]].concat(),
    );
    let report = fit(
        d,
        &[
            "run",
            "--evaluator",
            "patterns",
            "--label-nodes",
            "2000",
            "-o",
            "nodes1.json",
            "--threads",
            "1",
        ],
    );
    assert!(
        report.contains(
            "labels: every position searched again at the selective search at 2000 nodes \
             with the start weights"
        ),
        "{report}"
    );
    fit(
        d,
        &[
            &base[..],
            &[
                "--label-nodes",
                "2000",
                "-o",
                "nodes2.json",
                "--threads",
                "2",
            ],
        ]
        .concat(),
    );
    let read = |name: &str| fs::read(d.join(name)).unwrap();
    assert_eq!(read("nodes1.json"), read("nodes2.json"));
    let tables = |name: &str| WeightsFile::load(&d.join(name)).unwrap().patterns;
    assert_ne!(tables("games.json"), tables("nodes1.json"));
    assert_ne!(tables("exact.json"), tables("nodes1.json"));

    let msg = fit_fails(
        d,
        &[&base[..], &["--label-nodes", "1000001", "-o", "out.json"]].concat(),
    );
    assert!(
        msg.contains("--label-nodes 1000001 is outside 1 ..= 1000000"),
        "{msg}"
    );
    let msg = fit_fails(d, &["run", "--label-nodes", "2000", "-o", "out.json"]);
    assert!(
        msg.contains("--label-nodes labels the pattern evaluator's positions"),
        "{msg}"
    );
    let msg = fit_fails(
        d,
        &[
            &base[..],
            &[
                "--label-nodes",
                "2000",
                "--label-depth",
                "3",
                "-o",
                "out.json",
            ],
        ]
        .concat(),
    );
    assert!(msg.contains("--label-nodes"), "{msg}");
    assert!(!d.join("out.json").exists());
}
