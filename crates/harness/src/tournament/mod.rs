//! One round of single-elimination tournament, newcomers, and round statistics.

mod bracket;
mod evolution;
mod fit_with;
mod playoff;
mod search_genes;
mod settings;
mod specimen;
mod stats;
mod weight_space;

pub use bracket::{play_round, BracketGame, GameJob, GameReport, LevelSummary, RoundResult};
pub use evolution::{
    breed, initial_population, EvolutionParams, FreshSource, DEFAULT_FIT_SCORE_WEIGHT,
    DEFAULT_L2_TABLES, MAX_ENDING_PLIES, MAX_L2_TABLES,
};
pub use fit_with::{FitSource, Fixed, FixedPdn, FixedSource, PdnFile};
pub use playoff::{
    play_playoff, play_playoff_share, playoff_games, playoff_standings, PlayoffShare, Standing,
};
pub use search_genes::{breed_genes_into, draw_fresh_genes};
pub use settings::{TournamentParams, MAX_GAME_PLIES, MAX_ROUNDS};
pub use specimen::Specimen;
pub use stats::{OutcomeCounts, RoundStats};
pub use weight_space::{ExtraRanges, FeatureRanges, InitMode, PatternRanges, WeightSpace};
