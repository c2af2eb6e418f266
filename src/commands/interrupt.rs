//! Interruption: Ctrl-C (SIGINT), SIGTERM and SIGHUP.
//!
//! One thread waits for the signals. A command that can stop cleanly (`tune`, `resume`,
//! `match`) asks for a [`stop_flag`]: the first Ctrl-C sets it and the command finishes the
//! games in progress, saves and ends with [`INTERRUPTED_STATUS`]. Any other signal, a second
//! Ctrl-C, or a Ctrl-C in a command without a flag ends the process at once, after killing the
//! other programs a match started (with what they forked) and removing the temporary files of
//! the atomic writes in progress, so every output is left either as it was or whole, nothing
//! hidden beside it and nothing left running.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::output::note;

/// Exit status after Ctrl-C (128 + SIGINT), as shells report it.
pub const INTERRUPTED_STATUS: i32 = 128 + SIGINT;

/// The flag of the command that stops cleanly on the first Ctrl-C, if it asked for one.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Starts the thread that handles the signals. Failing to install it only costs the clean stop
/// and the removal of temporary files; the outputs stay whole either way.
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                let first_stop = signal == SIGINT
                    && STOP
                        .get()
                        .is_some_and(|flag| !flag.swap(true, Ordering::SeqCst));
                if first_stop {
                    note!("\nStopping after the games in progress (Ctrl-C again to quit at once)…");
                } else {
                    // A program or host of a match spinning in its move would outlive the
                    // match (its process group is its own): its whole group goes first.
                    checkers_harness::players::kill_children();
                    checkers_engine::atomic_file::exit_removing_temporaries(128 + signal);
                }
            }
        });
}

/// The flag that the first Ctrl-C sets instead of ending the process: the caller checks it
/// between games, finishes cleanly and exits with [`INTERRUPTED_STATUS`].
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::clone(STOP.get_or_init(|| Arc::new(AtomicBool::new(false))))
}
