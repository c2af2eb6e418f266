//! One game between two weight pairs, and the opening decks games start from.

mod openings;
mod play;

pub use openings::*;
pub use play::*;
