//! Earlier runs' stores that a run's fits also learn from (`[evolution] fit_with`): fixing
//! each when the run starts (its rounds so far, whose store it is), and reading exactly those
//! games back, checked, at every fit.

use std::path::Path;

use super::pool::{read_store, RoundGames};
use crate::error::{Error, Result};
use crate::fit::{StoreIdentity, StoreReader};
use crate::run_folder::POSITIONS_FILE;
use crate::tournament::{FitSource, FixedSource};

/// `source` as the run will read it: its store's absolute path (a run folder's
/// `positions.bin` for a folder; a relative path taken from `folder`, the config's), and,
/// unless the config fixed them already, the rounds the store holds whole now and its
/// identity. The message of a failure names the path and what is wrong.
pub(super) fn resolve(source: &FitSource, folder: &Path) -> std::result::Result<FitSource, String> {
    if source.fixed.is_some() {
        // A run's own config.toml: fixed when the run started, checked at every read.
        return Ok(source.clone());
    }
    let joined = folder.join(&source.store);
    let mut path = std::fs::canonicalize(&joined).map_err(|e| {
        format!(
            "{} cannot be opened ({e}; a relative path is taken from the config file's \
             folder); expected a run folder or its positions.bin",
            joined.display()
        )
    })?;
    if path.is_dir() {
        path = path.join(POSITIONS_FILE);
        if !path.is_file() {
            return Err(format!(
                "{} does not exist: that folder is not a run folder with a positions store",
                path.display()
            ));
        }
    }
    let fixed = whole_rounds(&path).map_err(|e| e.to_string())?;
    Ok(FitSource {
        store: path,
        fixed: Some(fixed),
    })
}

/// The rounds the store at `path` holds whole and whose it is.
fn whole_rounds(path: &Path) -> Result<FixedSource> {
    let mut reader = StoreReader::open(path)?;
    let Some(identity) = reader.identity() else {
        return Err(Error::input(format!(
            "{}: a positions store of the previous version (CTPOS001), which cannot say whose \
             it is; `fit` reads it, a run does not",
            path.display()
        )));
    };
    let mut games_by_round = std::collections::BTreeMap::<u32, u64>::new();
    while let Some(stored) = reader.next_game()? {
        *games_by_round.entry(stored.round).or_default() += 1;
    }
    let Some(rounds) = reader.last_whole_round() else {
        return Err(Error::input(format!(
            "{}: holds no whole round of games yet",
            path.display()
        )));
    };
    Ok(FixedSource {
        rounds,
        games: games_by_round
            .range(..=rounds)
            .map(|(_, games)| games)
            .sum(),
        run: identity.run,
        island: (identity.island != u32::MAX).then_some(identity.island),
    })
}

/// Checks, before a run (or its resumption) plays, that every store it learns from is still
/// where the run fixed it and still the one fixed (its header's identity); the games are
/// checked as each fit reads them ([`read_sources`]).
pub(super) fn check_sources(sources: &[FitSource]) -> Result<()> {
    for source in sources {
        let Some(fixed) = source.fixed else {
            continue;
        };
        let path = &source.store;
        if std::fs::symlink_metadata(path).is_err() {
            return Err(Error::input(format!(
                "`evolution.fit_with`: {} is gone (moved or deleted); the run fixed this store \
                 when it started and learns from it at every fit, so put it back at that path \
                 (the run's config.toml may not name another)",
                path.display()
            )));
        }
        let reader = StoreReader::open(path)?;
        if reader.identity().map(|i| i.run) != Some(fixed.run) {
            return Err(Error::input(format!(
                "`evolution.fit_with`: {} is no longer the store this run fixed when it started \
                 (its header names another run): put the original back at that path",
                path.display()
            )));
        }
    }
    Ok(())
}

