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

use checkers_engine::eval::{
    taper, EvaluatorKind, ExtraPair, ExtraWeights, WeightPair, Weights, EXTENDED_INPUTS,
    FEATURE_COUNT, FULL_BOARD,
};

use super::lbfgs::{minimize, LbfgsOptions};
use super::samples::{SampleRef, Samples};

/// How the two phases' values make a sample's evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The opening set above this many pieces, the endgame set from it down (`ten`).
    Switch(u32),
    /// Both, weighted by the pieces on the board as [`taper`] says (`extended`).
    Tapered,
}

/// What is fitted: the inputs per phase and how the phases combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    /// Inputs per phase: the first `width` of a sample's (10: the ten features).
    pub width: usize,
    /// How the phases combine.
    pub phase: Phase,
}

impl Model {
    /// The model of an evaluator: the ten features switched at `endgame_pieces`, or all the
    /// extended inputs, tapered.
    pub fn of(kind: EvaluatorKind, endgame_pieces: u32) -> Model {
        match kind {
            EvaluatorKind::Ten => Model {
                width: FEATURE_COUNT,
                phase: Phase::Switch(endgame_pieces),
            },
            // The pattern evaluator's own fit has its own model (`pattern_fit`); its extended
            // part is this one.
            EvaluatorKind::Extended | EvaluatorKind::Patterns => Model {
                width: EXTENDED_INPUTS,
                phase: Phase::Tapered,
            },
        }
    }

    /// The number of parameters: both phases, opening first.
    pub fn parameter_count(&self) -> usize {
        2 * self.width
    }

    /// The parameter vector of weights (the extended ones, when the model has their inputs;
    /// zero where `extra` is `None`).
    pub fn parameters_of(&self, weights: &WeightPair, extra: Option<&ExtraPair>) -> Vec<f64> {
        let default = ExtraPair::default();
        let extra = extra.unwrap_or(&default);
        let mut x = Vec::with_capacity(self.parameter_count());
        for (ten, more) in [
            (&weights.opening, &extra.opening),
            (&weights.endgame, &extra.endgame),
        ] {
            let all = ten.0.iter().copied().chain(more.to_vec());
            x.extend(all.take(self.width).map(f64::from));
        }
        x
    }

    /// The parameters rounded back to integer weights, and the extended ones when the model
    /// has them.
    pub fn weights_of(&self, x: &[f64]) -> (WeightPair, Option<ExtraPair>) {
        let rounded: Vec<i32> = x.iter().map(|v| v.round() as i32).collect();
        let (opening, endgame) = rounded.split_at(self.width);
        let ten = |w: &[i32]| Weights(std::array::from_fn(|i| w.get(i).copied().unwrap_or(0)));
        let extra = |w: &[i32]| {
            let mut all = w.get(FEATURE_COUNT..).unwrap_or(&[]).to_vec();
            all.resize(EXTENDED_INPUTS - FEATURE_COUNT, 0);
            ExtraWeights::from_slice(&all).expect("padded to the full width")
        };
        let pair = WeightPair {
            opening: ten(opening),
            endgame: ten(endgame),
        };
        let extra = (self.width > FEATURE_COUNT).then(|| ExtraPair {
            opening: extra(opening),
            endgame: extra(endgame),
        });
        (pair, extra)
    }

    /// Whether the model reads the further inputs of the extended evaluator (its samples must
    /// keep them).
    pub fn reads_extras(&self) -> bool {
        self.width > FEATURE_COUNT
    }

    /// The evaluation of `sample` at `x`, and the shares of the opening and endgame parameters
    /// in it (what the gradient multiplies by).
    #[inline]
    fn evaluate(&self, x: &[f64], sample: &SampleRef<'_>) -> (f64, f64, f64) {
        let dot = |w: &[f64]| -> f64 {
            (0..self.width)
                .map(|i| w[i] * f64::from(sample.ten[i]))
                .sum()
        };
        let (opening, endgame) = x.split_at(self.width);
        if self.reads_extras() {
            // The extended inputs are mostly zero: sum the others only, in index order.
            let (mut o, mut e) = (0.0, 0.0);
            for_each_input(sample, |i, x| {
                o += opening[i] * x;
                e += endgame[i] * x;
            });
            return match self.phase {
                Phase::Switch(endgame_pieces) if u32::from(sample.pieces) <= endgame_pieces => {
                    (e, 0.0, 1.0)
                }
                Phase::Switch(_) => (o, 1.0, 0.0),
                Phase::Tapered => {
                    let share = f64::from(taper(u32::from(sample.pieces))) / f64::from(FULL_BOARD);
                    (share * o + (1.0 - share) * e, share, 1.0 - share)
                }
            };
        }
        match self.phase {
            Phase::Switch(endgame_pieces) => {
                if u32::from(sample.pieces) <= endgame_pieces {
                    (dot(endgame), 0.0, 1.0)
                } else {
                    (dot(opening), 1.0, 0.0)
                }
            }
            Phase::Tapered => {
                let share = f64::from(taper(u32::from(sample.pieces))) / f64::from(FULL_BOARD);
                (
                    share * dot(opening) + (1.0 - share) * dot(endgame),
                    share,
                    1.0 - share,
                )
            }
        }
    }
}

