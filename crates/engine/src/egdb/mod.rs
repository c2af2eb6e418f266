//! The endgame database: the exact value of every position with few pieces.
//!
//! For every position with at most N pieces (N from 1 to 5), either side to move, the database
//! holds its value for the side to move — win, loss or draw — and its **distance**: the plies
//! to the end of the game when the winner wins as fast as it can and the loser holds out as
//! long as it can. Values follow the game's own rules only (compulsory capture, crowning ends
//! the move, a side with no move loses); the repetition and no-progress draws are not part of
//! them (see docs/rules.md for what the search and the games make of that).
//!
//! - `index`: material classes and the numbering of positions inside them;
//! - `build`: the retrograde analysis, class by class, in parallel;
//! - `file`: the cache folder, the file format with its checksum, building at first use;
//! - `probe`: the database in memory and its lookup.
//!
//! The database depends only on the engine; the search and the games take an
//! [`EndgameDb`] handle.

mod build;
mod error;
mod file;
mod index;
mod probe;
mod tables;

pub use build::build;
pub use error::{EgdbError, CACHE_ENV};
pub use file::{cache_dir, check_writable, database_path, open_or_build, Opened};
pub use index::{Material, MAX_DATABASE_PIECES};
pub use probe::{DbValue, EndgameDb};
