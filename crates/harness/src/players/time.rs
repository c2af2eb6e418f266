//! What a program is told of its time at a turn, and how long it is given before it is taken
//! to hang.

use std::time::Duration;

use checkers_engine::checkerboard::incremental_time;
use checkers_engine::game::{EndReason, TimeControl, Turn};

/// Without a clock or a time per move (a depth or a node budget), how long a program may think.
const UNTIMED_LIMIT: Duration = Duration::from_secs(120);
/// What a program may take past its time before it is killed: the slack of a loaded machine.
const GRACE: Duration = Duration::from_secs(2);
/// How many times its time per move a program may take before it is taken to hang.
const HANG_FACTOR: u32 = 10;

/// A CheckerBoard engine's time arguments at a turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct CbTime {
    /// `maxtime`: the average time a move, in seconds.
    pub maxtime: f64,
    /// `info`'s incremental-time bits.
    pub info: i32,
    /// `moreinfo`: the clock and increment they describe.
    pub moreinfo: i32,
    /// When the host sets `*playnow`, asking for the move at once.
    pub playnow_after: Duration,
}

/// The share of a clock a move is planned to take: a 25th of what is left plus most of the
/// increment, never more than a third of the clock (our search's plan too).
fn clock_share(left: Duration, increment: Duration) -> Duration {
    (left / 25 + increment * 3 / 4).min(left / 3)
}

/// A CheckerBoard engine's time at `turn`: with a time per move, that time as `maxtime` (the
/// average, as CheckerBoard means it) and "play now" halfway to the hang limit (an engine
/// asked to play at once may answer with a move it has not searched: only one that overruns
/// by far is asked); with a clock, the clock in the incremental-time bits and a share of it
/// as `maxtime`.
pub(super) fn cb_time(turn: &Turn<'_>) -> CbTime {
    match turn.settings.time {
        Some(TimeControl::MoveTime(t)) => CbTime {
            maxtime: t.as_secs_f64(),
            info: 0,
            moreinfo: 0,
            playnow_after: (t * HANG_FACTOR + GRACE) / 2,
        },
        Some(TimeControl::Clock { increment, .. }) => {
            let left = turn.clock;
            let (info, moreinfo) = incremental_time(left.as_secs_f64(), increment.as_secs_f64());
            let share = clock_share(left, increment);
            CbTime {
                maxtime: share.as_secs_f64(),
                info,
                moreinfo,
                playnow_after: (share * 3).min(left.mul_f64(0.8)),
            }
        }
        // Refused before a match starts; an engine asked anyway gets a second.
        Some(TimeControl::Nodes(_)) | None => CbTime {
            maxtime: 1.0,
            info: 0,
            moreinfo: 0,
            playnow_after: Duration::from_secs(3),
        },
    }
}

/// How long a program may take to answer at `turn` before it is killed, and the reason the
/// game then ends with: past its clock (plus a grace) it lost on time; with a time per move it
/// hung after [`HANG_FACTOR`] times it (plus the grace).
pub(super) fn answer_limit(turn: &Turn<'_>) -> (Duration, EndReason) {
    match turn.settings.time {
        Some(TimeControl::MoveTime(t)) => (t * HANG_FACTOR + GRACE, EndReason::Hang),
        Some(TimeControl::Clock { .. }) => (turn.clock.saturating_add(GRACE), EndReason::Time),
        Some(TimeControl::Nodes(_)) | None => (UNTIMED_LIMIT, EndReason::Hang),
    }
}

/// The Hub `level` line for `turn`.
pub(super) fn hub_level(turn: &Turn<'_>) -> String {
    match turn.settings.time {
        Some(TimeControl::MoveTime(t)) => format!("level move-time={}", t.as_secs_f64()),
        Some(TimeControl::Clock { increment, .. }) => format!(
            "level time={:.3} inc={}",
            turn.clock.as_secs_f64(),
            increment.as_secs_f64()
        ),
        Some(TimeControl::Nodes(n)) => format!("level nodes={n}"),
        None => format!("level depth={}", turn.settings.search.min_depth),
    }
}
