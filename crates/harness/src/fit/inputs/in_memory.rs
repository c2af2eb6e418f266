//! Games held in memory, read through the stream's readers.

use std::path::{Path, PathBuf};

use crate::fit::recorded_game::RecordedGame;
use checkers_engine::error::Result;

use super::reading::Damaged;
use super::report::ReadReport;
use super::sources::Kind;
use super::stream::GameStream;

/// Games held in memory, with what reading their files met: the games of the inputs
/// ([`GameRecords::read`]), or of a run's files and rounds gathered by a caller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecords {
    /// Every game with a result.
    pub games: Vec<RecordedGame>,
    /// What reading the files met.
    pub report: ReadReport,
}

impl GameRecords {
    /// Reads every game of `inputs` into memory, as [`GameStream::open`] reads them (for
    /// small inputs: a fit streams them instead).
    pub fn read(inputs: &[PathBuf], damaged: Damaged) -> Result<GameRecords> {
        let mut stream = GameStream::open(inputs, damaged)?;
        let mut records = GameRecords::default();
        while let Some(game) = stream.next_game()? {
            records.games.push(game);
        }
        records.report = stream.report;
        Ok(records)
    }

    /// The rows of a run's `games.csv`, each replayed from its opening and checked move by move.
    pub fn add_games_csv(&mut self, path: &Path) -> Result<()> {
        self.add_games_csv_from(path, 0)
    }

    /// The rows of a run's `games.csv` from round `first_round` on, as
    /// [`GameRecords::add_games_csv`] reads them.
    pub fn add_games_csv_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        self.add_file(path, Kind::GamesCsv, Damaged::Refuse, first_round)
    }

    /// The games of a positions store (`positions.bin`) from round `first_round` on. A store
    /// that ends inside a round (a run still writing, or killed) gives the games it holds
    /// whole, and is noted like a cut `games.csv`.
    pub fn add_store_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        self.add_file(path, Kind::Store, Damaged::Refuse, first_round)
    }

    /// The games of a PDN file, read game by game: games without a result or without moves are
    /// counted and left out; a damaged game is skipped and counted, or refused, as `damaged`
    /// says.
    pub fn add_pdn(&mut self, path: &Path, damaged: Damaged) -> Result<()> {
        self.add_file(path, Kind::Pdn, damaged, 0)
    }

    fn add_file(
        &mut self,
        path: &Path,
        kind: Kind,
        damaged: Damaged,
        first_round: u32,
    ) -> Result<()> {
        let mut stream =
            GameStream::of_files(vec![(path.to_owned(), kind)], damaged, first_round, false);
        while let Some(game) = stream.next_game()? {
            self.games.push(game);
        }
        self.report.extend(stream.report);
        Ok(())
    }
}
