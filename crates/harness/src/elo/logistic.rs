//! The logistic Elo scale: a score per game and the Elo difference it stands for.
/// Logistic Elo of a score per game: `400·log10(s / (1 − s))`; −∞ at `s ≤ 0`, +∞ at `s ≥ 1`.
pub fn logistic_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// Expected score per game at a logistic Elo difference: `1 / (1 + 10^(−elo/400))`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::super::testing::close;
    use super::*;

    #[test]
    fn logistic_elo_and_score_are_inverse() {
        // 400·log10(3) = 190.848502; a score of 0.75 is that many Elo.
        close(logistic_elo(0.75), 190.848_501_887_864_97, 1e-9);
        close(logistic_score(190.848_501_887_864_97), 0.75, 1e-15);
        assert_eq!(logistic_elo(0.5), 0.0);
        assert_eq!(logistic_score(0.0), 0.5);
        // s1 for elo1 = 10: 1/(1 + 10^(−1/40)) = 0.514387184.
        close(logistic_score(10.0), 0.514_387_184_165_998_7, 1e-15);
        for elo in [-800.0, -100.0, -3.5, 1.0, 35.0, 400.0, 900.0] {
            close(logistic_elo(logistic_score(elo)), elo, 1e-9);
        }
        assert_eq!(logistic_elo(0.0), f64::NEG_INFINITY);
        assert_eq!(logistic_elo(-0.1), f64::NEG_INFINITY);
        assert_eq!(logistic_elo(1.0), f64::INFINITY);
        assert_eq!(logistic_elo(1.3), f64::INFINITY);
    }
}
