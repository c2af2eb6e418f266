//! How deep a search goes: the full-width depth and the depth captures are followed to, and
//! the one rule they obey.

use std::fmt;

/// Deepest search depth a user may ask for (config, `match`, `analyse`, `play`); beyond it a
/// single game would take days.
pub const MAX_SEARCH_DEPTH: u32 = 40;

/// How deep to search: `1 <= min_depth <= max_depth <= MAX_SEARCH_DEPTH`, always (the fields
/// are private, and both constructors refuse anything else).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    min_depth: u32,
    max_depth: u32,
}

/// Why [`SearchLimits::try_new`] refused a pair of depths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitsError {
    /// `min_depth` is 0 or above [`MAX_SEARCH_DEPTH`].
    MinDepth(u32),
    /// `max_depth` is 0 or above [`MAX_SEARCH_DEPTH`].
    MaxDepth(u32),
    /// `min_depth` is greater than `max_depth`.
    Order {
        /// The full-width depth given.
        min_depth: u32,
        /// The capture depth given.
        max_depth: u32,
    },
}

impl LimitsError {
    /// The message, naming the two depths as the caller's user knows them (`--min-depth`,
    /// `` `search.min_depth` ``).
    pub fn describe(&self, min_name: &str, max_name: &str) -> String {
        match *self {
            LimitsError::MinDepth(d) => {
                format!("{min_name} {d}: must be between 1 and {MAX_SEARCH_DEPTH}")
            }
            LimitsError::MaxDepth(d) => {
                format!("{max_name} {d}: must be between 1 and {MAX_SEARCH_DEPTH}")
            }
            LimitsError::Order {
                min_depth,
                max_depth,
            } => format!(
                "{min_name} {min_depth} is greater than {max_name} {max_depth}: expected min <= max"
            ),
        }
    }
}

impl fmt::Display for LimitsError {
    /// The message with the depths named as the search calls them (`min_depth`, `max_depth`);
    /// [`LimitsError::describe`] names them as the user gave them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("min_depth", "max_depth"))
    }
}

impl std::error::Error for LimitsError {}

impl SearchLimits {
    /// The depth rule's one owner: `1 <= min_depth <= max_depth <= MAX_SEARCH_DEPTH`, or why not.
    pub fn try_new(min_depth: u32, max_depth: u32) -> Result<SearchLimits, LimitsError> {
        if !(1..=MAX_SEARCH_DEPTH).contains(&min_depth) {
            return Err(LimitsError::MinDepth(min_depth));
        }
        if !(1..=MAX_SEARCH_DEPTH).contains(&max_depth) {
            return Err(LimitsError::MaxDepth(max_depth));
        }
        if min_depth > max_depth {
            return Err(LimitsError::Order {
                min_depth,
                max_depth,
            });
        }
        Ok(SearchLimits {
            min_depth,
            max_depth,
        })
    }

    /// Limits for depths the code itself chose, or already checked by
    /// [`SearchLimits::try_new`] (the config and the command line check theirs).
    ///
    /// # Panics
    /// If the depths break the rule of [`SearchLimits::try_new`]: a bug in the caller.
    pub const fn new(min_depth: u32, max_depth: u32) -> SearchLimits {
        assert!(
            1 <= min_depth && min_depth <= max_depth && max_depth <= MAX_SEARCH_DEPTH,
            "search depths must satisfy 1 <= min_depth <= max_depth <= MAX_SEARCH_DEPTH"
        );
        SearchLimits {
            min_depth,
            max_depth,
        }
    }

    /// Full-width depth in plies (at least 1).
    pub const fn min_depth(&self) -> u32 {
        self.min_depth
    }

    /// Captures are followed until this depth (at least `min_depth`).
    pub const fn max_depth(&self) -> u32 {
        self.max_depth
    }
}
