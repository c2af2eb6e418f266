//! What may change in a run folder's `config.toml` after the run started, and what `resume`
//! says when the config it finds cannot go on.
//!
//! A resumed run must be the run its files record: every key that shaped a round already
//! played is frozen. A key that only shapes what has not been played yet may change, because
//! the run then goes on exactly as a run started with the new value would have; today that is
//! `tournament.playoff_openings`, until the playoff starts. This is also the way out for a run
//! folder written by an older version that accepted a value this one refuses.

use std::path::Path;

use super::messages::ConfigError;
use crate::run_folder::{
    is_island_entry, playoff_games_file, CHECKPOINT_FILE, CONFIG_FILE, EDITABLE_KEYS,
};
use checkers_engine::error::{Error, Result};

/// The keys that may change while the playoff has not started: they are read by the playoff
/// alone.
/// (Declared beside the run's identity, which leaves them out.)
const BEFORE_PLAYOFF: &[&str] = EDITABLE_KEYS;

/// The keys that may change, quoted for a message.
fn may_change() -> String {
    let keys: Vec<String> = BEFORE_PLAYOFF.iter().map(|k| format!("`{k}`")).collect();
    format!("only {} may change", keys.join(", "))
}

/// Whether `key` is one that may change before the playoff.
fn is_editable(key: &str) -> bool {
    BEFORE_PLAYOFF.contains(&key)
}

/// The notes for a checkpoint of config `old` taken on under config `new` (both resolved
/// TOML texts), or the refusal: only [`BEFORE_PLAYOFF`] keys may differ, and only while
/// `playoff_started` is false. `checkpoint` names the file `old` came from.
pub(crate) fn accept_edits(
    old: &str,
    new: &str,
    playoff_started: bool,
    checkpoint: &Path,
) -> Result<Vec<String>> {
    let table = |text: &str| text.parse::<toml::Table>().ok();
    let (Some(old_table), Some(new_table)) = (table(old), table(new)) else {
        return Err(Error::input(format!(
            "{}: the config it saved is not TOML; the checkpoint was damaged, so the run cannot \
             be resumed (start again with `tune --force`)",
            checkpoint.display()
        )));
    };
    let mut changed = Vec::new();
    diff("", &old_table, &new_table, &mut changed);
    let frozen: Vec<&String> = changed
        .iter()
        .filter(|key| playoff_started || !is_editable(key))
        .collect();
    if !frozen.is_empty() {
        let keys: Vec<String> = frozen.iter().map(|k| format!("`{k}`")).collect();
        let when = if playoff_started {
            "nothing may change once the playoff has started".to_string()
        } else {
            format!("{} before the playoff", may_change())
        };
        return Err(Error::input(format!(
            "the config was changed since the run started ({}); {when}: put back the original \
             (it is saved in {CHECKPOINT_FILE}) or start a new run",
            keys.join(", ")
        )));
    }
    Ok(changed
        .iter()
        .map(|key| {
            let value = |t: &toml::Table| lookup(t, key).map_or("unset".into(), |v| v.to_string());
            format!(
                "`{key}` changed from {} to {} since the last checkpoint: the rounds played are \
                 unaffected, the playoff uses the new value",
                value(&old_table),
                value(&new_table)
            )
        })
        .collect())
}

/// Whether the playoff of the run in `top` has started: its checkpoint (an island's, for an
/// island) records it (`recorded`), or an island has saved its share of the games.
pub(crate) fn playoff_started(recorded: bool, top: &Path, islands: u32) -> bool {
    recorded || (islands > 1 && (0..islands).any(|index| playoff_games_file(top, index).exists()))
}

/// The error of `resume` when the run folder `dir`'s `config.toml` does not pass the check:
/// the check's own message, then what to do. A key that may change, or a mistake of no one
/// key, is the user's to edit; any other key cannot change after the run started, so the run
/// cannot go on with it unless it was changed since (a run started by an older version that
/// accepted the value is over).
pub(crate) fn refused_config(dir: &Path, err: &ConfigError) -> Error {
    let path = dir.join(CONFIG_FILE);
    let started = run_started(dir);
    let advice = match &err.key {
        _ if !started => format!(
            "edit {} (no round is recorded yet, so any key may change) and run resume again",
            path.display()
        ),
        Some(key) if !is_editable(key) => format!(
            "`{key}` cannot change after a run started ({}): if it was edited, put back the \
             value the run started with (the config is saved in {CHECKPOINT_FILE}) and run \
             resume again; otherwise this run cannot go on: start a new one with a config this \
             version accepts",
            may_change()
        ),
        _ => format!(
            "edit {} ({} while the playoff has not started) and run resume again",
            path.display(),
            may_change()
        ),
    };
    Error::input(format!("{err}; {advice}"))
}

