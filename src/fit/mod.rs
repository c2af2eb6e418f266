//! Regression tuning from game records (the Texel method): every quiet position of the games,
//! labelled with the game's result, and the weights that predict those results best.
//!
//! The tournament keeps one bit per game (who went through); a fit learns from every position
//! of every game. `fit` (the command) runs it on run folders and PDN files; a run's fitted
//! specimens run it on the run's own games.

mod lbfgs;
mod positions;
mod records;
mod texel;

use rand::Rng;

use crate::error::{Error, Result};
use crate::eval::{EvaluatorKind, ExtraPair, WeightPair, DEFAULT_ENDGAME_PIECES};
use crate::rng::{stream, tag};
use crate::tournament::{ExtraRanges, FeatureRanges, WeightRange};

pub use positions::{extract, Extraction, Sample};
pub use records::{Damaged, GameRecords, PdnCounts, RecordedGame, LISTED_PER_FILE};
pub use texel::{fit_k, Model, Objective};

/// How a fit is made: one owner for its settings, their defaults and their checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    /// Plies of each game (from its start, the opening's included) whose positions are left
    /// out.
    pub first_ply: u32,
    /// The share of games held out to measure the fit (0: none).
    pub validation: f64,
    /// The seed of the validation split.
    pub seed: u64,
    /// Strength of the pull towards the start weights (0: none).
    pub l2: f64,
    /// Most optimiser iterations.
    pub max_iterations: u32,
    /// Pieces at which the endgame set takes over (the fitted file's `endgame_pieces`).
    pub endgame_pieces: u32,
    /// The ranges of the opening set's weights (equal bounds fix a weight).
    pub opening: FeatureRanges,
    /// The ranges of the endgame set's weights.
    pub endgame: FeatureRanges,
    /// The evaluator whose weights are fitted.
    pub evaluator: EvaluatorKind,
    /// The ranges of the extended evaluator's further weights (both sets).
    pub extended: ExtraRanges,
}

impl Default for FitSettings {
    /// Positions from ply 10 on, a fifth of the games held out (seed 1), no L2, up to 300
    /// iterations, the default endgame threshold and the default weight ranges (pawns fixed
    /// at 100).
    fn default() -> FitSettings {
        FitSettings {
            first_ply: 10,
            validation: 0.2,
            seed: 1,
            l2: 0.0,
            max_iterations: 300,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            opening: FeatureRanges::default(),
            endgame: FeatureRanges::default(),
            evaluator: EvaluatorKind::Ten,
            extended: ExtraRanges::default(),
        }
    }
}

impl FitSettings {
    /// Why the settings are unusable, naming the setting by `name_of` (the command line's or
    /// the config's spelling), if they are.
    pub fn check(&self, name_of: impl Fn(&str) -> String) -> Result<()> {
        if !(0.0..1.0).contains(&self.validation) {
            return Err(Error::input(format!(
                "{} {} is outside 0 ..< 1 (the share of games held out)",
                name_of("validation"),
                self.validation
            )));
        }
        if !(self.l2.is_finite() && self.l2 >= 0.0) {
            return Err(Error::input(format!(
                "{} {} must be a finite number >= 0",
                name_of("l2"),
                self.l2
            )));
        }
        for (set, ranges) in [("opening", &self.opening), ("endgame", &self.endgame)] {
            for (name, range) in crate::eval::FEATURE_NAMES.iter().zip(ranges.to_array()) {
                if let Some(problem) = range.problem() {
                    return Err(Error::input(format!("weights.{set}.{name} {problem}")));
                }
            }
        }
        if let Some((key, problem)) = self.extended.problem() {
            return Err(Error::input(format!("weights.extended.{key} {problem}")));
        }
        Ok(())
    }
}

/// The losses of one weight pair on the training and validation positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Losses {
    /// Mean squared error on the training positions.
    pub training: f64,
    /// Mean squared error on the held-out positions (`None` without a validation split).
    pub validation: Option<f64>,
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The fitted weights (integers within the ranges).
    pub weights: WeightPair,
    /// The fitted further weights of the extended evaluator (`None` for `ten`).
    pub extra: Option<ExtraPair>,
    /// Games learnt from (training and validation).
    pub games: usize,
    /// Of which held out.
    pub validation_games: usize,
    /// Quiet positions of the training games.
    pub training_positions: usize,
    /// Quiet positions of the held-out games.
    pub validation_positions: usize,
    /// The fitted logistic scale, per man.
    pub k: f64,
    /// Optimiser iterations.
    pub iterations: u32,
    /// The losses of `material`, of the start weights and of the fit.
    pub material: Losses,
    /// See [`FitReport::material`].
    pub start: Losses,
    /// See [`FitReport::material`].
    pub fitted: Losses,
}

