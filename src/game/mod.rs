//! One game between two weight pairs, and the opening decks games start from.

mod openings;
mod play;

pub use openings::{
    load_openings_file, parse_openings, three_move_deck, tough_deck, Opening, OpeningBook,
    MAX_RANDOM_OPENING_PLIES,
};
pub use play::{
    play_game, play_game_between, EndReason, GameRecord, GameResult, GameScore, GameSettings,
    Player, Tally, TieBreak, TimeControl,
};
