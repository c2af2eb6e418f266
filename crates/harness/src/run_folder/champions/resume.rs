//! A gated run's record of its champions on resume: checked against the checkpoint before the
//! run plays or changes anything, then cut back to it.

use std::path::Path;

use super::index::{check_champion_file, kept_per_round, read_champions_file, ChampionsIndex};
use super::record::GatedChampion;
use crate::run_folder::{
    champion_path, champion_round, FileProof, BEST_FILE, CHAMPIONS_DIR, CHAMPIONS_FILE,
};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::text::fingerprint;

/// Cuts the gate's files back to a checkpoint after `completed` rounds whose champion is
/// `champion`: the rows of `champions.csv` after the length the checkpoint recorded
/// (`recorded`; by their rounds for a checkpoint without one) and the champions kept for later
/// rounds (a killed run's, which the resumed run plays again) go, temporaries a killed write
/// left go, and `best.json` is the checkpoint's champion again. The file was checked first
/// ([`check_champions`]).
pub fn cut_champions(
    dir: &Path,
    completed: u32,
    champion: Option<&GatedChampion>,
    recorded: Option<&FileProof>,
) -> Result<()> {
    let folder = dir.join(CHAMPIONS_DIR);
    if let Ok(entries) = std::fs::read_dir(&folder) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let stale = match champion_round(&name) {
                Some(r) => r > completed,
                None => name.starts_with('.'),
            };
            if stale {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| Error::io("remove", &path, &e))?;
            }
        }
    }
    let path = dir.join(CHAMPIONS_FILE);
    let text = read_champions_file(&path)?;
    let kept = recorded_part(&text, completed, recorded);
    if kept.len() != text.len() {
        write_atomically(&path, kept)?;
    }
    let best = dir.join(BEST_FILE);
    match champion {
        Some(c) => {
            let kept = champion_path(dir, c.since);
            let bytes = std::fs::read(&kept).map_err(|e| Error::io("read", &kept, &e))?;
            write_atomically(&best, &bytes)
        }
        None => match std::fs::remove_file(&best) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io("remove", &best, &e))
            }
            _ => Ok(()),
        },
    }
}

/// The part of `champions.csv` (`bytes`) a checkpoint after `completed` rounds counts: up to
/// its recorded length, or, for a checkpoint that recorded none, the header and the whole rows
/// of rounds up to `completed`. Whatever follows is a killed round's.
fn recorded_part<'b>(bytes: &'b [u8], completed: u32, recorded: Option<&FileProof>) -> &'b [u8] {
    if let Some(proof) = recorded {
        return &bytes[..(proof.bytes as usize).min(bytes.len())];
    }
    let mut end = 0;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let round = std::str::from_utf8(line)
            .ok()
            .and_then(|l| l.split(',').next())
            .and_then(|r| r.parse::<u32>().ok());
        match round {
            _ if i == 0 => {}
            Some(r) if r <= completed && line.ends_with(b"\n") => {}
            _ => break,
        }
        end += line.len();
    }
    &bytes[..end]
}

/// Checks a gated run's record of its gates against its checkpoint after `completed` rounds
/// (`champion`, `recorded`), before the run plays or changes anything: `champions.csv` holds
/// at least the bytes the checkpoint recorded, and exactly those (their fingerprint), its rows
/// follow from each other ([`ChampionsIndex`]) and are of the rounds played, the champion they
/// crown last is the checkpoint's, and every champion they crown has its file in `champions/`,
/// the weights of that specimen of run `run`, and no other round's file is there. Anything
/// else is bad input naming the file and the line: the run would go on from another record
/// than its own.
pub fn check_champions(
    dir: &Path,
    run: &str,
    completed: u32,
    champion: Option<&GatedChampion>,
    recorded: Option<&FileProof>,
) -> Result<()> {
    let path = dir.join(CHAMPIONS_FILE);
    let cannot = "the run cannot be resumed with it (put back the run's own file, or start \
                  again with `tune --force`)";
    let refuse = |problem: String| Error::input(format!("{problem}; {cannot}"));
    let bytes = read_champions_file(&path)?;
    if let Some(proof) = recorded {
        if (bytes.len() as u64) < proof.bytes {
            return Err(refuse(format!(
                "{}: {} bytes, but the checkpoint recorded {}: rows were cut off since",
                path.display(),
                bytes.len(),
                proof.bytes
            )));
        }
    }
    let part = recorded_part(&bytes, completed, recorded);
    let index = ChampionsIndex::from_bytes(&path, part).map_err(|e| refuse(e.to_string()))?;
    if let Some(row) = index.rows.iter().find(|row| row.round > completed) {
        return Err(refuse(format!(
            "{} line {}: a gate after round {}, but the checkpoint counts {completed} \
             completed round(s)",
            path.display(),
            row.line,
            row.round
        )));
    }
    if let Some(proof) = recorded {
        if fingerprint(part) != proof.fingerprint {
            let lines = part.iter().filter(|&&b| b == b'\n').count();
            return Err(refuse(format!(
                "{}: lines 1 to {lines} are not the ones the run wrote (their fingerprint is \
                 not the checkpoint's): the file was edited, or is another run's",
                path.display()
            )));
        }
    }
    let crowned = index.crowned()?;
    let last = crowned.last();
    let checkpoint = |c: &GatedChampion| {
        format!(
            "the checkpoint's champion is specimen {} since round {} (cumulative Elo {:.1})",
            c.specimen.id, c.since, c.elo
        )
    };
    let agrees = match (last, champion) {
        (None, None) => Ok(()),
        (Some(l), Some(c))
            if l.id == c.specimen.id && l.since == c.since && (l.elo - c.elo).abs() < 1e-6 =>
        {
            Ok(())
        }
        (Some(l), c) => Err(format!(
            "{} line {}: crowns specimen {} after round {} (cumulative Elo {:.1}), but {}",
            path.display(),
            l.line,
            l.id,
            l.since,
            l.elo,
            c.map_or("the checkpoint has no champion".to_string(), checkpoint)
        )),
        (None, Some(c)) => Err(format!(
            "{}: crowns no champion, but {}",
            path.display(),
            checkpoint(c)
        )),
    };
    agrees.map_err(refuse)?;
    let kept = kept_per_round(&crowned);
    for c in &kept {
        let file =
            check_champion_file(dir, &index.path, run, c).map_err(|e| refuse(e.to_string()))?;
        // The champion's own weights are in the checkpoint: its file must hold them.
        let current = champion.filter(|g| g.since == c.since);
        if current.is_some_and(|g| g.specimen.weights != file.weights) {
            return Err(refuse(format!(
                "{}: not the weights of the checkpoint's champion, specimen {}",
                champion_path(dir, c.since).display(),
                c.id
            )));
        }
    }
    let folder = dir.join(CHAMPIONS_DIR);
    if let Ok(entries) = std::fs::read_dir(&folder) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(r) = name.to_str().and_then(champion_round) else {
                continue;
            };
            if r <= completed && !kept.iter().any(|c| c.since == r) {
                return Err(refuse(format!(
                    "{}: {CHAMPIONS_FILE} crowns no champion after round {r}, so this file is \
                     not the run's",
                    entry.path().display()
                )));
            }
        }
    }
    Ok(())
}
