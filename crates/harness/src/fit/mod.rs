//! Regression tuning from game records (the Texel method): every quiet position of the games,
//! labelled with the game's result, and the weights that predict those results best.
//!
//! The tournament keeps one bit per game (who went through); a fit learns from every position
//! of every game. `fit` (the command) runs it on run folders and PDN files; a run's fitted
//! specimens run it on the run's own games.

mod adam;
mod deep_labels;
mod endings;
mod inputs;
mod lbfgs;
mod pattern_fit;
mod pattern_samples;
mod positions;
mod recorded_game;
mod report;
mod samples;
mod settings;
mod store;
mod texel;
mod unique;

use std::sync::Arc;

use checkers_engine::error::Result;
use checkers_engine::eval::WeightRange;
use checkers_engine::eval::{EvaluatorKind, ExtraPair, PatternWeights, WeightPair};

pub use crate::tournament::{MAX_ENDING_PLIES, MAX_L2_TABLES};
pub use deep_labels::{
    DeepLabels, LabelSearch, DEEP_LABEL_EXTENSION, MAX_LABEL_DEPTH, MAX_LABEL_NODES,
};
pub use endings::DatabaseEndings;
pub use inputs::{
    Damaged, GameRecords, GameStream, Games, PdnCounts, ReadNote, ReadReport, LISTED_PER_FILE,
};
pub use pattern_fit::fit_pattern_data;
pub use pattern_samples::{pattern_samples, PatternData};
pub use positions::{extract_split, quiet_positions, Extraction};
pub use recorded_game::RecordedGame;
pub use report::{FitReport, Losses};
pub use samples::Samples;
pub use settings::{FitSettings, MAX_EPOCHS};
pub use store::{
    append_round, cut_store_to, length_through_round, start_store, StoreIdentity, StoreReader,
};
pub use texel::{fit_k, Model, Objective};
pub use unique::UniquePositions;

/// Fits weights to the games of `records` (see [`fit_games`]).
pub fn fit(
    records: &GameRecords,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    start_patterns: Option<&Arc<PatternWeights>>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    fit_games(
        Games::Memory(&records.games),
        start,
        start_extra,
        start_patterns,
        settings,
        on_iteration,
    )
}

/// Fits weights to `games` (held, or streamed from the inputs: the same games give the same
/// fit) from `start` (which also resolves captures to quiet positions and is the L2 anchor):
/// `K` first with the `material` weights, then the weights. `on_iteration` sees each optimiser
/// iteration and the training loss. The result is the same on any number of threads.
pub fn fit_games(
    games: Games<'_>,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    start_patterns: Option<&Arc<PatternWeights>>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    settings.check(|name| format!("fit {name}"))?;
    if settings.evaluator == EvaluatorKind::Patterns {
        return pattern_fit::fit_patterns(
            games,
            start,
            start_extra,
            start_patterns,
            settings,
            on_iteration,
        );
    }
    let model = Model::of(settings.evaluator, settings.endgame_pieces);
    let mut training = Samples::new(model.reads_extras());
    let mut validation = Samples::new(model.reads_extras());
    let split = extract_split(
        games,
        Extraction {
            first_ply: settings.first_ply,
            weights: start,
            extra: start_extra,
            patterns: None,
            endgame_pieces: settings.endgame_pieces,
            endings: settings.endings,
        },
        |game| settings.holds_out(game),
        &mut training,
        &mut validation,
        settings.unique.then_some(&mut UniquePositions::default()),
    )?;
    if training.is_empty() {
        return Err(settings.nothing_to_learn(split.games));
    }
    // K says what a man is worth in the games' results, so it is measured with `material`
    // (pawns 100, kings 150): with the start's positional terms in the evaluation, a K fitted
    // to them would be smaller, and the weights would have to grow to make up for it.
    // On the games' own positions: the endings' exact values would make a man worth more.
    let k = match settings.games_pieces() {
        0 => fit_k(&training, model, &WeightPair::material()),
        fewest => fit_k(
            &training.with_more_pieces_than(fewest),
            model,
            &WeightPair::material(),
        ),
    };
    let start_extra = start_extra.filter(|_| settings.evaluator == EvaluatorKind::Extended);
    let anchor = model.parameters_of(start, start_extra);
    let objective = |samples, l2| Objective {
        samples,
        model,
        k,
        l2,
        anchor: &anchor,
    };
    let losses = |weights: &WeightPair, extra: Option<&ExtraPair>| Losses {
        training: objective(&training, 0.0).loss_of(weights, extra),
        validation: (!validation.is_empty())
            .then(|| objective(&validation, 0.0).loss_of(weights, extra)),
    };
    let ranges: Vec<WeightRange> = [&settings.opening, &settings.endgame]
        .into_iter()
        .flat_map(|ten| {
            let all = ten.to_array().into_iter().chain(settings.extended.to_vec());
            all.take(model.width).collect::<Vec<_>>()
        })
        .collect();
    let bounds = |pick: fn(&WeightRange) -> i32| -> Vec<f64> {
        ranges.iter().map(|r| f64::from(pick(r))).collect()
    };
    let (weights, extra, iterations) = texel::fit_weights(
        &objective(&training, settings.l2),
        &anchor,
        &bounds(|r| r.min),
        &bounds(|r| r.max),
        settings.max_iterations,
        on_iteration,
    );
    Ok(FitReport {
        games: split.games,
        validation_games: split.validation_games,
        training_positions: training.len(),
        validation_positions: validation.len(),
        k,
        iterations,
        material: losses(&WeightPair::material(), None),
        start: losses(start, start_extra),
        fitted: losses(&weights, extra.as_ref()),
        weights,
        extra,
        patterns: None,
    })
}

