//! What a run reports as it goes. The run only reports; how it is shown (bars, log lines,
//! nothing) is the caller's business: the command line renders it in `src/commands/progress.rs`.

use std::sync::Arc;

use crate::tournament::{LevelSummary, RoundStats, Standing};
use checkers_engine::game::GameResult;

/// Receives a run's events. Games finish on worker threads, so every method takes `&self` and
/// the observer must be `Sync`; everything but [`RunObserver::game_done`] and
/// [`RunObserver::playoff_game`] is called from the thread that runs the round loop. Every
/// method does nothing by default.
pub trait RunObserver: Send + Sync {
    /// A line of information that is not a round's summary (resuming, the islands' exchanges).
    fn note(&self, _line: &str) {}
    /// Round `round` starts over `population` specimens.
    fn round_start(&self, _round: u32, _population: usize) {}
    /// A game finished; `pair_done` is set when its pair needs no further game.
    fn game_done(&self, _result: GameResult, _pair_done: bool) {}
    /// A bracket level finished; the next one (if the round goes on) has `summary.advanced`
    /// specimens.
    fn level_done(&self, _summary: &LevelSummary) {}
    /// A round is complete and saved, after `seconds`.
    fn round_done(&self, _stats: &RoundStats, _seconds: f64) {}
    /// A pair of a gate's games (`[gate]`) finished.
    fn gate_pair(&self) {}
    /// The playoff starts: `finalists` specimens, `games` games in all.
    fn playoff_start(&self, _finalists: usize, _games: u64) {}
    /// A playoff game finished.
    fn playoff_game(&self) {}
    /// The playoff is done after `seconds`; `best` is rank 1.
    fn playoff_done(&self, _best: &Standing, _seconds: f64) {}
    /// The run (or this process's part of it) is over: nothing more will be reported.
    fn finish(&self) {}
}

/// The observer that shows nothing.
pub(crate) struct Silent;

impl RunObserver for Silent {}

/// What an observer is told about the run it will watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunView {
    /// The run's rounds.
    pub total_rounds: u32,
    /// Rounds already done (a resumed run).
    pub completed: u32,
    /// The island this observer watches, in an island-model run.
    pub island: Option<u32>,
    /// Whether the other islands run in this process too, each with its own observer.
    pub islands_in_this_process: bool,
}

/// A function making the observer of the run a [`RunView`] describes.
pub type MakeObserver = dyn Fn(&RunView) -> Box<dyn RunObserver> + Send + Sync;

/// Makes the observer of a run, or of each island of it: [`crate::run::RunOptions::observer`].
#[derive(Clone)]
pub struct ObserverFactory(pub Arc<MakeObserver>);

impl std::fmt::Debug for ObserverFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ObserverFactory")
    }
}
