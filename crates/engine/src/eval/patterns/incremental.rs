//! The men regions' indices kept up to date move by move: what each man adds to every index of
//! both colours' views, so that a move changes a few indices instead of the search computing
//! them all again at every evaluation.

use crate::board::Bitboard;

use super::region::Region;

/// The most men regions whose indices are kept incrementally (the widest preset has 15); tables
/// with more are evaluated from scratch.
pub const MAX_INCREMENTAL_REGIONS: usize = 16;

/// Every men region's index in both colours' views: `[Black's view, White's view]`, each
/// region in order (the unused slots stay 0).
pub type MenIndices = [[u16; MAX_INCREMENTAL_REGIONS]; 2];

/// What one man adds to one index: region `region` of `view`'s indices gains `coefficient`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Delta {
    view: u8,
    region: u8,
    coefficient: u16,
}

/// For each colour and square of the board, what a man of that colour there adds to the men
/// regions' indices of both views.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct MenDeltas {
    /// The deltas of every (colour, square), one after the other.
    deltas: Vec<Delta>,
    /// Where the deltas of `32 · colour + bit` start in `deltas`, and one past the last.
    starts: Vec<u16>,
    /// Whether the regions fit [`MAX_INCREMENTAL_REGIONS`].
    enabled: bool,
}

impl MenDeltas {
    /// The deltas of the men regions `regions` (in their order).
    pub(super) fn new(regions: &[Region]) -> MenDeltas {
        let enabled = regions.len() <= MAX_INCREMENTAL_REGIONS;
        let mut deltas = Vec::new();
        let mut starts = vec![0u16];
        for color in 0..2u8 {
            for bit in 0..32u32 {
                if enabled {
                    for view in 0..2u8 {
                        // A view turns the board round for White: bit 31 − b is its square.
                        let square = if view == 0 { bit } else { 31 - bit } as u8 + 1;
                        let digit = if color == view { 1 } else { 2 };
                        for (r, region) in regions.iter().enumerate() {
                            if let Some(k) = region.squares().iter().position(|&s| s == square) {
                                deltas.push(Delta {
                                    view,
                                    region: r as u8,
                                    coefficient: digit * 3u16.pow(k as u32),
                                });
                            }
                        }
                    }
                }
                starts.push(deltas.len() as u16);
            }
        }
        MenDeltas {
            deltas,
            starts,
            enabled,
        }
    }

    /// Whether the indices of these regions can be kept incrementally.
    pub(super) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Adds (`ADD`) or takes away the men of `color` (0 Black, 1 White) on `squares` from
    /// `indices`.
    #[inline(always)]
    pub(super) fn apply<const ADD: bool>(
        &self,
        indices: &mut MenIndices,
        color: usize,
        squares: Bitboard,
    ) {
        let mut rest = squares;
        while rest != 0 {
            let at = 32 * color + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (from, to) = (self.starts[at] as usize, self.starts[at + 1] as usize);
            for d in &self.deltas[from..to] {
                let slot = &mut indices[d.view as usize][d.region as usize];
                if ADD {
                    *slot += d.coefficient;
                } else {
                    *slot -= d.coefficient;
                }
            }
        }
    }

    /// The indices with Black's men `black` and White's men `white` (board bits, not views).
    pub(super) fn full(&self, black: Bitboard, white: Bitboard) -> MenIndices {
        let mut indices = [[0; MAX_INCREMENTAL_REGIONS]; 2];
        self.apply::<true>(&mut indices, 0, black);
        self.apply::<true>(&mut indices, 1, white);
        indices
    }

    /// `indices` of the men `before` (`[Black's, White's]`) brought to the men `after`.
    #[inline(always)]
    pub(super) fn update(
        &self,
        indices: &mut MenIndices,
        before: [Bitboard; 2],
        after: [Bitboard; 2],
    ) {
        for color in 0..2 {
            let changed = before[color] ^ after[color];
            if changed != 0 {
                self.apply::<false>(indices, color, before[color] & changed);
                self.apply::<true>(indices, color, after[color] & changed);
            }
        }
    }
}
