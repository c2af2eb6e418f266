//! One round: level after level of pairs, until the pool is small enough or stalls.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::seq::SliceRandom;
use rayon::prelude::*;

use checkers_engine::game::{GameScore, Tally};
use checkers_engine::rng::{stream, tag};

use crate::tournament::settings::TournamentParams;
use crate::tournament::specimen::Specimen;
use crate::tournament::stats::{diversity, OutcomeCounts, RoundStats};

use super::game::BracketGame;
use super::job::{GameJob, GameReport};
use super::pairs::{play_knockout_pair, play_mini_match, PairPlay};

/// What one bracket level did; also what the progress callback of [`play_round`] receives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelSummary {
    /// The level, from 0.
    pub level: u32,
    /// Specimens in the pool at the start of the level.
    pub pool: usize,
    /// Byes given (0 or 1).
    pub byes: usize,
    /// How the pairs ended.
    pub outcomes: OutcomeCounts,
    /// Specimens sent on to the next level.
    pub advanced: usize,
}

/// Everything a round produced.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundResult {
    /// The final pool, in ascending id order.
    pub survivors: Vec<Specimen>,
    /// Every game in play order (level, then pair, then game): the round's `games.csv` rows.
    pub games: Vec<BracketGame>,
    /// One summary per level played.
    pub levels: Vec<LevelSummary>,
    /// The round's `rounds.csv` totals; `newcomers` is left 0 for the caller.
    pub stats: RoundStats,
    /// Wins, draws and losses of every specimen of the population (zeros for one that only had
    /// byes), keyed by id.
    pub tallies: BTreeMap<u64, Tally>,
}

/// Plays round `round` over `population` (docs/tournament.md) and reports everything it produced.
///
/// Level by level, the pool (at level 0 the whole population) is shuffled by the
/// `[SHUFFLE, round, level]` stream of `seed` and paired in order; the first of a pair takes
/// Black, and an odd one out gets a bye. The round ends when the pool holds one specimen or no
/// more than `survival_fraction × N`, or after `stall_levels` consecutive levels that eliminated
/// nobody.
///
/// `game` plays one game; the pairs of a level run in parallel on rayon's current pool (the two
/// games of a pair run one after the other), so it must be `Fn + Sync`. Results are collected in
/// pair order, so the outcome does not depend on the thread count. `on_level` is called on the
/// calling thread after each level with what it did; per-game progress can be counted inside
/// `game` itself.
///
/// `cancel` is checked before each game starts: once it is set no game starts, and the round
/// returns `None` (a cancelled round has no result).
pub fn play_round<G>(
    population: &[Specimen],
    round: u32,
    seed: u64,
    params: &TournamentParams,
    cancel: Option<&AtomicBool>,
    game: G,
    mut on_level: impl FnMut(&LevelSummary),
) -> Option<RoundResult>
where
    G: Fn(&GameJob) -> GameReport + Sync,
{
    let n = population.len();
    // The epsilon keeps e.g. 0.29 × 100 = 28.999… at 29.
    let target = (params.survival_fraction * n as f64 + 1e-9)
        .floor()
        .max(0.0) as usize;
    let stall_limit = params.stall_levels.max(1);
    let game = |job: &GameJob| match cancel {
        Some(flag) if flag.load(Ordering::Relaxed) => None,
        _ => Some(game(job)),
    };

    let mut pool: Vec<&Specimen> = population.iter().collect();
    let mut games = Vec::new();
    let mut levels = Vec::new();
    let mut tallies: BTreeMap<u64, Tally> = population
        .iter()
        .map(|s| (s.id, Tally::default()))
        .collect();
    let mut stalled = 0;
    let mut level = 0u32;

    while pool.len() > 1 && pool.len() > target && stalled < stall_limit {
        let mut rng = stream(seed, &[tag::SHUFFLE, u64::from(round), u64::from(level)]);
        pool.shuffle(&mut rng);
        let plays: Vec<PairPlay> = pool
            .par_chunks_exact(2)
            .enumerate()
            .map(|(pair, two)| {
                let job = GameJob {
                    round,
                    level,
                    pair: pair as u32,
                    game: 1,
                    opening: 0,
                    black: two[0],
                    white: two[1],
                };
                match params.pairing_openings {
                    0 | 1 => play_knockout_pair(&game, job),
                    k => play_mini_match(&game, job, k, seed),
                }
            })
            .collect::<Option<_>>()?;
        let bye = pool.chunks_exact(2).remainder().first().copied();

        let mut summary = LevelSummary {
            level,
            pool: pool.len(),
            byes: usize::from(bye.is_some()),
            ..LevelSummary::default()
        };
        let mut next = Vec::with_capacity(pool.len());
        for play in plays {
            if params.pairing_openings > 1 {
                summary
                    .outcomes
                    .record_mini_match(play.outcome, play.games.len() as u64);
            } else {
                summary.outcomes.record(play.outcome);
            }
            next.extend(play.advancing);
            for game in play.games {
                for (id, is_black) in [(game.black, true), (game.white, false)] {
                    let score = GameScore::for_a(game.record.result, is_black);
                    tallies.entry(id).or_default().add(score);
                }
                games.push(game);
            }
        }
        next.extend(bye);
        summary.advanced = next.len();

        if summary.outcomes.eliminated() == 0 {
            stalled += 1;
        } else {
            stalled = 0;
        }
        on_level(&summary);
        levels.push(summary);
        pool = next;
        level += 1;
    }

    let mut survivors: Vec<Specimen> = pool.into_iter().cloned().collect();
    survivors.sort_by_key(|s| s.id);

    let mut stats = RoundStats {
        round,
        population: n as u64,
        levels: level,
        survivors: survivors.len() as u64,
        total_plies: games
            .iter()
            .map(|g: &BracketGame| u64::from(g.record.plies))
            .sum(),
        diversity: diversity(population),
        survivor_diversity: diversity(&survivors),
        ..RoundStats::default()
    };
    for summary in &levels {
        stats.outcomes.add(&summary.outcomes);
        stats.byes += summary.byes as u64;
    }

    Some(RoundResult {
        survivors,
        games,
        levels,
        stats,
        tallies,
    })
}
