//! The games a run's fits learn from besides the round just played: the run's own positions
//! store, or, for islands that pool their games (`[islands] pool_games`, docs/islands.md), the
//! stores of every island, read in one fixed order — rounds ascending, islands ascending within
//! a round — so that the fit's samples do not depend on which island ran where or when.
//!
//! Another island's store is read only up to a round its checkpoint has saved (the caller
//! waits for that first). Such a round's block is never written again: the island appended it
//! before that checkpoint, and a restart cuts its store back to its checkpoint, never before
//! it, then appends the next rounds anew with the same bytes (the run is deterministic).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::fit::{RecordedGame, StoreIdentity, StoreReader};
use crate::run_folder::{run_identity_of, POSITIONS_FILE};
use checkers_engine::error::{Error, Result};

use crate::run_folder::island_dir;

/// One island's games of one round, in the order they were played.
pub(crate) struct RoundGames {
    /// The round.
    pub(crate) round: u32,
    /// Its games.
    pub(crate) games: Vec<RecordedGame>,
}

/// The positions stores a run's fits read the earlier rounds from, in island order.
pub(crate) struct Pool {
    stores: Vec<PathBuf>,
    /// The identity each store must have, when known: every island's store is checked against
    /// the run's config and its island's index, since another island's store is read as it is.
    expected: Vec<Option<StoreIdentity>>,
}

impl Pool {
    /// The run's (or island's) own store, in `dir`.
    pub(crate) fn own(dir: &Path) -> Pool {
        // Checked against the run's identity when the run was resumed, and written by this
        // process since: its blocks are checked as they are read.
        Pool {
            stores: vec![dir.join(POSITIONS_FILE)],
            expected: vec![None],
        }
    }

    /// The stores of the `count` islands of the run folder `top`.
    pub(crate) fn islands(top: &Path, count: u32) -> Pool {
        let run = run_identity_of(top);
        Pool {
            stores: (0..count)
                .map(|index| island_dir(top, index).join(POSITIONS_FILE))
                .collect(),
            expected: (0..count)
                .map(|island| run.map(|run| StoreIdentity { run, island }))
                .collect(),
        }
    }

    /// The games of rounds `first..=last` of every store, rounds ascending and stores in
    /// island order within a round, with the bytes read. Every store must hold every one of
    /// those rounds (a round always has games); one that does not was changed or cut by hand.
    pub(crate) fn read(&self, first: u32, last: u32) -> Result<(Vec<RoundGames>, u64)> {
        let mut by_store = Vec::with_capacity(self.stores.len());
        let mut bytes = 0;
        for (path, expected) in self.stores.iter().zip(&self.expected) {
            let (rounds, read) = read_store(path, *expected, first, last)?;
            bytes += read;
            by_store.push(rounds);
        }
        let mut blocks = Vec::new();
        for round in first..=last {
            for (path, rounds) in self.stores.iter().zip(by_store.iter_mut()) {
                let Some(games) = rounds.remove(&round) else {
                    return Err(Error::input(format!(
                        "{}: holds no games of round {round}, though its run saved that round; \
                         the run folder was changed, so the fits cannot go on identically",
                        path.display()
                    )));
                };
                blocks.push(RoundGames { round, games });
            }
        }
        Ok((blocks, bytes))
    }
}

/// The games of rounds `first..=last` of the store at `path`, by round, and the bytes read.
/// Reading stops at the first game of a later round: the block being written after them, if
/// any, is never read whole.
pub(super) fn read_store(
    path: &Path,
    expected: Option<StoreIdentity>,
    first: u32,
    last: u32,
) -> Result<(BTreeMap<u32, Vec<RecordedGame>>, u64)> {
    let mut rounds: BTreeMap<u32, Vec<RecordedGame>> = BTreeMap::new();
    if first > last {
        return Ok((rounds, 0));
    }
    let mut reader = StoreReader::open(path)?;
    if let Some(expected) = expected {
        reader.expect(expected)?;
    }
    while let Some(stored) = reader.next_game()? {
        if stored.round > last {
            break;
        }
        if stored.round >= first {
            rounds.entry(stored.round).or_default().push(stored.game);
        }
    }
    Ok((rounds, reader.offset()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::{append_round, start_store};
    use checkers_engine::game::{GameResult, Opening};

    fn game(result: GameResult) -> RecordedGame {
        let opening = Opening::from_name("9-13 22-18").unwrap();
        RecordedGame::from_opening(&opening, &[], &[], result)
    }

    const CONFIG: &str = "seed = 7\n";

    #[test]
    fn rounds_come_in_round_then_island_order_and_a_missing_round_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("config.toml"), CONFIG).unwrap();
        let results = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw];
        for (index, result) in results.iter().enumerate().take(2) {
            let dir = island_dir(tmp.path(), index as u32);
            std::fs::create_dir_all(&dir).unwrap();
            start_store(&dir, StoreIdentity::new(CONFIG, Some(index as u32))).unwrap();
            for round in 1..=3 {
                let games = vec![game(*result); round as usize];
                append_round(&dir, round, &games).unwrap();
            }
        }
        let pool = Pool::islands(tmp.path(), 2);
        let (blocks, bytes) = pool.read(2, 3).unwrap();
        let seen: Vec<(u32, usize, GameResult)> = blocks
            .iter()
            .map(|b| (b.round, b.games.len(), b.games[0].result))
            .collect();
        use GameResult::{BlackWin, WhiteWin};
        assert_eq!(
            seen,
            [
                (2, 2, BlackWin),
                (2, 2, WhiteWin),
                (3, 3, BlackWin),
                (3, 3, WhiteWin)
            ]
        );
        assert!(bytes > 0);
        assert!(pool.read(3, 2).unwrap().0.is_empty());
        let err = pool.read(3, 4).err().unwrap().to_string();
        assert!(err.contains("no games of round 4"), "{err}");
        let own = Pool::own(&island_dir(tmp.path(), 1));
        assert_eq!(own.read(1, 3).unwrap().0.len(), 3);
        // A neighbour's store that is well formed but another run's, or another island's.
        std::fs::write(tmp.path().join("config.toml"), "seed = 9\n").unwrap();
        let err = Pool::islands(tmp.path(), 2)
            .read(1, 3)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("damaged at byte 8: its header names"), "{err}");
        std::fs::write(tmp.path().join("config.toml"), CONFIG).unwrap();
        let (zero, one) = (island_dir(tmp.path(), 0), island_dir(tmp.path(), 1));
        std::fs::copy(zero.join(POSITIONS_FILE), one.join(POSITIONS_FILE)).unwrap();
        let err = Pool::islands(tmp.path(), 2)
            .read(1, 3)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("island-1") && err.contains("island 0, but the store of"),
            "{err}"
        );
    }
}
