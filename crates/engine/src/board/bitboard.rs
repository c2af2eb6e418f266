//! Square sets as `u32` bitboards, and the geometry of the board.
//!
//! Bit `i` is the standard square `i + 1`. Rows of four squares run from Black's back row
//! (squares 1–4, row 0) to White's back row (squares 29–32, row 7). Rows alternate their offset:
//! even rows sit one column to the right of odd rows, so squares 4, 12, 20, 28 and 5, 13, 21, 29
//! are on the side edges.
//!
//! ```text
//!            column: 0    1    2    3    4    5    6    7
//!   row 0 (Black)        1         2         3         4        bits  0.. 3
//!   row 1           5         6         7         8             bits  4.. 7
//!   row 2                9        10        11        12        bits  8..11
//!   row 3          13        14        15        16             bits 12..15
//!   row 4               17        18        19        20        bits 16..19
//!   row 5          21        22        23        24             bits 20..23
//!   row 6               25        26        27        28        bits 24..27
//!   row 7 (White)  29        30        31        32             bits 28..31
//! ```
//!
//! "Down" is toward higher square numbers (Black's forward direction). One diagonal step is a shift
//! by 4 for one neighbour and by 3 or 5 for the other, depending on the row's parity; masks remove
//! the squares that would wrap around the side edges.

/// A set of squares: bit `i` is square `i + 1`.
pub type Bitboard = u32;

/// Even rows (0, 2, 4, 6): squares 1–4, 9–12, 17–20, 25–28.
pub const EVEN_ROWS: Bitboard = 0x0F0F_0F0F;
/// Odd rows (1, 3, 5, 7): squares 5–8, 13–16, 21–24, 29–32.
pub const ODD_ROWS: Bitboard = 0xF0F0_F0F0;
/// The first square of every row (1, 5, 9, …, 29).
pub const FIRST_OF_ROW: Bitboard = 0x1111_1111;
/// The last square of every row (4, 8, 12, …, 32).
pub const LAST_OF_ROW: Bitboard = 0x8888_8888;
/// Black's back row, squares 1–4: where White men are crowned.
pub const ROW_1_TO_4: Bitboard = 0x0000_000F;
/// White's back row, squares 29–32: where Black men are crowned.
pub const ROW_29_TO_32: Bitboard = 0xF000_0000;
/// The edge squares: 1–4, 5, 12, 13, 20, 21, 28, 29–32. A piece there cannot be jumped.
pub const EDGE: Bitboard =
    ROW_1_TO_4 | ROW_29_TO_32 | sq(5) | sq(12) | sq(13) | sq(20) | sq(21) | sq(28);

/// The bitboard of the standard square `n` (1–32).
pub const fn sq(n: u8) -> Bitboard {
    1 << (n - 1)
}

/// The squares of rows `first..=last` (row 0 is squares 1–4).
pub const fn rows(first: u32, last: u32) -> Bitboard {
    let mut b = 0;
    let mut r = first;
    while r <= last {
        b |= 0xF << (4 * r);
        r += 1;
    }
    b
}

/// The four diagonal directions, in the order used everywhere (move generation, tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward higher squares, decreasing column.
    DownLeft = 0,
    /// Toward higher squares, increasing column.
    DownRight = 1,
    /// Toward lower squares, decreasing column.
    UpLeft = 2,
    /// Toward lower squares, increasing column.
    UpRight = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::DownLeft,
        Direction::DownRight,
        Direction::UpLeft,
        Direction::UpRight,
    ];

    /// The opposite direction.
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
        }
    }

    /// Moves every square of `b` one diagonal step in this direction; squares that would leave
    /// the board vanish.
    #[inline(always)]
    pub const fn step(self, b: Bitboard) -> Bitboard {
        match self {
            Direction::DownLeft => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !FIRST_OF_ROW) << 3),
            Direction::DownRight => ((b & EVEN_ROWS & !LAST_OF_ROW) << 5) | ((b & ODD_ROWS) << 4),
            Direction::UpLeft => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !FIRST_OF_ROW) >> 5),
            Direction::UpRight => ((b & EVEN_ROWS & !LAST_OF_ROW) >> 3) | ((b & ODD_ROWS) >> 4),
        }
    }

    /// The squares from which a piece could jump in this direction: the next square holds one
    /// of `enemy` and the one beyond it is in `empty`.
    ///
    /// A jump is a uniform shift (±7 or ±9) whatever the row's parity, so only the middle square
    /// needs the parity split.
    #[inline(always)]
    pub const fn jump_sources(self, enemy: Bitboard, empty: Bitboard) -> Bitboard {
        match self {
            Direction::DownLeft => {
                (empty >> 7)
                    & (((enemy >> 4) & EVEN_ROWS) | ((enemy >> 3) & ODD_ROWS))
                    & !FIRST_OF_ROW
            }
            Direction::DownRight => {
                (empty >> 9)
                    & (((enemy >> 5) & EVEN_ROWS) | ((enemy >> 4) & ODD_ROWS))
                    & !LAST_OF_ROW
            }
            Direction::UpLeft => {
                (empty << 9)
                    & (((enemy << 4) & EVEN_ROWS) | ((enemy << 5) & ODD_ROWS))
                    & !FIRST_OF_ROW
            }
            Direction::UpRight => {
                (empty << 7)
                    & (((enemy << 3) & EVEN_ROWS) | ((enemy << 4) & ODD_ROWS))
                    & !LAST_OF_ROW
            }
        }
    }
}