/// Fits weights to `records` from `start` (which also resolves captures to quiet positions and
/// is the L2 anchor): `K` first with the `material` weights, then the weights. `on_iteration` sees
/// each optimiser iteration and the training loss. The result is the same on any number of
/// threads.
pub fn fit(
    records: &GameRecords,
    start: &WeightPair,
    start_extra: Option<&ExtraPair>,
    settings: &FitSettings,
    on_iteration: impl FnMut(u32, f64),
) -> Result<FitReport> {
    settings.check(|name| format!("fit {name}"))?;
    let samples = extract(
        &records.games,
        Extraction {
            first_ply: settings.first_ply,
            weights: start,
            extra: start_extra,
            endgame_pieces: settings.endgame_pieces,
        },
    );
    let held_out: Vec<bool> = (0..records.games.len())
        .map(|game| {
            settings.validation > 0.0
                && stream(settings.seed, &[tag::FIT_SPLIT, game as u64]).gen::<f64>()
                    < settings.validation
        })
        .collect();
    let (validation, training): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| held_out[s.game as usize]);
    if training.is_empty() {
        return Err(Error::input(format!(
            "no position to learn from: {} game(s), none with a quiet position after ply {}{}",
            records.games.len(),
            settings.first_ply,
            if settings.validation > 0.0 {
                " in the training share"
            } else {
                ""
            }
        )));
    }
    // K says what a man is worth in the games' results, so it is measured with `material`
    // (pawns 100, kings 150): with the start's positional terms in the evaluation, a K fitted
    // to them would be smaller, and the weights would have to grow to make up for it.
    let model = Model::of(settings.evaluator, settings.endgame_pieces);
    let k = fit_k(&training, model, &WeightPair::material());
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
        training: objective(training.as_slice(), 0.0).loss_of(weights, extra),
        validation: (!validation.is_empty())
            .then(|| objective(validation.as_slice(), 0.0).loss_of(weights, extra)),
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
        &objective(training.as_slice(), settings.l2),
        &anchor,
        &bounds(|r| r.min),
        &bounds(|r| r.max),
        settings.max_iterations,
        on_iteration,
    );
    Ok(FitReport {
        games: records.games.len(),
        validation_games: held_out.iter().filter(|&&h| h).count(),
        training_positions: training.len(),
        validation_positions: validation.len(),
        k,
        iterations,
        material: losses(&WeightPair::material(), None),
        start: losses(start, start_extra),
        fitted: losses(&weights, extra.as_ref()),
        weights,
        extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Weights, FEATURE_COUNT};
    use crate::game::{play_game, three_move_deck, GameSettings};

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
                    result: record.result,
                }
            })
            .collect();
        let how = Extraction {
            first_ply: 0,
            weights: &material,
            extra: None,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
        };
        let mut samples = extract(&games, how);
        assert!(samples.len() > 5_000, "{}", samples.len());

        let known = WeightPair {
            opening: Weights([100, 180, 12, 0, 8, -6, -3, 10, 4, 20]),
            endgame: Weights([100, 140, -5, 9, 0, 3, -7, 15, 6, 25]),
        };
        let k = 1.1;
        let model = Model::of(EvaluatorKind::Ten, DEFAULT_ENDGAME_PIECES);
        let known_x = model.parameters_of(&known, None);
        for s in &mut samples {
            let offset = if u32::from(s.pieces) <= DEFAULT_ENDGAME_PIECES {
                FEATURE_COUNT
            } else {
                0
            };
            let eval: f64 = (0..FEATURE_COUNT)
                .map(|i| known_x[offset + i] * f64::from(s.inputs[i]))
                .sum();
            s.label = (1.0 / (1.0 + (-k * eval / 100.0).exp())) as f32;
        }
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
                    .filter(|s| s.inputs[i] != 0)
                    .count();
                if varies > 200 {
                    checked += 1;
                    assert!(
                        (fitted.0[i] - known.0[i]).abs() <= 1,
                        "{set} {}: fitted {} known {} ({varies} positions)",
                        crate::eval::FEATURE_NAMES[i],
                        fitted.0[i],
                        known.0[i]
                    );
                }
            }
        }
        assert!(checked >= 14, "only {checked} weights could be checked");
    }
}
