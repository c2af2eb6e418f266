//! The round's tests: pairing, byes, rematches, mini-matches, stopping, and the same round on
//! any number of threads.

use std::sync::atomic::AtomicBool;

use checkers_engine::game::{GameRecord, GameResult};

use crate::tournament::settings::TournamentParams;
use crate::tournament::specimen::Specimen;
use crate::tournament::stats::{OutcomeCounts, PairOutcome};

use super::*;
use checkers_engine::game::EndReason;

/// [`play_round`] without cancellation.
fn round<G: Fn(&GameJob) -> GameReport + Sync>(
    pop: &[Specimen],
    number: u32,
    seed: u64,
    params: &TournamentParams,
    game: G,
    on_level: impl FnMut(&LevelSummary),
) -> RoundResult {
    play_round(pop, number, seed, params, None, game, on_level).expect("not cancelled")
}

use checkers_engine::eval::{WeightPair, Weights};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

fn population(n: u64) -> Vec<Specimen> {
    (0..n)
        .map(|id| Specimen {
            id,
            weights: WeightPair {
                opening: Weights([id as i32; 10]),
                endgame: Weights([-(id as i32); 10]),
            },
            extra: None,
            patterns: None,
            tables: None,
            parent_a: None,
            parent_b: None,
            born_round: 0,
            fitted: false,
            search: None,
        })
        .collect()
}

fn report(result: GameResult, plies: u32) -> GameReport {
    GameReport {
        opening: "9-13 22-18 10-14".to_string(),
        record: GameRecord {
            result,
            plies,
            reason: match result {
                GameResult::Draw => EndReason::PlyCap,
                _ => EndReason::NoMoves,
            },
            moves: Vec::new(),
            scores: Vec::new(),
            forfeit: None,
        },
    }
}

/// The higher id wins, whatever the colours.
fn higher_id_wins(job: &GameJob) -> GameReport {
    let result = if job.black.id > job.white.id {
        GameResult::BlackWin
    } else {
        GameResult::WhiteWin
    };
    report(result, 10 + job.black.id as u32)
}

fn all_draws(job: &GameJob) -> GameReport {
    report(GameResult::Draw, 300 + job.game)
}

/// Varied, order-independent results: a mix of all five outcomes.
fn mixed(job: &GameJob) -> GameReport {
    let (b, w) = (job.black.id, job.white.id);
    let h = (b.wrapping_mul(31) ^ w.wrapping_mul(17) ^ u64::from(job.game)) % 5;
    let result = match h {
        0 | 1 => GameResult::Draw,
        2 | 3 => GameResult::BlackWin,
        _ => GameResult::WhiteWin,
    };
    report(result, (b * 7 + w * 3) as u32 % 90 + 20)
}

fn params(survival_fraction: f64, stall_levels: u32) -> TournamentParams {
    TournamentParams {
        survival_fraction,
        stall_levels,
        pairing_openings: 1,
        ..TournamentParams::default()
    }
}

#[test]
fn mini_matches_play_k_openings_with_both_colours_and_send_exactly_one_on() {
    let mini = TournamentParams {
        pairing_openings: 3,
        ..params(0.0, 9)
    };
    for game in [mixed as fn(&GameJob) -> GameReport, all_draws] {
        let pop = population(16);
        let r = round(&pop, 4, 21, &mini, game, |_| {});
        assert_eq!(r.games.len() as u64, r.stats.games());
        assert_eq!(r.stats.outcomes.double_draws, 0, "never both");
        // 16 → 8 → 4 → 2 → 1: every pair eliminates one.
        let advanced: Vec<usize> = r.levels.iter().map(|l| l.advanced).collect();
        assert_eq!(advanced, [8, 4, 2, 1]);
        for level in &r.levels {
            assert_eq!(level.outcomes.games(), 6 * level.outcomes.pairs());
        }
        for pair in r.games.chunks(6) {
            let numbers: Vec<u32> = pair.iter().map(|g| g.game).collect();
            assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
            let (a, b) = (pair[0].black, pair[0].white);
            for g in pair {
                let first_black = g.game % 2 == 1;
                assert_eq!(
                    (g.black, g.white),
                    if first_black { (a, b) } else { (b, a) }
                );
            }
        }
        // The same round again is the same round (the lot included).
        assert_eq!(r, round(&pop, 4, 21, &mini, game, |_| {}));
    }
    // All draws: the lot decides, and it does not always favour the same side.
    let r = round(&population(16), 4, 21, &mini, all_draws, |_| {});
    let o = &r.stats.outcomes;
    assert_eq!(o.draw_then_black_win + o.draw_then_white_win, 15);
    assert!(o.draw_then_black_win > 0 && o.draw_then_white_win > 0);
}

