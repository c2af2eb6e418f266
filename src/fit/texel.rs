//! The Texel loss of a weight pair on samples, its gradient, and the fits of the scale `K` and
//! of the weights.
//!
//! The prediction of a sample is `sigmoid(K · eval / 100)` with `eval` in hundredths of a man;
//! the loss is the mean of `(prediction − label)²` over the samples, plus an optional L2 term
//! `λ · Σ ((w − w₀) / 100)²` towards start weights `w₀`.
//!
//! The sums run in parallel over fixed chunks of samples and the chunks' partial sums are added
//! in chunk order, so the loss, its gradient and every fitted weight are the same on any
//! number of threads.

use rayon::prelude::*;

use crate::eval::{WeightPair, Weights, FEATURE_COUNT};

use super::lbfgs::{minimize, LbfgsOptions};
use super::positions::Sample;

/// Samples summed by one task: large enough to amortise the task, small enough to spread.
const CHUNK: usize = 8192;

/// The number of weights fitted: both sets, opening first.
pub const PARAMETERS: usize = 2 * FEATURE_COUNT;

/// The loss's data and settings.
#[derive(Clone, Copy, Debug)]
pub struct Objective<'a> {
    /// The samples.
    pub samples: &'a [Sample],
    /// Pieces at which the endgame set takes over.
    pub endgame_pieces: u32,
    /// The logistic scale (per man).
    pub k: f64,
    /// The L2 strength towards `anchor` (0: none).
    pub l2: f64,
    /// The weights the L2 term pulls towards.
    pub anchor: [f64; PARAMETERS],
}

/// Partial sums of one chunk: the squared errors and the gradient of their sum.
type Partial = (f64, [f64; PARAMETERS]);

impl Objective<'_> {
    /// The loss at `x` (the weights as [`to_parameters`] lays them out), with its gradient when
    /// `gradient` is given.
    pub fn loss(&self, x: &[f64], gradient: Option<&mut [f64]>) -> f64 {
        if self.samples.is_empty() {
            if let Some(g) = gradient {
                g.fill(0.0);
            }
            return 0.0;
        }
        let want_gradient = gradient.is_some();
        let scale = self.k / 100.0;
        let partials: Vec<Partial> = self
            .samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut sum = 0.0;
                let mut grad = [0.0; PARAMETERS];
                for s in chunk {
                    let offset = if u32::from(s.pieces) <= self.endgame_pieces {
                        FEATURE_COUNT
                    } else {
                        0
                    };
                    let w = &x[offset..offset + FEATURE_COUNT];
                    let eval: f64 = (0..FEATURE_COUNT)
                        .map(|i| w[i] * f64::from(s.difference[i]))
                        .sum();
                    let p = sigmoid(scale * eval);
                    let error = p - f64::from(s.label);
                    sum += error * error;
                    if want_gradient {
                        let factor = 2.0 * error * p * (1.0 - p) * scale;
                        for i in 0..FEATURE_COUNT {
                            grad[offset + i] += factor * f64::from(s.difference[i]);
                        }
                    }
                }
                (sum, grad)
            })
            .collect();
        let n = self.samples.len() as f64;
        let mut total = 0.0;
        let mut grad = [0.0; PARAMETERS];
        for (sum, g) in &partials {
            total += sum;
            grad.iter_mut()
                .zip(g)
                .for_each(|(total, part)| *total += part);
        }
        let pulls = x.iter().zip(&self.anchor).map(|(w, a)| (w - a) / 100.0);
        let loss = total / n + self.l2 * pulls.clone().map(|p| p * p).sum::<f64>();
        if let Some(g) = gradient {
            for ((out, sum), pull) in g.iter_mut().zip(grad).zip(pulls) {
                // d/dw of λ((w − a)/100)² is 2λ(w − a)/100²: the pull divided by 100 once more.
                *out = sum / n + 2.0 * self.l2 * pull / 100.0;
            }
        }
        loss
    }

    /// The loss of a weight pair (without gradient).
    pub fn loss_of(&self, weights: &WeightPair) -> f64 {
        self.loss(&to_parameters(weights), None)
    }
}

/// The logistic function.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A weight pair as the fit's parameter vector: the opening set, then the endgame set.
pub fn to_parameters(weights: &WeightPair) -> [f64; PARAMETERS] {
    std::array::from_fn(|i| {
        let set = if i < FEATURE_COUNT {
            &weights.opening
        } else {
            &weights.endgame
        };
        f64::from(set.0[i % FEATURE_COUNT])
    })
}

