//! The pattern evaluator's fit: the samples of the games, the scales, the ranges, and Adam.

use std::sync::Arc;

use rayon::prelude::*;

use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{
    Evaluator, ExtraPair, PatternWeights, WeightPair, WeightRange, EXTENDED_INPUTS, FEATURE_COUNT,
};

use crate::fit::adam::{adam, AdamOptions};
use crate::fit::inputs::Games;
use crate::fit::pattern_samples::{pattern_samples, PatternData, PatternSlice};
use crate::fit::positions::GAME_BATCH;
use crate::fit::recorded_game::{NO_SCORE, SCORE_WIN};
use crate::fit::report::{FitReport, Losses};
use crate::fit::settings::FitSettings;
use crate::fit::texel::{golden_section_k, sigmoid};
use crate::fit::unique::UniquePositions;

use super::model::{PatternModel, TABLES_AT};
use super::objective::{PatternObjective, ScoreBlend, MIN_CHUNK};

/// The fit of the pattern evaluator on `games` (see [`fit_games`](crate::fit::fit_games)), read
/// and extracted a batch at a time: the start's tables give the regions (else
/// `settings.patterns.regions`), with `settings.patterns.kings`' king regions added when the
/// start has none; a share of the games is held out as the settings say.
pub(in crate::fit) fn fit_patterns(
    games: Games<'_>,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    start_patterns: Option<&Arc<PatternWeights>>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    let shape = settings.table_shape(start_patterns);
    let (mut training, mut validation) = (PatternData::new(&shape), PatternData::new(&shape));
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
    let mut unique = settings.unique.then(UniquePositions::default);
    let games = games.for_each_batch(GAME_BATCH, |batch, first| {
        let data = pattern_samples(
            batch,
            settings.first_ply,
            &shape,
            first,
            settings.endings,
            deep,
            unique.as_mut(),
        );
        let (held, kept) = data.split(|s| settings.holds_out(s.game as usize));
        validation.append(held);
        training.append(kept);
        validation_games += (first..first + batch.len())
            .filter(|&g| settings.holds_out(g))
            .count();
    })?;
    // The keys of every position seen are not needed by the fit itself: at a hundred million
    // positions they hold more than a gigabyte.
    drop(unique);
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
                        (sigmoid(k * eval / 100.0) - s.label()).powi(2)
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
        .map(|s| (f64::from(s.score), s.label()))
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
