//! Matches between two weight files: paired openings, results, Elo.