/// `STEP[d][i]`: the square one step from bit `i` in direction `d`, as a bitboard (0 if none).
pub const STEP: [[Bitboard; 32]; 4] = {
    let mut t = [[0; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 32 {
            t[d][i] = Direction::ALL[d].step(1 << i);
            i += 1;
        }
        d += 1;
    }
    t
};

/// `JUMP[d][i]`: the landing square two steps from bit `i` in direction `d` (0 if none).
pub const JUMP: [[Bitboard; 32]; 4] = {
    let mut t = [[0; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 32 {
            t[d][i] = Direction::ALL[d].step(Direction::ALL[d].step(1 << i));
            i += 1;
        }
        d += 1;
    }
    t
};

/// Iterates over the set bits of a bitboard, lowest first, as bit indices (square − 1).
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub Bitboard);

impl Iterator for Bits {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours(n: u8, d: Direction) -> Vec<u8> {
        Bits(d.step(sq(n))).map(|i| i as u8 + 1).collect()
    }

    #[test]
    fn steps_match_the_standard_board() {
        assert_eq!(neighbours(1, Direction::DownLeft), vec![5]);
        assert_eq!(neighbours(1, Direction::DownRight), vec![6]);
        assert_eq!(neighbours(4, Direction::DownRight), Vec::<u8>::new());
        assert_eq!(neighbours(5, Direction::DownLeft), Vec::<u8>::new());
        assert_eq!(neighbours(5, Direction::DownRight), vec![9]);
        assert_eq!(neighbours(12, Direction::DownLeft), vec![16]);
        assert_eq!(neighbours(12, Direction::DownRight), Vec::<u8>::new());
        assert_eq!(neighbours(22, Direction::UpLeft), vec![17]);
        assert_eq!(neighbours(22, Direction::UpRight), vec![18]);
        assert_eq!(neighbours(29, Direction::DownLeft), Vec::<u8>::new());
        assert_eq!(neighbours(32, Direction::UpRight), vec![28]);
        assert_eq!(neighbours(29, Direction::UpLeft), Vec::<u8>::new());
        assert_eq!(neighbours(32, Direction::UpLeft), vec![27]);
        // 9x18: from 9 over 14 onto 18 (bit 17).
        assert_eq!(
            Bits(JUMP[Direction::DownRight as usize][8]).next(),
            Some(17)
        );
    }

    #[test]
    fn jump_sources_agree_with_two_steps_for_every_square_and_direction() {
        for d in Direction::ALL {
            for i in 0..32 {
                let from: Bitboard = 1 << i;
                let over = d.step(from);
                let land = d.step(over);
                // Only the middle square is the enemy and only the landing square is empty.
                let expected = if land != 0 { from } else { 0 };
                assert_eq!(
                    d.jump_sources(over, land) & from,
                    expected,
                    "{d:?} from bit {i}"
                );
                // Anything missing (no enemy, or a blocked landing) means no jump.
                assert_eq!(d.jump_sources(0, land) & from, 0);
                assert_eq!(d.jump_sources(over, 0) & from, 0);
            }
        }
    }

    #[test]
    fn every_step_is_undone_by_its_reverse_and_counts_add_up() {
        let mut total = 0;
        for d in Direction::ALL {
            for (i, &s) in STEP[d as usize].iter().enumerate() {
                if s != 0 {
                    assert_eq!(d.reverse().step(s), 1 << i);
                    total += 1;
                }
            }
        }
        // 7 rows of 4 squares, 7 of each 8-square band have two forward neighbours: 49 per
        // forward direction pair → 98 forward steps, and as many backward ones.
        assert_eq!(total, 2 * 49);
        assert_eq!(EDGE.count_ones(), 14);
        assert_eq!(rows(0, 1), 0xFF);
    }
}
