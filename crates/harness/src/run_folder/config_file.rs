//! The run's resolved config as its folder holds it (`config.toml`): what marks a folder as a
//! run's, the run's identity, and the keys the readers of a finished run take from it.

use std::path::Path;

use super::names::{CHECKPOINT_FILE, CONFIG_FILE};
use checkers_engine::egdb::MAX_DATABASE_PIECES;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, Links, ReadError, CONFIG_CAP};

/// How `config.toml` written by this program begins (see `Config::to_toml`).
const CONFIG_MARK: &str = "# The resolved config of run ";

/// The keys of a run's `config.toml` that may change after the run started (while its playoff
/// has not: see `run/config/edits.rs`, which decides when): they shape no round already played.
pub(crate) const EDITABLE_KEYS: &[&str] = &["tournament.playoff_openings"];

/// The identity of the run whose resolved config is `config` (its `config.toml`, which holds
/// the seed): a hash of its keys and values other than [`EDITABLE_KEYS`], so that comments,
/// spacing and the keys that may still change do not change it. Two runs with the same
/// identity play the same games. Text that is not TOML is hashed as it is.
pub(crate) fn run_identity(config: &str) -> u64 {
    let canonical = match config.parse::<toml::Table>() {
        Ok(mut table) => {
            for key in EDITABLE_KEYS {
                let mut parts: Vec<&str> = key.split('.').collect();
                let last = parts.pop().expect("a key has a name");
                let mut at = Some(&mut table);
                for part in parts {
                    at = at
                        .and_then(|t| t.get_mut(part))
                        .and_then(|v| v.as_table_mut());
                }
                if let Some(t) = at {
                    t.remove(last);
                }
            }
            table.to_string()
        }
        Err(_) => config.to_string(),
    };
    let hex = checkers_engine::text::fingerprint(canonical.as_bytes());
    u64::from_str_radix(&hex, 16).expect("a fingerprint is 16 hexadecimal digits")
}

/// The run identity of the run folder `dir`, from its `config.toml` (an island's folder: the
/// run folder above it): `None` when there is none to read.
pub(crate) fn run_identity_of(dir: &Path) -> Option<u64> {
    let text =
        input_file::read_text(&dir.join(CONFIG_FILE), Links::Follow, Some(CONFIG_CAP)).ok()?;
    Some(run_identity(&text))
}

/// Whether `dir` is a run folder: it holds `checkpoint.json`, or a `config.toml` written by
/// this program (the run stopped before its first checkpoint).
pub fn holds_run(dir: &Path) -> bool {
    if dir.join(CHECKPOINT_FILE).exists() {
        return true;
    }
    let mut start = [0u8; CONFIG_MARK.len()];
    input_file::open(&dir.join(CONFIG_FILE), Links::Follow)
        .ok()
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut start).ok())
        .is_some_and(|()| start == CONFIG_MARK.as_bytes())
}

/// The run's resolved config (`config.toml`) as a TOML table; `None` when the folder has none
/// (a run folder from before its first write, or a hand-made one).
pub fn read_config_table(run_dir: &Path) -> Result<Option<toml::Table>> {
    let path = run_dir.join(CONFIG_FILE);
    let text = match input_file::read_text(&path, Links::Follow, Some(CONFIG_CAP)) {
        Ok(text) => text,
        Err(ReadError::NotFound) => return Ok(None),
        Err(e) => return Err(e.at(&path)),
    };
    let text = checkers_engine::text::strip_bom(&text);
    text.parse().map(Some).map_err(|e: toml::de::Error| {
        Error::input(format!(
            "{}: not TOML ({})",
            path.display(),
            e.message().trim_end()
        ))
    })
}

/// `[search] database_pieces` of a run's resolved config (`table`): the endgame database its
/// games were played with (the config's default, 5, when the key is missing), or what is wrong
/// with the key.
pub fn database_pieces_of(table: &toml::Table) -> std::result::Result<u32, String> {
    let max = i64::from(MAX_DATABASE_PIECES);
    match table.get("search").and_then(|s| s.get("database_pieces")) {
        None => Ok(MAX_DATABASE_PIECES),
        Some(toml::Value::Integer(n)) if (0..=max).contains(n) => Ok(*n as u32),
        Some(_) => Err(format!(
            "`search.database_pieces` must be an integer from 0 to {max}"
        )),
    }
}

/// The endgame database the run in `run_dir` played with, from its `config.toml`; `None` when
/// the folder has no config.
pub fn run_database_pieces(run_dir: &Path) -> Result<Option<u32>> {
    let Some(table) = read_config_table(run_dir)? else {
        return Ok(None);
    };
    database_pieces_of(&table)
        .map(Some)
        .map_err(|msg| Error::input(format!("{}: {msg}", run_dir.join(CONFIG_FILE).display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<impl std::fmt::Debug>) -> String {
        match result {
            Err(Error::Input(message)) => message,
            other => panic!("expected bad input, got {other:?}"),
        }
    }

    #[test]
    fn the_config_table_is_none_without_a_config_and_bad_toml_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_config_table(dir.path()).unwrap().is_none());
        std::fs::write(dir.path().join(CONFIG_FILE), "name = \"r\"\n").unwrap();
        let table = read_config_table(dir.path()).unwrap().unwrap();
        assert_eq!(table["name"].as_str(), Some("r"));
        std::fs::write(dir.path().join(CONFIG_FILE), "name = \n").unwrap();
        let bad = message(read_config_table(dir.path()));
        assert!(bad.contains("config.toml: not TOML"), "{bad}");
    }
}
