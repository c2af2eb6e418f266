//! What a round counts: pair outcomes, games, byes, plies and weight diversity (`rounds.csv`).

use serde::{Deserialize, Serialize};

use super::specimen::Specimen;
use checkers_engine::eval::FEATURE_COUNT;

/// How one pair of a bracket level ended (docs/tournament.md: exactly one of five outcomes per
/// pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairOutcome {
    /// Game 1 won by Black (the first of the pair).
    BlackWin,
    /// Game 1 won by White (the second of the pair).
    WhiteWin,
    /// Game 1 drawn, game 2 (colours switched) won by its Black, the second of the pair.
    DrawThenBlackWin,
    /// Game 1 drawn, game 2 (colours switched) won by its White, the first of the pair.
    DrawThenWhiteWin,
    /// Both games drawn: both specimens go on.
    DoubleDraw,
}

impl PairOutcome {
    /// Games the pair played: 1 when the first game was decisive, else 2.
    pub fn games(self) -> u64 {
        match self {
            PairOutcome::BlackWin | PairOutcome::WhiteWin => 1,
            _ => 2,
        }
    }
}

/// Counts of the five pair outcomes, for one level or a whole round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeCounts {
    /// Pairs whose first game Black won.
    pub black_wins: u64,
    /// Pairs whose first game White won.
    pub white_wins: u64,
    /// Pairs decided by Black in the colour-switched second game.
    pub draw_then_black_win: u64,
    /// Pairs decided by White in the colour-switched second game.
    pub draw_then_white_win: u64,
    /// Pairs with two draws.
    pub double_draws: u64,
    /// Games played by these pairs: one or two per pair under the replay-on-draw rule,
    /// `2 × pairing_openings` per pair under mini-matches.
    #[serde(default)]
    pub games: u64,
}

impl OutcomeCounts {
    /// Counts one more pair with `outcome`.
    pub fn record(&mut self, outcome: PairOutcome) {
        let slot = match outcome {
            PairOutcome::BlackWin => &mut self.black_wins,
            PairOutcome::WhiteWin => &mut self.white_wins,
            PairOutcome::DrawThenBlackWin => &mut self.draw_then_black_win,
            PairOutcome::DrawThenWhiteWin => &mut self.draw_then_white_win,
            PairOutcome::DoubleDraw => &mut self.double_draws,
        };
        *slot += 1;
        self.games += outcome.games();
    }

    /// Counts a mini-match of `games` games whose outcome is read as documented for
    /// `pairing_openings > 1`: `BlackWin`/`WhiteWin` the first/second of the pair won on points,
    /// `DrawThenBlackWin`/`DrawThenWhiteWin` level on points and the first/second went on by
    /// lot.
    pub fn record_mini_match(&mut self, outcome: PairOutcome, games: u64) {
        self.record(outcome);
        self.games += games - outcome.games();
    }

    /// Adds another set of counts (a level's into a round's).
    pub fn add(&mut self, other: &OutcomeCounts) {
        self.black_wins += other.black_wins;
        self.white_wins += other.white_wins;
        self.draw_then_black_win += other.draw_then_black_win;
        self.draw_then_white_win += other.draw_then_white_win;
        self.double_draws += other.double_draws;
        self.games += other.games;
    }

    /// Number of pairs counted.
    pub fn pairs(&self) -> u64 {
        self.black_wins
            + self.white_wins
            + self.draw_then_black_win
            + self.draw_then_white_win
            + self.double_draws
    }

    /// Games these pairs played (see the `games` field).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Specimens these pairs eliminated: every pair except a double draw loses one.
    pub fn eliminated(&self) -> u64 {
        self.pairs() - self.double_draws
    }
}

/// One row of `rounds.csv`: the totals of a round (docs/run-folder.md) and further
/// statistics.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundStats {
    /// The round number, as given by the caller.
    pub round: u32,
    /// Specimens in the round's population (N).
    pub population: u64,
    /// Bracket levels played.
    pub levels: u32,
    /// Pair outcomes summed over all levels.
    pub outcomes: OutcomeCounts,
    /// Byes given, summed over all levels.
    pub byes: u64,
    /// Specimens in the final pool.
    pub survivors: u64,
    /// Newcomers bred after the round; the bracket leaves it 0 and the caller fills it in.
    pub newcomers: u64,
    /// Plies of all games of the round, the numerator of `mean_plies`.
    pub total_plies: u64,
    /// [`diversity`] of the round's population.
    pub diversity: f64,
    /// [`diversity`] of the round's survivors.
    pub survivor_diversity: f64,
}

impl RoundStats {
    /// Games played in the round.
    pub fn games(&self) -> u64 {
        self.outcomes.games()
    }

