//! One round of single-elimination tournament, newcomers, and round statistics.

mod bracket;
mod evolution;
mod stats;
mod weight_space;

pub use bracket::*;
pub use evolution::*;
pub use stats::*;
pub use weight_space::{FeatureRanges, InitMode, WeightRange, WeightSpace};
