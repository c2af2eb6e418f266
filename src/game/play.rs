//! Plays one game: search for each side, draw rules, phase switch.

use serde::{Deserialize, Serialize};

/// How a search breaks ties between moves of equal value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TieBreak {
    /// The first move in move-generation order.
    #[default]
    First,
    /// A move drawn by the game's own seeded generator.
    Random,
}

/// Search depths and draw rules shared by both players of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Full-width search depth in plies.
    pub min_depth: u32,
    /// Depth up to which positions with a capture are searched further.
    pub max_depth: u32,
    /// Adjudicate a draw after this many plies.
    pub max_plies: u32,
    /// Draw after this many plies in a row without a capture and without a man moving.
    pub no_progress_plies: u32,
    /// Switch to the endgame set when this many pieces or fewer are left.
    pub endgame_pieces: u32,
    /// How equal-valued moves are chosen.
    pub tie_break: TieBreak,
}

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
}