/// Calls `visit(i, x)` for the inputs `i` of `sample` that can be non-zero, `x` its value, in
/// index order: the ten features (all of them, zeros included), then the further ones that
/// are not zero.
///
/// The ten features' zeros are visited rather than tested for: a branch per feature costs
/// more than the sums, and a sum that starts at +0 is left exactly as it was by adding a
/// product with 0 (±0; it could only change a −0, which such a sum never is), so the sums are
/// those over the non-zero inputs alone, to the last bit.
#[inline(always)]
fn for_each_input(sample: &SampleRef<'_>, mut visit: impl FnMut(usize, f64)) {
    for (i, &v) in sample.ten.iter().enumerate() {
        visit(i, f64::from(v));
    }
    for &(i, v) in sample.extras {
        visit(usize::from(i), f64::from(v));
    }
}

/// The loss's data and settings.
#[derive(Clone, Copy, Debug)]
pub struct Objective<'a> {
    /// The samples (with the further inputs when the model reads them).
    pub samples: &'a Samples,
    /// What is fitted.
    pub model: Model,
    /// The logistic scale (per man).
    pub k: f64,
    /// The L2 strength towards `anchor` (0: none).
    pub l2: f64,
    /// The weights the L2 term pulls towards.
    pub anchor: &'a [f64],
}

/// Partial sums of one chunk: the squared errors and the gradient of their sum.
type Partial = (f64, Vec<f64>);

impl Objective<'_> {
    /// The loss at `x` (the weights as [`Model::parameters_of`] lays them out), with its
    /// gradient when `gradient` is given.
    pub fn loss(&self, x: &[f64], gradient: Option<&mut [f64]>) -> f64 {
        if self.samples.is_empty() {
            if let Some(g) = gradient {
                g.fill(0.0);
            }
            return 0.0;
        }
        let want_gradient = gradient.is_some();
        let scale = self.k / 100.0;
        let width = self.model.width;
        let parameters = self.model.parameter_count();
        debug_assert!(self.samples.with_extras() || !self.model.reads_extras());
        let partials: Vec<Partial> = self
            .samples
            .chunks()
            .into_par_iter()
            .map(|chunk| {
                let mut sum = 0.0;
                let mut grad = vec![0.0; if want_gradient { parameters } else { 0 }];
                for s in chunk.iter() {
                    let (eval, opening_share, endgame_share) = self.model.evaluate(x, &s);
                    let p = sigmoid(scale * eval);
                    let error = p - s.label();
                    sum += error * error;
                    if want_gradient {
                        let factor = 2.0 * error * p * (1.0 - p) * scale;
                        for (offset, share) in [(0, opening_share), (width, endgame_share)] {
                            if share == 0.0 {
                                continue;
                            }
                            let factor = if share == 1.0 { factor } else { factor * share };
                            if width > FEATURE_COUNT {
                                for_each_input(&s, |i, x| grad[offset + i] += factor * x);
                            } else {
                                for i in 0..width {
                                    grad[offset + i] += factor * f64::from(s.ten[i]);
                                }
                            }
                        }
                    }
                }
                (sum, grad)
            })
            .collect();
        let n = self.samples.len() as f64;
        let mut total = 0.0;
        let mut grad = vec![0.0; parameters];
        for (sum, g) in &partials {
            total += sum;
            grad.iter_mut()
                .zip(g)
                .for_each(|(total, part)| *total += part);
        }
        let pulls = x.iter().zip(self.anchor).map(|(w, a)| (w - a) / 100.0);
        let loss = total / n + self.l2 * pulls.clone().map(|p| p * p).sum::<f64>();
        if let Some(g) = gradient {
            for ((out, sum), pull) in g.iter_mut().zip(grad).zip(pulls) {
                // d/dw of λ((w − a)/100)² is 2λ(w − a)/100²: the pull divided by 100 once more.
                *out = sum / n + 2.0 * self.l2 * pull / 100.0;
            }
        }
        loss
    }

    /// The loss of a set of weights (without gradient).
    pub fn loss_of(&self, weights: &WeightPair, extra: Option<&ExtraPair>) -> f64 {
        self.loss(&self.model.parameters_of(weights, extra), None)
    }
}

