//! A game's result and record, and the tally of results.

use serde::{Deserialize, Serialize};

use crate::board::Move;

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Black won.
    BlackWin,
    /// White won.
    WhiteWin,
    /// Drawn.
    Draw,
}

/// One game's result from A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// A lost (0 points).
    Loss,
    /// Drawn (½ point).
    Draw,
    /// A won (1 point).
    Win,
}

impl GameScore {
    /// A's points in half-point units: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// The game's result from A's side, given the colour A played.
    pub fn for_a(result: GameResult, a_is_black: bool) -> GameScore {
        match (result, a_is_black) {
            (GameResult::Draw, _) => GameScore::Draw,
            (GameResult::BlackWin, true) | (GameResult::WhiteWin, false) => GameScore::Win,
            (GameResult::BlackWin, false) | (GameResult::WhiteWin, true) => GameScore::Loss,
        }
    }
}

/// Games won, drawn and lost, counted from one side (a specimen's, a finalist's or A's in a
/// match): the one win/draw/loss tally of the crate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Twice the points (a win 2, a draw 1), an integer.
    pub fn half_points(&self) -> u64 {
        2 * self.wins + self.draws
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.half_points() as f64 / 2.0
    }

    /// Points per game; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        match self.games() {
            0 => None,
            games => Some(self.points() / games as f64),
        }
    }

    /// One line of results, e.g. `W 12  D 30  L 8  score 27.0/50 (54.0%)`.
    pub fn line(&self) -> String {
        let percent = self
            .score()
            .map_or_else(|| "-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        format!(
            "W {}  D {}  L {}  score {:.1}/{} ({percent})",
            self.wins,
            self.draws,
            self.losses,
            self.points(),
            self.games()
        )
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The side to move had no legal move (no pieces or all blocked).
    NoMoves,
    /// The same position occurred a third time with the same side to move.
    Repetition,
    /// Too many plies without a capture or a man moving.
    NoProgress,
    /// Adjudicated at the ply cap.
    PlyCap,
    /// The side to move ran out of time on its clock.
    Time,
    /// Adjudicated by the endgame database's value once few enough pieces were left.
    Database,
    /// Forfeited by a side whose program crashed (or closed its end of the conversation).
    Crash,
    /// Forfeited by a side whose program did not answer within the time allowed.
    Hang,
    /// Forfeited by a side whose program answered with a move that is not legal.
    IllegalMove,
    /// Forfeited by a side whose program answered something that is not an answer.
    BadReply,
}

impl GameResult {
    /// The label of the result in `games.csv` and a match's CSV.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::BlackWin => "black_win",
            GameResult::WhiteWin => "white_win",
            GameResult::Draw => "draw",
        }
    }
}

impl EndReason {
    /// Every reason, in the order of the enum.
    pub const ALL: [EndReason; 10] = [
        EndReason::NoMoves,
        EndReason::Repetition,
        EndReason::NoProgress,
        EndReason::PlyCap,
        EndReason::Database,
        EndReason::Time,
        EndReason::Crash,
        EndReason::Hang,
        EndReason::IllegalMove,
        EndReason::BadReply,
    ];

    /// Whether the game was lost by a side that could not answer (a program's fault), not
    /// by play.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            EndReason::Crash | EndReason::Hang | EndReason::IllegalMove | EndReason::BadReply
        )
    }

    /// The label of the reason in `games.csv` and a match's CSV.
    pub fn label(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no_progress",
            EndReason::PlyCap => "ply_cap",
            EndReason::Time => "time",
            EndReason::Database => "database",
            EndReason::Crash => "crash",
            EndReason::Hang => "hang",
            EndReason::IllegalMove => "illegal_move",
            EndReason::BadReply => "bad_reply",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Who won.
    pub result: GameResult,
    /// Plies played from the opening position.
    pub plies: u32,
    /// Why it ended.
    pub reason: EndReason,
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The score of each move's search, for the side that made it (the search's scale: wins
    /// near `±WIN`); empty for a game read back from a file.
    pub scores: Vec<i32>,
    /// For a forfeit ([`EndReason::is_forfeit`]): the position, what the side answered and
    /// why it does not count. `None` for every other game.
    pub forfeit: Option<String>,
}

impl GameRecord {
    /// The moves in PDN notation, space-separated (`9-13 22-18 13x22`; empty for none).
    pub fn move_text(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    }
}
