//! Nothing lost, nothing stuck (issue 24), as a hostile user tries it: inputs that never end
//! (devices, FIFOs, folders, oversized files), outputs that cannot be written (`/dev/full`, a
//! closed pipe), `play` left every way there is, run files replaced by links, and writers
//! interrupted in the middle of a write. Each class is tried with several inputs.
#![cfg(unix)]

use std::ffi::CString;
use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::{Duration, Instant, SystemTime};

use assert_cmd::Command;
use checkers_engine::weights_file::WeightsFile;

/// Where the endgame database is built for these tests (never the user's cache).
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/nothing-lost");

/// Longest any refused command may take: a regression that reads forever fails, not hangs.
const PATIENCE: Duration = Duration::from_secs(60);

/// A tiny run without the endgame database: 8 specimens, 2 rounds.
const TINY: &str = r#"
name = "tiny"
seed = 5
[population]
size = 8
[tournament]
rounds = 2
openings = "3-move"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
"#;

const START_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

fn bin(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command
        .current_dir(dir)
        .env("CHECKERS_TUNER_CACHE", CACHE)
        .timeout(PATIENCE);
    command
}

fn std_bin(dir: &Path) -> StdCommand {
    let mut command = StdCommand::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    command.current_dir(dir).env("CHECKERS_TUNER_CACHE", CACHE);
    command
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn mkfifo(path: &Path) {
    let name = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

fn send(child: &Child, signal: &str) {
    let sent = StdCommand::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits (at most [`PATIENCE`]) until `ready` holds.
fn wait_until(what: &str, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !ready() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A folder with a weights file `w.json`, a FIFO, a subfolder and a tiny config.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("w.json"), WeightsFile::material().to_json()).unwrap();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    mkfifo(&d.join("fifo"));
    fs::create_dir(d.join("folder")).unwrap();
    dir
}

/// Runs the tiny config into `d/run`, to its end.
fn tiny_run(d: &Path) -> PathBuf {
    bin(d)
        .args(["tune", "tiny.toml", "--out", "run", "--quiet"])
        .assert()
        .success();
    d.join("run")
}

// ------------------------------------------------------------------------------------------
// Class 3: bounded reads.
// ------------------------------------------------------------------------------------------

#[test]
fn devices_fifos_and_folders_are_refused_as_inputs_without_reading_them() {
    let dir = setup();
    let d = dir.path();
    let mut tried = 0;
    for input in ["/dev/zero", "/dev/urandom", "fifo", "folder"] {
        let attacks: Vec<Vec<&str>> = vec![
            vec!["export", input],
            vec!["match", input, "material", "--openings", "start"],
            vec!["match", "material", input, "--openings", "start"],
            vec!["analyse", "--weights", input, "--fen", START_FEN],
            vec!["bench", "--weights", input],
            vec!["tune", input],
            vec!["fit", input, "-o", "fitted.json"],
            vec!["fit", "w.json", "-o", "fitted.json", "--weights", input],
            vec!["match", "material", "material", "--openings", input],
            vec!["play", "--weights", input],
        ];
        for args in attacks {
            // A folder is a run folder to `export` and `fit`: refused as one, still exit 2.
            let out = bin(d).args(&args).write_stdin("").assert().code(2);
            let stderr = stderr_of(out.get_output());
            assert!(stderr.starts_with("Error: "), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            assert!(stderr.lines().count() == 1, "{args:?}: {stderr}");
            tried += 1;
        }
        assert!(!d.join("fitted.json").exists());
    }
    assert_eq!(tried, 40);
    // The message names the path and what is wrong with it.
    let out = bin(d).args(["export", "fifo"]).assert().code(2);
    let stderr = stderr_of(out.get_output());
    assert!(
        stderr.contains("fifo: is not a regular file (a device, pipe or socket)"),
        "{stderr}"
    );
    let out = bin(d).args(["tune", "/dev/zero"]).assert().code(2);
    assert!(stderr_of(out.get_output()).contains("config /dev/zero: is not a regular file"));
}

#[test]
fn oversized_small_inputs_are_refused_naming_their_cap() {
    let dir = setup();
    let d = dir.path();
    // Valid JSON, padded past the 4 MiB of a weights file.
    let json = WeightsFile::material().to_json();
    let padded = format!("{}{}", " ".repeat(5 << 20), json);
    fs::write(d.join("big.json"), padded).unwrap();
    for args in [
        vec!["export", "big.json"],
        vec!["match", "big.json", "material"],
        vec!["analyse", "--weights", "big.json", "--fen", START_FEN],
        vec!["play", "--weights", "big.json"],
    ] {
        let out = bin(d).args(&args).write_stdin("").assert().code(2);
        let stderr = stderr_of(out.get_output());
        assert!(
            stderr.contains("big.json: is ")
                && stderr.contains("bytes, larger than a weights file may be (4194304 bytes)"),
            "{args:?}: {stderr}"
        );
    }
    // A config padded with comments past 1 MiB.
    let config = format!("{}{}", "# padding\n".repeat(120_000), TINY);
    fs::write(d.join("big.toml"), config).unwrap();
    let out = bin(d).args(["tune", "big.toml"]).assert().code(2);
    let stderr = stderr_of(out.get_output());
    assert!(stderr.contains("larger than a config may be"), "{stderr}");
    assert!(!d.join("results").exists());
}

// ------------------------------------------------------------------------------------------
// Class 4: output errors are errors.
// ------------------------------------------------------------------------------------------

#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    let dir = setup();
    let d = dir.path();
    let attacks: Vec<Vec<&str>> = vec![
        vec!["moves", "--fen", START_FEN],
        vec!["config", "--defaults"],
        vec!["perft", "--depth", "3"],
        vec![
            "analyse",
            "--fen",
            START_FEN,
            "--min-depth",
            "2",
            "--max-depth",
            "4",
        ],
        vec!["completions", "bash"],
        vec!["export", "w.json"],
        vec![
            "match",
            "material",
            "material",
            "--openings",
            "start",
            "--min-depth",
            "1",
            "--max-depth",
            "2",
            "--database-pieces",
            "0",
        ],
    ];
    for args in attacks {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = std_bin(d)
            .args(&args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("Error: cannot write to standard output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn an_unwritable_standard_error_does_not_change_the_exit_status() {
    let dir = setup();
    let d = dir.path();
    for (args, code) in [
        (vec!["export", "missing.json"], 2),
        (vec!["tune", "missing.toml"], 2),
        (vec!["moves", "--fen", "B:W99:B1"], 2),
        (vec!["analyse", "--weights", "fifo", "--fen", START_FEN], 2),
        (vec!["perft", "--depth", "2"], 0),
    ] {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let status = std_bin(d)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(full)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(code), "{args:?} with stderr full");
        // And with stderr a pipe nobody reads any more.
        let mut child = std_bin(d)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "{args:?} with stderr closed");
    }
}

#[test]
fn a_closed_standard_output_pipe_ends_the_command_quietly() {
    let dir = setup();
    let d = dir.path();
    for args in [
        vec!["config", "--defaults"],
        vec!["completions", "bash"],
        vec!["perft", "--depth", "8"],
    ] {
        let mut child = std_bin(d)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = stderr_of(&output);
        // Ended by SIGPIPE as Unix tools are, or done before the pipe closed: never a panic.
        let quiet = output.status.signal() == Some(libc::SIGPIPE) || output.status.success();
        assert!(quiet, "{args:?}: {:?} {stderr}", output.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

// ------------------------------------------------------------------------------------------
// Class 5: `play` never loses a game.
// ------------------------------------------------------------------------------------------

/// `play` at a shallow depth with `--pdn game.pdn`.
fn play_args() -> [&'static str; 7] {
    [
        "play",
        "--pdn",
        "game.pdn",
        "--min-depth",
        "2",
        "--max-depth",
        "4",
    ]
}

fn pdn(d: &Path) -> String {
    fs::read_to_string(d.join("game.pdn")).unwrap()
}

#[test]
fn play_keeps_the_game_when_the_input_ends_quits_or_is_not_text() {
    let dir = setup();
    let d = dir.path();
    // A line of 100,000 bytes: refused like a mistyped move, unkept.
    let long_line = [vec![b'x'; 100_000], b"\n1\nquit\n".to_vec()].concat();
    for (input, code, termination) in [
        (&long_line[..], 0, "unfinished (quit)"),
        (&b"1\n1\n\xff\n"[..], 0, "unfinished (end of input)"),
        (&b"1\nquit\n"[..], 0, "unfinished (quit)"),
        (&b"\xff\xfe\n1\nexit\n"[..], 0, "unfinished (quit)"),
        (&b"nonsense\n1\n"[..], 0, "unfinished (end of input)"),
    ] {
        let _ = fs::remove_file(d.join("game.pdn"));
        bin(d)
            .args(play_args())
            .write_stdin(input)
            .assert()
            .code(code);
        let game = pdn(d);
        assert!(game.contains("[Result \"*\"]"), "{game}");
        assert!(
            game.contains(&format!("[Termination \"{termination}\"]")),
            "{game}"
        );
        assert!(game.contains("1. 9-13 "), "{game}");
    }
}

#[test]
fn play_keeps_the_game_when_standard_input_cannot_be_read() {
    let dir = setup();
    let d = dir.path();
    // A folder as standard input: every read fails.
    let output = std_bin(d)
        .args(play_args())
        .stdin(fs::File::open(d.join("folder")).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert!(stderr_of(&output).contains("cannot read the terminal"));
    let game = pdn(d);
    assert!(game.contains("[Result \"*\"]"), "{game}");
    assert!(
        game.contains("unfinished (cannot read the terminal"),
        "{game}"
    );
}

#[test]
fn play_keeps_every_move_when_interrupted() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        let dir = setup();
        let d = dir.path();
        let mut child = std_bin(d)
            .args(play_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"1\n").unwrap();
        stdin.flush().unwrap();
        // The person's 9-13 and the engine's reply are both saved before the next prompt.
        wait_until("the engine's reply in the PDN", || {
            fs::read_to_string(d.join("game.pdn"))
                .is_ok_and(|g| g.lines().any(|l| l.starts_with("1. 9-13 ") && l.len() > 14))
        });
        send(&child, signal);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "{signal}");
        drop(stdin);
        let game = pdn(d);
        assert!(game.contains("[Result \"*\"]"), "{game}");
        let hidden: Vec<_> = fs::read_dir(d)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".game.pdn"))
            .collect();
        assert!(hidden.is_empty(), "{signal}: {hidden:?}");
    }
}

// ------------------------------------------------------------------------------------------
// Class 6: run files are regular files.
// ------------------------------------------------------------------------------------------

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn resume_refuses_run_files_that_are_links_or_not_files_before_writing() {
    let dir = setup();
    let d = dir.path();
    // A run stopped after its first round.
    bin(d)
        .args(["tune", "tiny.toml", "--out", "stopped", "--quiet"])
        .env("CHECKERS_TUNER_STOP_AFTER_ROUND", "1")
        .assert()
        .code(130);
    let stopped = d.join("stopped");
    let outside = d.join("outside");
    fs::create_dir(&outside).unwrap();
    let names = [
        "games.csv",
        "rounds.csv",
        "specimens.csv",
        "learning.csv",
        "timings.csv",
        "checkpoint.json",
        "config.toml",
        ".lock",
    ];
    for name in names {
        let run = d.join(format!("link-{name}"));
        copy_dir(&stopped, &run);
        let target = outside.join(name);
        fs::rename(run.join(name), &target).unwrap();
        std::os::unix::fs::symlink(&target, run.join(name)).unwrap();
        let before = fs::read(&target).unwrap();
        let out = bin(d).arg("resume").arg(&run).assert().code(2);
        let stderr = stderr_of(out.get_output());
        assert!(
            stderr.contains(&format!("{name}: is a symbolic link")),
            "{name}: {stderr}"
        );
        assert_eq!(fs::read(&target).unwrap(), before, "{name} written through");
        assert!(!run.join("playoff.csv").exists());
    }
    // A FIFO or a folder in a run file's place: refused at once, never waited on.
    for (name, make) in [
        ("games.csv", "fifo"),
        ("learning.csv", "folder"),
        ("timings.csv", "fifo"),
    ] {
        let run = d.join(format!("{make}-{name}"));
        copy_dir(&stopped, &run);
        fs::remove_file(run.join(name)).unwrap();
        if make == "fifo" {
            mkfifo(&run.join(name));
        } else {
            fs::create_dir(run.join(name)).unwrap();
        }
        let out = bin(d).arg("resume").arg(&run).assert().code(2);
        let stderr = stderr_of(out.get_output());
        assert!(stderr.contains(name), "{name}: {stderr}");
    }
    // The untouched copy still resumes to the end.
    bin(d).arg("resume").arg(&stopped).assert().success();
}

// ------------------------------------------------------------------------------------------
// Class 8: temporary files.
// ------------------------------------------------------------------------------------------

/// The hidden temporary files of `name` in `dir`.
fn temporaries(dir: &Path, name: &str) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!(".{name}.tmp-")))
        .collect()
}

