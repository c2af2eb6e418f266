//! A night as a chain of runs (`[chain]`): real tiny chains through the binary.
//!
//! Each link is an ordinary run with its own seed, its first the run the config makes
//! without a chain; the morning fit learns from every link's games and a gate decides whether
//! it is `best.json`; the files are the same on any thread count and through a crash.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{assert_same_files, bin, resume, tune, tune_stopped_after, write_file};

/// A tiny pattern run with a fit every round, as three links that learn from the earlier.
const CHAIN: &str = r#"
name = "night"
seed = 4
[population]
size = 8
[tournament]
rounds = 2
openings = "random:6"
max_plies = 60
playoff_openings = 1
[weights]
evaluator = "patterns"
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
[evolution]
fit_every = 1
[chain]
links = 3
learn_from_earlier = true
gate_openings = 12
"#;

/// The files of the chain's folder and of each link's that must agree between two chains of
/// one config (a positions store's header names the run's config, whose stores of earlier
/// links are named by their folders: it differs between chains in other folders).
const COMPARED: [&str; 4] = ["chain.csv", "morning.csv", "morning.json", "best.json"];
const COMPARED_IN_LINKS: [&str; 5] = [
    "rounds.csv",
    "specimens.csv",
    "games.csv",
    "playoff.csv",
    "best.json",
];

/// Runs `tune` on one thread to the end into `out`, and gives what it printed: (stdout,
/// stderr).
fn tune_on_one_thread(config: &Path, out: &Path) -> (String, String) {
    let log = bin()
        .args(["tune", "--threads", "1"])
        .arg(config)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    let output = log.get_output();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (text(&output.stdout), text(&output.stderr))
}

/// [`CHAIN`] with `links` links that learn apart, and no morning gate.
fn apart_without_gate(links: u32) -> String {
    CHAIN
        .replace("learn_from_earlier = true\n", "")
        .replace("links = 3", &format!("links = {links}"))
        .replace("gate_openings = 12", "gate_openings = 0")
}

/// The plain chain of [`apart_without_gate`]`(links)`, run on two threads into `plain/`, and
/// the config (written as `name`, beside `plain.toml`) of the same chain with `keys` added to its `[chain]`: (the
/// plain chain's folder, that config).
fn plain_chain_and_config(tmp: &Path, links: u32, keys: &str, name: &str) -> (PathBuf, PathBuf) {
    let plain_text = apart_without_gate(links);
    let text = plain_text.replace("gate_openings = 0", &format!("gate_openings = 0\n{keys}"));
    let plain = tmp.join("plain");
    tune(&write_file(tmp, "plain.toml", &plain_text), &plain, 2);
    (plain, write_file(tmp, name, &text))
}

