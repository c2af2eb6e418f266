//! The run folder's safety rules, through the binary: one process at a time (the lock), no use
//! of foreign folders, stale temporary files, and hand-damaged checkpoints.

use crate::support::write_file;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::support::bin_without_databases as bin;
use assert_cmd::Command;
use predicates::str::contains;

/// A tiny run: 8 specimens, 3 rounds, shallow search (a fraction of a second).
const TINY: &str = r#"
name = "tiny"
seed = 11
[population]
size = 8
[weights]
init = "random"
[tournament]
rounds = 3
openings = "3-move"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
"#;

/// A run of a few seconds, long enough to be caught in progress.
const SLOW: &str = r#"
name = "slow"
seed = 3
[population]
size = 16
[tournament]
rounds = 40
openings = "3-move"
max_plies = 80
playoff_openings = 2
[search]
min_depth = 3
max_depth = 6
database_pieces = 0
"#;

/// The files that must be byte-identical between two runs of the same config.
const COMPARED: [&str; 7] = [
    "rounds.csv",
    "specimens.csv",
    "games.csv",
    "games.pdn",
    "playoff.csv",
    "best.json",
    "checkpoint.json",
];

fn tune_cmd(config: &Path, out: &Path) -> Command {
    let mut cmd = bin();
    cmd.args(["tune", "--quiet", "--threads", "1"])
        .arg(config)
        .arg("--out")
        .arg(out);
    cmd
}

fn resume(dir: &Path) -> assert_cmd::assert::Assert {
    bin().args(["resume", "--quiet"]).arg(dir).assert()
}

/// Every file of a folder with its bytes, the lock file aside.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != ".lock")
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn assert_same_files(a: &Path, b: &Path) {
    for name in COMPARED {
        let left = fs::read(a.join(name)).unwrap_or_else(|e| panic!("{name} in {a:?}: {e}"));
        let right = fs::read(b.join(name)).unwrap_or_else(|e| panic!("{name} in {b:?}: {e}"));
        assert!(left == right, "{name} differs between {a:?} and {b:?}");
    }
}

/// A finished tiny run in `tmp/name`, and its config.
fn finished_run(tmp: &Path, name: &str) -> (PathBuf, PathBuf) {
    let config = write_file(tmp, "tiny.toml", TINY);
    let out = tmp.join(name);
    tune_cmd(&config, &out).assert().success();
    (config, out)
}

/// A tiny run stopped (cleanly) after round `k`.
fn stopped_run(tmp: &Path, name: &str, k: u32) -> (PathBuf, PathBuf) {
    let config = write_file(tmp, "tiny.toml", TINY);
    let out = tmp.join(name);
    tune_cmd(&config, &out)
        .env("CHECKERS_TUNER_STOP_AFTER_ROUND", k.to_string())
        .assert()
        .code(130);
    (config, out)
}

// ---------------------------------------------------------------------------------------------
// The lock.
// ---------------------------------------------------------------------------------------------

/// Holds the run folder's lock as another process would: `flock` on `.lock`, its pid inside.
struct HeldLock(#[allow(dead_code)] fs::File);

fn hold_lock(dir: &Path, pid: u32) -> HeldLock {
    use std::io::Write;
    use std::os::unix::io::AsRawFd;
    let mut file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(dir.join(".lock"))
        .unwrap();
    // SAFETY: flock on a descriptor the File owns.
    let status = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(status, 0, "the folder is already locked");
    writeln!(file, "{pid}").unwrap();
    HeldLock(file)
}

#[test]
fn a_locked_run_folder_is_refused_by_tune_resume_and_force_naming_the_holder() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, out) = stopped_run(tmp.path(), "run", 1);
    let before = snapshot(&out);
    let held = hold_lock(&out, 4242);
    let in_use = "in use by process 4242";
    resume(&out).code(2).stderr(contains(in_use));
    tune_cmd(&config, &out)
        .arg("--force")
        .assert()
        .code(2)
        .stderr(contains(in_use));
    tune_cmd(&config, &out).assert().code(2);
    assert_eq!(
        snapshot(&out),
        before,
        "a refused command changed the folder"
    );
    drop(held);
    resume(&out).success().stdout(contains("Run finished"));
    let (_, full) = finished_run(tmp.path(), "full");
    assert_same_files(&full, &out);
}