/// The logistic function.
pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` in `lo..=hi` that minimises the loss of `weights` (no L2 term), by golden-section
/// search on `ln K`: the loss is unimodal in `K` for any fixed evaluation.
pub fn fit_k(samples: &Samples, model: Model, weights: &WeightPair) -> f64 {
    let x = model.parameters_of(weights, None);
    golden_section_k(|k: f64| {
        Objective {
            samples,
            model,
            k,
            l2: 0.0,
            anchor: &x,
        }
        .loss(&x, None)
    })
}

/// The `K` in 0.01..=20 that minimises `loss`, by golden-section search on `ln K` (the loss
/// of a fixed evaluation is unimodal in `K`).
pub(super) fn golden_section_k(loss: impl Fn(f64) -> f64) -> f64 {
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
    start: &[f64],
    lower: &[f64],
    upper: &[f64],
    max_iterations: u32,
    on_iteration: impl FnMut(u32, f64),
) -> (WeightPair, Option<ExtraPair>, u32) {
    let found = minimize(
        |x, g| objective.loss(x, Some(g)),
        start,
        lower,
        upper,
        LbfgsOptions {
            max_iterations,
            ..LbfgsOptions::default()
        },
        on_iteration,
    );
    let rounded: Vec<f64> = (0..start.len())
        .map(|i| found.x[i].round().clamp(lower[i], upper[i]))
        .collect();
    let (weights, extra) = objective.model.weights_of(&rounded);
    (weights, extra, found.iterations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::samples::SampleList;

    fn samples(list: &[(i8, i8, u8, f64)]) -> Samples {
        let mut all = SampleList::new(true);
        for &(pawns, kings, pieces, label) in list {
            let mut inputs = [0; EXTENDED_INPUTS];
            inputs[0] = pawns;
            inputs[1] = kings;
            // A further input, so that the extended model has one to read.
            inputs[FEATURE_COUNT] = pawns;
            all.push(&inputs, pieces, label);
        }
        let mut samples = Samples::new(true);
        samples.append(&all);
        samples
    }

    /// The gradient agrees with finite differences of the loss, in both sets, with L2.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let samples = samples(&[
            (1, 0, 20, 1.0),
            (-2, 1, 20, 0.5),
            (0, -1, 6, 0.0),
            (1, 1, 8, 1.0),
        ]);
        for model in [
            Model::of(EvaluatorKind::Ten, 12),
            Model::of(EvaluatorKind::Extended, 12),
        ] {
            let material = model.parameters_of(&WeightPair::material(), None);
            let objective = Objective {
                samples: &samples,
                model,
                k: 1.3,
                l2: 0.01,
                anchor: &material,
            };
            let mut x = material.clone();
            x[1] = 120.0;
            x[model.width + 1] = 210.0;
            let mut g = vec![0.0; model.parameter_count()];
            objective.loss(&x, Some(&mut g));
            for i in [0, 1, model.width, model.width + 1, 5, FEATURE_COUNT] {
                let h = 1e-3;
                let (mut up, mut down) = (x.clone(), x.clone());
                up[i] += h;
                down[i] -= h;
                let numeric = (objective.loss(&up, None) - objective.loss(&down, None)) / (2.0 * h);
                assert!((numeric - g[i]).abs() < 1e-9, "{i}: {numeric} vs {}", g[i]);
            }
        }
    }

    /// Labels drawn from a known logistic model give back its scale.
    #[test]
    fn k_is_recovered_from_a_known_model() {
        // For each material difference d, labels in the proportion sigmoid(0.8 * d) exactly.
        let mut list = Vec::new();
        for d in -3i8..=3 {
            let p = sigmoid(0.8 * f64::from(d));
            let wins = (p * 1000.0).round() as usize;
            for j in 0..1000 {
                list.push((d, 0, 20, if j < wins { 1.0 } else { 0.0 }));
            }
        }
        let samples = samples(&list);
        let k = fit_k(
            &samples,
            Model::of(EvaluatorKind::Ten, 12),
            &WeightPair::material(),
        );
        assert!((k - 0.8).abs() < 0.01, "{k}");
    }
}
