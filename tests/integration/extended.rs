//! The extended evaluator's weights files: every export format round-trips them, bad files are
//! refused by key, and the search and a match play with them.

use crate::support::bin;
use checkers_engine::board::Position;
use checkers_engine::error::Error;
use checkers_engine::eval::{ExtraPair, ExtraWeights, WeightPair, Weights};
use checkers_engine::game::{three_move_deck, GameSettings};
use checkers_engine::search::{SearchLimits, Searcher};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};
use checkers_harness::export::ExportFormat;
use checkers_harness::matchplay::play_match;

/// An extended file with every weight distinct.
fn extended() -> WeightsFile {
    let phase = |offset: i32| ExtraWeights {
        terms: [offset + 1, -offset - 2],
        men: std::array::from_fn(|i| offset + 3 * i as i32 - 40),
        kings: std::array::from_fn(|i| offset - 2 * i as i32 + 25),
    };
    WeightsFile {
        weights: WeightPair {
            opening: Weights([100, 150, -3, 7, -42, 0, -1, 12, 5, 9]),
            endgame: Weights([100, 170, 0, -8, 4, -10, -15, 33, -2, 1]),
        },
        extra: Some(ExtraPair {
            opening: phase(0),
            endgame: phase(7),
        }),
        patterns: None,
        endgame_pieces: 12,
        source: Some(WeightsSource::Fit {
            data: "games.csv (3 games)".into(),
        }),
        database_pieces: None,
        search: None,
    }
}

fn message(result: Result<WeightsFile, Error>) -> String {
    match result {
        Err(Error::Input(message)) => message,
        other => panic!("expected bad input, got {other:?}"),
    }
}

#[test]
fn every_readable_format_round_trips_the_extended_weights() {
    let file = extended();
    let json = ExportFormat::Json.render(&file);
    assert!(
        json.starts_with("{\n  \"evaluator\": \"extended\",\n"),
        "{json}"
    );
    assert_eq!(WeightsFile::from_json(&json, "x.json").unwrap(), file);
    let toml = ExportFormat::Toml.render(&file);
    assert_eq!(WeightsFile::from_toml(&toml, "x.toml").unwrap(), file);
    // CSV carries the weights only.
    let csv = ExportFormat::Csv.render(&file);
    assert_eq!(csv.lines().count(), 1 + 2 * (10 + 2 + 28 + 32));
    assert!(csv.contains("\nopening,men_1,-40\n") && csv.contains("\nendgame,kings_32,-30\n"));
    let back = WeightsFile::from_csv(&csv, "x.csv").unwrap();
    assert_eq!((back.weights, back.extra), (file.weights, file.extra));
    let openbench = ExportFormat::OpenBench.render(&file);
    assert_eq!(openbench.lines().count(), 2 * (10 + 2 + 28 + 32));
    assert!(openbench.contains("\nendgame_bridge, 8\n"), "{openbench}");
    // A file of the ten features says nothing of an evaluator.
    let ten = WeightsFile::material();
    assert!(!ExportFormat::Json.render(&ten).contains("evaluator"));
    assert!(!ExportFormat::Toml.render(&ten).contains("evaluator"));
}

