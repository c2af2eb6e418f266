//! What the `patterns` evaluation of a position keeps from its parent's in a search: the men
//! regions' indices of both views and each colour's piece-square values, brought up to date
//! with each move from the squares it changed, so that an evaluation reads them ready.

use crate::board::{Bitboard, Color, Position};

use super::extended::{table_values, ExtraPair};
use super::pattern_evaluator::PatternWeights;
use super::patterns::MenIndices;

/// The incremental part of a position's `patterns` evaluation (a search keeps one a ply, on a
/// fixed stack): valid for the position and weights it was made or updated with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternState {
    /// Every men region's index, in Black's view and in White's.
    men: MenIndices,
    /// Each colour's piece-square values (`[Black's, White's]`), opening and endgame.
    tables: [(i32, i32); 2],
}

impl Default for PatternState {
    fn default() -> PatternState {
        PatternState {
            men: [[0; super::patterns::MAX_INCREMENTAL_REGIONS]; 2],
            tables: [(0, 0); 2],
        }
    }
}

/// A colour's men and kings, board bits.
#[inline(always)]
fn pieces_of(pos: &Position, color: Color) -> (Bitboard, Bitboard) {
    (pos.men(color), pos.kings_of(color))
}

/// The piece-square value of `color`'s pieces on `squares` (board bits) from `table` (a men's or
/// kings' table, indexed by the square of the owner's view less one), in both phases.
#[inline(always)]
fn square_values(squares: Bitboard, color: Color, opening: &[i32], endgame: &[i32]) -> (i32, i32) {
    let mut rest = match color {
        Color::Black => squares,
        Color::White => squares.reverse_bits(),
    };
    let (mut o, mut e) = (0, 0);
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        o += opening[i];
        e += endgame[i];
    }
    (o, e)
}

impl PatternState {
    /// The state of `pos` computed from scratch.
    pub fn new(pos: &Position, extra: &ExtraPair, patterns: &PatternWeights) -> PatternState {
        PatternState {
            men: patterns
                .tables
                .men_indices(pos.men(Color::Black), pos.men(Color::White)),
            tables: [Color::Black, Color::White].map(|c| table_values(pos, c, extra)),
        }
    }

    /// The state of `child`, one move after `parent` whose state this is: only the squares
    /// the move changed are read (a capture's, a promotion's and a multi-jump's alike).
    #[inline(always)]
    pub fn after(
        &self,
        parent: &Position,
        child: &Position,
        extra: &ExtraPair,
        patterns: &PatternWeights,
    ) -> PatternState {
        let mut next = *self;
        let before = [Color::Black, Color::White].map(|c| pieces_of(parent, c));
        let after = [Color::Black, Color::White].map(|c| pieces_of(child, c));
        if patterns.tables.incremental() {
            patterns.tables.update_men_indices(
                &mut next.men,
                [before[0].0, before[1].0],
                [after[0].0, after[1].0],
            );
        }
        for color in [Color::Black, Color::White] {
            let c = color as usize;
            let ((men0, kings0), (men1, kings1)) = (before[c], after[c]);
            let (men_changed, kings_changed) = (men0 ^ men1, kings0 ^ kings1);
            if men_changed | kings_changed == 0 {
                continue;
            }
            let (o, e) = &mut next.tables[c];
            let men = (&extra.opening.men[..], &extra.endgame.men[..]);
            let kings = (&extra.opening.kings[..], &extra.endgame.kings[..]);
            for (squares, table, sign) in [
                (men0 & men_changed, men, -1),
                (men1 & men_changed, men, 1),
                (kings0 & kings_changed, kings, -1),
                (kings1 & kings_changed, kings, 1),
            ] {
                if squares != 0 {
                    let (vo, ve) = square_values(squares, color, table.0, table.1);
                    *o += sign * vo;
                    *e += sign * ve;
                }
            }
        }
        next
    }

    /// The men regions' indices of the side to move `us` and of its opponent, each in its own
    /// view.
    #[inline(always)]
    pub fn men_indices(&self, us: Color) -> (&[u16], &[u16]) {
        let us = us as usize;
        (&self.men[us], &self.men[us ^ 1])
    }

