//! One round of single-elimination tournament, newcomers, and round statistics.

mod bracket;
mod evolution;
mod stats;

pub use bracket::*;
pub use evolution::*;
pub use stats::*;
