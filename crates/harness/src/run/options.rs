//! How a run is executed: threads, progress, the endgame database, stopping, waiting for other
//! islands; none of it changes the run's files (except `timings.csv`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::observer::ObserverFactory;
use checkers_engine::egdb::EndgameDb;
use checkers_engine::error::Result;

/// How a run is executed: none of this changes its files (except `timings.csv`).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads for the games; 0 for one per core.
    pub threads: usize,
    /// Makes the observer that is told of the run's progress (`None`: nobody is told).
    pub observer: Option<ObserverFactory>,
    /// Opens the endgame database of the given number of pieces (reading it, or building it
    /// at first use); called once the run folder is checked, when the config asks for a
    /// database (`search.database_pieces` above 0). Without it such a config is refused.
    pub endgame_db: Option<EndgameDbLoader>,
    /// When set (e.g. by a Ctrl-C handler), the run stops at the next game boundary, drops the
    /// round in progress and returns [`RunOutcome::Interrupted`].
    pub stop: Option<Arc<AtomicBool>>,
    /// With islands in separate processes: how long an island waits for another island's file
    /// before it gives up naming that island (`None`: an hour).
    pub island_timeout: Option<Duration>,
    /// Test builds' hooks (feature `crash-hooks`); empty otherwise.
    pub hooks: CrashHooks,
}

/// Test hooks that stop or abort a run at a chosen round, read from the environment
/// (`CHECKERS_TUNER_STOP_AFTER_ROUND`, `CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT`,
/// `CHECKERS_TUNER_CRASH_IN_GATE`, `CHECKERS_TUNER_STOP_IN_DOUBLING`) by test builds only: without the cargo feature `crash-hooks`
/// it holds nothing and reads nothing, so a shipped binary has no such hooks.
#[derive(Clone, Copy, Debug, Default)]
pub struct CrashHooks {
    /// Stop cleanly once this round is saved, as if interrupted.
    #[cfg(feature = "crash-hooks")]
    pub stop_after_round: Option<u32>,
    /// Abort the process once this round's rows are written but before its checkpoint, the
    /// worst moment for a crash.
    #[cfg(feature = "crash-hooks")]
    pub crash_before_checkpoint: Option<u32>,
    /// Abort the process in the middle of this round's first gate (`[gate]`), once some of its
    /// games are played.
    #[cfg(feature = "crash-hooks")]
    pub crash_in_gate: Option<u32>,
    /// Stop cleanly once this doubling of a chain's data night has played its games, before
    /// its fit, as if interrupted.
    #[cfg(feature = "crash-hooks")]
    pub stop_in_doubling: Option<u32>,
}

impl CrashHooks {
    /// The hooks the environment asks for (test builds), or none.
    pub fn from_env() -> CrashHooks {
        #[cfg(feature = "crash-hooks")]
        {
            let hook = |var: &str| std::env::var(var).ok().and_then(|v| v.trim().parse().ok());
            CrashHooks {
                stop_after_round: hook("CHECKERS_TUNER_STOP_AFTER_ROUND"),
                crash_before_checkpoint: hook("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT"),
                crash_in_gate: hook("CHECKERS_TUNER_CRASH_IN_GATE"),
                stop_in_doubling: hook("CHECKERS_TUNER_STOP_IN_DOUBLING"),
            }
        }
        #[cfg(not(feature = "crash-hooks"))]
        CrashHooks {}
    }
}

/// How a run gets its endgame database: from the number of pieces, the database (its
/// `pieces()` must be that number) or why not.
#[derive(Clone)]
pub struct EndgameDbLoader(pub Arc<dyn Fn(u32) -> Result<&'static EndgameDb> + Send + Sync>);

impl std::fmt::Debug for EndgameDbLoader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EndgameDbLoader")
    }
}
