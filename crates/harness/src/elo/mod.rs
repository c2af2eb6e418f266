//! Elo from pentanomial pair results, its 95% interval, LOS and SPRT.
//!
//! A `match` plays its games in pairs: both games of a pair start from the same opening, A taking
//! Black in one and White in the other. The two games of a pair are not independent — an opening
//! that favours one colour tends to hand each engine the win with that colour — so the statistics
//! here take the *pair* as the unit of observation, not the game. A pair scores 0, ½, 1, 1½ or 2
//! points for A (LL, LD, DD or WL, WD, WW) and the five counts form the **pentanomial**
//! distribution. Treating the games as independent trinomial draws would get the variance wrong
//! (too wide when colours pull the two results apart, as in WL pairs); this is why fishtest and
//! OpenBench moved their statistics to pentanomial pair counts.
//!
//! # Notation
//!
//! `N` pairs, `n_k` pairs worth `k` half-points (`k = 0..=4`), frequencies `f_k = n_k / N` and
//! per-game scores `x_k = k / 4`, so a pair's `x` is its points divided by its two games.
//!
//! - `μ = Σ f_k x_k`: the mean score per game;
//! - `σ² = Σ f_k (x_k − μ)²`: the variance of one pair's per-game score (the plain "population"
//!   variance of the empirical distribution, as fishtest's `stats` computes it);
//! - `se = σ / √N`: the standard error of `μ`.
//!
//! # Elo, interval, LOS (fishtest `stat_util.get_elo`, OpenBench `stats.Elo`)
//!
//! - logistic Elo `elo(s) = −400·log10(1/s − 1)`, with `elo(0) = −∞` and `elo(1) = +∞`;
//! - 95% interval `[elo(μ − z·se), elo(μ + z·se)]`, `z = Φ⁻¹(0.975) = 1.959963984540054`. It is
//!   built on the score scale and mapped through the increasing logistic curve, so it is
//!   asymmetric in Elo whenever `μ ≠ ½`. An end past 0 or 1 maps to ∓∞: the normal approximation
//!   cannot bound that side, and a made-up cap (OpenBench clamps the score to `[0.001, 0.999]`,
//!   i.e. ±1199.6 Elo) would look like a measurement;
//! - LOS (likelihood of superiority) `Φ((μ − ½)/se)`: under the normal approximation with a flat
//!   prior, the probability that A's true score exceeds ½.
//!
//! With `σ² = 0` (every pair identical, which includes a single pair) the interval collapses onto
//! the point estimate and LOS is 1, ½ or 0 by the sign of `μ − ½`: the data show no spread to
//! measure. With no pairs at all the estimate is Elo 0 in `(−∞, +∞)` with LOS ½.
//!
//! # SPRT: Wald's test with Van den Bergh's GSPRT
//!
//! `Sprt` tests H0: `elo = elo0` against H1: `elo = elo1` (logistic Elo; scores
//! `s0 = 1/(1 + 10^(−elo0/400))`, `s1` likewise), stopping when the log-likelihood ratio leaves
//! Wald's interval `(ln(β/(1−α)), ln((1−β)/α))`. Both hypotheses fix only the mean score, not
//! the shape of the pentanomial distribution; Michel Van den Bergh's **generalized SPRT** (notes
//! "GSPRT approximation" and "support_MLE_multinomial", implemented in fishtest's `LLRcalc.py`)
//! replaces the shape by its maximum-likelihood estimate under each hypothesis. The MLE of a
//! distribution on the points `x_k` with mean `s`, given the empirical `f_k`, is
//! `p_k = f_k / (1 + θ(x_k − s))` with `θ` the unique root of the secular equation
//! `Σ f_k (x_k − s)/(1 + θ(x_k − s)) = 0` on `(−1/(1−s), 1/s)`, so the generalized LLR is
//!
//! ```text
//! LLR = N · Σ f_k · [ ln(1 + θ0(x_k − s0)) − ln(1 + θ1(x_k − s1)) ]        (Sprt::llr)
//! ```
//!
//! Expanding `ln p` to second order around the empirical distribution gives the Brownian
//! approximation of the same note (fishtest `LLR_alt2`, the form fishtest's live `sprt.py`
//! evaluates):
//!
//! ```text
//! LLR ≈ N · [(μ − s0)² − (μ − s1)²] / (2σ²) = N · (s1 − s0)(2μ − s0 − s1) / (2σ²)
//! ```
//!
//! (`Sprt::llr_brownian`). The two agree closely once the sample has spread (for fishtest's
//! sample counts `[39, 8843, 26675, 9240, 44]` they differ in the fourth digit), but the
//! approximation divides by the *observed* variance, and checkers is drawish: five DD pairs in a
//! row have `σ²` near zero and the approximation reports LLR −4.1 for `0,10` — "accept H0" after
//! ten games, a false negative whenever a real +10 Elo engine opens with five drawn pairs (half
//! the time at an 87% DD rate). The exact GSPRT gives −0.14 there. `verdict` therefore uses the
//! exact form. Simulated with a check after every pair (3000 runs each), at 87% DD pairs the
//! exact form wrongly accepts H0 at +10 Elo in 9.2% of runs and H1 at 0 Elo in 4.9% (nominal
//! β = α = 5%); the approximation in 55% and 8.7%. At 50% DD: 5.2% and 5.2% against 27.5% and
//! 28.6%. (fishtest updates its LLR in batches of many games, where the two forms agree.)
//! The price is patience on lopsided streams far from both hypotheses, where the exact LLR moves
//! about 0.03 per pair: a stream of LL, LL, DD needs ~100 pairs to accept H0 for `0,10` (the
//! approximation stops after the first pair, a lone LL showing no variance). As fishtest does
//! (`regularize`), both forms replace empty cells by 0.001 pairs so that the MLE exists and
//! `σ² > 0`.
//!
//! Van den Bergh's **"Normalized Elo"** note (`normalized_elo_practical`) divides the score
//! difference by its per-game standard deviation so that SPRT bounds mean the same effort at any
//! draw rate; it is built on the same pentanomial variance. This module reports logistic Elo,
//! which is what the command's users read, and uses the note's pentanomial variance only.
//!
//! # Normal distribution
//!
//! `Φ` is written from `erf`: the series of Abramowitz & Stegun 7.1.6 for `|x| < 1` (all terms
//! positive, no cancellation) and the continued fraction 7.1.14 for `erfc` beyond. Against
//! 40-digit mpmath values on a 0.001 grid over `[0, 6]` the relative error was at most 7e-16 for
//! `erf` and 9e-15 for `erfc` (limited by rounding in `exp(−x²)`), so `Φ` is good to ~1e-14
//! relative even in its far tails — far beyond the one decimal of LOS printed.

mod estimate;
mod likelihood;
mod logistic;
mod normal;
mod pentanomial;
mod ratings;
mod sprt;
mod tally;
#[cfg(test)]
mod testing;

pub use estimate::{EloEstimate, MIN_PAIRS_FOR_INTERVAL};
pub use logistic::{logistic_elo, logistic_score};
pub use normal::normal_cdf;
pub use pentanomial::Pentanomial;
pub use ratings::{rating_list, RatedGame, Rating, RatingList};
pub use sprt::{Sprt, SprtVerdict};
pub use tally::MatchTally;