#[test]
fn bad_extended_files_name_the_key() {
    let json = ExportFormat::Json.render(&extended());
    let without = |key: &str| -> String {
        json.lines()
            .filter(|l| !l.trim_start().starts_with(&format!("\"{key}\"")))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let m = message(WeightsFile::from_json(&without("opening_men"), "w.json"));
    assert!(
        m.contains("w.json") && m.contains("missing key `opening_men`"),
        "{m}"
    );
    let short = json.replace("\"endgame_terms\": [8, -9]", "\"endgame_terms\": [8]");
    let m = message(WeightsFile::from_json(&short, "w.json"));
    assert!(
        m.contains("`endgame_terms` must be a list of 2 integers, found 1 numbers"),
        "{m}"
    );
    let ten_with_tables = without("evaluator");
    let m = message(WeightsFile::from_json(&ten_with_tables, "w.json"));
    assert!(m.contains("belongs to the extended evaluator"), "{m}");
    let unknown = json.replace("\"extended\"", "\"eleven\"");
    let m = message(WeightsFile::from_json(&unknown, "w.json"));
    assert!(
        m.contains("`evaluator` must be \"ten\", \"extended\" or \"patterns\""),
        "{m}"
    );
    let reordered = json.replace("[\"bridge\", \"exposure\"]", "[\"exposure\", \"bridge\"]");
    let m = message(WeightsFile::from_json(&reordered, "w.json"));
    assert!(m.contains("`terms` must list the terms in order"), "{m}");
    let mut huge = extended();
    huge.extra.as_mut().unwrap().endgame.kings[4] = 20_000;
    let m = message(huge.check_playable("big.json").map(|()| huge.clone()));
    assert!(m.contains("`endgame_kings` item 5 is 20000"), "{m}");
    let csv = ExportFormat::Csv.render(&extended());
    let partial: String = csv
        .lines()
        .filter(|l| !l.starts_with("endgame,kings_7,"))
        .map(|l| format!("{l}\n"))
        .collect();
    let m = message(WeightsFile::from_csv(&partial, "w.csv"));
    assert!(m.contains("no row for `endgame`/`kings_7`"), "{m}");
}

#[test]
fn the_extended_weights_play() {
    let file = extended();
    let pos = Position::from_fen("B:W21-32:B1-12").unwrap();
    let extra = file.extra.unwrap();
    let found = Searcher::default().search(
        &pos,
        checkers_engine::eval::Evaluator::Extended(&file.weights, &extra),
        SearchLimits::new(4, 8),
        None,
    );
    assert!(found.best_move.is_some());
    let mut settings = GameSettings::default();
    settings.search.min_depth = 2;
    settings.search.max_depth = 4;
    settings.max_plies = 80;
    let deck = three_move_deck();
    let report = play_match(
        &file,
        &WeightsFile::material(),
        &deck[..4],
        &settings,
        1,
        None,
        |_| {},
    );
    assert_eq!(report.tally.results.games(), 8);
}

#[test]
fn every_command_takes_an_extended_weights_file() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("extended.json");
    std::fs::write(&weights, ExportFormat::Json.render(&extended())).unwrap();
    let weights = weights.to_str().unwrap();
    let stdout = |assert: assert_cmd::assert::Assert| {
        String::from_utf8(assert.get_output().stdout.clone()).unwrap()
    };
    let analysed = stdout(
        bin()
            .args([
                "analyse",
                "--fen",
                "B:W25,27,31:B3,9,14,17",
                "--weights",
                weights,
            ])
            .args(["--min-depth", "4", "--max-depth", "8"])
            .assert()
            .success(),
    );
    assert!(analysed.starts_with("bestmove "), "{analysed}");
    let bench = stdout(
        bin()
            .args(["bench", "--depth", "4", "--weights", weights])
            .assert()
            .success(),
    );
    assert_eq!(bench.lines().count(), 4, "{bench}");
    let openings = dir.path().join("two.txt");
    std::fs::write(&openings, "9-13 22-18\n10-14 24-20\n").unwrap();
    bin()
        .args(["match", weights, "material", "--openings"])
        .arg(&openings)
        .args(["--min-depth", "2", "--max-depth", "4", "-q"])
        .assert()
        .success()
        // The header says how each evaluator reaches its endgame weights.
        .stdout(predicates::str::contains(
            "opening and endgame weights tapered by the pieces on the board",
        ))
        .stdout(predicates::str::contains(
            "B: material (endgame set from 12 pieces down)",
        ));
    for format in ["json", "toml", "csv", "c", "openbench"] {
        let out = dir.path().join(format!("out.{format}"));
        bin()
            .args(["export", weights, "--format", format, "-o"])
            .arg(&out)
            .assert()
            .success();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.to_lowercase().contains("men"), "{format}: {text}");
    }
    let back = WeightsFile::load_any(&dir.path().join("out.toml")).unwrap();
    assert_eq!(back.extra, extended().extra);
}
