//! The layout of an island-model run (docs/islands.md): each island's own run files in
//! `island-I/`, the exchanged files in `migrants/` and `playoff/`, and the merged files at the
//! top once the run is over.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::appends::COUNTED_FILES;
use super::cut_back::pdn_games;
use super::names::{GAMES_FILE, GAMES_PDN_FILE, TABLES_DIR, TIMINGS_FILE};
use super::rows::{header_line, SpecimenColumns};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, Links};
use checkers_engine::text::csv_line;

/// The most islands a run may have.
pub const MAX_ISLANDS: u32 = 1024;

/// The folder of the migrants' files.
pub const MIGRANTS_DIR: &str = "migrants";
/// The folder of the playoff's exchanged files: each island's finalists and games.
pub const PLAYOFF_DIR: &str = "playoff";
/// The first column of the merged files of an island-model run.
pub const ISLAND_COLUMN: &str = "island";

/// Island `index`'s run folder inside the run folder `top`.
pub fn island_dir(top: &Path, index: u32) -> PathBuf {
    top.join(format!("island-{index}"))
}

/// The migrants island `index` sends at migration `epoch` (1 for the first).
pub fn migrants_file(top: &Path, epoch: u32, index: u32) -> PathBuf {
    top.join(MIGRANTS_DIR)
        .join(format!("epoch-{epoch}"))
        .join(format!("island-{index}.json"))
}

/// Island `index`'s finalists, for the playoff of all islands.
pub fn finalists_file(top: &Path, index: u32) -> PathBuf {
    top.join(PLAYOFF_DIR)
        .join(format!("finalists-island-{index}.json"))
}

/// The results of the playoff games island `index` played.
pub fn playoff_games_file(top: &Path, index: u32) -> PathBuf {
    top.join(PLAYOFF_DIR)
        .join(format!("games-island-{index}.json"))
}

/// Whether `name` is an entry an island-model run makes in its run folder.
pub fn is_island_entry(name: &str) -> bool {
    let island = name
        .strip_prefix("island-")
        .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()));
    island || name == MIGRANTS_DIR || name == PLAYOFF_DIR
}

/// Removes the temporary files island `index` left beside its exchanged files when it was
/// killed while writing one, its fitted specimens' tables (`ids`, its block of ids) included.
/// Only island `index` writes those files, and the caller holds its lock, so every such
/// temporary is stale, whatever machine's process id it names.
pub fn remove_island_temporaries(top: &Path, index: u32, ids: Range<u64>) -> Result<()> {
    if let Ok(entries) = fs::read_dir(top.join(TABLES_DIR)) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let id = name
                .strip_prefix(".specimen-")
                .and_then(|rest| rest.split_once(".json.tmp-"))
                .and_then(|(id, _)| id.parse::<u64>().ok());
            if id.is_some_and(|id| ids.contains(&id)) {
                let path = entry.path();
                fs::remove_file(&path).map_err(|e| Error::io("remove", &path, &e))?;
            }
        }
    }
    let mut folders = vec![top.join(PLAYOFF_DIR)];
    if let Ok(epochs) = fs::read_dir(top.join(MIGRANTS_DIR)) {
        folders.extend(epochs.flatten().map(|e| e.path()));
    }
    let mine = [
        format!(".island-{index}.json.tmp-"),
        format!(".finalists-island-{index}.json.tmp-"),
        format!(".games-island-{index}.json.tmp-"),
    ];
    for folder in folders {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if mine.iter().any(|prefix| name.starts_with(prefix.as_str())) {
                let path = entry.path();
                fs::remove_file(&path).map_err(|e| Error::io("remove", &path, &e))?;
            }
        }
    }
    Ok(())
}

/// An island's appended file, never through a symbolic link.
fn read_run_file(path: &Path) -> Result<Vec<u8>> {
    input_file::read(path, Links::Refuse, None).map_err(|e| e.at(path))
}

