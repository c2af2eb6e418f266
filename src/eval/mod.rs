//! The evaluator: ten features per side and two weight sets (opening and endgame).

mod features;
mod weights;

pub use features::{evaluate, evaluate_quiet, features, FeatureCounts};
pub use weights::{
    feature_index, WeightPair, Weights, WeightsFile, WeightsSource, DEFAULT_ENDGAME_PIECES,
    FEATURE_COUNT, FEATURE_NAMES, MAX_ABS_WEIGHT, PERSPECTIVE,
};
