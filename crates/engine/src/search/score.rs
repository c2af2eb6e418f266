//! The search's scale of values: evaluations near 0, wins and losses at `±(WIN - plies to the
//! end)`, and the conversions that keep a stored win's distance right at another ply.

use crate::egdb::DbValue;

/// The value of a won position at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000_000;
/// Scores beyond this (in absolute value) are wins or losses, not evaluations.
pub(super) const WIN_THRESHOLD: i32 = WIN - 1_000;
/// The deepest ply the search can reach; `max_depth` is capped below it.
pub(super) const MAX_PLY: usize = 64;

/// The value of a node `ply` plies below the root whose side to move has no move: it has lost.
#[inline(always)]
pub(super) fn lost(ply: u32) -> i32 {
    -(WIN - ply as i32)
}

/// The search score of a database value found `ply` plies below the root: wins and losses
/// on the same scale as the search's own (`WIN - plies to the end`), draws 0.
#[inline(always)]
pub(super) fn db_score(value: DbValue, ply: u32) -> i32 {
    match value {
        DbValue::Win(d) => WIN - (ply + d) as i32,
        DbValue::Loss(d) => -(WIN - (ply + d) as i32),
        DbValue::Draw => 0,
    }
}

/// A value found `ply` plies below the root as the table stores it: a win or loss counted from
/// the node, not from the root.
#[inline(always)]
pub(super) fn to_tt(value: i32, ply: u32) -> i32 {
    if value > WIN_THRESHOLD {
        value + ply as i32
    } else if value < -WIN_THRESHOLD {
        value - ply as i32
    } else {
        value
    }
}

/// A stored value as the search sees it `ply` plies below the root (undoes [`to_tt`]).
#[inline(always)]
pub(super) fn from_tt(value: i32, ply: u32) -> i32 {
    if value > WIN_THRESHOLD {
        value - ply as i32
    } else if value < -WIN_THRESHOLD {
        value + ply as i32
    } else {
        value
    }
}
