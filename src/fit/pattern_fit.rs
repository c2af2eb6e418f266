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

use crate::engine::Position;
use crate::error::Result;
use crate::eval::{
    classic_counts, classic_inputs, extended_inputs, men_in_views, taper, ExtraPair, ExtraWeights,
    PatternTables, PatternWeights, WeightPair, Weights, CLASSIC_COUNT, EXTENDED_INPUTS,
    FEATURE_COUNT, FULL_BOARD, MAN_SQUARES, TERM_COUNT,
};
use crate::tournament::WeightRange;

use super::lbfgs::{minimize, LbfgsOptions};
use super::positions::{quiet_leaves, result_label, Extraction};
use super::records::RecordedGame;
use super::report::{FitReport, FitSettings, Losses};
use super::texel::{golden_section_k, sigmoid};
use super::GameRecords;

/// The dense inputs of a sample: the ten features and the extended evaluator's terms.
const DENSE: usize = FEATURE_COUNT + TERM_COUNT;
/// Where the men's piece-square inputs start.
const MEN_AT: usize = DENSE;
/// Where the kings' piece-square inputs start.
const KINGS_AT: usize = MEN_AT + MAN_SQUARES;
/// Where the classic terms' inputs start (after the extended evaluator's).
const CLASSIC_AT: usize = EXTENDED_INPUTS;
/// Where the table entries start.
const TABLES_AT: usize = CLASSIC_AT + CLASSIC_COUNT;

/// The most samples a task sums: few enough tasks that their gradients (one full parameter
/// vector each) are cheap to add up.
const MIN_CHUNK: usize = 8192;
/// The most chunks a sum is split into.
const MAX_CHUNKS: usize = 32;

/// One quiet position, as the pattern fit sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternSample {
    /// The side to move's counts minus the opponent's: the ten features, then the extended
    /// evaluator's terms.
    pub dense: [i8; DENSE],
    /// The classic terms' counts (`exchange` as its numerator).
    pub classic: [i16; CLASSIC_COUNT],
    /// The men of the side to move (its view) and of the opponent (its view).
    pub men: [u32; 2],
    /// Their kings, likewise.
    pub kings: [u32; 2],
    /// Pieces on the board.
    pub pieces: u8,
    /// What the evaluation should predict for the side to move: 1 a win, 0 a loss.
    pub label: f32,
    /// The game it came from, in input order (for the validation split).
    pub game: u32,
}

/// Samples and their table entries: for sample `i`, region `r`'s entry of the side to move at
/// `entries[2 R i + 2 r]` and the opponent's at `entries[2 R i + 2 r + 1]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatternData {
    /// The samples.
    pub samples: Vec<PatternSample>,
    /// Their entries (within each region's table).
    pub entries: Vec<u16>,
    /// Regions per sample.
    pub regions: usize,
}

impl PatternData {
    /// Empty data for `regions` regions.
    pub fn new(regions: usize) -> PatternData {
        PatternData {
            samples: Vec::new(),
            entries: Vec::new(),
            regions,
        }
    }

    /// Adds the sample of a quiet position with `label`, from game `game`.
    pub fn push(&mut self, pos: &Position, tables: &PatternTables, label: f32, game: u32) {
        let inputs = extended_inputs(pos);
        let ((us_own, us_enemy), (them_own, them_enemy)) = men_in_views(pos);
        let us = pos.side_to_move();
        let king_views = [us, us.opponent()].map(|color| {
            let kings = pos.kings_of(color);
            match color {
                crate::engine::Color::Black => kings,
                crate::engine::Color::White => kings.reverse_bits(),
            }
        });
        let classic = classic_counts(pos).map(|c| c as i16);
        self.samples.push(PatternSample {
            dense: std::array::from_fn(|i| inputs[i]),
            classic,
            men: [us_own, them_own],
            kings: king_views,
            pieces: pos.piece_count() as u8,
            label,
            game,
        });
        for r in 0..self.regions {
            self.entries.push(tables.index(r, us_own, us_enemy) as u16);
            self.entries
                .push(tables.index(r, them_own, them_enemy) as u16);
        }
    }

