//! A `datagen` data set's folder: its config and players at the top, one folder a shard
//! (`shard-K-of-N/`, each with its positions store).

use std::path::{Path, PathBuf};

use checkers_engine::error::{Error, Result};

use super::names::POSITIONS_FILE;

/// The data set's config in its folder, as resolved (every shard must find the same).
pub const DATAGEN_CONFIG_FILE: &str = "datagen.toml";

/// The weights that play, as played (every shard must find the same).
pub const DATAGEN_WEIGHTS_FILE: &str = "weights.json";

/// The folder of shard `k` (1-based) of `n`.
pub fn shard_dir_name(k: u32, n: u32) -> String {
    format!("shard-{k}-of-{n}")
}

/// The `(k, n)` a shard folder's name says, written as [`shard_dir_name`] writes it.
pub fn parse_shard_dir_name(name: &str) -> Option<(u32, u32)> {
    let (k, n) = name.strip_prefix("shard-")?.split_once("-of-")?;
    let (k, n) = (k.parse().ok()?, n.parse().ok()?);
    (1..=n)
        .contains(&k)
        .then_some(())
        .filter(|()| shard_dir_name(k, n) == name)?;
    Some((k, n))
}

/// The positions stores of the data set in `dir`, in shard order (the order one process would
/// have written them in), or `None` when `dir` is not a data set. The shards not played yet
/// are left out; shards of two counts (`shard-1-of-2` beside `shard-1-of-4`) are refused.
pub fn data_set_stores(dir: &Path) -> Result<Option<Vec<PathBuf>>> {
    if !dir.join(DATAGEN_CONFIG_FILE).is_file() {
        return Ok(None);
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::input(format!("{}: cannot read the folder ({e})", dir.display())))?;
    let mut shards: Vec<(u32, u32, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let (k, n) = parse_shard_dir_name(entry.file_name().to_str()?)?;
            let store = entry.path().join(POSITIONS_FILE);
            store.is_file().then_some((n, k, store))
        })
        .collect();
    shards.sort();
    if let (Some(first), Some(last)) = (shards.first(), shards.last()) {
        if first.0 != last.0 {
            return Err(Error::input(format!(
                "{}: a data set cut two ways (shard-{}-of-{} beside shard-{}-of-{}); keep the \
                 shards of one count",
                dir.display(),
                first.1,
                first.0,
                last.1,
                last.0
            )));
        }
    }
    if shards.is_empty() {
        return Err(Error::input(format!(
            "{}: a data set with no shard played yet (no shard-K-of-N/{POSITIONS_FILE})",
            dir.display()
        )));
    }
    Ok(Some(
        shards.into_iter().map(|(_, _, store)| store).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_folders_are_named_one_way() {
        assert_eq!(shard_dir_name(2, 8), "shard-2-of-8");
        assert_eq!(parse_shard_dir_name("shard-2-of-8"), Some((2, 8)));
        for bad in [
            "shard-02-of-8",
            "shard-9-of-8",
            "shard-0-of-8",
            "shard-1-of-x",
            "shard-1",
        ] {
            assert_eq!(parse_shard_dir_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_data_set_reads_its_shards_in_order() {
        let dir = tempfile::tempdir().unwrap();
        assert!(data_set_stores(dir.path()).unwrap().is_none());
        std::fs::write(dir.path().join(DATAGEN_CONFIG_FILE), "").unwrap();
        assert!(data_set_stores(dir.path()).is_err());
        for k in [10, 2, 1] {
            let shard = dir.path().join(shard_dir_name(k, 12));
            std::fs::create_dir(&shard).unwrap();
            std::fs::write(shard.join(POSITIONS_FILE), "").unwrap();
        }
        std::fs::create_dir(dir.path().join(shard_dir_name(3, 12))).unwrap();
        let names: Vec<String> = data_set_stores(dir.path())
            .unwrap()
            .unwrap()
            .iter()
            .map(|p| {
                p.parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into()
            })
            .collect();
        assert_eq!(names, ["shard-1-of-12", "shard-2-of-12", "shard-10-of-12"]);
        let other = dir.path().join(shard_dir_name(1, 3));
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join(POSITIONS_FILE), "").unwrap();
        let message = data_set_stores(dir.path()).unwrap_err().to_string();
        assert!(message.contains("cut two ways"), "{message}");
    }
}
