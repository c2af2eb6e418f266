//! The budgeted search (iterative deepening against a deadline, a node budget or a stop flag)
//! against the fixed-depth search.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use checkers_engine::board::Position;
use checkers_engine::eval::{WeightPair, Weights};
use checkers_engine::search::{GameHistory, SearchBudget, SearchLimits, Searcher, SelectiveParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BENCH_LIKE: Weights = Weights([100, 150, 10, 5, 8, 12, -3, 6, 4, 9]);

const POSITIONS: [&str; 5] = [
    "B:W21-32:B1-12",
    "B:W17,19,21,22,24,25,26,27,28,30,31:B1,2,3,5,6,7,8,10,11,14,15",
    "W:WK10,K19,27,29:BK14,K23,3,6",
    "B:W25,27,31:B3,9,14,17",
    "W:W18,19,22,25,26,29,30,31:B1,2,5,6,9,10,12,15",
];

#[test]
fn iterative_deepening_to_depth_d_equals_the_fixed_depth_search_at_d() {
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        for depth in [1, 3, 6, 8] {
            let fixed = Searcher::default().search(
                &pos,
                &BENCH_LIKE,
                SearchLimits::new(depth, depth + 6),
                None,
            );
            let mut reports = Vec::new();
            let timed = Searcher::default().search_timed(
                &pos,
                &GameHistory::NONE,
                &BENCH_LIKE,
                &SearchBudget::depth(depth, 6),
                |r| reports.push(r.depth),
            );
            assert_eq!(timed.score, fixed.score, "{fen} depth {depth}");
            assert_eq!(timed.best_move, fixed.best_move, "{fen} depth {depth}");
            assert_eq!(timed.pv, fixed.pv, "{fen} depth {depth}");
            if fixed.mate_distance().is_none() {
                assert_eq!(timed.depth, depth);
                assert_eq!(timed.nodes, fixed.nodes, "{fen} depth {depth}");
                assert_eq!(reports, (1..=depth).collect::<Vec<_>>());
            }
        }
    }
}

#[test]
fn a_searcher_reused_between_fixed_and_timed_searches_gives_the_same_answers() {
    let pos = Position::from_fen(POSITIONS[1]).unwrap();
    let mut searcher = Searcher::default();
    let first = searcher.search(&pos, &BENCH_LIKE, SearchLimits::new(7, 13), None);
    let timed = searcher.search_timed(
        &pos,
        &GameHistory::NONE,
        &BENCH_LIKE,
        &SearchBudget::depth(7, 6),
        |_| {},
    );
    let again = searcher.search(&pos, &BENCH_LIKE, SearchLimits::new(7, 13), None);
    assert_eq!(first, again);
    assert_eq!(
        (timed.score, timed.best_move),
        (first.score, first.best_move)
    );
}

#[test]
fn a_node_budget_search_is_deterministic_and_keeps_to_its_budget() {
    let pos = Position::start();
    let budget = SearchBudget {
        nodes: Some(50_000),
        ..SearchBudget::depth(40, 6)
    };
    let a =
        Searcher::default().search_timed(&pos, &GameHistory::NONE, &BENCH_LIKE, &budget, |_| {});
    let mut searcher = Searcher::default();
    // A searcher that searched something else before answers the same.
    searcher.search(&pos, &Weights::material(), SearchLimits::new(5, 9), None);
    let b = searcher.search_timed(&pos, &GameHistory::NONE, &BENCH_LIKE, &budget, |_| {});
    assert_eq!(a, b);
    assert!(a.depth >= 3 && a.depth < 40, "depth {}", a.depth);
    // The budget cut the search at exactly 50 000 nodes.
    assert_eq!(a.nodes, 50_000);
    assert!(pos.legal_moves().contains(&a.best_move.unwrap()));
    // The answer is the fixed-depth search's at the last finished depth.
    let fixed = Searcher::default().search(
        &pos,
        &BENCH_LIKE,
        SearchLimits::new(a.depth, a.depth + 6),
        None,
    );
    assert_eq!((a.score, a.best_move), (fixed.score, fixed.best_move));
}

#[test]
fn a_deadline_search_returns_a_legal_move_in_time() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        for millis in [1u64, 20, 100] {
            let started = Instant::now();
            let budget = SearchBudget {
                deadline: Some(started + Duration::from_millis(millis)),
                ..SearchBudget::depth(60, rng.gen_range(0..8))
            };
            let found = Searcher::default().search_timed(
                &pos,
                &GameHistory::NONE,
                &WeightPair::material().opening,
                &budget,
                |_| {},
            );
            let elapsed = started.elapsed();
            assert!(pos.legal_moves().contains(&found.best_move.unwrap()));
            assert!(found.depth >= 1);
            // The budget is looked at every 1024 nodes: far less than 200 ms past the deadline.
            assert!(
                elapsed < Duration::from_millis(millis + 200),
                "{fen}: {elapsed:?} for a {millis} ms budget"
            );
        }
    }
}

#[test]
fn a_stop_flag_ends_an_infinite_search_from_another_thread() {
    let pos = Position::start();
    let stop = Arc::new(AtomicBool::new(false));
    let budget = SearchBudget {
        stop: Some(Arc::clone(&stop)),
        ..SearchBudget::depth(60, 6)
    };
    let stopper = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    let started = Instant::now();
    let found =
        Searcher::default().search_timed(&pos, &GameHistory::NONE, &BENCH_LIKE, &budget, |_| {});
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(pos.legal_moves().contains(&found.best_move.unwrap()));
    assert!(found.depth < 60);
}

#[test]
fn a_proven_win_ends_the_deepening_and_no_move_means_no_answer() {
    // Black to move wins at once by taking White's last piece.
    let pos = Position::from_fen("B:W18:B14").unwrap();
    let found = Searcher::default().search_timed(
        &pos,
        &GameHistory::NONE,
        &BENCH_LIKE,
        &SearchBudget::depth(60, 6),
        |_| {},
    );
    assert_eq!(found.best_move.unwrap().to_string(), "14x23");
    assert_eq!(found.mate_distance(), Some(1));
    assert!(found.depth <= 2, "depth {}", found.depth);
    let lost = Position::from_fen("W:W:B14").unwrap();
    let none = Searcher::default().search_timed(
        &lost,
        &GameHistory::NONE,
        &BENCH_LIKE,
        &SearchBudget::depth(5, 0),
        |_| panic!("no iteration to report"),
    );
    assert_eq!(none.best_move, None);
}

#[test]
fn under_a_time_target_the_only_legal_move_is_played_after_one_iteration() {
    // Black must take 14x23 (and on); White keeps five pieces, so nothing is decided.
    let pos = Position::from_fen("B:W18,21,22,25,29,30:B1,2,14").unwrap();
    assert_eq!(pos.legal_moves().len(), 1);
    for selective in [None, Some(SelectiveParams::default())] {
        let mut searcher = Searcher::default();
        searcher.set_selective(selective);
        let budget = SearchBudget::average_time(Duration::from_secs(600), 6, Instant::now());
        let mut depths = Vec::new();
        let found = searcher.search_timed(&pos, &GameHistory::NONE, &BENCH_LIKE, &budget, |r| {
            depths.push(r.depth)
        });
        assert_eq!(found.best_move, Some(pos.legal_moves()[0]));
        assert_eq!(depths, [1], "{selective:?}");
        // Without a time target, the same position deepens to the cap.
        let deep = searcher.search_timed(
            &pos,
            &GameHistory::NONE,
            &BENCH_LIKE,
            &SearchBudget::depth(4, 6),
            |_| {},
        );
        assert_eq!(deep.depth, 4);
    }
}
