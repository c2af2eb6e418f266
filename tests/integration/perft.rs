//! perft from the start position against the published numbers (docs/rules.md, OEIS A133046).

use checkers_engine::board::{perft, perft_parallel, Position};

const PUBLISHED: [u64; 10] = [
    1, 7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680,
];

#[test]
fn perft_from_the_start_matches_the_published_table_to_depth_9() {
    let start = Position::start();
    for (depth, &nodes) in PUBLISHED.iter().enumerate() {
        assert_eq!(perft(&start, depth as u32), nodes, "perft({depth})");
    }
}

#[test]
fn parallel_perft_agrees_with_sequential() {
    let start = Position::start();
    assert_eq!(perft_parallel(&start, 8), PUBLISHED[8]);
}

/// Bulk counting at the last ply must agree with building every move and counting leaves.
#[test]
fn bulk_counting_agrees_with_generated_moves_in_king_positions() {
    fn slow(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .iter()
            .map(|m| slow(&pos.play(m), depth - 1))
            .sum()
    }
    for fen in [
        "W:WK14,K15,K22,K23:BK18,K19,10,11,26",
        "B:WK5,K6,K27,28,30:BK9,K10,K14,K15,K18,19",
        "B:W18,19,26,27,K10,K11:BK14,K23",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 1..=5 {
            assert_eq!(perft(&pos, depth), slow(&pos, depth), "{fen} depth {depth}");
        }
    }
}
