//! The classic terms of the `patterns` evaluator (docs/features.md): what a hand-made
//! evaluation of this game knows and neither the ten features nor the region tables can see,
//! because it reaches across the whole board or depends on the material balance.
//!
//! Each term is an input of the side to move's view, like the ten features' differences:
//!
//! - `exchange`: `24 · (own pieces − opponent's) / all pieces`, so that trading pieces while
//!   ahead raises the evaluation (a man up is worth more on an emptier board); a hand-made
//!   evaluation's "favour exchanges when ahead".
//! - `runaways`: men with no opposing piece anywhere in the cone in front of them (they
//!   crown unless something comes back), own minus opponent's.
//! - `corner_kings`: kings of the side with fewer pieces in a double corner (squares 4, 8, 25
//!   and 29 of its view), where a weaker side holds a draw; own minus opponent's.
//! - `the_move`: with equal numbers of pieces, +1 when the side to move has the opposition
//!   (an odd number of pieces on the rows 1, 3, 5, 7 of its own view, counting from its back
//!   row as row 1), −1 when it has not.

use crate::engine::{Bitboard, Color, Position};

use super::extended::view;

/// Number of classic terms.
pub const CLASSIC_COUNT: usize = 4;

/// The classic terms' names, in the order of every file and weight vector.
pub const CLASSIC_NAMES: [&str; CLASSIC_COUNT] =
    ["exchange", "runaways", "corner_kings", "the_move"];

/// Index of `exchange`, the one term whose weight is applied as a fraction (see
/// [`classic_value`]).
pub const EXCHANGE: usize = 0;

/// The scale of `exchange`: its input is this times the piece difference over the pieces.
pub const EXCHANGE_SCALE: i32 = 24;

/// The classic terms' inputs of a position: the side to move's view, `exchange` as its
/// numerator `24 · (own − opponent's)` (the denominator is the piece count).
pub type ClassicCounts = [i32; CLASSIC_COUNT];

/// The double corners from a side's own view: 4 and 8 by its own back row, 25 and 29 by the
/// opponent's.
const DOUBLE_CORNERS: Bitboard = (1 << 3) | (1 << 7) | (1 << 24) | (1 << 28);

/// Rows 1, 3, 5 and 7 of a side's own view (bit rows 0, 2, 4 and 6): its system squares.
const SYSTEM: Bitboard = 0x0F0F_0F0F;

/// The squares in front of a man on each square (own view, forward is toward square 32):
/// every square it could reach by forward steps on an empty board.
const CONES: [Bitboard; 32] = cones();

const fn cones() -> [Bitboard; 32] {
    let mut cones = [0; 32];
    let mut s = 0;
    while s < 32 {
        let (row, col) = row_col(s);
        let mut t = 0;
        while t < 32 {
            let (r, c) = row_col(t);
            if r > row && (c - col).abs() <= r - row {
                cones[s] |= 1 << t;
            }
            t += 1;
        }
        s += 1;
    }
    cones
}

/// Row (0 = squares 1–4) and column (0–7) of bit `i`.
const fn row_col(i: usize) -> (i32, i32) {
    let row = (i / 4) as i32;
    let col = 2 * (i % 4) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

/// The side's men with no opposing piece in their cones (its own view).
#[inline(always)]
fn runaways(own_men: Bitboard, enemy: Bitboard) -> i32 {
    let mut count = 0;
    let mut rest = own_men;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        count += i32::from(CONES[i] & enemy == 0);
    }
    count
}

/// The classic terms' inputs of `pos` from the side to move's view.
#[inline(always)]
pub fn classic_counts(pos: &Position) -> ClassicCounts {
    let us = pos.side_to_move();
    let (own, own_kings, enemy) = view(pos, us);
    let enemy_kings = enemy & pos_kings_in_view(pos, us);
    let (own_count, enemy_count) = (own.count_ones() as i32, enemy.count_ones() as i32);
    let behind = |a: i32, b: i32| i32::from(a < b);
    let corner_kings = behind(own_count, enemy_count)
        * (own_kings & DOUBLE_CORNERS).count_ones() as i32
        - behind(enemy_count, own_count) * (enemy_kings & DOUBLE_CORNERS).count_ones() as i32;
    // The opponent's men run toward square 1 of our view: turn the board for their cones.
    let runaways = runaways(own & !own_kings, enemy)
        - runaways((enemy & !enemy_kings).reverse_bits(), own.reverse_bits());
    let the_move = if own_count == enemy_count {
        if ((own | enemy) & SYSTEM).count_ones() % 2 == 1 {
            1
        } else {
            -1
        }
    } else {
        0
    };
    [
        EXCHANGE_SCALE * (own_count - enemy_count),
        runaways,
        corner_kings,
        the_move,
    ]
}

