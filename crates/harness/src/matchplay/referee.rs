//! The endgame database as referee: every move played from a position the database holds is
//! judged by it, and a move that throws away value is an error.
//!
//! With about 80% of games between strong engines drawn, win-draw-loss counts are a noisy
//! judge; the database judges each move. A move is an error when the mover's value under best
//! play falls: a won position left drawn (win → draw) or lost (win → loss), a drawn one left
//! lost (draw → loss). A winning move that wins more slowly is no error. The values are the
//! database's, by the rules alone (no repetition or no-progress draw), as the search reads
//! them.

use checkers_engine::board::{Color, Move, Position};
use checkers_engine::egdb::{DbValue, EndgameDb};

use super::game::MatchGame;

/// One side's moves as the database judged them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RefereeCount {
    /// Moves played from a position the database values to one it holds.
    pub judged: u32,
    /// Won positions left drawn.
    pub win_to_draw: u32,
    /// Drawn positions left lost.
    pub draw_to_loss: u32,
    /// Won positions left lost.
    pub win_to_loss: u32,
}

impl RefereeCount {
    /// All errors.
    pub fn errors(&self) -> u32 {
        self.win_to_draw + self.draw_to_loss + self.win_to_loss
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &RefereeCount) {
        self.judged += other.judged;
        self.win_to_draw += other.win_to_draw;
        self.draw_to_loss += other.draw_to_loss;
        self.win_to_loss += other.win_to_loss;
    }
}

/// A value as an outcome for the side to move: 1 a win, 0 a draw, −1 a loss.
fn outcome(value: DbValue) -> i8 {
    match value {
        DbValue::Win(_) => 1,
        DbValue::Draw => 0,
        DbValue::Loss(_) => -1,
    }
}

/// The value of `pos` for its side to move: the database's, or, for a position just outside
/// it whose every move leads into it, the best of those moves' values.
///
/// The second case is the move by which a game enters the database: pieces leave the board
/// only by captures, and a capture is compulsory, so every move there is a capture into the
/// database. A match that ends its games on reaching the database judges that move alone.
fn value_of(db: &EndgameDb, pos: &Position) -> Option<i8> {
    if let Some(value) = db.probe(pos) {
        return Some(outcome(value));
    }
    if pos.jumpers() == 0 {
        return None;
    }
    let mut best = -1;
    for mv in pos.legal_moves().iter() {
        best = best.max(-outcome(db.probe(&pos.play(mv))?));
    }
    Some(best)
}

/// Counts `mv`, played from `before`, in `count` when the database values both `before` (see
/// `value_of`: held, or every move from it leading into the database) and the position after
/// it.
pub fn judge_move(db: &EndgameDb, before: &Position, mv: &Move, count: &mut RefereeCount) {
    let Some(after) = db.probe(&before.play(mv)) else {
        return;
    };
    let Some(value) = value_of(db, before) else {
        return;
    };
    count.judged += 1;
    // The position after is valued for the opponent, who moves next.
    match (value, -outcome(after)) {
        (1, 0) => count.win_to_draw += 1,
        (1, -1) => count.win_to_loss += 1,
        (0, -1) => count.draw_to_loss += 1,
        _ => {}
    }
}

/// The moves of a game played from `start`, judged: the counts of Black's moves, then
/// White's.
pub fn referee_game(db: &EndgameDb, start: &Position, moves: &[Move]) -> [RefereeCount; 2] {
    let mut counts = [RefereeCount::default(); 2];
    let mut pos = *start;
    for mv in moves {
        let side = usize::from(pos.side_to_move() == Color::White);
        judge_move(db, &pos, mv, &mut counts[side]);
        pos = pos.play(mv);
    }
    counts
}

