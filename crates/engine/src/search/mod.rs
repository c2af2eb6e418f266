//! Variable-depth alpha-beta search with a Zobrist-keyed transposition table: the exact search
//! (its value is plain minimax's) and the selective one (deeper, by reductions and extensions),
//! to fixed depths or within a budget of time or nodes, under the game's draw rules.

mod budget;
mod draws;
mod eval_cache;
mod exact;
mod genes;
mod limits;
mod node;
mod result;
mod score;
mod searcher;
mod selective;
mod selective_params;
mod time_manager;
mod tt;

pub use budget::{SearchBudget, AVERAGE_HARD_SHARE, BUDGET_CHECK_NODES};
pub use draws::GameHistory;
pub use genes::{gene_index, gene_value, Gene, SearchGenes, GENE_BOUNDS, GENE_KEYS};
pub use limits::{LimitsError, SearchLimits, MAX_SEARCH_DEPTH};
pub use result::SearchResult;
pub use score::WIN;
pub use searcher::Searcher;
pub use selective_params::SelectiveParams;
pub use time_manager::{TimeBank, TimeManager, TimeTarget};
