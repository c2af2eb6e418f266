//! The gated champion (`[gate]`): real tiny runs read back through their files.
//!
//! `champions.csv` must agree with the SPRT (a candidate accepted only past the upper bound),
//! `best.json` must be the last accepted champion, `export --round N` the champion as it stood
//! after round N; the files must not depend on the thread count, nor on a crash in the middle
//! of a gate.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{bin, tune};

/// A pattern run with a fit and a gate (fit and winner) after every round. The SPRT is set so
/// that a candidate about as strong as the champion passes (H0: 50 Elo weaker, H1: level) and
/// decides within a dozen openings: with seed 4 this run both accepts and refuses.
const GATED: &str = r#"
name = "gated"
seed = 4
[population]
size = 8
[tournament]
rounds = 4
openings = "random:6"
max_plies = 80
playoff_openings = 2
[weights]
evaluator = "patterns"
[search]
min_depth = 2
max_depth = 4
database_pieces = 3
[evolution]
fit_every = 1
[gate]
candidates = "fits-and-winners"
every = 1
openings = 12
elo0 = -50.0
elo1 = 0.0
alpha = 0.3
beta = 0.3
"#;

/// The files of a gated run that must be the same between runs of one config.
const COMPARED: [&str; 8] = [
    "rounds.csv",
    "specimens.csv",
    "games.csv",
    "playoff.csv",
    "best.json",
    "checkpoint.json",
    "positions.bin",
    "champions.csv",
];

fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("gated.toml");
    fs::write(&path, text).unwrap();
    path
}

/// Every file of `a` in [`COMPARED`] and in `champions/` is the same in `b`.
fn assert_same_files(a: &Path, b: &Path) {
    let mut names: Vec<String> = COMPARED.iter().map(|n| n.to_string()).collect();
    let mut kept: Vec<String> = fs::read_dir(a.join("champions"))
        .unwrap()
        .map(|e| format!("champions/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    kept.sort();
    assert_eq!(
        fs::read_dir(b.join("champions")).unwrap().count(),
        kept.len(),
        "champions kept in {} and {}",
        a.display(),
        b.display()
    );
    names.extend(kept);
    for name in names {
        let left = fs::read(a.join(&name)).unwrap_or_else(|e| panic!("{name} in {a:?}: {e}"));
        let right = fs::read(b.join(&name)).unwrap_or_else(|e| panic!("{name} in {b:?}: {e}"));
        assert!(left == right, "{name} differs between {a:?} and {b:?}");
    }
}

/// One row of `champions.csv`.
#[derive(Debug)]
struct Gate {
    round: u32,
    candidate: u64,
    kind: String,
    games: Option<u32>,
    wins: Option<u32>,
    losses: Option<u32>,
    champion: Option<u64>,
    llr: Option<f64>,
    elo: Option<f64>,
    accepted: bool,
    cumulative: f64,
}

fn gates(run: &Path) -> Vec<Gate> {
    let text = fs::read_to_string(run.join("champions.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "round,candidate,kind,champion,games,wins,draws,losses,elo,elo_low,elo_high,llr,\
         accepted,cumulative_elo"
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 14, "{line}");
            let opt = |s: &str| (!s.is_empty()).then(|| s.parse::<f64>().unwrap());
            Gate {
                round: f[0].parse().unwrap(),
                candidate: f[1].parse().unwrap(),
                kind: f[2].to_string(),
                games: f[4].parse().ok(),
                wins: f[5].parse().ok(),
                losses: f[7].parse().ok(),
                champion: (!f[3].is_empty()).then(|| f[3].parse().unwrap()),
                llr: opt(f[11]),
                elo: opt(f[8]),
                accepted: f[12].parse().unwrap(),
                cumulative: f[13].parse().unwrap(),
            }
        })
        .collect()
}

/// The specimen id a weights file names as its source.
fn source_id(path: &Path) -> u64 {
    let json: serde_json::Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
    json["source"]["id"].as_u64().unwrap()
}

#[test]
fn the_gate_accepts_only_past_the_sprt_bound_and_best_json_is_the_last_champion() {
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), GATED);
    let run = tmp.path().join("run");
    tune(&config, &run, 2);
    let gates = gates(&run);

    // The first candidate is crowned unopposed; every later gate plays the champion of the
    // moment, and the SPRT's upper bound ln((1 - beta) / alpha) decides.
    let upper = (0.7f64 / 0.3).ln();
    assert!(gates[0].accepted && gates[0].champion.is_none() && gates[0].llr.is_none());
    let mut champion = gates[0].candidate;
    let mut cumulative = 0.0;
    let mut accepted_rounds = vec![gates[0].round];
    for gate in &gates[1..] {
        assert_eq!(gate.champion, Some(champion), "{gate:?}");
        let llr = gate.llr.expect("a played gate has its LLR");
        assert_eq!(gate.accepted, llr >= upper, "{gate:?}");
        if gate.accepted {
            champion = gate.candidate;
            cumulative += gate.elo.unwrap();
            accepted_rounds.push(gate.round);
        }
        assert!((gate.cumulative - cumulative).abs() < 0.051, "{gate:?}");
    }
    assert!(
        gates[1..].iter().any(|g| g.accepted) && gates.iter().any(|g| !g.accepted),
        "the run should both accept and refuse a candidate: {gates:?}"
    );

    // best.json is the last accepted champion, kept as it was accepted.
    let last_round = *accepted_rounds.last().unwrap();
    let kept = run.join(format!("champions/round-{last_round}.json"));
    assert_eq!(
        fs::read(run.join("best.json")).unwrap(),
        fs::read(&kept).unwrap()
    );
    assert_eq!(source_id(&kept), champion);

    // export --round N: the champion as it stood after round N.
    for round in 1..=4u32 {
        let at = *accepted_rounds
            .iter()
            .filter(|&&r| r <= round)
            .max()
            .unwrap();
        let out = tmp.path().join(format!("round-{round}.json"));
        bin()
            .arg("export")
            .arg(&run)
            .args(["--round", &round.to_string(), "-o"])
            .arg(&out)
            .assert()
            .success();
        assert_eq!(
            fs::read(&out).unwrap(),
            fs::read(run.join(format!("champions/round-{at}.json"))).unwrap(),
            "--round {round}"
        );
    }
    // `export RUN` is best.json: the champion, not the playoff's winner.
    let exported = tmp.path().join("exported.json");
    bin()
        .arg("export")
        .arg(&run)
        .arg("-o")
        .arg(&exported)
        .assert()
        .success();
    assert_eq!(source_id(&exported), champion);
    // No champion before the first gate, and --round needs a run folder.
    bin()
        .arg("export")
        .arg(&run)
        .args(["--round", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no champion yet after round 0"));
    bin()
        .arg("export")
        .arg(run.join("best.json"))
        .args(["--round", "2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--round 2 only applies to a run folder",
        ));

    // The plot draws the champion's climb.
    let svg = tmp.path().join("plot.svg");
    bin()
        .arg("plot")
        .arg(&run)
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    let drawn = fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("champion (cumulative)"), "no champion line");
}

