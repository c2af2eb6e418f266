//! Issue 47, "Every file checked before it is trusted": a run's records (`champions.csv`, the
//! kept champions, the positions store) prove themselves against the checkpoint before a
//! resumed run plays a game, `export --round` reads `champions.csv` as its index, and a run
//! cannot learn from its own store. Every refusal is exit status 2 naming the file (and the
//! line or key), with the folder left byte for byte as it was.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A ten-feature run with a fit and a gate (fit and winner) after every round, no database:
/// the SPRT set so that a candidate about as strong as the champion passes, within a dozen
/// openings, so that it both accepts and refuses.
const GATED: &str = "name = \"gated\"
seed = 4
[population]
size = 8
[tournament]
rounds = 4
openings = \"random:6\"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
[evolution]
fit_every = 1
[gate]
candidates = \"fits-and-winners\"
every = 1
openings = 12
elo0 = -50.0
elo1 = 0.0
alpha = 0.3
beta = 0.3
";

fn bin(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command
        .current_dir(dir)
        .env("CHECKERS_TUNER_CACHE", dir.join("cache"));
    command
}

/// Every file under `dir` (the lock excepted: `resume` takes it before it checks), by path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(entry.path());
            } else if entry.file_name() != ".lock" {
                let bytes = if kind.is_symlink() {
                    fs::read_link(entry.path())
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes()
                } else {
                    fs::read(entry.path()).unwrap()
                };
                files.insert(entry.path(), bytes);
            }
        }
    }
    files
}

/// Copies the run folder `from` (with its subfolders) to `to`.
fn copy_run(from: &Path, to: &Path) {
    let _ = fs::remove_dir_all(to);
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_run(&entry.path(), &to.join(entry.file_name()));
        } else {
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// `args` in `d` refused with exit status 2, one `Error:` line containing each of `said`, and
/// the folder `folder` unchanged.
fn refused(d: &Path, args: &[&str], folder: &Path, said: &[&str]) {
    let before = snapshot(folder);
    let output = bin(d).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for part in said {
        assert!(stderr.contains(part), "{args:?}: {part:?} not in {stderr}");
    }
    assert!(
        snapshot(folder) == before,
        "{args:?} changed {}",
        folder.display()
    );
}

/// The gated run `out` of `config` in `d`, stopped after round `stop` (or finished).
fn gated_run(d: &Path, config: &str, out: &str, stop: Option<u32>) {
    let name = format!("{out}.toml");
    fs::write(d.join(&name), config).unwrap();
    let mut command = bin(d);
    command.args(["tune", &name, "--out", out, "-q", "--threads", "2"]);
    match stop {
        Some(round) => {
            command.env("CHECKERS_TUNER_STOP_AFTER_ROUND", round.to_string());
            let output = command.output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!stderr.contains("panicked"), "{stderr}");
            let checkpoint = fs::read_to_string(d.join(out).join("checkpoint.json")).unwrap();
            assert!(
                checkpoint.contains(&format!("\"completed_rounds\": {round},")),
                "{checkpoint}"
            );
        }
        None => {
            command.assert().success();
        }
    }
}

