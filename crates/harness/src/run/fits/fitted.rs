//! Fitted specimens (`[evolution] fit_every`): every k rounds, a regression fit on the games the
//! run (or island) has played enters the population as a newcomer.
//!
//! The fit reads the games of earlier rounds back from the run's positions store (or, for a
//! run begun before there was one, its `games.csv`), which a resumed run has cut back to its
//! checkpoint, and takes the round just played from memory, so a run that was killed and
//! resumed fits on exactly the games an unbroken run fits on, and the fit itself is the same on
//! any number of threads. Islands that pool their games read the earlier rounds of every
//! island's store instead ([`Pool`]), in a fixed order, their own round last. A pattern run
//! extracts each game's samples once and keeps them between its fits ([`PatternCache`]); a
//! resumed run extracts the earlier rounds from the stores again, to the same samples.

use std::path::Path;

use super::earlier_games::read_sources;
use super::pool::RoundGames;
use crate::fit::{
    fit, fit_pattern_data, pattern_samples, DatabaseEndings, FitReport, FitSettings, GameRecords,
    PatternData, RecordedGame,
};
use crate::run::config::Config;
use crate::run_folder::{GAMES_FILE, POSITIONS_FILE};
use crate::tournament::{BracketGame, Specimen};
use checkers_engine::egdb::EndgameDb;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{EvaluatorKind, PatternTables};
use checkers_engine::game::Opening;

#[cfg(doc)]
use super::pool::Pool;

/// Where a fit finds the games of the rounds before the one just played.
pub(crate) struct Earlier<'a> {
    /// Whether they are every island's (pooled), not the run's own.
    pub(crate) pooled: bool,
    /// Reads rounds `first..=last` (of every pooled island, rounds ascending, islands
    /// ascending within a round).
    pub(crate) read: &'a dyn Fn(u32, u32) -> Result<Vec<RoundGames>>,
}

