//! A match's tally from A's side: game results and the pentanomial of pairs.

use checkers_engine::game::{GameScore, Tally};

use super::estimate::EloEstimate;
use super::pentanomial::Pentanomial;

/// A match's results from A's side: game totals and the pentanomial of pairs.
///
/// Both are kept because neither follows from the other: a pair worth 1 point is DD or WL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchTally {
    /// Games won, drawn and lost by A.
    pub results: Tally,
    /// Pairs by A's points.
    pub pentanomial: Pentanomial,
}

impl MatchTally {
    /// Records a pair from its two games' results for A.
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        self.results.add(first);
        self.results.add(second);
        self.pentanomial.add_pair(first, second);
    }

    /// Elo, its 95% interval and LOS from the pairs.
    pub fn estimate(&self) -> EloEstimate {
        self.pentanomial.estimate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_keeps_games_and_pairs() {
        use GameScore::*;
        let mut t = MatchTally::default();
        t.add_pair(Win, Loss); // 1 point: the DD/WL cell
        t.add_pair(Draw, Draw); // 1 point
        t.add_pair(Win, Draw); // 1½
        t.add_pair(Loss, Loss); // 0
        let r = t.results;
        assert_eq!((r.wins, r.draws, r.losses, r.games()), (2, 3, 3, 8));
        assert_eq!(t.pentanomial.counts, [1, 0, 2, 1, 0]);
        assert_eq!(r.points(), 3.5);
        assert_eq!(r.score(), Some(3.5 / 8.0));
        // The pair mean equals the game score: both are points per game.
        assert_eq!(t.estimate().score, 3.5 / 8.0);
        assert_eq!(r.line(), "W 2  D 3  L 3  score 3.5/8 (43.8%)");
        t.add_pair(Win, Win);
        assert_eq!(t.pentanomial.counts, [1, 0, 2, 1, 1]);
        assert_eq!(Tally::default().score(), None);
        assert_eq!(t.pentanomial.to_string(), "LL 1, LD 0, DD/WL 2, WD 1, WW 1");
    }
}
