//! The time manager of a timed search: one owner for how long a move thinks.
//!
//! A timed search is given a target (the time the move should take) and a hard deadline. The
//! manager turns the target into a soft limit after every finished iteration: the target
//! stretched while the best move keeps changing or the score falls (the search has found
//! trouble and needs the time), shrunk while the best move stays put, and nothing at all
//! for a move that is the only legal one. The search deepens while the soft limit lies
//! ahead; past it, the selective search stops as soon as the iteration under way has a safe
//! answer (see [`Searcher`](super::Searcher)'s partial iterations), and any search stops at
//! the hard deadline. Everything here is a function of the instants it is given, so the
//! tests drive it with a clock of their own.
//!
//! [`TimeBank`] keeps a game's average: the time a fixed time a move saves on a forced or easy
//! move goes to the moves after it, so that the mean time a move is the time given.

use std::time::{Duration, Instant};

use crate::board::Move;

use super::score::WIN_THRESHOLD;

/// What a timed search is told of its time besides the hard deadline: when the move's time
/// started and how long it should take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeTarget {
    /// When the move's time started (the caller's clock, read before anything else).
    pub started: Instant,
    /// How long the move should take: the time a move given, or a clock's share.
    pub target: Duration,
}

/// The soft limit's share of the target with a stable best move: the move is likely right,
/// and a stable search also overshoots a little finishing the first root move.
pub const STABLE_SHARE: f64 = 0.85;
/// What one change of the best move in the last iteration adds to the soft limit's share of
/// the target (the count of changes halves every iteration).
pub const CHANGE_SHARE: f64 = 0.5;
/// What a fall of the score by one man (100) since the last iteration adds to the share.
pub const DROP_SHARE: f64 = 0.6;
/// The soft limit never lies beyond this share of the target (the hard deadline bounds the
/// rest).
pub const MAX_SOFT_SHARE: f64 = 1.8;

/// How long the search under way may think: the soft limit it deepens to, moved after every
/// iteration, and what the iterations so far told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeManager {
    target: TimeTarget,
    /// The hard deadline, if any: the soft limit never lies beyond it.
    hard: Option<Instant>,
    /// Deepen no more, and stop at a safe point of the iteration under way, from this instant.
    soft: Instant,
    /// The best move and score of the last finished iteration.
    last: Option<(Move, i32)>,
    /// Changes of the best move, halved every iteration: recent changes count most.
    changes: f64,
    /// When the last iteration finished, and how long it took.
    last_finished: Instant,
    last_took: Duration,
}

impl TimeManager {
    /// The manager of a search given `target`, abandoned at `hard`: before any iteration, the
    /// soft limit is the target itself.
    pub fn new(target: TimeTarget, hard: Option<Instant>) -> TimeManager {
        let mut manager = TimeManager {
            target,
            hard,
            soft: target.started,
            last: None,
            changes: 0.0,
            last_finished: target.started,
            last_took: Duration::ZERO,
        };
        manager.soft = manager.limit_at(1.0);
        manager
    }

    /// The instant `share` of the target after the start, never beyond the hard deadline.
    fn limit_at(&self, share: f64) -> Instant {
        let at = self.target.started + self.target.target.mul_f64(share.max(0.0));
        self.hard.map_or(at, |hard| at.min(hard))
    }

    /// Takes in an iteration that finished at `now` with `best` and `score`, at a root with
    /// `root_moves` legal moves, and moves the soft limit accordingly.
    pub fn iteration_done(&mut self, now: Instant, best: Move, score: i32, root_moves: usize) {
        self.last_took = now.saturating_duration_since(self.last_finished);
        self.last_finished = now;
        self.changes *= 0.5;
        let mut share = STABLE_SHARE;
        if let Some((move_before, score_before)) = self.last {
            if move_before != best {
                self.changes += 1.0;
            }
            let decided = score.abs() >= WIN_THRESHOLD || score_before.abs() >= WIN_THRESHOLD;
            if !decided && score < score_before {
                let drop = f64::from(score_before - score) / 100.0;
                share += DROP_SHARE * drop.min(1.0);
            }
        }
        share += CHANGE_SHARE * self.changes;
        self.last = Some((best, score));
        // The only legal move needs no thought at all.
        self.soft = if root_moves <= 1 {
            self.target.started
        } else {
            self.limit_at(share.min(MAX_SOFT_SHARE))
        };
    }

