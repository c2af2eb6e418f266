//! Opening sources: the start position, the ACF 3-move ballot deck, the computer tough deck,
//! random openings, or a file of openings.
//!
//! An opening is a short move sequence from the start position, written as in the ACF deck:
//! `9-13 22-18 10-14` (Black first), or a position (a FEN, `B:W19,23,22:B4,3,2`, squares in any
//! order, ranges and kings, either side to move), as decks of start positions such as
//! CheckerBoard's 11-man ballots give them. A deck file holds one per line (a move sequence or a
//! FEN), or is PDN: one position per game, its `FEN` tag (or the standard start) and the moves
//! after it, if any. Every opening is played on the board when loaded, so an illegal move or a
//! bad position is reported with its file and line before any game starts; a deck is read
//! whole or refused (a skipped position would change which games are played).

use std::collections::HashSet;
use std::fmt;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::pdn::PdnReader;
use crate::board::{Move, Position};
use crate::error::{Error, Result};
use crate::eval::Weights;
use crate::input_file::{self, Links, ReadError, DECK_CAP};
use crate::rng::{stream, tag};
use crate::search::{SearchLimits, Searcher};
use crate::text::excerpt;

/// The 156 openings of the ACF three-move tournament deck, one per line.
const THREE_MOVE_DECK: &str = include_str!("../../../../data/three_move_ballots.txt");

/// The 50 ballots of the computer tough deck (all of them in the 156-ballot deck).
const TOUGH_DECK: &str = include_str!("../../../../data/tough_deck.txt");

/// The most plies a random opening may have: beyond it the "opening" is half a game.
pub const MAX_RANDOM_OPENING_PLIES: u32 = 40;

/// The shallow search that judges a random opening: full width 4, captures to 8, material.
const BALANCE_LIMITS: SearchLimits = SearchLimits::new(4, 8);

/// Attempts at a level random opening before the last one drawn is taken as it is.
const BALANCE_ATTEMPTS: u32 = 1_000;

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

/// Where the games start: a fixed deck, or openings made at random for each pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningBook {
    /// A fixed list of openings; a pair draws one.
    Deck(Vec<Opening>),
    /// `plies` random moves from the start, kept only when a shallow search with `material`
    /// scores the position within `balance` of level (so that neither side starts lost).
    Random {
        /// Random moves played from the start position.
        plies: u32,
        /// Largest absolute score (hundredths of a man) an opening may have.
        balance: i32,
    },
}

impl OpeningBook {
    /// The opening of one pair, drawn from the pair's own stream: both games of the pair get
    /// the same one. A one-opening deck draws nothing.
    pub fn for_pair(&self, rng: &mut ChaCha8Rng) -> Opening {
        match self {
            OpeningBook::Deck(deck) if deck.len() == 1 => deck[0].clone(),
            OpeningBook::Deck(deck) => deck[rng.gen_range(0..deck.len())].clone(),
            OpeningBook::Random { plies, balance } => random_opening(rng, *plies, *balance),
        }
    }

    /// `count` distinct openings drawn from `rng` (a shuffled deck's first ones; the whole deck
    /// if it has fewer).
    pub fn distinct(&self, count: usize, rng: &mut ChaCha8Rng) -> Vec<Opening> {
        match self {
            OpeningBook::Deck(deck) => {
                let mut order: Vec<usize> = (0..deck.len()).collect();
                order.shuffle(rng);
                order
                    .into_iter()
                    .take(count)
                    .map(|i| deck[i].clone())
                    .collect()
            }
            OpeningBook::Random { plies, balance } => {
                let mut seen = HashSet::new();
                let mut out = Vec::with_capacity(count);
                // A few plies allow only so many openings: stop when new ones stop coming.
                let mut misses = 0;
                while out.len() < count && misses < BALANCE_ATTEMPTS {
                    let opening = random_opening(rng, *plies, *balance);
                    if seen.insert(opening.position) {
                        out.push(opening);
                    } else {
                        misses += 1;
                    }
                }
                out
            }
        }
    }
}