    /// Appends `other`'s samples.
    pub fn append(&mut self, other: PatternData) {
        self.samples.extend(other.samples);
        self.entries.extend(other.entries);
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The samples for which `keep` holds, and the others.
    pub fn split(self, keep: impl Fn(&PatternSample) -> bool) -> (PatternData, PatternData) {
        let stride = 2 * self.regions;
        let (mut yes, mut no) = (
            PatternData::new(self.regions),
            PatternData::new(self.regions),
        );
        for (i, s) in self.samples.iter().enumerate() {
            let out = if keep(s) { &mut yes } else { &mut no };
            out.samples.push(*s);
            out.entries
                .extend_from_slice(&self.entries[stride * i..stride * (i + 1)]);
        }
        (yes, no)
    }
}

/// The parameters of the pattern evaluator, their layout and the mapping to weights.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternModel {
    /// Where each region's entries start among the table entries.
    offsets: Vec<usize>,
    /// All table entries.
    table_entries: usize,
    /// The tables' regions (for the fitted weights).
    shape: PatternTables,
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
        }
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
            if p.tables.regions() == self.shape.regions() {
                for (e, v) in p.tables.values().iter().enumerate() {
                    x[2 * (TABLES_AT + e)] = f64::from(v[0]);
                    x[2 * (TABLES_AT + e) + 1] = f64::from(v[1]);
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
        assert!(tables.set_values(values), "one value per entry");
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
        let classic = classic_inputs(&s.classic.map(i32::from), i32::from(s.pieces));
        for (j, &v) in classic.iter().enumerate() {
            if v != 0.0 {
                visit(CLASSIC_AT + j, v);
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
    pub data: &'a PatternData,
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
}

impl PatternObjective<'_> {
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
        let stride = 2 * self.data.regions;
        let chunk = MIN_CHUNK.max(n.div_ceil(MAX_CHUNKS));
        let partials: Vec<(f64, Vec<f64>)> = (0..n.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let range = c * chunk..n.min((c + 1) * chunk);
                let mut sum = 0.0;
                let mut grad = vec![0.0; if want_gradient { parameters } else { 0 }];
                for i in range {
                    let s = &self.data.samples[i];
                    let entries = &self.data.entries[stride * i..stride * (i + 1)];
                    let (eval, share) = self.model.evaluate(x, s, entries);
                    let p = sigmoid(scale * eval);
                    let error = p - f64::from(s.label);
                    sum += error * error;
                    if want_gradient {
                        let factor = 2.0 * error * p * (1.0 - p) * scale;
                        let (o, e) = (factor * share, factor * (1.0 - share));
                        self.model.for_each_input(s, entries, |i, v| {
                            grad[2 * i] += o * v;
                            grad[2 * i + 1] += e * v;
                        });
                    }
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

    /// The mean squared error of `x` (no pulls).
    pub fn error_of(&self, x: &[f64]) -> f64 {
        PatternObjective {
            l2: 0.0,
            l2_tables: 0.0,
            ..*self
        }
        .loss(x, None)
    }
}

/// Games extracted at a time: their samples are gathered in order, so memory holds one
/// batch's per-game lists beside the data.
const GAME_BATCH: usize = 4096;

/// The samples of `games` for the pattern fit, in game order then ply order.
pub fn pattern_samples(
    games: &[RecordedGame],
    how: Extraction<'_>,
    tables: &PatternTables,
) -> PatternData {
    let regions = tables.regions().len();
    let mut data = PatternData::new(regions);
    for (b, batch) in games.chunks(GAME_BATCH).enumerate() {
        let parts: Vec<PatternData> = batch
            .par_iter()
            .enumerate()
            .map(|(j, game)| {
                let index = (b * GAME_BATCH + j) as u32;
                let mut part = PatternData::new(regions);
                for (leaf, _) in quiet_leaves(game, how) {
                    let label = result_label(game.result, leaf.side_to_move());
                    part.push(&leaf, tables, label, index);
                }
                part
            })
            .collect();
        for part in parts {
            data.append(part);
        }
    }
    data
}

/// The fit of the pattern evaluator (see [`fit`](super::fit)): the start's tables give the
/// regions (else `settings.patterns.regions`), the start is also the capture resolver and the
/// anchor of the `l2` pull, and the table entries are pulled toward zero by `l2_tables`.
pub(super) fn fit_patterns(
    records: &GameRecords,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    start_patterns: Option<&Arc<PatternWeights>>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    let zero_extra = ExtraPair::default();
    let start_extra = start_extra.unwrap_or(&zero_extra);
    let shape = match start_patterns {
        Some(p) => PatternTables::zero(p.tables.regions().to_vec()),
        None => PatternTables::zero(settings.patterns.regions.regions()),
    };
    let how = Extraction {
        first_ply: settings.first_ply,
        weights: start,
        extra: Some(start_extra),
        patterns: start_patterns,
        endgame_pieces: settings.endgame_pieces,
    };
    let data = pattern_samples(&records.games, how, &shape);
    let (validation, training) = data.split(|s| settings.holds_out(s.game as usize));
    if training.is_empty() {
        return Err(settings.nothing_to_learn(records.games.len()));
    }
    let model = PatternModel::new(&shape);
    let material = model.parameters_of(&WeightPair::material(), &ExtraPair::default(), None);
    let error = |data: &PatternData, k: f64, x: &[f64]| {
        PatternObjective {
            data,
            model: &model,
            k,
            l2: 0.0,
            l2_tables: 0.0,
            anchor: x,
        }
        .loss(x, None)
    };
    // K is what a man is worth in the games' results, measured with `material` as in the
    // other fits.
    let k = golden_section_k(|k| error(&training, k, &material));
    let anchor = model.parameters_of(start, start_extra, start_patterns.map(|p| p.as_ref()));
    let ranges = parameter_ranges(&model, settings);
    let bound = |pick: fn(&WeightRange) -> i32| -> Vec<f64> {
        ranges.iter().map(|r| f64::from(pick(r))).collect()
    };
    let (lower, upper) = (bound(|r| r.min), bound(|r| r.max));
    let objective = PatternObjective {
        data: &training,
        model: &model,
        k,
        l2: settings.l2,
        l2_tables: settings.l2_tables,
        anchor: &anchor,
    };
    let found = minimize(
        |x, g| objective.loss(x, Some(g)),
        &anchor,
        &lower,
        &upper,
        LbfgsOptions {
            max_iterations: settings.max_iterations,
            ..LbfgsOptions::default()
        },
        on_iteration,
    );
    let rounded: Vec<f64> = (0..found.x.len())
        .map(|i| found.x[i].round().clamp(lower[i], upper[i]))
        .collect();
    let (weights, extra, patterns) = model.weights_of(&rounded);
    let losses = |x: &[f64]| Losses {
        training: error(&training, k, x),
        validation: (!validation.is_empty()).then(|| error(&validation, k, x)),
    };
    Ok(FitReport {
        games: records.games.len(),
        validation_games: (0..records.games.len())
            .filter(|&g| settings.holds_out(g))
            .count(),
        training_positions: training.len(),
        validation_positions: validation.len(),
        k,
        iterations: found.iterations,
        material: losses(&material),
        start: losses(&anchor),
        fitted: losses(&rounded),
        weights,
        extra: Some(extra),
        patterns: Some(Arc::new(patterns)),
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
    use crate::eval::{evaluate_patterns, RegionLayout};

    fn tables() -> PatternTables {
        let regions = RegionLayout::BandsAndStrips.regions();
        PatternTables::zero(regions)
    }

    /// The model's evaluation of a sample at a set of integer weights is the engine's
    /// evaluation of the position, but for the engine's truncations.
    #[test]
    fn the_model_evaluates_as_the_engine() {
        let t = tables();
        let model = PatternModel::new(&t);
        let mut x = vec![0.0; model.parameter_count()];
        for (i, v) in x.iter_mut().enumerate() {
            *v = ((i * 7919) % 41) as f64 - 20.0;
        }
        let (ten, extra, patterns) = model.weights_of(&x);
        let x = model.parameters_of(&ten, &extra, Some(&patterns));
        let mut data = PatternData::new(t.regions().len());
        let fens = [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W22,30,K4:B1,3,14,K29",
            "W:WK32:B23,24,27,28,25",
        ];
        for fen in fens {
            data.push(&Position::from_fen(fen).unwrap(), &t, 1.0, 0);
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
        let t = tables();
        let model = PatternModel::new(&t);
        let mut data = PatternData::new(t.regions().len());
        for (fen, label) in [
            ("B:W21-32:B1-12", 0.5),
            ("W:W9,K14,22,25,30:B6,13,17,K26,28", 1.0),
            ("B:W22,30,K4:B1,3,14,K29", 0.0),
        ] {
            data.push(&Position::from_fen(fen).unwrap(), &t, label, 0);
        }
        let anchor = model.parameters_of(&WeightPair::material(), &ExtraPair::default(), None);
        let objective = PatternObjective {
            data: &data,
            model: &model,
            k: 1.2,
            l2: 0.01,
            l2_tables: 5.0,
            anchor: &anchor,
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
            let first = TABLES_AT + usize::from(data.entries[0]);
            v.push(2 * first);
            v.push(2 * (TABLES_AT + usize::from(data.entries[stride + 3])) + 1);
            v.push(2 * (TABLES_AT + 17));
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
    }
}
