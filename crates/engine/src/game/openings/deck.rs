//! Decks of openings: the shipped ones and those read from a file of lines or of PDN games.

use std::io::BufReader;
use std::path::Path;

use super::super::pdn::PdnReader;
use super::opening::Opening;
use crate::board::{Move, Position};
use crate::error::{Error, Result};
use crate::input_file::{self, Links, ReadError, DECK_CAP};
use crate::text::excerpt;

/// The 156 openings of the ACF three-move tournament deck, one per line.
const THREE_MOVE_DECK: &str = include_str!("../../../../../data/three_move_ballots.txt");

/// The 50 ballots of the computer tough deck (all of them in the 156-ballot deck).
const TOUGH_DECK: &str = include_str!("../../../../../data/tough_deck.txt");

/// Parses a deck: one opening per line, a move sequence or a FEN; blank lines and lines
/// starting with `#` are skipped. `origin` names the source in error messages.
pub fn parse_openings(text: &str, origin: &str) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (number, line) in crate::text::strip_bom(text).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = if line.contains(':') {
            Opening::from_fen(line)
        } else {
            Opening::from_moves(line)
        };
        let opening = opening.map_err(|e| {
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
            "openings file {origin}: no openings (expected one move sequence per line, e.g. \
             `9-13 22-18 10-14`, one FEN per line, or PDN games)"
        )));
    }
    Ok(openings)
}

/// Parses a PDN deck: one opening per game, the position its `FEN` tag (or the standard start)
/// and its moves reach. A game from the standard start is named by its moves, as a line of a
/// move deck is; any other by its FEN. A game that cannot be read is refused with its line.
pub fn parse_pdn_openings(source: impl std::io::BufRead, origin: &str) -> Result<Vec<Opening>> {
    let mut reader = PdnReader::new(source);
    let mut openings = Vec::new();
    while let Some(game) = reader
        .next_game()
        .map_err(|e| Error::failure(format!("cannot read openings file {origin}: {e}")))?
    {
        let game = game.map_err(|e| Error::input(format!("openings file {origin}: {e}")))?;
        let number = openings.len() + 1;
        let opening = if game.start == Position::start() && !game.moves.is_empty() {
            let names: Vec<String> = game.moves.iter().map(Move::to_string).collect();
            Opening::from_moves(&names.join(" "))
        } else if game.start == Position::start() {
            Ok(Opening::start())
        } else {
            Opening::from_position(game.end_position())
        };
        let line = reader.game_line();
        openings.push(opening.map_err(|e| {
            Error::input(format!(
                "openings file {origin}: line {line}: game {number}: {}",
                excerpt(&e)
            ))
        })?);
    }
    if openings.is_empty() {
        return Err(Error::input(format!(
            "openings file {origin}: no games (a PDN deck holds one position per game, e.g. \
             `[FEN \"B:W18,22,23:B9,10,11\"] *`)"
        )));
    }
    Ok(openings)
}

/// The ACF three-move deck (156 openings), as shipped in the binary.
pub fn three_move_deck() -> Vec<Opening> {
    parse_openings(THREE_MOVE_DECK, "data/three_move_ballots.txt")
        .expect("the shipped 3-move deck is legal (checked by a test)")
}

/// The computer tough deck (50 openings), as shipped in the binary.
pub fn tough_deck() -> Vec<Opening> {
    parse_openings(TOUGH_DECK, "data/tough_deck.txt")
        .expect("the shipped tough deck is legal (checked by a test)")
}

/// Reads a file of openings: PDN when its name ends in `.pdn` or its first line that is not
/// blank starts with a tag (`[`), else one move sequence or FEN per line.
pub fn load_openings_file(path: &Path) -> Result<Vec<Opening>> {
    let bytes = input_file::read(path, Links::Follow, Some(DECK_CAP))
        .map_err(|e| Error::input(format!("openings file {}: {e}", path.display())))?;
    let origin = path.display().to_string();
    let pdn_name = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"));
    let first = bytes
        .strip_prefix(b"\xef\xbb\xbf".as_slice())
        .unwrap_or(&bytes)
        .iter()
        .find(|b| !b.is_ascii_whitespace());
    if pdn_name || first == Some(&b'[') {
        return parse_pdn_openings(BufReader::new(bytes.as_slice()), &origin);
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::input(format!("openings file {origin}: {}", ReadError::NotText)))?;
    parse_openings(&text, &origin)
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
            .all(|o| o.position.side_to_move() == crate::board::Color::White));
    }

    #[test]
    fn the_tough_deck_is_50_ballots_of_the_3_move_deck() {
        let tough = tough_deck();
        assert_eq!(tough.len(), 50);
        let deck = three_move_deck();
        assert!(tough.iter().all(|o| deck.contains(o)));
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

    #[test]
    fn fen_lines_and_pdn_games_are_positions() {
        let deck = parse_openings(
            "# mixed\nB:W19,23,22:B4,3,2\n[FEN \"W:W32-30:BK1\"]\n9-13 22-18\n",
            "deck.txt",
        )
        .unwrap();
        let names: Vec<&str> = deck.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(
            names,
            ["B:W19,22,23:B2,3,4", "W:W30,31,32:BK1", "9-13 22-18"]
        );
        // A position is not replayed from the start: its games carry a FEN.
        assert_eq!(deck[0].moves_from_start(), None);
        assert_eq!(Opening::from_name(&deck[1].name).unwrap(), deck[1]);
        let err = parse_openings("9-13\nB:W1:B1\n", "bad.txt").unwrap_err();
        assert!(err.to_string().contains("bad.txt line 2"), "{err}");
        // A position whose side to move has no move is no opening.
        let lost = parse_openings("W:W5:B1\n", "lost.txt");
        assert!(lost.is_err(), "{lost:?}");
        let pdn = "[FEN \"B:W18,22:B9,10\"]\n1. 10-14 *\n\n1. 9-13 22-18 *\n[Event \"x\"] *";
        let deck = parse_pdn_openings(pdn.as_bytes(), "deck.pdn").unwrap();
        let names: Vec<&str> = deck.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["W:W18,22:B9,14", "9-13 22-18", "start"]);
        let err = parse_pdn_openings("1. 9-13 *\n1. 9-14 22-17 2. 14-19 *".as_bytes(), "d.pdn");
        let err = err.unwrap_err().to_string();
        assert!(
            err.starts_with("openings file d.pdn: line 2: game 2: move 3"),
            "{err}"
        );
    }
}
