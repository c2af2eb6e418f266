//! Plays one game: search for each side, draw rules, phase switch.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::settings::{GameSettings, TieBreak, TimeControl};
use crate::egdb::DbValue;
use crate::engine::{Color, HashedPosition, Move, Position};
use crate::eval::{Evaluator, ExtraPair, PatternWeights, WeightPair, Weights};
use crate::search::{GameHistory, SearchLimits, Searcher, SelectiveParams};

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Black won.
    BlackWin,
    /// White won.
    WhiteWin,
    /// Drawn.
    Draw,
}

/// One game's result from A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// A lost (0 points).
    Loss,
    /// Drawn (½ point).
    Draw,
    /// A won (1 point).
    Win,
}

impl GameScore {
    /// A's points in half-point units: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// The game's result from A's side, given the colour A played.
    pub fn for_a(result: GameResult, a_is_black: bool) -> GameScore {
        match (result, a_is_black) {
            (GameResult::Draw, _) => GameScore::Draw,
            (GameResult::BlackWin, true) | (GameResult::WhiteWin, false) => GameScore::Win,
            (GameResult::BlackWin, false) | (GameResult::WhiteWin, true) => GameScore::Loss,
        }
    }
}

/// Games won, drawn and lost, counted from one side (a specimen's, a finalist's or A's in a
/// match): the one win/draw/loss tally of the crate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Twice the points (a win 2, a draw 1), an integer.
    pub fn half_points(&self) -> u64 {
        2 * self.wins + self.draws
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.half_points() as f64 / 2.0
    }

    /// Points per game; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        match self.games() {
            0 => None,
            games => Some(self.points() / games as f64),
        }
    }

    /// One line of results, e.g. `W 12  D 30  L 8  score 27.0/50 (54.0%)`.
    pub fn line(&self) -> String {
        let percent = self
            .score()
            .map_or_else(|| "-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        format!(
            "W {}  D {}  L {}  score {:.1}/{} ({percent})",
            self.wins,
            self.draws,
            self.losses,
            self.points(),
            self.games()
        )
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// The side to move had no legal move (no pieces or all blocked).
    NoMoves,
    /// The same position occurred a third time with the same side to move.
    Repetition,
    /// Too many plies without a capture or a man moving.
    NoProgress,
    /// Adjudicated at the ply cap.
    PlyCap,
    /// The side to move ran out of time on its clock.
    Time,
    /// Adjudicated by the endgame database's value once few enough pieces were left.
    Database,
}

impl GameResult {
    /// The label of the result in `games.csv` and a match's CSV.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::BlackWin => "black_win",
            GameResult::WhiteWin => "white_win",
            GameResult::Draw => "draw",
        }
    }
}

impl EndReason {
    /// Every reason, in the order of the enum.
    pub const ALL: [EndReason; 6] = [
        EndReason::NoMoves,
        EndReason::Repetition,
        EndReason::NoProgress,
        EndReason::PlyCap,
        EndReason::Database,
        EndReason::Time,
    ];

    /// The label of the reason in `games.csv` and a match's CSV.
    pub fn label(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no_progress",
            EndReason::PlyCap => "ply_cap",
            EndReason::Time => "time",
            EndReason::Database => "database",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Who won.
    pub result: GameResult,
    /// Plies played from the opening position.
    pub plies: u32,
    /// Why it ended.
    pub reason: EndReason,
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The score of each move's search, for the side that made it (the search's scale: wins
    /// near `±WIN`); empty for a game read back from a file.
    pub scores: Vec<i32>,
}

impl GameRecord {
    /// The moves in PDN notation, space-separated (`9-13 22-18 13x22`; empty for none).
    pub fn move_text(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    }
}

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
    let mut searchers = [Searcher::default(), Searcher::default()];
    for (searcher, search) in searchers.iter_mut().zip(searches) {
        searcher.set_endgame_db(settings.database);
        searcher.set_selective(search);
    }
    let adjudicator = settings.database.filter(|_| settings.database_adjudication);
    let mut pos = HashedPosition::new(*start);
    // The positions since the last irreversible move and their keys, the current one last.
    let mut since_irreversible = vec![pos.hash];
    let mut recent = vec![pos.position];
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut quiet_plies = 0;
    let limits = settings.limits();
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
        let pair = match side {
            Color::Black => black,
            Color::White => white,
        };
        let weights = pair.evaluator(&pos.position);
        let limits = pair.limits.unwrap_or(limits);
        let tie_rng = match settings.search.tie_break {
            TieBreak::First => None,
            TieBreak::Random => Some(&mut *rng),
        };
        let history = GameHistory {
            positions: &recent[..recent.len() - 1],
            no_progress_plies: Some(settings.no_progress_plies),
        };
        let searcher = &mut searchers[side as usize];
        let found = match settings.time {
            None => searcher.search_in_game(&pos.position, &history, weights, limits, tie_rng),
            Some(control) => {
                let started = Instant::now();
                let left = clocks[side as usize];
                let budget = control.budget(left, limits.max_depth() - limits.min_depth(), started);
                let found =
                    searcher.search_timed(&pos.position, &history, weights, &budget, |_| {});
                if let TimeControl::Clock { increment, .. } = control {
                    let spent = started.elapsed();
                    if spent > left {
                        break (side_lost(side), EndReason::Time);
                    }
                    clocks[side as usize] = left - spent + increment;
                }
                found
            }
        };
        let mv = found.best_move.expect("a side with moves gets a move");
        if pos.position.is_irreversible(&mv) {
            quiet_plies = 0;
            since_irreversible.clear();
            recent.clear();
        } else {
            quiet_plies += 1;
        }
        pos = pos.play(&mv);
        moves.push(mv);
        scores.push(found.score);
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
    GameRecord {
        result,
        plies: moves.len() as u32,
        reason,
        moves,
        scores,
    }
}
