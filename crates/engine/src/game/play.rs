//! Plays one game: search for each side, draw rules, phase switch.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::mover::{Choice, Forfeit, Mover, PlayedGame, Turn};
use super::record::{EndReason, GameRecord, GameResult};
use super::settings::{GameSettings, TieBreak, TimeControl};
use crate::board::{Color, HashedPosition, Position};
use crate::egdb::DbValue;
use crate::eval::{Evaluator, ExtraPair, PatternWeights, WeightPair, Weights};
use crate::search::{GameHistory, SearchLimits, Searcher, SelectiveParams, TimeBank};

/// One side of a game: its weights and the piece count at which it switches to its endgame set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player<'a> {
    /// Opening and endgame weight sets.
    pub weights: &'a WeightPair,
    /// The extended evaluator's further weights; `None`: the ten-feature evaluator.
    pub extra: Option<&'a ExtraPair>,
    /// With `extra`, the pattern evaluator's further weights; `None`: the extended evaluator
    /// (which is the pattern evaluator with zero classic terms and tables).
    pub patterns: Option<&'a Arc<PatternWeights>>,
    /// The ten-feature evaluator switches to the endgame set when this many pieces or fewer are left.
    pub endgame_pieces: u32,
    /// Depths of this side's own, in place of the game's `min_depth`/`max_depth`: a match can
    /// pit a deeper search against a shallower one. `None`: the game's. Not used by timed
    /// games, whose depth is the clock's.
    pub limits: Option<SearchLimits>,
    /// This side's own selective search, in place of the game's (`settings.search`):
    /// a specimen's of a run with search genes. `None`: the game's. Read by
    /// [`play_game_between`]; [`play_game_searching`] takes each side's search instead.
    pub search: Option<SelectiveParams>,
}

impl<'a> Player<'a> {
    /// The ten-feature weight set for `pos`: opening until no more than `endgame_pieces` are
    /// left.
    pub fn phase_weights(&self, pos: &Position) -> &'a Weights {
        if pos.piece_count() <= self.endgame_pieces {
            &self.weights.endgame
        } else {
            &self.weights.opening
        }
    }

    /// What the search evaluates with in `pos`: the pattern or the extended evaluator (which
    /// taper by themselves), or the ten features' set for the phase.
    pub fn evaluator(&self, pos: &Position) -> Evaluator<'a> {
        match (self.extra, self.patterns) {
            (Some(extra), Some(patterns)) => Evaluator::Patterns(self.weights, extra, patterns),
            (Some(extra), None) => Evaluator::Extended(self.weights, extra),
            (None, _) => Evaluator::Ten(self.phase_weights(pos)),
        }
    }
}

/// Our own search as a side: a player's weights and depths, the search it uses (exact or
/// selective), and a searcher with its own transposition table for the whole game.
pub struct Searching<'a> {
    player: Player<'a>,
    searcher: Searcher,
    /// The game's time account at a fixed time a move.
    bank: TimeBank,
}

impl<'a> Searching<'a> {
    /// `player` searching with `search` (`None`: exact), with the settings' endgame database.
    pub fn new(
        player: Player<'a>,
        search: Option<SelectiveParams>,
        settings: &GameSettings,
    ) -> Searching<'a> {
        let mut searcher = Searcher::default();
        searcher.set_endgame_db(settings.database);
        searcher.set_selective(search);
        Searching {
            player,
            searcher,
            bank: TimeBank::default(),
        }
    }
}

impl Mover for Searching<'_> {
    fn choose(&mut self, turn: &Turn<'_>, rng: &mut ChaCha8Rng) -> Result<Choice, Forfeit> {
        let settings = turn.settings;
        let pos = turn.position;
        let weights = self.player.evaluator(pos);
        let limits = self.player.limits.unwrap_or(settings.limits());
        let tie_rng = match settings.search.tie_break {
            TieBreak::First => None,
            TieBreak::Random => Some(rng),
        };
        let history = GameHistory {
            positions: turn.history,
            no_progress_plies: Some(settings.no_progress_plies),
        };
        let found = match settings.time {
            None => self
                .searcher
                .search_in_game(pos, &history, weights, limits, tie_rng),
            Some(control) => {
                let extension = limits.max_depth() - limits.min_depth();
                let budget = control.budget(turn.clock, &self.bank, extension, turn.started);
                let found = self
                    .searcher
                    .search_timed(pos, &history, weights, &budget, |_| {});
                if let TimeControl::MoveTime(given) = control {
                    self.bank.spent(given, turn.started.elapsed());
                }
                found
            }
        };
        let mv = found.best_move.expect("a side with moves gets a move");
        Ok(Choice {
            mv,
            score: found.score,
        })
    }
}

/// The result of a game that `side` lost.
fn side_lost(side: Color) -> GameResult {
    match side {
        Color::Black => GameResult::WhiteWin,
        Color::White => GameResult::BlackWin,
    }
}

/// Plays one game from `start` between `black` and `white`, both switching to their endgame set
/// at `settings.search.endgame_pieces`. See `play_game_between`.
pub fn play_game(
    black: &WeightPair,
    white: &WeightPair,
    start: &Position,
    settings: &GameSettings,
    rng: &mut ChaCha8Rng,
) -> GameRecord {
    let player = |weights| Player {
        weights,
        extra: None,
        patterns: None,
        endgame_pieces: settings.search.endgame_pieces,
        limits: None,
        search: None,
    };
    play_game_between(player(black), player(white), start, settings, rng)
}