#[test]
fn champions_csv_is_checked_against_the_checkpoint_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    gated_run(d, GATED, "stopped", Some(2));
    gated_run(
        d,
        &GATED
            .replace("seed = 4", "seed = 9")
            .replace("\"gated\"", "\"other\""),
        "other",
        Some(2),
    );
    let text = fs::read_to_string(d.join("stopped/champions.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 3, "two gates at least: {text}");

    // Each damage of the record, resumed: refused, naming the file (and the line where the
    // rows can say it).
    let header = format!("{}\n", lines[0]);
    let last_cut = lines[..lines.len() - 1].join("\n") + "\n";
    let mid_row = format!("{}{}", last_cut, &lines[lines.len() - 1][..5]);
    let flip = |row: &str| -> String {
        if row.contains(",true,") {
            row.replace(",true,", ",false,")
        } else {
            row.replace(",false,", ",true,")
        }
    };
    let mut flipped = lines.clone();
    let last = flip(lines[lines.len() - 1]);
    *flipped.last_mut().unwrap() = &last;
    let flipped = flipped.join("\n") + "\n";
    // An Elo edited: the `elo` field (9th) of the last row that played a match.
    let played = (1..lines.len())
        .rev()
        .find(|&k| !lines[k].split(',').nth(8).unwrap().is_empty())
        .expect("a gate that played a match");
    let mut fields: Vec<String> = lines[played].split(',').map(str::to_string).collect();
    fields[8] = format!("{:.1}", fields[8].parse::<f64>().unwrap() + 35.0);
    let mut edited = lines.clone();
    let row = fields.join(",");
    edited[played] = &row;
    let edited = edited.join("\n") + "\n";
    let foreign = fs::read_to_string(d.join("other/champions.csv")).unwrap();
    let cases = [
        ("cut to its header", header),
        ("its last row deleted", last_cut),
        ("cut mid-row", mid_row),
        ("accepted flipped", flipped),
        ("an Elo edited", edited),
        ("another run's", foreign),
    ];
    for (what, damaged) in cases {
        let s = d.join("s");
        copy_run(&d.join("stopped"), &s);
        fs::write(s.join("champions.csv"), &damaged).unwrap();
        eprintln!("champions.csv {what}");
        refused(d, &["resume", "s", "-q"], &s, &["s/champions.csv"]);
    }

    // Deleted: the file named, exit 2, not an OS error's exit 1.
    let s = d.join("s");
    copy_run(&d.join("stopped"), &s);
    fs::remove_file(s.join("champions.csv")).unwrap();
    refused(d, &["resume", "s", "-q"], &s, &["s/champions.csv: missing"]);

    // A kept champion deleted, or replaced by another run's: refused before any game.
    let kept: Vec<PathBuf> = fs::read_dir(d.join("stopped/champions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let name = kept[0].file_name().unwrap().to_owned();
    copy_run(&d.join("stopped"), &s);
    fs::remove_file(s.join("champions").join(&name)).unwrap();
    refused(
        d,
        &["resume", "s", "-q"],
        &s,
        &["missing", "champions.csv line"],
    );
    let theirs: PathBuf = fs::read_dir(d.join("other/champions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .next()
        .unwrap();
    copy_run(&d.join("stopped"), &s);
    fs::copy(&theirs, s.join("champions").join(&name)).unwrap();
    refused(
        d,
        &["resume", "s", "-q"],
        &s,
        &["not the weights of specimen"],
    );

    // The run's own record resumes, and finishes as the uninterrupted run does.
    copy_run(&d.join("stopped"), &s);
    bin(d).args(["resume", "s", "-q"]).assert().success();
    gated_run(d, GATED, "whole", None);
    assert_eq!(
        fs::read(s.join("champions.csv")).unwrap(),
        fs::read(d.join("whole/champions.csv")).unwrap()
    );
}

#[test]
fn a_link_among_the_kept_champions_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    gated_run(d, GATED, "stopped", Some(2));
    let s = d.join("s");
    copy_run(&d.join("stopped"), &s);
    let kept = fs::read_dir(s.join("champions"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let elsewhere = d.join("elsewhere.json");
    fs::rename(&kept, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &kept).unwrap();
    let file = kept.strip_prefix(d).unwrap().display().to_string();
    // Refused at once: no round played, no file of the run rewritten.
    refused(d, &["resume", "s", "-q"], &s, &[&file, "link"]);
    refused(d, &["resume", "s", "-q"], &s, &[&file, "link"]);
}

#[test]
fn a_run_that_kept_a_store_does_not_resume_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ten = GATED
        .split("[evolution]")
        .next()
        .unwrap()
        .replace("name = \"gated\"", "name = \"ten\"");
    gated_run(d, &ten, "ten", Some(1));
    // A bit flipped in the store's header: said as such, not blamed on a copy alone, and
    // without calling the expected store "this run".
    let flipped = d.join("flipped");
    copy_run(&d.join("ten"), &flipped);
    let mut store = fs::read(flipped.join("positions.bin")).unwrap();
    store[10] ^= 1;
    fs::write(flipped.join("positions.bin"), &store).unwrap();
    refused(
        d,
        &["resume", "flipped", "-q"],
        &flipped,
        &[
            "flipped/positions.bin: damaged at byte 8",
            "the header was changed",
        ],
    );
    fs::remove_file(d.join("ten/positions.bin")).unwrap();
    refused(
        d,
        &["resume", "ten", "-q"],
        &d.join("ten"),
        &["ten/positions.bin: missing"],
    );
}

#[test]
fn export_round_reads_champions_csv_as_its_index() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    gated_run(d, GATED, "whole", None);
    gated_run(d, GATED, "stopped", Some(2));
    gated_run(
        d,
        &GATED
            .replace("seed = 4", "seed = 9")
            .replace("\"gated\"", "\"other\""),
        "other",
        Some(2),
    );
    let whole = d.join("whole");
    // A run folder stands for its best where weights are played: the gated run's champion.
    bin(d)
        .args([
            "match",
            "whole",
            "material",
            "--pairs",
            "1",
            "--database-pieces",
            "0",
            "-q",
        ])
        .assert()
        .success();
    // `plot` reads champions.csv through the same checks: `accepted` is true or false.
    let p = d.join("p");
    copy_run(&whole, &p);
    let text = fs::read_to_string(p.join("champions.csv")).unwrap();
    let maybe = text.replacen(",true,", ",maybe,", 1);
    assert_ne!(maybe, text);
    fs::write(p.join("champions.csv"), maybe).unwrap();
    refused(
        d,
        &["plot", "p", "-o", "p.svg"],
        &p,
        &["p/champions.csv line", "`accepted`", "maybe"],
    );
    assert!(!d.join("p.svg").exists());
    // An unfinished gated run exports its champion (never a word of playoff.csv).
    bin(d)
        .args(["export", "stopped", "-o", "champion.json"])
        .assert()
        .success();
    let champion = fs::read_to_string(d.join("champion.json")).unwrap();
    assert!(champion.contains("\"run\": \"gated\""), "{champion}");
    // Past the run: refused, saying how far it got.
    refused(
        d,
        &["export", "whole", "--round", "5", "-o", "x.json"],
        &whole,
        &["--round 5", "got to round 4 of its 4"],
    );
    refused(
        d,
        &["export", "stopped", "--round", "3", "-o", "x.json"],
        &d.join("stopped"),
        &["--round 3", "got to round 2 of its 4"],
    );
    assert!(!d.join("x.json").exists());
    // A stray file from another run in place of a kept champion is not exported as this run's.
    let s = d.join("s");
    copy_run(&d.join("stopped"), &s);
    let theirs = fs::read_dir(d.join("other/champions"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    for ours in fs::read_dir(s.join("champions")).unwrap() {
        fs::copy(&theirs, ours.unwrap().path()).unwrap();
    }
    refused(
        d,
        &["export", "s", "--round", "2", "-o", "x.json"],
        &s,
        &["not the weights of specimen"],
    );
    // A run without a gate has no champions to export by round.
    let ten = GATED
        .split("[evolution]")
        .next()
        .unwrap()
        .replace("name = \"gated\"", "name = \"ten\"");
    gated_run(d, &ten, "ten", None);
    refused(
        d,
        &["export", "ten", "--round", "1", "-o", "x.json"],
        &d.join("ten"),
        &["--round 1", "without a `[gate]`"],
    );
    // Deleted champions.csv: exit 2 naming it.
    fs::remove_file(s.join("champions.csv")).unwrap();
    refused(
        d,
        &["export", "s", "--round", "1", "-o", "x.json"],
        &s,
        &["s/champions.csv: missing"],
    );
}

#[test]
fn fit_with_naming_the_run_itself_or_a_store_twice_is_refused_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ten = GATED
        .split("[gate]")
        .next()
        .unwrap()
        .replace("rounds = 4", "rounds = 1");
    gated_run(d, &ten, "run", None);
    // The run's own folder as its source: refused before anything is written (even with
    // --force, which would otherwise delete the store the fits read).
    fs::write(
        d.join("own.toml"),
        ten.replace("fit_every = 1", "fit_every = 1\nfit_with = [\"run\"]"),
    )
    .unwrap();
    refused(
        d,
        &["tune", "own.toml", "--out", "run", "--force", "-q"],
        &d.join("run"),
        &["evolution.fit_with", "own folder"],
    );
    // One store named twice.
    fs::write(
        d.join("twice.toml"),
        ten.replace(
            "fit_every = 1",
            "fit_every = 1\nfit_with = [\"run\", \"run/positions.bin\"]",
        ),
    )
    .unwrap();
    refused(
        d,
        &["tune", "twice.toml", "--out", "new", "-q"],
        &d.join("run"),
        &["evolution.fit_with", "same store"],
    );
    assert!(!d.join("new").exists());
    // A store moved away after the run started: its resumption is refused before any game,
    // naming the key.
    let later = ten
        .replace("rounds = 1", "rounds = 2")
        .replace("fit_every = 1", "fit_every = 1\nfit_with = [\"run\"]");
    gated_run(d, &later, "later", Some(1));
    fs::rename(d.join("run"), d.join("moved")).unwrap();
    refused(
        d,
        &["resume", "later", "-q"],
        &d.join("later"),
        &["`evolution.fit_with`", "run/positions.bin is gone"],
    );
}

/// `args` in `d` refused with exit status 2, no panic, one `Error:` line containing each of
/// `said` and none of `never`.
fn says(d: &Path, args: &[&str], said: &[&str], never: &[&str]) {
    let output = bin(d).args(args).write_stdin("").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for part in said {
        assert!(stderr.contains(part), "{args:?}: {part:?} not in {stderr}");
    }
    for part in never {
        assert!(!stderr.contains(part), "{args:?}: {part:?} in {stderr}");
    }
}

/// One whole game, so that a fit that is not refused would run.
const GAMES: &str = "[Event \"a\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-14 17-13 1-0\n\n";

#[test]
fn a_weights_files_search_table_is_read_and_checked_as_a_config_section() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let weights = |search: &str| {
        format!(
            "{{\"opening\": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], \
             \"endgame\": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], \"search\": {search}}}"
        )
    };
    fs::write(d.join("list.json"), weights("[6, 12]")).unwrap();
    fs::write(
        d.join("random.json"),
        weights("{\"nodes\": 5000, \"tie_break\": \"random\"}"),
    )
    .unwrap();
    for command in [
        vec!["match", "list.json", "material", "--pairs", "1", "-q"],
        vec!["export", "list.json", "-o", "out.json"],
    ] {
        says(d, &command, &["list.json", "`search` must be a table"], &[]);
    }
    says(
        d,
        &["match", "random.json", "material", "--pairs", "1", "-q"],
        &["random.json", "`search.nodes`", "tie_break"],
        &[],
    );
    // The same rules in a config: a list is no section.
    fs::write(d.join("list.toml"), "name = \"l\"\nsearch = [6, 12]\n").unwrap();
    says(
        d,
        &["tune", "list.toml", "-q"],
        &["list.toml", "search", "must be a table"],
        &["expected struct"],
    );
    assert!(!d.join("out.json").exists());
}

#[test]
fn one_bound_per_quantity_for_flags_configs_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.pdn"), GAMES).unwrap();
    says(
        d,
        &[
            "match",
            "material",
            "material",
            "--nodes",
            "18446744073709551615",
        ],
        &["--nodes", "1000000000"],
        &[],
    );
    for (flag, value) in [
        ("--epochs", "1000000000"),
        ("--l2-tables", "1e10"),
        ("--endings", "4294967295"),
    ] {
        says(
            d,
            &[
                "fit",
                "g.pdn",
                "--evaluator",
                "patterns",
                flag,
                value,
                "-o",
                "f.json",
                "-q",
            ],
            &[flag],
            &[],
        );
    }
    assert!(!d.join("f.json").exists());
}

#[test]
fn options_a_fit_or_a_config_would_ignore_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.pdn"), GAMES).unwrap();
    for option in [
        "--ranks=home",
        "--kings=quadrants",
        "--l2-tables=5",
        "--epochs=3",
        "--score-weight=0.5",
    ] {
        let flag = option.split('=').next().unwrap();
        says(
            d,
            &["fit", "g.pdn", option, "-o", "f.json", "-q"],
            &[flag, "pattern evaluator"],
            &[],
        );
    }
    assert!(!d.join("f.json").exists());
    // A `[gate]` without candidates is off: its keys would do nothing.
    fs::write(
        d.join("gate.toml"),
        "name = \"g\"\n[gate]\nelo0 = 30.0\nelo1 = 0.0\n",
    )
    .unwrap();
    says(
        d,
        &["tune", "gate.toml", "-q"],
        &["gate.elo0", "candidates"],
        &[],
    );
    // The SPRT's error rates: named by their keys, not by `match`'s flag.
    let alpha_beta = GATED.replace("alpha = 0.3\nbeta = 0.3", "alpha = 0.6\nbeta = 0.5");
    fs::write(d.join("ab.toml"), alpha_beta).unwrap();
    says(
        d,
        &["tune", "ab.toml", "-q"],
        &["gate.beta", "less than 1"],
        &["--sprt"],
    );
    assert!(!d.join("results").exists());
    // A value beyond what TOML holds: the key named all the same.
    fs::write(
        d.join("seed.toml"),
        "name = \"g\"\n[gate]\ncandidates = \"fits-and-winners\"\nseed = 18446744073709551615\n",
    )
    .unwrap();
    says(
        d,
        &["tune", "seed.toml", "-q"],
        &["seed.toml line 4", "`gate.seed`"],
        &[],
    );
    // An untagged entry of `fit_with`: what is expected, not the type's name.
    fs::write(
        d.join("with.toml"),
        "name = \"w\"\n[evolution]\nfit_every = 1\nfit_with = [5]\n",
    )
    .unwrap();
    says(
        d,
        &["tune", "with.toml", "-q"],
        &["evolution.fit_with", "a run folder"],
        &["untagged", "FitSourceEntry"],
    );
}

#[test]
fn spsa_config_mistakes_read_as_the_user_wrote_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("w.json"), "{\"opening\": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], \"endgame\": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0]}").unwrap();
    let base = "name = \"s\"\nweights = \"w.json\"\niterations = 4\nnodes = 1000\n\
                database_pieces = 0\n";
    let param = "[params.lmr_moves]\nmin = 1\nmax = 12\nc = 1.5\nr = 0.05\n";
    let cases: [(&str, String, &[&str], &[&str]); 5] = [
        (
            "nodes",
            base.replace("nodes = 1000\n", "") + param,
            // Our key's own words: `nodes` is optional in serde's eyes (an engine's run has
            // `movetime` instead).
            &["nodes.toml: nodes: missing"],
            &["line 1"],
        ),
        (
            "capture",
            format!("{base}capture_plies = 1000\n{param}"),
            &["capture_plies", "1000: expected 0 to 34"],
            &["1006"],
        ),
        (
            "r",
            format!("{base}{}", param.replace("r = 0.05", "r = 1e300")),
            &["params.lmr_moves.r", "1e300"],
            &["1000000000000000000000"],
        ),
        (
            "deck",
            format!("{base}openings = \"3move\"\n{param}"),
            &["openings", "3-move"],
            &[],
        ),
        ("ok", format!("{base}{param}"), &[], &[]),
    ];
    for (name, text, said, never) in cases {
        let config = format!("{name}.toml");
        fs::write(d.join(&config), text).unwrap();
        if name == "ok" {
            // --out naming a file: refused with status 2, the file kept.
            fs::write(d.join("file"), "x").unwrap();
            says(
                d,
                &["spsa", &config, "--out", "file", "-q"],
                &["file", "not a folder"],
                &[],
            );
            assert_eq!(fs::read(d.join("file")).unwrap(), b"x");
        } else {
            says(d, &["spsa", &config, "--out", "o", "-q"], said, never);
        }
    }
}

