//! One round of single-elimination tournament, newcomers, and round statistics.
