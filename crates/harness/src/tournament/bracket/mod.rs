//! One round of the single-elimination tournament (docs/tournament.md), generic over how a game is
//! played.

mod game;
mod job;
mod pairs;
mod round;
#[cfg(test)]
mod tests;

pub use game::BracketGame;
pub use job::{GameJob, GameReport};
pub use round::{play_round, LevelSummary, RoundResult};
