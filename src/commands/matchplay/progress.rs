//! The match's progress on stderr.

use std::io::IsTerminal;

use checkers_harness::elo::Sprt;
use checkers_harness::matchplay::PairReport;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::commands::output::note;

/// Plain progress lines (stderr not a terminal) come every this many pairs, and after the last.
const PROGRESS_EVERY: usize = 10;

/// Progress on stderr: a bar on a terminal, a line every few pairs otherwise, nothing with
/// `--quiet`.
pub(super) struct Progress {
    quiet: bool,
    bar: Option<ProgressBar>,
    sprt: Option<Sprt>,
}

impl Progress {
    /// Progress over `pairs`, of which the first `done` (read back from an interrupted match's
    /// file) count as done.
    pub(super) fn new(quiet: bool, done: usize, pairs: usize, sprt: Option<Sprt>) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(pairs as u64), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("pairs {pos}/{len} {wide_bar} ETA {eta}  {msg}")
            {
                bar.set_style(style);
            }
            bar.set_position(done as u64);
            bar
        });
        Progress { quiet, bar, sprt }
    }

    pub(super) fn pair(&mut self, p: &PairReport) {
        if self.quiet {
            return;
        }
        let mut status = format!(
            "{}; Elo {:+.1}",
            p.tally.results.line(),
            p.tally.estimate().elo
        );
        if let Some(t) = &self.sprt {
            status.push_str(&format!(", LLR {:+.2}", t.llr(&p.tally.pentanomial)));
        }
        let last = p.pairs_done == p.pairs_total || p.sprt.is_some_and(|v| v.is_final());
        match &self.bar {
            Some(bar) => {
                bar.set_position(p.pairs_done as u64);
                bar.set_message(status);
            }
            None if p.pairs_done.is_multiple_of(PROGRESS_EVERY) || last => {
                note!("pairs {}/{}: {status}", p.pairs_done, p.pairs_total);
            }
            None => {}
        }
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
