//! What a search answers: the move, its value, the line and the work done.

use crate::board::Move;

use super::score::{WIN, WIN_THRESHOLD};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The chosen move (`None` if the side to move has no move).
    pub best_move: Option<Move>,
    /// Its value for the side to move.
    pub score: i32,
    /// Nodes visited, over all iterations.
    pub nodes: u64,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The full-width depth searched.
    pub depth: u32,
}

impl SearchResult {
    /// The answer for a side to move with no move at all: it has lost.
    pub(super) fn no_move(depth: u32) -> SearchResult {
        SearchResult {
            best_move: None,
            score: -WIN,
            nodes: 1,
            pv: Vec::new(),
            depth,
        }
    }

    /// Plies to the end of the game if the score is a forced win (positive) or loss (negative).
    pub fn mate_distance(&self) -> Option<i32> {
        (self.score.abs() > WIN_THRESHOLD).then(|| (WIN - self.score.abs()) * self.score.signum())
    }
}
