//! Earlier runs' games that a run's fits also learn from (`[evolution] fit_with`).
//!
//! A user names a run folder (or a positions store); the run fixes, when it starts, how many
//! of its rounds it reads and whose store it is, and writes both into its `config.toml`. So a
//! resumed run reads exactly the games the unbroken run read, and the run's identity (a hash
//! of that config) covers them: a store of the same identity holds the same games.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One earlier run's positions store that every fit of the run also learns from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "FitSourceEntry", into = "FitSourceEntry")]
pub struct FitSource {
    /// The store: a run folder's `positions.bin` (a folder is written as its store once
    /// resolved).
    pub store: PathBuf,
    /// What the run fixed when it started: the rounds read and whose store it is (`None` in a
    /// config as the user wrote it).
    pub fixed: Option<FixedSource>,
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
    expecting = "a run folder or its positions.bin (a string), or the table a run writes \
                 (`store`, `rounds`, `games`, `run`)"
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
                    fixed: Some(FixedSource {
                        rounds,
                        games,
                        run,
                        island,
                    }),
                }
            }
        })
    }
}

impl From<FitSource> for FitSourceEntry {
    fn from(source: FitSource) -> FitSourceEntry {
        match source.fixed {
            None => FitSourceEntry::Path(source.store),
            Some(fixed) => FitSourceEntry::Fixed {
                store: source.store,
                rounds: fixed.rounds,
                games: fixed.games,
                run: format!("{:016x}", fixed.run),
                island: fixed.island,
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
            Some(FixedSource {
                rounds: 12,
                games: 40,
                run: 255,
                island: None
            })
        );
        let written = toml::to_string(&holder).unwrap();
        assert!(written.contains("run = \"00000000000000ff\""), "{written}");
        assert!(!written.contains("island"), "{written}");
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
