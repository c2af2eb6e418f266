//! Reading back the per-game CSV of an interrupted match, to continue it.

use checkers_engine::board::{Color, Position};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{EndReason, GameRecord, GameResult, Opening};
use checkers_engine::text::excerpt;

use super::game::{a_color, color_label, MatchGame};
#[cfg(doc)]
use super::play_match_from;

/// The header of the per-game CSV before it had the `moves` column: such a file is recognised
/// to say why it cannot be continued.
const HEADER_WITHOUT_MOVES: &str = "pair,game,opening,a_color,result,a_score,plies,reason\n";

impl MatchGame {
    /// Reads back a row written by [`MatchGame::csv_record`], all but its moves (left empty),
    /// which need the opening's position: [`MatchGame::read_moves`] reads them. `None` if a
    /// field is not one that could have been written.
    fn from_csv_fields(fields: &csv::StringRecord, detail: bool) -> Option<MatchGame> {
        if fields.len() != MatchGame::CSV_HEADER.len() + usize::from(detail) {
            return None;
        }
        let pair: usize = fields[0].parse().ok()?;
        let game: u8 = fields[1].parse().ok()?;
        let a_color = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| color_label(c) == &fields[3])?;
        let result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw]
            .into_iter()
            .find(|&r| r.label() == &fields[4])?;
        let reason = EndReason::ALL
            .into_iter()
            .find(|&r| r.label() == &fields[7])?;
        Some(MatchGame {
            pair: pair.checked_sub(1)?,
            game,
            opening: fields[2].to_string(),
            a_color,
            record: GameRecord {
                result,
                plies: fields[6].parse().ok()?,
                reason,
                moves: Vec::new(),
                scores: Vec::new(),
                forfeit: fields
                    .get(9)
                    .filter(|text| !text.is_empty())
                    .map(str::to_string),
            },
        })
    }

    /// Plays the `moves` field of a row from `start`, the game's opening position; the
    /// message says which move is not legal.
    fn read_moves(&mut self, text: &str, start: &Position) -> std::result::Result<(), String> {
        let mut pos = *start;
        let record = &mut self.record;
        record.moves.clear();
        for word in text.split_whitespace() {
            let mv = pos.parse_move(word).map_err(|e| {
                format!(
                    "moves: move {} ({}): {e}",
                    record.moves.len() + 1,
                    excerpt(word)
                )
            })?;
            pos = pos.play(&mv);
            record.moves.push(mv);
        }
        if record.moves.len() != record.plies as usize {
            return Err(format!(
                "plies {} but {} moves",
                record.plies,
                record.moves.len()
            ));
        }
        Ok(())
    }
}

/// The games of the complete pairs at the start of a per-game CSV, as an interrupted match
/// left it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRows {
    /// The games, two per pair, in opening order.
    pub games: Vec<MatchGame>,
    /// The bytes they fill, header included: anything after them (a row cut short, or the
    /// first game of a pair whose second was not written) is what a stopped process left.
    pub complete_len: usize,
    /// Whether the file has the detail column (a match with another program as a player).
    pub detail: bool,
}

/// Reads the per-game CSV `bytes` of an interrupted match over `openings` (named `origin` in
/// messages) to continue it with [`play_match_from`]. Every complete row must be exactly the row
/// this program writes for the next game (pair, game, the pair's opening, A's colour, a result
/// and the score it gives A, plies, reason, and that many legal moves from the opening); a last
/// line without its line break, or a pair's first game alone at the end, is left out. Anything
/// else is bad input naming the line, and so is a file of an earlier version, without the
/// `moves` column: its games cannot be written as PDN, and mixing rows of both kinds in one
/// file would leave a CSV no reader takes.
pub fn read_match_rows(bytes: &[u8], origin: &str, openings: &[Opening]) -> Result<MatchRows> {
    let with_detail = MatchGame::csv_header_line_for(true);
    let detail = bytes.starts_with(with_detail.as_bytes());
    let header = MatchGame::csv_header_line_for(detail);
    if bytes.starts_with(HEADER_WITHOUT_MOVES.as_bytes()) {
        return Err(Error::input(format!(
            "{origin}: a match's games CSV of an earlier version, without the `moves` column; \
             this version cannot continue it: finish that match with the version that started \
             it, or start it again with another file"
        )));
    }
    if !bytes.starts_with(header.as_bytes()) {
        return Err(Error::input(format!(
            "{origin} line 1: not the header of a match's games CSV (`{}`)",
            header.trim_end()
        )));
    }
    let mut games: Vec<MatchGame> = Vec::new();
    let mut at = header.len();
    let mut complete_len = at;
    let mut line_number = 1;
    while let Some(end) = bytes[at..].iter().position(|&b| b == b'\n') {
        line_number += 1;
        let line = &bytes[at..at + end + 1];
        let expected_pair = games.len() / 2;
        let expected_game = games.len() as u8 % 2 + 1;
        let bad = |what: String| Error::input(format!("{origin} line {line_number}: {what}"));
        let record = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line)
            .records()
            .next()
            .and_then(|r| r.ok());
        let not_a_row = || {
            bad(format!(
                "not a row of a match's games CSV: `{}`",
                excerpt(&String::from_utf8_lossy(line))
            ))
        };
        let Some((mut game, moves)) = record
            .as_ref()
            .and_then(|r| Some((MatchGame::from_csv_fields(r, detail)?, r.get(8)?)))
        else {
            return Err(not_a_row());
        };
        if expected_pair >= openings.len() {
            return Err(bad(format!(
                "a game after the last of the {} openings",
                openings.len()
            )));
        }
        let a_color = a_color(expected_game);
        if (game.pair, game.game, game.a_color) != (expected_pair, expected_game, a_color) {
            return Err(bad(format!(
                "expected pair {} game {expected_game} (A {}), found pair {} game {}",
                expected_pair + 1,
                color_label(a_color),
                game.pair + 1,
                game.game
            )));
        }
        let opening = &openings[expected_pair].name;
        if &game.opening != opening {
            return Err(bad(format!(
                "opening `{}`, but pair {} of these openings is `{opening}`",
                excerpt(&game.opening),
                expected_pair + 1
            )));
        }
        game.read_moves(moves, &openings[expected_pair].position)
            .map_err(bad)?;
        if game.csv_line_for(detail).as_bytes() != line {
            return Err(not_a_row());
        }
        games.push(game);
        at += end + 1;
        if games.len().is_multiple_of(2) {
            complete_len = at;
        }
    }
    if games.len() % 2 == 1 {
        games.pop();
    }
    Ok(MatchRows {
        games,
        complete_len,
        detail,
    })
}
