//! The `extended` evaluator of docs/features.md: the ten features, classic checkers terms and
//! piece-square tables for men and kings, with opening and endgame values tapered by the number
//! of pieces on the board.
//!
//! Every term is counted from its owner's view: a White piece on square `s` counts as a Black
//! one on `33 − s` (the board turned round), so one table and one set of masks serve both sides
//! and the evaluation of a position equals that of its mirror image.

use serde::{Deserialize, Serialize};

use crate::board::{Bitboard, Color, Direction, Position};

use super::features::{features, FeatureCounts, MOBILITY};
use super::weight_sets::{WeightPair, FEATURE_COUNT};

/// Number of classic terms.
pub const TERM_COUNT: usize = 2;

/// The classic terms' names, in the order of every file and weight vector.
pub const TERM_NAMES: [&str; TERM_COUNT] = ["bridge", "exposure"];

/// Squares a man can stand on (its own crowning row excluded): 1–28 from its owner's view.
pub const MAN_SQUARES: usize = 28;

/// Squares a king can stand on.
pub const KING_SQUARES: usize = 32;

/// Inputs of one phase of the extended evaluator: the ten features, the classic terms, the men's
/// table and the kings' table, in that order.
pub const EXTENDED_INPUTS: usize = FEATURE_COUNT + TERM_COUNT + MAN_SQUARES + KING_SQUARES;

/// The most pieces a board holds: the extended evaluator's opening weights apply in full there.
pub const FULL_BOARD: i32 = 24;

/// The weights the extended evaluator adds to the ten features, for one phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExtraWeights {
    /// One weight per classic term, in [`TERM_NAMES`] order.
    pub terms: [i32; TERM_COUNT],
    /// The men's table: index `s − 1` for a man on square `s` of its owner's view.
    pub men: [i32; MAN_SQUARES],
    /// The kings' table: index `s − 1` for a king on square `s` of its owner's view.
    pub kings: [i32; KING_SQUARES],
}

impl Default for ExtraWeights {
    fn default() -> ExtraWeights {
        ExtraWeights {
            terms: [0; TERM_COUNT],
            men: [0; MAN_SQUARES],
            kings: [0; KING_SQUARES],
        }
    }
}

impl ExtraWeights {
    /// The weights as one list: terms, men's table, kings' table.
    pub fn to_vec(&self) -> Vec<i32> {
        let mut all = Vec::with_capacity(EXTRA_COUNT);
        all.extend_from_slice(&self.terms);
        all.extend_from_slice(&self.men);
        all.extend_from_slice(&self.kings);
        all
    }

    /// The inverse of [`ExtraWeights::to_vec`]; `None` if `all` has the wrong length.
    pub fn from_slice(all: &[i32]) -> Option<ExtraWeights> {
        if all.len() != EXTRA_COUNT {
            return None;
        }
        let (terms, rest) = all.split_at(TERM_COUNT);
        let (men, kings) = rest.split_at(MAN_SQUARES);
        Some(ExtraWeights {
            terms: terms.try_into().ok()?,
            men: men.try_into().ok()?,
            kings: kings.try_into().ok()?,
        })
    }