#[test]
fn an_interrupted_writer_removes_its_temporary_file_and_keeps_the_old_output() {
    let dir = setup();
    let d = dir.path();
    let run = tiny_run(d);
    let attacks: Vec<(Vec<&str>, &str)> = vec![
        (vec!["export", "w.json", "-o", "out.json"], "out.json"),
        (
            vec!["export", "w.json", "--format", "c", "-o", "out.h"],
            "out.h",
        ),
        (
            vec!["plot", run.to_str().unwrap(), "-o", "pic.png"],
            "pic.png",
        ),
        (
            vec!["plot", run.to_str().unwrap(), "-o", "pic.svg"],
            "pic.svg",
        ),
        (vec!["fit", "run", "-o", "fitted.json", "-q"], "fitted.json"),
    ];
    for (args, name) in attacks {
        for (signal, code) in [("-TERM", 143), ("-INT", 130)] {
            let old = format!("the old {name}\n");
            fs::write(d.join(name), &old).unwrap();
            let child = std_bin(d)
                .args(&args)
                .env("CHECKERS_TUNER_PAUSE_BEFORE_RENAME", "30000")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            wait_until("the temporary file", || !temporaries(d, name).is_empty());
            let mut child = child;
            send(&child, signal);
            let status = child.wait().unwrap();
            assert_eq!(status.code(), Some(code), "{args:?} {signal}");
            assert_eq!(temporaries(d, name), Vec::<String>::new(), "{args:?}");
            assert_eq!(fs::read_to_string(d.join(name)).unwrap(), old, "{args:?}");
        }
    }
}

#[test]
fn the_next_write_sweeps_the_old_temporaries_of_dead_writers() {
    let dir = setup();
    let d = dir.path();
    // A process id above any the system gives out: its writer is surely gone.
    let stale = [".out.json.tmp-4000000000", ".out.json.tmp-4000000001.png"];
    let fresh = ".out.json.tmp-4000000002";
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for name in stale {
        let file = fs::File::create(d.join(name)).unwrap();
        file.set_modified(an_hour_ago).unwrap();
    }
    // A fresh one may be a write in progress on another machine sharing the folder: kept.
    fs::write(d.join(fresh), "").unwrap();
    let other = d.join(".other.json.tmp-4000000000");
    fs::File::create(&other)
        .unwrap()
        .set_modified(an_hour_ago)
        .unwrap();
    bin(d)
        .args(["export", "w.json", "-o", "out.json"])
        .assert()
        .success();
    assert_eq!(temporaries(d, "out.json"), vec![fresh.to_string()]);
    assert!(
        other.exists(),
        "only the output's own temporaries are swept"
    );
    assert!(WeightsFile::load(&d.join("out.json")).is_ok());
}
