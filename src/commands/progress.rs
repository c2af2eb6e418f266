//! How `tune` and `resume` show a run's progress on stderr: indicatif bars on a terminal, one
//! plain line per round otherwise, nothing with `--quiet`. The run reports through the
//! library's `RunObserver`; this is only its rendering.
//!
//! Games finish on rayon's worker threads, so per-game counts are atomics; everything else is
//! reported from the thread that runs the round loop.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::output::note;
use checkers_engine::game::GameResult;
use checkers_harness::run::{ObserverFactory, RunObserver, RunView};
use checkers_harness::tournament::{LevelSummary, RoundStats, Standing};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// The observer factory of `tune` and `resume`: nothing with `quiet`; otherwise bars when
/// stderr is a terminal, plain log lines when it is not. Islands run in one process get log
/// lines, labelled: bars for several islands at once would fight.
pub fn factory(quiet: bool) -> Option<ObserverFactory> {
    if quiet {
        return None;
    }
    Some(ObserverFactory(Arc::new(|view: &RunView| {
        let bars = !view.islands_in_this_process && std::io::stderr().is_terminal();
        Box::new(Progress {
            bars: bars.then(|| Bars::new(view.total_rounds, view.completed)),
            label: view
                .island
                .map_or(String::new(), |i| format!("island {i}: ")),
            total_rounds: view.total_rounds,
            round: AtomicU32::new(0),
            level: AtomicU32::new(0),
            games: AtomicU64::new(0),
            decisive: AtomicU64::new(0),
            draws: AtomicU64::new(0),
            paces: Mutex::new(Vec::new()),
        }) as Box<dyn RunObserver>
    })))
}

/// The two bars of an interactive terminal.
struct Bars {
    multi: MultiProgress,
    rounds: ProgressBar,
    games: ProgressBar,
}

/// The progress display of one run (or one resumed part of it).
struct Progress {
    /// The bars; `None` for plain log lines.
    bars: Option<Bars>,
    /// Put before every line ("island 2: "), empty for a run without islands.
    label: String,
    total_rounds: u32,
    round: AtomicU32,
    level: AtomicU32,
    games: AtomicU64,
    decisive: AtomicU64,
    draws: AtomicU64,
    /// Each round this process finished and its seconds: the pace the time left is told from.
    paces: Mutex<Vec<(u32, f64)>>,
}

/// The seconds the rounds after `done` of `total` are expected to take at the pace of the
/// last [`PACE_ROUNDS`] rounds in `paces` (round, seconds): recent rounds, since a run's
/// rounds slow down as its fits learn from more positions and its games deepen, and a round
/// with a fit or a gate is slower than one without (a window of many rounds averages them).
fn time_left(paces: &[(u32, f64)], done: u32, total: u32) -> f64 {
    let recent = &paces[paces.len().saturating_sub(PACE_ROUNDS)..];
    if recent.is_empty() {
        return 0.0;
    }
    let mean = recent.iter().map(|&(_, s)| s).sum::<f64>() / recent.len() as f64;
    mean * f64::from(total.saturating_sub(done))
}

/// A duration for people: seconds, minutes, or hours and minutes.
pub fn duration(seconds: f64) -> String {
    let seconds = seconds.max(0.0).round() as u64;
    match seconds {
        0..=89 => format!("about {seconds} s"),
        90..=5399 => format!("about {} min", (seconds + 30) / 60),
        _ => {
            let minutes = (seconds + 30) / 60;
            format!("about {} h {:02} min", minutes / 60, minutes % 60)
        }
    }
}

/// The rounds whose pace tells the time left.
const PACE_ROUNDS: usize = 32;

impl Progress {
    fn reset_counts(&self) {
        for count in [&self.games, &self.decisive, &self.draws] {
            count.store(0, Ordering::Relaxed);
        }
        self.level.store(0, Ordering::Relaxed);
    }

    fn game_message(&self) -> String {
        format!(
            "pairs · round {} · level {} · {} games · {} decisive · {} drawn",
            self.round.load(Ordering::Relaxed),
            self.level.load(Ordering::Relaxed),
            self.games.load(Ordering::Relaxed),
            self.decisive.load(Ordering::Relaxed),
            self.draws.load(Ordering::Relaxed),
        )
    }

    /// Empties the games bar for `length` steps, with `message`.
    fn restart_games(&self, length: u64, message: String) {
        if let Some(bars) = &self.bars {
            bars.games.set_length(length);
            bars.games.set_position(0);
            bars.games.set_message(message);
        }
    }
}

impl RunObserver for Progress {
    /// A line: shown above the bars, or logged.
    fn note(&self, line: &str) {
        let line = format!("{}{line}", self.label);
        match &self.bars {
            Some(bars) => bars.multi.suspend(|| note!("{line}")),
            None => note!("{line}"),
        }
    }