    /// The weights as the weights file names and lists them: `terms`, `men`, `kings`.
    pub fn lists(&self) -> [(&'static str, &[i32]); 3] {
        [
            ("terms", &self.terms),
            ("men", &self.men),
            ("kings", &self.kings),
        ]
    }

    /// [`ExtraWeights::lists`], to write.
    pub fn lists_mut(&mut self) -> [(&'static str, &mut [i32]); 3] {
        [
            ("terms", &mut self.terms),
            ("men", &mut self.men),
            ("kings", &mut self.kings),
        ]
    }

    /// The largest absolute weight.
    pub fn max_abs(&self) -> u32 {
        self.to_vec()
            .iter()
            .map(|w| w.unsigned_abs())
            .max()
            .unwrap_or(0)
    }
}

/// The extended evaluator's weights beyond the ten features: an opening and an endgame set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExtraPair {
    /// Weighs fully on a full board.
    pub opening: ExtraWeights,
    /// Weighs fully on an empty one (see [`taper`]).
    pub endgame: ExtraWeights,
}

/// The number of weights of one phase beyond the ten features.
pub const EXTRA_COUNT: usize = TERM_COUNT + MAN_SQUARES + KING_SQUARES;

/// The names of one phase's weights beyond the ten features, in [`ExtraWeights::to_vec`]
/// order: the terms, then `men_1` … `men_28` and `kings_1` … `kings_32` (squares from the
/// owner's view). Columns of `specimens.csv` and rows of the CSV export use them.
pub fn extra_names() -> Vec<String> {
    let mut names: Vec<String> = TERM_NAMES.iter().map(|n| n.to_string()).collect();
    names.extend((1..=MAN_SQUARES).map(|s| format!("men_{s}")));
    names.extend((1..=KING_SQUARES).map(|s| format!("kings_{s}")));
    names
}

/// One side's classic-term counts, in [`TERM_NAMES`] order.
pub type TermCounts = [i32; TERM_COUNT];

/// The back-row bridge squares 1 and 3, from the owner's view.
const BRIDGE: Bitboard = 0b101;

/// The classic terms of the side whose pieces are `own` (kings among them: `own_kings`),
/// given from Black's view (White's boards turned round), against `enemy`.
#[inline(always)]
fn terms_as_black(
    own: Bitboard,
    own_kings: Bitboard,
    enemy: Bitboard,
    any_kings: bool,
) -> TermCounts {
    let empty = !(own | enemy);
    let men = own & !own_kings;
    let bridge = i32::from(!any_kings && men & BRIDGE == BRIDGE);
    // A piece is exposed when both ends of one of its diagonals are empty: an enemy piece on
    // either end could jump it.
    let empty_down_left = Direction::UpRight.step(Direction::DownLeft.step(own) & empty);
    let empty_up_right = Direction::DownLeft.step(Direction::UpRight.step(own) & empty);
    let empty_down_right = Direction::UpLeft.step(Direction::DownRight.step(own) & empty);
    let empty_up_left = Direction::DownRight.step(Direction::UpLeft.step(own) & empty);
    let exposed = (empty_down_left & empty_up_right) | (empty_down_right & empty_up_left);
    [bridge, (exposed & own).count_ones() as i32]
}

/// A side's pieces, kings and the enemy's pieces from that side's view (White's boards
/// turned round).
#[inline(always)]
pub(super) fn view(pos: &Position, color: Color) -> (Bitboard, Bitboard, Bitboard) {
    let own = pos.pieces(color);
    let kings = pos.kings_of(color);
    let enemy = pos.pieces(color.opponent());
    match color {
        Color::Black => (own, kings, enemy),
        Color::White => (
            own.reverse_bits(),
            kings.reverse_bits(),
            enemy.reverse_bits(),
        ),
    }
}

/// The classic-term counts of `color` in `pos`.
#[inline(always)]
pub fn terms(pos: &Position, color: Color) -> TermCounts {
    let (own, kings, enemy) = view(pos, color);
    terms_as_black(own, kings, enemy, pos.kings() != 0)
}

/// The opening and endgame tables' values of a side's men and kings (from its own view); the
/// men's table left out unless `MEN_TABLE` (the pattern evaluator may carry it in its region
/// tables).
#[inline(always)]
fn table_sums<const MEN_TABLE: bool>(
    men: Bitboard,
    kings: Bitboard,
    extra: &ExtraPair,
) -> (i32, i32) {
    let (mut opening, mut endgame) = (0, 0);
    let mut rest = if MEN_TABLE { men } else { 0 };
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        opening += extra.opening.men[i];
        endgame += extra.endgame.men[i];
    }
    let mut rest = kings;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        opening += extra.opening.kings[i];
        endgame += extra.endgame.kings[i];
    }
    (opening, endgame)
}

/// A side's classic terms and its tables' values for both phases.
#[inline(always)]
fn side_terms_and_tables<const MEN_TABLE: bool>(
    pos: &Position,
    color: Color,
    extra: &ExtraPair,
) -> (TermCounts, (i32, i32)) {
    let (own, kings, enemy) = view(pos, color);
    (
        terms_as_black(own, kings, enemy, pos.kings() != 0),
        table_sums::<MEN_TABLE>(own & !kings, kings, extra),
    )
}

/// The opening weights' share of the evaluation with `pieces` on the board, in 24ths: the
/// evaluation is `(opening · pieces + endgame · (24 − pieces)) / 24`.
#[inline(always)]
pub fn taper(pieces: u32) -> i32 {
    (pieces as i32).min(FULL_BOARD)
}

/// One phase's value of the side to move: its counts minus the opponent's, weighted, plus the
/// tables' difference.
#[inline(always)]
fn phase_value(
    ten: &[i32; FEATURE_COUNT],
    terms: &[i32; TERM_COUNT],
    features: &FeatureCounts,
    term_counts: &TermCounts,
    tables: i32,
) -> i32 {
    let mut total = tables;
    for i in 0..FEATURE_COUNT {
        total += ten[i] * features[i];
    }
    for i in 0..TERM_COUNT {
        total += terms[i] * term_counts[i];
    }
    total
}