#[test]
fn a_second_tune_or_resume_while_a_run_is_in_progress_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "slow.toml", SLOW);
    let out = tmp.path().join("busy");
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("checkers-tuner"))
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
        )
        .args(["tune", "--quiet", "--threads", "1"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !out.join("config.toml").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    let holder = format!("in use by process {}", child.id());
    let mut refused = 0;
    for second in [
        vec!["tune", "--quiet", "--threads", "1"],
        vec!["tune", "--quiet", "--threads", "1", "--force"],
        vec!["resume", "--quiet", "--threads", "1"],
    ] {
        let mut cmd = bin();
        cmd.args(&second);
        if second[0] == "tune" {
            cmd.arg(&config).arg("--out");
        }
        let output = cmd.arg(&out).output().unwrap();
        // Only meaningful while the first run still holds the folder.
        if child.try_wait().unwrap().is_none() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{second:?}: {stderr}");
            assert!(stderr.contains(&holder), "{stderr}");
            refused += 1;
        }
    }
    assert!(child.wait().unwrap().success());
    eprintln!("{refused} of 3 second commands ran while the first run was in progress");
    // The first run was not disturbed: its files are those of a run alone.
    let alone = tmp.path().join("alone");
    tune_cmd(&config, &alone).assert().success();
    assert_same_files(&alone, &out);
}

// ---------------------------------------------------------------------------------------------
// Foreign folders and stale temporary files.
// ---------------------------------------------------------------------------------------------

#[test]
fn tune_refuses_a_foreign_non_empty_folder_even_with_force() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_file(tmp.path(), "tiny.toml", TINY);
    let mine = tmp.path().join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("games.csv"), "my own games\n").unwrap();
    fs::write(mine.join("notes.txt"), "keep me").unwrap();
    let before = snapshot(&mine);
    for force in [false, true] {
        let mut cmd = tune_cmd(&config, &mine);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
            .code(2)
            .stderr(contains("not a run folder"))
            .stderr(contains(mine.display().to_string()));
        assert_eq!(snapshot(&mine), before);
        assert!(!mine.join(".lock").exists(), "a lock file was left in it");
    }
    // A config.toml that this program did not write does not make a run folder either.
    fs::write(mine.join("config.toml"), "name = \"x\"\n").unwrap();
    tune_cmd(&config, &mine)
        .arg("--force")
        .assert()
        .code(2)
        .stderr(contains("not a run folder"));
    assert_eq!(fs::read(mine.join("games.csv")).unwrap(), b"my own games\n");

    // An empty folder, or one holding only what a killed run leaves, is used.
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    tune_cmd(&config, &empty).assert().success();
    let leftovers = tmp.path().join("leftovers");
    fs::create_dir(&leftovers).unwrap();
    fs::write(leftovers.join(".lock"), "1\n").unwrap();
    fs::write(leftovers.join(".config.toml.tmp-999999999"), "name").unwrap();
    tune_cmd(&config, &leftovers).assert().success();
    assert!(!leftovers.join(".config.toml.tmp-999999999").exists());
    assert_same_files(&empty, &leftovers);
}

#[test]
fn resume_removes_temporary_files_left_by_killed_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = stopped_run(tmp.path(), "run", 2);
    // Process ids above the kernel's limit (4194304) never run.
    let stale = [
        ".best.json.tmp-999999999",
        ".config.toml.tmp-999999998",
        ".checkpoint.json.tmp-999999997",
        ".playoff.csv.tmp-999999996",
    ];
    let kept = [
        ".notes.txt.tmp-999999999",
        "best.json.tmp-1",
        ".best.json.tmp-",
    ];
    for name in stale.iter().chain(&kept) {
        fs::write(out.join(name), "half").unwrap();
    }
    resume(&out).success();
    for name in stale {
        assert!(!out.join(name).exists(), "{name} is still there");
    }
    for name in kept {
        assert!(out.join(name).exists(), "{name} was removed");
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-damaged checkpoints: exit status 2 saying what is wrong, and nothing changed.
// ---------------------------------------------------------------------------------------------

fn read_checkpoint(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&fs::read(dir.join("checkpoint.json")).unwrap()).unwrap()
}

fn write_checkpoint(dir: &Path, value: &serde_json::Value) {
    fs::write(
        dir.join("checkpoint.json"),
        serde_json::to_string_pretty(value).unwrap(),
    )
    .unwrap();
}

/// `resume` must refuse the folder with status 2, a one-line message containing every one of
/// `wanted`, and leave every file as it was.
fn refused(dir: &Path, wanted: &[&str]) {
    let before = snapshot(dir);
    let assert = resume(dir).code(2);
    let output = assert.get_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("Error: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for w in wanted {
        assert!(stderr.contains(w), "{w:?} not in {stderr}");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("weights in"), "{stdout}");
    assert_eq!(snapshot(dir), before, "a refused resume changed the folder");
}

