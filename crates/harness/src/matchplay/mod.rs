//! Matches between two weight files: paired openings, results, Elo.
//!
//! For every opening A and B play a *pair* of games: A takes Black in the first and White in the
//! second, from the same position. Pairing cancels most of an opening's colour bias and is what
//! the pentanomial statistics of [`crate::elo`] count. Pairs are played in parallel but handed
//! out and applied in opening order, so a match's results never depend on the thread count —
//! including where an SPRT stops it.
//!
//! Every game keeps its moves: the per-game CSV holds them (column `moves`, from the opening's
//! position) and [`match_pdn`] writes them as PDN. A PDN game starts from the standard
//! position with the opening's moves first, as ballot games are recorded, so it needs no `FEN`
//! tag; the ballot is also in its `Opening` tag. In a tournament, [`tournament_pdn`] numbers
//! the rounds by pairing too. [`BallotReport`] counts the games ballot by ballot.

mod ballots;
mod files;
mod game;
mod key;
mod pdn;
mod play;
mod referee;
mod report;
mod rows;
mod schedule;
mod seat;
mod side;
mod tournament_rows;

pub use ballots::{BallotRecord, BallotReport, LISTED_UNBALANCED, MIN_UNBALANCED_GAMES};
pub use files::{ballots_path, read_match_file, summary_path};
pub use game::MatchGame;
pub use key::match_key;
pub use pdn::{match_pdn, tournament_pdn};
pub use play::{play_match, play_match_from};
pub use referee::{judge_move, referee_game, referee_match, RefereeCount};
pub use report::{MatchReport, PairReport, SprtOutcome, Thinking};
pub use rows::{read_match_rows, MatchRows};
pub use schedule::{schedule, TournamentKind};
pub use side::{MatchPlayer, MatchSide};
pub use tournament_rows::{
    read_tournament_rows, tournament_csv_line, tournament_header_line, TournamentRows,
};