/// `plies` random legal moves from the start position, drawn from `rng` again until a depth-4
/// material search scores the result within `balance` (or after many attempts, the last one).
pub fn random_opening(rng: &mut ChaCha8Rng, plies: u32, balance: i32) -> Opening {
    let mut searcher = Searcher::new(12);
    let mut last = None;
    for _ in 0..BALANCE_ATTEMPTS {
        let mut position = Position::start();
        let mut names = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            names.push(mv.to_string());
            position = position.play(&mv);
        }
        if position.is_lost() {
            continue;
        }
        let opening = Opening {
            name: if names.is_empty() {
                "start".to_string()
            } else {
                names.join(" ")
            },
            position,
        };
        let found = searcher.search(&position, &Weights::material(), BALANCE_LIMITS, None);
        if found.score.abs() <= balance {
            return opening;
        }
        last = Some(opening);
    }
    last.unwrap_or_else(Opening::start)
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

/// How far from level (hundredths of a man, by a shallow material search) a random opening may
/// be, unless a config says otherwise (`tournament.random_opening_balance`).
pub const RANDOM_OPENING_BALANCE: i32 = 50;

/// The deck names, as a message lists them.
pub const DECK_NAMES: &str =
    "start, 3-move (the 156 ACF ballots), tough (50 of them) and random:N (N random plies, 1 to 40)";

/// The longest openings path a config may give, in bytes: the longest path Linux opens.
const MAX_OPENINGS_PATH_BYTES: usize = 4096;

/// Where the games of a run start. Written in TOML as `"start"`, `"3-move"`, `"tough"`,
/// `"random:N"` or a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpeningsSource {
    /// The initial position only.
    Start,
    /// The 156 openings of the ACF 3-move ballot deck.
    ThreeMove,
    /// The 50 ballots of the computer tough deck.
    Tough,
    /// `N` random plies from the start, drawn for each pair from the pair's own stream.
    Random(u32),
    /// A file of openings, one per line, in the ballot deck's form. After loading, the path is
    /// absolute (it was relative to the config file's folder).
    File(PathBuf),
}

impl OpeningsSource {
    /// The source a deck name names (`start`, `3-move`, `tough`, `random:N`); `None` for any
    /// other text (the path of a file), an error for `random:` without a valid N.
    pub fn from_deck_name(name: &str) -> Option<std::result::Result<OpeningsSource, String>> {
        Some(Ok(match name {
            "start" => OpeningsSource::Start,
            "3-move" => OpeningsSource::ThreeMove,
            "tough" => OpeningsSource::Tough,
            random if random.starts_with("random:") => {
                return Some(match random["random:".len()..].parse::<u32>() {
                    Ok(plies) if (1..=MAX_RANDOM_OPENING_PLIES).contains(&plies) => {
                        Ok(OpeningsSource::Random(plies))
                    }
                    _ => Err(format!(
                        "\"{}\": expected random:N with N (random plies from the start) from 1 \
                         to {MAX_RANDOM_OPENING_PLIES}",
                        excerpt(name)
                    )),
                })
            }
            _ => return None,
        }))
    }

    /// The openings of a match over this source, each played by a pair: the deck, or, for
    /// `random:N`, `count` distinct random openings level within `balance`, drawn from `seed`.
    pub fn match_deck(&self, count: usize, seed: u64, balance: i32) -> Result<Vec<Opening>> {
        Ok(match self.book(balance)? {
            OpeningBook::Deck(deck) => deck,
            random => random.distinct(count, &mut stream(seed, &[tag::MATCH_OPENINGS])),
        })
    }

    /// The openings of this source: the start position alone, a shipped deck, a file's, or
    /// random openings level within `balance`.
    pub fn book(&self, balance: i32) -> Result<OpeningBook> {
        Ok(match self {
            OpeningsSource::Start => OpeningBook::Deck(vec![Opening::start()]),
            OpeningsSource::ThreeMove => OpeningBook::Deck(three_move_deck()),
            OpeningsSource::Tough => OpeningBook::Deck(tough_deck()),
            OpeningsSource::File(path) => OpeningBook::Deck(load_openings_file(path)?),
            &OpeningsSource::Random(plies) => OpeningBook::Random { plies, balance },
        })
    }
}