    /// Mean plies per game, 0 when no game was played.
    pub fn mean_plies(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            games => self.total_plies as f64 / games as f64,
        }
    }

    /// The `rounds.csv` header: the outcome counts of docs/tournament.md, then the further
    /// statistics.
    pub fn csv_header() -> Vec<&'static str> {
        "round,population,levels,games,black_wins,white_wins,draw_then_black_win,\
         draw_then_white_win,double_draws,byes,survivors,newcomers,mean_plies,diversity,\
         survivor_diversity"
            .split(',')
            .collect()
    }

    /// This round as a `rounds.csv` record, matching [`RoundStats::csv_header`].
    ///
    /// Fractions are written with exactly two decimals so that identical runs give
    /// byte-identical files.
    pub fn to_csv_record(&self) -> Vec<String> {
        let o = &self.outcomes;
        vec![
            self.round.to_string(),
            self.population.to_string(),
            self.levels.to_string(),
            self.games().to_string(),
            o.black_wins.to_string(),
            o.white_wins.to_string(),
            o.draw_then_black_win.to_string(),
            o.draw_then_white_win.to_string(),
            o.double_draws.to_string(),
            self.byes.to_string(),
            self.survivors.to_string(),
            self.newcomers.to_string(),
            format!("{:.2}", self.mean_plies()),
            format!("{:.2}", self.diversity),
            format!("{:.2}", self.survivor_diversity),
        ]
    }
}

/// Weight diversity of a group: the mean, over the 20 weights (opening then endgame), of the
/// population standard deviation of that weight across the group. 0 for fewer than two specimens.
///
/// A collapsing value shows the population converging on one weight vector.
pub fn diversity(specimens: &[Specimen]) -> f64 {
    if specimens.len() < 2 {
        return 0.0;
    }
    let n = specimens.len() as f64;
    let mut total = 0.0;
    for set in [
        |s: &Specimen| s.weights.opening,
        |s: &Specimen| s.weights.endgame,
    ] {
        for i in 0..FEATURE_COUNT {
            let value = |s: &Specimen| f64::from(set(s).0[i]);
            let mean = specimens.iter().map(value).sum::<f64>() / n;
            let var = specimens
                .iter()
                .map(|s| (value(s) - mean).powi(2))
                .sum::<f64>()
                / n;
            total += var.sqrt();
        }
    }
    total / (2 * FEATURE_COUNT) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::eval::{WeightPair, Weights};

    fn specimen(id: u64, opening: [i32; FEATURE_COUNT], endgame: [i32; FEATURE_COUNT]) -> Specimen {
        Specimen {
            id,
            weights: WeightPair {
                opening: Weights(opening),
                endgame: Weights(endgame),
            },
            extra: None,
            patterns: None,
            tables: None,
            parent_a: None,
            parent_b: None,
            born_round: 0,
            fitted: false,
            search: None,
        }
    }

    #[test]
    fn diversity_is_zero_for_clones_and_mean_std_otherwise() {
        let a = specimen(0, [5; 10], [-3; 10]);
        assert_eq!(diversity(&[a.clone(), a.clone(), a.clone()]), 0.0);
        assert_eq!(diversity(std::slice::from_ref(&a)), 0.0);
        assert_eq!(diversity(&[]), 0.0);
        // One weight differs by 10 between two specimens: its std is 5, the other 19 are 0.
        let mut open = [5; 10];
        open[3] = 15;
        let b = specimen(1, open, [-3; 10]);
        assert!((diversity(&[a.clone(), b.clone()]) - 5.0 / 20.0).abs() < 1e-12);
        // Every weight differs by 2: every std is 1.
        let c = specimen(2, [7; 10], [-1; 10]);
        assert!((diversity(&[a, c]) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn outcome_counts_games_and_eliminations() {
        let mut c = OutcomeCounts::default();
        for o in [
            PairOutcome::BlackWin,
            PairOutcome::WhiteWin,
            PairOutcome::WhiteWin,
            PairOutcome::DrawThenBlackWin,
            PairOutcome::DrawThenWhiteWin,
            PairOutcome::DoubleDraw,
        ] {
            c.record(o);
        }
        assert_eq!(c.white_wins, 2);
        assert_eq!(c.pairs(), 6);
        assert_eq!(c.games(), 3 + 2 * 3);
        assert_eq!(c.eliminated(), 5);
        let mut total = c;
        total.add(&c);
        assert_eq!(total.games(), 18);
        assert_eq!(total.double_draws, 2);
    }

    #[test]
    fn csv_record_matches_header_and_formats_two_decimals() {
        let stats = RoundStats {
            round: 3,
            population: 10,
            levels: 2,
            outcomes: OutcomeCounts {
                black_wins: 3,
                white_wins: 2,
                draw_then_black_win: 1,
                draw_then_white_win: 0,
                double_draws: 1,
                games: 9,
            },
            byes: 1,
            survivors: 2,
            newcomers: 8,
            total_plies: 100,
            diversity: 12.0 / 7.0,
            survivor_diversity: 0.0,
        };
        let record = stats.to_csv_record();
        assert_eq!(record.len(), RoundStats::csv_header().len());
        assert_eq!(
            record,
            [
                "3", "10", "2", "9", "3", "2", "1", "0", "1", "1", "2", "8", "11.11", "1.71",
                "0.00"
            ]
        );
        assert_eq!(RoundStats::default().to_csv_record()[12], "0.00");
    }
}