/// The extended evaluation's opening and endgame values of `pos` for the side to move, before
/// the taper; `None` when `quiet` (the side to move is known to have no capture) and the side
/// to move has no move (it has lost). The men's table is left out unless `MEN_TABLE`.
#[inline(always)]
pub(super) fn phase_values<const MEN_TABLE: bool>(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    quiet: bool,
) -> Option<(i32, i32)> {
    let us = pos.side_to_move();
    let them = us.opponent();
    let ours = features(pos, us);
    if quiet && ours[MOBILITY] == 0 {
        return None;
    }
    let theirs = features(pos, them);
    let features: FeatureCounts = std::array::from_fn(|i| ours[i] - theirs[i]);
    let (our_terms, (our_opening, our_endgame)) =
        side_terms_and_tables::<MEN_TABLE>(pos, us, extra);
    let (their_terms, (their_opening, their_endgame)) =
        side_terms_and_tables::<MEN_TABLE>(pos, them, extra);
    let term_counts: TermCounts = std::array::from_fn(|i| our_terms[i] - their_terms[i]);
    let opening = phase_value(
        &ten.opening.0,
        &extra.opening.terms,
        &features,
        &term_counts,
        our_opening - their_opening,
    );
    let endgame = phase_value(
        &ten.endgame.0,
        &extra.endgame.terms,
        &features,
        &term_counts,
        our_endgame - their_endgame,
    );
    Some((opening, endgame))
}

/// The tapered value of a position with `pieces` on the board: `(opening · p + endgame ·
/// (24 − p)) / 24`, `p` at most 24, truncating toward zero.
#[inline(always)]
pub(super) fn tapered(opening: i32, endgame: i32, pieces: u32) -> i32 {
    let share = taper(pieces);
    (opening * share + endgame * (FULL_BOARD - share)) / FULL_BOARD
}

/// The extended evaluation of `pos` for the side to move; `None` when `quiet` (the side to move
/// is known to have no capture) and the side to move has no move (it has lost).
#[inline(always)]
fn evaluate_with(pos: &Position, ten: &WeightPair, extra: &ExtraPair, quiet: bool) -> Option<i32> {
    let (opening, endgame) = phase_values::<true>(pos, ten, extra, quiet)?;
    Some(tapered(opening, endgame, pos.piece_count()))
}

/// The extended evaluation of `pos` from the side to move's view.
#[inline]
pub fn evaluate_extended(pos: &Position, ten: &WeightPair, extra: &ExtraPair) -> i32 {
    evaluate_with(pos, ten, extra, false).expect("not asked to detect a loss")
}

/// [`evaluate_extended`] of a position known to have no capture for the side to move, or
/// `None` if that side has no move at all.
#[inline]
pub fn evaluate_extended_quiet(pos: &Position, ten: &WeightPair, extra: &ExtraPair) -> Option<i32> {
    evaluate_with(pos, ten, extra, true)
}

