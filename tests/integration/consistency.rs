//! The same rules for every text input: a UTF-8 byte-order mark is accepted with line numbers
//! kept, a key given twice is refused, errors quote at most a short excerpt of the input, and
//! weights JSON errors say on which line.

use std::fs;

use assert_cmd::Command;
use checkers_engine::error::Error;
use checkers_engine::game::load_openings_file;
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::export::ExportFormat;
use checkers_harness::run::Config;

const BOM: &str = "\u{feff}";

fn input_error<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
    match result {
        Err(Error::Input(message)) => message,
        other => panic!("expected bad input, got {other:?}"),
    }
}

fn sample() -> WeightsFile {
    let mut file = WeightsFile::material();
    file.weights.opening.0[8] = 7;
    file.endgame_pieces = 9;
    file
}

#[test]
fn a_byte_order_mark_is_accepted_in_every_text_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // Weights in each readable form.
    for format in [ExportFormat::Json, ExportFormat::Toml, ExportFormat::Csv] {
        let text = format.render(&sample());
        let path = d.join(format!("w.{}", format.extension()));
        fs::write(&path, format!("{BOM}{text}")).unwrap();
        let read = WeightsFile::load_any(&path).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(read.weights, sample().weights, "{format}");
    }

    // An openings file, and its line numbers in errors.
    let deck = d.join("deck.txt");
    fs::write(&deck, format!("{BOM}9-13 22-18 10-14\n")).unwrap();
    assert_eq!(load_openings_file(&deck).unwrap().len(), 1);
    fs::write(&deck, format!("{BOM}9-13 22-18 10-14\n9-13 22-19 10-14\n")).unwrap();
    let message = input_error(load_openings_file(&deck));
    assert!(message.contains("line 2"), "{message}");

    // A config, and its line numbers in errors.
    let config = d.join("c.toml");
    fs::write(&config, format!("{BOM}name = \"bom\"\nseed = 4\n")).unwrap();
    assert_eq!(Config::load(&config).unwrap().seed, 4);
    fs::write(
        &config,
        format!("{BOM}name = \"bom\"\n[search]\nmin_depth = 0\n"),
    )
    .unwrap();
    let message = input_error(Config::load(&config));
    assert!(message.contains("line 3: `search.min_depth`"), "{message}");

    // Through the binary: a config with a BOM runs.
    fs::write(
        &config,
        format!(
            "{BOM}name = \"bom\"\n[population]\nsize = 4\n[tournament]\nrounds = 1\n\
             openings = \"deck.txt\"\nmax_plies = 20\nplayoff_openings = 1\n\
             [search]\nmin_depth = 1\nmax_depth = 2\ndatabase_pieces = 0\n"
        ),
    )
    .unwrap();
    fs::write(&deck, format!("{BOM}9-13 22-18 10-14\n")).unwrap();
    Command::cargo_bin("checkers-tuner")
        .unwrap()
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
        )
        .args(["tune", "--quiet", "--threads", "1"])
        .arg(&config)
        .arg("--out")
        .arg(d.join("run"))
        .assert()
        .success();
}

#[test]
fn a_key_given_twice_in_a_weights_json_file_is_refused_with_its_line() {
    let good = sample().to_json();
    let twice = good.replace(
        "\"endgame_pieces\": 9,",
        "\"endgame_pieces\": 9,\n  \"opening\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],",
    );
    let message = input_error(WeightsFile::from_json(&twice, "w.json"));
    assert!(
        message.contains("line 6") && message.contains("`opening` is given twice"),
        "{message}"
    );
    let nested = good.replace(
        "\"source\": null",
        "\"source\": {\"run\": \"a\", \"id\": 1, \"id\": 2, \"round\": 3}",
    );
    let message = input_error(WeightsFile::from_json(&nested, "w.json"));
    assert!(message.contains("`id` is given twice"), "{message}");
    // TOML refuses it too (the toml crate's own rule).
    let toml = ExportFormat::Toml.render(&sample());
    let toml = toml.replace(
        "endgame_pieces = 9",
        "endgame_pieces = 9\nendgame_pieces = 8",
    );
    input_error(WeightsFile::from_toml(&toml, "w.toml"));
}

#[test]
fn weights_json_errors_give_the_line_of_the_key() {
    let good = sample().to_json();
    let line_of = |key: &str| {
        good.lines()
            .position(|l| l.contains(&format!("\"{key}\"")))
            .unwrap()
            + 1
    };
    let cases = [
        (
            good.replace("[100, 150, 0, 0, 0, 0, 0, 0, 7, 0]", "[100, 150]"),
            "opening",
            "`opening` has 2 numbers",
        ),
        (
            good.replace("\"endgame_pieces\": 9", "\"endgame_pieces\": 99"),
            "endgame_pieces",
            "`endgame_pieces` must be",
        ),
        (
            good.replace("\"pawns\", \"kings\"", "\"kings\", \"pawns\""),
            "features",
            "`features` is not in the standard order",
        ),
        (
            good.replace("own count", "their count"),
            "perspective",
            "`perspective`",
        ),
    ];
    for (text, key, wanted) in cases {
        let message = input_error(WeightsFile::from_json(&text, "w.json"));
        let prefix = format!("weights file w.json: line {}: ", line_of(key));
        assert!(
            message.starts_with(&prefix),
            "{message} should start with {prefix}"
        );
        assert!(message.contains(wanted), "{message}");
    }
}

#[test]
fn long_input_is_quoted_as_a_short_excerpt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = "9-13 ".repeat(20_000);
    let deck = d.join("deck.txt");
    fs::write(&deck, format!("9-13 22-18\n{long}\n")).unwrap();
    let cases: Vec<(&str, String)> = vec![
        ("openings", input_error(load_openings_file(&deck))),
        (
            "csv feature",
            input_error(WeightsFile::from_csv(
                &format!("set,feature,weight\nopening,{},1\n", "x".repeat(50_000)),
                "w.csv",
            )),
        ),
        (
            "json key",
            input_error(WeightsFile::from_json(
                &format!("{{\"{}\": 1}}", "k".repeat(50_000)),
                "w.json",
            )),
        ),
        (
            "json string",
            input_error(WeightsFile::from_json(
                &sample().to_json().replace(
                    "\"source\": null",
                    &format!("\"source\": \"{}\"", "s".repeat(50_000)),
                ),
                "w.json",
            )),
        ),
    ];
    for (what, message) in cases {
        // Short: the excerpt, and at most the list of a weights file's keys.
        assert!(message.len() < 450, "{what}: {} bytes", message.len());
        assert!(message.contains('…'), "{what}: {message}");
        assert!(!message.contains('\n'), "{what}: {message}");
    }
    // Through the binary: one short line.
    let assert = Command::cargo_bin("checkers-tuner")
        .unwrap()
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
        )
        .args(["match", "material", "material", "--openings"])
        .arg(&deck)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.len() < 400 && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(stderr.contains("line 2"), "{stderr}");
}
