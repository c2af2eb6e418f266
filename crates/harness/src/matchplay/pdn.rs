//! A match's games as PDN: each from the standard position with the opening's moves first, as
//! ballot games are recorded, so that it needs no `FEN` tag; the ballot is also in its
//! `Opening` tag.

use checkers_engine::board::Color;
use checkers_engine::game::{Opening, PdnGame};

use super::game::MatchGame;

impl MatchGame {
    /// The game as PDN (see the module documentation): `Round` is `pair.game` (`3.2`: pair 3,
    /// A playing White), `Black` and `White` the labels of the players who had those colours,
    /// `Opening` the ballot and `Termination` the reason's CSV label. `opening` is the game's
    /// own (`openings[self.pair]`).
    pub fn pdn_game(&self, opening: &Opening, a_label: &str, b_label: &str) -> PdnGame {
        self.pdn_game_in(None, opening, a_label, b_label)
    }

    /// [`MatchGame::pdn_game`] with `Round` `pairing.pair.game` (`2.3.1`: pairing 2, pair 3, A
    /// playing Black) when it is a tournament's pairing `pairing` (from 0): a tournament's
    /// pairings play the same pairs, so `pair.game` alone names a game in every one of them.
    pub fn pdn_game_in(
        &self,
        pairing: Option<usize>,
        opening: &Opening,
        a_label: &str,
        b_label: &str,
    ) -> PdnGame {
        let round = match pairing {
            Some(p) => format!("{}.{}.{}", p + 1, self.pair + 1, self.game),
            None => format!("{}.{}", self.pair + 1, self.game),
        };
        let (black, white) = match self.a_color {
            Color::Black => (a_label, b_label),
            Color::White => (b_label, a_label),
        };
        let mut game = PdnGame::played(
            "checkers-tuner match",
            &round,
            black,
            white,
            opening,
            &self.record,
        );
        if let Some(detail) = &self.record.forfeit {
            game.set_tag("Forfeit", detail);
        }
        game
    }
}

/// `games` as PDN text, one game after another in their order (see [`MatchGame::pdn_game`]);
/// `openings` is the match's deck, which each game's `pair` indexes.
///
/// # Panics
///
/// If a game's `pair` is not an index of `openings`.
pub fn match_pdn(
    games: &[MatchGame],
    openings: &[Opening],
    a_label: &str,
    b_label: &str,
) -> String {
    pdn_text(None, games, openings, a_label, b_label)
}

/// [`match_pdn`] for the games of a tournament's pairing `pairing` (from 0), whose `Round` tags
/// are `pairing.pair.game` ([`MatchGame::pdn_game_in`]).
///
/// # Panics
///
/// If a game's `pair` is not an index of `openings`.
pub fn tournament_pdn(
    pairing: usize,
    games: &[MatchGame],
    openings: &[Opening],
    a_label: &str,
    b_label: &str,
) -> String {
    pdn_text(Some(pairing), games, openings, a_label, b_label)
}

/// The games as PDN, in a tournament's pairing or in a match.
fn pdn_text(
    pairing: Option<usize>,
    games: &[MatchGame],
    openings: &[Opening],
    a_label: &str,
    b_label: &str,
) -> String {
    games
        .iter()
        .map(|g| {
            g.pdn_game_in(pairing, &openings[g.pair], a_label, b_label)
                .to_pdn()
        })
        .collect()
}
