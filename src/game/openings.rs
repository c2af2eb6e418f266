//! Opening sources: the start position, the ACF 3-move ballot deck, or a file of openings.
//!
//! An opening is a short move sequence from the start position, written as in the ACF deck:
//! `9-13 22-18 10-14` (Black first). Every opening is played on the board when loaded, so an
//! illegal move is reported with its file and line before any game starts.

use std::path::Path;

use crate::engine::Position;
use crate::error::{Error, Result};
use crate::text::excerpt;

/// The 156 openings of the ACF three-move tournament deck, one per line.
const THREE_MOVE_DECK: &str = include_str!("../../data/three_move_ballots.txt");

/// A starting point for games: its moves from the initial position and the position they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves from the initial position, space-separated (`"start"` for none).
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

    /// Plays `moves` (e.g. `9-13 22-18 10-14`) from the initial position.
    pub fn from_moves(moves: &str) -> std::result::Result<Opening, String> {
        let mut position = Position::start();
        let mut names = Vec::new();
        for text in moves.split_whitespace() {
            let mv = position
                .parse_move(text)
                .map_err(|e| format!("move {}: {e}", names.len() + 1))?;
            names.push(mv.to_string());
            position = position.play(&mv);
        }
        if names.is_empty() {
            return Err("no moves".to_string());
        }
        if position.is_lost() {
            return Err("the side to move has no move after these moves".to_string());
        }
        Ok(Opening {
            name: names.join(" "),
            position,
        })
    }
}

/// Parses a deck: one opening per line; blank lines and lines starting with `#` are skipped.
/// `origin` names the source in error messages.
pub fn parse_openings(text: &str, origin: &str) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (number, line) in crate::text::strip_bom(text).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::from_moves(line).map_err(|e| {
            Error::input(format!(
                "openings file {origin} line {}: \"{}\": {}",
                number + 1,
                excerpt(line),
                excerpt(&e)
            ))
        })?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(Error::input(format!(
            "openings file {origin}: no openings (expected one move sequence per line, e.g. `9-13 22-18 10-14`)"
        )));
    }
    Ok(openings)
}

/// The ACF three-move deck (156 openings), as shipped in the binary.
pub fn three_move_deck() -> Vec<Opening> {
    parse_openings(THREE_MOVE_DECK, "data/three_move_ballots.txt")
        .expect("the shipped 3-move deck is legal (checked by a test)")
}

/// Reads a file of openings, one move sequence per line.
pub fn load_openings_file(path: &Path) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::input(format!(
            "openings file {}: cannot read: {e}",
            path.display()
        ))
    })?;
    parse_openings(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_deck_has_156_distinct_legal_openings() {
        let deck = three_move_deck();
        assert_eq!(deck.len(), 156);
        let distinct: std::collections::HashSet<_> = deck.iter().map(|o| o.position).collect();
        assert_eq!(distinct.len(), 156);
        assert_eq!(deck[0].name, "9-13 21-17 5-9");
        // After three moves White is to move.
        assert!(deck
            .iter()
            .all(|o| o.position.side_to_move() == crate::engine::Color::White));
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number() {
        let err = parse_openings("# deck\n9-13 22-18\n9-13 22-19\n", "my.txt").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("my.txt line 3"), "{msg}");
        assert!(msg.contains("22-19"), "{msg}");
        assert_eq!(err.exit_code(), 2);
        assert!(parse_openings("\n# nothing\n", "empty.txt").is_err());
        assert!(parse_openings("9-13 22-18 10-14 x", "x.txt").is_err());
    }
}
