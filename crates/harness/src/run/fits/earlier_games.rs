//! Earlier runs' stores and PDN games that a run's fits also learn from (`[evolution]
//! fit_with`): fixing each when the run starts (a store's rounds so far and whose it is; each
//! PDN file's size and checksum), and reading exactly those games back, checked, at every fit.

use std::path::{Path, PathBuf};

use super::pool::{read_store, RoundGames};
use crate::fit::{Damaged, GameRecords, StoreIdentity, StoreReader};
use crate::run_folder::POSITIONS_FILE;
use crate::tournament::{FitSource, Fixed, FixedPdn, FixedSource, PdnFile};
use checkers_engine::error::{Error, Result};
use checkers_engine::text::fingerprint;

/// Whether `path` names PDN games: a file whose name ends in `.pdn` (any case).
fn is_pdn_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
}

/// The `.pdn` files directly in `folder`, by name (a link is named as the user named it; what
/// it is a link to is caught by [`duplicate_pdn_files`]).
fn pdn_files_in(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && is_pdn_file(p))
        .collect();
    files.sort();
    Ok(files)
}

/// A PDN file as the run fixes it: its size and checksum.
fn pdn_file(path: &Path) -> Result<PdnFile> {
    let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, &e))?;
    Ok(PdnFile {
        path: path.to_path_buf(),
        bytes: bytes.len() as u64,
        checksum: fingerprint(&bytes),
    })
}

/// The finished games of PDN files, damaged games skipped (as `fit` does by default).
fn pdn_games(files: &[PathBuf]) -> Result<Vec<crate::fit::RecordedGame>> {
    let mut records = GameRecords::default();
    for file in files {
        records.add_pdn(file, Damaged::Skip)?;
    }
    Ok(records.games)
}

/// PDN games fixed: every file's size and checksum and the games they hold. `path` is the
/// file or the folder the user named.
fn fix_pdn(path: &Path, files: Vec<PathBuf>) -> std::result::Result<Fixed, String> {
    if files.is_empty() {
        return Err(format!(
            "{}: neither a run folder with a positions store nor a folder of .pdn files",
            path.display()
        ));
    }
    let games = pdn_games(&files).map_err(|e| e.to_string())?.len() as u64;
    if games == 0 {
        return Err(format!("{}: holds no finished game", path.display()));
    }
    let files = files
        .iter()
        .map(|f| pdn_file(f))
        .collect::<Result<Vec<_>>>()
        .map_err(|e| e.to_string())?;
    Ok(Fixed::Pdn(FixedPdn { files, games }))
}

