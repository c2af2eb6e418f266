//! Resuming from a checkpoint: the counted files checked against the lengths it recorded, and
//! cut back to them (with `timings.csv` cut by rows), so that a killed run replays its last
//! round onto exactly the files it had.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::path::Path;

use super::appends::{FileLengths, COUNTED_FILES};
use super::csv_table::{line_of, CsvTable};
use super::names::{
    CHECKPOINT_FILE, GAMES_FILE, GAMES_PDN_FILE, ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE,
};
use super::rows::{header_line, SpecimenColumns};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::EvaluatorKind;
use checkers_engine::input_file::{self, Links, ReadError};

/// What the counted files hold up to the lengths a checkpoint recorded, once checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedRounds {
    /// `survivors` of the last recorded round in `rounds.csv`.
    pub last_survivors: u64,
    /// `newcomers` of the last recorded round in `rounds.csv`.
    pub last_newcomers: u64,
}

/// Checks the counted files against the lengths a checkpoint recorded after `completed_rounds`
/// rounds, without changing anything: each file exists, begins with its header and is at least
/// as long as recorded; each length ends a row; up to it, `rounds.csv` holds exactly rounds 1 to
/// `completed_rounds` in order, and `games.csv` and `specimens.csv` hold, round by round, as
/// many rows as `rounds.csv` counts games and survivors; with `pdn`, `games.pdn` holds up to its
/// recorded length whole games, as many as `games.csv` rows. Anything else means the folder or
/// the checkpoint was damaged: the run cannot continue identically (bad input).
pub fn check_recorded(
    dir: &Path,
    lengths: &FileLengths,
    completed_rounds: u32,
    pdn: bool,
    columns: SpecimenColumns,
) -> Result<RecordedRounds> {
    let checkpoint = dir.join(CHECKPOINT_FILE);
    let damaged = |problem: String| {
        Error::input(format!(
            "{}: {problem}; the checkpoint does not match the run's files, so the run cannot be \
             resumed identically (start again with `tune --force`)",
            checkpoint.display()
        ))
    };
    let mut tables: BTreeMap<&str, CsvTable> = BTreeMap::new();
    for name in COUNTED_FILES {
        let (bytes, want) = read_recorded(dir, name, lengths, &damaged)?;
        let header = header_line(name, columns);
        if !bytes.starts_with(header.as_bytes()) {
            return Err(Error::input(format!(
                "{}: line 1 is not the header of {name}; the file was changed, so the run \
                 cannot be resumed (start again with `tune --force`)",
                dir.join(name).display()
            )));
        }
        let want = want as usize;
        if want < header.len() || bytes[want - 1] != b'\n' {
            return Err(damaged(format!(
                "the recorded length of {name}, {want} bytes, does not end a row of it"
            )));
        }
        let table = CsvTable::from_bytes(Path::new(name), &bytes[..want])
            .map_err(|e| damaged(format!("{name} up to the recorded length: {e}")))?;
        tables.insert(name, table);
    }
    // A field the run wrote as a whole number; anything else is damage.
    let count = |table: &CsvTable, row: &csv::StringRecord, column: &str| -> Result<u64> {
        table
            .column(column)
            .and_then(|column| table.parse(row, &column, "a whole number"))
            .map_err(|e| damaged(e.to_string()))
    };

    // rounds.csv: rounds 1..=completed_rounds, in order.
    let rounds = &tables[ROUNDS_FILE];
    if rounds.rows().len() != completed_rounds as usize {
        return Err(damaged(format!(
            "it records {completed_rounds} completed round(s), but {ROUNDS_FILE} holds {} \
             up to its recorded length",
            rounds.rows().len()
        )));
    }
    let mut expected: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let mut last = RecordedRounds {
        last_survivors: 0,
        last_newcomers: 0,
    };
    for (k, row) in rounds.rows().iter().enumerate() {
        if count(rounds, row, "round")? != k as u64 + 1 {
            return Err(damaged(format!(
                "{ROUNDS_FILE} line {} is not round {}",
                k + 2,
                k + 1
            )));
        }
        let games = count(rounds, row, "games")?;
        expected.entry(GAMES_FILE).or_default().push(games);
        last.last_survivors = count(rounds, row, "survivors")?;
        last.last_newcomers = count(rounds, row, "newcomers")?;
        expected
            .entry(SPECIMENS_FILE)
            .or_default()
            .push(last.last_survivors);
    }
    // games.csv and specimens.csv: the rows of each round, as rounds.csv counts them.
    for name in [GAMES_FILE, SPECIMENS_FILE] {
        let table = &tables[name];
        let mut counts = vec![0u64; completed_rounds as usize];
        for row in table.rows() {
            let round = count(table, row, "round")?;
            if round == 0 || round > u64::from(completed_rounds) {
                return Err(damaged(format!(
                    "{name} line {} belongs to round {round}, after the {completed_rounds} \
                     recorded round(s)",
                    line_of(row)
                )));
            }
            counts[round as usize - 1] += 1;
        }
        let wanted = expected.remove(name).unwrap_or_default();
        if let Some(k) = (0..counts.len()).find(|&k| counts[k] != wanted[k]) {
            return Err(damaged(format!(
                "{name} holds {} row(s) of round {} up to its recorded length, but {ROUNDS_FILE} \
                 counts {}",
                counts[k],
                k + 1,
                wanted[k]
            )));
        }
    }
    if pdn {
        check_recorded_pdn(dir, lengths, tables[GAMES_FILE].rows().len(), &damaged)?;
    }
    Ok(last)
}