    /// The soft limit as it stands.
    pub fn soft_limit(&self) -> Instant {
        self.soft
    }

    /// Whether the soft limit has passed at `now`.
    pub fn soft_passed(&self, now: Instant) -> bool {
        now >= self.soft
    }

    /// Whether to start another iteration at `now`. A search that can stop an iteration
    /// part-way with a safe answer (`partial`) deepens while the soft limit lies ahead; one
    /// that cannot also wants the next iteration, predicted from the last one's time, to end
    /// before the hard deadline, or it would throw that time away.
    pub fn should_deepen(&self, now: Instant, partial: bool) -> bool {
        if self.soft_passed(now) {
            return false;
        }
        if partial {
            return true;
        }
        // Each iteration takes a few times the one before.
        let next = self.last_took.mul_f64(3.0);
        self.hard.is_none_or(|hard| now + next <= hard)
    }
}

/// A game's time account at a fixed time a move: what the moves so far saved (or overspent)
/// against the time given, lent to the next ones a share at a time, so that a forced or easy
/// move's savings go to the hard moves and the mean time a move stays the time given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBank {
    /// Saved (positive) or overspent (negative) so far, in nanoseconds.
    credit: i128,
}

/// The share of the bank's credit a move may draw on.
pub const BANK_DRAW_SHARE: f64 = 0.25;
/// The credit kept at most, in moves' time: savings older than that are forgotten, so that a
/// long forced sequence cannot lend one move minutes.
pub const BANK_MAX_MOVES: i128 = 4;

impl TimeBank {
    /// The target of the next move with `given` a move: `given` plus a share of the credit
    /// (less a share of an overdraft), between half and twice `given`.
    pub fn target(&self, given: Duration) -> Duration {
        let given_ns = given.as_nanos() as f64;
        let lent = self.credit as f64 * BANK_DRAW_SHARE;
        let ns = (given_ns + lent).clamp(given_ns * 0.5, given_ns * 2.0);
        Duration::from_nanos(ns as u64)
    }

