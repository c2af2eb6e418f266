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
//! `Var(r_i − r_j) = V_ii + V_jj − 2 V_ij`.
//!
//! A player with a perfect (or null) score has no finite maximum: the likelihood keeps growing
//! as its rating runs off to ±∞. More generally, with the colour advantage held, a rating
//! relative to the anchor is finite exactly when the anchor took points (a win or a draw) from
//! the player through a chain of games, and the player from the anchor: without the first it is
//! unbounded above, without the second below. Such a player's [`Rating::elo`] is `+∞` or `−∞`
//! and its [`Rating::margin`] `+∞` (a Wald interval cannot bound it: the fit's curvature there
//! is nil, and the figures it gave, ±1.6e18 Elo, looked like a measurement). The fit itself
//! still runs (Newton's steps capped at 400 Elo, 200 steps), and the list is ordered by where
//! it ended, so a player that lost every game is last. A margin wider than [`MAX_MARGIN`] left
//! by a fit that ran off in a way the chains do not show (say Black won every game, so the
//! advantage is unbounded) is unbounded too.

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
    /// Elo relative to the anchor (the anchor is 0); `+∞` or `−∞` when the games leave it
    /// unbounded on that side (a perfect or a null score; see the module notes).
    pub elo: f64,
    /// Half the width of the 95% interval (0 for the anchor); `+∞` when the interval is
    /// unbounded.
    pub margin: f64,
    /// Likelihood of superiority over the next player in the list (`None` for the last): 1 when
    /// this player took points from the next one (through a chain of games) and the next never
    /// from it, as over a player that lost every game.
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
    /// Half the width of the advantage's 95% interval; `+∞` when it is unbounded.
    pub advantage_margin: f64,
}

/// The widest 95% margin, in Elo, taken as a measurement: a finite maximum gives far less (one
/// drawn game alone gives about 681), so a wider one comes from a fit that ran off to infinity.
pub const MAX_MARGIN: f64 = 10_000.0;

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
    // The anchor is fixed at 0, so it varies with nothing, whatever the fit left.
    let var = |a: Option<usize>, b: Option<usize>| match (a, b, &cov) {
        (None, _, _) | (_, None, _) => 0.0,
        (Some(i), Some(j), Some(c)) => c[i][j],
        (_, _, None) => f64::INFINITY,
    };
    let mut tally = vec![(0u32, 0.0f64); players];
    for g in games {
        tally[g.black].0 += 1;
        tally[g.black].1 += g.black_points;
        tally[g.white].0 += 1;
        tally[g.white].1 += 1.0 - g.black_points;
    }
    let took = took_points(players, games);
    let mut order: Vec<usize> = (0..players).collect();
    order.sort_by(|&a, &b| rating(&x, b).total_cmp(&rating(&x, a)).then(a.cmp(&b)));
    let ratings = order
        .iter()
        .enumerate()
        .map(|(at, &p)| {
            let los_next = order.get(at + 1).map(|&q| match (took[p][q], took[q][p]) {
                // Neither ever took points from the other's side: nothing tells them apart.
                (false, false) => 0.5,
                (true, false) => 1.0,
                (false, true) => 0.0,
                (true, true) => {
                    let (i, j) = (index(p), index(q));
                    let v = var(i, i) + var(j, j) - 2.0 * var(i, j);
                    let delta = rating(&x, p) - rating(&x, q);
                    if v > 0.0 && Z_95 * v.sqrt() <= MAX_MARGIN {
                        normal_cdf(delta / v.sqrt())
                    } else {
                        0.5
                    }
                }
            });
            let (elo, margin) = match (took[anchor][p], took[p][anchor]) {
                (true, true) => {
                    let margin = bounded(var(index(p), index(p)));
                    (run_off(rating(&x, p), margin), margin)
                }
                (false, true) => (f64::INFINITY, f64::INFINITY),
                (true, false) => (f64::NEG_INFINITY, f64::INFINITY),
                // Linked to the anchor by no game either way: no side of it is bounded.
                (false, false) => (rating(&x, p), f64::INFINITY),
            };
            Rating {
                player: p,
                elo,
                margin,
                los_next,
                games: tally[p].0,
                points: tally[p].1,
            }
        })
        .collect();
    let advantage_margin = bounded(var(Some(adv), Some(adv)));
    let advantage = run_off(x[adv], advantage_margin);
    RatingList {
        ratings,
        advantage,
        advantage_margin,
    }
}

/// Half the 95% interval of a variance `v`; `+∞` past [`MAX_MARGIN`] (or for no variance).
fn bounded(v: f64) -> f64 {
    let margin = Z_95 * v.sqrt();
    if margin <= MAX_MARGIN {
        margin
    } else {
        f64::INFINITY
    }
}

/// `value` as fitted, or `±∞` on its side when its `margin` is unbounded and the fit ran past
/// [`MAX_MARGIN`] from 0 (a singular fit, which stays near 0, keeps its value).
fn run_off(value: f64, margin: f64) -> f64 {
    if margin.is_infinite() && value.abs() > MAX_MARGIN {
        value.signum() * f64::INFINITY
    } else {
        value
    }
}

/// `took[i][j]`: player `i` took points (a win or a draw) from player `j`, directly or through a
/// chain of players each taking points from the next; every player reaches itself.
fn took_points(players: usize, games: &[RatedGame]) -> Vec<Vec<bool>> {
    let mut took = vec![vec![false; players]; players];
    for (p, row) in took.iter_mut().enumerate() {
        row[p] = true;
    }
    for g in games {
        if g.black_points > 0.0 {
            took[g.black][g.white] = true;
        }
        if g.black_points < 1.0 {
            took[g.white][g.black] = true;
        }
    }
    // Warshall's closure: tournaments have a handful of players.
    for k in 0..players {
        let via = took[k].clone();
        for row in took.iter_mut().filter(|row| row[k]) {
            for (to, &v) in row.iter_mut().zip(&via) {
                *to |= v;
            }
        }
    }
    took
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