/// The fit after `round` from `top`'s weights, on the games of the earlier rounds within the
/// config's window and the round's own `games` (not yet written), last, with the endings the
/// run's endgame `database` plays on when the config asks for them; `None` when those games
/// hold no position to learn from (a run never fails for want of data).
pub(crate) fn fit_after_round(
    dir: &Path,
    config: &Config,
    database: Option<&'static EndgameDb>,
    (round, games): (u32, &[BracketGame]),
    top: &Specimen,
    cache: &mut PatternCache,
    earlier: &Earlier<'_>,
) -> Result<Option<FitReport>> {
    let first_round = config.evolution.fit_first_round(round);
    if config.weights.evaluator == EvaluatorKind::Patterns {
        let settings = run_fit_settings(config, database);
        return fit_patterns_after_round(&settings, config, (round, games), top, cache, earlier);
    }
    let mut records = GameRecords::default();
    for block in read_sources(&config.evolution.fit_with)? {
        records.games.extend(block.games);
    }
    if round > first_round {
        if earlier.pooled {
            for block in (earlier.read)(first_round, round - 1)? {
                records.games.extend(block.games);
            }
        } else {
            let store = dir.join(POSITIONS_FILE);
            if store.exists() {
                records.add_store_from(&store, first_round)?;
            } else {
                records.add_games_csv_from(&dir.join(GAMES_FILE), first_round)?;
            }
        }
    }
    for game in games {
        records.games.push(recorded(game)?);
    }
    let settings = run_fit_settings(config, database);
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
fn run_fit_settings(config: &Config, database: Option<&'static EndgameDb>) -> FitSettings {
    FitSettings {
        validation: 0.0,
        endgame_pieces: config.search.endgame_pieces,
        opening: config.weights.opening,
        endgame: config.weights.endgame,
        evaluator: config.weights.evaluator,
        extended: config.weights.extended,
        patterns: config.weights.patterns,
        score_weight: config.evolution.fit_score_weight,
        l2_tables: config.evolution.fit_l2_tables,
        // The config's check makes sure there is a database when there are endings to learn.
        endings: database
            .filter(|_| config.evolution.fit_endings > 0)
            .map(|database| DatabaseEndings {
                database,
                plies: config.evolution.fit_endings,
            }),
        ..FitSettings::default()
    }
}

/// The samples a pattern run's fits learn from, each game's extracted once and kept between
/// fits: the blocks of the earlier rounds (one per round, or per round and island when the
/// islands pool their games), in the order the fits read them.
#[derive(Debug, Default)]
pub(crate) struct PatternCache {
    /// The samples of the blocks kept (`None` before the first fit of this process).
    data: Option<PatternData>,
    /// The samples and the games of the earlier runs' stores (`fit_with`): the first in
    /// `data`, kept all run long.
    sources: (usize, usize),
    /// Each block kept, in order: its round, its first sample and its games.
    blocks: Vec<(u32, usize, usize)>,
    /// The last round whose blocks are all kept (0: none yet).
    through: u32,
}

impl PatternCache {
    /// Adds a block of `round`'s games, their samples taken as `settings` say.
    fn add(
        &mut self,
        round: u32,
        games: &[RecordedGame],
        settings: &FitSettings,
        shape: &PatternTables,
    ) {
        let first_game = self.games();
        let data = self.data.get_or_insert_with(|| PatternData::new(shape));
        self.blocks.push((round, data.len(), games.len()));
        data.append(pattern_samples(
            games,
            settings.first_ply,
            shape,
            first_game,
            settings.endings,
            None,
            None,
        ));
    }

    /// Adds the earlier runs' games (before any block of the run's own).
    fn add_sources(
        &mut self,
        sources: Vec<RoundGames>,
        settings: &FitSettings,
        shape: &PatternTables,
    ) {
        let data = self.data.get_or_insert_with(|| PatternData::new(shape));
        for block in sources {
            data.append(pattern_samples(
                &block.games,
                settings.first_ply,
                shape,
                self.sources.1,
                settings.endings,
                None,
                None,
            ));
            self.sources.1 += block.games.len();
        }
        self.sources.0 = data.len();
    }

    /// The games of the earlier runs and of the blocks kept.
    fn games(&self) -> usize {
        self.sources.1
            + self
                .blocks
                .iter()
                .map(|&(_, _, games)| games)
                .sum::<usize>()
    }

    /// Forgets the blocks of the rounds before `first_round`.
    fn keep_from(&mut self, first_round: u32) {
        let Some(data) = self.data.as_mut() else {
            return;
        };
        let keep = self.blocks.partition_point(|&(r, _, _)| r < first_round);
        if keep == 0 {
            return;
        }
        let kept = self.sources.0;
        let first = self
            .blocks
            .get(keep)
            .map_or(data.len(), |&(_, start, _)| start);
        data.drop_range(kept..first);
        self.blocks.drain(..keep);
        self.blocks
            .iter_mut()
            .for_each(|(_, start, _)| *start -= first - kept);
    }

    /// Forgets the last block (the round just played, which the next fit reads back in its
    /// place among the islands' blocks).
    fn drop_last(&mut self) {
        let (Some(data), Some((_, start, _))) = (self.data.as_mut(), self.blocks.pop()) else {
            return;
        };
        data.samples.truncate(start);
    }
}

/// The pattern run's fit after `round`: the cached samples of the earlier rounds within the
/// window (those not cached yet read from the stores and extracted), the round's own games
/// added last for this fit only.
fn fit_patterns_after_round(
    settings: &FitSettings,
    config: &Config,
    (round, games): (u32, &[BracketGame]),
    top: &Specimen,
    cache: &mut PatternCache,
    earlier: &Earlier<'_>,
) -> Result<Option<FitReport>> {
    let first_round = config.evolution.fit_first_round(round);
    let shape = settings.table_shape(top.patterns.as_ref());
    if cache.data.is_none() && !config.evolution.fit_with.is_empty() {
        cache.add_sources(read_sources(&config.evolution.fit_with)?, settings, &shape);
    }
    cache.keep_from(first_round);
    let next = (cache.through + 1).max(first_round);
    if next < round {
        for block in (earlier.read)(next, round - 1)? {
            cache.add(block.round, &block.games, settings, &shape);
        }
    }
    cache.through = cache.through.max(round - 1);
    let played: Vec<RecordedGame> = games.iter().map(recorded).collect::<Result<_>>()?;
    cache.add(round, &played, settings, &shape);
    let data = cache.data.as_ref().expect("a round was added");
    let fitted = fit_pattern_data(
        data.as_slice(),
        None,
        &top.weights,
        top.extra.as_deref(),
        top.patterns.as_ref(),
        settings,
        |_, _| {},
    );
    let games = cache.games();
    cache.drop_last();
    match fitted {
        Ok(mut report) => {
            report.games = games;
            Ok(Some(report))
        }
        // No position yet: the round breeds as usual.
        Err(Error::Input(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

/// A bracket game as a fit (and the positions store) sees it: from the start position with its
/// opening's moves when they replay from it, with the searches' scores.
pub(crate) fn recorded(game: &BracketGame) -> Result<RecordedGame> {
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
/// bred (after the last round), added with the next id. Its parent is `top`, its start, whose
/// search genes it keeps: a fit learns weights, not the search.
pub(crate) fn enter(
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
        search: top.search,
    });
}
