//! Writing a game as PDN text.

use super::{pdn_result, PdnGame};
use crate::board::{Color, Position};
use crate::game::{GameRecord, Opening};

/// Longest move-text line written.
const LINE_WIDTH: usize = 79;

/// A tag value with `\` and `"` escaped as PGN does.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl PdnGame {
    /// A game played from `opening`, with the four player tags: from the standard position
    /// with the opening's moves first, as ballot games are recorded (no `FEN` tag needed), or,
    /// for an opening whose name does not replay to its position, from that position. The
    /// tags `Opening` (its name), `OpeningPlies` (how many of the moves are the opening's) and
    /// `Termination` (why the game ended, as the CSV files write it) follow.
    pub fn played(
        event: &str,
        round: &str,
        black: &str,
        white: &str,
        opening: &Opening,
        record: &GameRecord,
    ) -> PdnGame {
        let (start, mut moves) = match opening.moves_from_start() {
            Some(moves) => (Position::start(), moves),
            None => (opening.position, Vec::new()),
        };
        let opening_plies = moves.len();
        moves.extend_from_slice(&record.moves);
        let mut game = PdnGame::new(
            event,
            round,
            black,
            white,
            start,
            moves,
            Some(record.result),
        );
        game.set_tag("Opening", &opening.name);
        game.set_tag("OpeningPlies", &opening_plies.to_string());
        game.set_tag("Termination", record.reason.label());
        game
    }

    /// The game as PDN text: tags, a blank line, the move text (wrapped at 79 columns) ending
    /// with the result, and a blank line after it so that games can be concatenated.
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        };
        let mut rest = Vec::new();
        for (name, value) in &self.tags {
            if matches!(name.as_str(), "Event" | "Round" | "Black" | "White") {
                tag(name, value);
            } else if !matches!(name.as_str(), "Result" | "GameType" | "FEN") {
                rest.push((name, value));
            }
        }
        tag("Result", pdn_result(self.result));
        tag("GameType", "21");
        if self.start != Position::start() {
            tag("FEN", &self.start.to_fen());
        }
        for (name, value) in rest {
            tag(name, value);
        }
        out.push('\n');
        let mut tokens = Vec::with_capacity(self.moves.len() * 3 / 2 + 1);
        let mut pos = self.start;
        for (i, mv) in self.moves.iter().enumerate() {
            let number = move_number(&self.start, i);
            // A move number stays on the line of its move.
            tokens.push(match pos.side_to_move() {
                Color::Black => format!("{number}. {mv}"),
                Color::White if i == 0 => format!("{number}... {mv}"),
                Color::White => mv.to_string(),
            });
            pos = pos.play(mv);
        }
        tokens.push(pdn_result(self.result).to_string());
        let mut width = 0;
        for token in tokens {
            if width > 0 {
                let wrap = width + 1 + token.len() > LINE_WIDTH;
                out.push(if wrap { '\n' } else { ' ' });
                width = if wrap { 0 } else { width + 1 };
            }
            out.push_str(&token);
            width += token.len();
        }
        out.push_str("\n\n");
        out
    }
}

/// The full-move number of ply `i` of a game from `start` (Black's move opens a number).
fn move_number(start: &Position, i: usize) -> usize {
    let offset = usize::from(start.side_to_move() == Color::White);
    (i + offset) / 2 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn::read_pdn;
    use crate::game::GameResult;

    fn game(fen: Option<&str>, moves: &[&str], result: Option<GameResult>) -> PdnGame {
        let start = fen.map_or(Position::start(), |f| Position::from_fen(f).unwrap());
        let mut pos = start;
        let moves = moves
            .iter()
            .map(|m| {
                let mv = pos.parse_move(m).unwrap();
                pos = pos.play(&mv);
                mv
            })
            .collect();
        PdnGame::new("test", "1", "A", "B \"quoted\"", start, moves, result)
    }

    #[test]
    fn a_game_is_written_with_tags_numbers_and_result() {
        let mut g = game(
            None,
            &["11-15", "22-18", "15x22", "25x18"],
            Some(GameResult::Draw),
        );
        g.set_tag("Termination", "repetition");
        assert_eq!(
            g.to_pdn(),
            "[Event \"test\"]\n[Round \"1\"]\n[Black \"A\"]\n[White \"B \\\"quoted\\\"\"]\n\
             [Result \"1/2-1/2\"]\n[GameType \"21\"]\n[Termination \"repetition\"]\n\n\
             1. 11-15 22-18 2. 15x22 25x18 1/2-1/2\n\n"
        );
        assert_eq!(read_pdn(&g.to_pdn()).unwrap(), vec![g]);
    }

    #[test]
    fn a_white_to_move_start_gets_a_fen_tag_and_an_ellipsis() {
        let g = game(
            Some("W:W25,27,31:B3,9,14,17"),
            &["27-23", "17-22", "25x18"],
            None,
        );
        let text = g.to_pdn();
        assert!(
            text.contains("[FEN \"W:W25,27,31:B3,9,14,17\"]\n"),
            "{text}"
        );
        assert!(
            text.ends_with("\n1... 27-23 2. 17-22 25x18 *\n\n"),
            "{text}"
        );
        assert_eq!(read_pdn(&text).unwrap(), vec![g]);
    }
}
