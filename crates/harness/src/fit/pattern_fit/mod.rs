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

mod fitting;
mod model;
mod objective;

pub use fitting::fit_pattern_data;
pub(super) use fitting::fit_patterns;
#[cfg(doc)]
pub(super) use objective::PatternObjective;
