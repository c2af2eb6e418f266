//! The search against a plain minimax, tactics it must find, and whole games.

use checkers_engine::board::{Color, Move, Position};
use checkers_engine::eval::{evaluate, features, WeightPair, Weights};
use checkers_engine::game::{
    play_game, EndReason, GameResult, GameSettings, SearchParams, TieBreak,
};
use checkers_engine::search::{GameHistory, SearchLimits, Searcher, WIN};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MATERIAL: Weights = Weights([100, 150, 0, 0, 0, 0, 0, 0, 0, 0]);

/// The search's rule without pruning, tables or ordering: full width to `min`, captures on to
/// `max`, and the draw rules on the path. `earlier` holds the keys of the positions before
/// `pos` that it could repeat (those since the last irreversible move, game history included);
/// keys are computed from scratch here, not incrementally as the searcher does.
fn minimax(
    pos: &Position,
    ply: u32,
    min: u32,
    max: u32,
    w: &Weights,
    earlier: &[u64],
    no_progress: usize,
) -> i32 {
    if ply > 0 && (earlier.contains(&pos.zobrist()) || earlier.len() >= no_progress) {
        return 0;
    }
    if ply >= min {
        if pos.jumpers() == 0 {
            if pos.legal_moves().is_empty() {
                return -(WIN - ply as i32);
            }
            return evaluate(pos, w);
        }
        if ply >= max {
            return evaluate(pos, w);
        }
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -(WIN - ply as i32);
    }
    moves
        .iter()
        .map(|m| {
            let next: Vec<u64> = if pos.is_irreversible(m) {
                Vec::new()
            } else {
                earlier.iter().copied().chain([pos.zobrist()]).collect()
            };
            -minimax(&pos.play(m), ply + 1, min, max, w, &next, no_progress)
        })
        .max()
        .unwrap()
}

/// The values of the root's moves under [`minimax`].
fn root_values(
    pos: &Position,
    min: u32,
    max: u32,
    w: &Weights,
    history: &[u64],
    no_progress: usize,
) -> Vec<i32> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let next: Vec<u64> = if pos.is_irreversible(m) {
                Vec::new()
            } else {
                history.iter().copied().chain([pos.zobrist()]).collect()
            };
            -minimax(&pos.play(m), 1, min, max, w, &next, no_progress)
        })
        .collect()
}

fn random_position(rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut pos = Position::start();
    for _ in 0..rng.gen_range(0..70) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos = pos.play(&moves[rng.gen_range(0..moves.len())]);
    }
    (!pos.legal_moves().is_empty()).then_some(pos)
}

fn random_weights(rng: &mut ChaCha8Rng) -> Weights {
    Weights(std::array::from_fn(|_| rng.gen_range(-100..=100)))
}

#[test]
fn search_value_and_move_equal_plain_minimax_on_300_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut searcher = Searcher::default();
    let mut checked = 0;
    while checked < 300 {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let w = random_weights(&mut rng);
        let min = 1 + checked % 5;
        let max = min + rng.gen_range(0..4);
        let found = searcher.search(&pos, &w, SearchLimits::new(min, max), None);
        let values = root_values(&pos, min, max, &w, &[], usize::MAX);
        let best = *values.iter().max().unwrap();
        assert_eq!(found.score, best, "{pos} min {min} max {max}");
        // Ties go to the first move in generation order.
        let first = values.iter().position(|&v| v == best).unwrap();
        assert_eq!(found.best_move, Some(pos.legal_moves()[first]), "{pos}");
        checked += 1;
    }
}

/// A random game from a kings position: the position reached, and the positions
/// since its last irreversible move (without itself), as a game hands them to the search.
fn random_game_with_history(rng: &mut ChaCha8Rng) -> Option<(Position, Vec<Position>)> {
    const STARTS: [&str; 3] = [
        "W:WK5,K18,22,27:B1,K30,K14,10",
        "B:WK10,K19,27,29:BK14,K23,3,6",
        "B:WK28,K32,26:BK1,K5,K9,13",
    ];
    let mut pos = Position::from_fen(STARTS[rng.gen_range(0..STARTS.len())]).unwrap();
    let mut since = vec![pos];
    for _ in 0..rng.gen_range(0..30) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        if pos.is_irreversible(&mv) {
            since.clear();
        }
        pos = pos.play(&mv);
        since.push(pos);
    }
    since.pop();
    (!pos.legal_moves().is_empty() && !since.contains(&pos)).then_some((pos, since))
}

