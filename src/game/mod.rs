//! One game between two weight pairs, and the opening decks games start from.

mod openings;
mod play;
mod settings;

pub use openings::{
    load_openings_file, parse_openings, three_move_deck, Opening, OpeningBook, OpeningsSource,
    MAX_RANDOM_OPENING_PLIES,
};
pub use play::{
    play_game, play_game_between, EndReason, GameRecord, GameResult, GameScore, Player, Tally,
};
pub use settings::{GameSettings, SearchParams, TieBreak, TimeControl};
