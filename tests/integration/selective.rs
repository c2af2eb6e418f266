//! The selective search (`[search] mode = "selective"`) against the exact one, on positions
//! where they must agree: database positions, forced captures, forced wins and losses; and its
//! determinism at a fixed depth and a fixed node budget.

use std::sync::OnceLock;

use checkers_engine::board::Position;
use checkers_engine::egdb::{build as build_endgame_db, DbValue, EndgameDb};
use checkers_engine::eval::Weights;
use checkers_engine::search::{
    GameHistory, SearchBudget, SearchLimits, Searcher, SelectiveParams, WIN,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BENCH_LIKE: Weights = Weights([100, 150, 10, 5, 8, 12, -3, 6, 4, 9]);

/// The four-piece database, built once for this test binary (in memory).
fn db4() -> &'static EndgameDb {
    static DB: OnceLock<&'static EndgameDb> = OnceLock::new();
    DB.get_or_init(|| build_endgame_db(4, &|_| {}).unwrap().leak())
}

/// Every feature on (the defaults), then each feature alone, so a failure names the feature.
fn variants() -> Vec<(&'static str, SelectiveParams)> {
    let none = SelectiveParams {
        lmr_reduction: 0,
        futility_depth: 0,
        futility_margin: 0,
        pv_extension: false,
        recapture_extension: false,
        history: false,
        aspiration: 0,
        ..SelectiveParams::DEFAULT
    };
    let d = SelectiveParams::DEFAULT;
    vec![
        ("all", d),
        ("pvs only", none),
        (
            "lmr",
            SelectiveParams {
                lmr_reduction: 2,
                lmr_depth: 2,
                lmr_moves: 1,
                ..none
            },
        ),
        (
            "truncation",
            SelectiveParams {
                futility_depth: 3,
                futility_margin: 20,
                ..none
            },
        ),
        (
            "pv extension",
            SelectiveParams {
                pv_extension: true,
                ..none
            },
        ),
        (
            "recapture extension",
            SelectiveParams {
                recapture_extension: true,
                ..none
            },
        ),
        (
            "history",
            SelectiveParams {
                history: true,
                ..none
            },
        ),
        (
            "aspiration",
            SelectiveParams {
                aspiration: 10,
                ..none
            },
        ),
    ]
}

fn selective(params: SelectiveParams) -> Searcher {
    let mut s = Searcher::default();
    s.set_selective(Some(params));
    s
}

/// A random legal position with `black` and `white` pieces (kings with probability 1/2).
fn random_small(black: u32, white: u32, rng: &mut ChaCha8Rng) -> Position {
    loop {
        let mut squares: Vec<u32> = (0..32).collect();
        squares.shuffle(rng);
        let (mut b, mut w, mut k) = (0u32, 0u32, 0u32);
        for (i, &sq) in squares[..(black + white) as usize].iter().enumerate() {
            let bit = 1u32 << sq;
            if (i as u32) < black {
                b |= bit;
            } else {
                w |= bit;
            }
            if rng.gen_bool(0.5) {
                k |= bit;
            }
        }
        let side = if rng.gen_bool(0.5) {
            checkers_engine::board::Color::Black
        } else {
            checkers_engine::board::Color::White
        };
        if let Ok(pos) = Position::from_parts(b, w, k, side) {
            if !pos.legal_moves().is_empty() {
                return pos;
            }
        }
    }
}

/// Positions of a random game from the start, `plies` long at most.
fn random_game(plies: usize, rng: &mut ChaCha8Rng) -> Vec<Position> {
    let mut pos = Position::start();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        out.push(pos);
        pos = pos.play(&moves[rng.gen_range(0..moves.len())]);
    }
    out
}

