//! Tests of the rating list against hand-computed cases.

use super::super::testing::close;
use super::*;

/// `games` games of `black` against `white`, Black scoring each of `points` in turn.
fn games(black: usize, white: usize, points: &[f64]) -> Vec<RatedGame> {
    (points.iter())
        .map(|&black_points| RatedGame {
            black,
            white,
            black_points,
        })
        .collect()
}

/// 400·log10(3): the Elo of a 75% score.
const ELO_75: f64 = 190.848_501_887_864_97;

#[test]
fn two_players_three_quarters_with_both_colours() {
    // A scores W and D with Black and with White: 3/4, no colour effect.
    let mut all = games(0, 1, &[1.0, 0.5]);
    all.extend(games(1, 0, &[0.0, 0.5]));
    let list = rating_list(2, 0, &all);
    close(list.advantage, 0.0, 1e-9);
    let [a, b] = [&list.ratings[0], &list.ratings[1]];
    assert_eq!((a.player, b.player), (0, 1));
    close(a.elo, 0.0, 0.0);
    close(b.elo, -ELO_75, 1e-9);
    assert_eq!((a.games, a.points, b.points), (4, 3.0, 1.0));
    // Information of B's rating: 4 games × k²·p(1−p), p = 3/4; the advantage's cross term
    // cancels (two games each way), so Var = 1/(0.75·k²).
    let k = std::f64::consts::LN_10 / 400.0;
    let sd = 1.0 / (k * 0.75f64.sqrt());
    close(b.margin, 1.959_963_984_540_054 * sd, 1e-9);
    assert_eq!(a.margin, 0.0);
    close(a.los_next.unwrap(), normal_cdf(ELO_75 / sd), 1e-12);
    assert_eq!(b.los_next, None);
}

#[test]
fn three_players_consistent_scores_are_fitted_exactly() {
    // A–B and B–C at 3/4, A–C at 9/10 = σ(2·ELO_75): the model fits every pair exactly.
    let mut all = Vec::new();
    for (x, y) in [(0, 1), (1, 2)] {
        all.extend(games(x, y, &[1.0, 0.5]));
        all.extend(games(y, x, &[0.0, 0.5]));
    }
    all.extend(games(0, 2, &[1.0, 1.0, 1.0, 1.0, 0.5]));
    all.extend(games(2, 0, &[0.0, 0.0, 0.0, 0.0, 0.5]));
    let list = rating_list(3, 0, &all);
    let elos: Vec<(usize, f64)> = list.ratings.iter().map(|r| (r.player, r.elo)).collect();
    assert_eq!(elos.iter().map(|e| e.0).collect::<Vec<_>>(), [0, 1, 2]);
    close(elos[1].1, -ELO_75, 1e-9);
    close(elos[2].1, -2.0 * ELO_75, 1e-9);
    close(list.advantage, 0.0, 1e-9);
    // Anchored on C instead: the same differences.
    let on_c = rating_list(3, 2, &all);
    close(on_c.ratings[0].elo, 2.0 * ELO_75, 1e-9);
    close(on_c.ratings[2].elo, 0.0, 0.0);
    // B sits between: more sure to be below A than nothing, LOS above ½ for both neighbours.
    assert!(list
        .ratings
        .iter()
        .filter_map(|r| r.los_next)
        .all(|l| l > 0.5));
}

#[test]
fn the_colour_advantage_is_estimated() {
    // Black scores 3/4 whoever has it: equal players, Black's advantage is a 75% score.
    let mut all = games(0, 1, &[1.0, 0.5]);
    all.extend(games(1, 0, &[1.0, 0.5]));
    let list = rating_list(2, 0, &all);
    close(list.ratings[1].elo, 0.0, 1e-9);
    close(list.advantage, ELO_75, 1e-9);
    close(list.ratings[0].los_next.unwrap(), 0.5, 1e-9);
}

#[test]
fn a_perfect_score_is_unbounded_and_first() {
    let all = [games(0, 1, &[1.0, 1.0]), games(1, 0, &[0.0, 0.0])].concat();
    let list = rating_list(2, 1, &all);
    let first = &list.ratings[0];
    assert_eq!(first.player, 0);
    assert_eq!((first.elo, first.margin), (f64::INFINITY, f64::INFINITY));
    assert_eq!(first.los_next, Some(1.0));
    assert_eq!((list.ratings[1].elo, list.ratings[1].margin), (0.0, 0.0));
}

#[test]
fn a_null_score_is_unbounded_below_and_the_others_stay_finite() {
    // A and B split their games with both colours; C loses all eight of its games.
    let mut all = games(0, 1, &[1.0, 0.5, 0.0]);
    all.extend(games(1, 0, &[1.0, 0.5, 0.0]));
    for x in [0, 1] {
        all.extend(games(x, 2, &[1.0, 1.0]));
        all.extend(games(2, x, &[0.0, 0.0]));
    }
    let list = rating_list(3, 0, &all);
    let players: Vec<usize> = list.ratings.iter().map(|r| r.player).collect();
    assert_eq!(players, [0, 1, 2]);
    let last = &list.ratings[2];
    assert_eq!((last.elo, last.margin), (f64::NEG_INFINITY, f64::INFINITY));
    assert_eq!((last.games, last.points, last.los_next), (8, 0.0, None));
    // A and B's 6 games between them, even with both colours, bound B as two players alone.
    let b = &list.ratings[1];
    close(b.elo, 0.0, 1e-6);
    let rest = rating_list(2, 0, &all[..6]);
    close(b.margin, rest.ratings[1].margin, 1e-3);
    assert!(b.margin.is_finite() && b.margin < 1000.0, "{}", b.margin);
    assert!(list.ratings[0].margin == 0.0);
    // B took points from C, C never from B: B is surely the stronger.
    assert_eq!(b.los_next, Some(1.0));
    close(list.ratings[0].los_next.unwrap(), 0.5, 1e-6);
    assert!(list.advantage.is_finite() && list.advantage_margin.is_finite());
    // Anchored on C instead, A and B are unbounded above.
    let on_c = rating_list(3, 2, &all);
    assert!(on_c.ratings[..2]
        .iter()
        .all(|r| r.elo == f64::INFINITY && r.margin == f64::INFINITY));
    assert_eq!(on_c.ratings[2].elo, 0.0);
}

#[test]
fn a_player_without_games_is_unbounded_both_ways() {
    let all = [games(0, 1, &[1.0, 0.5]), games(1, 0, &[1.0, 0.5])].concat();
    let list = rating_list(3, 0, &all);
    let c = list.ratings.iter().find(|r| r.player == 2).unwrap();
    assert!(c.elo.is_finite() && c.margin == f64::INFINITY);
}
