//! One opening: its moves from the start or a position given as it is.

use crate::board::{Move, Position};

/// A starting point for games: its moves from the initial position and the position they reach,
/// or a position given as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves from the initial position, space-separated (`"start"` for none); for a
    /// position given as it is, its FEN (`W:W18,22:B9,K14`, as [`Position::to_fen`] writes it).
    pub name: String,
    /// The position after those moves.
    pub position: Position,
}

impl Opening {
    /// The initial position itself.
    pub fn start() -> Opening {
        Opening {
            name: "start".to_string(),
            position: Position::start(),
        }
    }

    /// The opening a name gives: `start`, a FEN as [`Opening::from_fen`] takes it, or moves as
    /// [`Opening::from_moves`] takes them.
    pub fn from_name(name: &str) -> std::result::Result<Opening, String> {
        if name == Opening::start().name {
            Ok(Opening::start())
        } else if name.contains(':') {
            // Move sequences never hold a `:`; every FEN does.
            Opening::from_fen(name)
        } else {
            Opening::from_moves(name)
        }
    }

    /// The position of a FEN (`B:W19,23,22:B4,3,2`; also its PDN tag as copied from a file,
    /// `[FEN "…"]`), named by its FEN as [`Position::to_fen`] writes it; refused when the side
    /// to move has no move.
    pub fn from_fen(fen: &str) -> std::result::Result<Opening, String> {
        let fen = fen.trim();
        let fen = match fen.strip_prefix("[FEN") {
            Some(tag) => tag.trim().trim_end_matches(']').trim().trim_matches('"'),
            None => fen,
        };
        let position = Position::from_fen(fen).map_err(|e| format!("FEN: {e}"))?;
        Opening::from_position(position)
    }

    /// `position` as an opening, named by its FEN; refused when the side to move has no move.
    pub fn from_position(position: Position) -> std::result::Result<Opening, String> {
        if position.is_lost() {
            return Err("the side to move has no move in this position".to_string());
        }
        Ok(Opening {
            name: position.to_fen(),
            position,
        })
    }

    /// The opening's moves from the initial position, if its name replays to its position
    /// (an opening made by this module always does).
    pub fn moves_from_start(&self) -> Option<Vec<Move>> {
        let moves = opening_moves(&self.name).ok()?;
        let end = moves.iter().fold(Position::start(), |pos, mv| pos.play(mv));
        (end == self.position).then_some(moves)
    }

    /// Plays `moves` (e.g. `9-13 22-18 10-14`) from the initial position.
    pub fn from_moves(moves: &str) -> std::result::Result<Opening, String> {
        let moves = opening_moves(moves)?;
        if moves.is_empty() {
            return Err("no moves".to_string());
        }
        let position = moves.iter().fold(Position::start(), |pos, mv| pos.play(mv));
        if position.is_lost() {
            return Err("the side to move has no move after these moves".to_string());
        }
        let names: Vec<String> = moves.iter().map(Move::to_string).collect();
        Ok(Opening {
            name: names.join(" "),
            position,
        })
    }
}

/// The moves of an opening's name (`9-13 22-18 10-14`; `start` for none), each checked to be
/// legal after the ones before it from the initial position.
fn opening_moves(name: &str) -> std::result::Result<Vec<Move>, String> {
    let mut position = Position::start();
    let mut moves = Vec::new();
    for text in name.split_whitespace().filter(|&text| text != "start") {
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("move {}: {e}", moves.len() + 1))?;
        position = position.play(&mv);
        moves.push(mv);
    }
    Ok(moves)
}
