//! A `datagen` config: whose games, how many, at which node budgets, from which openings.

use std::path::Path;

use serde::{Deserialize, Serialize};

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{MAX_NODES, MAX_RANDOM_OPENING_PLIES};
use checkers_engine::input_file::{self, Links, CONFIG_CAP};

/// Most games one data set may plan: far beyond a night on any machine.
pub const MAX_GAMES: u64 = 10_000_000_000;

/// Most games played at once and appended to a shard as one block.
pub const MAX_BATCH: u32 = 65_536;

/// Most node budgets one data set may mix.
pub const MAX_BUDGETS: usize = 16;

/// Most opponents the weights may play.
pub const MAX_OPPONENTS: usize = 64;

/// A `datagen` config (`configs/datagen.toml`): games of the selective search at node budgets
/// from random openings kept level by a shallow search, written to a positions store that `fit`
/// reads. The one owner of these settings, with their defaults and checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatagenConfig {
    /// The data set's name: its folder is `results/<name>` unless `--out` says otherwise.
    pub name: String,
    /// The weights that play (a weights file or run folder, relative to the config's folder,
    /// or `material`); its `search` table sets the selective search's keys.
    pub weights: String,
    /// Whom `weights` plays: earlier champions (weights files or run folders), one after
    /// another by game; empty: itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
    /// Games to play in all (over every shard).
    pub games: u64,
    /// Games played at once and appended to the store as one block: a kill loses at most one
    /// block of a shard.
    #[serde(default = "default_batch")]
    pub batch: u32,
    /// Seed of the games' streams (openings, tie-breaks).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Nodes a move; game `g` is played at `nodes[g % len]`, so several budgets mix in one set.
    pub nodes: Vec<u64>,
    /// Random plies from the start position before the game proper (never a judging deck's
    /// openings: those stay held out).
    #[serde(default = "default_book_plies")]
    pub book_plies: u32,
    /// Largest score (hundredths of a man, by a depth-4 material search) a random opening may
    /// have: neither side starts lost.
    #[serde(default = "default_book_balance")]
    pub book_balance: i32,
    /// The endgame database both sides search with and that ends a game with its exact result
    /// (0: none).
    #[serde(default = "default_database_pieces")]
    pub database_pieces: u32,
    /// Adjudicate a draw after this many plies.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// Draw after this many plies without a capture or a man moving.
    #[serde(default = "default_no_progress_plies")]
    pub no_progress_plies: u32,
}

fn default_batch() -> u32 {
    64
}
fn default_seed() -> u64 {
    1
}
fn default_book_plies() -> u32 {
    8
}
fn default_book_balance() -> i32 {
    50
}
fn default_database_pieces() -> u32 {
    5
}
fn default_max_plies() -> u32 {
    300
}
fn default_no_progress_plies() -> u32 {
    80
}

impl DatagenConfig {
    /// Reads and checks a config file; relative `weights` and `opponents` paths are taken from
    /// the file's folder. Every mistake names the file and the key (exit status 2).
    pub fn load(path: &Path) -> Result<DatagenConfig> {
        let text = input_file::read_text(path, Links::Follow, Some(CONFIG_CAP))
            .map_err(|e| Error::input(format!("config {}: {e}", path.display())))?;
        DatagenConfig::parse(checkers_engine::text::strip_bom(&text), path)
    }

    /// Parses and checks config `text`; `origin` names the file in messages and is the folder
    /// relative paths start from.
    pub fn parse(text: &str, origin: &Path) -> Result<DatagenConfig> {
        let mut config: DatagenConfig = toml::from_str(text).map_err(|e| {
            Error::input(format!(
                "config {}: {}",
                origin.display(),
                checkers_engine::text::toml_error_message(text, &e)
            ))
        })?;
        let folder = origin.parent().unwrap_or(Path::new(""));
        let resolve = |arg: &mut String| {
            if arg != "material" && Path::new(arg.as_str()).is_relative() {
                *arg = folder.join(arg.as_str()).display().to_string();
            }
        };
        resolve(&mut config.weights);
        config.opponents.iter_mut().for_each(resolve);
        config.check().map_err(|(key, why)| {
            Error::input(format!("config {}: {key}: {why}", origin.display()))
        })?;
        Ok(config)
    }

