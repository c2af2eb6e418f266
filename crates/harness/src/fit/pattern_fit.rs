//! The fit of the `patterns` evaluator: compact samples, the loss over every input of a
//! position (the extended inputs, the classic terms and one table entry per region and side),
//! its gradient, and the weights.
//!
//! A sample keeps the quiet position's men and kings (each side in its own view) and its
//! table entries, not a vector of every input: a position touches about fifty of the tens of
//! thousands of parameters. The parameters of the two phases sit side by side (input `i`'s
//! opening weight at `2i`, its endgame weight at `2i + 1`), so one cache line serves both.
//!
//! As in the extended fit, the sums run over fixed chunks of samples whose partial sums are
//! added in chunk order, so every result is the same on any number of threads.

use std::sync::Arc;

use rayon::prelude::*;

use checkers_engine::error::{Error, Result};
use checkers_engine::eval::WeightRange;
use checkers_engine::eval::{
    taper, Evaluator, ExtraPair, ExtraWeights, PatternTables, PatternWeights, WeightPair, Weights,
    CLASSIC_COUNT, EXCHANGE_SCALE, EXTENDED_INPUTS, FEATURE_COUNT, FULL_BOARD, MAN_SQUARES,
};

use super::adam::{adam, AdamOptions};
use super::inputs::Games;
use super::pattern_samples::{pattern_samples, PatternData, PatternSample, PatternSlice, DENSE};
use super::positions::GAME_BATCH;
use super::recorded_game::{NO_SCORE, SCORE_WIN};
use super::report::{FitReport, Losses};
use super::settings::FitSettings;
use super::texel::{golden_section_k, sigmoid};

/// Where the men's piece-square inputs start.
const MEN_AT: usize = DENSE;
/// Where the kings' piece-square inputs start.
const KINGS_AT: usize = MEN_AT + MAN_SQUARES;
/// Where the classic terms' inputs start (after the extended evaluator's).
const CLASSIC_AT: usize = EXTENDED_INPUTS;
/// Where the optional `exchange` term's input sits (after the classic terms').
const EXCHANGE_AT: usize = CLASSIC_AT + CLASSIC_COUNT;
/// Where the table entries start.
const TABLES_AT: usize = EXCHANGE_AT + 1;

/// The most samples a task sums: few enough tasks that their gradients (one full parameter
/// vector each) are cheap to add up.
const MIN_CHUNK: usize = 8192;
/// The most chunks a sum is split into.
const MAX_CHUNKS: usize = 32;
/// The parts a batch's gradient is summed in (a fixed number, whatever the threads).
const BATCH_PARTS: usize = 4;

/// The parameters of the pattern evaluator, their layout and the mapping to weights.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternModel {
    /// Where each region's entries start among the table entries.
    offsets: Vec<usize>,
    /// All table entries.
    table_entries: usize,
    /// The tables' regions (for the fitted weights).
    shape: PatternTables,
    /// Whether the `exchange` term is learnt; without it its input is never read, so its
    /// weight stays where it started (zero).
    exchange: bool,
}

impl PatternModel {
    /// The model of `tables`' regions.
    pub fn new(tables: &PatternTables) -> PatternModel {
        PatternModel {
            offsets: (0..tables.regions().len())
                .map(|r| tables.offset(r))
                .collect(),
            table_entries: tables.len(),
            shape: PatternTables::zero(tables.regions().to_vec()),
            exchange: false,
        }
    }

    /// The same model with the `exchange` term learnt (`true`) or left out.
    pub fn with_exchange(self, exchange: bool) -> PatternModel {
        PatternModel { exchange, ..self }
    }

    /// Inputs per phase.
    pub fn width(&self) -> usize {
        TABLES_AT + self.table_entries
    }

    /// Number of parameters: both phases.
    pub fn parameter_count(&self) -> usize {
        2 * self.width()
    }

    /// Whether input `i` is a table entry (pulled toward zero, not toward the start).
    pub fn is_table_entry(&self, i: usize) -> bool {
        i >= TABLES_AT
    }

