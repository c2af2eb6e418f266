//! A region: its squares, which pieces its index reads, and the index by definition.

use std::fmt;

use crate::board::Bitboard;

/// The most squares of a men or king region: `3^8 = 6561` entries per table.
pub const MAX_REGION_SQUARES: usize = 8;

/// The most squares of a rank region: `2^16 = 65,536` entries per table, so that an index
/// still fits the 16 bits the pattern fit keeps it in.
pub const MAX_RANK_REGION_SQUARES: usize = 16;

/// Which pieces a region's index reads, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionKind {
    /// Both sides' men, a digit 0–2 a square (kings count as empty squares).
    Men,
    /// Both sides' kings, a digit 0–2 a square (men count as empty squares).
    Kings,
    /// The side's own men alone, a binary digit a square (the opponent's pieces and the
    /// side's kings count as empty squares): a rank region.
    Ranks,
}

/// A region of the board: distinct squares (1–32) of a side's own view, in index order, and
/// which pieces its index reads ([`RegionKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    squares: Vec<u8>,
    kind: RegionKind,
}

/// Why a list of squares is not a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionError {
    /// No square, or more than [`MAX_REGION_SQUARES`].
    Size(usize),
    /// A rank region with no square, or more than [`MAX_RANK_REGION_SQUARES`].
    RankSize(usize),
    /// A square outside 1–32.
    Square(i64),
    /// A square listed twice.
    Repeated(u8),
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionError::Size(n) => {
                write!(f, "a region has 1 to {MAX_REGION_SQUARES} squares, not {n}")
            }
            RegionError::RankSize(n) => {
                write!(
                    f,
                    "a rank region has 1 to {MAX_RANK_REGION_SQUARES} squares, not {n}"
                )
            }
            RegionError::Square(s) => write!(f, "square {s} is not one of 1-32"),
            RegionError::Repeated(s) => write!(f, "square {s} is listed twice"),
        }
    }
}

impl std::error::Error for RegionError {}

impl Region {
    /// The region of `squares` (1–32, distinct, at most [`MAX_REGION_SQUARES`]).
    pub fn new(squares: &[i64]) -> Result<Region, RegionError> {
        if squares.is_empty() || squares.len() > MAX_REGION_SQUARES {
            return Err(RegionError::Size(squares.len()));
        }
        Region::checked(squares, RegionKind::Men)
    }

    /// The region of `kind` on `squares`, their count already checked.
    fn checked(squares: &[i64], kind: RegionKind) -> Result<Region, RegionError> {
        let mut seen = 0u32;
        let mut out = Vec::with_capacity(squares.len());
        for &s in squares {
            if !(1..=32).contains(&s) {
                return Err(RegionError::Square(s));
            }
            let s = s as u8;
            if seen & (1 << (s - 1)) != 0 {
                return Err(RegionError::Repeated(s));
            }
            seen |= 1 << (s - 1);
            out.push(s);
        }
        Ok(Region { squares: out, kind })
    }

    /// The king region of `squares` (as for [`Region::new`]): its index reads the kings on
    /// those squares, as a men region reads the men.
    pub fn of_kings(squares: &[i64]) -> Result<Region, RegionError> {
        Ok(Region {
            kind: RegionKind::Kings,
            ..Region::new(squares)?
        })
    }

    /// The rank region of `squares` (1–32, distinct, at most [`MAX_RANK_REGION_SQUARES`]):
    /// its index reads the side's own men on those squares, a binary digit each.
    pub fn of_ranks(squares: &[i64]) -> Result<Region, RegionError> {
        if squares.is_empty() || squares.len() > MAX_RANK_REGION_SQUARES {
            return Err(RegionError::RankSize(squares.len()));
        }
        Region::checked(squares, RegionKind::Ranks)
    }

    /// Which pieces the index reads.
    pub fn kind(&self) -> RegionKind {
        self.kind
    }

    /// Whether the index reads kings rather than men.
    pub fn reads_kings(&self) -> bool {
        self.kind == RegionKind::Kings
    }

    /// The squares, in index order (the first is the lowest digit).
    pub fn squares(&self) -> &[u8] {
        &self.squares
    }

    /// Entries of its table: `3^squares` (a rank region: `2^squares`).
    pub fn entries(&self) -> usize {
        self.base().pow(self.squares.len() as u32)
    }

    /// The base of the index's digits: 2 for a rank region, 3 otherwise.
    pub(super) fn base(&self) -> usize {
        match self.kind {
            RegionKind::Ranks => 2,
            RegionKind::Men | RegionKind::Kings => 3,
        }
    }

    /// The index of a position in which the side whose view this is has men (for a king region:
    /// kings) `own` and its opponent `enemy` (both in that view), computed square by square: the
    /// reference the byte tables are checked against. A rank region reads `own` alone.
    pub fn index_of(&self, own: Bitboard, enemy: Bitboard) -> usize {
        let enemy = if self.kind == RegionKind::Ranks {
            0
        } else {
            enemy
        };
        let mut index = 0;
        for &s in self.squares.iter().rev() {
            let bit = 1 << (s - 1);
            index = self.base() * index
                + if own & bit != 0 {
                    1
                } else if enemy & bit != 0 {
                    2
                } else {
                    0
                };
        }
        index
    }
}

/// The squares of the four quadrants of four rows by four columns, eight squares each, in the
/// own view: rows 0-3 then 4-7; in each, the left half of the board (the first two squares of
/// each row's four) then the right half; a quadrant's squares row by row.
pub(super) fn quadrants() -> Vec<Vec<i64>> {
    [0i64, 16]
        .into_iter()
        .flat_map(|first_row| {
            [[0i64, 1], [2, 3]].map(|columns| {
                (0..4)
                    .flat_map(|row| columns.map(|c| first_row + 4 * row + c + 1))
                    .collect()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_by_hand() {
        // Region 2, 5, 1: own man on 5 (digit 1, times 3), enemy man on 1 (2, times 9).
        let region = Region::new(&[2, 5, 1]).unwrap();
        assert_eq!(region.index_of(1 << 4, 1), 3 + 18);
        assert_eq!(region.entries(), 27);
    }

    #[test]
    fn bad_regions_are_refused() {
        assert_eq!(Region::new(&[]), Err(RegionError::Size(0)));
        assert_eq!(Region::new(&[1; 9]), Err(RegionError::Size(9)));
        assert_eq!(Region::new(&[0, 3]), Err(RegionError::Square(0)));
        assert_eq!(Region::new(&[3, 33]), Err(RegionError::Square(33)));
        assert_eq!(Region::new(&[3, 4, 3]), Err(RegionError::Repeated(3)));
        assert_eq!(Region::of_kings(&[3, 4, 3]), Err(RegionError::Repeated(3)));
        assert_eq!(Region::of_kings(&[1; 9]), Err(RegionError::Size(9)));
        assert_eq!(Region::of_ranks(&[]), Err(RegionError::RankSize(0)));
        let seventeen: Vec<i64> = (1..=17).collect();
        assert_eq!(Region::of_ranks(&seventeen), Err(RegionError::RankSize(17)));
        assert_eq!(Region::of_ranks(&[3, 33]), Err(RegionError::Square(33)));
        assert_eq!(Region::of_ranks(&[3, 4, 3]), Err(RegionError::Repeated(3)));
    }
}
