//! Fitted specimens (`[evolution] fit_every`): every k rounds, a regression fit on the games the
//! run (or island) has played enters the population as a newcomer.
//!
//! The fit reads the games of earlier rounds back from the run's positions store (or, for a
//! run begun before there was one, its `games.csv`), which a resumed run has cut back to its
//! checkpoint, and takes the round just played from memory, so a run that was killed and
//! resumed fits on exactly the games an unbroken run fits on, and the fit itself is the same on
//! any number of threads. A pattern run extracts each game's samples once and keeps them
//! between its fits ([`PatternCache`]); after a resume it extracts the earlier rounds from the
//! store again, to the same samples.

use std::path::Path;

use super::config::Config;
use crate::error::{Error, Result};
use crate::eval::{EvaluatorKind, PatternTables};
use crate::fit::{
    fit, fit_pattern_data, pattern_samples, FitReport, FitSettings, GameRecords, PatternData,
    RecordedGame, StoreReader,
};
use crate::game::Opening;
use crate::run_folder::{GAMES_FILE, POSITIONS_FILE};
use crate::tournament::{BracketGame, Specimen};

/// The fit after `round` from `top`'s weights, on the games of `dir`'s `games.csv` within the
/// config's window and the round's own `games` (not yet written); `None` when those games hold
/// no position to learn from (a run never fails for want of data).
pub(super) fn fit_after_round(
    dir: &Path,
    config: &Config,
    round: u32,
    games: &[BracketGame],
    top: &Specimen,
    cache: &mut PatternCache,
) -> Result<Option<FitReport>> {
    let first_round = config.evolution.fit_first_round(round);
    if config.weights.evaluator == EvaluatorKind::Patterns {
        return fit_patterns_after_round(dir, config, round, games, top, cache);
    }
    let mut records = GameRecords::default();
    if round > first_round {
        let store = dir.join(POSITIONS_FILE);
        if store.exists() {
            records.add_store_from(&store, first_round)?;
        } else {
            records.add_games_csv_from(&dir.join(GAMES_FILE), first_round)?;
        }
    }
    for game in games {
        records.games.push(recorded(game)?);
    }
    let settings = run_fit_settings(config);
    if records.games.is_empty() {
        return Ok(None);
    }
    match fit(
        &records,
        &top.weights,
        top.extra.as_deref(),
        top.patterns.as_ref(),
        &settings,
        |_, _| {},
    ) {
        Ok(report) => Ok(Some(report)),
        // Too few quiet positions yet: the round breeds as usual.
        Err(Error::Input(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

/// The settings of a run's fits: its ranges, evaluator and label blend, no validation share.
fn run_fit_settings(config: &Config) -> FitSettings {
    FitSettings {
        validation: 0.0,
        endgame_pieces: config.search.endgame_pieces,
        opening: config.weights.opening,
        endgame: config.weights.endgame,
        evaluator: config.weights.evaluator,
        extended: config.weights.extended,
        patterns: config.weights.patterns,
        score_weight: config.evolution.fit_score_weight,
        ..FitSettings::default()
    }
}

/// The samples a pattern run's fits learn from, each game's extracted once and kept between
/// fits, with the round each came from.
#[derive(Debug, Default)]
pub(super) struct PatternCache {
    /// The samples of the rounds kept (`None` before the first fit of this process).
    data: Option<PatternData>,
    /// The first sample of each round kept, with the round, in round order.
    rounds: Vec<(u32, usize)>,
    /// The games of the rounds kept.
    games: Vec<(u32, usize)>,
    /// The last round extracted.
    through: u32,
}

impl PatternCache {
    /// Adds round `round`'s games.
    fn add_round(
        &mut self,
        round: u32,
        games: &[RecordedGame],
        first_ply: u32,
        shape: &PatternTables,
    ) {
        let data = self
            .data
            .get_or_insert_with(|| PatternData::new(shape.regions().len()));
        let first_game: usize = self.games.iter().map(|&(_, n)| n).sum();
        self.rounds.push((round, data.len()));
        self.games.push((round, games.len()));
        data.append(pattern_samples(games, first_ply, shape, first_game));
        self.through = round;
    }

    /// Forgets the rounds before `first_round`.
    fn keep_from(&mut self, first_round: u32) {
        let Some(data) = self.data.as_mut() else {
            return;
        };
        let keep = self.rounds.partition_point(|&(r, _)| r < first_round);
        if keep == 0 {
            return;
        }
        let first = self
            .rounds
            .get(keep)
            .map_or(data.len(), |&(_, start)| start);
        data.drop_before(first);
        self.rounds.drain(..keep);
        self.rounds
            .iter_mut()
            .for_each(|(_, start)| *start -= first);
        self.games.drain(..keep);
    }
}

/// The pattern run's fit after `round`: the cached samples of the rounds within the window
/// (those not cached yet read from the store), the round's own games added.
fn fit_patterns_after_round(
    dir: &Path,
    config: &Config,
    round: u32,
    games: &[BracketGame],
    top: &Specimen,
    cache: &mut PatternCache,
) -> Result<Option<FitReport>> {
    let settings = run_fit_settings(config);
    let first_round = config.evolution.fit_first_round(round);
    let shape = match &top.patterns {
        Some(p) => PatternTables::zero(p.tables.regions().to_vec()),
        None => PatternTables::zero(config.weights.patterns.regions.regions()),
    };
    if cache.data.is_none() || cache.through + 1 < round {
        // This process has not seen the earlier rounds (a resumed run): read them back.
        *cache = PatternCache::default();
        let mut reader = StoreReader::open(&dir.join(POSITIONS_FILE))?;
        let mut pending: Vec<RecordedGame> = Vec::new();
        let mut pending_round = None;
        while let Some(stored) = reader.next_game()? {
            if stored.round < first_round || stored.round >= round {
                continue;
            }
            if pending_round.is_some_and(|r| r != stored.round) {
                let r = pending_round.expect("checked");
                cache.add_round(r, &pending, settings.first_ply, &shape);
                pending.clear();
            }
            pending_round = Some(stored.round);
            pending.push(stored.game);
        }
        if let Some(r) = pending_round {
            cache.add_round(r, &pending, settings.first_ply, &shape);
        }
    }
    let played: Vec<RecordedGame> = games.iter().map(recorded).collect::<Result<_>>()?;
    cache.add_round(round, &played, settings.first_ply, &shape);
    cache.keep_from(first_round);
    let data = cache.data.as_ref().expect("a round was added");
    match fit_pattern_data(
        data.as_slice(),
        None,
        &top.weights,
        top.extra.as_deref(),
        top.patterns.as_ref(),
        &settings,
        |_, _| {},
    ) {
        Ok(mut report) => {
            report.games = cache.games.iter().map(|&(_, n)| n).sum();
            Ok(Some(report))
        }
        // No position yet: the round breeds as usual.
        Err(Error::Input(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

/// A bracket game as a fit (and the positions store) sees it: from the start position with its
/// opening's moves when they replay from it, with the searches' scores.
pub(super) fn recorded(game: &BracketGame) -> Result<RecordedGame> {
    let opening = Opening::from_name(&game.opening).map_err(|e| {
        Error::failure(format!(
            "round {}: a game's opening `{}` cannot be replayed ({e})",
            game.round, game.opening
        ))
    })?;
    Ok(RecordedGame::from_opening(
        &opening,
        &game.record.moves,
        &game.record.scores,
        game.record.result,
    ))
}

/// The fitted specimen among the `newcomers` bred after `round`: in place of the last one (an
/// immigrant when the round bred any, as they come last), taking its id, or, when nothing was
/// bred (after the last round), added with the next id. Its parent is `top`, its start.
pub(super) fn enter(
    newcomers: &mut Vec<Specimen>,
    fitted: &FitReport,
    top: &Specimen,
    round: u32,
    next_id: &mut u64,
) {
    let id = match newcomers.pop() {
        Some(last) => last.id,
        None => {
            *next_id += 1;
            *next_id - 1
        }
    };
    newcomers.push(Specimen {
        id,
        weights: fitted.weights,
        extra: fitted.extra.map(Box::new),
        patterns: fitted.patterns.clone(),
        tables: fitted.patterns.is_some().then_some(id),
        parent_a: Some(top.id),
        parent_b: None,
        born_round: round + 1,
        fitted: true,
    });
}
