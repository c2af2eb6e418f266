//! The inputs of a fit, read a game at a time in the order given: a run folder's positions
//! store (`positions.bin`), else its `games.csv` (each row replayed from its opening), else each
//! island's; and PDN files of English games (a run's `games.pdn`, `match --pdn`, a user's own
//! collection). A damaged game of a PDN file is skipped, counted and told, or, when reading
//! strictly, refused.
//!
//! [`GameStream`] never holds more than the game it is reading, so a fit's memory does not grow
//! with its inputs' size; [`GameRecords`] holds games in memory for callers that already have
//! them (a run's fitted specimens), and reads files through the same readers.

mod games;
mod in_memory;
mod reading;
mod report;
mod sources;
mod stream;
#[cfg(test)]
pub(super) mod tests;

pub use games::Games;
pub use in_memory::GameRecords;
pub use reading::Damaged;
pub use report::{PdnCounts, ReadNote, ReadReport, LISTED_PER_FILE};
pub use stream::GameStream;