/// Cuts each counted file back to the length a checkpoint recorded, dropping the rows of a
/// round that was in progress (complete or half-written), and `timings.csv` to its header and
/// `completed_rounds` rows. Everything is checked first ([`check_recorded`]), so a damaged
/// folder is refused before any file is changed.
pub fn cut_recorded(
    dir: &Path,
    lengths: &FileLengths,
    completed_rounds: u32,
    pdn: bool,
    columns: SpecimenColumns,
) -> Result<()> {
    check_recorded(dir, lengths, completed_rounds, pdn, columns)?;
    let pdn_file = pdn.then_some(GAMES_PDN_FILE);
    for name in COUNTED_FILES.into_iter().chain(pdn_file) {
        let path = dir.join(name);
        let want = lengths[name];
        let have = fs::metadata(&path)
            .map_err(|e| Error::io("read", &path, &e))?
            .len();
        if have > want {
            let file = input_file::no_links(OpenOptions::new().write(true))
                .open(&path)
                .map_err(|e| Error::io("open", &path, &e))?;
            file.set_len(want)
                .map_err(|e| Error::io("truncate", &path, &e))?;
            file.sync_all()
                .map_err(|e| Error::io("truncate", &path, &e))?;
        }
    }
    cut_timings(dir, completed_rounds)
}

/// The counted file `name` and the length the checkpoint recorded for it, once it is known to
/// be at least that long.
fn read_recorded(
    dir: &Path,
    name: &str,
    lengths: &FileLengths,
    damaged: &dyn Fn(String) -> Error,
) -> Result<(Vec<u8>, u64)> {
    let path = dir.join(name);
    let Some(&want) = lengths.get(name) else {
        return Err(damaged(format!("no length recorded for {name}")));
    };
    let bytes = match input_file::read(&path, Links::Refuse, None) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => {
            return Err(Error::input(format!(
                "{}: missing; the run folder is incomplete, so the run cannot be resumed \
                 (start again with `tune --force`)",
                path.display()
            )))
        }
        Err(e) => return Err(e.at(&path)),
    };
    let have = bytes.len() as u64;
    if have < want {
        return Err(Error::input(format!(
            "{}: {have} bytes, but the checkpoint recorded {want}; the file was cut short \
             since, so the run cannot be resumed (start again with `tune --force`)",
            path.display()
        )));
    }
    Ok((bytes, want))
}

/// Checks `games.pdn` against its recorded length: the file is at least that long, and up to it
/// holds `games` whole games (each ends with a blank line).
fn check_recorded_pdn(
    dir: &Path,
    lengths: &FileLengths,
    games: usize,
    damaged: &dyn Fn(String) -> Error,
) -> Result<()> {
    let (bytes, want) = read_recorded(dir, GAMES_PDN_FILE, lengths, damaged)?;
    let recorded = &bytes[..want as usize];
    if !recorded.is_empty() && !recorded.ends_with(b"\n\n") {
        return Err(damaged(format!(
            "the recorded length of {GAMES_PDN_FILE}, {want} bytes, does not end a game of it"
        )));
    }
    let held = pdn_games(recorded).count();
    if held != games {
        return Err(damaged(format!(
            "{GAMES_PDN_FILE} holds {held} game(s) up to its recorded length, but {GAMES_FILE} \
             holds {games} row(s)"
        )));
    }
    Ok(())
}

/// The games of a `games.pdn` as written by a run: each from its `[Event` line up to and
/// including the blank line after its move text.
pub(super) fn pdn_games(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        // Tags, a blank line, the move text, a blank line: the second blank line ends it.
        let end = rest
            .windows(2)
            .enumerate()
            .filter(|(_, pair)| pair == b"\n\n")
            .nth(1)
            .map_or(rest.len(), |(at, _)| at + 2);
        let (game, tail) = rest.split_at(end);
        rest = tail;
        Some(game)
    })
}

