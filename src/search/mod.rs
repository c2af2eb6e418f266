//! Variable-depth alpha-beta search with a Zobrist-keyed transposition table.

mod alphabeta;
mod tt;

pub use alphabeta::{
    GameHistory, LimitsError, SearchLimits, SearchResult, Searcher, MAX_SEARCH_DEPTH, WIN,
};