    /// The config as TOML, as the data set's folder keeps it (every shard must match it).
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string(self).map_err(|e| Error::failure(format!("cannot write the config: {e}")))
    }

    /// The node budget of game `game`.
    pub fn nodes_of(&self, game: u64) -> u64 {
        self.nodes[(game % self.nodes.len() as u64) as usize]
    }

    /// Checks what serde's types do not: the `(key, why)` of the first mistake.
    fn check(&self) -> std::result::Result<(), (String, String)> {
        let fail = |key: &str, why: String| Err((key.to_string(), why));
        if self.name.trim().is_empty() || self.name.contains(['/', '\\']) || self.name == ".." {
            return fail("name", format!("{:?}: expected a folder name", self.name));
        }
        if !(1..=MAX_GAMES).contains(&self.games) {
            return fail(
                "games",
                format!("{}: expected 1 to {MAX_GAMES}", self.games),
            );
        }
        if !(1..=MAX_BATCH).contains(&self.batch) {
            return fail(
                "batch",
                format!("{}: expected 1 to {MAX_BATCH}", self.batch),
            );
        }
        if self.nodes.is_empty() || self.nodes.len() > MAX_BUDGETS {
            return fail(
                "nodes",
                format!(
                    "{} budgets: expected 1 to {MAX_BUDGETS}, e.g. nodes = [3000]",
                    self.nodes.len()
                ),
            );
        }
        if let Some(bad) = self.nodes.iter().find(|n| !(1..=MAX_NODES).contains(*n)) {
            return fail("nodes", format!("{bad}: expected 1 to {MAX_NODES}"));
        }
        if self.opponents.len() > MAX_OPPONENTS {
            return fail(
                "opponents",
                format!(
                    "{} files: expected at most {MAX_OPPONENTS}",
                    self.opponents.len()
                ),
            );
        }
        if self.book_plies > MAX_RANDOM_OPENING_PLIES {
            return fail(
                "book_plies",
                format!(
                    "{}: expected 0 to {MAX_RANDOM_OPENING_PLIES}",
                    self.book_plies
                ),
            );
        }
        if !(0..=10_000).contains(&self.book_balance) {
            return fail(
                "book_balance",
                format!(
                    "{}: expected 0 to 10000 (hundredths of a man)",
                    self.book_balance
                ),
            );
        }
        if self.database_pieces > checkers_engine::egdb::MAX_DATABASE_PIECES {
            return fail(
                "database_pieces",
                format!(
                    "{}: expected 0 to {}",
                    self.database_pieces,
                    checkers_engine::egdb::MAX_DATABASE_PIECES
                ),
            );
        }
        if self.max_plies == 0 {
            return fail("max_plies", "0: expected at least 1".to_string());
        }
        if self.no_progress_plies < 2 {
            return fail(
                "no_progress_plies",
                format!("{}: expected at least 2", self.no_progress_plies),
            );
        }
        Ok(())
    }
}

/// Which part of the data set a process plays: shard `index` of `count` plays the games
/// `[index·G/count, (index+1)·G/count)` of the `G` planned, so that the shards read in order
/// are the data set one process would write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    pub index: u32,
    /// How many shards the data set is cut into.
    pub count: u32,
}

/// Most shards one data set may be cut into.
pub const MAX_SHARDS: u32 = 100_000;

impl Shard {
    /// The whole data set as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `K/N` (K from 1 to N, as Slurm's and Kubernetes' array indices are written with
    /// `+1`), the command line's `--shard`.
    pub fn parse(text: &str) -> std::result::Result<Shard, String> {
        let expected = || format!("{text:?}: expected K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS}, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(expected)?;
        let k: u32 = k.trim().parse().map_err(|_| expected())?;
        let n: u32 = n.trim().parse().map_err(|_| expected())?;
        if n == 0 || n > MAX_SHARDS || k == 0 || k > n {
            return Err(expected());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// The games this shard plays, of `games` planned.
    pub fn games(&self, games: u64) -> std::ops::Range<u64> {
        let at = |i: u32| (u128::from(games) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }

    /// The shard's folder name: `shard-K-of-N` (1-based, as `--shard` writes it).
    pub fn folder_name(&self) -> String {
        crate::run_folder::shard_dir_name(self.index + 1, self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<DatagenConfig> {
        DatagenConfig::parse(text, Path::new("configs/d.toml"))
    }

    const GOOD: &str = "name = \"d\"\nweights = \"material\"\ngames = 10\nnodes = [300, 900]\n";

    #[test]
    fn a_config_resolves_paths_and_defaults() {
        let c = parse(&GOOD.replace("\"material\"", "\"w.json\"")).unwrap();
        assert_eq!(c.weights, "configs/w.json");
        assert_eq!((c.batch, c.book_plies, c.database_pieces), (64, 8, 5));
        assert_eq!(
            (c.nodes_of(0), c.nodes_of(1), c.nodes_of(2)),
            (300, 900, 300)
        );
    }

    #[test]
    fn every_mistake_names_the_file_and_key() {
        for (edit, key) in [
            ("games = 10", "games = 0"),
            ("nodes = [300, 900]", "nodes = []"),
            ("nodes = [300, 900]", "nodes = [0]"),
            ("games = 10", "games = 10\nbook_plies = 41"),
            ("games = 10", "games = 10\nbatch = 0"),
            ("games = 10", "games = 10\ndatabase_pieces = 9"),
            ("games = 10", "games = 10\nbook_balance = -1"),
            ("games = 10", "games = 10\nmax_plies = 0"),
        ] {
            let text = GOOD.replace(edit, key);
            let message = parse(&text).unwrap_err().to_string();
            let name = key.lines().last().unwrap().split(' ').next().unwrap();
            assert!(
                message.starts_with("config configs/d.toml: ") && message.contains(name),
                "{key}: {message}"
            );
        }
        let message = parse(&format!("{GOOD}colour = 1\n"))
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("line 5") && message.contains("colour"),
            "{message}"
        );
        let message = parse("name = \"d\"\n").unwrap_err().to_string();
        assert!(message.contains("missing field `weights`"), "{message}");
    }

    #[test]
    fn shards_cut_the_games_into_consecutive_parts() {
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
        for bad in ["0/2", "3/2", "1/0", "a/2", "2", "1/100001"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let parts: Vec<_> = (1..=3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap().games(10))
            .collect();
        assert_eq!(parts, vec![0..3, 3..6, 6..10]);
        assert_eq!(Shard::parse("2/8").unwrap().folder_name(), "shard-2-of-8");
    }
}
