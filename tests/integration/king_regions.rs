//! King regions (`[weights.patterns] kings = "quadrants"`): a real tiny run fills their
//! tables, writes them to its weights files, and refuses a layout it does not know.

use std::fs;

use crate::support::{bin, tune};
use checkers_engine::weights_file::WeightsFile;

/// A pattern run with king regions and a fit after every round.
const KINGS: &str = r#"
name = "kings"
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
[weights.patterns]
kings = "quadrants"
[search]
min_depth = 2
max_depth = 4
database_pieces = 3
[evolution]
fit_every = 1
"#;

#[test]
fn a_run_with_king_regions_fills_and_writes_their_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("kings.toml");
    fs::write(&config, KINGS).unwrap();
    let run = tmp.path().join("run");
    tune(&config, &run, 2);
    let written = fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(written.contains("kings = \"quadrants\""), "{written}");
    // Every fit's tables carry the four king regions after the eight men regions, and the fits
    // learned something for them: the games had kings.
    let mut learned = 0;
    for entry in fs::read_dir(run.join("tables")).unwrap() {
        let file = WeightsFile::load(&entry.unwrap().path()).unwrap();
        let tables = &file.patterns.expect("a pattern file").tables;
        assert_eq!(tables.regions().len(), 12);
        assert!(tables.regions()[8..].iter().all(|r| r.reads_kings()));
        learned += (8..12)
            .flat_map(|r| tables.table(r, 1))
            .filter(|&v| v != 0)
            .count();
    }
    assert!(learned > 0, "no king entry was learned");
    let best = WeightsFile::load(&run.join("best.json")).unwrap();
    assert_eq!(best.patterns.unwrap().tables.regions().len(), 12);
}

#[test]
fn an_unknown_king_layout_is_refused_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("kings.toml");
    fs::write(&config, KINGS.replace("\"quadrants\"", "\"corners\"")).unwrap();
    let out = tmp.path().join("refused");
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("kings"));
    assert!(!out.exists());
}