#[test]
fn an_empty_or_foreign_playoff_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = finished_run(tmp.path(), "run");
    let good = read_checkpoint(&out);

    let mut c = good.clone();
    c["playoff"] = serde_json::json!([]);
    write_checkpoint(&out, &c);
    refused(&out, &["checkpoint.json", "playoff ranks 0 specimens"]);

    let mut c = good.clone();
    c["playoff"][0]["id"] = serde_json::json!(123456);
    write_checkpoint(&out, &c);
    refused(&out, &["playoff does not rank exactly the finalists"]);

    write_checkpoint(&out, &good);
    resume(&out).success().stdout(contains("already finished"));
}

#[test]
fn a_wrong_population_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = stopped_run(tmp.path(), "run", 1);
    let good = read_checkpoint(&out);

    // Repeated twelve times: 96 specimens for a population of 8.
    let mut c = good.clone();
    let members = c["population"].as_array().unwrap().clone();
    c["population"] = serde_json::Value::Array((0..12).flat_map(|_| members.clone()).collect());
    write_checkpoint(&out, &c);
    refused(
        &out,
        &["`population` has 96 specimens", "population.size is 8"],
    );

    // The right size with a duplicated id.
    let mut c = good.clone();
    let population = c["population"].as_array_mut().unwrap();
    population[3] = population[2].clone();
    write_checkpoint(&out, &c);
    refused(&out, &["`population` item 4", "repeats the id"]);

    // Weights out of the config's range (pawns are fixed at 100 by default).
    let mut c = good.clone();
    c["population"][0]["specimen"]["weights"]["opening"][0] = serde_json::json!(5000);
    write_checkpoint(&out, &c);
    refused(&out, &["opening.pawns = 5000", "100..=100"]);

    let mut c = good.clone();
    c["next_id"] = serde_json::json!(u64::MAX);
    write_checkpoint(&out, &c);
    refused(&out, &["`next_id`"]);

    write_checkpoint(&out, &good);
    resume(&out).success().stdout(contains("Run finished"));
}

#[test]
fn completed_rounds_that_do_not_match_the_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = stopped_run(tmp.path(), "stopped", 2);
    let good = read_checkpoint(&out);
    // Lowered from 2 to 1: the recorded lengths still hold two rounds.
    let mut c = good.clone();
    c["completed_rounds"] = serde_json::json!(1);
    write_checkpoint(&out, &c);
    refused(
        &out,
        &["records 1 completed round(s)", "rounds.csv holds 2"],
    );
    for bad in [0, 4] {
        c["completed_rounds"] = serde_json::json!(bad);
        write_checkpoint(&out, &c);
        refused(&out, &["`completed_rounds` is", "expected 1 to 3"]);
    }

    // A finished run lowered from 3 to 1, its playoff dropped.
    let (_, finished) = finished_run(tmp.path(), "finished");
    let mut c = read_checkpoint(&finished);
    let playoff = c["playoff"].clone();
    assert!(playoff.is_array());
    c["completed_rounds"] = serde_json::json!(1);
    refused_with(&finished, &c, &["playoff after round 1"]);
    c["playoff"] = serde_json::Value::Null;
    refused_with(&finished, &c, &["records 1 completed round(s)"]);

    // A playoff recorded in the middle of the run is not "already finished".
    let (_, fake) = stopped_run(tmp.path(), "fake", 2);
    let mut c = read_checkpoint(&fake);
    c["playoff"] = playoff;
    refused_with(&fake, &c, &["playoff after round 2", "3 rounds"]);
}

fn refused_with(dir: &Path, checkpoint: &serde_json::Value, wanted: &[&str]) {
    write_checkpoint(dir, checkpoint);
    refused(dir, wanted);
}

