//! A side of a game as the game loop sees it: something that is asked for a move at its turn
//! ([`Mover`]). Our own search is one (`Searching`, beside the game loop); the players of other programs (a
//! CheckerBoard library, a Hub engine) are others, kept above this layer.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::record::{EndReason, GameRecord};
use super::settings::GameSettings;
use crate::board::{Move, Position};
use crate::text::one_line;

/// The most characters of a forfeit's reason, and of the answer it quotes, kept in its detail.
const DETAIL_CHARS: usize = 200;

/// What a side is told when it is its turn.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The position to move in.
    pub position: &'a Position,
    /// The positions since the last irreversible move, oldest first (the one right after
    /// that move first), without `position` itself.
    pub history: &'a [Position],
    /// The moves played since the last irreversible move: `quiet_moves[i]` leads from
    /// `history[i]` to the next position (the last one to `position`).
    pub quiet_moves: &'a [Move],
    /// The game's rules and time control.
    pub settings: &'a GameSettings,
    /// Time left on the mover's clock; `Duration::MAX` without a clock.
    pub clock: Duration,
    /// When the turn began: the mover's time is counted from here.
    pub started: Instant,
}

impl Turn<'_> {
    /// The position right after the last irreversible move (where `quiet_moves` start).
    pub fn since(&self) -> &Position {
        self.history.first().unwrap_or(self.position)
    }
}

/// A side's answer: the move and the score its search gave it (its own scale; 0 when it gave
/// none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move, legal in the turn's position.
    pub mv: Move,
    /// The side's score of it, for its own side.
    pub score: i32,
}

/// Why a side lost a game without a move: it crashed, hung, or answered with a move that is
/// not legal or not a move at all. The game's reason is `reason`; `detail` says what happened
/// in words (the position, what the side answered, and why it does not count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// One of the forfeit reasons ([`EndReason::is_forfeit`]).
    pub reason: EndReason,
    /// The position, the answer and the reason, in one line.
    pub detail: String,
}

impl Forfeit {
    /// A forfeit in `position` for `reason`: `answer` is what the side answered (if it did),
    /// `why` what was wrong. Both may hold another program's text: each is made one line of
    /// plain text ([`one_line`]), so the detail is written as it stands into a PDN tag, a CSV
    /// field and the terminal.
    pub fn new(reason: EndReason, position: &Position, answer: Option<&str>, why: &str) -> Forfeit {
        let why = one_line(why, DETAIL_CHARS);
        let answer = answer.map_or(String::new(), |a| {
            format!("; answered {}", one_line(a, DETAIL_CHARS))
        });
        Forfeit {
            reason,
            detail: format!("{why}; position {}{answer}", position.to_fen()),
        }
    }
}

/// One side of a game.
pub trait Mover {
    /// Called before each game the side plays, with the game's start: a program that keeps
    /// state between moves forgets the last game. A side that cannot start the game forfeits
    /// it.
    fn new_game(&mut self, start: &Position) -> Result<(), Forfeit> {
        let _ = start;
        Ok(())
    }

    /// The move for `turn`; the game calls it only when the side to move has a legal move.
    /// `rng` is the game's own stream (our search draws random tie-breaks from it).
    fn choose(&mut self, turn: &Turn<'_>, rng: &mut ChaCha8Rng) -> Result<Choice, Forfeit>;
}

/// A game as played: its record, and the time each side (Black, White) spent on its moves.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game.
    pub record: GameRecord,
    /// Black's and White's time on their moves, in all.
    pub spent: [Duration; 2],
    /// Each side's longest move.
    pub longest: [Duration; 2],
}