/// The parameter vector rounded back to integer weights.
pub fn from_parameters(x: &[f64]) -> WeightPair {
    let set = |offset: usize| Weights(std::array::from_fn(|i| x[offset + i].round() as i32));
    WeightPair {
        opening: set(0),
        endgame: set(FEATURE_COUNT),
    }
}

/// The `K` in `lo..=hi` that minimises the loss of `weights` (no L2 term), by golden-section
/// search on `ln K`: the loss is unimodal in `K` for any fixed evaluation.
pub fn fit_k(samples: &[Sample], endgame_pieces: u32, weights: &WeightPair) -> f64 {
    let x = to_parameters(weights);
    let loss = |k: f64| {
        Objective {
            samples,
            endgame_pieces,
            k,
            l2: 0.0,
            anchor: x,
        }
        .loss(&x, None)
    };
    let (mut a, mut b) = (0.01f64.ln(), 20.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (loss(c.exp()), loss(d.exp()));
    for _ in 0..60 {
        if fc <= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = loss(c.exp());
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = loss(d.exp());
        }
    }
    ((a + b) / 2.0).exp()
}

/// The weights that minimise `objective` from `start` within `lower..=upper` (per parameter;
/// equal bounds fix a weight), rounded to integers within the bounds.
pub fn fit_weights(
    objective: &Objective<'_>,
    start: &WeightPair,
    lower: &[f64; PARAMETERS],
    upper: &[f64; PARAMETERS],
    max_iterations: u32,
    on_iteration: impl FnMut(u32, f64),
) -> (WeightPair, u32) {
    let found = minimize(
        |x, g| objective.loss(x, Some(g)),
        &to_parameters(start),
        lower,
        upper,
        LbfgsOptions {
            max_iterations,
            ..LbfgsOptions::default()
        },
        on_iteration,
    );
    let rounded: Vec<f64> = (0..PARAMETERS)
        .map(|i| found.x[i].round().clamp(lower[i], upper[i]))
        .collect();
    (from_parameters(&rounded), found.iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(pawns: i16, kings: i16, pieces: u8, label: f32) -> Sample {
        let mut difference = [0; FEATURE_COUNT];
        difference[0] = pawns;
        difference[1] = kings;
        Sample {
            difference,
            pieces,
            label,
            game: 0,
        }
    }

    /// The gradient agrees with finite differences of the loss, in both sets, with L2.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let samples = [
            sample(1, 0, 20, 1.0),
            sample(-2, 1, 20, 0.5),
            sample(0, -1, 6, 0.0),
            sample(1, 1, 8, 1.0),
        ];
        let objective = Objective {
            samples: &samples,
            endgame_pieces: 12,
            k: 1.3,
            l2: 0.01,
            anchor: to_parameters(&WeightPair::material()),
        };
        let mut x = to_parameters(&WeightPair::material());
        x[1] = 120.0;
        x[FEATURE_COUNT + 1] = 210.0;
        let mut g = [0.0; PARAMETERS];
        objective.loss(&x, Some(&mut g));
        for i in [0, 1, FEATURE_COUNT, FEATURE_COUNT + 1, 5] {
            let h = 1e-3;
            let (mut up, mut down) = (x, x);
            up[i] += h;
            down[i] -= h;
            let numeric = (objective.loss(&up, None) - objective.loss(&down, None)) / (2.0 * h);
            assert!((numeric - g[i]).abs() < 1e-9, "{i}: {numeric} vs {}", g[i]);
        }
    }

    /// Labels drawn from a known logistic model give back its scale.
    #[test]
    fn k_is_recovered_from_a_known_model() {
        // For each material difference d, labels in the proportion sigmoid(0.8 * d) exactly.
        let mut samples = Vec::new();
        for d in -3i16..=3 {
            let p = sigmoid(0.8 * f64::from(d));
            let wins = (p * 1000.0).round() as usize;
            for j in 0..1000 {
                samples.push(sample(d, 0, 20, if j < wins { 1.0 } else { 0.0 }));
            }
        }
        let k = fit_k(&samples, 12, &WeightPair::material());
        assert!((k - 0.8).abs() < 0.01, "{k}");
    }
}
