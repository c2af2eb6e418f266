//! The maximum-likelihood pair distribution under a hypothesis on the mean score, which the
//! GSPRT's log-likelihood ratio is built on.

use super::pentanomial::{Pentanomial, PAIR_SCORE};

/// Pseudo-count standing in for an empty pentanomial cell in the SPRT (fishtest's `regularize`):
/// keeps the MLE defined and the variance positive while weighing less than any real pair.
const EMPTY_CELL: f64 = 1e-3;
/// The pair frequencies with empty cells replaced by [`EMPTY_CELL`] pairs, and their total.
pub(super) fn regularized(p: &Pentanomial) -> (f64, [f64; 5]) {
    let counts = p.counts.map(|c| if c == 0 { EMPTY_CELL } else { c as f64 });
    let total: f64 = counts.iter().sum();
    (total, counts.map(|c| c / total))
}

/// The multiplier `θ` of the maximum-likelihood distribution with mean `s` given frequencies `f`
/// (all positive) on the points [`PAIR_SCORE`]: the root of the secular equation
/// `g(θ) = Σ f_k d_k / (1 + θ d_k) = 0`, `d_k = x_k − s`. `g` falls strictly
/// (`g' = −Σ f_k d_k² / (1 + θ d_k)² < 0`) from +∞ at `θ = −1/(1 − s)` to −∞ at `θ = 1/s`, so
/// the root is unique. Newton's method from `θ = 0` (the root when `μ = s`) finds it in a few
/// steps; a step leaving the shrinking bracket around the root is replaced by bisection.
pub(super) fn mle_multiplier(f: &[f64; 5], s: f64) -> f64 {
    let d = PAIR_SCORE.map(|x| x - s);
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    let mut t = 0.0;
    // Bisection alone would need ~60 halvings; Newton usually needs under 10 steps.
    for _ in 0..200 {
        let (mut g, mut slope) = (0.0, 0.0);
        for (fk, dk) in f.iter().zip(d) {
            let q = dk / (1.0 + t * dk);
            g += fk * q;
            slope -= fk * q * q;
        }
        if g > 0.0 {
            lo = t;
        } else if g < 0.0 {
            hi = t;
        } else {
            // An exact root (or NaN, possible only within an ulp of a pole, where the bracket
            // is already as narrow as doubles allow).
            return t;
        }
        let newton = t - g / slope;
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - t).abs() <= 4.0 * f64::EPSILON * t.abs().max(1e-3) {
            return next;
        }
        t = next;
    }
    t
}
