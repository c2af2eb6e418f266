//! How long a budgeted search may go on.
//!
//! [`Searcher::search_timed`](crate::Searcher::search_timed) deepens one full-width ply at a
//! time (captures followed a fixed number of plies further at every depth) until a depth cap,
//! the time manager (a time target, see the `time_manager` module), a deadline, a node budget
//! or a stop flag ends it, and answers with the last iteration that finished (or, with a time
//! target, the safe part of the one under way). The budget is checked every [`BUDGET_CHECK_NODES`] nodes inside that search only:
//! the fixed-depth [`Searcher::search`](crate::Searcher::search) is a separate instantiation
//! of the same code without the checks, so it is exactly as fast and finds exactly what it
//! found before.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::limits::MAX_SEARCH_DEPTH;
use super::time_manager::TimeTarget;

/// When [`Searcher::search_timed`](crate::Searcher::search_timed) stops deepening. Every limit
/// is optional except the depth cap; the first one reached ends the search.
#[derive(Clone, Debug, Default)]
pub struct SearchBudget {
    /// The deepest full-width depth to search (capped so that `depth + extension` stays below
    /// [`MAX_PLY`](super::score::MAX_PLY); at least 1).
    pub depth: u32,
    /// Plies beyond the full-width depth to which captures are followed, at every iteration.
    pub extension: u32,
    /// Abandon the iteration under way at this instant.
    pub deadline: Option<Instant>,
    /// How long the move should take: the time manager's target, stretched or shrunk as the
    /// iterations go (`None`: no target, the search goes on until another limit ends it).
    /// Only a budget with a target stops an iteration part-way with its safe answer, so node
    /// and depth budgets search exactly as they did without a time manager.
    pub time: Option<TimeTarget>,
    /// Abandon the iteration under way once this many nodes have been searched.
    pub nodes: Option<u64>,
    /// Abandon the iteration under way once another thread sets this flag.
    pub stop: Option<Arc<AtomicBool>>,
}

/// With a time a move that is an average ([`SearchBudget::average_time`]), the iteration under
/// way is abandoned at this multiple of it, so a hard move may take up to twice the average
/// (CheckerBoard's engines may not take three times it).
pub const AVERAGE_HARD_SHARE: f64 = 2.0;

impl SearchBudget {
    /// A budget for a move that should take `average` on average, as engines spend a time a
    /// move (CheckerBoard's `maxtime`, `match --movetime`, Hub's `move-time`): `average` is the
    /// time manager's target, and the iteration under way is abandoned at
    /// [`AVERAGE_HARD_SHARE`] times it.
    pub fn average_time(average: Duration, extension: u32, started: Instant) -> SearchBudget {
        SearchBudget {
            depth: MAX_SEARCH_DEPTH,
            extension,
            deadline: Some(started + average.mul_f64(AVERAGE_HARD_SHARE)),
            time: Some(TimeTarget {
                started,
                target: average,
            }),
            ..SearchBudget::default()
        }
    }

    /// A budget of full-width `depth` plies (captures followed `extension` plies further) and no
    /// other limit.
    pub fn depth(depth: u32, extension: u32) -> SearchBudget {
        SearchBudget {
            depth,
            extension,
            ..SearchBudget::default()
        }
    }
}

/// How often (in nodes) a budgeted search looks at the clock and the stop flag.
pub const BUDGET_CHECK_NODES: u64 = 1024;