/// Writes the merged appended files of an island-model run into `top`: each island's rows (its
/// folder holds exactly its completed rounds) behind an `island` column, ordered by round, then
/// island, so that the files do not depend on which island finished first. `timings.csv` ends
/// with the islands' playoff rows. With `pdn` (the islands wrote `games.pdn`), `games.pdn`
/// holds their games in the order of the merged `games.csv`.
pub fn merge_islands(top: &Path, count: u32, pdn: bool, columns: SpecimenColumns) -> Result<()> {
    for name in COUNTED_FILES.into_iter().chain([TIMINGS_FILE]) {
        let mut rows: Vec<(u64, u32, csv::StringRecord, &[u8])> = Vec::new();
        let mut pdn_texts = Vec::new();
        if name == GAMES_FILE && pdn {
            for index in 0..count {
                let path = island_dir(top, index).join(GAMES_PDN_FILE);
                pdn_texts.push(read_run_file(&path)?);
            }
        }
        for index in 0..count {
            let path = island_dir(top, index).join(name);
            let bytes = read_run_file(&path)?;
            let mut games = pdn_texts.get(index as usize).map(|text| pdn_games(text));
            for record in csv::ReaderBuilder::new()
                .from_reader(&bytes[..])
                .into_records()
            {
                let record = record
                    .map_err(|e| Error::failure(format!("{}: not CSV ({e})", path.display())))?;
                // The playoff's timing row (`playoff`) sorts after every round.
                let round = record
                    .get(0)
                    .and_then(|r| r.parse().ok())
                    .unwrap_or(u64::MAX);
                let game = match games.as_mut() {
                    Some(games) => games.next().ok_or_else(|| {
                        Error::failure(format!(
                            "{}: fewer games than {name} has rows",
                            island_dir(top, index).join(GAMES_PDN_FILE).display()
                        ))
                    })?,
                    None => &[],
                };
                rows.push((round, index, record, game));
            }
        }
        // Stable: an island's rows of one round keep their order.
        rows.sort_by_key(|&(round, index, _, _)| (round, index));
        let header = header_line(name, columns);
        let mut text = format!("{ISLAND_COLUMN},{header}");
        let mut games = Vec::new();
        for (_, index, record, game) in &rows {
            let mut fields = vec![index.to_string()];
            fields.extend(record.iter().map(str::to_string));
            text.push_str(&csv_line(&fields));
            games.extend_from_slice(game);
        }
        write_atomically(&top.join(name), text.as_bytes())?;
        if name == GAMES_FILE && pdn {
            write_atomically(&top.join(GAMES_PDN_FILE), &games)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_island_removes_only_its_own_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let epoch = migrants_file(dir.path(), 1, 2)
            .parent()
            .unwrap()
            .to_path_buf();
        fs::create_dir_all(&epoch).unwrap();
        fs::create_dir_all(dir.path().join(PLAYOFF_DIR)).unwrap();
        let files = [
            epoch.join(".island-2.json.tmp-77"),
            epoch.join(".island-1.json.tmp-77"),
            epoch.join("island-2.json"),
            dir.path()
                .join(PLAYOFF_DIR)
                .join(".games-island-2.json.tmp-9"),
        ];
        let tables = dir.path().join(TABLES_DIR);
        fs::create_dir_all(&tables).unwrap();
        let files = [
            files[0].clone(),
            files[1].clone(),
            files[2].clone(),
            files[3].clone(),
            tables.join(".specimen-25.json.tmp-4"),
            tables.join(".specimen-7.json.tmp-4"),
            tables.join("specimen-25.json"),
        ];
        for file in &files {
            fs::write(file, "x").unwrap();
        }
        // Island 2's ids are 20 to 29.
        remove_island_temporaries(dir.path(), 2, 20..30).unwrap();
        let left: Vec<bool> = files.iter().map(|f| f.exists()).collect();
        assert_eq!(left, [false, true, true, false, false, true, true]);
        assert!(is_island_entry("island-12") && !is_island_entry("island-x"));
    }
}
