//! Where a run's games start, as a config names it: a shipped deck, random openings or a file.

use std::fmt;
use std::path::PathBuf;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::book::{OpeningBook, MAX_RANDOM_OPENING_PLIES};
use super::deck::{load_openings_file, three_move_deck, tough_deck};
use super::opening::Opening;
use crate::error::Result;
use crate::rng::{stream, tag};
use crate::text::excerpt;

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
