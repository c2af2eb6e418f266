//! The evaluators: `ten` (ten features per side, an opening and an endgame set switched at a
//! piece count), `extended` (the ten, classic terms and piece-square tables, tapered) and
//! `patterns` (the extended evaluator, further classic terms and region tables, tapered).

mod classic;
mod evaluator;
mod extended;
mod features;
mod pattern_evaluator;
mod patterns;
mod weight_range;
mod weight_sets;

pub use classic::{classic_counts, ClassicCounts, CLASSIC_COUNT, CLASSIC_NAMES, EXCHANGE_SCALE};
pub use pattern_evaluator::{evaluate_patterns, PatternWeights};
pub use pattern_evaluator::{kings_in_views, men_in_views};
pub use patterns::{
    KingLayout, PatternTables, RankLayout, Region, RegionError, RegionKind, RegionLayout,
    ValuesError, MAX_RANK_REGION_SQUARES, MAX_REGION_SQUARES,
};

pub(crate) use evaluator::{CarriedTables, OwnedEvaluator};
pub use evaluator::{Evaluator, EvaluatorKind};
pub use extended::{
    evaluate_extended, extended_inputs, extra_names, taper, terms, ExtraPair, ExtraWeights,
    TermCounts, EXTENDED_INPUTS, EXTRA_COUNT, FULL_BOARD, KING_SQUARES, MAN_SQUARES, TERM_COUNT,
    TERM_NAMES,
};
pub use features::{evaluate, features, FeatureCounts};
pub use weight_range::WeightRange;
pub use weight_sets::{
    feature_index, WeightPair, Weights, DEFAULT_ENDGAME_PIECES, FEATURE_COUNT, FEATURE_NAMES,
    MAX_ABS_WEIGHT, PERSPECTIVE,
};
