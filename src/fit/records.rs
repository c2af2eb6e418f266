//! The games a fit learns from: a run folder's `games.csv` (replayed from each game's
//! opening), or any PDN file of English games (a run's `games.pdn`, `match --pdn`, a user's own
//! collection), read game by game. A damaged game of a PDN file is skipped and counted, or,
//! when reading strictly, refused.

use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::engine::{Move, Position};
use crate::error::{Error, Result};
use crate::game::{GameResult, Opening, PdnError, PdnReader};
use crate::input_file::{self, Links};
use crate::run_folder::{line_of, CsvTable, GAMES_FILE, POSITIONS_FILE};

use super::store::{stored_score, StoreReader, NO_SCORE};

/// One finished game: where it started, its moves, who won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// The position before the first move (the standard start when the opening replays to it).
    pub start: Position,
    /// Every move from `start`, the opening's included.
    pub moves: Vec<Move>,
    /// The mover's search score of each move, as the positions store keeps it
    /// ([`stored_score`](super::store::stored_score); [`NO_SCORE`] where no search chose the move,
    /// or none at all for a game read from text).
    pub scores: Vec<i16>,
    /// The game's result.
    pub result: GameResult,
}

impl RecordedGame {
    /// A game played from `opening`: from the standard position with the opening's moves first
    /// when they replay to it (so that plies count from the start, as in PDN), else from the
    /// opening's position. `scores` are the searches' scores of `moves` (none for the
    /// opening's), empty when unknown.
    pub fn from_opening(
        opening: &Opening,
        moves: &[Move],
        scores: &[i32],
        result: GameResult,
    ) -> RecordedGame {
        let (start, mut all) = match opening.moves_from_start() {
            Some(opening_moves) => (Position::start(), opening_moves),
            None => (opening.position, Vec::new()),
        };
        let mut stored = vec![NO_SCORE; all.len()];
        stored.extend(scores.iter().map(|&s| stored_score(s)));
        if scores.is_empty() {
            stored.clear();
        }
        all.extend_from_slice(moves);
        RecordedGame {
            start,
            moves: all,
            scores: stored,
            result,
        }
    }
}

/// The games read from the inputs of a fit, pooled in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecords {
    /// Every game with a result.
    pub games: Vec<RecordedGame>,
    /// Games without a result (`*` in PDN), left out.
    pub unfinished: usize,
    /// The files the games came from.
    pub files: Vec<PathBuf>,
    /// What each PDN file held, in input order.
    pub pdn_files: Vec<PdnCounts>,
    /// The damaged games skipped, the first [`LISTED_PER_FILE`] of each file (the counts have
    /// them all).
    pub skipped: Vec<(PathBuf, PdnError)>,
    /// The `games.csv` files whose last row was cut short (a run still writing it, or killed
    /// in the middle of a write): that row is left out, as `resume` and `match` leave it out.
    pub cut_rows: Vec<PathBuf>,
}

/// The most damaged games of one file listed in [`GameRecords::skipped`].
pub const LISTED_PER_FILE: usize = 20;

/// The games of one PDN file, by what became of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnCounts {
    /// The file.
    pub file: PathBuf,
    /// Every game in it.
    pub games: usize,
    /// Games with moves and a result: learnt from.
    pub read: usize,
    /// Games with moves and no result (`*`), left out.
    pub unfinished: usize,
    /// Games with no moves (tags alone), left out.
    pub empty: usize,
    /// Damaged games, skipped.
    pub skipped: usize,
}

impl std::fmt::Display for PdnCounts {
    /// `tinsley.pdn: 724 games, 721 read, 3 skipped (damaged)`, naming only what happened.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} game{}, {} read",
            self.file.display(),
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.read
        )?;
        for (count, what) in [
            (self.unfinished, "without a result"),
            (self.empty, "without moves"),
            (self.skipped, "skipped (damaged)"),
        ] {
            if count > 0 {
                write!(f, ", {count} {what}")?;
            }
        }
        Ok(())
    }
}

/// How damaged games of a PDN file are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damaged {
    /// Skipped, counted and listed.
    Skip,
    /// Refused: the first one is bad input.
    Refuse,
}