/// Keeps the header and the first `rounds` complete rows of `timings.csv` (fewer if fewer were
/// written: it only informs). A missing file is started again.
fn cut_timings(dir: &Path, rounds: u32) -> Result<()> {
    let path = dir.join(TIMINGS_FILE);
    let bytes = input_file::read_existing(&path, Links::Refuse, None)?.unwrap_or_default();
    let mut keep = 0;
    for (lines, end) in bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(at, _)| at + 1)
        .enumerate()
    {
        if lines > rounds as usize {
            break;
        }
        keep = end;
    }
    let text = if keep == 0 {
        header_line(TIMINGS_FILE, EvaluatorKind::Ten.into()).into_bytes()
    } else {
        bytes[..keep].to_vec()
    };
    if text != bytes {
        write_atomically(&path, &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_folder::appends::{append, append_counted, start_files};

    #[test]
    fn cut_drops_extra_bytes_and_refuses_short_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut lengths = start_files(dir.path(), true, EvaluatorKind::Ten.into()).unwrap();
        assert!(!lengths.contains_key(TIMINGS_FILE));
        assert_eq!(lengths[GAMES_PDN_FILE], 0);
        let before = lengths.clone();
        append_counted(dir.path(), ROUNDS_FILE, "1,2,3\n", &mut lengths).unwrap();
        assert_eq!(lengths[ROUNDS_FILE], before[ROUNDS_FILE] + 6);
        let rounds = dir.path().join(ROUNDS_FILE);
        let text = fs::read_to_string(&rounds).unwrap();
        assert!(text.starts_with("round,population,"));
        assert!(text.ends_with("\n1,2,3\n"));
        append_counted(
            dir.path(),
            GAMES_PDN_FILE,
            "[Event \"x\"]\n\n*\n\n",
            &mut lengths,
        )
        .unwrap();
        cut_recorded(dir.path(), &before, 0, true, EvaluatorKind::Ten.into()).unwrap();
        assert_eq!(fs::metadata(&rounds).unwrap().len(), before[ROUNDS_FILE]);
        assert_eq!(
            fs::metadata(dir.path().join(GAMES_PDN_FILE)).unwrap().len(),
            0
        );
        let mut longer = before.clone();
        *longer.get_mut(GAMES_FILE).unwrap() += 1;
        let err =
            cut_recorded(dir.path(), &longer, 0, true, EvaluatorKind::Ten.into()).unwrap_err();
        assert!(err.to_string().contains("games.csv"), "{err}");
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn recorded_pdn_games_must_be_whole_and_match_the_csv_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut lengths = start_files(dir.path(), true, EvaluatorKind::Ten.into()).unwrap();
        let game = "[Event \"x\"]\n[Round \"1\"]\n\n1. 9-13 *\n\n";
        append_counted(
            dir.path(),
            GAMES_PDN_FILE,
            &format!("{game}{game}"),
            &mut lengths,
        )
        .unwrap();
        let bytes = fs::read(dir.path().join(GAMES_PDN_FILE)).unwrap();
        let games: Vec<&[u8]> = pdn_games(&bytes).collect();
        assert_eq!(games, [game.as_bytes(), game.as_bytes()]);
        // Two games against no games.csv row.
        let err =
            check_recorded(dir.path(), &lengths, 0, true, EvaluatorKind::Ten.into()).unwrap_err();
        assert!(err.to_string().contains("holds 2 game(s)"), "{err}");
        // A length inside a game.
        *lengths.get_mut(GAMES_PDN_FILE).unwrap() -= 3;
        let err =
            check_recorded(dir.path(), &lengths, 0, true, EvaluatorKind::Ten.into()).unwrap_err();
        assert!(err.to_string().contains("does not end a game"), "{err}");
        // Asked for, but not recorded.
        lengths.remove(GAMES_PDN_FILE);
        let err =
            check_recorded(dir.path(), &lengths, 0, true, EvaluatorKind::Ten.into()).unwrap_err();
        assert!(
            err.to_string().contains("no length recorded for games.pdn"),
            "{err}"
        );
        assert!(check_recorded(dir.path(), &lengths, 0, false, EvaluatorKind::Ten.into()).is_ok());
    }

    #[test]
    fn timings_are_cut_by_rows() {
        let dir = tempfile::tempdir().unwrap();
        start_files(dir.path(), false, EvaluatorKind::Ten.into()).unwrap();
        let path = dir.path().join(TIMINGS_FILE);
        let header = fs::read_to_string(&path).unwrap();
        append(
            dir.path(),
            TIMINGS_FILE,
            "1,0.5,3,6.00\n2,0.25,3,12.00\n3,0.",
        )
        .unwrap();
        cut_timings(dir.path(), 1).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            format!("{header}1,0.5,3,6.00\n")
        );
        // Asking for more rows than exist keeps the complete ones.
        cut_timings(dir.path(), 5).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            format!("{header}1,0.5,3,6.00\n")
        );
        fs::remove_file(&path).unwrap();
        cut_timings(dir.path(), 2).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), header);
        // The counted files are checked before anything is cut.
        let lengths = start_files_lengths(dir.path());
        let err =
            cut_recorded(dir.path(), &lengths, 1, false, EvaluatorKind::Ten.into()).unwrap_err();
        assert!(err.to_string().contains("1 completed round"), "{err}");
    }

    /// The current lengths of the counted files.
    fn start_files_lengths(dir: &Path) -> FileLengths {
        COUNTED_FILES
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    fs::metadata(dir.join(name)).unwrap().len(),
                )
            })
            .collect()
    }
}
