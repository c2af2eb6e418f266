//! Elo from pentanomial pair results, its 95% interval, LOS and SPRT.
