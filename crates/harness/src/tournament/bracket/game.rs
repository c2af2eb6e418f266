//! One bracket game as the run's files keep it.

use checkers_engine::game::GameRecord;

use super::job::{GameJob, GameReport};

/// One bracket game: where it stood in the round, who played it, and the game. One row of
/// `games.csv` and one game of `games.pdn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketGame {
    /// The round number.
    pub round: u32,
    /// The bracket level, from 0.
    pub level: u32,
    /// The pair's index within its level, from 0.
    pub pair: u32,
    /// The game's number within its pair (see [`GameJob::game`]).
    pub game: u32,
    /// Id of the specimen playing Black.
    pub black: u64,
    /// Id of the specimen playing White.
    pub white: u64,
    /// The opening the game started from.
    pub opening: String,
    /// The game itself.
    pub record: GameRecord,
}

impl BracketGame {
    /// The `games.csv` header (docs/run-folder.md).
    pub fn csv_header() -> Vec<&'static str> {
        vec![
            "round", "level", "pair", "game", "black", "white", "opening", "result", "plies",
            "reason", "moves",
        ]
    }

    /// This game as a `games.csv` record, matching [`BracketGame::csv_header`]. `moves` holds
    /// the game's moves from the opening's position, space-separated (`9-13 22-18 …`).
    pub fn to_csv_record(&self) -> Vec<String> {
        vec![
            self.round.to_string(),
            self.level.to_string(),
            self.pair.to_string(),
            self.game.to_string(),
            self.black.to_string(),
            self.white.to_string(),
            self.opening.clone(),
            self.record.result.label().to_string(),
            self.record.plies.to_string(),
            self.record.reason.label().to_string(),
            self.record.move_text(),
        ]
    }

    pub(super) fn new(job: &GameJob, report: GameReport) -> BracketGame {
        BracketGame {
            round: job.round,
            level: job.level,
            pair: job.pair,
            game: job.game,
            black: job.black.id,
            white: job.white.id,
            opening: report.opening,
            record: report.record,
        }
    }
}
