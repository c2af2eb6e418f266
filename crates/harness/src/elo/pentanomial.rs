//! The pentanomial: game pairs counted by A's points, and the Elo estimate they give (the
//! method is in the notes of [`crate::elo`]).

use std::fmt;

use checkers_engine::game::GameScore;

use super::estimate::EloEstimate;
use super::logistic::logistic_elo;
use super::normal::{normal_cdf, Z_95};

/// The per-game score of a pair worth `k` half-points, `x_k = k / 4`.
pub(super) const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// Counts of game pairs by A's points: `counts[k]` pairs scored `k / 2` points
/// (`[LL, LD, DD or WL, WD, WW]`; which game of the pair came first does not matter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pairs scoring 0, ½, 1, 1½ and 2 points for A.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// A pentanomial with the given counts (`[LL, LD, DD+WL, WD, WW]`).
    pub const fn from_counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Records a pair worth `half_points` half-points to A.
    ///
    /// # Panics
    ///
    /// If `half_points > 4`: a pair of two games cannot score more than 2 points.
    pub fn add(&mut self, half_points: usize) {
        assert!(
            half_points <= 4,
            "a game pair scores 0..=4 half-points, got {half_points}"
        );
        self.counts[half_points] += 1;
    }

    /// Records a pair from its two games' results for A.
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        self.add(first.half_points() + second.half_points());
    }

    /// Number of pairs recorded.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean score per game `μ` and the variance `σ²` of one pair's per-game score (see the
    /// module notes); `None` without pairs.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let pairs = self.pairs();
        if pairs == 0 {
            return None;
        }
        // Integer half-point total: symmetric counts then give μ = ½ exactly, and identical
        // pairs give μ = x_k exactly, hence σ² = 0 exactly.
        let half_points: u64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &n)| k as u64 * n)
            .sum();
        let n = pairs as f64;
        let mean = half_points as f64 / (4.0 * n);
        let variance = self
            .counts
            .iter()
            .zip(PAIR_SCORE)
            .map(|(&c, x)| c as f64 * (x - mean) * (x - mean))
            .sum::<f64>()
            / n;
        Some((mean, variance))
    }

    /// Elo, its 95% interval and LOS from these pairs.
    pub fn estimate(&self) -> EloEstimate {
        let Some((mean, variance)) = self.mean_and_variance() else {
            return EloEstimate {
                pairs: 0,
                score: 0.5,
                elo: 0.0,
                lower: f64::NEG_INFINITY,
                upper: f64::INFINITY,
                los: 0.5,
            };
        };
        let se = (variance / self.pairs() as f64).sqrt();
        let los = if se > 0.0 {
            normal_cdf((mean - 0.5) / se)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        EloEstimate {
            pairs: self.pairs(),
            score: mean,
            elo: logistic_elo(mean),
            lower: logistic_elo(mean - Z_95 * se),
            upper: logistic_elo(mean + Z_95 * se),
            los,
        }
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [ll, ld, dd, wd, ww] = self.counts;
        write!(f, "LL {ll}, LD {ld}, DD/WL {dd}, WD {wd}, WW {ww}")
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, penta};
    use super::*;
    use checkers_engine::game::GameResult;

    fn no_nan(e: &EloEstimate) {
        for (name, x) in [
            ("score", e.score),
            ("elo", e.elo),
            ("lower", e.lower),
            ("upper", e.upper),
            ("los", e.los),
            ("margin", e.margin()),
        ] {
            assert!(!x.is_nan(), "{name} is NaN in {e:?}");
        }
        assert!(e.lower <= e.elo && e.elo <= e.upper, "{e:?}");
        assert!((0.0..=1.0).contains(&e.los), "{e:?}");
        let line = e.interval_line();
        assert!(!line.to_lowercase().contains("nan"), "{line}");
    }

    #[test]
    fn balanced_small_counts_worked_by_hand() {
        // [0,1,2,1,0]: pairs LD, DD, DD, WD → x = ¼, ½, ½, ¾; N = 4.
        // μ = (¼ + ½ + ½ + ¾)/4 = ½;  σ² = (1/16 + 0 + 0 + 1/16)/4 = 1/32 = 0.03125;
        // se = √(σ²/N) = √(1/128) = 0.0883883;  z·se = 1.959964 × 0.0883883 = 0.173238;
        // score interval [0.326762, 0.673238];
        // upper Elo = 400·log10(0.673238/0.326762) = 400·log10(2.060309) = 125.575, lower = −125.575.
        // LOS = Φ(0) = ½.
        let e = penta([0, 1, 2, 1, 0]).estimate();
        assert_eq!(e.pairs, 4);
        assert_eq!(e.score, 0.5);
        assert_eq!(e.elo, 0.0);
        close(e.upper, 125.575, 5e-4);
        close(e.lower, -125.575, 5e-4);
        close(e.los, 0.5, 1e-15);
        close(e.margin(), 125.575, 5e-4);
        assert_eq!(
            e.interval_line(),
            "Elo +0.0 ± 125.6 (95%: -125.6 .. +125.6), LOS 50.0%"
        );
    }

    #[test]
    fn winning_small_counts_worked_by_hand() {
        // [0,0,1,2,1]: pairs DD, WD, WD, WW → x = ½, ¾, ¾, 1; N = 4.
        // μ = 3/4 = 0.75, so Elo = 400·log10(0.75/0.25) = 400·log10 3 = 190.849.
        // σ² = ((−¼)² + 0 + 0 + (¼)²)/4 = 1/32;  se = 0.0883883;  z·se = 0.173238;
        // score interval [0.576762, 0.923238];
        // lower = 400·log10(0.576762/0.423238) = 400·log10(1.362736) = 53.765,
        // upper = 400·log10(0.923238/0.076762) = 400·log10(12.027294) = 432.067.
        // LOS = Φ(0.25/0.0883883) = Φ(2.828427) = 0.997661.
        let e = penta([0, 0, 1, 2, 1]).estimate();
        assert_eq!(e.score, 0.75);
        close(e.elo, 190.849, 5e-4);
        close(e.lower, 53.765, 5e-4);
        close(e.upper, 432.067, 5e-4);
        close(e.los, 0.997661, 5e-7);
        // The interval is asymmetric in Elo: wider above than below.
        assert!(e.upper - e.elo > e.elo - e.lower);
        close(e.margin(), (432.067 - 53.765) / 2.0, 1e-3);
        assert_eq!(
            e.interval_line(),
            "Elo +190.8 ± 189.2 (95%: +53.8 .. +432.1), LOS 99.8%"
        );
    }

    #[test]
    fn losing_small_counts_worked_by_hand() {
        // [0,2,1,0,0]: pairs LD, LD, DD → x = ¼, ¼, ½; N = 3.
        // μ = 1/3, Elo = 400·log10((1/3)/(2/3)) = −400·log10 2 = −120.412.
        // σ² = (2·(1/12)² + (1/6)²)/3 = (2/144 + 4/144)/3 = 1/72 = 0.0138889;
        // se = √(1/216) = 0.0680414;  z·se = 0.133358;  score interval [0.199975, 0.466692];
        // lower = 400·log10(0.199975/0.800025) = −240.851,
        // upper = 400·log10(0.466692/0.533308) = −23.179.
        // LOS = Φ((1/3 − ½)/0.0680414) = Φ(−2.449490) = 0.007153.
        let e = penta([0, 2, 1, 0, 0]).estimate();
        close(e.score, 1.0 / 3.0, 1e-15);
        close(e.elo, -120.412, 5e-4);
        close(e.lower, -240.851, 5e-4);
        close(e.upper, -23.179, 5e-4);
        close(e.los, 0.007153, 5e-7);
    }

    #[test]
    fn wide_spread_interval_runs_off_the_score_scale() {
        // [1,0,0,0,1]: LL and WW. μ = ½, σ² = ¼, se = ½/√2 = 0.353553; μ ± z·se = ½ ± 0.692952
        // leaves [0, 1] on both sides, so both ends are unbounded; Elo 0 and LOS ½ stand.
        let e = penta([1, 0, 0, 0, 1]).estimate();
        assert_eq!(e.elo, 0.0);
        assert_eq!(e.lower, f64::NEG_INFINITY);
        assert_eq!(e.upper, f64::INFINITY);
        assert_eq!(e.margin(), f64::INFINITY);
        assert_eq!(e.los, 0.5);
        no_nan(&e);
        assert_eq!(
            e.interval_line(),
            "Elo +0.0 ± inf (95%: -inf .. +inf), LOS 50.0%"
        );
    }

    #[test]
    fn symmetric_counts_give_zero_elo_and_a_symmetric_interval() {
        for counts in [
            [3, 10, 40, 10, 3],
            [0, 1, 0, 1, 0],
            [7, 0, 5, 0, 7],
            [2, 9, 100, 9, 2],
        ] {
            let e = penta(counts).estimate();
            assert_eq!(e.score, 0.5, "{counts:?}");
            assert_eq!(e.elo, 0.0, "{counts:?}");
            close(e.lower, -e.upper, 1e-9);
            assert!(e.upper > 0.0, "{counts:?}");
            close(e.los, 0.5, 1e-15);
        }
        // [3,10,40,10,3] by hand: N = 66, σ² = (2·3·¼ + 2·10·(1/16))/66 = 2.75/66 = 1/24,
        // se = √(1/1584) = 0.0251259, z·se = 0.0492459, upper = 400·log10(0.549246/0.450754) = 34.331.
        close(penta([3, 10, 40, 10, 3]).estimate().upper, 34.331, 5e-4);
    }

    #[test]
    fn los_rises_as_pairs_improve() {
        // Start from a losing sample and move one pair at a time one step up the scale: the
        // mean rises each time, and the LOS with it (never falling), from below ½ to above.
        let mut counts = [4u64, 6, 10, 2, 0];
        let mut previous = penta(counts).estimate();
        assert!(previous.los < 0.5);
        let mut moves = 0;
        'outer: loop {
            for k in 0..4 {
                if counts[k] > 0 {
                    counts[k] -= 1;
                    counts[k + 1] += 1;
                    let e = penta(counts).estimate();
                    assert!(e.score > previous.score, "{counts:?}");
                    assert!(e.elo > previous.elo, "{counts:?}");
                    assert!(
                        e.los >= previous.los,
                        "{counts:?}: {} < {}",
                        e.los,
                        previous.los
                    );
                    previous = e;
                    moves += 1;
                    continue 'outer;
                }
            }
            break;
        }
        assert!(moves > 40);
        assert!(previous.los > 0.5 && previous.elo.is_infinite());
        // Strictly increasing in the middle, where Φ is not saturated:
        let a = penta([2, 5, 10, 5, 2]).estimate().los;
        let b = penta([2, 5, 10, 4, 3]).estimate().los;
        let c = penta([2, 5, 9, 5, 3]).estimate().los;
        assert!(a < b && b < c, "{a} {b} {c}");
    }

    #[test]
    fn degenerate_samples_give_no_nan() {
        // No pairs: the uninformative estimate.
        let empty = penta([0; 5]).estimate();
        assert_eq!(
            (empty.pairs, empty.score, empty.elo, empty.los),
            (0, 0.5, 0.0, 0.5)
        );
        assert_eq!(
            (empty.lower, empty.upper),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        no_nan(&empty);
        assert_eq!(empty.summary_line(), "Elo n/a (no game pairs)");

        // All draws (or all WL): μ = ½, σ² = 0, the interval collapses onto Elo 0.
        for counts in [[0, 0, 9, 0, 0], [0, 0, 1, 0, 0]] {
            let e = penta(counts).estimate();
            assert_eq!(
                (e.elo, e.lower, e.upper, e.los, e.margin()),
                (0.0, 0.0, 0.0, 0.5, 0.0)
            );
            no_nan(&e);
            assert_eq!(
                e.interval_line(),
                "Elo +0.0 ± 0.0 (95%: +0.0 .. +0.0), LOS 50.0%"
            );
        }

        // All wins: μ = 1, Elo +∞, LOS 1.
        let wins = penta([0, 0, 0, 0, 5]).estimate();
        assert_eq!(
            (wins.elo, wins.lower, wins.upper, wins.los),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY, 1.0)
        );
        no_nan(&wins);
        assert_eq!(
            wins.interval_line(),
            "Elo +inf ± 0.0 (95%: +inf .. +inf), LOS 100.0%"
        );

        // All losses: μ = 0, Elo −∞, LOS 0.
        let losses = penta([5, 0, 0, 0, 0]).estimate();
        assert_eq!((losses.elo, losses.los), (f64::NEG_INFINITY, 0.0));
        no_nan(&losses);

        // All LD: μ = ¼ inside the scale but σ² = 0: a point at −190.849 Elo, LOS 0.
        let ld = penta([0, 3, 0, 0, 0]).estimate();
        close(ld.elo, -190.849, 5e-4);
        assert_eq!((ld.lower, ld.upper, ld.los), (ld.elo, ld.elo, 0.0));

        // Mostly wins with one WD: the upper end runs past a score of 1.
        let e = penta([0, 0, 0, 1, 20]).estimate();
        assert_eq!(e.upper, f64::INFINITY);
        assert!(e.lower.is_finite() && e.lower > 300.0);
        no_nan(&e);
    }

    #[test]
    fn game_score_from_colour() {
        assert_eq!(GameScore::for_a(GameResult::BlackWin, true), GameScore::Win);
        assert_eq!(
            GameScore::for_a(GameResult::BlackWin, false),
            GameScore::Loss
        );
        assert_eq!(
            GameScore::for_a(GameResult::WhiteWin, true),
            GameScore::Loss
        );
        assert_eq!(
            GameScore::for_a(GameResult::WhiteWin, false),
            GameScore::Win
        );
        assert_eq!(GameScore::for_a(GameResult::Draw, true), GameScore::Draw);
        let mut p = Pentanomial::default();
        p.add_pair(GameScore::Draw, GameScore::Win);
        p.add(0);
        assert_eq!(p.counts, [1, 0, 0, 1, 0]);
    }

    #[test]
    #[should_panic(expected = "0..=4 half-points")]
    fn a_pair_cannot_score_more_than_two_points() {
        Pentanomial::default().add(5);
    }

    #[test]
    fn too_few_pairs_show_the_estimate_without_an_interval() {
        let few = Pentanomial::from_counts([0, 1, 3, 2, 0]).estimate();
        assert_eq!(few.pairs, 6);
        assert!(
            few.summary_line().starts_with("Elo +"),
            "{}",
            few.summary_line()
        );
        assert!(
            few.summary_line()
                .ends_with("(too few games for an interval: 6 pairs, 20 needed)"),
            "{}",
            few.summary_line()
        );
        assert!(few.interval_line().contains("95%"));
        let enough = Pentanomial::from_counts([0, 4, 9, 7, 0]).estimate();
        assert_eq!(enough.summary_line(), enough.interval_line());
    }
}
