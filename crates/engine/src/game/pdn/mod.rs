//! PDN game records (Portable Draughts Notation, the checkers cousin of chess's PGN) for
//! English checkers: writing a game ([`PdnGame::to_pdn`]) and reading games back
//! ([`PdnReader`], [`read_pdn`]).
//!
//! A written game has the tags `Event`, `Round`, `Black`, `White`, `Result` (`1-0` when Black
//! won, `0-1` when White won, `1/2-1/2`, `*` unknown), `GameType "21"` (English checkers), `FEN`
//! when the game did not start from the standard position, then any extra tags (such as why the
//! game ended); then the numbered move text with full jump paths, `1. 9-13 22-18 2. 13x22 …`,
//! ended by the result. A game started with White to move begins `1... 22-18`.
//!
//! Reading takes what the readers people use (CheckerBoard, pydraughts) take:
//!
//! - tags in any order; a `FEN` tag with squares in any order, ranges (`W21-24`) and kings
//!   (`K10`), either side to move; `GameType "21"` or none;
//! - move text with or without move numbers (`1.`, `1...`, `12.`, or glued, `1.9-13`), moves
//!   with annotations (`9-13!`, `?`, `!?`, `??`, `*`, `$1`), short jumps (`9x27`) when only one
//!   jump goes there, and `x` written for a plain move or `-` for a jump when exactly one legal
//!   move goes from that square to that one;
//! - comments `{…}` (ending at the first `}`: a `{` inside is text), `;` comments to the end of
//!   the line, variations `(…)` (skipped, nested, whatever their comments hold), `%` escape
//!   lines;
//! - CRLF line ends, a UTF-8 byte-order mark, and lines that are not UTF-8, read as Latin-1;
//! - the results `1-0`, `0-1`, `1/2-1/2`, `*` and draughts' `2-0`, `0-2`, `1-1`, `0-0`.
//!
//! A game ends at its result, or where the tags of the next game start: after move text, after
//! a blank line that ends a tag section, or at a tag its section already has. So a game of tags
//! and no moves is a game of its own (with no moves), never merged into the next.
//!
//! Every move is checked for legality from the start position. A game that cannot be read (an
//! illegal or unreadable move, a bad `FEN`, a tag without its value, a comment never closed) is
//! a [`PdnError`] naming the line of the bad token; [`PdnReader`] then goes on with the next
//! game, so a caller may skip damaged games and report them, or stop at the first. Text is read
//! a line at a time: memory does not grow with the file, only with the game being read.

use std::fmt;

mod reader;
mod tokens;
mod writer;

use crate::board::{Move, Position};
use crate::game::GameResult;

pub use reader::{read_pdn, PdnReader};

/// One game: its tags, start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The tags other than `Result`, `GameType` and `FEN` (those come from the fields below), in
    /// order: a written game puts `Event`, `Round`, `Black` and `White` first.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The result; `None` for `*` (unfinished or unknown).
    pub result: Option<GameResult>,
}

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The game it happened in, counting from 1 (every game of the text counts, the damaged
    /// and the empty ones too).
    pub game: usize,
    /// The line of the token that could not be read, counting from 1.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: game {}: {}",
            self.line, self.game, self.message
        )
    }
}

impl std::error::Error for PdnError {}

/// The PDN result text of a result (`*` for none).
pub fn pdn_result(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::BlackWin) => "1-0",
        Some(GameResult::WhiteWin) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// Reads a PDN result token, including the 2-0 / 1-1 / 0-2 / 0-0 forms of draughts scoring.
fn parse_result(token: &str) -> Option<Option<GameResult>> {
    Some(match token {
        "1-0" | "2-0" => Some(GameResult::BlackWin),
        "0-1" | "0-2" => Some(GameResult::WhiteWin),
        "1/2-1/2" | "1-1" => Some(GameResult::Draw),
        "*" | "0-0" => None,
        _ => return None,
    })
}

impl PdnGame {
    /// A game with the four player tags (`Event`, `Round`, `Black`, `White`).
    pub fn new(
        event: &str,
        round: &str,
        black: &str,
        white: &str,
        start: Position,
        moves: Vec<Move>,
        result: Option<GameResult>,
    ) -> PdnGame {
        let tags = [
            ("Event", event),
            ("Round", round),
            ("Black", black),
            ("White", white),
        ];
        PdnGame {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            start,
            moves,
            result,
        }
    }

    /// The value of a tag (`Result`, `GameType` and `FEN` are not kept as tags).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if it is already there.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The position after all the moves.
    pub fn end_position(&self) -> Position {
        self.moves.iter().fold(self.start, |pos, mv| pos.play(mv))
    }
}