    /// Each colour's piece-square values, `[Black's, White's]`.
    #[inline(always)]
    pub fn table_values(&self) -> [(i32, i32); 2] {
        self.tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern_evaluator::{
        evaluate_patterns, evaluate_patterns_at, evaluate_patterns_quiet,
    };
    use crate::eval::{KingLayout, PatternTables, RankLayout, RegionLayout, WeightPair};

    /// Weights with every table entry and piece-square value some value of its own.
    fn weights(regions: Vec<crate::eval::Region>) -> (WeightPair, ExtraPair, PatternWeights) {
        let mut tables = PatternTables::zero(regions);
        let values = (0..tables.len() as i64)
            .map(|i| [(i * 7919 % 23 - 11) as i32, (i * 104_729 % 31 - 15) as i32])
            .collect();
        tables.set_values(values).unwrap();
        let mut extra = ExtraPair::default();
        for (i, v) in extra.opening.men.iter_mut().enumerate() {
            *v = (i as i32 * 13) % 17 - 8;
        }
        for (i, v) in extra.endgame.men.iter_mut().enumerate() {
            *v = (i as i32 * 7) % 11 - 5;
        }
        for (i, v) in extra.opening.kings.iter_mut().enumerate() {
            *v = (i as i32 * 5) % 19 - 9;
        }
        for (i, v) in extra.endgame.kings.iter_mut().enumerate() {
            *v = (i as i32 * 3) % 13 - 6;
        }
        let patterns = PatternWeights {
            classic_opening: [20, 3],
            classic_endgame: [-7, 5],
            exchange: [11, 17],
            tables,
        };
        (WeightPair::material(), extra, patterns)
    }

    /// Plays random games from the start and from a kings' position, comparing the state kept
    /// move by move with the state and the evaluation computed from scratch at every ply;
    /// returns how many captures, multi-jumps and promotions the games held.
    fn compare_games(patterns: &PatternWeights, ten: &WeightPair, extra: &ExtraPair) -> [u32; 3] {
        let mut seen = [0; 3];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for game in 0..60 {
            let mut pos = if game % 4 == 3 {
                Position::from_fen("W:WK10,K19,27,29:BK14,K23,3,6").unwrap()
            } else {
                Position::start()
            };
            let mut state = PatternState::new(&pos, extra, patterns);
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                let next = pos.play(&mv);
                seen[0] += u32::from(mv.is_capture());
                seen[1] += u32::from(mv.jump_count() > 1);
                seen[2] += u32::from(next.kings().count_ones() > pos.kings().count_ones());
                state = state.after(&pos, &next, extra, patterns);
                pos = next;
                assert_eq!(state, PatternState::new(&pos, extra, patterns), "{pos}");
                let full = evaluate_patterns(&pos, ten, extra, patterns);
                assert_eq!(
                    evaluate_patterns_at(&pos, ten, extra, patterns, &state, false),
                    Some(full),
                    "{pos}"
                );
                if pos.jumpers() == 0 {
                    assert_eq!(
                        evaluate_patterns_at(&pos, ten, extra, patterns, &state, true),
                        evaluate_patterns_quiet(&pos, ten, extra, patterns),
                        "{pos}"
                    );
                }
            }
        }
        seen
    }

    #[test]
    fn the_state_kept_move_by_move_equals_the_full_one_in_random_games() {
        for regions in [
            RegionLayout::BandsAndStrips.regions(),
            RegionLayout::Wide.regions(),
            {
                let mut r = RegionLayout::Bands.regions();
                r.extend(KingLayout::Quadrants.regions());
                r.extend(RankLayout::Home.regions());
                r
            },
            // Irregular regions: the general computation's path.
            vec![
                crate::eval::Region::new(&[2, 9, 31, 17]).unwrap(),
                crate::eval::Region::new(&[32, 1, 5, 6, 10, 14, 22, 30]).unwrap(),
            ],
        ] {
            let (ten, extra, patterns) = weights(regions);
            assert!(patterns.tables.incremental());
            let [captures, multi, promotions] = compare_games(&patterns, &ten, &extra);
            assert!(
                captures > 100 && multi > 5 && promotions > 20,
                "{captures} {multi} {promotions}"
            );
        }
    }

    #[test]
    fn more_regions_than_the_stack_holds_are_not_kept() {
        let regions = (1..=17)
            .map(|s| crate::eval::Region::new(&[s]).unwrap())
            .collect();
        assert!(!PatternTables::zero(regions).incremental());
    }
}
