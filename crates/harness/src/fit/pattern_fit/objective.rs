//! The pattern fit's loss: the squared error of every sample against its label (a game's
//! result, or a blend with the search's score), the pulls, and their gradients.

use rayon::prelude::*;

use crate::fit::pattern_samples::{PatternSample, PatternSlice};
use crate::fit::recorded_game::{NO_SCORE, SCORE_WIN};
use crate::fit::texel::sigmoid;

use super::model::PatternModel;

/// The most samples a task sums: few enough tasks that their gradients (one full parameter
/// vector each) are cheap to add up.
pub(super) const MIN_CHUNK: usize = 8192;
/// The most chunks a sum is split into.
const MAX_CHUNKS: usize = 32;
/// The parts a batch's gradient is summed in (a fixed number, whatever the threads).
const BATCH_PARTS: usize = 4;

/// The loss of the pattern fit: the data, the scale, and the pulls.
#[derive(Clone, Copy, Debug)]
pub struct PatternObjective<'a> {
    /// The samples.
    pub data: PatternSlice<'a>,
    /// The model.
    pub model: &'a PatternModel,
    /// The logistic scale, per man.
    pub k: f64,
    /// The pull of the extended evaluator's and the classic terms' weights toward `anchor`,
    /// as in the other fits: `λ · Σ ((w − a) / 100)²`.
    pub l2: f64,
    /// The pull of the table entries toward zero, in positions: `(λ / n) · Σ (w / 100)²` with
    /// `n` the training positions, so that an entry seen in far fewer than `λ` positions
    /// stays near zero and one seen in far more is learnt from its positions.
    pub l2_tables: f64,
    /// The weights the `l2` pull draws toward.
    pub anchor: &'a [f64],
    /// What the evaluation learns to predict: the game's result, or a blend with the search
    /// score where there is one.
    pub blend: Option<ScoreBlend>,
}

/// Labels that blend a game's result with the search's score of the position (the score as a
/// win probability, `sigmoid(k · score / 100)`): `(1 − weight) · result + weight · that`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreBlend {
    /// The score's share of the label, 0 to 1.
    pub weight: f64,
    /// The scale that turns scores into win probabilities.
    pub k: f64,
}

impl ScoreBlend {
    /// The label of a sample.
    #[inline(always)]
    pub fn target(&self, s: &PatternSample) -> f64 {
        let result = s.label();
        match s.score {
            NO_SCORE => result,
            SCORE_WIN => (1.0 - self.weight) * result + self.weight,
            score if score == -SCORE_WIN => (1.0 - self.weight) * result,
            score => {
                let p = sigmoid(self.k * f64::from(score) / 100.0);
                (1.0 - self.weight) * result + self.weight * p
            }
        }
    }
}

