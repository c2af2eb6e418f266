//! What a match reports: after each pair, and at its end.

use std::time::Duration;

use crate::elo::{EloEstimate, MatchTally, Sprt, SprtVerdict};
use checkers_engine::error::Result;

use super::game::MatchGame;

/// What `on_pair` sees after each pair is applied, in opening order.
#[derive(Clone, Debug, PartialEq)]
pub struct PairReport {
    /// The pair's two games (A Black, then A White).
    pub games: [MatchGame; 2],
    /// The running totals, this pair included.
    pub tally: MatchTally,
    /// Pairs applied so far, this one included.
    pub pairs_done: usize,
    /// Pairs the match would play without an SPRT stop (the number of openings).
    pub pairs_total: usize,
    /// The SPRT's state after this pair, when one is running.
    pub sprt: Option<SprtVerdict>,
    /// A's and B's thinking in the pair's two games (measured, so not part of the result).
    pub thinking: [Thinking; 2],
}

/// A side's time on its moves: the time and the moves it was spent on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    /// Time spent choosing moves.
    pub time: Duration,
    /// Moves chosen.
    pub moves: u32,
    /// The longest of them.
    pub longest: Duration,
}

impl Thinking {
    /// The mean time a move; `None` before the first move.
    pub fn mean(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.time / self.moves)
    }

    /// Adds `other`'s time and moves.
    pub fn add(&mut self, other: Thinking) {
        self.time += other.time;
        self.moves += other.moves;
        self.longest = self.longest.max(other.longest);
    }
}

/// An SPRT's outcome at the end of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOutcome {
    /// The test.
    pub test: Sprt,
    /// Its log-likelihood ratio over the pairs played.
    pub llr: f64,
    /// Its verdict; `Continue` if the openings ran out first.
    pub verdict: SprtVerdict,
}

/// A finished (or SPRT-stopped) match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// Every game played, two per pair, in opening order.
    pub games: Vec<MatchGame>,
    /// Results from A's side.
    pub tally: MatchTally,
    /// Elo of A over B with its 95% interval and LOS.
    pub estimate: EloEstimate,
    /// The SPRT's outcome, when one was asked for.
    pub sprt: Option<SprtOutcome>,
    /// Pairs played (fewer than `pairs_total` when the SPRT stopped the match).
    pub pairs_played: usize,
    /// Pairs available: the number of openings.
    pub pairs_total: usize,
}

impl MatchReport {
    /// The result lines printed after a match and written to the summary: W/D/L and score,
    /// the pentanomial counts, Elo, and the SPRT status with how the match ended.
    pub fn result_lines(&self) -> Vec<String> {
        self.lines(false)
    }

    /// The result lines of a match stopped before its end (by a Ctrl-C): as
    /// [`MatchReport::result_lines`], but saying where it stopped instead of an SPRT ending.
    pub fn interrupted_lines(&self) -> Vec<String> {
        self.lines(true)
    }

    fn lines(&self, interrupted: bool) -> Vec<String> {
        let mut lines = vec![
            format!("results for A: {}", self.tally.results.line()),
            format!("pairs: {}", self.tally.pentanomial),
            self.estimate.summary_line(),
        ];
        if let Some(s) = &self.sprt {
            lines.push(s.test.status_line(&self.tally.pentanomial));
        }
        if interrupted {
            lines.push(format!(
                "interrupted after {} of {} pairs",
                self.pairs_played, self.pairs_total
            ));
            return lines;
        }
        if let Some(s) = &self.sprt {
            lines.push(match s.verdict {
                SprtVerdict::Continue => format!(
                    "SPRT: no verdict; the openings ran out after {}",
                    count(self.pairs_played, "pair")
                ),
                verdict if self.pairs_played < self.pairs_total => format!(
                    "SPRT: {verdict}, stopped early after {} of {} pairs",
                    self.pairs_played, self.pairs_total
                ),
                verdict => format!(
                    "SPRT: {verdict} after the last of {}",
                    count(self.pairs_played, "pair")
                ),
            });
        }
        lines
    }

    /// The per-game CSV: [`MatchGame::CSV_HEADER`], then one row per game.
    pub fn csv_text(&self) -> Result<String> {
        let rows = self.games.iter().map(MatchGame::csv_line);
        Ok(std::iter::once(MatchGame::csv_header_line())
            .chain(rows)
            .collect())
    }
}

/// `n` and `noun`, plural unless `n` is 1: `1 pair`, `4 pairs`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
