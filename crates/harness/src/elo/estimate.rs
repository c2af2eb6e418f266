//! An Elo estimate with its 95% interval and LOS, and the lines that print it.

use std::fmt;

/// Fewest pairs for which [`EloEstimate::summary_line`] shows the 95% interval and LOS: below
/// it the normal approximation behind them is poor, and a handful of identical pairs would show
/// a collapsed `± 0.0`.
pub const MIN_PAIRS_FOR_INTERVAL: u64 = 20;

/// Elo of A over B from pentanomial pair counts, with a 95% interval and LOS (see the module
/// notes for the method). Never NaN: degenerate samples give a collapsed interval or infinite ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Pairs the estimate rests on.
    pub pairs: u64,
    /// A's mean score per game, `μ` (½ without pairs).
    pub score: f64,
    /// Logistic Elo of `score`; ±∞ at a score of 1 or 0.
    pub elo: f64,
    /// Lower end of the 95% interval (may be −∞).
    pub lower: f64,
    /// Upper end of the 95% interval (may be +∞).
    pub upper: f64,
    /// Likelihood of superiority: the probability that A is the stronger, in `[0, 1]`.
    pub los: f64,
}

impl EloEstimate {
    /// Half the interval's width, fishtest's "±" figure: 0 for a collapsed interval, +∞ when an
    /// end is unbounded.
    pub fn margin(&self) -> f64 {
        if self.lower == self.upper {
            0.0
        } else {
            (self.upper - self.lower) / 2.0
        }
    }

    /// One line for the terminal, e.g. `Elo +35.2 ± 20.1 (95%: +15.1 .. +55.3), LOS 99.9%`;
    /// `Elo n/a (no game pairs)` without pairs; with fewer than [`MIN_PAIRS_FOR_INTERVAL`]
    /// pairs, the estimate alone and why there is no interval.
    pub fn summary_line(&self) -> String {
        if self.pairs > 0 && self.pairs < MIN_PAIRS_FOR_INTERVAL {
            return format!(
                "Elo {} (too few games for an interval: {} pairs, {} needed)",
                signed(self.elo),
                self.pairs,
                MIN_PAIRS_FOR_INTERVAL
            );
        }
        self.interval_line()
    }

    /// The full line, `Elo +35.2 ± 20.1 (95%: +15.1 .. +55.3), LOS 99.9%`, however few the
    /// pairs (`Elo n/a (no game pairs)` without any).
    pub fn interval_line(&self) -> String {
        if self.pairs == 0 {
            return "Elo n/a (no game pairs)".to_string();
        }
        format!(
            "Elo {} ± {} (95%: {} .. {}), LOS {:.1}%",
            signed(self.elo),
            unsigned(self.margin()),
            signed(self.lower),
            signed(self.upper),
            100.0 * self.los
        )
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary_line())
    }
}

/// `x` to one decimal with its sign, never `-0.0`; infinities as `+inf` / `-inf`.
fn signed(x: f64) -> String {
    format!("{:+.1}", round1(x))
}

/// `x ≥ 0` to one decimal; infinity as `inf`.
fn unsigned(x: f64) -> String {
    format!("{:.1}", round1(x))
}

/// Rounds to one decimal and turns −0 into +0, so that -0.04 prints as `+0.0`.
fn round1(x: f64) -> f64 {
    if x.is_finite() {
        (x * 10.0).round() / 10.0 + 0.0
    } else {
        x
    }
}
