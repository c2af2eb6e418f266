//! The region tables of the `patterns` evaluator (docs/features.md): learned values indexed by
//! the exact contents of board regions.
//!
//! A region is a list of up to eight squares of a side's own view. Its index in a position is
//! `Σ d_k · 3^k` over its squares `s_k`, with `d_k` 1 for an own man on `s_k`, 2 for an
//! opponent's man and 0 for an empty square or a king (kings are the piece-square tables'
//! business). Each region has one table of `3^n` values per phase; a side's value is the sum of
//! its regions' entries, and the evaluation takes the side to move's minus the opponent's, the
//! opponent's counted with the board turned round. So one table serves both colours and a
//! position evaluates like its mirror image.
//!
//! The index is computed a byte of the board at a time: for each byte of the 32-bit board that
//! holds squares of the region, a 256-entry table gives those squares' part of the index.
//!
//! King regions read the kings as men regions read the men. Rank regions read the side's own
//! men alone, a binary digit a square (`Σ 2^k` over the squares holding an own man), up to 16
//! squares: the home ranks, squares 1–16 of the own view, are the low 16 bits of the own men.

mod index;
mod layouts;
mod region;
mod tables;

pub use layouts::{KingLayout, RankLayout, RegionLayout};
pub use region::{Region, RegionError, RegionKind, MAX_RANK_REGION_SQUARES, MAX_REGION_SQUARES};
pub use tables::{PatternTables, ValuesError};