    /// The parameters of a set of weights (`patterns` `None`: zero classic terms and tables).
    pub fn parameters_of(
        &self,
        ten: &WeightPair,
        extra: &ExtraPair,
        patterns: Option<&PatternWeights>,
    ) -> Vec<f64> {
        let mut x = vec![0.0; self.parameter_count()];
        for (phase, (w, more)) in [
            (&ten.opening, &extra.opening),
            (&ten.endgame, &extra.endgame),
        ]
        .into_iter()
        .enumerate()
        {
            let all = w.0.iter().copied().chain(more.to_vec());
            for (i, v) in all.enumerate() {
                x[2 * i + phase] = f64::from(v);
            }
        }
        if let Some(p) = patterns {
            for j in 0..CLASSIC_COUNT {
                x[2 * (CLASSIC_AT + j)] = f64::from(p.classic_opening[j]);
                x[2 * (CLASSIC_AT + j) + 1] = f64::from(p.classic_endgame[j]);
            }
            x[2 * EXCHANGE_AT] = f64::from(p.exchange[0]);
            x[2 * EXCHANGE_AT + 1] = f64::from(p.exchange[1]);
            // Each region the start has keeps its table; a region it lacks starts at zero.
            for (r, region) in self.shape.regions().iter().enumerate() {
                let Some(q) = p.tables.regions().iter().position(|own| own == region) else {
                    continue;
                };
                let first = TABLES_AT + self.shape.offset(r);
                for phase in 0..2 {
                    for (e, v) in p.tables.table(q, phase).into_iter().enumerate() {
                        x[2 * (first + e) + phase] = f64::from(v);
                    }
                }
            }
        }
        x
    }

    /// The weights of (integer) parameters.
    pub fn weights_of(&self, x: &[f64]) -> (WeightPair, ExtraPair, PatternWeights) {
        let phase = |p: usize| -> Vec<i32> {
            (0..self.width())
                .map(|i| x[2 * i + p].round() as i32)
                .collect()
        };
        let (opening, endgame) = (phase(0), phase(1));
        let ten = |w: &[i32]| Weights(std::array::from_fn(|i| w[i]));
        let extra = |w: &[i32]| {
            ExtraWeights::from_slice(&w[FEATURE_COUNT..EXTENDED_INPUTS]).expect("the extra width")
        };
        let classic =
            |w: &[i32]| -> [i32; CLASSIC_COUNT] { std::array::from_fn(|j| w[CLASSIC_AT + j]) };
        let mut tables = self.shape.clone();
        let values = (0..self.table_entries)
            .map(|e| [opening[TABLES_AT + e], endgame[TABLES_AT + e]])
            .collect();
        tables
            .set_values(values)
            .expect("one value per entry, within the ranges");
        (
            WeightPair {
                opening: ten(&opening),
                endgame: ten(&endgame),
            },
            ExtraPair {
                opening: extra(&opening),
                endgame: extra(&endgame),
            },
            PatternWeights {
                classic_opening: classic(&opening),
                classic_endgame: classic(&endgame),
                exchange: [opening[EXCHANGE_AT], endgame[EXCHANGE_AT]],
                tables,
            },
        )
    }

    /// Calls `visit(i, x)` for every input `i` of sample `s` that is not zero (an index per
    /// phase: parameters `2i` and `2i + 1`), `x` its value.
    #[inline(always)]
    fn for_each_input(
        &self,
        s: &PatternSample,
        entries: &[u16],
        mut visit: impl FnMut(usize, f64),
    ) {
        for (i, &v) in s.dense.iter().enumerate() {
            if v != 0 {
                visit(i, f64::from(v));
            }
        }
        for (at, boards) in [(MEN_AT, s.men), (KINGS_AT, s.kings)] {
            for (side, sign) in [(0, 1.0), (1, -1.0)] {
                let mut rest = boards[side];
                while rest != 0 {
                    visit(at + rest.trailing_zeros() as usize, sign);
                    rest &= rest - 1;
                }
            }
        }
        for (j, &v) in s.classic.iter().enumerate() {
            if v != 0 {
                visit(CLASSIC_AT + j, f64::from(v));
            }
        }
        if self.exchange {
            let count = |side: usize| (s.men[side] | s.kings[side]).count_ones() as i32;
            let lead = EXCHANGE_SCALE * (count(0) - count(1));
            if lead != 0 {
                visit(EXCHANGE_AT, f64::from(lead) / f64::from(s.pieces));
            }
        }
        for (r, &offset) in self.offsets.iter().enumerate() {
            let (ours, theirs) = (entries[2 * r], entries[2 * r + 1]);
            if ours != theirs {
                visit(TABLES_AT + offset + usize::from(ours), 1.0);
                visit(TABLES_AT + offset + usize::from(theirs), -1.0);
            }
        }
    }