#[test]
fn search_in_a_game_equals_minimax_with_the_same_draw_rules() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut searcher = Searcher::default();
    let (mut checked, mut changed_by_the_rules) = (0, 0);
    while checked < 300 {
        let Some((pos, history)) = random_game_with_history(&mut rng) else {
            continue;
        };
        let w = random_weights(&mut rng);
        let min = 1 + checked % 6;
        let max = min + rng.gen_range(0..3);
        let no_progress = rng.gen_range(history.len() + 1..history.len() + 10) as u32;
        let game = GameHistory {
            positions: &history,
            no_progress_plies: Some(no_progress),
        };
        let found = searcher.search_in_game(&pos, &game, &w, SearchLimits::new(min, max), None);
        let keys: Vec<u64> = history.iter().map(Position::zobrist).collect();
        let values = root_values(&pos, min, max, &w, &keys, no_progress as usize);
        let best = *values.iter().max().unwrap();
        assert_eq!(found.score, best, "{pos} min {min} max {max}");
        let first = values.iter().position(|&v| v == best).unwrap();
        assert_eq!(found.best_move, Some(pos.legal_moves()[first]), "{pos}");
        let blind = root_values(&pos, min, max, &w, &[], usize::MAX);
        if blind != values {
            changed_by_the_rules += 1;
        }
        checked += 1;
    }
    // The draw rules must actually matter in this sample, or the test proves nothing.
    assert!(changed_by_the_rules > 50, "{changed_by_the_rules}");
}

/// The table is shared between searches of one position with different games before it
/// (here: later and later parts of one history). An entry stored under one history must never
/// answer for another under which its value differs, so every search still equals minimax.
#[test]
fn one_table_serves_different_histories_of_a_position_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(4242);
    let (mut checked, mut differing) = (0, 0);
    while checked < 120 {
        let Some((pos, history)) = random_game_with_history(&mut rng) else {
            continue;
        };
        if history.len() < 4 {
            continue;
        }
        let w = random_weights(&mut rng);
        let min = 3 + checked % 4;
        let limits = SearchLimits::new(min, min + 2);
        let no_progress = history.len() as u32 + 6;
        let mut searcher = Searcher::default();
        let mut seen = Vec::new();
        for from in [history.len(), history.len() / 2, 0, history.len() - 1, 1] {
            let part = &history[from..];
            let game = GameHistory {
                positions: part,
                no_progress_plies: Some(no_progress),
            };
            let found = searcher.search_in_game(&pos, &game, &w, limits, None);
            let keys: Vec<u64> = part.iter().map(Position::zobrist).collect();
            let values = root_values(&pos, min, min + 2, &w, &keys, no_progress as usize);
            assert_eq!(
                found.score,
                *values.iter().max().unwrap(),
                "{pos} from {from}"
            );
            seen.push(values);
        }
        seen.dedup();
        if seen.len() > 1 {
            differing += 1;
        }
        checked += 1;
    }
    // The histories must change the values often, or the table was never put to the test.
    assert!(differing > 30, "{differing}");
}

/// The king move in `pos` that undoes `mv` (a king step from `mv`'s target back to its origin).
fn undo(pos: &Position, mv: &Move) -> Move {
    let squares = mv.squares();
    pos.legal_moves()
        .into_iter()
        .find(|back| back.squares()[..] == [squares[1], squares[0]])
        .unwrap_or_else(|| panic!("{pos}: no move undoes {mv}"))
}

/// A game's king shuffle from `start`: the moves `a` and `b`, then `a` undone. Returns the
/// three positions before the last move, oldest first, and the position it reaches.
fn shuffle(start: Position, a: &Move, b: &Move) -> ([Position; 3], Position) {
    let p1 = start.play(a);
    let p2 = p1.play(b);
    let p3 = p2.play(&undo(&p2, a));
    ([start, p1, p2], p3)
}