impl GameRecords {
    /// Reads every input: a run folder (its `games.csv`, or its islands' when the merged file
    /// is not written yet) or a PDN file, whose damaged games are skipped or refused as
    /// `damaged` says. Bad input names the file and line.
    pub fn read(inputs: &[PathBuf], damaged: Damaged) -> Result<GameRecords> {
        let mut records = GameRecords::default();
        for input in inputs {
            if input.is_dir() {
                for file in run_folder_games(input)? {
                    if file.ends_with(POSITIONS_FILE) {
                        records.add_store_from(&file, 0)?;
                    } else {
                        records.add_games_csv(&file)?;
                    }
                }
            } else {
                records.add_pdn(input, damaged)?;
            }
        }
        if records.games.is_empty() {
            let total = |count: fn(&PdnCounts) -> usize| -> usize {
                records.pdn_files.iter().map(count).sum()
            };
            let left_out: Vec<String> = [
                (records.unfinished, "without a result"),
                (total(|c| c.empty), "without moves"),
                (total(|c| c.skipped), "skipped (damaged)"),
            ]
            .into_iter()
            .filter(|&(count, _)| count > 0)
            .map(|(count, what)| format!("{count} {what}"))
            .collect();
            return Err(Error::input(format!(
                "{}: no finished game to learn from{}",
                names(&records.files),
                if left_out.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", left_out.join(", "))
                }
            )));
        }
        Ok(records)
    }

    /// The rows of a run's `games.csv`, each replayed from its opening and checked move by move.
    pub fn add_games_csv(&mut self, path: &Path) -> Result<()> {
        self.add_games_csv_from(path, 0)
    }

    /// The rows of a run's `games.csv` from round `first_round` on, as
    /// [`GameRecords::add_games_csv`] reads them.
    pub fn add_games_csv_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        let table = CsvTable::read_whole_rows(path)?;
        if table.cut_row() {
            self.cut_rows.push(path.to_owned());
        }
        let round = table.column("round")?;
        let opening = table.column("opening")?;
        let result = table.column("result")?;
        let moves = table.column("moves")?;
        for row in table.rows() {
            let bad = |what: String| {
                Error::input(format!("{}: line {}: {what}", path.display(), line_of(row)))
            };
            let played_in: u32 = round
                .raw(row)
                .parse()
                .map_err(|_| bad(format!("round `{}` is not a round number", round.raw(row))))?;
            if played_in < first_round {
                continue;
            }
            let name = opening.raw(row);
            let opening = Opening::from_name(name)
                .map_err(|e| bad(format!("opening `{name}` cannot be played ({e})")))?;
            let result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw]
                .into_iter()
                .find(|r| r.label() == result.raw(row))
                .ok_or_else(|| {
                    bad(format!(
                        "result `{}` is not black_win, white_win or draw",
                        result.raw(row)
                    ))
                })?;
            let mut pos = opening.position;
            let mut played = Vec::new();
            for (i, text) in moves.raw(row).split_whitespace().enumerate() {
                let mv = pos
                    .parse_move(text)
                    .map_err(|e| bad(format!("move {} ({text}): {e}", i + 1)))?;
                pos = pos.play(&mv);
                played.push(mv);
            }
            self.games
                .push(RecordedGame::from_opening(&opening, &played, &[], result));
        }
        self.files.push(path.to_owned());
        Ok(())
    }

    /// The games of a positions store (`positions.bin`) from round `first_round` on. A store
    /// that ends inside a round (a run still writing, or killed) gives the games it holds
    /// whole, and is noted like a cut `games.csv`.
    pub fn add_store_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        let mut reader = StoreReader::open(path)?;
        while let Some(stored) = reader.next_game()? {
            if stored.round >= first_round {
                self.games.push(stored.game);
            }
        }
        if reader.cut_short() {
            self.cut_rows.push(path.to_owned());
        }
        self.files.push(path.to_owned());
        Ok(())
    }

    /// The games of a PDN file, read game by game: games without a result or without moves are
    /// counted and left out; a damaged game is skipped and counted, or refused, as `damaged`
    /// says.
    pub fn add_pdn(&mut self, path: &Path, damaged: Damaged) -> Result<()> {
        let file = input_file::open(path, Links::Follow).map_err(|e| {
            Error::input(format!(
                "{}: {e}; expected a run folder or a PDN file",
                path.display()
            ))
        })?;
        let mut reader = PdnReader::new(BufReader::new(file));
        let mut counts = PdnCounts {
            file: path.to_owned(),
            ..PdnCounts::default()
        };
        while let Some(game) = reader
            .next_game()
            .map_err(|e| Error::io("read", path, &e))?
        {
            counts.games += 1;
            let game = match game {
                Ok(game) => game,
                Err(e) if damaged == Damaged::Refuse => {
                    return Err(Error::input(format!(
                        "{}: {e} (--strict refuses a damaged game)",
                        path.display()
                    )))
                }
                Err(e) => {
                    counts.skipped += 1;
                    if counts.skipped <= LISTED_PER_FILE {
                        self.skipped.push((path.to_owned(), e));
                    }
                    continue;
                }
            };
            match game.result {
                _ if game.moves.is_empty() => counts.empty += 1,
                Some(result) => {
                    counts.read += 1;
                    self.games.push(RecordedGame {
                        start: game.start,
                        moves: game.moves,
                        scores: Vec::new(),
                        result,
                    });
                }
                None => {
                    counts.unfinished += 1;
                    self.unfinished += 1;
                }
            }
        }
        self.files.push(path.to_owned());
        self.pdn_files.push(counts);
        Ok(())
    }
}

