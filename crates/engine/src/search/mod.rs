//! Variable-depth alpha-beta search with a Zobrist-keyed transposition table.

mod alphabeta;
mod genes;
mod tt;

pub use alphabeta::{
    GameHistory, LimitsError, SearchBudget, SearchLimits, SearchResult, Searcher, SelectiveParams,
    AVERAGE_HARD_SHARE, AVERAGE_SOFT_SHARE, BUDGET_CHECK_NODES, MAX_SEARCH_DEPTH, WIN,
};
pub use genes::{Gene, SearchGenes, GENE_KEYS};