#[test]
fn with_the_database_every_feature_finds_the_exact_searchs_value() {
    // Every child of a root of at most four pieces is in the database: both searches must
    // give the database's best value, whatever they prune or extend.
    let db = db4();
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let positions: Vec<Position> = (0..60)
        .map(|i| random_small(1 + i % 2, 1 + (i / 2) % 2, &mut rng))
        .collect();
    let mut exact = Searcher::default();
    exact.set_endgame_db(Some(db));
    let depths = [2, 5];
    let wanted: Vec<Vec<i32>> = positions
        .iter()
        .map(|pos| {
            depths
                .iter()
                .map(|&d| {
                    let limits = SearchLimits::new(d, d + 4);
                    exact.search(pos, &BENCH_LIKE, limits, None).score
                })
                .collect()
        })
        .collect();
    for (name, params) in variants() {
        let mut sel = selective(params);
        sel.set_endgame_db(Some(db));
        for (pos, want) in positions.iter().zip(&wanted) {
            for (&depth, &want) in depths.iter().zip(want) {
                let got = sel.search(pos, &BENCH_LIKE, SearchLimits::new(depth, depth + 4), None);
                let fen = pos.to_fen();
                assert_eq!(got.score, want, "{name}: {fen} at depth {depth}");
                // The chosen move reaches that value: the database's value of the child, one
                // ply further.
                let child = pos.play(&got.best_move.unwrap());
                let value = match db.probe(&child) {
                    _ if child.legal_moves().is_empty() => WIN - 1,
                    Some(DbValue::Win(d)) => -(WIN - 1 - d as i32),
                    Some(DbValue::Loss(d)) => WIN - 1 - d as i32,
                    Some(DbValue::Draw) => 0,
                    None => panic!("{fen}: child not in the database"),
                };
                assert_eq!(
                    got.score,
                    value,
                    "{name}: {fen} move {}",
                    got.best_move.unwrap()
                );
            }
        }
    }
}

#[test]
fn a_forced_capture_is_played_and_its_value_agrees_when_nothing_else_is_legal() {
    // Positions of random games where the side to move has exactly one move, a capture: both
    // searches play it, and at depth 1 (the capture line followed to the end, no quiet node to
    // prune) they agree on its value too.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut checked = 0;
    for _ in 0..60 {
        for pos in random_game(80, &mut rng) {
            let moves = pos.legal_moves();
            if moves.len() != 1 || !moves[0].is_capture() {
                continue;
            }
            checked += 1;
            for (name, params) in variants() {
                let limits = SearchLimits::new(1, 12);
                let want = Searcher::default().search(&pos, &BENCH_LIKE, limits, None);
                let got = selective(params).search(&pos, &BENCH_LIKE, limits, None);
                assert_eq!(got.best_move, Some(moves[0]), "{name}: {}", pos.to_fen());
                assert_eq!(got.score, want.score, "{name}: {}", pos.to_fen());
                let deeper =
                    selective(params).search(&pos, &BENCH_LIKE, SearchLimits::new(6, 12), None);
                assert_eq!(deeper.best_move, Some(moves[0]), "{name}: {}", pos.to_fen());
            }
        }
    }
    assert!(checked >= 20, "only {checked} forced captures");
}

#[test]
fn a_pending_capture_is_never_truncated_or_reduced() {
    // At depth 1 with every capture sequence followed, a root whose side to move must capture
    // has only capture children and capture grandchildren until the line goes quiet: the
    // selective search (with truncation at every depth and the widest reductions) must give
    // the exact value on every such position.
    let harsh = SelectiveParams {
        lmr_depth: 1,
        lmr_moves: 1,
        lmr_reduction: 4,
        futility_depth: 8,
        futility_margin: 1,
        ..SelectiveParams::DEFAULT
    };
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut checked = 0;
    for _ in 0..40 {
        for pos in random_game(60, &mut rng) {
            if pos.jumpers() == 0 {
                continue;
            }
            checked += 1;
            let limits = SearchLimits::new(1, 14);
            let want = Searcher::default().search(&pos, &BENCH_LIKE, limits, None);
            let got = selective(harsh).search(&pos, &BENCH_LIKE, limits, None);
            assert_eq!(got.score, want.score, "{}", pos.to_fen());
        }
    }
    assert!(checked >= 50, "only {checked} capture positions");
}

