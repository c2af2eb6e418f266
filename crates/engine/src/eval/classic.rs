//! The classic terms of the `patterns` evaluator (docs/features.md): what a hand-made
//! evaluation of this game knows and neither the ten features nor the region tables can see,
//! because it depends on the material balance or on the whole board.
//!
//! Each term is an input of the side to move's view, like the ten features' differences:
//!
//! - `corner_kings`: kings of the side with fewer pieces in a double corner (squares 4, 8, 25
//!   and 29 of its view), where a weaker side holds a draw; own minus opponent's.
//! - `the_move`: with equal numbers of pieces, +1 when the side to move has the opposition
//!   (an odd number of pieces on the rows 1, 3, 5 and 7 of its own view, counting from its back
//!   row as row 1), −1 when it has not.
//!
//! They were kept from a longer list by the validation loss of fits on 12,000 games
//! (docs/features.md): `runaways` (men with no opposing piece in front of them) lowered it by
//! nothing, and so did `exchange`. That one came back as an optional term ([`exchange_input`]):
//! with an endgame database the games a fit learns from convert any lead, so their results
//! cannot tell it apart; without one (a GUI's engine on neutral ground) a lead is only
//! converted by trading down, which it asks for.

use crate::board::{Bitboard, Position};

use super::extended::view;

/// Number of classic terms.
pub const CLASSIC_COUNT: usize = 2;

/// The classic terms' names, in the order of every file and weight vector.
pub const CLASSIC_NAMES: [&str; CLASSIC_COUNT] = ["corner_kings", "the_move"];

/// The classic terms' inputs of a position, from the side to move's view.
pub type ClassicCounts = [i32; CLASSIC_COUNT];

/// The double corners from a side's own view: 4 and 8 by its own back row, 25 and 29 by the
/// opponent's (the set is its own turned board).
const DOUBLE_CORNERS: Bitboard = (1 << 3) | (1 << 7) | (1 << 24) | (1 << 28);

/// Rows 1, 3, 5 and 7 of a side's own view (bit rows 0, 2, 4 and 6): its system squares.
const SYSTEM: Bitboard = 0x0F0F_0F0F;

/// The classic terms' inputs of `pos` from the side to move's view.
#[inline(always)]
pub fn classic_counts(pos: &Position) -> ClassicCounts {
    let us = pos.side_to_move();
    let (own, own_kings, enemy) = view(pos, us);
    let (_, enemy_kings, _) = view(pos, us.opponent());
    let (own_count, enemy_count) = (own.count_ones() as i32, enemy.count_ones() as i32);
    let behind = |a: i32, b: i32| i32::from(a < b);
    // The double corners are the same squares in either side's view.
    let corner_kings = behind(own_count, enemy_count)
        * (own_kings & DOUBLE_CORNERS).count_ones() as i32
        - behind(enemy_count, own_count) * (enemy_kings & DOUBLE_CORNERS).count_ones() as i32;
    let the_move = if own_count == enemy_count {
        if ((own | enemy) & SYSTEM).count_ones() % 2 == 1 {
            1
        } else {
            -1
        }
    } else {
        0
    };
    [corner_kings, the_move]
}

/// The scale of the `exchange` term: its input is this times the side to move's lead in pieces
/// over the pieces on the board.
pub const EXCHANGE_SCALE: i32 = 24;

/// The `exchange` term's input of `pos` as a fraction: its numerator `24 · (own pieces −
/// opponent's)` for the side to move, and its denominator, the pieces on the board. A lead of
/// a piece is worth more on an emptier board, so trading while ahead raises it: a hand-made
/// evaluation's "favour exchanges when ahead".
#[inline(always)]
pub fn exchange_input(pos: &Position) -> (i32, i32) {
    let us = pos.side_to_move();
    let own = pos.pieces(us).count_ones() as i32;
    let enemy = pos.pieces(us.opponent()).count_ones() as i32;
    (EXCHANGE_SCALE * (own - enemy), own + enemy)
}

/// The weighted sum of the classic terms: `Σ w_i · x_i`.
#[inline(always)]
pub fn classic_value(weights: &[i32; CLASSIC_COUNT], counts: &ClassicCounts) -> i32 {
    weights[0] * counts[0] + weights[1] * counts[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(fen: &str) -> ClassicCounts {
        classic_counts(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position() {
        // Equal material and no kings. Black's system rows (its rows 1, 3, 5, 7: squares 1-4,
        // 9-12, 17-20 and 25-28) hold 1-4 and 9-12 of Black's and 25-28 of White's: 12, even.
        assert_eq!(counts("B:W21-32:B1-12"), [0, -1]);
    }

    #[test]
    fn corner_kings_and_the_move_by_hand() {
        // Black: men 9 and 22; White: king 29 and man 12; Black to move, two pieces each.
        // Black's system rows hold 9 and 12: even, so −1. Nobody is behind: no corner term.
        assert_eq!(counts("B:W12,K29:B9,22"), [0, -1]);
        // White to move: its view turns the board, and its system rows are the board's 5-8,
        // 13-16, 21-24 and 29-32: 22 and 29, even.
        assert_eq!(counts("W:W12,K29:B9,22"), [0, -1]);
        // With White's man on 16 instead of 12, White's system holds 16, 22 and 29: odd.
        assert_eq!(counts("W:W16,K29:B9,22"), [0, 1]);
        // White a piece down, its king on 29 (its own 4, a double corner): for Black to move,
        // the opponent's corner king counts against it.
        assert_eq!(counts("B:WK29:B9,22"), [-1, 0]);
        // A king on 28 (White's own 5) is not in a double corner.
        assert_eq!(counts("B:WK28:B9,22"), [0, 0]);
        // Black behind, with kings on 4 and 8 (its own double corner) and a man on 1.
        assert_eq!(counts("W:W10,14,18,22:BK4,K8,1"), [-2, 0]);
    }

    #[test]
    fn mirrored_positions_count_alike() {
        for fen in [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W12,K29:B9,22",
            "W:WK29:B9,22,K4",
            "W:W10,14,18,22:BK4,K8,1",
        ] {
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(classic_counts(&p), classic_counts(&p.mirrored()), "{fen}");
        }
    }

    #[test]
    fn exchange_is_the_lead_over_the_pieces_for_the_side_to_move() {
        let input = |fen: &str| exchange_input(&Position::from_fen(fen).unwrap());
        assert_eq!(input("B:W21-32:B1-12"), (0, 24));
        // Black two up with six pieces; White to move sees the same lead against it.
        assert_eq!(input("B:WK29:B9,22,K4,K8,1"), (96, 6));
        assert_eq!(input("W:WK29:B9,22,K4,K8,1"), (-96, 6));
        // Kings count as pieces, as men do.
        assert_eq!(input("W:WK29,K30:BK4"), (24, 3));
    }

    #[test]
    fn the_value_is_the_weighted_sum() {
        assert_eq!(classic_value(&[10, 3], &[-2, 1]), -17);
    }
}
