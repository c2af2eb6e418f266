//! The island model (docs/islands.md): which island a process is, each island's
//! seed, and the files islands exchange through the run folder — migrants every few rounds,
//! then the finalists and the playoff games — written once by their one writer and waited for
//! by the others; and how far another island has come (its checkpoint), which a fit that pools
//! the islands' games waits for.
//!
//! No locks and no server: a file appears whole (temporary file + rename) and only its island
//! writes it, so a reader that sees it sees the final bytes, on a local disk as on NFS. A
//! restarted island computes the same bytes again; it checks them against the file it wrote
//! before instead of trusting either.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::checkpoint::Member;
use super::files::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::GameResult;
use checkers_engine::input_file::{self, Links};
use checkers_engine::rng::{stream, tag};

/// How long an island waits for another's file unless told otherwise: long enough for a slow
/// neighbour's round or a requeued job's restart, short enough that a dead one is noticed.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3600);

/// One island of a run of `count` islands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Island {
    /// `0..count`.
    pub index: u32,
    /// Islands in the run.
    pub count: u32,
}

impl Island {
    /// Every island of a run of `count` islands.
    pub fn all(count: u32) -> impl Iterator<Item = Island> {
        (0..count).map(move |index| Island { index, count })
    }

    /// The seed of this island's streams: the run's seed for island 0 (so island 0 starts as
    /// the run without islands does), a seed drawn from `[ISLAND, index]` for the others.
    pub fn seed(self, run_seed: u64) -> u64 {
        if self.index == 0 {
            run_seed
        } else {
            stream(run_seed, &[tag::ISLAND, u64::from(self.index)]).gen()
        }
    }

    /// The island whose migrants this one receives (its predecessor on the ring).
    pub fn sender(self) -> u32 {
        (self.index + self.count - 1) % self.count
    }
}

/// Which island a process runs, as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IslandChoice {
    /// From the scheduler's environment: `SLURM_PROCID` and `SLURM_NTASKS` (a task of `srun`),
    /// or `JOB_COMPLETION_INDEX` (a pod of a Kubernetes Indexed Job).
    Auto,
    /// This index.
    Index(u32),
}

impl std::str::FromStr for IslandChoice {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Self, Self::Err> {
        if text == "auto" {
            return Ok(IslandChoice::Auto);
        }
        text.parse()
            .map(IslandChoice::Index)
            .map_err(|_| format!("expected `auto` or an island index (0, 1, …), got {text:?}"))
    }
}

impl IslandChoice {
    /// The island of a run of `count` islands that this choice names, reading the scheduler's
    /// variables through `env`. Bad input when the index is out of range, the scheduler's task
    /// count disagrees with `count`, or `auto` finds no scheduler.
    pub fn resolve(self, count: u32, env: impl Fn(&str) -> Option<String>) -> Result<Island> {
        if count < 2 {
            return Err(Error::input(
                "--island: the config has one island; set `[islands] count` to 2 or more to run \
                 islands as separate processes",
            ));
        }
        let number = |var: &str| -> Result<Option<u32>> {
            let parse = |text: String| {
                let message = format!("--island auto: {var}={text:?} is not a task index or count");
                text.trim().parse().map_err(|_| Error::input(message))
            };
            env(var).map(parse).transpose()
        };
        let (index, source) = match self {
            IslandChoice::Index(index) => (index, "--island".to_string()),
            IslandChoice::Auto => match (number("SLURM_PROCID")?, number("SLURM_NTASKS")?) {
                (Some(index), Some(tasks)) => {
                    if tasks != count {
                        return Err(Error::input(format!(
                            "--island auto: SLURM_NTASKS is {tasks}, but the config's \
                             `islands.count` is {count}; start one task per island (srun \
                             --ntasks={count})"
                        )));
                    }
                    (index, "SLURM_PROCID".to_string())
                }
                _ => match number("JOB_COMPLETION_INDEX")? {
                    Some(index) => (index, "JOB_COMPLETION_INDEX".to_string()),
                    None => {
                        return Err(Error::input(
                            "--island auto: neither SLURM_PROCID and SLURM_NTASKS (srun) nor \
                             JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give the \
                             island's index, --island I",
                        ))
                    }
                },
            },
        };
        if index >= count {
            return Err(Error::input(format!(
                "{source} is {index}, but the config's `islands.count` is {count}: islands are \
                 0 to {}",
                count - 1
            )));
        }
        Ok(Island { index, count })
    }
}

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

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_island_comes_from_slurm_or_kubernetes_and_must_agree_with_the_count() {
        let slurm = [("SLURM_PROCID", "2"), ("SLURM_NTASKS", "3")];
        let island = IslandChoice::Auto.resolve(3, env(&slurm)).unwrap();
        assert_eq!(island, Island { index: 2, count: 3 });
        assert_eq!(island.sender(), 1);
        let err = IslandChoice::Auto.resolve(4, env(&slurm)).unwrap_err();
        assert!(err.to_string().contains("SLURM_NTASKS is 3"), "{err}");
        assert_eq!(err.exit_code(), 2);
        let k8s = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(IslandChoice::Auto.resolve(2, env(&k8s)).unwrap().index, 0);
        let err = IslandChoice::Auto
            .resolve(2, env(&[("JOB_COMPLETION_INDEX", "5")]))
            .unwrap_err();
        assert!(
            err.to_string().contains("JOB_COMPLETION_INDEX is 5"),
            "{err}"
        );
        let err = IslandChoice::Auto.resolve(2, env(&[])).unwrap_err();
        assert!(err.to_string().contains("--island I"), "{err}");
        let err = IslandChoice::Index(0).resolve(1, env(&[])).unwrap_err();
        assert!(err.to_string().contains("one island"), "{err}");
        assert!("x".parse::<IslandChoice>().is_err());
        assert_eq!("auto".parse(), Ok(IslandChoice::Auto));
    }

    #[test]
    fn island_zero_keeps_the_run_seed_and_the_others_differ() {
        let island = |index| Island { index, count: 3 };
        assert_eq!(island(0).seed(7), 7);
        assert_ne!(island(1).seed(7), island(2).seed(7));
        assert_eq!(island(1).seed(7), island(1).seed(7));
    }

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
