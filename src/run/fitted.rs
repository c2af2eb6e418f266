//! Fitted specimens (`[evolution] fit_every`): every k rounds, a regression fit on the games the
//! run (or island) has played enters the population as a newcomer.
//!
//! The fit reads the games of earlier rounds back from the run's own `games.csv` (which a
//! resumed run has cut back to its checkpoint) and takes the round just played from memory, so
//! a run that was killed and resumed fits on exactly the games an unbroken run fits on, and the
//! fit itself is the same on any number of threads.

use std::path::Path;

use super::config::Config;
use crate::error::{Error, Result};
use crate::fit::{fit, FitReport, FitSettings, GameRecords, RecordedGame};
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
) -> Result<Option<FitReport>> {
    let first_round = config.evolution.fit_first_round(round);
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
    let settings = FitSettings {
        validation: 0.0,
        endgame_pieces: config.search.endgame_pieces,
        opening: config.weights.opening,
        endgame: config.weights.endgame,
        evaluator: config.weights.evaluator,
        extended: config.weights.extended,
        ..FitSettings::default()
    };
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
