//! One game of a match and its row of the per-game CSV.

use checkers_engine::board::Color;
use checkers_engine::game::{GameRecord, GameScore};
use checkers_engine::text::csv_line;

#[cfg(doc)]
use super::MatchReport;

/// One game of a match, seen from A's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGame {
    /// The pair's index: the opening's position in the deck, from 0.
    pub pair: usize,
    /// 1 (A plays Black) or 2 (A plays White).
    pub game: u8,
    /// The opening's moves (`start` for the initial position).
    pub opening: String,
    /// The colour A played.
    pub a_color: Color,
    /// The game, played from the opening's position.
    pub record: GameRecord,
}

impl MatchGame {
    /// The CSV header of the per-game file.
    pub const CSV_HEADER: [&'static str; 9] = [
        "pair", "game", "opening", "a_color", "result", "a_score", "plies", "reason", "moves",
    ];

    /// The name of the column a match with another program as a player adds: a forfeit's
    /// position, answer and reason ([`GameRecord::forfeit`]), empty for the other games.
    pub const DETAIL_COLUMN: &'static str = "detail";

    /// The game's CSV row (pairs numbered from 1, as printed; the moves space-separated, with
    /// full capture paths).
    pub fn csv_record(&self) -> [String; 9] {
        let score = match self.a_score() {
            GameScore::Win => "1",
            GameScore::Draw => "0.5",
            GameScore::Loss => "0",
        };
        [
            (self.pair + 1).to_string(),
            self.game.to_string(),
            self.opening.clone(),
            color_label(self.a_color).to_string(),
            self.record.result.label().to_string(),
            score.to_string(),
            self.record.plies.to_string(),
            self.record.reason.label().to_string(),
            self.record.move_text(),
        ]
    }

    /// The result for A.
    pub fn a_score(&self) -> GameScore {
        GameScore::for_a(self.record.result, self.a_color == Color::Black)
    }

    /// The game's CSV row as text, ending in `\n`: exactly the line [`MatchReport::csv_text`]
    /// writes for it.
    pub fn csv_line(&self) -> String {
        csv_line(&self.csv_record())
    }

    /// The game's row with the [`MatchGame::DETAIL_COLUMN`] last, ending in `\n`: the row of a
    /// match with another program as a player.
    pub fn csv_line_with_detail(&self) -> String {
        let [a, b, c, d, e, f, g, h, i] = self.csv_record();
        let detail = self.record.forfeit.clone().unwrap_or_default();
        csv_line(&[a, b, c, d, e, f, g, h, i, detail])
    }

    /// The row as a match's file has it: with the detail column or without.
    pub fn csv_line_for(&self, detail: bool) -> String {
        if detail {
            self.csv_line_with_detail()
        } else {
            self.csv_line()
        }
    }

    /// The header line of the per-game CSV, ending in `\n`.
    pub fn csv_header_line() -> String {
        csv_line(&MatchGame::CSV_HEADER)
    }

    /// The header line with the detail column, or without, ending in `\n`.
    pub fn csv_header_line_for(detail: bool) -> String {
        if !detail {
            return MatchGame::csv_header_line();
        }
        let mut names = MatchGame::CSV_HEADER.to_vec();
        names.push(MatchGame::DETAIL_COLUMN);
        csv_line(&names)
    }
}

/// A's colour in game `game` (1 or 2) of a pair.
pub(super) fn a_color(game: u8) -> Color {
    if game == 1 {
        Color::Black
    } else {
        Color::White
    }
}

/// A colour as the per-game CSV writes it.
pub(super) fn color_label(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}
