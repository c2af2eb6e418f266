//! The games a fit learns from: a run folder's `games.csv` (replayed from each game's
//! opening), or any PDN file of English games (a run's `games.pdn`, `match --pdn`, a user's own
//! collection).

use std::fs;
use std::path::{Path, PathBuf};

use crate::engine::{Move, Position};
use crate::error::{Error, Result};
use crate::game::{GameResult, Opening};
use crate::input_file::{self, Links};
use crate::pdn::read_pdn;
use crate::run_folder::{line_of, CsvTable, GAMES_FILE};

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
}

impl GameRecords {
    /// Reads every input: a run folder (its `games.csv`, or its islands' when the merged file
    /// is not written yet) or a PDN file. Bad input names the file and line.
    pub fn read(inputs: &[PathBuf]) -> Result<GameRecords> {
        let mut records = GameRecords::default();
        for input in inputs {
            if input.is_dir() {
                for file in run_folder_games(input)? {
                    records.add_games_csv(&file)?;
                }
            } else {
                records.add_pdn(input)?;
            }
        }
        if records.games.is_empty() {
            return Err(Error::input(format!(
                "{}: no finished game to learn from{}",
                names(&records.files),
                if records.unfinished > 0 {
                    format!(" ({} without a result)", records.unfinished)
                } else {
                    String::new()
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
        let table = CsvTable::read(path)?;
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

    /// The games of a positions store (`positions.bin`) from round `first_round` on.
    pub fn add_store_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        let mut reader = StoreReader::open(path)?;
        while let Some(stored) = reader.next_game()? {
            if stored.round >= first_round {
                self.games.push(stored.game);
            }
        }
        self.files.push(path.to_owned());
        Ok(())
    }

    /// The games of a PDN file; games without a result are counted and left out.
    pub fn add_pdn(&mut self, path: &Path) -> Result<()> {
        let bytes = input_file::read(path, Links::Follow, None).map_err(|e| {
            Error::input(format!(
                "{}: {e}; expected a run folder or a PDN file",
                path.display()
            ))
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            Error::input(format!(
                "{}: not a UTF-8 text file (byte {}); expected a run folder or a PDN file",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        let games =
            read_pdn(&text).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        for game in games {
            match game.result {
                Some(result) => self.games.push(RecordedGame {
                    start: game.start,
                    moves: game.moves,
                    scores: Vec::new(),
                    result,
                }),
                None => self.unfinished += 1,
            }
        }
        self.files.push(path.to_owned());
        Ok(())
    }
}

/// The `games.csv` files of a run folder: its own, or, for an island-model run whose merged
/// file is not written yet, every island's in island order.
fn run_folder_games(dir: &Path) -> Result<Vec<PathBuf>> {
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
            let games = entry.path().join(GAMES_FILE);
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
