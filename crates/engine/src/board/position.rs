//! A position: who stands where, and who is to move.

use super::bitboard::{Bitboard, Direction, ROW_1_TO_4, ROW_29_TO_32};
use super::moves::Move;

/// One of the two sides. Black moves first, from squares 1–12 toward 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Starts on 1–12, moves first.
    Black = 0,
    /// Starts on 21–32.
    White = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The squares where this side's men are crowned (the opponent's back row).
    #[inline(always)]
    pub const fn crowning_row(self) -> Bitboard {
        match self {
            Color::Black => ROW_29_TO_32,
            Color::White => ROW_1_TO_4,
        }
    }

    /// The directions this side's pieces move in: a man's two forward ones, then the two more
    /// a king has. Move generation, jump detection and the features all take them from here.
    #[inline(always)]
    pub const fn directions(self) -> [Direction; 4] {
        match self {
            Color::Black => [
                Direction::DownLeft,
                Direction::DownRight,
                Direction::UpLeft,
                Direction::UpRight,
            ],
            Color::White => [
                Direction::UpLeft,
                Direction::UpRight,
                Direction::DownLeft,
                Direction::DownRight,
            ],
        }
    }

    /// `"B"` or `"W"`, as in FEN.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

/// A position: three bitboards (black pieces, white pieces, kings) and the side to move.
///
/// The fields are private so that every `Position` is legal: at most 12 pieces a side, no square
/// of both colours, kings only where pieces are, no man on its own crowning row. Build one with
/// [`Position::start`], [`Position::from_fen`] or [`Position::from_parts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pieces: [Bitboard; 2],
    pub(crate) kings: Bitboard,
    pub(crate) side: Color,
}

/// Why a set of bitboards is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds a black and a white piece.
    Overlap(Bitboard),
    /// A king bit on an empty square.
    KingWithoutPiece(Bitboard),
    /// More than 12 pieces of one colour.
    TooManyPieces(Color, u32),
    /// A man standing on the row where it would have been crowned.
    UncrownedMan(Color, Bitboard),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let first = |b: &Bitboard| b.trailing_zeros() + 1;
        match self {
            PositionError::Overlap(b) => {
                write!(f, "square {} is listed for both colours", first(b))
            }
            PositionError::KingWithoutPiece(b) => write!(f, "king on empty square {}", first(b)),
            PositionError::TooManyPieces(c, n) => {
                write!(f, "{} has {n} pieces, at most 12 are allowed", c.letter())
            }
            PositionError::UncrownedMan(c, b) => write!(
                f,
                "a {} man on square {} would have been crowned (mark it as a king with K)",
                if *c == Color::Black { "black" } else { "white" },
                first(b)
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The initial position: Black on 1–12, White on 21–32, Black to move.
    pub const fn start() -> Position {
        Position {
            pieces: [0x0000_0FFF, 0xFFF0_0000],
            kings: 0,
            side: Color::Black,
        }
    }

    /// Builds a position from its bitboards, checking that it is legal.
    pub fn from_parts(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, PositionError> {
        if black & white != 0 {
            return Err(PositionError::Overlap(black & white));
        }
        if kings & !(black | white) != 0 {
            return Err(PositionError::KingWithoutPiece(kings & !(black | white)));
        }
        for (color, bb) in [(Color::Black, black), (Color::White, white)] {
            if bb.count_ones() > 12 {
                return Err(PositionError::TooManyPieces(color, bb.count_ones()));
            }
            let stuck = bb & !kings & color.crowning_row();
            if stuck != 0 {
                return Err(PositionError::UncrownedMan(color, stuck));
            }
        }
        Ok(Position {
            pieces: [black, white],
            kings,
            side,
        })
    }

    /// The side to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces (men and kings) of `color`.
    #[inline(always)]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color as usize]
    }

    /// Black's pieces.
    #[inline(always)]
    pub const fn black(&self) -> Bitboard {
        self.pieces[0]
    }

    /// White's pieces.
    #[inline(always)]
    pub const fn white(&self) -> Bitboard {
        self.pieces[1]
    }

    /// All kings, of both colours.
    #[inline(always)]
    pub const fn kings(&self) -> Bitboard {
        self.kings
    }

    /// The men of `color`.
    #[inline(always)]
    pub const fn men(&self, color: Color) -> Bitboard {
        self.pieces[color as usize] & !self.kings
    }

    /// The kings of `color`.
    #[inline(always)]
    pub const fn kings_of(&self, color: Color) -> Bitboard {
        self.pieces[color as usize] & self.kings
    }

    /// Occupied squares.
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Empty squares.
    #[inline(always)]
    pub const fn empty(&self) -> Bitboard {
        !(self.pieces[0] | self.pieces[1])
    }

    /// Number of pieces on the board, both colours.
    #[inline(always)]
    pub const fn piece_count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The position after `mv`, which must be a legal move of this position.
    #[inline(always)]
    pub fn play(&self, mv: &Move) -> Position {
        let us = self.side as usize;
        let from = 1u32 << mv.from_index();
        let to = 1u32 << mv.to_index();
        let mut next = *self;
        // XOR, not OR: a king's ring capture may end on the square it started from.
        next.pieces[us] ^= from ^ to;
        next.pieces[us ^ 1] &= !mv.captured();
        next.kings &= !mv.captured();
        if self.kings & from != 0 {
            next.kings ^= from ^ to;
        } else {
            next.kings |= to & self.side.crowning_row();
        }
        next.side = self.side.opponent();
        next
    }

    /// True if `mv` is irreversible: a capture or a man's move (resets the 40-move count).
    #[inline(always)]
    pub fn is_irreversible(&self, mv: &Move) -> bool {
        mv.is_capture() || self.kings & (1 << mv.from_index()) == 0
    }

    /// The position turned 180° with colours swapped (and the other side to move): the same
    /// game seen from the other chair. Features and evaluations are symmetric under it.
    pub fn mirrored(&self) -> Position {
        Position {
            pieces: [self.pieces[1].reverse_bits(), self.pieces[0].reverse_bits()],
            kings: self.kings.reverse_bits(),
            side: self.side.opponent(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}
