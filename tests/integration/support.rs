//! What the test files share: the binary, with its endgame databases cached in the build folder.

use assert_cmd::Command;

/// The binary, with the endgame database's cache in the build folder (never the user's).
pub fn bin() -> Command {
    bin_with_cache("cache")
}

/// The binary with its own database cache `name` in the build folder: a test that needs a cache
/// without a database, or one it builds itself, keeps it apart from the shared one.
pub fn bin_with_cache(name: &str) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command.env(
        "CHECKERS_TUNER_CACHE",
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
    );
    command
}
