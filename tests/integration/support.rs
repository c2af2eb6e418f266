//! What the test files share: the binary, with its endgame databases cached in the build
//! folder, and a tuning run through it.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The binary, with the endgame database's cache in the build folder (never the user's).
pub fn bin() -> Command {
    bin_with_cache("cache")
}

/// The binary with a database cache of its own that no test builds a database into: runs
/// without one (`database_pieces = 0`) and commands that must not find one.
pub fn bin_without_databases() -> Command {
    bin_with_cache("no-egdb")
}

/// The binary with its own database cache `name` in the build folder: a test that builds a
/// database itself keeps it apart from the shared one.
pub fn bin_with_cache(name: &str) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command.env(
        "CHECKERS_TUNER_CACHE",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
    );
    command
}

/// Writes `text` to the file `name` in `dir` and gives its path.
pub fn write_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// Runs `tune` quietly to the end into `out` on `threads` threads, and checks that it succeeded.
pub fn tune(config: &Path, out: &Path, threads: usize) {
    bin()
        .args(["tune", "--quiet", "--threads", &threads.to_string()])
        .arg(config)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// Runs `tune` quietly into `out` until it stops itself after round `round` (the test hook
/// `CHECKERS_TUNER_STOP_AFTER_ROUND`), and checks that it said so (exit status 130).
pub fn tune_stopped_after(config: &Path, out: &Path, round: u32) {
    bin()
        .args(["tune", "--quiet"])
        .arg(config)
        .arg("--out")
        .arg(out)
        .env("CHECKERS_TUNER_STOP_AFTER_ROUND", round.to_string())
        .assert()
        .code(130);
}

/// Runs `resume` quietly on `dir` to the end, and checks that it succeeded.
pub fn resume(dir: &Path) {
    bin()
        .args(["resume", "--quiet"])
        .arg(dir)
        .assert()
        .success();
}

/// Asserts that each of `files` is byte for byte the same in `reference` and in every one of
/// `others`, whose label names it in the message ("2 threads", "resumed").
pub fn assert_same_files(files: &[&str], reference: &Path, others: &[(&Path, &str)]) {
    for file in files {
        let expected = std::fs::read(reference.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", reference.join(file).display()));
        for (other, label) in others {
            let found = std::fs::read(other.join(file))
                .unwrap_or_else(|e| panic!("{}: {e}", other.join(file).display()));
            assert!(expected == found, "{file}: {label} differs");
        }
    }
}