#[test]
fn forced_wins_and_losses_are_found() {
    // Positions of random games where the exact search proves a result within 7 plies: the
    // selective search (every feature on, and each alone) proves the same result, a win where
    // the exact search finds a win (perhaps a longer one), a loss where it finds a loss. A
    // reduced move needs more nominal depth to be proven, so the selective search gets twice
    // the depth and two plies more (with the defaults' two-ply reductions beside truncation,
    // the loss in 8 of `B:WK11,16,19:BK25` is proven at 16, not at 14); truncation never cuts
    // a window near a won or lost score.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut found = [0, 0];
    for _ in 0..40 {
        for pos in random_game(120, &mut rng).into_iter().skip(20) {
            let exact =
                Searcher::default().search(&pos, &BENCH_LIKE, SearchLimits::new(7, 13), None);
            let Some(distance) = exact.mate_distance() else {
                continue;
            };
            found[(distance < 0) as usize] += 1;
            for (name, params) in variants() {
                let got =
                    selective(params).search(&pos, &BENCH_LIKE, SearchLimits::new(16, 22), None);
                let plies = got.mate_distance();
                assert!(
                    plies.is_some_and(|p| p.signum() == distance.signum()),
                    "{name}: {} exact {distance}, selective {:?} (score {})",
                    pos.to_fen(),
                    plies,
                    got.score
                );
                if distance > 0 {
                    // The move it chose still wins.
                    let child = pos.play(&got.best_move.unwrap());
                    let reply = Searcher::default().search(
                        &child,
                        &BENCH_LIKE,
                        SearchLimits::new(8, 14),
                        None,
                    );
                    assert!(
                        child.legal_moves().is_empty()
                            || reply.mate_distance().is_some_and(|p| p < 0),
                        "{name}: {} plays {}",
                        pos.to_fen(),
                        got.best_move.unwrap()
                    );
                }
            }
        }
    }
    assert!(
        found[0] >= 5 && found[1] >= 5,
        "wins and losses found: {found:?}"
    );
}

#[test]
fn a_fixed_depth_or_node_budget_gives_the_same_answer_every_time_and_on_every_thread() {
    let fens = [
        "B:W21-32:B1-12",
        "B:W17,19,21,22,24,25,26,27,28,30,31:B1,2,3,5,6,7,8,10,11,14,15",
        "W:WK10,K19,27,29:BK14,K23,3,6",
        "W:W18,19,22,25,26,29,30,31:B1,2,5,6,9,10,12,15",
    ];
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let run = |positions: &[Position]| {
        let mut searcher = selective(SelectiveParams::DEFAULT);
        let mut out = Vec::new();
        for pos in positions {
            out.push(searcher.search(pos, &BENCH_LIKE, SearchLimits::new(14, 20), None));
            let budget = SearchBudget {
                nodes: Some(30_000),
                ..SearchBudget::depth(40, 6)
            };
            out.push(searcher.search_timed(pos, &GameHistory::NONE, &BENCH_LIKE, &budget, |_| {}));
        }
        out
    };
    let one = run(&positions);
    // A searcher that searched something else first, with the positions in another order.
    let mut reversed: Vec<Position> = positions.clone();
    reversed.reverse();
    let mut other = run(&reversed);
    other.reverse();
    let pairs: Vec<_> = other
        .chunks(2)
        .map(|c| [c[1].clone(), c[0].clone()])
        .collect();
    let other: Vec<_> = pairs.into_iter().flatten().collect();
    assert_eq!(one, other);
    // Two threads at once.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| run(&positions));
        let b = s.spawn(|| run(&positions));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(one, a);
    assert_eq!(one, b);
    // The budget ends the search (or a proven result does, before it).
    for r in one.iter().skip(1).step_by(2) {
        assert!(r.nodes <= 30_000, "{} nodes", r.nodes);
    }
    assert_eq!(one[1].nodes, 30_000);
}

#[test]
fn the_exact_search_is_back_once_the_mode_is_switched_off() {
    let pos = Position::from_fen("B:W17,19,21,22,24,25,26,27,28,30,31:B1,2,3,5,6,7,8,10,11,14,15")
        .unwrap();
    let limits = SearchLimits::new(7, 13);
    let want = Searcher::default().search(&pos, &BENCH_LIKE, limits, None);
    let mut s = selective(SelectiveParams::DEFAULT);
    s.search(&pos, &BENCH_LIKE, limits, None);
    s.set_selective(None);
    assert_eq!(s.selective(), None);
    assert_eq!(s.search(&pos, &BENCH_LIKE, limits, None), want);
}

#[test]
fn random_tie_breaks_give_a_legal_move_and_the_same_one_for_the_same_seed() {
    // The selective value depends on the window (ties are searched with a lower one), so only
    // legality and repeatability are promised.
    let pos = Position::start();
    let limits = SearchLimits::new(6, 12);
    for seed in 0..5 {
        let search = || {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            selective(SelectiveParams::DEFAULT).search(&pos, &BENCH_LIKE, limits, Some(&mut rng))
        };
        let got = search();
        assert!(pos.legal_moves().contains(&got.best_move.unwrap()));
        assert_eq!(got, search());
    }
}
