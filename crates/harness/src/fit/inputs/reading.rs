//! One file of the inputs being read: a PDN file, a run's `games.csv` or its positions store.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::fit::recorded_game::RecordedGame;
use crate::fit::store::StoreReader;
use crate::run_folder::{line_of, Column, CsvRows};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{GameResult, Opening, PdnReader};
use checkers_engine::input_file::{self, Links};

use super::report::{PdnCounts, ReadNote, ReadReport, LISTED_PER_FILE};
use super::sources::{store_identity_at, Kind};

/// How damaged games of a PDN file are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damaged {
    /// Skipped, counted and listed.
    Skip,
    /// Refused: the first one is bad input.
    Refuse,
}

/// One file being read.
pub(super) enum Reading {
    Pdn {
        reader: PdnReader<BufReader<File>>,
        counts: PdnCounts,
    },
    GamesCsv {
        path: PathBuf,
        rows: Box<CsvRows>,
        columns: CsvColumns,
        row: csv::StringRecord,
    },
    Store {
        path: PathBuf,
        reader: StoreReader<BufReader<File>>,
    },
}

/// The columns of `games.csv` a fit reads.
pub(super) struct CsvColumns {
    round: Column,
    opening: Column,
    result: Column,
    moves: Column,
}

impl Reading {
    pub(super) fn open(path: PathBuf, kind: Kind) -> Result<Reading> {
        Ok(match kind {
            Kind::Pdn => {
                let file = input_file::open(&path, Links::Follow).map_err(|e| {
                    Error::input(format!(
                        "{}: {e}; expected a run folder or a PDN file",
                        path.display()
                    ))
                })?;
                Reading::Pdn {
                    reader: PdnReader::new(BufReader::new(file)),
                    counts: PdnCounts {
                        file: path,
                        ..PdnCounts::default()
                    },
                }
            }
            Kind::GamesCsv => {
                let rows = CsvRows::open_whole_rows(&path)?;
                let columns = CsvColumns {
                    round: rows.column("round")?,
                    opening: rows.column("opening")?,
                    result: rows.column("result")?,
                    moves: rows.column("moves")?,
                };
                Reading::GamesCsv {
                    path,
                    rows: Box::new(rows),
                    columns,
                    row: csv::StringRecord::new(),
                }
            }
            Kind::Store => {
                let reader = StoreReader::open(&path)?;
                // A store of the previous format cannot say whose it is; `fit` still reads it
                // (its blocks carry no checksums to check).
                if let Some(expected) = store_identity_at(&path).filter(|_| reader.has_identity()) {
                    reader.expect(expected)?;
                }
                Reading::Store { reader, path }
            }
        })
    }

    /// The file's next game with a result (of round `first_round` or later), or `None` at
    /// its end.
    pub(super) fn next_game(
        &mut self,
        damaged: Damaged,
        first_round: u32,
        report: &mut ReadReport,
        tell: &mut dyn FnMut(ReadNote<'_>),
    ) -> Result<Option<RecordedGame>> {
        match self {
            Reading::Pdn { reader, counts } => next_pdn_game(reader, counts, damaged, report, tell),
            Reading::GamesCsv {
                path,
                rows,
                columns,
                row,
            } => {
                while rows.next_row(row)? {
                    if let Some(game) = csv_game(path, columns, row, first_round)? {
                        return Ok(Some(game));
                    }
                }
                Ok(None)
            }
            Reading::Store { reader, .. } => {
                while let Some(stored) = reader.next_game()? {
                    if stored.round >= first_round {
                        return Ok(Some(stored.game));
                    }
                }
                Ok(None)
            }
        }
    }

    /// The file read to its end: what it leaves in the report.
    pub(super) fn finish(self, report: &mut ReadReport, tell: &mut dyn FnMut(ReadNote<'_>)) {
        match self {
            Reading::Pdn { counts, .. } => {
                if counts.skipped > LISTED_PER_FILE {
                    tell(ReadNote::MoreSkipped(
                        &counts.file,
                        counts.skipped - LISTED_PER_FILE,
                    ));
                }
                report.files.push(counts.file.clone());
                report.pdn_files.push(counts);
            }
            Reading::GamesCsv { path, rows, .. } => {
                if rows.cut_row() {
                    tell(ReadNote::CutShort(&path));
                    report.cut_rows.push(path.clone());
                }
                report.files.push(path);
            }
            Reading::Store { path, reader } => {
                if reader.cut_short() {
                    tell(ReadNote::CutShort(&path));
                    report.cut_rows.push(path.clone());
                }
                report.files.push(path);
            }
        }
    }
}

/// The next game of a PDN file with moves and a result: games without a result or without
/// moves are counted and passed over; a damaged game is skipped, counted and told, or refused,
/// as `damaged` says.
fn next_pdn_game(
    reader: &mut PdnReader<BufReader<File>>,
    counts: &mut PdnCounts,
    damaged: Damaged,
    report: &mut ReadReport,
    tell: &mut dyn FnMut(ReadNote<'_>),
) -> Result<Option<RecordedGame>> {
    let path = counts.file.clone();
    while let Some(game) = reader
        .next_game()
        .map_err(|e| Error::io("read", &path, &e))?
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
                    tell(ReadNote::Skipped(&path, &e));
                    report.skipped.push((path.clone(), e));
                }
                continue;
            }
        };
        match game.result {
            _ if game.moves.is_empty() => counts.empty += 1,
            Some(result) => {
                counts.read += 1;
                return Ok(Some(RecordedGame {
                    start: game.start,
                    moves: game.moves,
                    scores: Vec::new(),
                    result,
                }));
            }
            None => {
                counts.unfinished += 1;
                report.unfinished += 1;
            }
        }
    }
    Ok(None)
}

/// The game of a `games.csv` row, replayed from its opening and checked move by move; `None`
/// for a row of a round before `first_round`.
fn csv_game(
    path: &Path,
    columns: &CsvColumns,
    row: &csv::StringRecord,
    first_round: u32,
) -> Result<Option<RecordedGame>> {
    let bad =
        |what: String| Error::input(format!("{}: line {}: {what}", path.display(), line_of(row)));
    let round = columns.round.raw(row);
    let played_in: u32 = round
        .parse()
        .map_err(|_| bad(format!("round `{round}` is not a round number")))?;
    if played_in < first_round {
        return Ok(None);
    }
    let name = columns.opening.raw(row);
    let opening = Opening::from_name(name)
        .map_err(|e| bad(format!("opening `{name}` cannot be played ({e})")))?;
    let result = columns.result.raw(row);
    let result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw]
        .into_iter()
        .find(|r| r.label() == result)
        .ok_or_else(|| {
            bad(format!(
                "result `{result}` is not black_win, white_win or draw"
            ))
        })?;
    let mut pos = opening.position;
    let mut played = Vec::new();
    for (i, text) in columns.moves.raw(row).split_whitespace().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| bad(format!("move {} ({text}): {e}", i + 1)))?;
        pos = pos.play(&mv);
        played.push(mv);
    }
    Ok(Some(RecordedGame::from_opening(
        &opening,
        &played,
        &[],
        result,
    )))
}
