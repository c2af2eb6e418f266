//! Opening sources: the start position, the ACF 3-move ballot deck, the computer tough deck,
//! random openings, or a file of openings.
//!
//! An opening is a short move sequence from the start position, written as in the ACF deck:
//! `9-13 22-18 10-14` (Black first), or a position (a FEN, `B:W19,23,22:B4,3,2`, squares in any
//! order, ranges and kings, either side to move), as decks of start positions such as
//! CheckerBoard's 11-man ballots give them. A deck file holds one per line (a move sequence or a
//! FEN), or is PDN: one position per game, its `FEN` tag (or the standard start) and the moves
//! after it, if any. Every opening is played on the board when loaded, so an illegal move or a
//! bad position is reported with its file and line before any game starts; a deck is read
//! whole or refused (a skipped position would change which games are played).

mod book;
mod deck;
mod opening;
mod source;

pub use book::{OpeningBook, MAX_RANDOM_OPENING_PLIES, RANDOM_OPENING_BALANCE};
pub use deck::{load_openings_file, parse_openings, parse_pdn_openings, three_move_deck};
pub use opening::Opening;
pub use source::{OpeningsSource, DECK_NAMES};
