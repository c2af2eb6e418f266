//! perft: counts the leaf nodes of the move tree, the standard check of a move generator.

use rayon::prelude::*;

use super::movegen::MoveList;
use super::position::Position;

/// Leaf nodes `depth` plies below `pos` (every jump path counted). Bulk-counts the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            // A list on this frame's stack: returning one by value would copy it.
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            list.iter().map(|mv| perft(&pos.play(mv), depth - 1)).sum()
        }
    }
}

/// Like [`perft`], with the root moves shared among the threads of the current rayon pool.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(pos, depth);
    }
    let moves = pos.legal_moves();
    moves
        .par_iter()
        .map(|mv| perft(&pos.play(mv), depth - 1))
        .sum()
}