/// `fit` by hand of links 1 to `links` of `chain`, from link `links`' best, with the morning
/// fit's options and `options`, into `out`.
fn fit_links_by_hand(chain: &Path, links: usize, options: &[&str], out: &Path) {
    bin()
        .args(["fit", "--quiet", "--threads", "2"])
        .args(["--ranks", "home", "--l2-tables", "10"])
        .args(options)
        .args((1..=links).map(|k| chain.join(format!("link-{k}"))))
        .arg("--weights")
        .arg(chain.join(format!("link-{links}/best.json")))
        .arg("--config")
        .arg(chain.join(format!("link-{links}/config.toml")))
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// Links 1 to `links` of `chain` played the games of `plain`'s.
fn assert_links_play_alike(plain: &Path, chain: &Path, links: u32) {
    for k in 1..=links {
        let games = |top: &Path| read(&top.join(format!("link-{k}/games.csv")));
        assert_eq!(games(plain), games(chain), "link-{k}");
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn games_in(run: &Path) -> usize {
    read(&run.join("games.csv")).lines().count() - 1
}

/// The one row of `morning.csv`, by column.
fn morning_row(chain: &Path) -> Vec<(String, String)> {
    let text = read(&chain.join("morning.csv"));
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(String::from);
    let row = lines.next().unwrap().split(',').map(String::from);
    header.zip(row).collect()
}

fn field<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(h, _)| h == name).unwrap().1
}

#[test]
fn a_chain_plays_its_links_then_a_gated_morning_fit_the_same_on_any_thread_count_and_through_a_crash(
) {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "night.toml", CHAIN);
    let one = tmp.path().join("one");
    let (stdout, _) = tune_on_one_thread(&config, &one);
    assert!(
        stdout.contains("Chain: the morning fit of 3 links"),
        "{stdout}"
    );

    // Each link is an ordinary run: its seed the chain's plus its place, its name the chain's.
    for link in 1..=3u64 {
        let written = read(&one.join(format!("link-{link}/config.toml")));
        assert!(
            written.contains(&format!("name = \"night-link-{link}\"")),
            "{written}"
        );
        assert!(
            written.contains(&format!("seed = {}", 3 + link)),
            "{written}"
        );
        assert!(!written.contains("[chain]"), "{written}");
        // With learn_from_earlier, every earlier link's store and no other.
        let stores = written.matches("[[evolution.fit_with]]").count() as u64;
        assert_eq!(stores, link - 1, "{written}");
        for earlier in 1..link {
            let store = one
                .canonicalize()
                .unwrap()
                .join(format!("link-{earlier}/positions.bin"));
            let quoted = format!("store = {:?}", store.display().to_string());
            assert!(written.contains(&quoted), "{written}");
        }
    }
    // The first link is the run the config makes without a chain.
    let plain = tmp.path().join("plain");
    let alone = CHAIN.split("[chain]").next().unwrap();
    tune(&write_file(tmp.path(), "plain.toml", alone), &plain, 2);
    for file in ["rounds.csv", "specimens.csv", "games.csv", "playoff.csv"] {
        assert_eq!(
            read(&plain.join(file)),
            read(&one.join("link-1").join(file)),
            "{file}: link 1 against the run without a chain"
        );
    }

    // chain.csv: a row per link; morning.csv: the fit of every link's games and its gate.
    let chain = read(&one.join("chain.csv"));
    let rows: Vec<&str> = chain.lines().collect();
    assert_eq!(rows[0], "link,seed,folder,rounds,best_id,best_points");
    assert_eq!(rows.len(), 4, "{chain}");
    assert!(rows[2].starts_with("2,5,link-2,2,"), "{chain}");
    let morning = morning_row(&one);
    assert_eq!(field(&morning, "links"), "3");
    let games: usize = (1..=3)
        .map(|k| games_in(&one.join(format!("link-{k}"))))
        .sum();
    assert_eq!(field(&morning, "games"), games.to_string());
    let played: u64 = field(&morning, "gate_games").parse().unwrap();
    assert!(played > 0 && played <= 24, "{morning:?}");
    let tally: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| field(&morning, k).parse::<u64>().unwrap())
        .sum();
    assert_eq!(tally, played);
    // best.json is the morning fit when the gate accepted it, else the last link's best.
    let best = read(&one.join("best.json"));
    let morning_fit = read(&one.join("morning.json"));
    assert!(
        morning_fit.contains("the morning fit of chain night: 3 links"),
        "{morning_fit}"
    );
    match field(&morning, "accepted") {
        "true" => assert_eq!(best, morning_fit),
        _ => assert_eq!(best, read(&one.join("link-3/best.json"))),
    }

    // Two threads, and a crash in the second link then `resume`: the same files.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let crashed = tmp.path().join("crashed");
    tune_stopped_after(&config, &crashed, 1);
    assert!(!crashed.join("link-2").exists() && !crashed.join("chain.csv").exists());
    resume(&crashed);
    let others = [(two.as_path(), "2 threads"), (crashed.as_path(), "resumed")];
    assert_same_files(&COMPARED, &one, &others);
    for link in 1..=3 {
        assert_same_files(
            &COMPARED_IN_LINKS,
            &one.join(format!("link-{link}")),
            &[
                (&two.join(format!("link-{link}")), "2 threads"),
                (&crashed.join(format!("link-{link}")), "resumed"),
            ],
        );
    }
    // A finished chain is reported as such, and `--force` starts it again from nothing.
    let again = bin().args(["resume"]).arg(&one).assert().success();
    let stdout = String::from_utf8_lossy(&again.get_output().stdout).into_owned();
    assert!(stdout.contains("already finished"), "{stdout}");
    bin()
        .args(["tune", "--quiet", "--force", "--threads", "2"])
        .arg(&config)
        .arg("--out")
        .arg(&one)
        .assert()
        .success();
    for file in COMPARED {
        assert_eq!(
            fs::read(one.join(file)).unwrap(),
            fs::read(two.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn links_that_learn_apart_share_nothing_but_the_morning_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let text = apart_without_gate(2);
    let config = write_file(tmp.path(), "apart.toml", &text);
    let out = tmp.path().join("apart");
    tune(&config, &out, 2);
    let second = read(&out.join("link-2/config.toml"));
    assert!(!second.contains("fit_with"), "{second}");
    // The second link is the run of the next seed, alone.
    let alone = CHAIN
        .split("[chain]")
        .next()
        .unwrap()
        .replace("seed = 4", "seed = 5");
    let plain = tmp.path().join("plain");
    tune(&write_file(tmp.path(), "plain.toml", &alone), &plain, 1);
    assert_eq!(
        read(&plain.join("specimens.csv")),
        read(&out.join("link-2/specimens.csv"))
    );
    // No gate: the morning fit is best.json.
    let morning = morning_row(&out);
    assert_eq!(field(&morning, "gate_games"), "0");
    assert_eq!(field(&morning, "accepted"), "true");
    assert_eq!(
        read(&out.join("best.json")),
        read(&out.join("morning.json"))
    );
    // `match` and `export` take the chain's folder for its best.
    let exported = tmp.path().join("best.json");
    bin()
        .arg("export")
        .arg(&out)
        .arg("-o")
        .arg(&exported)
        .assert()
        .success();
    assert_eq!(read(&exported), read(&out.join("best.json")));
}

/// Weights files' contents without where they came from.
fn weights_of(path: &Path) -> serde_json::Value {
    let mut file: serde_json::Value = serde_json::from_str(&read(path)).unwrap();
    file.as_object_mut().unwrap().remove("source");
    file
}

#[test]
fn a_morning_relabel_is_the_fit_of_the_plain_morning_fits_labels_the_same_on_any_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let (plain, config) = plain_chain_and_config(tmp.path(), 2, "label_depth = 2", "relabel.toml");
    let one = tmp.path().join("one");
    tune(&config, &one, 1);

    // The links are the plain chain's; the morning says it relabelled.
    assert_links_play_alike(&plain, &one, 2);
    assert_eq!(field(&morning_row(&one), "label_depth"), "2");
    assert_eq!(field(&morning_row(&plain), "label_depth"), "0");
    let morning = read(&one.join("morning.json"));
    assert!(morning.contains("labels searched at depth 2"), "{morning}");
    assert_ne!(
        weights_of(&one.join("morning.json")),
        weights_of(&plain.join("morning.json"))
    );

    // It is `fit --label-depth` of the links from the plain morning fit, with the morning's
    // options.
    let by_hand = tmp.path().join("by-hand.json");
    bin()
        .args(["fit", "--quiet", "--threads", "2", "--label-depth", "2"])
        .args(["--ranks", "home", "--l2-tables", "10"])
        .arg(one.join("link-1"))
        .arg(one.join("link-2"))
        .arg("--weights")
        .arg(plain.join("morning.json"))
        .arg("--config")
        .arg(one.join("link-2/config.toml"))
        .arg("--out")
        .arg(&by_hand)
        .assert()
        .success();
    assert_eq!(weights_of(&by_hand), weights_of(&one.join("morning.json")));

    // Two threads, and a crash in the first link then `resume`: the same files.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let crashed = tmp.path().join("crashed");
    tune_stopped_after(&config, &crashed, 1);
    resume(&crashed);
    assert_same_files(
        &COMPARED,
        &one,
        &[(two.as_path(), "2 threads"), (crashed.as_path(), "resumed")],
    );
}

#[test]
fn interim_fits_are_the_morning_fits_recipe_on_the_links_so_far_the_same_through_a_stop() {
    let tmp = tempfile::tempdir().unwrap();
    let (plain, config) =
        plain_chain_and_config(tmp.path(), 3, "interim_fits = [1, 2]", "interim.toml");
    let one = tmp.path().join("one");
    let (stdout, stderr) = tune_on_one_thread(&config, &one);
    assert!(
        stderr.contains("interim fit after link 2: ") && stderr.contains("interim/after-2.json"),
        "{stderr}"
    );
    assert!(stdout.contains("morning.csv interim/"), "{stdout}");

    // The interim fits change nothing else: the links and the morning are the plain chain's.
    assert_same_files(&COMPARED, &plain, &[(one.as_path(), "with interim fits")]);
    assert!(!plain.join("interim").exists());
    let after_two = one.join("interim/after-2.json");
    let text = read(&after_two);
    assert!(
        text.contains("the interim fit of chain night after 2 links"),
        "{text}"
    );
    assert!(!one.join("interim/after-3.json").exists());

    // Each is `fit` of the links so far from the latest link's best, with the morning's
    // options.
    for links in [1, 2] {
        let by_hand = tmp.path().join(format!("by-hand-{links}.json"));
        fit_links_by_hand(&one, links, &[], &by_hand);
        let interim = one.join(format!("interim/after-{links}.json"));
        assert_eq!(weights_of(&by_hand), weights_of(&interim), "after {links}");
    }
    assert_ne!(
        weights_of(&one.join("interim/after-1.json")),
        weights_of(&after_two)
    );

    // Two threads, and a stop in the first link then `resume`: the same files; `--force`
    // removes them.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let stopped = tmp.path().join("stopped");
    tune_stopped_after(&config, &stopped, 1);
    assert!(!stopped.join("interim").exists());
    resume(&stopped);
    let interim = ["interim/after-1.json", "interim/after-2.json"];
    for others in [(two.as_path(), "2 threads"), (stopped.as_path(), "resumed")] {
        assert_same_files(&interim, &one, &[others]);
        assert_same_files(&COMPARED, &one, &[others]);
    }
    let plain_config = tmp.path().join("plain.toml");
    bin()
        .args(["tune", "--quiet", "--force"])
        .arg(&plain_config)
        .arg("--out")
        .arg(&two)
        .assert()
        .success();
    assert!(!two.join("interim").exists());
}

#[test]
fn a_chain_with_the_exchange_term_learns_it_in_its_morning_and_interim_fits_as_fit_does() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = "interim_fits = [1]\nexchange = true";
    let (plain, config) = plain_chain_and_config(tmp.path(), 2, keys, "trading.toml");
    let one = tmp.path().join("one");
    tune(&config, &one, 1);

    // The links play as the plain chain's: only the chain's own fits learn the term.
    assert_links_play_alike(&plain, &one, 2);
    for link in ["link-1", "link-2"] {
        assert!(!read(&one.join(link).join("best.json")).contains("exchange"));
    }
    assert!(!read(&plain.join("morning.json")).contains("exchange"));
    assert!(read(&one.join("config.toml")).contains("exchange = true"));

    // Each is `fit --exchange` of the links so far from the latest link's best, with the
    // morning's options.
    for (links, fitted) in [(1, "interim/after-1.json"), (2, "morning.json")] {
        let by_hand = tmp.path().join(format!("by-hand-{links}.json"));
        fit_links_by_hand(&one, links, &["--exchange"], &by_hand);
        let fitted = one.join(fitted);
        assert!(read(&fitted).contains("\"exchange\""), "{}", read(&fitted));
        assert_eq!(weights_of(&by_hand), weights_of(&fitted), "after {links}");
    }
    assert_eq!(
        read(&one.join("best.json")),
        read(&one.join("morning.json"))
    );

    // Two threads, and a stop in the first link then `resume`: the same files.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let stopped = tmp.path().join("stopped");
    tune_stopped_after(&config, &stopped, 1);
    resume(&stopped);
    let mut compared = COMPARED.to_vec();
    compared.push("interim/after-1.json");
    assert_same_files(
        &compared,
        &one,
        &[(two.as_path(), "2 threads"), (stopped.as_path(), "resumed")],
    );
}

