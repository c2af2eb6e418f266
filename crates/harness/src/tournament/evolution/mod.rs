//! Newcomers: the initial population, and the random or genetic specimens that refill the
//! population after a round (docs/tournament.md, step 4).

mod breeding;
mod fresh;
mod params;
#[cfg(test)]
mod tests;

pub use breeding::breed;
pub use fresh::{initial_population, FreshSource};
pub use params::{
    EvolutionParams, DEFAULT_FIT_SCORE_WEIGHT, DEFAULT_L2_TABLES, MAX_ENDING_PLIES, MAX_L2_TABLES,
};
