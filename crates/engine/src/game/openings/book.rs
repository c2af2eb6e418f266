//! Where a pair's games start: a fixed deck, or random openings level by a shallow search.

use std::collections::HashSet;

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::opening::Opening;
use crate::board::Position;
use crate::eval::Weights;
use crate::search::{SearchLimits, Searcher};

/// The most plies a random opening may have: beyond it the "opening" is half a game.
pub const MAX_RANDOM_OPENING_PLIES: u32 = 40;

/// The shallow search that judges a random opening: full width 4, captures to 8, material.
const BALANCE_LIMITS: SearchLimits = SearchLimits::new(4, 8);

/// Attempts at a level random opening before the last one drawn is taken as it is.
const BALANCE_ATTEMPTS: u32 = 1_000;

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

/// How far from level (hundredths of a man, by a shallow material search) a random opening may
/// be, unless a config says otherwise (`tournament.random_opening_balance`).
pub const RANDOM_OPENING_BALANCE: i32 = 50;

#[cfg(test)]
mod tests {
    use super::*;

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
}