#[test]
fn a_pattern_runs_table_files_are_checked_before_any_file_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let patterns = GATED
        .split("[gate]")
        .next()
        .unwrap()
        .replace("name = \"gated\"", "name = \"pat\"")
        .replace("rounds = 4", "rounds = 3")
        .replace("[search]", "[weights]\nevaluator = \"patterns\"\n[search]");
    gated_run(d, &patterns, "pat", Some(2));
    let tables: Vec<PathBuf> = fs::read_dir(d.join("pat/tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!tables.is_empty(), "a fit's tables are kept");
    // The table file of a specimen of the population deleted: refused with status 2, naming
    // it, before anything is cut.
    let checkpoint: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.join("pat/checkpoint.json")).unwrap()).unwrap();
    let used: Vec<u64> = checkpoint["population"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["specimen"]["tables"].as_u64())
        .collect();
    assert!(
        !used.is_empty(),
        "the population carries a fit's tables: {checkpoint}"
    );
    let name = format!("specimen-{}.json", used[0]);
    let s = d.join("s");
    copy_run(&d.join("pat"), &s);
    fs::remove_file(s.join("tables").join(&name)).unwrap();
    refused(
        d,
        &["resume", "s", "-q"],
        &s,
        &[&format!("tables/{name}"), "put the file back"],
    );
    // A link in tables/: refused at once.
    let s = d.join("s");
    copy_run(&d.join("pat"), &s);
    let name = tables[0].file_name().unwrap();
    let elsewhere = d.join("elsewhere.json");
    fs::rename(s.join("tables").join(name), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, s.join("tables").join(name)).unwrap();
    refused(d, &["resume", "s", "-q"], &s, &["tables/", "link"]);
}
