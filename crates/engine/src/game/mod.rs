//! One game between two weight pairs, the opening decks games start from, and games as PDN
//! records.

mod mover;
mod openings;
mod pdn;
mod play;
mod record;
mod settings;

pub use mover::{Choice, Forfeit, Mover, PlayedGame, Turn};
pub use openings::{
    load_openings_file, parse_openings, parse_pdn_openings, three_move_deck, Opening, OpeningBook,
    OpeningsSource, DECK_NAMES, MAX_RANDOM_OPENING_PLIES, RANDOM_OPENING_BALANCE,
};
pub use pdn::{pdn_result, read_pdn, PdnError, PdnGame, PdnReader};
pub use play::{
    play_game, play_game_between, play_game_searching, play_game_with, Player, Searching,
};
pub use record::{EndReason, GameRecord, GameResult, GameScore, Tally};
pub use settings::{
    GameSettings, SearchMode, SearchParams, SearchValue, TieBreak, TimeControl, MAX_NODES,
};