/// A copy of folder `from` at `to`.
fn copy_folder(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn a_finished_chains_files_are_checked_on_resume_each_missing_or_damaged_one_named() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "night.toml", &apart_without_gate(2));
    let chain = tmp.path().join("night");
    tune(&config, &chain, 2);
    let unfinish = |dir: &Path| {
        let path = dir.join("link-2/checkpoint.json");
        let mut checkpoint: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
        checkpoint["playoff"] = serde_json::Value::Null;
        fs::write(&path, checkpoint.to_string()).unwrap();
    };
    type Damage = Box<dyn Fn(&Path)>;
    let damages: Vec<(&str, Damage, &str)> = vec![
        (
            "best.json",
            Box::new(|d| fs::remove_file(d.join("best.json")).unwrap()),
            "is gone",
        ),
        (
            "morning.json",
            Box::new(|d| fs::remove_file(d.join("morning.json")).unwrap()),
            "is gone",
        ),
        (
            "morning.json",
            Box::new(|d| fs::write(d.join("morning.json"), "{").unwrap()),
            "not a weights file",
        ),
        (
            "morning.csv",
            Box::new(|d| fs::write(d.join("morning.csv"), "").unwrap()),
            "header",
        ),
        (
            "morning.csv",
            Box::new(|d| fs::write(d.join("morning.csv"), "garbage\n1,2\n").unwrap()),
            "header",
        ),
        (
            "chain.csv",
            Box::new(|d| fs::remove_file(d.join("chain.csv")).unwrap()),
            "is gone",
        ),
        (
            "chain.csv",
            Box::new(|d| fs::write(d.join("chain.csv"), "x\n").unwrap()),
            "header",
        ),
        (
            "morning.csv",
            Box::new(|d| fs::remove_dir_all(d.join("link-2")).unwrap()),
            "link 2 of 2",
        ),
        ("morning.csv", Box::new(unfinish), "link 2 of 2"),
    ];
    for (k, (file, damage, says)) in damages.iter().enumerate() {
        let copy = tmp.path().join(format!("copy-{k}"));
        copy_folder(&chain, &copy);
        damage(&copy);
        let before = fs::read(copy.join("morning.csv")).ok();
        let out = bin().arg("resume").arg(&copy).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("Error:")).collect();
        assert_eq!(errors.len(), 1, "{file}: {stderr}");
        assert!(
            errors[0].contains(&copy.join(file).display().to_string()) && errors[0].contains(says),
            "{file} ({says}): {stderr}"
        );
        assert_eq!(
            fs::read(copy.join("morning.csv")).ok(),
            before,
            "{file}: left as it was"
        );
        assert!(!copy.join("link-3").exists());
    }
    // Whole, it is reported finished.
    let again = bin().arg("resume").arg(&chain).assert().success();
    assert!(String::from_utf8_lossy(&again.get_output().stdout).contains("already finished"));
}

