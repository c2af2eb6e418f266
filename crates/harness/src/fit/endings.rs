//! Endgame positions labelled by the endgame database: where a game ended by the database's
//! value, the fit also learns the ending that would have followed, played out by the database.
//!
//! A run's games stop as soon as few enough pieces are left for the database, so their
//! positions never show the evaluation an ending the database decides: a search without the
//! database (another engine's, or ours with `--database-pieces 0`) then meets endings its
//! evaluation never learnt, and draws won ones. The positions here are the ones a perfect
//! player on each side would reach from where the game stopped, each with its exact value.

use std::collections::HashSet;
use std::fmt;

use checkers_engine::board::Position;
use checkers_engine::egdb::{DbValue, EndgameDb};

use super::recorded_game::{RecordedGame, NO_SCORE, SCORE_WIN};

/// The endings a fit adds: each game that stopped in the database is played on by the
/// database for up to `plies` plies, and each quiet position on the way is learnt with its
/// exact value.
#[derive(Clone, Copy)]
pub struct DatabaseEndings {
    /// The database that values the positions and chooses the moves.
    pub database: &'static EndgameDb,
    /// Most plies played on from each game's last position.
    pub plies: u32,
}

impl PartialEq for DatabaseEndings {
    fn eq(&self, other: &DatabaseEndings) -> bool {
        std::ptr::eq(self.database, other.database) && self.plies == other.plies
    }
}

impl fmt::Debug for DatabaseEndings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseEndings")
            .field("pieces", &self.database.pieces())
            .field("plies", &self.plies)
            .finish()
    }
}

/// One position of an ending, with what the fit learns of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct EndingPosition {
    /// The position (quiet: its side to move has no capture, and has a move).
    pub position: Position,
    /// Its exact value for the side to move: 1 won, ½ drawn, 0 lost.
    pub label: f32,
    /// The same as a stored search score (a win, a loss, or none for a draw), so that a label
    /// that blends in the score is the exact value too.
    pub score: i16,
}

impl DatabaseEndings {
    /// The ending that follows `game`'s last position, when the database holds it: up to
    /// `plies` positions after it (the last position itself is among the game's own), each
    /// side playing its best move by the database (the winner the quickest win, the loser the
    /// longest loss, a drawn side a move that keeps the draw; the first in move order among
    /// equals), the quiet ones kept, none twice.
    pub(super) fn ending(&self, game: &RecordedGame) -> Vec<EndingPosition> {
        let mut pos = game.moves.iter().fold(game.start, |p, mv| p.play(mv));
        let mut ending = Vec::new();
        if self.database.probe(&pos).is_none() {
            return ending;
        }
        let mut seen = HashSet::new();
        for _ in 0..self.plies {
            let Some((next, value)) = self.best_reply(&pos) else {
                break;
            };
            pos = next;
            if pos.jumpers() == 0 && !pos.is_lost() && seen.insert(pos) {
                let (label, score) = match value {
                    DbValue::Win(_) => (1.0, SCORE_WIN),
                    DbValue::Loss(_) => (0.0, -SCORE_WIN),
                    DbValue::Draw => (0.5, NO_SCORE),
                };
                ending.push(EndingPosition {
                    position: pos,
                    label,
                    score,
                });
            }
        }
        ending
    }

    /// The position after the side to move's best move in `pos` by the database (see
    /// [`DatabaseEndings::ending`]) and its value for the opponent, who moves there; `None`
    /// when there is no move or the database does not hold a position after one.
    fn best_reply(&self, pos: &Position) -> Option<(Position, DbValue)> {
        let mut best: Option<(u64, Position, DbValue)> = None;
        for mv in pos.legal_moves().iter() {
            let next = pos.play(mv);
            let value = self.database.probe(&next)?;
            // The mover's outcome, smaller is better: a quick win, then a draw, then a long
            // loss.
            let rank = match value {
                DbValue::Loss(d) => u64::from(d),
                DbValue::Draw => 1 << 32,
                DbValue::Win(d) => (2 << 32) - u64::from(d),
            };
            if best.is_none_or(|(b, _, _)| rank < b) {
                best = Some((rank, next, value));
            }
        }
        best.map(|(_, next, value)| (next, value))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use checkers_engine::game::GameResult;

    fn db3() -> &'static EndgameDb {
        static DB: OnceLock<&'static EndgameDb> = OnceLock::new();
        DB.get_or_init(|| checkers_engine::egdb::build(3, &|_| {}).unwrap().leak())
    }

    fn game_ending_at(fen: &str) -> RecordedGame {
        RecordedGame {
            start: Position::from_fen(fen).unwrap(),
            moves: Vec::new(),
            scores: Vec::new(),
            result: GameResult::Draw,
        }
    }

    /// Two kings against one are won: the winner's every position is labelled won, the
    /// loser's lost, each side to move in turn, and the walk ends when the lone king is taken
    /// or trapped, within the database's distance.
    #[test]
    fn a_won_ending_is_played_to_its_end_with_exact_labels() {
        let db = db3();
        let game = game_ending_at("B:WK32,K28:BK1");
        let start = game.start;
        // Black to move, and lost.
        let Some(DbValue::Loss(distance)) = db.probe(&start) else {
            panic!("2 kings v 1 is a win for White: {:?}", db.probe(&start));
        };
        let endings = DatabaseEndings {
            database: db,
            plies: 200,
        };
        let ending = endings.ending(&game);
        assert!(!ending.is_empty());
        assert!(ending.len() <= distance as usize, "{}", ending.len());
        for e in &ending {
            assert_eq!(e.position.jumpers(), 0);
            let white = e.position.side_to_move() == checkers_engine::board::Color::White;
            assert_eq!(e.label, if white { 1.0 } else { 0.0 }, "{e:?}");
            assert_eq!(e.score, if white { SCORE_WIN } else { -SCORE_WIN });
        }
        // The positions are distinct, and the first follows the game's last position.
        let distinct: HashSet<Position> = ending.iter().map(|e| e.position).collect();
        assert_eq!(distinct.len(), ending.len());
        // A shorter walk is the start of the longer one.
        let short = DatabaseEndings {
            plies: 4,
            ..endings
        }
        .ending(&game);
        assert!(short.len() <= 4);
        assert_eq!(short[..], ending[..short.len()]);
    }

    /// A drawn ending keeps the draw (labels ½, no score); a game that did not stop in the
    /// database, or a walk of no plies, adds nothing.
    #[test]
    fn drawn_and_unknown_endings() {
        let db = db3();
        let endings = DatabaseEndings {
            database: db,
            plies: 12,
        };
        // One king each: a draw.
        let drawn = endings.ending(&game_ending_at("B:WK32:BK1"));
        assert!(!drawn.is_empty());
        assert!(drawn.iter().all(|e| e.label == 0.5 && e.score == NO_SCORE));
        let start = Position::start();
        let whole_board = RecordedGame {
            start,
            moves: Vec::new(),
            scores: Vec::new(),
            result: GameResult::Draw,
        };
        assert!(endings.ending(&whole_board).is_empty());
        let none = DatabaseEndings {
            plies: 0,
            ..endings
        };
        assert!(none.ending(&game_ending_at("B:WK32:BK1")).is_empty());
    }
}