#[test]
fn recorded_lengths_off_a_row_boundary_or_beyond_the_file_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = stopped_run(tmp.path(), "run", 2);
    let good = read_checkpoint(&out);
    let recorded = good["files"]["games.csv"].as_u64().unwrap();
    let games = fs::read(out.join("games.csv")).unwrap();
    let mut c = good.clone();

    // Negative: not a length at all.
    c["files"]["games.csv"] = serde_json::json!(-100);
    refused_with(&out, &c, &["checkpoint.json", "not a checkpoint"]);

    // 100 bytes less (moved off a row boundary if it happens to land on one).
    let mut less = recorded - 100;
    if games[less as usize - 1] == b'\n' {
        less -= 1;
    }
    c["files"]["games.csv"] = serde_json::json!(less);
    refused_with(&out, &c, &["games.csv", "does not end a row"]);

    // On a row boundary, one row short of what rounds.csv counts.
    let last_row_start = games[..recorded as usize - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap() as u64
        + 1;
    c["files"]["games.csv"] = serde_json::json!(last_row_start);
    refused_with(&out, &c, &["games.csv holds", "rounds.csv counts"]);

    // Beyond the end of the file.
    c["files"]["games.csv"] = serde_json::json!(games.len() as u64 + 64);
    refused_with(&out, &c, &["games.csv", "cut short"]);

    // games.pdn: inside a game, one game short, missing, beyond the end.
    let mut c = good.clone();
    let pdn_length = good["files"]["games.pdn"].as_u64().unwrap();
    c["files"]["games.pdn"] = serde_json::json!(pdn_length - 5);
    refused_with(&out, &c, &["games.pdn", "does not end a game"]);
    let pdn = fs::read(out.join("games.pdn")).unwrap();
    let last_game_start = pdn[..pdn_length as usize - 2]
        .windows(2)
        .rposition(|pair| pair == b"\n\n")
        .and_then(|tags_end| pdn[..tags_end].windows(2).rposition(|pair| pair == b"\n\n"))
        .unwrap() as u64
        + 2;
    c["files"]["games.pdn"] = serde_json::json!(last_game_start);
    refused_with(&out, &c, &["games.pdn holds", "games.csv holds"]);
    c["files"]["games.pdn"] = serde_json::json!(pdn.len() as u64 + 1);
    refused_with(&out, &c, &["games.pdn", "cut short"]);
    c["files"].as_object_mut().unwrap().remove("games.pdn");
    refused_with(&out, &c, &["no length recorded for games.pdn"]);

    write_checkpoint(&out, &good);
    resume(&out).success();
}

#[test]
fn a_finished_run_without_its_best_json_is_refused_with_the_export_command() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = finished_run(tmp.path(), "run");
    let original = fs::read(out.join("best.json")).unwrap();
    fs::remove_file(out.join("best.json")).unwrap();
    let command = format!(
        "checkers-tuner export {} -o {}",
        out.display(),
        out.join("best.json").display()
    );
    refused(&out, &["best.json: missing", &command]);
    // The command it gives restores the very same file.
    bin()
        .args(["export"])
        .arg(&out)
        .arg("-o")
        .arg(out.join("best.json"))
        .assert()
        .success();
    assert_eq!(fs::read(out.join("best.json")).unwrap(), original);
    resume(&out).success().stdout(contains("already finished"));
}

#[test]
fn non_utf8_checkpoint_or_config_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = stopped_run(tmp.path(), "run", 1);
    let checkpoint = fs::read(out.join("checkpoint.json")).unwrap();
    fs::write(out.join("checkpoint.json"), b"\xff\xfe{ garbage \x80\n").unwrap();
    refused(&out, &["checkpoint.json", "not UTF-8"]);
    fs::write(out.join("checkpoint.json"), &checkpoint).unwrap();
    let config = fs::read(out.join("config.toml")).unwrap();
    let mut damaged = config.clone();
    damaged.extend_from_slice(b"# \xff\xfe\n");
    fs::write(out.join("config.toml"), &damaged).unwrap();
    refused(&out, &["config.toml"]);
    fs::write(out.join("config.toml"), &config).unwrap();
    resume(&out).success();
}

#[test]
fn resume_refuses_a_folder_whose_config_was_not_written_by_a_run() {
    let tmp = tempfile::tempdir().unwrap();
    let mine = tmp.path().join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("config.toml"), TINY).unwrap();
    resume(&mine).code(2).stderr(contains("not a run folder"));
    assert!(!mine.join(".lock").exists(), "a lock file was left in it");
    assert_eq!(fs::read_dir(&mine).unwrap().count(), 1);
}

#[test]
fn an_openings_file_edited_since_the_stop_is_refused_by_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let deck = tmp.path().join("deck.txt");
    let original = "9-13 21-17 5-9\n9-13 22-18 10-14\n11-15 23-19 8-11\n";
    fs::write(&deck, original).unwrap();
    let text = TINY.replace("openings = \"3-move\"", "openings = \"deck.txt\"");
    let config = write_file(tmp.path(), "deck.toml", &text);
    let out = tmp.path().join("run");
    tune_cmd(&config, &out)
        .env("CHECKERS_TUNER_STOP_AFTER_ROUND", "1")
        .assert()
        .code(130);

    // One ballot changed: the remaining rounds would play other games than the first one did.
    fs::write(&deck, original.replace("10-14", "6-9")).unwrap();
    let before = snapshot(&out);
    resume(&out)
        .code(2)
        .stderr(contains("deck.txt"))
        .stderr(contains("changed since the run started"));
    assert_eq!(snapshot(&out), before, "a refused resume changes nothing");

    // Put back as it was, the run continues and ends as an uninterrupted one.
    fs::write(&deck, original).unwrap();
    resume(&out).success();
    let whole = tmp.path().join("whole");
    tune_cmd(&config, &whole).assert().success();
    assert_same_files(&out, &whole);
}