/// The inputs of one phase of the extended evaluator for the side to move: its counts minus
/// the opponent's, in [`EXTENDED_INPUTS`] order (the tables as piece counts per square). The
/// evaluation is `Σ weight · input` per phase, tapered; a fit learns from these.
pub fn extended_inputs(pos: &Position) -> [i8; EXTENDED_INPUTS] {
    let us = pos.side_to_move();
    let them = us.opponent();
    let mut inputs = [0i8; EXTENDED_INPUTS];
    let (ours, theirs) = (features(pos, us), features(pos, them));
    let (our_terms, their_terms) = (terms(pos, us), terms(pos, them));
    for i in 0..FEATURE_COUNT {
        inputs[i] = (ours[i] - theirs[i]) as i8;
    }
    for i in 0..TERM_COUNT {
        inputs[FEATURE_COUNT + i] = (our_terms[i] - their_terms[i]) as i8;
    }
    let men_at = FEATURE_COUNT + TERM_COUNT;
    let kings_at = men_at + MAN_SQUARES;
    for (color, sign) in [(us, 1), (them, -1)] {
        let (own, kings, _) = view(pos, color);
        for (at, mut set) in [(men_at, own & !kings), (kings_at, kings)] {
            while set != 0 {
                inputs[at + set.trailing_zeros() as usize] += sign;
                set &= set - 1;
            }
        }
    }
    inputs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn start_position_terms_by_hand() {
        let start = Position::start();
        // Bridge: men on 1 and 3, no kings. Exposed: none (the front men 9-12 have empty
        // squares ahead but pieces behind).
        assert_eq!(terms(&start, Color::Black), [1, 0]);
        assert_eq!(terms(&start, Color::White), [1, 0]);
        // Without the man on 3 there is no bridge.
        let open = pos("B:W21-32:B1,2,4-12");
        assert_eq!(terms(&open, Color::Black), [0, 0]);
    }

    #[test]
    fn exposure_by_hand() {
        // Black: men 1, 3 and 14, king 29. White: men 22 and 30, king 4; Black to move.
        let p = pos("B:W22,30,K4:B1,3,14,K29");
        // Black: bridge needs no king on the board → 0. Exposed: 14 (its diagonals 17-10 and
        // 18-9 have both ends empty) → 1; 1, 3 and 29 have an end off the board.
        assert_eq!(terms(&p, Color::Black), [0, 1]);
        // White: 22 (its diagonal 18-25 has both ends empty) → 1; 30 and the king on 4 are on
        // the edge.
        assert_eq!(terms(&p, Color::White), [0, 1]);
        // A piece on either end of 14's diagonals covers it: with 10 and 18 taken it is not
        // exposed; 10 is (6 and 15 empty), 18 is not (22 holds White's man, 14 Black's).
        let covered = pos("B:W22,30,K4:B1,3,10,14,18,K29");
        assert_eq!(terms(&covered, Color::Black)[1], 1);
    }

    #[test]
    fn the_evaluation_is_the_inputs_dot_the_weights() {
        let p = pos("W:W9,K14,22,25,30:B6,13,17,K26,28");
        let ten = WeightPair {
            opening: Weights([100, 150, 5, 5, 3, 4, -2, 6, 2, 10]),
            endgame: Weights([100, 170, 1, 2, 3, 4, -5, 6, 7, 8]),
        };
        let mut extra = ExtraPair::default();
        for i in 0..MAN_SQUARES {
            extra.opening.men[i] = i as i32 - 10;
            extra.endgame.men[i] = 3 * i as i32 % 7;
        }
        for i in 0..KING_SQUARES {
            extra.opening.kings[i] = (i as i32 * 5) % 11;
            extra.endgame.kings[i] = 20 - i as i32;
        }
        extra.opening.terms = [7, -9];
        extra.endgame.terms = [1, -4];
        let inputs = extended_inputs(&p);
        let weights = |ten: &Weights, extra: &ExtraWeights| -> Vec<i32> {
            ten.0.iter().copied().chain(extra.to_vec()).collect()
        };
        let dot =
            |w: Vec<i32>| -> i32 { w.iter().zip(inputs).map(|(w, x)| w * i32::from(x)).sum() };
        let opening = dot(weights(&ten.opening, &extra.opening));
        let endgame = dot(weights(&ten.endgame, &extra.endgame));
        let n = p.piece_count() as i32;
        assert_eq!(
            evaluate_extended(&p, &ten, &extra),
            (opening * n + endgame * (24 - n)) / 24
        );
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        let mut extra = ExtraPair::default();
        for i in 0..MAN_SQUARES {
            extra.opening.men[i] = (i as i32 * 7) % 13 - 6;
        }
        for i in 0..KING_SQUARES {
            extra.endgame.kings[i] = (i as i32 * 3) % 17 - 8;
        }
        extra.opening.terms = [11, -7];
        let ten = WeightPair::material();
        for fen in [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W22,30,K4:B1,3,14,K29",
            "W:WK32:B23,24,27,28,25",
        ] {
            let p = pos(fen);
            let m = p.mirrored();
            assert_eq!(extended_inputs(&p), extended_inputs(&m), "{fen}");
            assert_eq!(
                evaluate_extended(&p, &ten, &extra),
                evaluate_extended(&m, &ten, &extra),
                "{fen}"
            );
        }
    }

    /// The worked example of docs/features.md, counted there by hand.
    #[test]
    fn the_docs_worked_example() {
        let p = pos("W:W9,K14,22,25,30:B6,13,17,K26,28");
        assert_eq!(terms(&p, Color::Black), [0, 1]);
        assert_eq!(terms(&p, Color::White), [0, 0]);
        let weights = crate::eval::Weights([100, 150, 5, 5, 3, 4, -2, 6, 2, 10]);
        let ten = WeightPair {
            opening: weights,
            endgame: weights,
        };
        let mut extra = ExtraPair::default();
        extra.opening.terms = [20, -10];
        extra.endgame.terms = [0, -5];
        for s in 1..=MAN_SQUARES {
            extra.opening.men[s - 1] = s as i32;
        }
        for s in [14, 15, 18, 19] {
            extra.endgame.kings[s - 1] = 10;
        }
        assert_eq!(evaluate_extended(&p, &ten, &extra), 23);
    }
}