    /// The evaluation of a sample at `x`, and the opening values' share in it.
    #[inline(always)]
    fn evaluate(&self, x: &[f64], s: &PatternSample, entries: &[u16]) -> (f64, f64) {
        let (mut opening, mut endgame) = (0.0, 0.0);
        self.for_each_input(s, entries, |i, v| {
            opening += x[2 * i] * v;
            endgame += x[2 * i + 1] * v;
        });
        let share = f64::from(taper(u32::from(s.pieces))) / f64::from(FULL_BOARD);
        (share * opening + (1.0 - share) * endgame, share)
    }
}

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
        let result = f64::from(s.label);
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
            None => f64::from(s.label),
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
                for i in range {
                    sum += self.add_sample(x, scale, i, want_gradient.then_some(&mut grad));
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
    fn add_sample(&self, x: &[f64], scale: f64, i: usize, grad: Option<&mut Vec<f64>>) -> f64 {
        let (s, entries) = self.data.get(i);
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
                for &i in part {
                    sum += self.add_sample(x, scale, i as usize, Some(&mut grad));
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

/// The fit of the pattern evaluator on `games` (see [`fit_games`](super::fit_games)), read
/// and extracted a batch at a time: the start's tables give the regions (else
/// `settings.patterns.regions`), with `settings.patterns.kings`' king regions added when the
/// start has none; a share of the games is held out as the settings say.
pub(super) fn fit_patterns(
    games: Games<'_>,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    start_patterns: Option<&Arc<PatternWeights>>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    let shape = settings.table_shape(start_patterns);
    let regions = shape.regions().len();
    let (mut training, mut validation) = (PatternData::new(regions), PatternData::new(regions));
    let mut validation_games = 0;
    // The deeper labels are searched with the start weights, as the pattern evaluator plays
    // them (a start without tables as the extended evaluator, its tables empty).
    let zero_extra = ExtraPair::default();
    let deep = settings.deep_labels.map(|labels| {
        let extra = start_extra.unwrap_or(&zero_extra);
        let evaluator = match start_patterns {
            Some(patterns) => Evaluator::Patterns(start, extra, patterns),
            None => Evaluator::Extended(start, extra),
        };
        (labels, evaluator)
    });
    let games = games.for_each_batch(GAME_BATCH, |batch, first| {
        let data = pattern_samples(
            batch,
            settings.first_ply,
            &shape,
            first,
            settings.endings,
            deep,
        );
        let (held, kept) = data.split(|s| settings.holds_out(s.game as usize));
        validation.append(held);
        training.append(kept);
        validation_games += (first..first + batch.len())
            .filter(|&g| settings.holds_out(g))
            .count();
    })?;
    let mut report = fit_pattern_data(
        training.as_slice(),
        (!validation.is_empty()).then(|| validation.as_slice()),
        start,
        start_extra,
        start_patterns,
        settings,
        on_iteration,
    )
    .map_err(|_| settings.nothing_to_learn(games))?;
    report.games = games;
    report.validation_games = validation_games;
    Ok(report)
}

/// The fit of the pattern evaluator on samples (those of a run kept between its fits, or a
/// `fit` command's): from the start weights, which are also the anchor of the `l2` pull, with
/// the table entries pulled toward zero by `l2_tables`, by mini-batch Adam. The report's game
/// counts are left at 0 for the caller. An error when there is no training sample.
pub fn fit_pattern_data(
    training: PatternSlice<'_>,
    validation: Option<PatternSlice<'_>>,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    start_patterns: Option<&Arc<PatternWeights>>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    if training.is_empty() {
        return Err(Error::input("no position to learn from"));
    }
    let zero_extra = ExtraPair::default();
    let start_extra = start_extra.unwrap_or(&zero_extra);
    let shape = settings.table_shape(start_patterns);
    let model = PatternModel::new(&shape).with_exchange(settings.learns_exchange(start_patterns));
    let material = model.parameters_of(&WeightPair::material(), &ExtraPair::default(), None);
    let error = |data: PatternSlice<'_>, k: f64, x: &[f64]| {
        PatternObjective {
            data,
            model: &model,
            k,
            l2: 0.0,
            l2_tables: 0.0,
            anchor: x,
            blend: None,
        }
        .loss(x, None)
    };
    // K is what a man is worth in the games' results, measured with `material` as in the
    // other fits: on the games' own positions, not the endings the database played on, whose
    // exact values would make a man worth more than any game says.
    let k = material_k(training, settings.games_pieces());
    let anchor = model.parameters_of(start, start_extra, start_patterns.map(|p| p.as_ref()));
    let ranges = parameter_ranges(&model, settings);
    let bound = |pick: fn(&WeightRange) -> i32| -> Vec<f64> {
        ranges.iter().map(|r| f64::from(pick(r))).collect()
    };
    let (lower, upper) = (bound(|r| r.min), bound(|r| r.max));
    let blend = (settings.score_weight > 0.0).then(|| ScoreBlend {
        weight: settings.score_weight,
        k: score_k(training),
    });
    let objective = PatternObjective {
        data: training,
        model: &model,
        k,
        l2: settings.l2,
        l2_tables: settings.l2_tables,
        anchor: &anchor,
        blend,
    };
    let found = adam(
        training.len(),
        &anchor,
        (&lower, &upper),
        AdamOptions {
            epochs: settings.epochs,
            learning_rate: settings.learning_rate,
            seed: settings.seed,
        },
        |x, indices, g| objective.batch_gradient(x, indices, g),
        |x, g| objective.add_pulls(x, g),
        on_iteration,
    );
    let rounded: Vec<f64> = (0..found.len())
        .map(|i| found[i].round().clamp(lower[i], upper[i]))
        .collect();
    let (weights, extra, patterns) = model.weights_of(&rounded);
    let losses = |x: &[f64]| Losses {
        training: error(training, k, x),
        validation: validation.map(|v| error(v, k, x)),
    };
    Ok(FitReport {
        games: 0,
        validation_games: 0,
        training_positions: training.len(),
        validation_positions: validation.map_or(0, |v| v.len()),
        k,
        iterations: settings.epochs,
        material: losses(&material),
        start: losses(&anchor),
        fitted: losses(&rounded),
        weights,
        extra: Some(extra),
        patterns: Some(Arc::new(patterns)),
    })
}

/// The `K` that fits `material` (pawns 100, kings 150) to the results of the samples with
/// more than `fewer_left_out` pieces best: the other fits' `K`, computed from the samples'
/// piece counts alone.
fn material_k(data: PatternSlice<'_>, fewer_left_out: u32) -> f64 {
    let counted = data
        .samples
        .iter()
        .filter(|s| u32::from(s.pieces) > fewer_left_out)
        .count()
        .max(1);
    golden_section_k(|k| {
        let partial: Vec<f64> = data
            .samples
            .par_chunks(MIN_CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .filter(|s| u32::from(s.pieces) > fewer_left_out)
                    .map(|s| {
                        let eval = 100.0 * f64::from(s.dense[0]) + 150.0 * f64::from(s.dense[1]);
                        (sigmoid(k * eval / 100.0) - f64::from(s.label)).powi(2)
                    })
                    .sum::<f64>()
            })
            .collect();
        partial.iter().sum::<f64>() / counted as f64
    })
}

