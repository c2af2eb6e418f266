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
        let (black, white) = match self.a_color {
            Color::Black => (a_label, b_label),
            Color::White => (b_label, a_label),
        };
        let mut game = PdnGame::played(
            "checkers-tuner match",
            &format!("{}.{}", self.pair + 1, self.game),
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
    games
        .iter()
        .map(|g| g.pdn_game(&openings[g.pair], a_label, b_label).to_pdn())
        .collect()
}
