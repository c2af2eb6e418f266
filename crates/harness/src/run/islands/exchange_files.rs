//! The files islands exchange through the run folder — migrants every few rounds, then the
//! finalists and the playoff games — written once by their one writer and waited for by the
//! others; and how far another island has come (its checkpoint), which a fit that pools the
//! islands' games waits for.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::island::Island;
use crate::run::checkpoint::Member;
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::GameResult;
use checkers_engine::input_file::{self, Links};

/// How long an island waits for another's file unless told otherwise: long enough for a slow
/// neighbour's round or a requeued job's restart, short enough that a dead one is noticed.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3600);

/// The migrants an island sends at one migration.
#[derive(Debug, Serialize, Deserialize)]
pub struct MigrantsFile {
    /// The sending island.
    pub island: u32,
    /// The round after which they were sent.
    pub round: u32,
    /// Its best survivors, best first.
    pub migrants: Vec<Member>,
}

/// An island's finalists for the playoff of all islands.
#[derive(Debug, Serialize, Deserialize)]
pub struct FinalistsFile {
    /// The island.
    pub island: u32,
    /// Its finalists in id order, each with the round of its last row in `specimens.csv`.
    pub finalists: Vec<(Member, u32)>,
}

/// The results of the playoff games an island played, in game order: `b` Black won, `w`
/// White won, `d` drawn.
#[derive(Debug, Serialize, Deserialize)]
pub struct PlayoffGamesFile {
    /// The island.
    pub island: u32,
    /// One letter per game.
    pub results: String,
}

/// A game result as one letter of [`PlayoffGamesFile::results`].
pub fn result_letter(result: GameResult) -> char {
    match result {
        GameResult::BlackWin => 'b',
        GameResult::WhiteWin => 'w',
        GameResult::Draw => 'd',
    }
}

/// The game result of a letter of [`PlayoffGamesFile::results`].
pub fn letter_result(letter: char) -> Option<GameResult> {
    match letter {
        'b' => Some(GameResult::BlackWin),
        'w' => Some(GameResult::WhiteWin),
        'd' => Some(GameResult::Draw),
        _ => None,
    }
}

/// Writes `value` to `path`, which only this island writes. If a run of this island that was
/// killed wrote it already, its bytes must be the ones computed now (the run is deterministic);
/// anything else means the folder was changed, and the run stops rather than send different
/// specimens to an island that may have read the first ones.
pub fn publish<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value).expect("exchanged files serialise");
    bytes.push(b'\n');
    match input_file::read_existing(path, Links::Refuse, None)? {
        Some(old) if old == bytes => return Ok(()),
        Some(_) => {
            return Err(Error::input(format!(
                "{}: differs from what this island computes again after a restart; the run \
                 folder was changed, so the run cannot continue identically",
                path.display()
            )))
        }
        None => {}
    }
    let dir = path.parent().expect("an exchanged file has a folder");
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
    write_atomically(path, &bytes)
}

/// How far an island has come, as its checkpoint (rewritten whole after every round) says:
/// what another island's pooled fit waits for.
#[derive(Debug, Deserialize)]
pub struct SavedRounds {
    /// Rounds the island has completed and saved, with their games in its positions store.
    pub completed_rounds: u32,
}

/// Waits until `path`, which island `writer` writes (`what` it holds, "migrants of round 4",
/// for the timeout's message), exists and reads it. Returns `None` if `stop` was set meanwhile;
/// fails after `timeout` naming the island that did not write it.
pub fn wait_for<T: for<'de> Deserialize<'de>>(
    waiting: Island,
    awaited: (&Path, u32, &str),
    timeout: Duration,
    stop: Option<&AtomicBool>,
) -> Result<Option<T>> {
    wait_until(waiting, awaited, timeout, stop, |_: &T| true)
}

/// [`wait_for`] a file that its island rewrites as it goes on (a checkpoint), until what it
/// holds is `ready`.
pub fn wait_until<T: for<'de> Deserialize<'de>>(
    waiting: Island,
    (path, writer, what): (&Path, u32, &str),
    timeout: Duration,
    stop: Option<&AtomicBool>,
    ready: impl Fn(&T) -> bool,
) -> Result<Option<T>> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        if let Some(bytes) = input_file::read_existing(path, Links::Refuse, None)? {
            let value: T = serde_json::from_slice(&bytes).map_err(|e| {
                Error::input(format!(
                    "{}: not a file of island {writer} ({e}); the run folder was changed",
                    path.display()
                ))
            })?;
            if ready(&value) {
                return Ok(Some(value));
            }
        }
        if stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Ok(None);
        }
        if started.elapsed() >= timeout {
            return Err(Error::failure(format!(
                "island {}: gave up after {} s waiting for island {writer}'s {what} ({}); island \
                 {writer} has not written them: is it running? (start it with `--island \
                 {writer}`, or wait longer with `--island-timeout SECONDS`)",
                waiting.index,
                timeout.as_secs(),
                path.display()
            )));
        }
        std::thread::sleep(pause.min(timeout.saturating_sub(started.elapsed())));
        pause = (pause * 2).min(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_times_out_naming_its_island_and_a_published_one_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("x.json");
        let awaited = (path.as_path(), 1, "migrants of round 2");
        let me = Island { index: 2, count: 3 };
        let err =
            wait_for::<PlayoffGamesFile>(me, awaited, Duration::from_millis(30), None).unwrap_err();
        assert!(
            err.to_string().contains("island 1's migrants of round 2"),
            "{err}"
        );
        let file = PlayoffGamesFile {
            island: 1,
            results: "bwd".to_string(),
        };
        publish(&path, &file).unwrap();
        publish(&path, &file).unwrap();
        let read: PlayoffGamesFile = wait_for(me, awaited, Duration::ZERO, None)
            .unwrap()
            .unwrap();
        assert_eq!(read.results, "bwd");
        let other = PlayoffGamesFile {
            island: 1,
            results: "bbb".to_string(),
        };
        assert!(publish(&path, &other).is_err());
    }
}
