//! The home-ranks region (`[weights.patterns] ranks = "home"`, `fit --ranks home`): a config
//! writes the key only when set; a real tiny run fills the region's table and writes it to its
//! weights files; `fit` adds it on request and leaves a fit without it as it was; an unknown
//! layout is refused naming its key.

use std::fs;
use std::path::Path;

use crate::support::{bin, tune};
use checkers_engine::eval::{PatternTables, RankLayout, RegionKind, RegionLayout};
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::run::Config;

/// A pattern run with the home-ranks region and a fit after every round.
const RANKS: &str = r#"
name = "ranks"
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
ranks = "home"
[search]
min_depth = 2
max_depth = 4
database_pieces = 3
[evolution]
fit_every = 1
"#;

/// The tables of the pattern weights file at `path`.
fn tables_of(path: &Path) -> PatternTables {
    let file = WeightsFile::load(path).unwrap();
    file.patterns
        .expect("a pattern weights file")
        .tables
        .clone()
}

/// Nonzero entries of the home-ranks table (the last region, squares 1-16), both phases.
fn learned_home_entries(tables: &PatternTables) -> usize {
    let r = tables.regions().len() - 1;
    let home = &tables.regions()[r];
    assert_eq!(home.kind(), RegionKind::Ranks);
    assert_eq!(home.squares(), (1..=16).collect::<Vec<u8>>());
    (0..2)
        .flat_map(|phase| tables.table(r, phase))
        .filter(|&v| v != 0)
        .count()
}

/// Whether a written config has a `ranks` key.
fn has_ranks_key(written: &str) -> bool {
    written.lines().any(|l| l.starts_with("ranks"))
}

#[test]
fn a_config_writes_the_key_only_when_it_is_set() {
    let with = Config::from_str_named(RANKS, "ranks.toml").unwrap();
    assert!(with.to_toml().contains("\nranks = \"home\"\n"));
    assert_eq!(with.weights.patterns.table_shape().regions().len(), 9);
    let without = RANKS.replace("ranks = \"home\"\n", "");
    let none = RANKS.replace("\"home\"", "\"none\"");
    let written = Config::from_str_named(&without, "plain.toml")
        .unwrap()
        .to_toml();
    assert!(!has_ranks_key(&written), "{written}");
    assert_eq!(
        Config::from_str_named(&none, "none.toml")
            .unwrap()
            .to_toml(),
        written
    );
}

#[test]
fn a_run_with_the_home_ranks_fills_its_table_and_fit_adds_it_on_request() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("ranks.toml");
    fs::write(&config, RANKS).unwrap();
    let run = tmp.path().join("run");
    tune(&config, &run, 2);
    let written = fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(written.contains("ranks = \"home\""), "{written}");
    // Every fit's tables carry the home ranks after the eight men regions, and the fits
    // learned something for them.
    let mut learned = 0;
    for entry in fs::read_dir(run.join("tables")).unwrap() {
        let tables = tables_of(&entry.unwrap().path());
        assert_eq!(tables.regions().len(), 9);
        assert_eq!(tables.len(), 8 * 6561 + 65_536);
        learned += learned_home_entries(&tables);
    }
    assert!(learned > 0, "no home-ranks entry was learned");
    assert_eq!(tables_of(&run.join("best.json")).regions().len(), 9);

    // `fit` on the run's games: without --ranks (or with --ranks none) no rank region, the
    // same bytes either way; with --ranks home the table is there and learned.
    let fit = |args: &[&str]| {
        bin()
            .current_dir(tmp.path())
            .args([
                "fit",
                "run",
                "--evaluator",
                "patterns",
                "-q",
                "--epochs",
                "2",
            ])
            .args(args)
            .assert()
            .success();
    };
    fit(&["-o", "plain.json"]);
    fit(&["-o", "none.json", "--ranks", "none"]);
    fit(&["-o", "home.json", "--ranks", "home"]);
    let plain = fs::read(tmp.path().join("plain.json")).unwrap();
    assert_eq!(plain, fs::read(tmp.path().join("none.json")).unwrap());
    assert!(!String::from_utf8(plain).unwrap().contains("rank_regions"));
    assert_eq!(tables_of(&tmp.path().join("plain.json")).regions().len(), 8);
    let home = tables_of(&tmp.path().join("home.json"));
    assert_eq!(home.regions().len(), 9);
    assert!(
        learned_home_entries(&home) > 0,
        "the fit learned no home entry"
    );
    // Start weights without rank regions get them added.
    fit(&[
        "-o",
        "added.json",
        "--weights",
        "plain.json",
        "--ranks",
        "home",
    ]);
    let added = tables_of(&tmp.path().join("added.json"));
    assert_eq!(added.regions().len(), 9);
    assert!(learned_home_entries(&added) > 0);

    // The wide layout adds its offset bands and quadrants to start weights of bands and
    // strips, before the home ranks, and the fit learns them; without --regions a start's
    // regions stay as they are.
    fit(&["-o", "same.json", "--weights", "added.json"]);
    let same = tables_of(&tmp.path().join("same.json"));
    assert_eq!(same.regions(), added.regions());
    let wide_layout = "bands+strips+offsets+quadrants";
    // No pull toward zero: the test run's few games move a new entry by less than a unit.
    fit(&[
        "-o",
        "wide.json",
        "--weights",
        "added.json",
        "--regions",
        wide_layout,
        "--l2-tables",
        "0",
    ]);
    let wide = tables_of(&tmp.path().join("wide.json"));
    let mut expected = RegionLayout::from_name(wide_layout).unwrap().regions();
    expected.extend(RankLayout::Home.regions());
    assert_eq!(wide.regions(), expected);
    for r in 8..15 {
        let learned = (0..2)
            .flat_map(|phase| wide.table(r, phase))
            .filter(|&v| v != 0)
            .count();
        assert!(learned > 0, "region {r} learned nothing");
    }
    assert!(learned_home_entries(&wide) > 0);

    // An unknown layout on the command line: exit status 2, the option named, no output.
    let out = bin()
        .current_dir(tmp.path())
        .args(["fit", "run", "--evaluator", "patterns", "-q"])
        .args(["-o", "out.json", "--ranks", "rows"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("--ranks") && stderr.contains("rows"),
        "{stderr}"
    );
    assert!(!tmp.path().join("out.json").exists());
}

#[test]
fn an_unknown_rank_layout_is_refused_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("ranks.toml");
    fs::write(&config, RANKS.replace("\"home\"", "\"rows\"")).unwrap();
    let out = tmp.path().join("refused");
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("weights.patterns.ranks"));
    assert!(!out.exists());
}