#[test]
fn a_gated_run_is_the_same_on_one_and_two_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), GATED);
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    tune(&config, &one, 1);
    tune(&config, &two, 2);
    assert_same_files(&one, &two);
}

#[test]
fn a_crash_in_the_middle_of_a_gate_is_replayed_to_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), GATED);
    let reference = tmp.path().join("reference");
    tune(&config, &reference, 1);
    let out = tmp.path().join("crashed");
    // Round 2's first gate aborts after a few of its games: round 1 is saved, round 2 is not.
    bin()
        .args(["tune", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .env("CHECKERS_TUNER_CRASH_IN_GATE", "2")
        .assert()
        .failure();
    let rows = fs::read_to_string(out.join("rounds.csv")).unwrap();
    assert_eq!(rows.lines().count(), 2, "round 1 only: {rows}");
    bin()
        .args(["resume", "--quiet"])
        .arg(&out)
        .assert()
        .success();
    assert_same_files(&reference, &out);
}

#[test]
fn gate_settings_that_cannot_work_are_refused_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    for (edit, key) in [
        (
            GATED.replace("[gate]\n", "[islands]\ncount = 2\n[gate]\n"),
            "gate.candidates",
        ),
        (
            GATED
                .replace("\nevery = 1\n", "\nevery = 3\n")
                .replace("fit_every = 1", "fit_every = 2"),
            "gate.every",
        ),
        (GATED.replace("elo1 = 0.0", "elo1 = -60.0"), "gate.elo1"),
        (GATED.replace("alpha = 0.3", "alpha = 1.5"), "gate.alpha"),
        (
            GATED.replace("beta = 0.3\n", "beta = 0.3\nconfirm = -4\n"),
            "gate.confirm",
        ),
        (
            GATED
                .replace("fit_every = 1\n", "")
                .replace("fits-and-winners", "fits"),
            "gate.candidates",
        ),
    ] {
        let path = config(tmp.path(), &edit);
        let out = tmp.path().join("refused");
        bin()
            .args(["tune", "--quiet"])
            .arg(&path)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(key));
        assert!(!out.exists(), "{key}: a refused config created its folder");
    }
}