/// Every king on the board, in `color`'s view.
#[inline(always)]
fn pos_kings_in_view(pos: &Position, color: Color) -> Bitboard {
    match color {
        Color::Black => pos.kings(),
        Color::White => pos.kings().reverse_bits(),
    }
}

/// The weighted sum of the classic terms for a position with `pieces` on the board:
/// `Σ w_i · x_i`, with `exchange`'s numerator divided by the pieces (truncating toward zero,
/// as C does).
#[inline(always)]
pub fn classic_value(weights: &[i32; CLASSIC_COUNT], counts: &ClassicCounts, pieces: i32) -> i32 {
    let mut total = weights[EXCHANGE] * counts[EXCHANGE] / pieces.max(1);
    for i in 1..CLASSIC_COUNT {
        total += weights[i] * counts[i];
    }
    total
}

/// The classic terms' inputs as the fit sees them: `exchange` as the exact fraction.
pub fn classic_inputs(counts: &ClassicCounts, pieces: i32) -> [f64; CLASSIC_COUNT] {
    let mut inputs = counts.map(f64::from);
    inputs[EXCHANGE] /= f64::from(pieces.max(1));
    inputs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(fen: &str) -> ClassicCounts {
        classic_counts(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn cones_by_hand() {
        // A man on 1 (row 0, column 1) sees 5 and 6, then 9 and 10 (columns 1 and 3; 0 is
        // not a playable square of row 2): squares of every row ahead within the diagonals.
        let cone = CONES[0];
        for s in [5, 6, 9, 10, 14, 15, 13] {
            assert!(cone & (1 << (s - 1)) != 0, "square {s}");
        }
        assert!(cone & (1 << 7) == 0, "square 8 is off the cone of 1");
        // The last row has nothing in front.
        assert_eq!(CONES[28], 0);
    }

    #[test]
    fn start_position() {
        // Equal material: exchange 0; no runaway; no one behind; 24 pieces, 12 on the system
        // rows (1-4 and 9-12 of Black's, 21-24... of the board): even → −1.
        assert_eq!(counts("B:W21-32:B1-12"), [0, 0, 0, -1]);
    }

    #[test]
    fn exchange_runaways_corner_kings_and_the_move_by_hand() {
        // Black: men 22 and 9, White: king 29 (its own view: 4, a double corner) and man 12.
        // Black to move. Black has 2 pieces, White 2: the move counts. Black's man 22 (row 5,
        // column 3) has 25 and 26 in front, then 29-31: White's king on 29 is in the cone → not
        // a runaway; Black's 9 has 12? 12 is row 2 — behind it, not in front; 13,14 ... 29 is
        // in the cone of 9 too. White's man on 12 runs toward 1: in front of it (its view: 21)
        // lie 8, 7? (board squares 8, 7, 4, 3, 2); Black has no piece there → a runaway.
        let c = counts("B:W12,K29:B9,22");
        assert_eq!(c[EXCHANGE], 0);
        assert_eq!(c[1], -1);
        // Nobody is behind in material: no corner term.
        assert_eq!(c[2], 0);
        // System rows of Black's view (rows 0, 2, 4, 6: 1-4, 9-12, 17-20, 25-28): 9 and 12 → even.
        assert_eq!(c[3], -1);
        // White to move in the same position: its view turns the board, its system rows are
        // the board's 5-8, 13-16, 21-24, 29-32: 22 and 29 → even.
        assert_eq!(counts("W:W12,K29:B9,22")[3], -1);
        // White a piece down with its king in a double corner (29 is its 4).
        let behind = counts("B:WK29:B9,22");
        assert_eq!(behind[EXCHANGE], 24);
        assert_eq!(behind[2], -1);
        assert_eq!(behind[3], 0);
    }

    #[test]
    fn mirrored_positions_count_alike() {
        for fen in [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W12,K29:B9,22",
            "W:WK29:B9,22,K4",
        ] {
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(classic_counts(&p), classic_counts(&p.mirrored()), "{fen}");
        }
    }

    #[test]
    fn the_value_divides_exchange_by_the_pieces() {
        let weights = [10, 3, 5, 7];
        let counts = [EXCHANGE_SCALE * 2, 1, -1, 1];
        // 10 · 48 / 10 = 48, + 3 − 5 + 7.
        assert_eq!(classic_value(&weights, &counts, 10), 48 + 3 - 5 + 7);
        assert_eq!(classic_inputs(&counts, 10)[EXCHANGE], 4.8);
    }
}
