//! The bitboard engine: positions, move generation, notation, Zobrist keys, perft.