#[test]
fn a_mini_match_goes_to_the_higher_score() {
    // The lower id wins as Black and draws as White: it scores 3 of 4 and goes on.
    fn lower_id_strong(job: &GameJob) -> GameReport {
        let result = if job.black.id < job.white.id {
            GameResult::BlackWin
        } else {
            GameResult::Draw
        };
        report(result, 40)
    }
    let mini = TournamentParams {
        pairing_openings: 2,
        ..params(0.0, 9)
    };
    let r = round(&population(8), 1, 5, &mini, lower_id_strong, |_| {});
    assert_eq!(r.survivors.iter().map(|s| s.id).collect::<Vec<_>>(), [0]);
    let o = &r.stats.outcomes;
    assert_eq!(o.black_wins + o.white_wins, 7);
}

#[test]
fn each_opening_of_a_pair_has_its_own_key_and_the_first_keeps_todays() {
    let pop = population(2);
    let job = GameJob {
        round: 3,
        level: 1,
        pair: 4,
        game: 1,
        opening: 0,
        black: &pop[0],
        white: &pop[1],
    };
    assert_eq!(job.opening_key(), job.pair_key().to_vec());
    let second = GameJob { opening: 1, ..job };
    assert_ne!(second.opening_key(), job.opening_key());
    assert_ne!(second.opening_key(), job.game_key().to_vec());
}

