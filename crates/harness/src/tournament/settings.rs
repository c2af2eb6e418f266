//! The `[tournament]` settings of a run.

use serde::{Deserialize, Serialize};

use checkers_engine::bounded::{int_in, is_zero, open_fraction};
use checkers_engine::eval::MAX_ABS_WEIGHT;
use checkers_engine::game::{GameSettings, OpeningsSource, RANDOM_OPENING_BALANCE};

/// The most rounds a run may have, and the bound of every key counted in rounds: a round plays
/// a whole tournament, so a million of them is years of games, while the bound keeps every
/// per-round count and id far from overflowing.
pub const MAX_ROUNDS: u32 = 1_000_000;

/// The most levels in a row without an elimination before a round ends: a level that
/// eliminates nobody replays the whole pool, so a larger count only delays a stuck round.
pub const MAX_STALL_LEVELS: u32 = 1_000;

/// The most plies of a game and of a stretch without progress: real games end within a few
/// hundred plies, and a game's moves are kept in memory until it ends.
pub const MAX_GAME_PLIES: u32 = 10_000;

/// The most openings each pair of finalists plays in the playoff: a deck of a thousand is far
/// beyond the shipped ones, and each opening is drawn and kept in memory before play starts.
pub const MAX_PLAYOFF_OPENINGS: u32 = 1_000;

/// `[tournament]`: the rounds of single elimination, the games' openings and draw rules, and the
/// final playoff. The one owner of these settings: the run config's section, with its defaults
/// and bounds; a round's bracket reads its shape from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TournamentParams {
    /// Number of rounds before the playoff.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_ROUNDS as i64 }>")]
    pub rounds: u32,
    /// A round ends once the pool has no more than this share of the population.
    #[serde(deserialize_with = "open_fraction")]
    pub survival_fraction: f64,
    /// A round also ends after this many consecutive bracket levels that eliminated nobody.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_STALL_LEVELS as i64 }>")]
    pub stall_levels: u32,
    /// Where every game starts.
    pub openings: OpeningsSource,
    /// With `openings = "random:N"`: the largest absolute score (hundredths of a man) a shallow
    /// material search may give a random opening; more lopsided ones are drawn again.
    #[serde(deserialize_with = "int_in::<_, i32, 0, { MAX_ABS_WEIGHT as i64 }>")]
    pub random_opening_balance: i32,
    /// Openings each pair plays: 1 for one game replayed with colours switched after a draw,
    /// k > 1 for a mini-match of k openings × both colours (the higher score goes on).
    #[serde(deserialize_with = "int_in::<_, u32, 1, 64>")]
    pub pairing_openings: u32,
    /// A game still running after this many plies is a draw.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_GAME_PLIES as i64 }>")]
    pub max_plies: u32,
    /// A game is a draw after this many plies in a row without a capture or a man's move.
    #[serde(deserialize_with = "int_in::<_, u32, 2, { MAX_GAME_PLIES as i64 }>")]
    pub no_progress_plies: u32,
    /// Number of openings each pair of finalists plays (both colours) in the playoff.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_PLAYOFF_OPENINGS as i64 }>")]
    pub playoff_openings: u32,
    /// End a game by the endgame database's value once it reaches a position the database
    /// holds (`reason = database`); only with `search.database_pieces` above 0.
    pub database_adjudication: bool,
    /// Write every bracket game to `games.pdn` as well as to `games.csv`.
    pub games_pdn: bool,
    /// Rounds between deepenings of the bracket's games: every `deepen_every` rounds, both
    /// search depths of a bracket game grow by one ply (0: never), up to `deepen_plies`
    /// more. Deeper games give the fits better scores to learn from as the run goes on; the
    /// gates, validation and the playoff keep the `[search]` depths. Left out of a written
    /// config when 0.
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, { MAX_ROUNDS as i64 }>",
        skip_serializing_if = "is_zero"
    )]
    pub deepen_every: u32,
    /// The most plies the deepenings add; left out of a written config at its default.
    #[serde(
        deserialize_with = "int_in::<_, u32, 1, 8>",
        skip_serializing_if = "is_default_deepen_plies"
    )]
    pub deepen_plies: u32,
}

/// The default of `deepen_plies`.
const DEFAULT_DEEPEN_PLIES: u32 = 2;

/// Whether `deepen_plies` is at its default (left out of a written config).
fn is_default_deepen_plies(n: &u32) -> bool {
    *n == DEFAULT_DEEPEN_PLIES
}

impl TournamentParams {
    /// The plies added to both search depths of round `round`'s bracket games.
    pub fn extra_plies(&self, round: u32) -> u32 {
        match self.deepen_every {
            0 => 0,
            every => ((round - 1) / every).min(self.deepen_plies),
        }
    }
}

impl Default for TournamentParams {
    /// 20 rounds, a round down to a fifth of the population or two levels that eliminated
    /// nobody, one opening per pair, the game rules of
    /// [`GameSettings::default`] (300 plies, 80 plies without progress); games from the 3-move
    /// deck (the start position alone makes most games between similar players identical);
    /// 8 openings per pair in the playoff.
    fn default() -> Self {
        let game = GameSettings::default();
        TournamentParams {
            rounds: 20,
            survival_fraction: 0.2,
            stall_levels: 2,
            openings: OpeningsSource::ThreeMove,
            random_opening_balance: RANDOM_OPENING_BALANCE,
            pairing_openings: 1,
            max_plies: game.max_plies,
            no_progress_plies: game.no_progress_plies,
            playoff_openings: 8,
            database_adjudication: game.database_adjudication,
            games_pdn: true,
            deepen_every: 0,
            deepen_plies: DEFAULT_DEEPEN_PLIES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deepening_adds_a_ply_every_so_many_rounds_up_to_its_limit() {
        let mut params = TournamentParams::default();
        assert_eq!(params.extra_plies(1), 0);
        assert_eq!(params.extra_plies(500), 0);
        params.deepen_every = 3;
        params.deepen_plies = 2;
        let extra: Vec<u32> = (1..=10).map(|r| params.extra_plies(r)).collect();
        assert_eq!(extra, [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]);
    }
}