#[cfg(test)]
mod tests {
    use super::positions::extract;
    use super::samples::SampleList;
    use super::*;
    use checkers_engine::eval::{Weights, DEFAULT_ENDGAME_PIECES, FEATURE_COUNT};
    use checkers_engine::game::{play_game, three_move_deck, GameSettings};
    use checkers_engine::rng::stream;

    /// Real games' positions, labelled by a known model (the exact win probability its
    /// evaluation gives): the fit from `material` finds the model's weights again.
    #[test]
    fn the_fit_recovers_the_weights_of_a_known_model() {
        let mut settings = GameSettings::default();
        settings.search.min_depth = 2;
        settings.search.max_depth = 4;
        settings.max_plies = 120;
        let material = WeightPair::material();
        let games: Vec<RecordedGame> = three_move_deck()
            .iter()
            .enumerate()
            .map(|(i, opening)| {
                let mut rng = stream(3, &[i as u64]);
                let record =
                    play_game(&material, &material, &opening.position, &settings, &mut rng);
                RecordedGame {
                    start: opening.position,
                    moves: record.moves,
                    scores: Vec::new(),
                    result: record.result,
                }
            })
            .collect();
        let how = Extraction {
            first_ply: 0,
            weights: &material,
            extra: None,
            patterns: None,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            endings: None,
        };
        let played = extract(&games, how, false);
        assert!(played.len() > 5_000, "{}", played.len());

        let known = WeightPair {
            opening: Weights([100, 180, 12, 0, 8, -6, -3, 10, 4, 20]),
            endgame: Weights([100, 140, -5, 9, 0, 3, -7, 15, 6, 25]),
        };
        let k = 1.1;
        let model = Model::of(EvaluatorKind::Ten, DEFAULT_ENDGAME_PIECES);
        let known_x = model.parameters_of(&known, None);
        // The same positions, each labelled with the known model's win probability (to the
        // 1/254 a stored label keeps).
        let mut relabelled = SampleList::new(false);
        for s in played.iter() {
            let offset = if u32::from(s.pieces) <= DEFAULT_ENDGAME_PIECES {
                FEATURE_COUNT
            } else {
                0
            };
            let eval: f64 = (0..FEATURE_COUNT)
                .map(|i| known_x[offset + i] * f64::from(s.ten[i]))
                .sum();
            relabelled.push(
                &s.inputs(),
                s.pieces,
                1.0 / (1.0 + (-k * eval / 100.0).exp()),
            );
        }
        let mut samples = Samples::new(false);
        samples.append(&relabelled);
        assert!((fit_k(&samples, model, &known) - k).abs() < 1e-3);

        let start = model.parameters_of(&material, None);
        let objective = Objective {
            samples: &samples,
            model,
            k,
            l2: 0.0,
            anchor: &start,
        };
        let (fitted, _, _) = texel::fit_weights(
            &objective,
            &start,
            &[-1000.0; 2 * FEATURE_COUNT],
            &[1000.0; 2 * FEATURE_COUNT],
            1000,
            |_, _| {},
        );
        // Only the weights of features that vary in a phase's positions can be learnt.
        let mut checked = 0;
        for (set, offset, fitted, known) in [
            ("opening", 0, fitted.opening, known.opening),
            ("endgame", FEATURE_COUNT, fitted.endgame, known.endgame),
        ] {
            for i in 0..FEATURE_COUNT {
                let varies = samples
                    .iter()
                    .filter(|s| (u32::from(s.pieces) <= DEFAULT_ENDGAME_PIECES) == (offset > 0))
                    .filter(|s| s.ten[i] != 0)
                    .count();
                if varies > 200 {
                    checked += 1;
                    assert!(
                        (fitted.0[i] - known.0[i]).abs() <= 1,
                        "{set} {}: fitted {} known {} ({varies} positions)",
                        checkers_engine::eval::FEATURE_NAMES[i],
                        fitted.0[i],
                        known.0[i]
                    );
                }
            }
        }
        assert!(checked >= 14, "only {checked} weights could be checked");
    }
}
