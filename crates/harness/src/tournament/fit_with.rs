//! Earlier runs' games that a run's fits also learn from (`[evolution] fit_with`).
//!
//! A user names a run folder (or a positions store), a PDN file or a folder of PDN files
//! (games against other engines, say). The run fixes, when it starts, how many of a store's
//! rounds it reads and whose store it is, or each PDN file's size and checksum, and writes
//! them into its `config.toml`. So a resumed run reads exactly the games the unbroken run
//! read, and the run's identity (a hash of that config) covers them.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One source of games that every fit of the run also learns from: an earlier run's positions
/// store, or PDN games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "FitSourceEntry", into = "FitSourceEntry")]
pub struct FitSource {
    /// The store (a run folder's `positions.bin`: a folder is written as its store once
    /// resolved), or the PDN file or folder of PDN files.
    pub store: PathBuf,
    /// What the run fixed when it started (`None` in a config as the user wrote it).
    pub fixed: Option<Fixed>,
}

/// What a run fixes of a source when it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fixed {
    /// A positions store: the rounds read and whose store it is.
    Store(FixedSource),
    /// PDN games: the files, each with its size and checksum, and the games read from them.
    Pdn(FixedPdn),
}

impl Fixed {
    /// The games the fits read from the source.
    pub fn games(&self) -> u64 {
        match self {
            Fixed::Store(s) => s.games,
            Fixed::Pdn(p) => p.games,
        }
    }
}

/// The PDN files of a source, fixed when the run starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedPdn {
    /// The files in the order they are read (a folder's `.pdn` files by name).
    pub files: Vec<PdnFile>,
    /// The finished games they hold (damaged games skipped).
    pub games: u64,
}

/// One PDN file as the run fixed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdnFile {
    /// Its absolute path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its checksum: 16 hexadecimal digits (FNV-1a of its bytes).
    pub checksum: String,
}

/// The part of a [`FitSource`] the run fixes when it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedSource {
    /// Rounds `1..=rounds` of the store are read.
    pub rounds: u32,
    /// The games of those rounds.
    pub games: u64,
    /// The run identity in the store's header.
    pub run: u64,
    /// The island in the store's header (`None` for a run without islands).
    pub island: Option<u32>,
}

/// A [`FitSource`] as TOML holds it: a path, or a table with what the run fixed.
#[derive(Debug, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "a run folder, its positions.bin, a PDN file or a folder of PDN files (a \
                 string), or the table a run writes (`store`, `rounds`, `games`, `run`; or \
                 `pdn`, `games`, `files`)"
)]
enum FitSourceEntry {
    /// A run folder or a store, as a user writes it.
    Path(PathBuf),
    /// The resolved form a run writes into its `config.toml`.
    Fixed {
        store: PathBuf,
        rounds: u32,
        games: u64,
        /// The run identity as 16 hexadecimal digits (TOML's integers are signed).
        run: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        island: Option<u32>,
    },
    /// The resolved form of PDN games.
    FixedPdn {
        pdn: PathBuf,
        games: u64,
        files: Vec<PdnFile>,
    },
}

impl TryFrom<FitSourceEntry> for FitSource {
    type Error = String;

    fn try_from(entry: FitSourceEntry) -> Result<FitSource, String> {
        Ok(match entry {
            FitSourceEntry::Path(store) => FitSource { store, fixed: None },
            FitSourceEntry::Fixed {
                store,
                rounds,
                games,
                run,
                island,
            } => {
                let run = u64::from_str_radix(&run, 16)
                    .ok()
                    .filter(|_| run.len() == 16)
                    .ok_or_else(|| {
                        format!(
                            "run = {run:?} of {}: expected the store's identity as 16 \
                             hexadecimal digits",
                            store.display()
                        )
                    })?;
                FitSource {
                    store,
                    fixed: Some(Fixed::Store(FixedSource {
                        rounds,
                        games,
                        run,
                        island,
                    })),
                }
            }
            FitSourceEntry::FixedPdn { pdn, games, files } => FitSource {
                store: pdn,
                fixed: Some(Fixed::Pdn(FixedPdn { files, games })),
            },
        })
    }
}

impl From<FitSource> for FitSourceEntry {
    fn from(source: FitSource) -> FitSourceEntry {
        match source.fixed {
            None => FitSourceEntry::Path(source.store),
            Some(Fixed::Store(fixed)) => FitSourceEntry::Fixed {
                store: source.store,
                rounds: fixed.rounds,
                games: fixed.games,
                run: format!("{:016x}", fixed.run),
                island: fixed.island,
            },
            Some(Fixed::Pdn(pdn)) => FitSourceEntry::FixedPdn {
                pdn: source.store,
                games: pdn.games,
                files: pdn.files,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Holder {
        fit_with: Vec<FitSource>,
    }

    #[test]
    fn a_path_and_a_fixed_source_read_back_as_written() {
        let text = "fit_with = [\"../results/night\", \
                    { store = \"/r/positions.bin\", rounds = 12, games = 40, \
                    run = \"00000000000000ff\" }]";
        let holder: Holder = toml::from_str(text).unwrap();
        assert_eq!(holder.fit_with[0].fixed, None);
        assert_eq!(
            holder.fit_with[1].fixed,
            Some(Fixed::Store(FixedSource {
                rounds: 12,
                games: 40,
                run: 255,
                island: None
            }))
        );
        let written = toml::to_string(&holder).unwrap();
        assert!(written.contains("run = \"00000000000000ff\""), "{written}");
        assert!(!written.contains("island"), "{written}");
        assert_eq!(toml::from_str::<Holder>(&written).unwrap(), holder);
    }

    #[test]
    fn pdn_games_read_back_as_written() {
        let text = "fit_with = [{ pdn = \"/s/sparring\", games = 3, files = [\
                    { path = \"/s/sparring/a.pdn\", bytes = 120, checksum = \"00000000000000aa\" }] }]";
        let holder: Holder = toml::from_str(text).unwrap();
        let Some(Fixed::Pdn(pdn)) = &holder.fit_with[0].fixed else {
            panic!("{holder:?}");
        };
        assert_eq!(
            (pdn.games, pdn.files.len(), pdn.files[0].bytes),
            (3, 1, 120)
        );
        let written = toml::to_string(&holder).unwrap();
        assert_eq!(toml::from_str::<Holder>(&written).unwrap(), holder);
    }

    #[test]
    fn an_identity_that_is_not_sixteen_hex_digits_is_refused() {
        for run in ["ff", "zz00000000000000", "0000000000000000ff"] {
            let text =
                format!("fit_with = [{{ store = \"s\", rounds = 1, games = 1, run = \"{run}\" }}]");
            assert!(toml::from_str::<Holder>(&text).is_err(), "{run}");
        }
    }
}
