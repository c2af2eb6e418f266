//! The evaluator: ten features per side and two weight sets (opening and endgame).

mod features;
mod weights;

pub use features::*;
pub use weights::*;