/// A match's games judged: A's counts, then B's; `openings` are the positions the games start
/// from, indexed by each game's `pair`.
pub fn referee_match(
    db: &EndgameDb,
    games: &[MatchGame],
    openings: &[Position],
) -> [RefereeCount; 2] {
    let mut sides = [RefereeCount::default(); 2];
    for game in games {
        let [black, white] = referee_game(db, &openings[game.pair], &game.record.moves);
        let (a, b) = match game.a_color {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        sides[0].add(&a);
        sides[1].add(&b);
    }
    sides
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(pieces: u32) -> EndgameDb {
        checkers_engine::egdb::build(pieces, &|_| {}).unwrap()
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The move of `pos` written `text` (as `moves` prints them).
    fn find(pos: &Position, text: &str) -> Move {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not a move of {}", pos.to_fen()))
    }

    #[test]
    fn a_won_king_pair_that_offers_a_king_throws_the_win_away() {
        let db = db(3);
        // Two kings against one, Black to move: a win. 19-24 puts a king next to White's on
        // 28 with 19 behind it empty: 28x19 leaves one king each, a draw.
        let won = pos("B:WK28:BK19,K1");
        assert!(matches!(db.probe(&won), Some(DbValue::Win(_))));
        let mut count = RefereeCount::default();
        judge_move(&db, &won, &find(&won, "19-24"), &mut count);
        let expected = RefereeCount {
            judged: 1,
            win_to_draw: 1,
            ..RefereeCount::default()
        };
        assert_eq!(count, expected);
        // A move that keeps the win is judged and no error: the database's own best.
        let keeps = won
            .legal_moves()
            .iter()
            .copied()
            .find(|m| matches!(db.probe(&won.play(m)), Some(DbValue::Loss(_))))
            .expect("a won position has a winning move");
        let mut count = RefereeCount::default();
        judge_move(&db, &won, &keeps, &mut count);
        assert_eq!((count.judged, count.errors()), (1, 0));
    }

    #[test]
    fn a_drawn_king_that_steps_into_a_capture_loses() {
        let db = db(3);
        // One king each, White to move: a draw; 10-6 lets Black's king jump 1x10.
        let drawn = pos("W:WK10:BK1");
        assert_eq!(db.probe(&drawn), Some(DbValue::Draw));
        let mut count = RefereeCount::default();
        judge_move(&db, &drawn, &find(&drawn, "10-6"), &mut count);
        assert_eq!(
            (count.judged, count.draw_to_loss, count.errors()),
            (1, 1, 1)
        );
        judge_move(&db, &drawn, &find(&drawn, "10-14"), &mut count);
        assert_eq!(
            (count.judged, count.errors()),
            (2, 1),
            "10-14 keeps the draw"
        );
    }

    #[test]
    fn a_game_is_judged_only_inside_the_database_and_per_side() {
        let db = db(3);
        let start = Position::start();
        let first = find(&start, "11-15");
        let moves = [first, find(&start.play(&first), "23-19")];
        assert_eq!(
            referee_game(&db, &start, &moves),
            [RefereeCount::default(); 2]
        );
        // Black throws the win away, White takes the king and is judged for it (no error).
        let won = pos("B:WK28:BK19,K1");
        let blunder = find(&won, "19-24");
        let reply = find(&won.play(&blunder), "28x19");
        let [black, white] = referee_game(&db, &won, &[blunder, reply]);
        assert_eq!((black.judged, black.win_to_draw, black.errors()), (1, 1, 1));
        assert_eq!((white.judged, white.errors()), (1, 0));
    }

    /// The capture by which a game enters the database is judged against the other captures
    /// of its position: sampled positions of four pieces with a choice of captures into the
    /// three-piece database, some of them choices between outcomes.
    #[test]
    fn the_capture_into_the_database_is_judged_against_the_others() {
        let db = db(3);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut choices, mut errors) = (0, 0);
        for _ in 0..20_000 {
            let mut squares: Vec<u64> = Vec::new();
            while squares.len() < 4 {
                let s = next(32) + 1;
                if !squares.contains(&s) {
                    squares.push(s);
                }
            }
            let piece = |s: u64| format!("K{s}");
            let fen = format!(
                "{}:W{},{}:B{},{}",
                if next(2) == 0 { "B" } else { "W" },
                piece(squares[0]),
                piece(squares[1]),
                piece(squares[2]),
                piece(squares[3])
            );
            let Ok(before) = Position::from_fen(&fen) else {
                continue;
            };
            let moves = before.legal_moves();
            if before.jumpers() == 0 || moves.len() < 2 {
                continue;
            }
            let values: Vec<i8> = moves
                .iter()
                .map(|m| -outcome(db.probe(&before.play(m)).unwrap()))
                .collect();
            let best = *values.iter().max().unwrap();
            if values.iter().all(|&v| v == best) {
                continue;
            }
            choices += 1;
            for (mv, &v) in moves.iter().zip(&values) {
                let mut count = RefereeCount::default();
                judge_move(&db, &before, mv, &mut count);
                assert_eq!(count.judged, 1, "{fen} {mv}");
                assert_eq!(count.errors(), u32::from(v < best), "{fen} {mv}");
                assert_eq!(
                    count.win_to_loss,
                    u32::from(best == 1 && v == -1),
                    "{fen} {mv}"
                );
                errors += count.errors();
            }
        }
        assert!(
            choices > 10,
            "only {choices} positions with a choice of outcomes"
        );
        assert!(errors >= choices);
    }
}