/// Plays one game from `start` between two players (whoever is to move in `start` moves first).
/// Each side searches with its own weights and its own transposition table; `rng` is the game's
/// own stream, used only for random tie-breaks. The same inputs give the same game. Each side
/// searches as its `search` says, or as the settings do.
pub fn play_game_between(
    black: Player<'_>,
    white: Player<'_>,
    start: &Position,
    settings: &GameSettings,
    rng: &mut ChaCha8Rng,
) -> GameRecord {
    let search = settings.search.selective();
    let searches = [black.search.or(search), white.search.or(search)];
    play_game_searching(black, white, searches, start, settings, rng)
}

/// [`play_game_between`] with each side's own search: `searches[colour]` is Black's and
/// White's selective settings, `None` for the exact search (the settings' `mode` and
/// selective keys are not read).
pub fn play_game_searching(
    black: Player<'_>,
    white: Player<'_>,
    searches: [Option<SelectiveParams>; 2],
    start: &Position,
    settings: &GameSettings,
    rng: &mut ChaCha8Rng,
) -> GameRecord {
    let [mut black, mut white] = [(black, searches[0]), (white, searches[1])]
        .map(|(player, search)| Searching::new(player, search, settings));
    play_game_with([&mut black, &mut white], start, settings, rng).record
}

/// Plays one game from `start` between two movers, Black's first (whoever is to move in
/// `start` moves first): the draw rules, the clock, the endgame database's adjudication and
/// the ply cap are the game's; each side only answers [`Mover::choose`]. A side that cannot
/// answer (a [`Forfeit`]) loses the game, with the reason and its detail in the record.
pub fn play_game_with(
    sides: [&mut dyn Mover; 2],
    start: &Position,
    settings: &GameSettings,
    rng: &mut ChaCha8Rng,
) -> PlayedGame {
    let adjudicator = settings.database.filter(|_| settings.database_adjudication);
    let mut pos = HashedPosition::new(*start);
    // The positions since the last irreversible move and their keys, the current one last.
    let mut since_irreversible = vec![pos.hash];
    let mut recent = vec![pos.position];
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut quiet_plies = 0;
    let mut spent = [Duration::ZERO; 2];
    let mut longest = [Duration::ZERO; 2];
    let mut forfeit = None;
    // Time left on Black's and White's clocks (unused without a clock).
    let mut clocks = match settings.time {
        Some(TimeControl::Clock { base, .. }) => [base; 2],
        _ => [Duration::MAX; 2],
    };
    let (result, reason) = loop {
        let side = pos.position.side_to_move();
        if pos.position.is_lost() {
            break (side_lost(side), EndReason::NoMoves);
        }
        if let Some(value) = adjudicator.and_then(|db| db.probe(&pos.position)) {
            let result = match value {
                DbValue::Draw => GameResult::Draw,
                DbValue::Win(_) => side_lost(side.opponent()),
                DbValue::Loss(_) => side_lost(side),
            };
            break (result, EndReason::Database);
        }
        if moves.len() as u32 >= settings.max_plies {
            break (GameResult::Draw, EndReason::PlyCap);
        }
        let history = &recent[..recent.len() - 1];
        let started = Instant::now();
        let turn = Turn {
            position: &pos.position,
            history,
            quiet_moves: &moves[moves.len() - history.len()..],
            settings,
            clock: clocks[side as usize],
            started,
        };
        let chosen = sides[side as usize].choose(&turn, rng);
        let took = started.elapsed();
        spent[side as usize] += took;
        longest[side as usize] = longest[side as usize].max(took);
        let choice = match chosen {
            Ok(choice) => choice,
            Err(f) => {
                let reason = f.reason;
                forfeit = Some(f);
                break (side_lost(side), reason);
            }
        };
        if let Some(TimeControl::Clock { increment, .. }) = settings.time {
            let left = clocks[side as usize];
            if took > left {
                break (side_lost(side), EndReason::Time);
            }
            clocks[side as usize] = left - took + increment;
        }
        let mv = choice.mv;
        if pos.position.is_irreversible(&mv) {
            quiet_plies = 0;
            since_irreversible.clear();
            recent.clear();
        } else {
            quiet_plies += 1;
        }
        pos = pos.play(&mv);
        moves.push(mv);
        scores.push(choice.score);
        since_irreversible.push(pos.hash);
        recent.push(pos.position);
        // Same key, same side to move (the key includes it): a repetition of this position.
        let seen = since_irreversible
            .iter()
            .filter(|&&h| h == pos.hash)
            .count();
        if seen >= 3 {
            break (GameResult::Draw, EndReason::Repetition);
        }
        if quiet_plies >= settings.no_progress_plies {
            break (GameResult::Draw, EndReason::NoProgress);
        }
    };
    PlayedGame {
        record: GameRecord {
            result,
            plies: moves.len() as u32,
            reason,
            moves,
            scores,
            forfeit: forfeit.map(|f| f.detail),
        },
        spent,
        longest,
    }
}