/// The replay-on-draw identities of `rounds.csv` (one opening per pair).
fn check_identities(pop: &[Specimen], r: &RoundResult) {
    let s = &r.stats;
    let o = &s.outcomes;
    assert_eq!(
        s.games(),
        o.black_wins
            + o.white_wins
            + 2 * (o.draw_then_black_win + o.draw_then_white_win + o.double_draws)
    );
    assert_eq!(r.games.len() as u64, s.games());
    assert_eq!(s.levels as usize, r.levels.len());
    assert_eq!(s.population, pop.len() as u64);
    assert_eq!(s.survivors, r.survivors.len() as u64);
    // Every game counts once for each side.
    let wins: u64 = r.tallies.values().map(|t| t.wins).sum();
    let draws: u64 = r.tallies.values().map(|t| t.draws).sum();
    assert_eq!(wins, r.tallies.values().map(|t| t.losses).sum::<u64>());
    assert_eq!(wins + draws / 2, s.games());
    // Levels chain: each one's advancers are the next one's pool.
    for pair in r.levels.windows(2) {
        assert_eq!(pair[0].advanced, pair[1].pool);
    }
    let ids: Vec<u64> = r.survivors.iter().map(|s| s.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
}

#[test]
fn odd_pool_gives_a_bye_each_level() {
    // 7 specimens, decisive games: 7 → 4 (3 winners + bye) → 2 → 1.
    let pop = population(7);
    let mut seen = Vec::new();
    let r = round(&pop, 0, 5, &params(0.0, 2), higher_id_wins, |l| {
        seen.push(*l)
    });
    check_identities(&pop, &r);
    assert_eq!(seen, r.levels, "callback sees every level");
    let pools: Vec<usize> = r.levels.iter().map(|l| l.pool).collect();
    assert_eq!(pools, [7, 4, 2]);
    let byes: Vec<usize> = r.levels.iter().map(|l| l.byes).collect();
    assert_eq!(byes, [1, 0, 0]);
    assert_eq!(r.stats.byes, 1);
    assert_eq!(r.stats.games(), 3 + 2 + 1);
    assert_eq!(r.survivors.len(), 1);
    assert_eq!(r.survivors[0].id, 6, "the strongest cannot lose");
    // The bye is the specimen missing from level 0's games, and it reaches level 1.
    let played: BTreeSet<u64> = r
        .games
        .iter()
        .filter(|g| g.level == 0)
        .flat_map(|g| [g.black, g.white])
        .collect();
    assert_eq!(played.len(), 6);
    let bye = (0..7).find(|id| !played.contains(id)).unwrap();
    assert!(r
        .games
        .iter()
        .any(|g| g.level == 1 && (g.black == bye || g.white == bye)));
    assert!(r.tallies[&bye].wins + r.tallies[&bye].losses > 0);
    assert_eq!(r.tallies.len(), 7);
}

#[test]
fn a_draw_brings_a_rematch_with_colours_switched_and_all_five_outcomes_count() {
    // Scripted by (black, white, game): pairs are found from the ids of game 1.
    // Pair (0,1) or (1,0): first game decisive for Black.
    // Pair with {2,3}: first game decisive for White.
    // Pair with {4,5}: draw, then Black (the second of the pair) wins.
    // Pair with {6,7}: draw, then White (the first of the pair) wins.
    // Pair with {8,9}: two draws.
    let script = |job: &GameJob| {
        let group = job.black.id / 2;
        assert_eq!(
            job.white.id / 2,
            group,
            "pairs are fixed by the test's ordering"
        );
        let result = match (group, job.game) {
            (0, 1) => GameResult::BlackWin,
            (1, 1) => GameResult::WhiteWin,
            (2, 1) | (3, 1) | (4, _) => GameResult::Draw,
            (2, 2) => GameResult::BlackWin,
            (3, 2) => GameResult::WhiteWin,
            other => panic!("unexpected game {other:?}"),
        };
        report(result, 40)
    };
    // To pair 2k with 2k+1 whatever the shuffle, each pair plays its own two-specimen round.
    let pop = population(10);
    let mut totals = OutcomeCounts::default();
    let mut rows = Vec::new();
    for k in 0..5 {
        let two = &pop[2 * k..2 * k + 2];
        let r = round(two, k as u32, 1, &params(0.5, 1), script, |_| {});
        check_identities(two, &r);
        totals.add(&r.stats.outcomes);
        rows.push(r);
    }
    assert_eq!(
        totals,
        OutcomeCounts {
            black_wins: 1,
            white_wins: 1,
            draw_then_black_win: 1,
            draw_then_white_win: 1,
            double_draws: 1,
            games: 8,
        }
    );
    // Rematches switch colours.
    for r in &rows[2..] {
        assert_eq!(r.games.len(), 2);
        let (g1, g2) = (&r.games[0], &r.games[1]);
        assert_eq!((g1.game, g2.game), (1, 2));
        assert_eq!((g1.black, g1.white), (g2.white, g2.black));
    }
    // Winners: game 1's Black, game 1's White, game 2's Black, game 2's White, both.
    let winners: Vec<Vec<u64>> = rows
        .iter()
        .map(|r| r.survivors.iter().map(|s| s.id).collect())
        .collect();
    let g = |k: usize, n: usize| &rows[k].games[n];
    assert_eq!(winners[0], [g(0, 0).black]);
    assert_eq!(winners[1], [g(1, 0).white]);
    assert_eq!(winners[2], [g(2, 1).black]);
    assert_eq!(winners[3], [g(3, 1).white]);
    assert_eq!(winners[4], [8, 9], "a double draw sends both on");
    let t = &rows[2].tallies[&g(2, 1).black];
    assert_eq!((t.wins, t.draws, t.losses), (1, 1, 0));
}

#[test]
fn mixed_level_counts_each_outcome() {
    // One level of 20 with mixed results; the level's counts match the games themselves.
    let pop = population(20);
    let r = round(&pop, 2, 77, &params(0.0, 5), mixed, |_| {});
    check_identities(&pop, &r);
    let level0: Vec<&BracketGame> = r.games.iter().filter(|g| g.level == 0).collect();
    let mut expect = OutcomeCounts::default();
    for pair in 0..10 {
        let gs: Vec<&&BracketGame> = level0.iter().filter(|g| g.pair == pair).collect();
        let outcome = match (gs[0].record.result, gs.get(1).map(|g| g.record.result)) {
            (GameResult::BlackWin, None) => PairOutcome::BlackWin,
            (GameResult::WhiteWin, None) => PairOutcome::WhiteWin,
            (GameResult::Draw, Some(GameResult::BlackWin)) => PairOutcome::DrawThenBlackWin,
            (GameResult::Draw, Some(GameResult::WhiteWin)) => PairOutcome::DrawThenWhiteWin,
            (GameResult::Draw, Some(GameResult::Draw)) => PairOutcome::DoubleDraw,
            other => panic!("impossible pair {other:?}"),
        };
        expect.record(outcome);
    }
    assert_eq!(r.levels[0].outcomes, expect);
    assert_eq!(expect.pairs(), 10);
    assert_eq!(r.levels[0].advanced as u64, 10 + expect.double_draws);
}

#[test]
fn double_draws_send_both_on_and_all_draws_stall_the_round() {
    let pop = population(9);
    let r = round(&pop, 1, 3, &params(0.2, 2), all_draws, |_| {});
    check_identities(&pop, &r);
    assert_eq!(
        r.stats.levels, 2,
        "two levels without elimination end the round"
    );
    assert_eq!(r.survivors, pop, "everyone survives");
    assert_eq!(r.stats.outcomes.double_draws, 8);
    assert_eq!(r.stats.byes, 2);
    assert_eq!(r.stats.games(), 16);
    assert_eq!(r.stats.mean_plies(), 301.5);
    for t in r.tallies.values() {
        assert_eq!((t.wins, t.losses), (0, 0));
    }
    let r3 = round(&pop, 1, 3, &params(0.2, 3), all_draws, |_| {});
    assert_eq!(r3.stats.levels, 3);
}

#[test]
fn survivors_are_at_most_the_fraction() {
    for (n, fraction) in [(100, 0.2), (37, 0.2), (10, 0.3), (64, 0.25), (5, 0.0)] {
        let pop = population(n);
        for game in [higher_id_wins as fn(&GameJob) -> GameReport, mixed] {
            let r = round(&pop, 4, 9, &params(fraction, 2), game, |_| {});
            check_identities(&pop, &r);
            let limit = (fraction * n as f64 + 1e-9).floor() as usize;
            if r.levels.last().map(|l| l.outcomes.eliminated()) != Some(0) {
                assert!(
                    r.survivors.len() <= limit.max(1),
                    "n {n}: {} survivors",
                    r.survivors.len()
                );
            }
            // The last level was only played because its pool was above the limit.
            if let Some(last) = r.levels.last() {
                assert!(last.pool > limit);
            }
        }
    }
    // With decisive games each level halves the pool: 100 → 50 → 25 → 13 (12 + bye).
    let pop = population(100);
    let r = round(&pop, 0, 1, &params(0.2, 2), higher_id_wins, |_| {});
    assert_eq!(r.stats.levels, 3);
    assert_eq!(r.survivors.len(), 13);
    assert!(r.survivors.iter().any(|s| s.id == 99));
    // A pool of one, or a fraction of 1, plays nothing.
    let r = round(&pop[..1], 0, 1, &params(0.0, 2), higher_id_wins, |_| {});
    assert_eq!((r.stats.levels, r.survivors.len()), (0, 1));
    let r = round(&pop, 0, 1, &params(1.0, 2), higher_id_wins, |_| {});
    assert_eq!((r.stats.levels, r.survivors.len()), (0, 100));
}

#[test]
fn a_cancelled_round_starts_no_game_and_has_no_result() {
    let stop = AtomicBool::new(true);
    let calls = AtomicUsize::new(0);
    let game = |job: &GameJob| {
        calls.fetch_add(1, Ordering::Relaxed);
        higher_id_wins(job)
    };
    let r = play_round(
        &population(8),
        1,
        1,
        &params(0.2, 2),
        Some(&stop),
        game,
        |_| {},
    );
    assert_eq!(r, None);
    assert_eq!(calls.load(Ordering::Relaxed), 0);
}

#[test]
fn shuffle_depends_on_seed_and_round() {
    let pop = population(16);
    let first_pairs = |number, seed| {
        let r = round(&pop, number, seed, &params(0.5, 2), higher_id_wins, |_| {});
        r.games
            .iter()
            .map(|g| (g.black, g.white))
            .collect::<Vec<_>>()
    };
    assert_eq!(first_pairs(1, 1), first_pairs(1, 1));
    assert_ne!(first_pairs(1, 1), first_pairs(2, 1));
    assert_ne!(first_pairs(1, 1), first_pairs(1, 2));
}

#[test]
fn thread_count_does_not_change_the_round() {
    let pop = population(45);
    let calls = AtomicUsize::new(0);
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                round(
                    &pop,
                    3,
                    2024,
                    &params(0.2, 2),
                    |job: &GameJob| {
                        calls.fetch_add(1, Ordering::Relaxed);
                        mixed(job)
                    },
                    |_| {},
                )
            })
    };
    let one = run(1);
    let games_one = calls.swap(0, Ordering::Relaxed);
    let two = run(2);
    assert_eq!(one, two);
    assert_eq!(games_one as u64, one.stats.games());
    assert_eq!(calls.load(Ordering::Relaxed) as u64, two.stats.games());
    check_identities(&pop, &one);
    assert!(one.stats.levels >= 2, "several levels exercised");
}

#[test]
fn game_rows_format_for_csv() {
    let pop = population(2);
    let r = round(&pop, 7, 1, &params(0.0, 2), all_draws, |_| {});
    let row = r.games[1].to_csv_record();
    assert_eq!(row.len(), BracketGame::csv_header().len());
    assert_eq!(row[..4], ["7", "0", "0", "2"]);
    assert_eq!(row[6..], ["9-13 22-18 10-14", "draw", "302", "ply_cap", ""]);
    let job = GameJob {
        round: 7,
        level: 1,
        pair: 3,
        game: 2,
        opening: 0,
        black: &pop[0],
        white: &pop[1],
    };
    assert_eq!(job.game_key()[..4], job.pair_key());
    assert_eq!(job.game_key()[4], 2);
}