/// The games of every source, in the config's order, each store's rounds ascending: rounds
/// `1..=rounds` of a store that must still be the one fixed (its identity) and hold them all
/// (its last round at least).
pub(super) fn read_sources(sources: &[FitSource]) -> Result<Vec<RoundGames>> {
    check_sources(sources)?;
    let mut blocks = Vec::new();
    for source in sources {
        let fixed = source.fixed.ok_or_else(|| {
            Error::failure(format!(
                "evolution.fit_with: {} was not fixed when the run started",
                source.store.display()
            ))
        })?;
        let identity = StoreIdentity {
            run: fixed.run,
            island: fixed.island.unwrap_or(u32::MAX),
        };
        let (rounds, _) = read_store(&source.store, Some(identity), 1, fixed.rounds)?;
        let games: usize = rounds.values().map(Vec::len).sum();
        if !rounds.contains_key(&fixed.rounds) || games as u64 != fixed.games {
            return Err(Error::input(format!(
                "{}: holds {games} games up to round {}, not the {} this run learnt from when \
                 it started (evolution.fit_with): the store was cut or replaced since",
                source.store.display(),
                fixed.rounds,
                fixed.games
            )));
        }
        blocks.extend(
            rounds
                .into_iter()
                .map(|(round, games)| RoundGames { round, games }),
        );
    }
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::{append_round, start_store, RecordedGame};
    use crate::game::{GameResult, Opening};

    fn game(result: GameResult) -> RecordedGame {
        let opening = Opening::from_name("11-15 23-19").unwrap();
        RecordedGame::from_opening(&opening, &[], &[], result)
    }

    #[test]
    fn a_folder_is_fixed_at_its_whole_rounds_and_read_back_exactly() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("night");
        std::fs::create_dir_all(&run).unwrap();
        let identity = StoreIdentity::new("seed = 3\n", None);
        start_store(&run, identity).unwrap();
        for round in 1..=3 {
            append_round(&run, round, &vec![game(GameResult::Draw); round as usize]).unwrap();
        }
        let source = FitSource {
            store: "night".into(),
            fixed: None,
        };
        let fixed = resolve(&source, tmp.path()).unwrap();
        assert_eq!(
            fixed.store,
            run.canonicalize().unwrap().join(POSITIONS_FILE)
        );
        assert_eq!(
            fixed.fixed,
            Some(FixedSource {
                rounds: 3,
                games: 6,
                run: identity.run,
                island: None
            })
        );
        // The night goes on: a run that fixed it reads the same three rounds.
        append_round(&run, 4, &[game(GameResult::BlackWin)]).unwrap();
        let blocks = read_sources(std::slice::from_ref(&fixed)).unwrap();
        let seen: Vec<(u32, usize)> = blocks.iter().map(|b| (b.round, b.games.len())).collect();
        assert_eq!(seen, [(1, 1), (2, 2), (3, 3)]);
        assert_eq!(
            resolve(&source, tmp.path()).unwrap().fixed.unwrap().rounds,
            4
        );

        // Replaced by another run's store: refused, naming it.
        start_store(&run, StoreIdentity::new("seed = 4\n", None)).unwrap();
        append_round(&run, 1, &[game(GameResult::Draw)]).unwrap();
        let err = read_sources(std::slice::from_ref(&fixed)).err().unwrap();
        assert!(
            err.to_string()
                .contains("no longer the store this run fixed"),
            "{err}"
        );
        // Cut back to fewer rounds than were fixed.
        start_store(&run, identity).unwrap();
        append_round(&run, 1, &[game(GameResult::Draw)]).unwrap();
        let err = read_sources(std::slice::from_ref(&fixed)).err().unwrap();
        assert!(
            err.to_string()
                .contains("holds 1 games up to round 3, not the 6"),
            "{err}"
        );
    }

    #[test]
    fn a_missing_store_or_an_empty_one_is_refused_by_name() {
        let tmp = tempfile::tempdir().unwrap();
        let source = |store: &str| FitSource {
            store: store.into(),
            fixed: None,
        };
        let err = resolve(&source("nowhere"), tmp.path()).unwrap_err();
        assert!(
            err.contains("nowhere") && err.contains("cannot be opened"),
            "{err}"
        );
        std::fs::create_dir_all(tmp.path().join("empty")).unwrap();
        let err = resolve(&source("empty"), tmp.path()).unwrap_err();
        assert!(err.contains("not a run folder"), "{err}");
        start_store(&tmp.path().join("empty"), StoreIdentity::new("x", None)).unwrap();
        let err = resolve(&source("empty"), tmp.path()).unwrap_err();
        assert!(err.contains("no whole round"), "{err}");
    }
}