    /// Round `round` starts over `population` specimens.
    fn round_start(&self, round: u32, population: usize) {
        self.round.store(round, Ordering::Relaxed);
        self.reset_counts();
        self.restart_games((population / 2) as u64, self.game_message());
    }

    /// A game of a pair finished (called from worker threads). `pair_done` is set when the
    /// pair needs no further game.
    fn game_done(&self, result: GameResult, pair_done: bool) {
        self.games.fetch_add(1, Ordering::Relaxed);
        match result {
            GameResult::Draw => self.draws.fetch_add(1, Ordering::Relaxed),
            _ => self.decisive.fetch_add(1, Ordering::Relaxed),
        };
        if let Some(bars) = &self.bars {
            if pair_done {
                bars.games.inc(1);
            }
            bars.games.set_message(self.game_message());
        }
    }

    /// A bracket level finished; the next one (if the round goes on) has `summary.advanced`
    /// specimens.
    fn level_done(&self, summary: &LevelSummary) {
        self.level.store(summary.level + 1, Ordering::Relaxed);
        self.restart_games((summary.advanced / 2) as u64, self.game_message());
    }

    /// A round is complete and saved.
    fn round_done(&self, stats: &RoundStats, seconds: f64) {
        let games = stats.games();
        let rate = if seconds > 0.0 {
            games as f64 / seconds
        } else {
            0.0
        };
        let left = {
            let mut paces = self.paces.lock().expect("no observer panicked");
            paces.push((stats.round, seconds));
            duration(time_left(&paces, stats.round, self.total_rounds))
        };
        if let Some(bars) = &self.bars {
            bars.rounds.inc(1);
            bars.rounds.set_message(format!("{left} left"));
        }
        self.note(&format!(
            "round {}/{}: {} specimens, {} levels, {} games ({} decisive, {} drawn), \
             {} survivors, {} newcomers, {:.1} s, {:.1} games/s, {left} left",
            stats.round,
            self.total_rounds,
            stats.population,
            stats.levels,
            games,
            self.decisive.load(Ordering::Relaxed),
            self.draws.load(Ordering::Relaxed),
            stats.survivors,
            stats.newcomers,
            seconds,
            rate
        ));
    }

    /// The playoff starts: `finalists` specimens, `games` games in all.
    fn playoff_start(&self, finalists: usize, games: u64) {
        self.reset_counts();
        self.restart_games(games, "playoff games".to_string());
        self.note(&format!("playoff: {finalists} finalists, {games} games"));
    }

    /// A playoff game finished (called from worker threads).
    fn playoff_game(&self) {
        if let Some(bars) = &self.bars {
            bars.games.inc(1);
        }
    }

    /// The playoff is done; `best` is rank 1.
    fn playoff_done(&self, best: &Standing, seconds: f64) {
        self.note(&format!(
            "playoff done in {seconds:.1} s: best specimen {} with {:.1} points from {} games",
            best.id,
            best.results.points(),
            best.results.games()
        ));
    }

    /// Removes the bars, leaving the terminal clean for the final message.
    fn finish(&self) {
        if let Some(bars) = &self.bars {
            bars.games.finish_and_clear();
            bars.rounds.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Bars {
    fn new(total_rounds: u32, completed: u32) -> Bars {
        let multi = MultiProgress::new();
        let rounds = multi.add(
            ProgressBar::new(u64::from(total_rounds))
                .with_style(
                    ProgressStyle::with_template(
                        "{prefix} [{bar:30.cyan/blue}] {pos}/{len} rounds · {elapsed_precise} · {msg}",
                    )
                    .expect("a valid template")
                    .progress_chars("=> "),
                )
                .with_prefix("tuning")
                .with_message("time left: after the first round")
                .with_position(u64::from(completed)),
        );
        let games = multi.add(
            ProgressBar::new(0).with_style(
                ProgressStyle::with_template("       [{bar:30.green/white}] {pos}/{len} {msg}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            ),
        );
        rounds.enable_steady_tick(Duration::from_millis(500));
        Bars {
            multi,
            rounds,
            games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_is_the_recent_pace_times_the_rounds_left() {
        // Rounds of 10 s: 10 rounds left are 100 s.
        let flat: Vec<(u32, f64)> = (1..=4).map(|r| (r, 10.0)).collect();
        assert!((time_left(&flat, 4, 14) - 100.0).abs() < 1e-9);
        // Only the last 32 rounds count: 40 rounds of 1 s, then 32 of 3 s.
        let slowing: Vec<(u32, f64)> = (1..=72)
            .map(|r| (r, if r <= 40 { 1.0 } else { 3.0 }))
            .collect();
        assert!((time_left(&slowing, 72, 82) - 30.0).abs() < 1e-9);
        // Nothing left at the end.
        assert_eq!(time_left(&slowing, 82, 82), 0.0);
    }
}