/// A chain of one tiny link and a data night of two doublings of tiny datagen games.
fn data_night_config() -> String {
    apart_without_gate(1).replace(
        "gate_openings = 0",
        "gate_openings = 6\ndata_doublings = 2\ndata_games = 12\ndata_nodes = [200, 400]",
    )
}

/// The data night's files that must agree between two chains of one config.
const DATA_FILES: [&str; 8] = [
    "data.csv",
    "best.json",
    "data/champion-0.json",
    "data/champion-1.json",
    "data/champion-2.json",
    "data/fit-1.json",
    "data/fit-2.json",
    "data/doubling-2/shard-1-of-1/positions.bin",
];

#[test]
fn a_data_night_doubles_the_champions_data_fits_and_gates_it_the_same_on_any_thread_count_and_through_a_stop(
) {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "data.toml", &data_night_config());
    let one = tmp.path().join("one");
    let (stdout, stderr) = tune_on_one_thread(&config, &one);
    assert!(
        stdout.contains("then the data night: 2 doublings, 24 games"),
        "{stdout}"
    );
    assert!(
        stderr.contains("data night, doubling 2 of 2: 12 games"),
        "{stderr}"
    );

    // Each doubling is a datagen data set of the champion before it, as many games as all the
    // doublings before it; data.csv has a row each, its games adding up.
    for doubling in 1..=2 {
        let set = one.join(format!("data/doubling-{doubling}"));
        let written = read(&set.join("datagen.toml"));
        assert!(written.contains("games = 12\n"), "{written}");
        assert!(written.contains("nodes = [200, 400]"), "{written}");
        assert_eq!(
            read(&set.join("weights.json")),
            read(&one.join(format!("data/champion-{}.json", doubling - 1)))
        );
    }
    let data = read(&one.join("data.csv"));
    let rows: Vec<Vec<&str>> = data.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0].join(","),
        "doubling,games,data_games,positions,gate_games,wins,draws,losses,elo,elo_95,accepted"
    );
    assert_eq!(rows.len(), 3, "{data}");
    assert_eq!((rows[1][1], rows[1][2]), ("12", "12"));
    assert_eq!((rows[2][1], rows[2][2]), ("12", "24"));
    // The night starts from the morning's champion; each champion is the fit when its gate
    // accepted it, else the champion before; best.json is the last.
    let morning = match field(&morning_row(&one), "accepted") {
        "true" => read(&one.join("morning.json")),
        _ => read(&one.join("link-1/best.json")),
    };
    assert_eq!(read(&one.join("data/champion-0.json")), morning);
    for (doubling, row) in rows.iter().enumerate().skip(1) {
        let champion = read(&one.join(format!("data/champion-{doubling}.json")));
        let expected = match row[10] {
            "true" => read(&one.join(format!("data/fit-{doubling}.json"))),
            _ => read(&one.join(format!("data/champion-{}.json", doubling - 1))),
        };
        assert_eq!(champion, expected, "doubling {doubling}");
        let played: u64 = row[4].parse().unwrap();
        assert!(played > 0 && played <= 12, "{data}");
    }
    assert_eq!(
        read(&one.join("best.json")),
        read(&one.join("data/champion-2.json"))
    );

    // The fit of doubling 2 is `fit` of the link's games and both data sets, each position
    // once, from the champion after doubling 1, with the morning fit's options.
    let by_hand = tmp.path().join("by-hand.json");
    bin()
        .args([
            "fit",
            "--quiet",
            "--threads",
            "2",
            "--unique",
            "--first-ply",
            "8",
        ])
        .args(["--ranks", "home", "--l2-tables", "10"])
        .arg(one.join("link-1"))
        .arg(one.join("data/doubling-1"))
        .arg(one.join("data/doubling-2"))
        .arg("--weights")
        .arg(one.join("data/champion-1.json"))
        .arg("--config")
        .arg(one.join("link-1/config.toml"))
        .arg("--out")
        .arg(&by_hand)
        .assert()
        .success();
    assert_eq!(
        weights_of(&by_hand),
        weights_of(&one.join("data/fit-2.json"))
    );

    // Two threads, and a stop after the second doubling's games then `resume`: the same files.
    let two = tmp.path().join("two");
    tune(&config, &two, 2);
    let stopped = tmp.path().join("stopped");
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&stopped)
        .env("CHECKERS_TUNER_STOP_IN_DOUBLING", "2")
        .assert()
        .code(130);
    assert!(stopped.join("data/champion-1.json").exists());
    assert!(stopped
        .join("data/doubling-2/shard-1-of-1/positions.bin")
        .exists());
    assert!(!stopped.join("data/fit-2.json").exists());
    resume(&stopped);
    let others = [(two.as_path(), "2 threads"), (stopped.as_path(), "resumed")];
    assert_same_files(&DATA_FILES, &one, &others);
    assert_same_files(&COMPARED, &one, &others);

    // A finished night is checked on resume: its last champion gone is named.
    fs::remove_file(one.join("data/champion-2.json")).unwrap();
    let refused = bin().args(["resume"]).arg(&one).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.contains("champion-2.json"), "{stderr}");
}