/// The scale that turns the samples' search scores into the win probabilities that predict
/// their games' results best (as `K` does for evaluations).
fn score_k(data: PatternSlice<'_>) -> f64 {
    let scored: Vec<(f64, f64)> = data
        .samples
        .iter()
        .filter(|s| s.score != NO_SCORE && s.score.abs() != SCORE_WIN)
        .map(|s| (f64::from(s.score), f64::from(s.label)))
        .collect();
    if scored.is_empty() {
        return 1.0;
    }
    golden_section_k(|k| {
        let sum: f64 = scored
            .par_chunks(MIN_CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|&(score, label)| (sigmoid(k * score / 100.0) - label).powi(2))
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum();
        sum / scored.len() as f64
    })
}

/// The range of every parameter, in the model's layout: the ten features' from the settings'
/// sets, the extended evaluator's and the pattern evaluator's the same in both phases.
fn parameter_ranges(model: &PatternModel, settings: &FitSettings) -> Vec<WeightRange> {
    let mut ranges = Vec::with_capacity(model.parameter_count());
    let opening = settings.opening.to_array();
    let endgame = settings.endgame.to_array();
    let extra = settings.extended.to_vec();
    for i in 0..model.width() {
        let pair = if i < FEATURE_COUNT {
            [opening[i], endgame[i]]
        } else if i < EXTENDED_INPUTS {
            [extra[i - FEATURE_COUNT]; 2]
        } else if i < TABLES_AT {
            [settings.patterns.classic; 2]
        } else {
            [settings.patterns.tables; 2]
        };
        ranges.extend(pair);
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::board::Position;
    use checkers_engine::eval::{evaluate_patterns, RegionLayout};

    fn tables() -> PatternTables {
        let regions = RegionLayout::BandsAndStrips.regions();
        PatternTables::zero(regions)
    }

    /// The model's evaluation of a sample at a set of integer weights is the engine's
    /// evaluation of the position, but for the engine's truncations.
    #[test]
    fn the_model_evaluates_as_the_engine() {
        let mut with_kings = RegionLayout::BandsAndStrips.regions();
        with_kings.extend(checkers_engine::eval::KingLayout::Quadrants.regions());
        let mut with_ranks = with_kings.clone();
        with_ranks.extend(checkers_engine::eval::RankLayout::Home.regions());
        for t in [
            tables(),
            PatternTables::zero(with_kings),
            PatternTables::zero(with_ranks),
        ] {
            the_model_evaluates_as_the_engine_with(t);
        }
    }

    fn the_model_evaluates_as_the_engine_with(t: PatternTables) {
        for exchange in [false, true] {
            the_model_evaluates_as_the_engine_with_exchange(t.clone(), exchange);
        }
    }

    fn the_model_evaluates_as_the_engine_with_exchange(t: PatternTables, exchange: bool) {
        let model = PatternModel::new(&t).with_exchange(exchange);
        let mut x = vec![0.0; model.parameter_count()];
        for (i, v) in x.iter_mut().enumerate() {
            *v = ((i * 7919) % 41) as f64 - 20.0;
        }
        let (ten, extra, mut patterns) = model.weights_of(&x);
        if !exchange {
            // A model without the term leaves its weights where they started: zero.
            patterns.exchange = [0; 2];
        }
        assert_eq!(patterns.has_exchange(), exchange);
        let x = model.parameters_of(&ten, &extra, Some(&patterns));
        let mut data = PatternData::new(t.regions().len());
        let fens = [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W22,30,K4:B1,3,14,K29",
            "W:WK32:B23,24,27,28,25",
        ];
        for fen in fens {
            data.push(&Position::from_fen(fen).unwrap(), &t, 1.0, NO_SCORE, 0);
        }
        let stride = 2 * data.regions;
        for (i, fen) in fens.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let engine = evaluate_patterns(&pos, &ten, &extra, &patterns);
            let (value, _) = model.evaluate(
                &x,
                &data.samples[i],
                &data.entries[stride * i..stride * (i + 1)],
            );
            // The engine truncates the exchange term and the taper: at most a unit each.
            assert!(
                (value - f64::from(engine)).abs() < 2.0,
                "{fen}: {value} vs {engine}"
            );
        }
    }

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
        let mut data = PatternData::new(t.regions().len());
        for (fen, label) in [
            ("B:W21-32:B1-12", 0.5),
            ("W:W9,K14,22,25,30:B6,13,17,K26,28", 1.0),
            ("B:W22,30,K4:B1,3,14,K29", 0.0),
        ] {
            data.push(&Position::from_fen(fen).unwrap(), &t, label, NO_SCORE, 0);
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
        let stride = 2 * data.regions;
        let touched: Vec<usize> = {
            let mut v = vec![0, 1, 2 * 5, 2 * CLASSIC_AT, 2 * CLASSIC_AT + 1];
            // The third sample is three pieces against four: the exchange term is read.
            v.extend([2 * EXCHANGE_AT, 2 * EXCHANGE_AT + 1]);
            let first = TABLES_AT + usize::from(data.entries[0]);
            v.push(2 * first);
            v.push(2 * (TABLES_AT + usize::from(data.entries[stride + 3])) + 1);
            v.push(2 * (TABLES_AT + 17));
            if t.has_rank_regions() {
                // The home ranks' entry of the first sample's side to move, and the entry of
                // 16 own men, which no position has: the table pull alone.
                let rank = t.regions().len() - 1;
                let first = TABLES_AT + t.offset(rank);
                v.push(2 * (first + usize::from(data.entries[2 * rank])));
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
