//! A rating list: maximum-likelihood ratings of many players from all their games.
//!
//! The model is Ordo's: the expected score of Black (who moves first in checkers) in a game of
//! Black `b` against White `w` is `σ(k·(r_b − r_w + a))`, `σ(x) = 1/(1 + e^(−x))`,
//! `k = ln 10 / 400` (logistic Elo), `a` the colour advantage in Elo, estimated with the
//! ratings. A game's likelihood is `p^s (1 − p)^(1 − s)` with `s` Black's points, so a draw
//! counts as half a win and half a loss. The anchor's rating is fixed at 0 and the others are
//! found by Newton's method on the log-likelihood (concave, so the root is the maximum).
//!
//! Intervals come from the observed information (the negated Hessian `H` at the maximum):
//! `Var(r_i) = (H⁻¹)_ii`, relative to the anchor, and the 95% interval is `r_i ± 1.96·√Var`.
//! The LOS of a player over the next one in the list is `Φ(Δ/√Var(r_i − r_j))` with
//! `Var(r_i − r_j) = V_ii + V_jj − 2 V_ij`. A player with a perfect (or null) score has no
//! finite maximum: Newton's steps are capped at 400 Elo and the iteration at 200 steps, so its
//! rating ends far out with an interval as wide; the list still orders it right.

use super::normal::{normal_cdf, Z_95};

/// One game for the rating list: the two players (indices) and Black's points (0, ½ or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The player with Black (moves first).
    pub black: usize,
    /// The player with White.
    pub white: usize,
    /// Black's points: 1 a win, 0.5 a draw, 0 a loss.
    pub black_points: f64,
}

/// One player's entry in a [`RatingList`].
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The player's index among the players given.
    pub player: usize,
    /// Elo relative to the anchor (the anchor is 0).
    pub elo: f64,
    /// Half the width of the 95% interval (0 for the anchor).
    pub margin: f64,
    /// Likelihood of superiority over the next player in the list (`None` for the last).
    pub los_next: Option<f64>,
    /// Games played.
    pub games: u32,
    /// Points scored.
    pub points: f64,
}

/// Maximum-likelihood ratings, best first, with the colour advantage.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingList {
    /// The players, best first (ties in player order).
    pub ratings: Vec<Rating>,
    /// Black's advantage in Elo, estimated from the games.
    pub advantage: f64,
    /// Half the width of the advantage's 95% interval.
    pub advantage_margin: f64,
}

const K: f64 = std::f64::consts::LN_10 / 400.0;
const MAX_STEP: f64 = 400.0;
const MAX_ITERATIONS: usize = 200;

/// The rating list of `players` players from `games`, anchored on player `anchor` (rating 0).
///
/// Every player index in `games` must be below `players`, and `anchor` too.
pub fn rating_list(players: usize, anchor: usize, games: &[RatedGame]) -> RatingList {
    assert!(anchor < players, "the anchor is one of the players");
    // Unknowns: every player but the anchor, then the advantage.
    let index = |p: usize| match p.cmp(&anchor) {
        std::cmp::Ordering::Less => Some(p),
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(p - 1),
    };
    let n = players; // players − 1 ratings + 1 advantage
    let adv = n - 1;
    let mut x = vec![0.0; n];
    let rating = |x: &[f64], p: usize| index(p).map_or(0.0, |i| x[i]);
    let information = |x: &[f64]| {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for g in games {
            let d = rating(x, g.black) - rating(x, g.white) + x[adv];
            let p = 1.0 / (1.0 + (-K * d).exp());
            let r = K * (g.black_points - p);
            let w = K * K * p * (1.0 - p);
            let coef: [(Option<usize>, f64); 3] = [
                (index(g.black), 1.0),
                (index(g.white), -1.0),
                (Some(adv), 1.0),
            ];
            for &(i, ci) in &coef {
                let Some(i) = i else { continue };
                grad[i] += ci * r;
                for &(j, cj) in &coef {
                    if let Some(j) = j {
                        hess[i][j] += ci * cj * w;
                    }
                }
            }
        }
        (grad, hess)
    };
    for _ in 0..MAX_ITERATIONS {
        let (grad, hess) = information(&x);
        let Some(step) = solve(&hess, &grad) else {
            break;
        };
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if largest > MAX_STEP {
            MAX_STEP / largest
        } else {
            1.0
        };
        for (xi, si) in x.iter_mut().zip(&step) {
            *xi += scale * si;
        }
        if largest < 1e-9 {
            break;
        }
    }
    let (_, hess) = information(&x);
    let cov = invert(&hess);
    let var = |a: Option<usize>, b: Option<usize>| match (a, b, &cov) {
        (Some(i), Some(j), Some(c)) => c[i][j],
        (_, _, None) => f64::INFINITY,
        _ => 0.0,
    };
    let mut tally = vec![(0u32, 0.0f64); players];
    for g in games {
        tally[g.black].0 += 1;
        tally[g.black].1 += g.black_points;
        tally[g.white].0 += 1;
        tally[g.white].1 += 1.0 - g.black_points;
    }
    let mut order: Vec<usize> = (0..players).collect();
    order.sort_by(|&a, &b| rating(&x, b).total_cmp(&rating(&x, a)).then(a.cmp(&b)));
    let ratings = order
        .iter()
        .enumerate()
        .map(|(at, &p)| {
            let los_next = order.get(at + 1).map(|&q| {
                let (i, j) = (index(p), index(q));
                let v = var(i, i) + var(j, j) - 2.0 * var(i, j);
                let delta = rating(&x, p) - rating(&x, q);
                if v > 0.0 && v.is_finite() {
                    normal_cdf(delta / v.sqrt())
                } else {
                    0.5
                }
            });
            Rating {
                player: p,
                elo: rating(&x, p),
                margin: Z_95 * var(index(p), index(p)).sqrt(),
                los_next,
                games: tally[p].0,
                points: tally[p].1,
            }
        })
        .collect();
    RatingList {
        ratings,
        advantage: x[adv],
        advantage_margin: Z_95 * var(Some(adv), Some(adv)).sqrt(),
    }
}

/// Solves `H·s = g` by Gaussian elimination with partial pivoting; `None` when `H` is singular.
fn solve(h: &[Vec<f64>], g: &[f64]) -> Option<Vec<f64>> {
    let n = g.len();
    let mut a: Vec<Vec<f64>> = h
        .iter()
        .zip(g)
        .map(|(r, &b)| [&r[..], &[b]].concat())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        for r in 0..n {
            if r != c {
                let f = a[r][c] / a[c][c];
                let pivot = a[c].clone();
                for (x, p) in a[r].iter_mut().zip(&pivot).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// The inverse of `h`, column by column; `None` when singular.
fn invert(h: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = h.len();
    let columns: Option<Vec<Vec<f64>>> = (0..n)
        .map(|c| {
            solve(
                h,
                &(0..n)
                    .map(|i| f64::from(u8::from(i == c)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let columns = columns?;
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
#[path = "ratings_tests.rs"]
mod tests;
