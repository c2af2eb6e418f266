//! The pattern evaluator's optional `exchange` term (`fit --exchange`): a fit learns it only on
//! request or from a start that has it, the same on any number of threads; a weights file
//! writes it only when it is in and reads it back from JSON and TOML; the C header carries it
//! only then; bad values and a fit of another evaluator are refused with exit status 2.

use std::fs;
use std::path::Path;

use crate::support::{bin, tune};
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::export::{export_to_file, ExportFormat};

/// A tiny pattern run with a fit after every round.
const PATTERNS: &str = r#"
name = "exchange"
seed = 5
[population]
size = 8
[tournament]
rounds = 3
openings = "random:6"
max_plies = 120
playoff_openings = 2
[weights]
evaluator = "patterns"
[search]
min_depth = 2
max_depth = 4
database_pieces = 3
[evolution]
fit_every = 1
"#;

/// The `exchange` weights of the pattern weights file at `path`.
fn exchange_of(path: &Path) -> [i32; 2] {
    WeightsFile::load(path)
        .unwrap()
        .patterns
        .expect("a pattern weights file")
        .exchange
}

#[test]
fn a_fit_learns_the_exchange_term_only_when_asked_or_started_from_it() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("exchange.toml");
    fs::write(&config, PATTERNS).unwrap();
    tune(&config, &tmp.path().join("run"), 2);
    // A run's own fits never add the term.
    assert_eq!(exchange_of(&tmp.path().join("run/best.json")), [0, 0]);
    let fit = |args: &[&str]| {
        bin()
            .current_dir(tmp.path())
            .args(["fit", "run", "--evaluator", "patterns", "-q"])
            .args(["--epochs", "2"])
            .args(args)
            .assert()
            .success();
    };
    fit(&["-o", "plain.json"]);
    let plain = fs::read_to_string(tmp.path().join("plain.json")).unwrap();
    assert!(!plain.contains("exchange"), "{plain}");
    fit(&["-o", "learnt.json", "--exchange", "--threads", "1"]);
    fit(&["-o", "learnt2.json", "--exchange", "--threads", "2"]);
    let learnt = exchange_of(&tmp.path().join("learnt.json"));
    assert_ne!(learnt, [0, 0], "the fit learnt nothing for the term");
    assert_eq!(
        fs::read(tmp.path().join("learnt.json")).unwrap(),
        fs::read(tmp.path().join("learnt2.json")).unwrap()
    );
    // Everything else is learnt as before, only with the term beside it: the same regions.
    let (with, without) = (
        WeightsFile::load(&tmp.path().join("learnt.json")).unwrap(),
        WeightsFile::load(&tmp.path().join("plain.json")).unwrap(),
    );
    assert_eq!(
        with.patterns.as_ref().unwrap().tables.regions(),
        without.patterns.as_ref().unwrap().tables.regions()
    );
    // A start that has the term learns it on without the option.
    fit(&["-o", "again.json", "--weights", "learnt.json"]);
    assert_ne!(exchange_of(&tmp.path().join("again.json")), [0, 0]);

    // The C header carries the term only when it is in.
    export_to_file(
        &WeightsFile::load(&tmp.path().join("learnt.json")).unwrap(),
        ExportFormat::C,
        &tmp.path().join("learnt.h"),
    )
    .unwrap();
    let header = fs::read_to_string(tmp.path().join("learnt.h")).unwrap();
    assert!(header.contains(&format!(
        "static const int CHECKERS_EXCHANGE[2] = {{{}, {}}};",
        learnt[0], learnt[1]
    )));
    export_to_file(&without, ExportFormat::C, &tmp.path().join("plain.h")).unwrap();
    let header = fs::read_to_string(tmp.path().join("plain.h")).unwrap();
    assert!(!header.contains("EXCHANGE"));

    // Another evaluator's fit would ignore the option: refused, naming it, no output.
    let out = bin()
        .current_dir(tmp.path())
        .args(["fit", "run", "--evaluator", "extended", "--exchange", "-q"])
        .args(["-o", "refused.json"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("--exchange"), "{stderr}");
    assert!(!tmp.path().join("refused.json").exists());
}

/// A pattern weights file (`material` with empty bands-and-strips tables) as JSON, with the
/// `exchange` line `line` after its classic terms (none when empty).
fn json_with_exchange(line: &str) -> String {
    let mut file = WeightsFile::material();
    file.patterns = Some(std::sync::Arc::new(
        checkers_engine::eval::PatternWeights::zero(checkers_engine::eval::PatternTables::zero(
            checkers_engine::eval::RegionLayout::Bands.regions(),
        )),
    ));
    file.extra = Some(checkers_engine::eval::ExtraPair::default());
    let text = ExportFormat::Json.render(&file);
    assert!(!text.contains("exchange"));
    let anchor = "  \"regions\": ";
    text.replacen(anchor, &format!("{line}{anchor}"), 1)
}

#[test]
fn the_exchange_weights_come_back_from_json_and_toml_and_bad_ones_are_refused() {
    let text = json_with_exchange("  \"exchange\": [12, -7],\n");
    let file = WeightsFile::from_json(&text, "x.json").unwrap();
    assert_eq!(file.patterns.as_ref().unwrap().exchange, [12, -7]);
    // Written back the same, in JSON and through TOML.
    assert_eq!(ExportFormat::Json.render(&file), text);
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("x.toml");
    export_to_file(&file, ExportFormat::Toml, &toml).unwrap();
    assert!(fs::read_to_string(&toml)
        .unwrap()
        .contains("\nexchange = [12, -7]\n"));
    assert_eq!(WeightsFile::load_any(&toml).unwrap(), file);
    // Zero weights leave the term out: the file reads as one without it.
    let zero =
        WeightsFile::from_json(&json_with_exchange("  \"exchange\": [0, 0],\n"), "z.json").unwrap();
    assert!(!ExportFormat::Json.render(&zero).contains("exchange"));
    for (line, wanted) in [
        ("  \"exchange\": [12],\n", "list of 2 integers"),
        ("  \"exchange\": \"trade\",\n", "list of 2 integers"),
        ("  \"exchange\": [1.5, 2],\n", "exchange"),
    ] {
        let err = match WeightsFile::from_json(&json_with_exchange(line), "bad.json") {
            Ok(_) => panic!("{line}: accepted"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("bad.json") && err.contains(wanted),
            "{line}: {err}"
        );
    }
    // A weight no evaluation can hold: refused before play, as every weight is.
    let huge = WeightsFile::from_json(
        &json_with_exchange("  \"exchange\": [10001, 0],\n"),
        "huge.json",
    )
    .unwrap();
    let err = huge.check_playable("huge.json").expect_err("refused");
    let err = err.to_string();
    assert!(
        err.contains("huge.json") && err.contains("exchange") && err.contains("-10000..=10000"),
        "{err}"
    );
}