    /// Books a move that took `took` of `given`.
    pub fn spent(&mut self, given: Duration, took: Duration) {
        let given_ns = given.as_nanos() as i128;
        let cap = BANK_MAX_MOVES * given_ns;
        self.credit = (self.credit + given_ns - took.as_nanos() as i128).clamp(-cap, cap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Two distinct moves of the start position.
    fn moves() -> (Move, Move) {
        let list = Position::start().legal_moves();
        (list[0], list[1])
    }

    fn manager(t0: Instant) -> TimeManager {
        let target = TimeTarget {
            started: t0,
            target: ms(100),
        };
        TimeManager::new(target, Some(t0 + ms(200)))
    }

    #[test]
    fn a_stable_best_move_stops_short_of_the_target() {
        let t0 = Instant::now();
        let (a, _) = moves();
        let mut m = manager(t0);
        assert_eq!(m.soft_limit(), t0 + ms(100));
        for (k, score) in [(1, 10), (2, 12), (3, 11), (4, 12)] {
            m.iteration_done(t0 + ms(k), a, score, 7);
        }
        assert_eq!(m.soft_limit(), t0 + ms(85));
        assert!(m.should_deepen(t0 + ms(84), true));
        assert!(!m.should_deepen(t0 + ms(85), true));
    }

    #[test]
    fn a_changing_best_move_or_a_falling_score_stretches_the_target() {
        let t0 = Instant::now();
        let (a, b) = moves();
        let mut m = manager(t0);
        m.iteration_done(t0 + ms(1), a, 10, 7);
        m.iteration_done(t0 + ms(2), b, 10, 7);
        // One change in the last iteration: 0.85 + 0.5.
        assert_eq!(m.soft_limit(), t0 + ms(135));
        m.iteration_done(t0 + ms(3), b, 10, 7);
        // Half a change: 0.85 + 0.25.
        assert_eq!(m.soft_limit(), t0 + ms(110));
        // The score falls by half a man: 0.85 + 0.125 + 0.3.
        m.iteration_done(t0 + ms(4), b, -40, 7);
        assert_eq!(m.soft_limit(), t0 + ms(127) + Duration::from_micros(500));
        // Both at once, many times over: capped at 1.8 of the target.
        for k in 0..6 {
            let (mv, score) = if k % 2 == 0 { (a, -400) } else { (b, -800) };
            m.iteration_done(t0 + ms(5 + k), mv, score - 100 * k as i32, 7);
        }
        assert_eq!(m.soft_limit(), t0 + ms(180));
    }

    #[test]
    fn the_soft_limit_never_passes_the_hard_deadline() {
        let t0 = Instant::now();
        let (a, b) = moves();
        let target = TimeTarget {
            started: t0,
            target: ms(100),
        };
        let mut m = TimeManager::new(target, Some(t0 + ms(120)));
        m.iteration_done(t0 + ms(1), a, 10, 7);
        m.iteration_done(t0 + ms(2), b, -200, 7);
        assert_eq!(m.soft_limit(), t0 + ms(120));
        // Without a hard deadline the soft limit is the only one.
        let mut free = TimeManager::new(target, None);
        free.iteration_done(t0 + ms(1), a, 10, 7);
        assert_eq!(free.soft_limit(), t0 + ms(85));
    }

    #[test]
    fn the_only_legal_move_is_played_after_the_first_iteration() {
        let t0 = Instant::now();
        let (a, _) = moves();
        let mut m = manager(t0);
        assert!(m.should_deepen(t0, true));
        m.iteration_done(t0 + Duration::from_micros(50), a, 0, 1);
        assert!(!m.should_deepen(t0 + Duration::from_micros(50), true));
    }

    #[test]
    fn wins_and_losses_are_not_score_drops() {
        let t0 = Instant::now();
        let (a, _) = moves();
        let mut m = manager(t0);
        m.iteration_done(t0 + ms(1), a, WIN_THRESHOLD + 5, 7);
        m.iteration_done(t0 + ms(2), a, 30, 7);
        assert_eq!(m.soft_limit(), t0 + ms(85));
    }

    #[test]
    fn a_search_without_partial_iterations_starts_none_it_cannot_finish() {
        let t0 = Instant::now();
        let (a, _) = moves();
        let mut m = manager(t0);
        m.iteration_done(t0 + ms(10), a, 0, 7);
        m.iteration_done(t0 + ms(40), a, 0, 7);
        // The last took 30 ms: the next is put at 90, from 40 ms that ends at 130, before 200.
        assert!(m.should_deepen(t0 + ms(40), false));
        m.iteration_done(t0 + ms(80), a, 0, 7);
        // 40 ms: the next would end at 200 from 80 ms, just in time; at 81 ms, not.
        assert!(m.should_deepen(t0 + ms(80), false));
        assert!(!m.should_deepen(t0 + ms(81), false));
        // A search that can stop part-way deepens until the soft limit.
        assert!(m.should_deepen(t0 + ms(81), true));
    }

    #[test]
    fn the_bank_lends_savings_to_the_next_moves_and_keeps_the_average() {
        let given = ms(100);
        let mut bank = TimeBank::default();
        assert_eq!(bank.target(given), given);
        // A forced move took nothing: the next may take a quarter of 100 ms more.
        bank.spent(given, Duration::ZERO);
        assert_eq!(bank.target(given), ms(125));
        bank.spent(given, ms(125));
        assert_eq!(bank.target(given), ms(118) + Duration::from_micros(750));
        // Overspending is paid back, and never below half the time given.
        let mut bank = TimeBank::default();
        bank.spent(given, ms(300));
        assert_eq!(bank.target(given), ms(50));
        // Savings are kept up to four moves' time.
        let mut bank = TimeBank::default();
        for _ in 0..10 {
            bank.spent(given, Duration::ZERO);
        }
        assert_eq!(bank.target(given), ms(200));
    }
}