#[test]
fn a_run_without_a_gate_writes_no_gate_files_and_no_gate_section() {
    let tmp = tempfile::tempdir().unwrap();
    let text = GATED.split("[gate]").next().unwrap().to_string();
    let config = config(tmp.path(), &text);
    let run = tmp.path().join("run");
    tune(&config, &run, 2);
    assert!(!run.join("champions.csv").exists());
    assert!(!run.join("champions").exists());
    let written = fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(!written.contains("[gate]"), "{written}");
    assert!(!written.contains("deepen"), "{written}");
}

/// `gate.confirm`: a candidate the SPRT accepts plays a confirming match on openings of its
/// own, and becomes the champion only if it wins that too; the climb adds the confirming
/// match's Elo. The rows say it all, the files are the same on one and two threads, and the
/// written config keeps the key (a run without it leaves it out). With 8 openings the
/// confirming matches of this run all confirm, with 3 one does not.
#[test]
fn a_confirming_match_decides_after_the_sprt() {
    let tmp = tempfile::tempdir().unwrap();
    let with_confirm = |n: u32| {
        let text = GATED.replace("beta = 0.3\n", &format!("beta = 0.3\nconfirm = {n}\n"));
        assert_ne!(text, GATED);
        let dir = tmp.path().join(format!("c{n}"));
        fs::create_dir(&dir).unwrap();
        config(&dir, &text)
    };
    let eight = with_confirm(8);
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    tune(&eight, &two, 2);
    tune(&eight, &one, 1);
    assert_same_files(&one, &two);
    let written = fs::read_to_string(two.join("config.toml")).unwrap();
    assert!(written.contains("confirm = 8"), "{written}");
    let (confirmed, unconfirmed, refused) = confirmations(&two, 8);
    assert!(
        confirmed > 0 && refused > 0,
        "{confirmed} {unconfirmed} {refused}"
    );

    let three = tmp.path().join("three");
    tune(&with_confirm(3), &three, 2);
    let (_, unconfirmed, _) = confirmations(&three, 3);
    assert!(unconfirmed > 0, "a confirming match that says no");
}

/// Checks the rows of `run`'s gates, confirmed by matches of `openings` openings, and counts
/// the candidates confirmed, not confirmed, and refused by the SPRT.
fn confirmations(run: &Path, openings: u32) -> (u32, u32, u32) {
    let upper = (0.7f64 / 0.3).ln();
    let gates = gates(run);
    let mut champion = gates[0].candidate;
    let mut cumulative = 0.0;
    let (mut confirmed, mut unconfirmed, mut refused) = (0, 0, 0);
    let mut rows = gates[1..].iter().peekable();
    while let Some(gate) = rows.next() {
        assert_ne!(
            gate.kind, "confirm",
            "a confirming match follows its SPRT: {gate:?}"
        );
        assert_eq!(gate.champion, Some(champion), "{gate:?}");
        if gate.llr.unwrap() < upper {
            // Refused by the SPRT: no confirming match.
            assert!(!gate.accepted, "{gate:?}");
            assert!(rows.peek().is_none_or(|next| next.kind != "confirm"));
            refused += 1;
        } else {
            let confirm = rows
                .next()
                .expect("a confirming match after an accepted SPRT");
            assert_eq!(confirm.kind, "confirm");
            assert_eq!(
                (confirm.round, confirm.candidate, confirm.champion),
                (gate.round, gate.candidate, gate.champion)
            );
            assert_eq!(
                confirm.games,
                Some(2 * openings),
                "both colours: {confirm:?}"
            );
            assert!(confirm.llr.is_none(), "a fixed-length match: {confirm:?}");
            let won = confirm.wins.unwrap() > confirm.losses.unwrap();
            assert_eq!((gate.accepted, confirm.accepted), (won, won), "{confirm:?}");
            if won {
                champion = gate.candidate;
                cumulative += confirm.elo.unwrap();
                confirmed += 1;
            } else {
                unconfirmed += 1;
            }
            assert!(
                (confirm.cumulative - cumulative).abs() < 0.051,
                "{confirm:?}"
            );
        }
        assert!((gate.cumulative - cumulative).abs() < 0.051, "{gate:?}");
    }
    // best.json is the last champion the confirming matches let through.
    assert_eq!(source_id(&run.join("best.json")), champion);
    (confirmed, unconfirmed, refused)
}