impl fmt::Display for OpeningsSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsSource::Start => f.write_str("start"),
            OpeningsSource::ThreeMove => f.write_str("3-move"),
            OpeningsSource::Tough => f.write_str("tough"),
            OpeningsSource::Random(plies) => write!(f, "random:{plies}"),
            OpeningsSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl Serialize for OpeningsSource {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            OpeningsSource::File(path) => match path.to_str() {
                Some(text) => serializer.serialize_str(text),
                None => Err(serde::ser::Error::custom(format!(
                    "openings path {} is not valid UTF-8",
                    path.display()
                ))),
            },
            other => serializer.serialize_str(&other.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for OpeningsSource {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SourceVisitor;
        impl Visitor<'_> for SourceVisitor {
            type Value = OpeningsSource;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "\"start\", \"3-move\", \"tough\", \"random:N\" or the path of a file of openings",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OpeningsSource, E> {
                if let Some(source) = OpeningsSource::from_deck_name(v) {
                    return source.map_err(E::custom);
                }
                match v {
                    "" => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                    path if path.len() > MAX_OPENINGS_PATH_BYTES => Err(E::custom(format!(
                        "the path \"{}\" is {} bytes long, at most {MAX_OPENINGS_PATH_BYTES} \
                         are allowed",
                        excerpt(path),
                        path.len()
                    ))),
                    path => Ok(OpeningsSource::File(PathBuf::from(path))),
                }
            }
        }
        deserializer.deserialize_str(SourceVisitor)
    }
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
    fn random_openings_follow_the_stream_and_are_level() {
        use crate::rng::stream;
        let book = OpeningBook::Random {
            plies: 8,
            balance: 0,
        };
        let a = book.for_pair(&mut stream(5, &[1, 2]));
        assert_eq!(a, book.for_pair(&mut stream(5, &[1, 2])));
        assert_eq!(a.name.split(' ').count(), 8);
        let again = Opening::from_moves(&a.name).unwrap();
        assert_eq!(again.position, a.position);
        let openings = book.distinct(30, &mut stream(5, &[3]));
        assert_eq!(openings.len(), 30);
        let positions: HashSet<_> = openings.iter().map(|o| o.position).collect();
        assert_eq!(positions.len(), 30);
        for o in &openings {
            let score = Searcher::default()
                .search(&o.position, &Weights::material(), BALANCE_LIMITS, None)
                .score;
            assert_eq!(score, 0, "{}", o.name);
        }
        // A lopsided bound lets every opening through; few plies give few distinct openings.
        let one_ply = OpeningBook::Random {
            plies: 1,
            balance: 10_000,
        };
        assert_eq!(one_ply.distinct(20, &mut stream(5, &[4])).len(), 7);
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

    #[test]
    fn deck_names_are_the_sources_and_random_decks_follow_the_seed() {
        assert_eq!(
            OpeningsSource::from_deck_name("tough"),
            Some(Ok(OpeningsSource::Tough))
        );
        assert_eq!(
            OpeningsSource::from_deck_name("random:6"),
            Some(Ok(OpeningsSource::Random(6)))
        );
        assert!(matches!(
            OpeningsSource::from_deck_name("random:41"),
            Some(Err(_))
        ));
        assert_eq!(OpeningsSource::from_deck_name("tough.txt"), None);
        let tough = OpeningsSource::Tough.match_deck(3, 1, 50).unwrap();
        assert_eq!(tough, tough_deck());
        let random = OpeningsSource::Random(6).match_deck(5, 9, 50).unwrap();
        assert_eq!(random.len(), 5);
        assert_eq!(
            random,
            OpeningsSource::Random(6).match_deck(5, 9, 50).unwrap()
        );
        assert_ne!(
            random,
            OpeningsSource::Random(6).match_deck(5, 10, 50).unwrap()
        );
    }
}
