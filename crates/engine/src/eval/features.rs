//! The ten features of docs/features.md, counted with masks and popcounts, and the evaluation.

use crate::board::{rows, Bitboard, Color, Direction, Position, EDGE};

use super::weight_sets::{Weights, FEATURE_COUNT};

/// One side's ten feature counts, in [`FEATURE_NAMES`](super::FEATURE_NAMES) order.
pub type FeatureCounts = [i32; FEATURE_COUNT];

/// Black's first two rows (squares 1–8): its defenders' squares.
const BLACK_HOME: Bitboard = rows(0, 1);
/// White's first two rows (squares 25–32).
const WHITE_HOME: Bitboard = rows(6, 7);
/// White's first three rows (squares 21–32): where Black's attackers stand.
const BLACK_ATTACK: Bitboard = rows(5, 7);
/// Black's first three rows (squares 1–12).
const WHITE_ATTACK: Bitboard = rows(0, 2);

/// Squares whose row index has bit 0, 1 or 2 set: the row of a set of men, summed, is
/// `popcount(men & ROW_BIT_0) + 2 popcount(men & ROW_BIT_1) + 4 popcount(men & ROW_BIT_2)`.
const ROW_BIT_0: Bitboard = 0xF0F0_F0F0;
const ROW_BIT_1: Bitboard = 0xFF00_FF00;
const ROW_BIT_2: Bitboard = 0xFFFF_0000;

/// Sum over `men` of the rows still to go to the crowning row, for `color`.
#[inline(always)]
fn promotion_distance(men: Bitboard, color: Color) -> i32 {
    let row_sum = (men & ROW_BIT_0).count_ones()
        + 2 * (men & ROW_BIT_1).count_ones()
        + 4 * (men & ROW_BIT_2).count_ones();
    (match color {
        // A Black man on row r has 7 - r rows to go; a White man has r.
        Color::Black => 7 * men.count_ones() - row_sum,
        Color::White => row_sum,
    }) as i32
}

/// The simple moves and single jumps of `color`'s pieces, whoever is to move.
#[inline(always)]
fn mobility_and_jumps(pos: &Position, color: Color) -> (i32, i32) {
    // One arm per colour, so that the directions are constants in the inlined body.
    match color {
        Color::Black => mobility_and_jumps_toward(pos, color, Color::Black.directions()),
        Color::White => mobility_and_jumps_toward(pos, color, Color::White.directions()),
    }
}

#[inline(always)]
fn mobility_and_jumps_toward(
    pos: &Position,
    color: Color,
    [f1, f2, b1, b2]: [Direction; 4],
) -> (i32, i32) {
    let own = pos.pieces(color);
    let kings = own & pos.kings();
    let enemy = pos.pieces(color.opponent());
    let empty = pos.empty();
    let mut moves = 0;
    let mut jumps = 0;
    for (d, movers) in [(f1, own), (f2, own), (b1, kings), (b2, kings)] {
        moves += (d.step(movers) & empty).count_ones();
        jumps += (d.jump_sources(enemy, empty) & movers).count_ones();
    }
    (moves as i32, jumps as i32)
}

/// The ten feature counts of `color` in `pos` (whoever is to move).
#[inline(always)]
pub fn features(pos: &Position, color: Color) -> FeatureCounts {
    let pieces = pos.pieces(color);
    let men = pos.men(color);
    let kings = pos.kings_of(color);
    let (home, attack) = match color {
        Color::Black => (BLACK_HOME, BLACK_ATTACK),
        Color::White => (WHITE_HOME, WHITE_ATTACK),
    };
    let (mobility, jumps) = mobility_and_jumps(pos, color);
    [
        men.count_ones() as i32,
        kings.count_ones() as i32,
        (men & EDGE).count_ones() as i32,
        (kings & EDGE).count_ones() as i32,
        (pieces & home).count_ones() as i32,
        (pieces & attack).count_ones() as i32,
        promotion_distance(men, color),
        (pos.empty() & color.crowning_row()).count_ones() as i32,
        mobility,
        jumps,
    ]
}

/// `sum_i w_i * (f_i(us) - f_i(them))`, from the point of view of the side to move.
#[inline]
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let us = pos.side_to_move();
    weighted_difference(&features(pos, us), &features(pos, us.opponent()), weights)
}

/// The evaluation of a position known to have no capture for the side to move, or `None` if
/// the side to move has no move at all (it has lost). One feature pass serves both answers:
/// with no capture, the side is lost exactly when its mobility is zero.
#[inline]
pub fn evaluate_quiet(pos: &Position, weights: &Weights) -> Option<i32> {
    let us = pos.side_to_move();
    let ours = features(pos, us);
    if ours[MOBILITY] == 0 {
        return None;
    }
    Some(weighted_difference(
        &ours,
        &features(pos, us.opponent()),
        weights,
    ))
}

