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

/// Like [`perft`], with the work shared among the threads of the current rayon pool.
///
/// The start position has only 7 moves of very unequal size, so the split goes two plies deep
/// (49 subtrees from the start) and rayon's work stealing balances them.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    split(pos, depth, 2)
}

fn split(pos: &Position, depth: u32, levels: u32) -> u64 {
    if levels == 0 || depth <= 3 {
        return perft(pos, depth);
    }
    pos.legal_moves()
        .par_iter()
        .map(|mv| split(&pos.play(mv), depth - 1, levels - 1))
        .sum()
}