/// `source` as the run will read it: its store's absolute path (a run folder's
/// `positions.bin` for a folder; a relative path taken from `folder`, the config's), and,
/// unless the config fixed them already, the rounds the store holds whole now and its
/// identity. The message of a failure names the path and what is wrong.
pub(crate) fn resolve_source(
    source: &FitSource,
    folder: &Path,
) -> std::result::Result<FitSource, String> {
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
        let store = path.join(POSITIONS_FILE);
        if !store.is_file() {
            let files = pdn_files_in(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let fixed = fix_pdn(&path, files)?;
            return Ok(FitSource {
                store: path,
                fixed: Some(fixed),
            });
        }
        path = store;
    } else if is_pdn_file(&path) {
        let fixed = fix_pdn(&path, vec![path.clone()])?;
        return Ok(FitSource {
            store: path,
            fixed: Some(fixed),
        });
    }
    let fixed = whole_rounds(&path).map_err(|e| e.to_string())?;
    Ok(FitSource {
        store: path,
        fixed: Some(Fixed::Store(fixed)),
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

/// The first PDN file fixed twice among `sources` — the same file by two names (a link, a
/// folder and a file in it) or a copy: the same size and checksum are the same games, which a
/// fit would learn twice —, as the items (from 1) and the two paths.
pub(crate) fn duplicate_pdn_files(
    sources: &[FitSource],
) -> Option<(usize, usize, PathBuf, PathBuf)> {
    let mut seen: std::collections::HashMap<(u64, &str), (usize, &Path)> =
        std::collections::HashMap::new();
    for (item, source) in sources.iter().enumerate() {
        let Some(Fixed::Pdn(pdn)) = &source.fixed else {
            continue;
        };
        for file in &pdn.files {
            let key = (file.bytes, file.checksum.as_str());
            if let Some(&(first, path)) = seen.get(&key) {
                return Some((first + 1, item + 1, path.to_path_buf(), file.path.clone()));
            }
            seen.insert(key, (item, &file.path));
        }
    }
    None
}

/// What a run tells when it starts of its PDN sources, as `fit` tells it: each damaged game
/// skipped (the first ones of each file) and how many more. A source that cannot be read says
/// nothing here: [`check_sources`] refuses it.
pub(crate) fn skipped_pdn_games(sources: &[FitSource]) -> Vec<String> {
    let mut notes = Vec::new();
    for source in sources {
        let Some(Fixed::Pdn(pdn)) = &source.fixed else {
            continue;
        };
        for file in &pdn.files {
            let mut records = GameRecords::default();
            if records.add_pdn(&file.path, Damaged::Skip).is_err() {
                continue;
            }
            for (path, error) in &records.report.skipped {
                notes.push(format!(
                    "evolution.fit_with: {}: {error}; game skipped",
                    path.display()
                ));
            }
            let skipped: usize = records.report.pdn_files.iter().map(|c| c.skipped).sum();
            let more = skipped.saturating_sub(records.report.skipped.len());
            if more > 0 {
                notes.push(format!(
                    "evolution.fit_with: {}: {more} more damaged games skipped",
                    file.path.display()
                ));
            }
        }
    }
    notes
}

/// Checks, before a run (or its resumption) plays, that every store it learns from is still
/// where the run fixed it and still the one fixed (its header's identity); the games are
/// checked as each fit reads them ([`read_sources`]).
pub(crate) fn check_sources(sources: &[FitSource]) -> Result<()> {
    for source in sources {
        let fixed = match &source.fixed {
            Some(Fixed::Store(fixed)) => *fixed,
            Some(Fixed::Pdn(pdn)) => {
                check_pdn(pdn)?;
                continue;
            }
            None => continue,
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

/// Checks that every PDN file is still the one the run fixed: there, of its size and checksum.
fn check_pdn(pdn: &FixedPdn) -> Result<()> {
    for file in &pdn.files {
        let now = pdn_file(&file.path).map_err(|e| {
            Error::input(format!(
                "`evolution.fit_with`: {} cannot be read ({e}); the run fixed this PDN file \
                 when it started and learns from it at every fit, so put it back at that path",
                file.path.display()
            ))
        })?;
        if now != *file {
            return Err(Error::input(format!(
                "`evolution.fit_with`: {} changed since the run started ({} bytes, checksum {}; \
                 fixed: {} bytes, checksum {}): put the original back, or start a new run",
                file.path.display(),
                now.bytes,
                now.checksum,
                file.bytes,
                file.checksum
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
        let fixed = match &source.fixed {
            Some(Fixed::Store(fixed)) => *fixed,
            Some(Fixed::Pdn(pdn)) => {
                // PDN games belong to no round: they come first, as round 0.
                let files: Vec<PathBuf> = pdn.files.iter().map(|f| f.path.clone()).collect();
                let games = pdn_games(&files)?;
                if games.len() as u64 != pdn.games {
                    return Err(Error::input(format!(
                        "{}: {} games, not the {} this run learnt from when it started \
                         (evolution.fit_with)",
                        source.store.display(),
                        games.len(),
                        pdn.games
                    )));
                }
                blocks.push(RoundGames { round: 0, games });
                continue;
            }
            None => {
                return Err(Error::failure(format!(
                    "evolution.fit_with: {} was not fixed when the run started",
                    source.store.display()
                )))
            }
        };
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
    use checkers_engine::game::{GameResult, Opening};

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
        let fixed = resolve_source(&source, tmp.path()).unwrap();
        assert_eq!(
            fixed.store,
            run.canonicalize().unwrap().join(POSITIONS_FILE)
        );
        assert_eq!(
            fixed.fixed,
            Some(Fixed::Store(FixedSource {
                rounds: 3,
                games: 6,
                run: identity.run,
                island: None
            }))
        );
        // The night goes on: a run that fixed it reads the same three rounds.
        append_round(&run, 4, &[game(GameResult::BlackWin)]).unwrap();
        let blocks = read_sources(std::slice::from_ref(&fixed)).unwrap();
        let seen: Vec<(u32, usize)> = blocks.iter().map(|b| (b.round, b.games.len())).collect();
        assert_eq!(seen, [(1, 1), (2, 2), (3, 3)]);
        assert_eq!(
            resolve_source(&source, tmp.path())
                .unwrap()
                .fixed
                .unwrap()
                .games(),
            7
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
        let err = resolve_source(&source("nowhere"), tmp.path()).unwrap_err();
        assert!(
            err.contains("nowhere") && err.contains("cannot be opened"),
            "{err}"
        );
        std::fs::create_dir_all(tmp.path().join("empty")).unwrap();
        let err = resolve_source(&source("empty"), tmp.path()).unwrap_err();
        assert!(err.contains("neither a run folder"), "{err}");
        start_store(&tmp.path().join("empty"), StoreIdentity::new("x", None)).unwrap();
        let err = resolve_source(&source("empty"), tmp.path()).unwrap_err();
        assert!(err.contains("no whole round"), "{err}");
    }

    #[test]
    fn pdn_games_are_fixed_by_size_and_checksum_and_read_back_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().join("sparring");
        std::fs::create_dir_all(&folder).unwrap();
        let game = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n";
        std::fs::write(folder.join("b.pdn"), game.repeat(2)).unwrap();
        std::fs::write(folder.join("a.PDN"), game).unwrap();
        std::fs::write(folder.join("notes.txt"), "not games").unwrap();
        let source = FitSource {
            store: "sparring".into(),
            fixed: None,
        };
        let fixed = resolve_source(&source, tmp.path()).unwrap();
        let Some(Fixed::Pdn(pdn)) = &fixed.fixed else {
            panic!("{fixed:?}");
        };
        assert_eq!(pdn.games, 3);
        let names: Vec<_> = pdn
            .files
            .iter()
            .map(|f| f.path.file_name().unwrap())
            .collect();
        assert_eq!(names, ["a.PDN", "b.pdn"]);
        let blocks = read_sources(std::slice::from_ref(&fixed)).unwrap();
        assert_eq!(blocks.len(), 1);
        assert_eq!((blocks[0].round, blocks[0].games.len()), (0, 3));
        // One file alone is a source too.
        let single = FitSource {
            store: "sparring/b.pdn".into(),
            fixed: None,
        };
        assert_eq!(
            resolve_source(&single, tmp.path())
                .unwrap()
                .fixed
                .unwrap()
                .games(),
            2
        );
        // Changed since: refused, naming the file, before any fit.
        std::fs::write(folder.join("b.pdn"), game.repeat(3)).unwrap();
        let err = check_sources(std::slice::from_ref(&fixed)).unwrap_err();
        assert!(
            err.to_string()
                .contains("b.pdn changed since the run started"),
            "{err}"
        );
        std::fs::remove_file(folder.join("a.PDN")).unwrap();
        let err = read_sources(std::slice::from_ref(&fixed)).err().unwrap();
        assert!(err.to_string().contains("a.PDN cannot be read"), "{err}");
        // A folder of PDN files without a finished game is refused.
        let empty = tmp.path().join("nothing");
        std::fs::create_dir_all(&empty).unwrap();
        std::fs::write(empty.join("x.pdn"), "[Event \"x\"]\n\n*\n").unwrap();
        let err = resolve_source(
            &FitSource {
                store: "nothing".into(),
                fixed: None,
            },
            tmp.path(),
        )
        .unwrap_err();
        assert!(err.contains("no finished game"), "{err}");
    }
}