/// The `games.csv` files of a run folder: its own, or, for an island-model run whose merged
/// file is not written yet, every island's in island order.
fn run_folder_games(dir: &Path) -> Result<Vec<PathBuf>> {
    // The positions store holds the same games as `games.csv`, with the searches' scores, and
    // reads without parsing text.
    let store = dir.join(POSITIONS_FILE);
    if store.is_file() {
        return Ok(vec![store]);
    }
    let own = dir.join(GAMES_FILE);
    if own.is_file() {
        return Ok(vec![own]);
    }
    let mut islands: Vec<(u32, PathBuf)> = fs::read_dir(dir)
        .map_err(|e| Error::input(format!("{}: cannot read the folder ({e})", dir.display())))?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let index = name.to_str()?.strip_prefix("island-")?.parse().ok()?;
            let store = entry.path().join(POSITIONS_FILE);
            let games = entry.path().join(GAMES_FILE);
            if store.is_file() {
                return Some((index, store));
            }
            games.is_file().then_some((index, games))
        })
        .collect();
    islands.sort();
    if islands.is_empty() {
        return Err(Error::input(format!(
            "{}: not a run folder (no {GAMES_FILE}); give a run folder or a PDN file",
            dir.display()
        )));
    }
    Ok(islands.into_iter().map(|(_, path)| path).collect())
}

/// The files' names for a message.
fn names(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_csv_row_cut_short_is_left_out_and_said() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let rows = "round,opening,result,moves\n1,9-13 24-20,draw,12-16 28-24\n";
        std::fs::write(&path, format!("{rows}1,start,black_win,11-15 23-1")).unwrap();
        let mut records = GameRecords::default();
        records.add_games_csv(&path).unwrap();
        assert_eq!(records.games.len(), 1);
        assert_eq!(records.games[0].moves.len(), 4);
        assert_eq!(records.cut_rows, std::slice::from_ref(&path));
        std::fs::write(&path, rows).unwrap();
        let mut records = GameRecords::default();
        records.add_games_csv(&path).unwrap();
        assert_eq!((records.games.len(), records.cut_rows.len()), (1, 0));
    }

    #[test]
    fn pdn_files_are_counted_and_damaged_games_skipped_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        std::fs::write(
            &path,
            "1. 9-13 22-18 1-0\n[Event \"e\"]\n\n1. 9-13 9-14 0-1\n1. 11-15 *\n[Event \"t\"] *",
        )
        .unwrap();
        let mut records = GameRecords::default();
        records.add_pdn(&path, Damaged::Skip).unwrap();
        assert_eq!(records.games.len(), 1);
        let counts = &records.pdn_files[0];
        assert_eq!(
            counts.to_string(),
            format!(
                "{}: 4 games, 1 read, 1 without a result, 1 without moves, 1 skipped (damaged)",
                path.display()
            )
        );
        assert_eq!(records.skipped.len(), 1);
        assert_eq!(
            (records.skipped[0].1.game, records.skipped[0].1.line),
            (2, 4)
        );
        let err = GameRecords::default()
            .add_pdn(&path, Damaged::Refuse)
            .unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(
            err.to_string().contains("line 4: game 2: move 2 (9-14)"),
            "{err}"
        );
    }
}
