//! One game to play, handed to the game function, and what it reports back.

use checkers_engine::game::GameRecord;
use checkers_engine::rng::tag;

use crate::tournament::specimen::Specimen;

/// One game to play, handed to the game function.
///
/// To give the colour-switched game 2 the same opening as game 1 (docs/tournament.md), draw the
/// opening from a stream keyed by [`GameJob::pair_key`]; draw anything per game (random tie-breaks)
/// from [`GameJob::game_key`].
#[derive(Clone, Copy, Debug)]
pub struct GameJob<'a> {
    /// The round number.
    pub round: u32,
    /// The bracket level, 0 for the whole population.
    pub level: u32,
    /// The pair's index within its level, from 0.
    pub pair: u32,
    /// 1 for the first game, 2 for the colour-switched rematch after a draw; in a mini-match
    /// 1 to 2k, games 2j+1 and 2j+2 on opening j (the first of the pair Black in the odd one).
    pub game: u32,
    /// The pair's opening this game starts from, from 0 (always 0 with one opening per pair).
    pub opening: u32,
    /// The specimen playing Black (the first of the pair in game 1, the second in game 2).
    pub black: &'a Specimen,
    /// The specimen playing White.
    pub white: &'a Specimen,
}

impl GameJob<'_> {
    /// The stream key `[GAME, round, level, pair]`, shared by both games of the pair.
    pub fn pair_key(&self) -> [u64; 4] {
        [
            tag::GAME,
            u64::from(self.round),
            u64::from(self.level),
            u64::from(self.pair),
        ]
    }

    /// The stream key the game's opening is drawn from: [`GameJob::pair_key`] for the pair's
    /// first opening (shared by its two games), `[GAME, round, level, pair, j << 32]` for
    /// opening `j > 0` of a mini-match.
    pub fn opening_key(&self) -> Vec<u64> {
        let mut key = self.pair_key().to_vec();
        if self.opening > 0 {
            key.push(u64::from(self.opening) << 32);
        }
        key
    }

    /// The stream key `[GAME, round, level, pair, game]`, this game's own.
    pub fn game_key(&self) -> [u64; 5] {
        let [t, r, l, p] = self.pair_key();
        [t, r, l, p, u64::from(self.game)]
    }
}

/// What the game function reports about a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// The opening it started from, as written to `games.csv`.
    pub opening: String,
    /// The game played from the opening's position; `Black` and `White` are the board's.
    pub record: GameRecord,
}