/// Index of the `mobility` feature.
pub(super) const MOBILITY: usize = 8;

#[inline(always)]
fn weighted_difference(ours: &FeatureCounts, theirs: &FeatureCounts, weights: &Weights) -> i32 {
    let mut total = 0i32;
    for i in 0..FEATURE_COUNT {
        total += weights.0[i] * (ours[i] - theirs[i]);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(fen: &str) -> (FeatureCounts, FeatureCounts) {
        let pos = Position::from_fen(fen).unwrap();
        (features(&pos, Color::Black), features(&pos, Color::White))
    }

    #[test]
    fn start_position_features_by_hand() {
        let (b, w) = counts("B:W21-32:B1-12");
        // pawns, kings, safe pawns (1-4, 5, 12), safe kings, defenders (1-8), attackers,
        // promotion distance (4 men each at 7, 6, 5 rows), open promotion, mobility (9-13,
        // 9-14, 10-14, 10-15, 11-15, 11-16, 12-16), jumps.
        assert_eq!(b, [12, 0, 6, 0, 8, 0, 4 * (7 + 6 + 5), 0, 7, 0]);
        assert_eq!(w, [12, 0, 6, 0, 8, 0, 4 * (7 + 6 + 5), 0, 7, 0]);
    }

    #[test]
    fn kings_edges_attackers_and_jumps_by_hand() {
        // Black: men 6 and 22, king 28. White: men 18 and 25, king 4. White to move.
        let (b, w) = counts("W:W18,25,K4:B6,22,K28");
        // Black men 6 (row 1: 6 rows to go) and 22 (row 5: 2 to go); king 28 on the edge and
        // in White's first three rows, as is 22; defenders: 6. Empty squares on 29-32: 4.
        // Black simple moves: 6-9, 6-10, 22-26, king 28-32 and 28-24 → 5 (22-25 is
        // blocked). Black jumps: 22 over 25 onto the empty 29 (25 is not an edge square) → 1.
        assert_eq!(b, [2, 1, 0, 1, 1, 2, 8, 4, 5, 1]);
        // White men 18 (row 4: 4 to go) and 25 (row 6: 6 to go); king 4 on the edge and in
        // Black's first three rows. Safe pawns: none (25 is not an edge square). Defenders: 25. Empty on 1-4: 3.
        // White simple moves: 18-14, 18-15, 25-21, king 4-8 → 4 (25-22 blocked by 22).
        // White jumps: 25 over 22 to 18? 18 is occupied → no; 18 over 22? backward for a man.
        assert_eq!(w, [2, 1, 0, 1, 1, 1, 10, 3, 4, 0]);
    }

    #[test]
    fn jumps_count_piece_direction_pairs() {
        // White king on 14 with black men on 9, 10, 17, 18 around it: it can jump each of them
        // (landing on 5, 7, 21, 23), and has no simple move.
        let (b, w) = counts("W:WK14:B9,10,17,18");
        assert_eq!(w[9], 4);
        assert_eq!(w[8], 0);
        // Black's men on 9 and 10 would jump 14 onto 18 and 17, both occupied → 0.
        assert_eq!(b[9], 0);
    }

    /// The worked example of the docs/features.md, counted there by hand.
    #[test]
    fn the_readme_worked_example() {
        let (b, w) = counts("W:W9,K14,22,25,30:B6,13,17,K26,28");
        assert_eq!(b, [4, 1, 2, 0, 1, 2, 14, 3, 5, 0]);
        assert_eq!(w, [4, 1, 1, 0, 2, 1, 20, 4, 5, 3]);
        let pos = Position::from_fen("W:W9,K14,22,25,30:B6,13,17,K26,28").unwrap();
        assert_eq!(
            evaluate(&pos, &Weights([100, 150, 5, 5, 3, 4, -2, 6, 2, 10])),
            18
        );
    }

    #[test]
    fn evaluation_is_from_the_side_to_moves_view() {
        let w = Weights([100, 150, 0, 0, 0, 0, 0, 0, 0, 0]);
        let black = Position::from_fen("B:W21,22:B1,2,K3").unwrap();
        let white = Position::from_fen("W:W21,22:B1,2,K3").unwrap();
        assert_eq!(evaluate(&black, &w), 150);
        assert_eq!(evaluate(&white, &w), -150);
    }
}