impl PatternObjective<'_> {
    /// What sample `s` is learnt as.
    #[inline(always)]
    fn target(&self, s: &PatternSample) -> f64 {
        match &self.blend {
            None => s.label(),
            Some(blend) => blend.target(s),
        }
    }

    /// The loss at `x`, with its gradient when `gradient` is given.
    pub fn loss(&self, x: &[f64], gradient: Option<&mut [f64]>) -> f64 {
        let n = self.data.len();
        let parameters = self.model.parameter_count();
        if n == 0 {
            if let Some(g) = gradient {
                g.fill(0.0);
            }
            return 0.0;
        }
        let want_gradient = gradient.is_some();
        let scale = self.k / 100.0;
        let chunk = MIN_CHUNK.max(n.div_ceil(MAX_CHUNKS));
        let partials: Vec<(f64, Vec<f64>)> = (0..n.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let range = c * chunk..n.min((c + 1) * chunk);
                let mut sum = 0.0;
                let mut grad = vec![0.0; if want_gradient { parameters } else { 0 }];
                let mut entries = vec![0; self.data.entries_per_sample()];
                for i in range {
                    let grad = want_gradient.then_some(&mut grad);
                    sum += self.add_sample(x, scale, i, grad, &mut entries);
                }
                (sum, grad)
            })
            .collect();
        let mut total = 0.0;
        let mut grad = vec![0.0; if want_gradient { parameters } else { 0 }];
        for (sum, g) in &partials {
            total += sum;
            grad.iter_mut().zip(g).for_each(|(t, p)| *t += p);
        }
        let n = n as f64;
        let mut loss = total / n;
        let table_pull = self.l2_tables / n;
        for (j, (&w, &a)) in x.iter().zip(self.anchor).enumerate() {
            let (pull, strength) = if self.model.is_table_entry(j / 2) {
                (w / 100.0, table_pull)
            } else {
                ((w - a) / 100.0, self.l2)
            };
            loss += strength * pull * pull;
            if want_gradient {
                grad[j] = grad[j] / n + 2.0 * strength * pull / 100.0;
            }
        }
        if let Some(g) = gradient {
            g.copy_from_slice(&grad);
        }
        loss
    }

    /// Sample `i`'s squared error at `x` (evaluations times `scale` inside the sigmoid), its
    /// gradient added to `grad` when given.
    #[inline(always)]
    fn add_sample(
        &self,
        x: &[f64],
        scale: f64,
        i: usize,
        grad: Option<&mut Vec<f64>>,
        entries: &mut [u16],
    ) -> f64 {
        let s = self.data.get(i, entries);
        let entries = &*entries;
        let (eval, share) = self.model.evaluate(x, s, entries);
        let p = sigmoid(scale * eval);
        let error = p - self.target(s);
        if let Some(grad) = grad {
            let factor = 2.0 * error * p * (1.0 - p) * scale;
            let (o, e) = (factor * share, factor * (1.0 - share));
            self.model.for_each_input(s, entries, |i, v| {
                grad[2 * i] += o * v;
                grad[2 * i + 1] += e * v;
            });
        }
        error * error
    }

    /// The mean squared error over the samples `indices` at `x`, and its gradient written into
    /// `gradient` (the data's part only: see [`PatternObjective::add_pulls`]).
    pub fn batch_gradient(&self, x: &[f64], indices: &[u32], gradient: &mut [f64]) -> f64 {
        let scale = self.k / 100.0;
        let parts = indices.len().div_ceil(BATCH_PARTS).max(1);
        let partials: Vec<(f64, Vec<f64>)> = indices
            .par_chunks(parts)
            .map(|part| {
                let mut sum = 0.0;
                let mut grad = vec![0.0; gradient.len()];
                let mut entries = vec![0; self.data.entries_per_sample()];
                for &i in part {
                    sum += self.add_sample(x, scale, i as usize, Some(&mut grad), &mut entries);
                }
                (sum, grad)
            })
            .collect();
        gradient.fill(0.0);
        let mut total = 0.0;
        for (sum, g) in &partials {
            total += sum;
            gradient.iter_mut().zip(g).for_each(|(t, p)| *t += p);
        }
        let n = indices.len().max(1) as f64;
        gradient.iter_mut().for_each(|g| *g /= n);
        total / n
    }

    /// Adds the gradient of the pulls at `x` to `gradient`.
    pub fn add_pulls(&self, x: &[f64], gradient: &mut [f64]) {
        let table_pull = self.l2_tables / self.data.len().max(1) as f64;
        for (j, (&w, &a)) in x.iter().zip(self.anchor).enumerate() {
            let (pull, strength) = if self.model.is_table_entry(j / 2) {
                (w / 100.0, table_pull)
            } else {
                ((w - a) / 100.0, self.l2)
            };
            gradient[j] += 2.0 * strength * pull / 100.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::{CLASSIC_AT, EXCHANGE_AT, TABLES_AT};
    use super::*;
    use crate::fit::pattern_samples::PatternData;
    use checkers_engine::board::Position;
    use checkers_engine::eval::{ExtraPair, PatternTables, RegionLayout, WeightPair};

    fn tables() -> PatternTables {
        let regions = RegionLayout::BandsAndStrips.regions();
        PatternTables::zero(regions)
    }

    /// The model's evaluation of a sample at a set of integer weights is the engine's
    /// evaluation of the position, but for the engine's truncations.
    /// The gradient agrees with finite differences, pulls included.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut with_ranks = RegionLayout::BandsAndStrips.regions();
        with_ranks.extend(checkers_engine::eval::RankLayout::Home.regions());
        the_gradient_matches_finite_differences_with(tables());
        the_gradient_matches_finite_differences_with(PatternTables::zero(with_ranks));
    }

    fn the_gradient_matches_finite_differences_with(t: PatternTables) {
        let model = PatternModel::new(&t).with_exchange(true);
        let mut data = PatternData::new(&t);
        for (fen, label) in [
            ("B:W21-32:B1-12", 0.5),
            ("W:W9,K14,22,25,30:B6,13,17,K26,28", 1.0),
            ("B:W22,30,K4:B1,3,14,K29", 0.0),
        ] {
            data.push(&Position::from_fen(fen).unwrap(), label, NO_SCORE, 0);
        }
        let anchor = model.parameters_of(&WeightPair::material(), &ExtraPair::default(), None);
        let objective = PatternObjective {
            data: data.as_slice(),
            model: &model,
            k: 1.2,
            l2: 0.01,
            l2_tables: 5.0,
            anchor: &anchor,
            blend: None,
        };
        let mut x = anchor.clone();
        for (i, v) in x.iter_mut().enumerate() {
            *v += ((i * 31) % 17) as f64 - 8.0;
        }
        let mut g = vec![0.0; model.parameter_count()];
        objective.loss(&x, Some(&mut g));
        let (first_entries, second_entries) = (data.entries_of(0), data.entries_of(1));
        let touched: Vec<usize> = {
            let mut v = vec![0, 1, 2 * 5, 2 * CLASSIC_AT, 2 * CLASSIC_AT + 1];
            // The third sample is three pieces against four: the exchange term is read.
            v.extend([2 * EXCHANGE_AT, 2 * EXCHANGE_AT + 1]);
            let first = TABLES_AT + usize::from(first_entries[0]);
            v.push(2 * first);
            v.push(2 * (TABLES_AT + usize::from(second_entries[3])) + 1);
            v.push(2 * (TABLES_AT + 17));
            if t.has_rank_regions() {
                // The home ranks' entry of the first sample's side to move, and the entry of
                // 16 own men, which no position has: the table pull alone.
                let rank = t.regions().len() - 1;
                let first = TABLES_AT + t.offset(rank);
                v.push(2 * (first + usize::from(first_entries[2 * rank])));
                let pull_only = 2 * (first + 0xFFFF) + 1;
                assert!(g[pull_only] != 0.0, "the table pull reaches the home ranks");
                v.push(pull_only);
            }
            v
        };
        for i in touched {
            let h = 1e-3;
            let (mut up, mut down) = (x.clone(), x.clone());
            up[i] += h;
            down[i] -= h;
            let numeric = (objective.loss(&up, None) - objective.loss(&down, None)) / (2.0 * h);
            assert!((numeric - g[i]).abs() < 1e-9, "{i}: {numeric} vs {}", g[i]);
        }
        assert!(g[2 * EXCHANGE_AT] != 0.0 && g[2 * EXCHANGE_AT + 1] != 0.0);
        // Without the term its weights see no data: only their pull toward the anchor.
        let without = PatternModel::new(&t);
        let objective = PatternObjective {
            model: &without,
            ..objective
        };
        let mut at_anchor = x.clone();
        at_anchor[2 * EXCHANGE_AT] = anchor[2 * EXCHANGE_AT];
        at_anchor[2 * EXCHANGE_AT + 1] = anchor[2 * EXCHANGE_AT + 1];
        objective.loss(&at_anchor, Some(&mut g));
        assert_eq!([g[2 * EXCHANGE_AT], g[2 * EXCHANGE_AT + 1]], [0.0, 0.0]);
    }
}