#[test]
fn a_side_that_is_ahead_avoids_a_repetition_and_one_behind_seeks_it() {
    // White (to move) has three kings against one: every quiet move keeps the advantage.
    let pos = Position::from_fen("W:WK18,K23,K27:BK1").unwrap();
    let limits = SearchLimits::new(4, 8);
    let free = Searcher::default().search(&pos, &MATERIAL, limits, None);
    let chosen = free.best_move.unwrap();
    assert!(!pos.is_irreversible(&chosen));
    assert!(free.score >= 300, "{}", free.score);
    // The same position in a game where the chosen move returns to the position of four plies
    // ago: after it, Black's king stepped out and White's chosen king stepped back, then Black's
    // king stepped back too (a cycle takes four plies: each side's kings must come back).
    let after = pos.play(&chosen);
    let black_out = after.legal_moves()[0];
    let (earlier, root) = shuffle(after, &black_out, &undo(&after.play(&black_out), &chosen));
    assert_eq!(root, pos);
    let game = GameHistory {
        positions: &earlier,
        no_progress_plies: Some(80),
    };
    let aware = Searcher::default().search_in_game(&pos, &game, &MATERIAL, limits, None);
    assert_ne!(aware.best_move, Some(chosen));
    assert!(aware.score >= 300, "{}", aware.score);

    // Black, two kings down, takes the repetition when it is on offer: whichever king move
    // returns to the position of four plies ago.
    let pos = Position::from_fen("B:WK18,K23,K27:BK1").unwrap();
    let mut seen_repeat = None;
    for mv in pos.legal_moves() {
        let next = pos.play(&mv);
        let white_out = next.legal_moves()[0];
        let (earlier, root) = shuffle(next, &white_out, &undo(&next.play(&white_out), &mv));
        assert_eq!(root, pos);
        let game = GameHistory {
            positions: &earlier,
            no_progress_plies: Some(80),
        };
        let r = Searcher::default().search_in_game(&pos, &game, &MATERIAL, limits, None);
        assert_eq!(r.best_move, Some(mv), "{mv}");
        assert_eq!(r.score, 0);
        seen_repeat = Some(mv);
    }
    assert!(seen_repeat.is_some());
}

#[test]
fn the_table_and_ordering_save_nodes_without_changing_the_answer() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut with_tt, mut without_tt) = (0, 0);
    for _ in 0..20 {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let w = random_weights(&mut rng);
        let limits = SearchLimits::new(6, 10);
        let a = Searcher::default().search(&pos, &w, limits, None);
        let mut plain = Searcher::default();
        plain.set_plain(true);
        let b = plain.search(&pos, &w, limits, None);
        assert_eq!((a.score, a.best_move), (b.score, b.best_move), "{pos}");
        with_tt += a.nodes;
        without_tt += b.nodes;
    }
    assert!(with_tt < without_tt, "{with_tt} vs {without_tt}");
}

#[test]
fn random_tie_breaks_pick_only_among_best_moves_and_follow_the_seed() {
    // Material only, start position: every first move is worth 0 at depth 2.
    let pos = Position::start();
    let mut chosen = std::collections::HashSet::new();
    for seed in 0..30 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let r =
            Searcher::default().search(&pos, &MATERIAL, SearchLimits::new(2, 2), Some(&mut rng));
        let mut again = ChaCha8Rng::seed_from_u64(seed);
        let r2 =
            Searcher::default().search(&pos, &MATERIAL, SearchLimits::new(2, 2), Some(&mut again));
        assert_eq!(r.best_move, r2.best_move);
        assert_eq!(r.score, 0);
        chosen.insert(r.best_move.unwrap().to_string());
    }
    assert!(chosen.len() > 3, "{chosen:?}");
}

#[test]
fn finds_a_two_for_one_shot() {
    // Black gives a man with 17-22; White must take 25x18 (the man on 9 stops it going on
    // over 14); Black takes two back, 14x23x32, and crowns. Every other move keeps Black's one
    // man of advantage and no more.
    let pos = Position::from_fen("B:W25,27,31:B3,9,14,17").unwrap();
    let r = Searcher::default().search(&pos, &MATERIAL, SearchLimits::new(4, 8), None);
    assert_eq!(r.best_move.unwrap().to_string(), "17-22");
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    assert_eq!(pv[..3], ["17-22", "25x18", "14x23x32"]);
    // Two men against one, plus a king: 100 + 150 - 100 = 150 up at the end of the line.
    assert!(r.score >= 150, "{}", r.score);
}

#[test]
fn sees_a_forced_win_and_prefers_the_quickest() {
    // Black's man on 10 takes 15 and 24 (10x19x28) and White has nothing left.
    let pos = Position::from_fen("B:W15,24:B10,1").unwrap();
    let r = Searcher::default().search(&pos, &MATERIAL, SearchLimits::new(3, 6), None);
    assert_eq!(r.best_move.unwrap().to_string(), "10x19x28");
    assert_eq!(r.mate_distance(), Some(1));
}

