//! Variable-depth alpha-beta search with a Zobrist-keyed transposition table.
