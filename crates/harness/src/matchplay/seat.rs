//! The sides as a worker holds them, and each game's movers.

use crate::players::{not_started, Engine, EnginePlayer};
use checkers_engine::board::Position;
use checkers_engine::error::Result;
use checkers_engine::game::{GameSettings, Mover, Searching};

use super::side::{MatchPlayer, MatchSide};

/// A side as a worker holds it: our weights (a new search for each game), or another
/// program's instance, started at its first game and kept for the worker's next ones.
pub(super) enum Seat<'a> {
    Ours(MatchPlayer<'a>),
    Engine {
        engine: &'a Engine,
        started: Option<Result<Box<dyn EnginePlayer>>>,
    },
}

impl<'a> Seat<'a> {
    pub(super) fn new(side: MatchSide<'a>) -> Seat<'a> {
        match side {
            MatchSide::Ours(p) => Seat::Ours(p),
            MatchSide::Engine(engine, _) => Seat::Engine {
                engine,
                started: None,
            },
        }
    }
}

/// A seat's mover for one game: our search, or the program's instance told of the new game.
/// A program that cannot be started, or cannot start the game, forfeits it.
pub(super) enum Sitting<'s, 'a> {
    Ours(Box<Searching<'a>>),
    Engine(&'s mut dyn EnginePlayer),
    Absent(checkers_engine::game::Forfeit),
}

impl Mover for Sitting<'_, '_> {
    fn choose(
        &mut self,
        turn: &checkers_engine::game::Turn<'_>,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> std::result::Result<checkers_engine::game::Choice, checkers_engine::game::Forfeit> {
        match self {
            Sitting::Ours(s) => s.choose(turn, rng),
            Sitting::Engine(e) => e.choose(turn, rng),
            Sitting::Absent(forfeit) => Err(forfeit.clone()),
        }
    }
}

/// The mover of `seat` for a game from `start`.
pub(super) fn sit<'s, 'a>(
    seat: &'s mut Seat<'a>,
    start: &Position,
    settings: &GameSettings,
) -> Sitting<'s, 'a> {
    match seat {
        Seat::Ours(p) => {
            let search = p.selective.or(settings.search.selective());
            Sitting::Ours(Box::new(Searching::new(p.player(), search, settings)))
        }
        Seat::Engine { engine, started } => {
            let instance = started.get_or_insert_with(|| engine.start());
            match instance {
                Ok(player) => match player.new_game(start) {
                    Ok(()) => Sitting::Engine(player.as_mut()),
                    Err(forfeit) => Sitting::Absent(forfeit),
                },
                Err(e) => Sitting::Absent(not_started(start, e, "")),
            }
        }
    }
}