#[test]
fn wins_a_won_king_endgame_within_the_ply_cap() {
    // Three black kings against one white king: a win the engine must convert.
    let weights = WeightPair {
        opening: MATERIAL,
        endgame: Weights([100, 150, 0, -10, 0, 0, 0, 0, -5, 0]),
    };
    let settings = GameSettings {
        search: SearchParams {
            min_depth: 8,
            max_depth: 14,
            endgame_pieces: 12,
            tie_break: TieBreak::First,
            ..SearchParams::default()
        },
        max_plies: 200,
        no_progress_plies: 200,
        time: None,
        database: None,
        database_adjudication: false,
    };
    let pos = Position::from_fen("B:WK30:BK1,K2,K3").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let game = play_game(&weights, &weights, &pos, &settings, &mut rng);
    assert_eq!(game.result, GameResult::BlackWin, "{game:?}");
    assert_eq!(game.reason, EndReason::NoMoves);
}

#[test]
fn material_against_itself_ends_by_a_draw_rule_and_repeats_exactly() {
    let pair = WeightPair {
        opening: MATERIAL,
        endgame: MATERIAL,
    };
    let settings = GameSettings {
        search: SearchParams {
            min_depth: 4,
            max_depth: 8,
            endgame_pieces: 12,
            tie_break: TieBreak::First,
            ..SearchParams::default()
        },
        max_plies: 300,
        no_progress_plies: 80,
        time: None,
        database: None,
        database_adjudication: false,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let a = play_game(&pair, &pair, &Position::start(), &settings, &mut rng);
    let b = play_game(&pair, &pair, &Position::start(), &settings, &mut rng);
    assert_eq!(a, b);
    assert!(a.plies > 10);
    if a.result == GameResult::Draw {
        assert!(matches!(
            a.reason,
            EndReason::Repetition | EndReason::NoProgress | EndReason::PlyCap
        ));
    }
    // Replaying the moves reaches a position consistent with the reported end.
    let mut pos = Position::start();
    for m in &a.moves {
        assert!(pos.legal_moves().contains(m));
        pos = pos.play(m);
    }
    if a.reason == EndReason::NoMoves {
        assert!(pos.is_lost());
    }
}

#[test]
fn evaluation_is_colour_symmetric_through_perft_4() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let w = random_weights(&mut rng);
    fn walk(pos: &Position, depth: u32, w: &Weights, seen: &mut u32) {
        let m = pos.mirrored();
        assert_eq!(evaluate(pos, w), evaluate(&m, w), "{pos}");
        assert_eq!(
            features(pos, Color::Black),
            features(&m, Color::White),
            "{pos}"
        );
        *seen += 1;
        if depth > 0 {
            for mv in pos.legal_moves() {
                walk(&pos.play(&mv), depth - 1, w, seen);
            }
        }
    }
    let mut seen = 0;
    walk(&Position::start(), 4, &w, &mut seen);
    walk(
        &Position::from_fen("W:WK5,K18,22,27:B1,K30,K14,10").unwrap(),
        4,
        &w,
        &mut seen,
    );
    assert!(seen > 1800);
}

#[test]
fn search_limits_try_new_owns_the_depth_rule() {
    use checkers_engine::search::{LimitsError, SearchLimits, MAX_SEARCH_DEPTH};
    let ok = SearchLimits::try_new(6, 12).unwrap();
    assert_eq!((ok.min_depth(), ok.max_depth()), (6, 12));
    assert_eq!(SearchLimits::try_new(0, 4), Err(LimitsError::MinDepth(0)));
    let over = MAX_SEARCH_DEPTH + 1;
    assert_eq!(
        SearchLimits::try_new(4, over),
        Err(LimitsError::MaxDepth(over))
    );
    let order = SearchLimits::try_new(5, 3).unwrap_err();
    assert_eq!(
        order.describe("--min-depth", "--max-depth"),
        "--min-depth 5 is greater than --max-depth 3: expected min <= max"
    );
    // `new` refuses the same depths, by a panic (they are the code's own, not a user's).
    assert_eq!(
        SearchLimits::new(5, 7),
        SearchLimits::try_new(5, 7).unwrap()
    );
    for (min, max) in [(5, 3), (0, 4), (4, over)] {
        assert!(std::panic::catch_unwind(|| SearchLimits::new(min, max)).is_err());
    }
}
