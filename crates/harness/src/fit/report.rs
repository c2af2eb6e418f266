//! What a fit found: its weights, its data and its losses.

use std::sync::Arc;

use checkers_engine::eval::{ExtraPair, PatternWeights, WeightPair};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

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
    /// The fitted further weights of the pattern evaluator (`None` for the others).
    pub patterns: Option<Arc<PatternWeights>>,
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

impl FitReport {
    /// The weights file of these weights, described by `data` (the games they were learnt
    /// from), for the endgame threshold and database they were fitted with; no search of its
    /// own.
    pub fn weights_file(
        &self,
        endgame_pieces: u32,
        database_pieces: Option<u32>,
        data: String,
    ) -> WeightsFile {
        WeightsFile {
            weights: self.weights,
            extra: self.extra,
            patterns: self.patterns.clone(),
            endgame_pieces,
            source: Some(WeightsSource::Fit { data }),
            database_pieces,
            search: None,
        }
    }
}