/// Whether the run in `dir` has recorded a round: it has a checkpoint, or an island has.
fn run_started(dir: &Path) -> bool {
    if dir.join(CHECKPOINT_FILE).exists() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        name.starts_with("island-")
            && is_island_entry(&name)
            && entry.path().join(CHECKPOINT_FILE).exists()
    })
}

/// Appends to `out` the dotted keys below `prefix` whose values differ between `old` and
/// `new` (a key in one table only counts as changed).
fn diff(prefix: &str, old: &toml::Table, new: &toml::Table, out: &mut Vec<String>) {
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match (old.get(key), new.get(key)) {
            (Some(toml::Value::Table(a)), Some(toml::Value::Table(b))) => diff(&path, a, b, out),
            (a, b) if a == b => {}
            _ => out.push(path),
        }
    }
}

/// The value at dotted `key` of `table`.
fn lookup<'t>(table: &'t toml::Table, key: &str) -> Option<&'t toml::Value> {
    let (first, rest) = key.split_once('.').unwrap_or((key, ""));
    let value = table.get(first)?;
    match (rest, value) {
        ("", value) => Some(value),
        (rest, toml::Value::Table(inner)) => lookup(inner, rest),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "name = \"r\"\nseed = 1\n[tournament]\nrounds = 3\n\
                       playoff_openings = 4294967295\n";

    fn message(result: Result<Vec<String>>) -> String {
        match result {
            Err(Error::Input(message)) => message,
            other => panic!("expected bad input, got {other:?}"),
        }
    }

    #[test]
    fn playoff_openings_may_change_before_the_playoff_and_nothing_else() {
        let place = Path::new("run/checkpoint.json");
        let new = OLD.replace("4294967295", "8");
        let notes = accept_edits(OLD, &new, false, place).unwrap();
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("`tournament.playoff_openings` changed from 4294967295 to 8"),
            "{notes:?}"
        );
        assert_eq!(
            accept_edits(OLD, OLD, false, place).unwrap(),
            Vec::<String>::new()
        );

        let started = message(accept_edits(OLD, &new, true, place));
        assert!(
            started.contains("once the playoff has started"),
            "{started}"
        );
        for (changed, key) in [
            (new.replace("seed = 1", "seed = 2"), "`seed`"),
            (
                new.replace("rounds = 3", "rounds = 4"),
                "`tournament.rounds`",
            ),
            (format!("{new}[search]\nmin_depth = 2\n"), "`search`"),
            (
                new.replace("[tournament]\n", "[tournament]\nmax_plies = 9\n"),
                "max_plies",
            ),
        ] {
            let refused = message(accept_edits(OLD, &changed, false, place));
            assert!(refused.contains(key), "{refused}");
            assert!(refused.contains("only `tournament.playoff_openings` may change"));
            assert!(
                refused.contains("changed since the run started"),
                "{refused}"
            );
        }
        let damaged = message(accept_edits("name = ", &new, false, place));
        assert!(damaged.contains("run/checkpoint.json"), "{damaged}");
    }

    #[test]
    fn differences_are_dotted_keys_in_order() {
        let a: toml::Table = "a = 1\n[t]\nx = 1\ny = [1, 2]\n[u]\nz = 1\n"
            .parse()
            .unwrap();
        let b: toml::Table = "a = 1\nb = 2\n[t]\nx = 2\ny = [1, 2]\n".parse().unwrap();
        let mut out = Vec::new();
        diff("", &a, &b, &mut out);
        assert_eq!(out, ["b", "t.x", "u"]);
        assert_eq!(lookup(&a, "t.x"), Some(&toml::Value::Integer(1)));
        assert_eq!(lookup(&a, "t.w"), None);
        assert_eq!(lookup(&a, "a.b"), None);
    }
}
