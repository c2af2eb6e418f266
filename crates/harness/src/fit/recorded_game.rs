//! The record of one game as a fit learns from it: where it started, its moves with the
//! searches' scores when known, and its result. The inputs (`inputs/`) and the positions
//! store (`store/`) give games in this form; a run makes them from its bracket games.

use checkers_engine::board::{Move, Position};
use checkers_engine::game::{GameResult, Opening};

/// A score that no search gave (an opening's move).
pub const NO_SCORE: i16 = i16::MIN;

/// The stored score of a won position (a lost one is its negation); scores of the evaluation
/// are clamped within ±(this − 1).
pub const SCORE_WIN: i16 = 32_000;

/// Search scores above this are wins (the search's own threshold lies far above).
const SEARCH_WIN_THRESHOLD: i32 = 100_000_000;

/// A search score as a recorded game (and the positions store) keeps it.
pub fn stored_score(score: i32) -> i16 {
    if score > SEARCH_WIN_THRESHOLD {
        SCORE_WIN
    } else if score < -SEARCH_WIN_THRESHOLD {
        -SCORE_WIN
    } else {
        score.clamp(-i32::from(SCORE_WIN) + 1, i32::from(SCORE_WIN) - 1) as i16
    }
}

/// One finished game: where it started, its moves, who won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// The position before the first move (the standard start when the opening replays to it).
    pub start: Position,
    /// Every move from `start`, the opening's included.
    pub moves: Vec<Move>,
    /// The mover's search score of each move, as the positions store keeps it
    /// ([`stored_score`]; [`NO_SCORE`] where no search chose the move, or none at all for a
    /// game read from text).
    pub scores: Vec<i16>,
    /// The game's result.
    pub result: GameResult,
}

impl RecordedGame {
    /// For tests: the game from `fen` with `moves` in notation, its searches' `scores` and
    /// `result`.
    #[cfg(test)]
    pub(crate) fn parsed(fen: &str, moves: &[&str], scores: &[i16], result: GameResult) -> Self {
        let start = Position::from_fen(fen).unwrap();
        let mut pos = start;
        let moves: Vec<Move> = moves
            .iter()
            .map(|m| {
                let mv = pos.parse_move(m).unwrap();
                pos = pos.play(&mv);
                mv
            })
            .collect();
        RecordedGame {
            start,
            moves,
            scores: scores.to_vec(),
            result,
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_clamped_and_wins_kept() {
        assert_eq!(stored_score(57), 57);
        assert_eq!(stored_score(-40_000), -31_999);
        assert_eq!(stored_score(1_000_000_000 - 12), SCORE_WIN);
        assert_eq!(stored_score(-(1_000_000_000 - 3)), -SCORE_WIN);
    }
}
