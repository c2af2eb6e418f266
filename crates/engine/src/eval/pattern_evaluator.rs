//! The `patterns` evaluator of docs/features.md: the extended evaluator, the classic terms and
//! the region tables, opening and endgame values tapered by the pieces on the board.

use crate::board::{Color, Position};

use super::classic::{classic_counts, classic_value, exchange_input, CLASSIC_COUNT};
use super::extended::{phase_values, tapered, ExtraPair};
use super::patterns::PatternTables;
use super::weight_sets::WeightPair;

/// The weights the `patterns` evaluator adds to the extended evaluator's: the classic terms
/// of both phases and the region tables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternWeights {
    /// The classic terms' weights on a full board, in
    /// [`CLASSIC_NAMES`](super::CLASSIC_NAMES) order.
    pub classic_opening: [i32; CLASSIC_COUNT],
    /// The classic terms' weights on an empty board.
    pub classic_endgame: [i32; CLASSIC_COUNT],
    /// The optional `exchange` term's weights (`24 · (own pieces − opponent's) / all pieces`
    /// for the side to move, docs/features.md), on a full board and on an empty one; `[0, 0]`
    /// (the default, and what a weights file without the term holds) leaves it out.
    pub exchange: [i32; 2],
    /// The region tables.
    pub tables: PatternTables,
}

impl PatternWeights {
    /// Zero classic weights and zero tables of `tables`' regions.
    pub fn zero(tables: PatternTables) -> PatternWeights {
        PatternWeights {
            classic_opening: [0; CLASSIC_COUNT],
            classic_endgame: [0; CLASSIC_COUNT],
            exchange: [0; 2],
            tables,
        }
    }

    /// Whether the `exchange` term is in (either weight not zero).
    pub fn has_exchange(&self) -> bool {
        self.exchange != [0; 2]
    }

    /// The largest absolute weight.
    pub fn max_abs(&self) -> u32 {
        self.classic_opening
            .iter()
            .chain(&self.classic_endgame)
            .chain(&self.exchange)
            .map(|w| w.unsigned_abs())
            .max()
            .unwrap_or(0)
            .max(self.tables.max_abs())
    }
}

/// The men of the side to move and of its opponent, each pair in that side's own view: `(own,
/// enemy)` for the side to move, then for the opponent.
#[inline(always)]
pub fn men_in_views(pos: &Position) -> ((u32, u32), (u32, u32)) {
    let black = pos.men(Color::Black);
    let white = pos.men(Color::White);
    let black_view = (black, white);
    let white_view = (white.reverse_bits(), black.reverse_bits());
    match pos.side_to_move() {
        Color::Black => (black_view, white_view),
        Color::White => (white_view, black_view),
    }
}

/// The kings of the side to move and of its opponent, each pair in that side's own view, as
/// [`men_in_views`] gives the men.
#[inline(always)]
pub fn kings_in_views(pos: &Position) -> ((u32, u32), (u32, u32)) {
    let black = pos.kings_of(Color::Black);
    let white = pos.kings_of(Color::White);
    let black_view = (black, white);
    let white_view = (white.reverse_bits(), black.reverse_bits());
    match pos.side_to_move() {
        Color::Black => (black_view, white_view),
        Color::White => (white_view, black_view),
    }
}

/// The evaluation of `pos` for the side to move; `None` when `quiet` (no capture for the side
/// to move) and that side has no move.
#[inline(always)]
fn evaluate_with(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    patterns: &PatternWeights,
    quiet: bool,
) -> Option<i32> {
    let (mut opening, mut endgame) = phase_values(pos, ten, extra, quiet)?;
    let pieces = pos.piece_count();
    let counts = classic_counts(pos);
    opening += classic_value(&patterns.classic_opening, &counts);
    endgame += classic_value(&patterns.classic_endgame, &counts);
    if patterns.has_exchange() {
        // No lead, no term: most positions skip the divisions (and an empty board has none).
        let (lead, all) = exchange_input(pos);
        if lead != 0 {
            opening += patterns.exchange[0] * lead / all;
            endgame += patterns.exchange[1] * lead / all;
        }
    }
    let (our_men, their_men) = men_in_views(pos);
    // Without king regions the kings are not read: the sums ignore them.
    let (our_kings, their_kings) = if patterns.tables.has_king_regions() {
        kings_in_views(pos)
    } else {
        ((0, 0), (0, 0))
    };
    let (our_opening, our_endgame) = patterns.tables.side_sums(our_men, our_kings);
    let (their_opening, their_endgame) = patterns.tables.side_sums(their_men, their_kings);
    opening += our_opening - their_opening;
    endgame += our_endgame - their_endgame;
    Some(tapered(opening, endgame, pieces))
}

/// The `patterns` evaluation of `pos` from the side to move's view.
#[inline]
pub fn evaluate_patterns(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    patterns: &PatternWeights,
) -> i32 {
    evaluate_with(pos, ten, extra, patterns, false).expect("not asked to detect a loss")
}

/// [`evaluate_patterns`] of a position known to have no capture for the side to move, or
/// `None` if that side has no move at all.
#[inline]
pub fn evaluate_patterns_quiet(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    patterns: &PatternWeights,
) -> Option<i32> {
    evaluate_with(pos, ten, extra, patterns, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate_extended, RegionLayout};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The ten features' weights all zero, in both sets.
    fn zero_ten() -> WeightPair {
        let zero = crate::eval::Weights::default();
        WeightPair {
            opening: zero,
            endgame: zero,
        }
    }

    fn some_weights() -> PatternWeights {
        weights_of(RegionLayout::BandsAndStrips.regions())
    }

    /// Every entry of `regions`' tables some value of its own.
    fn weights_of(regions: Vec<crate::eval::Region>) -> PatternWeights {
        let mut tables = PatternTables::zero(regions);
        let values = (0..tables.len() as i32)
            .map(|i| {
                [
                    (i64::from(i) * 7919 % 23 - 11) as i32,
                    (i64::from(i) * 104_729 % 31 - 15) as i32,
                ]
            })
            .collect();
        tables.set_values(values).unwrap();
        PatternWeights {
            classic_opening: [30, 5],
            classic_endgame: [15, 9],
            exchange: [0; 2],
            tables,
        }
    }

    #[test]
    fn zero_patterns_evaluate_as_extended() {
        let ten = WeightPair::material();
        let mut extra = ExtraPair::default();
        extra.opening.men[4] = 13;
        extra.endgame.kings[9] = -7;
        let zero = PatternWeights::zero(PatternTables::zero(RegionLayout::Bands.regions()));
        for fen in ["B:W21-32:B1-12", "W:W9,K14,22,25,30:B6,13,17,K26,28"] {
            let p = pos(fen);
            assert_eq!(
                evaluate_patterns(&p, &ten, &extra, &zero),
                evaluate_extended(&p, &ten, &extra)
            );
        }
    }

    #[test]
    fn the_exchange_term_is_its_weight_times_the_lead_over_the_pieces() {
        let ten = zero_ten();
        let extra = ExtraPair::default();
        let mut weights = PatternWeights::zero(PatternTables::zero(RegionLayout::Bands.regions()));
        weights.exchange = [30, 60];
        // Black five pieces to White's two: 24 · 3 / 7 of each weight for Black, the same
        // against White when White is to move.
        let black = pos("B:WK29,K30:B9,22,K4,K8,1");
        let white = pos("W:WK29,K30:B9,22,K4,K8,1");
        assert_eq!(
            evaluate_patterns(&black, &ten, &extra, &weights),
            tapered(30 * 72 / 7, 60 * 72 / 7, 7)
        );
        assert_eq!(
            evaluate_patterns(&white, &ten, &extra, &weights),
            tapered(-30 * 72 / 7, -60 * 72 / 7, 7)
        );
        // Trading a piece each while ahead raises it: 24 · 3 / 5.
        let traded = pos("B:WK29:B9,K4,K8,1");
        assert!(
            evaluate_patterns(&traded, &ten, &extra, &weights)
                > evaluate_patterns(&black, &ten, &extra, &weights)
        );
        // Level material adds nothing.
        assert_eq!(
            evaluate_patterns(&pos("B:WK29,K30:B9,22"), &ten, &extra, &weights),
            0
        );
        weights.exchange = [0; 2];
        assert_eq!(evaluate_patterns(&black, &ten, &extra, &weights), 0);
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        let ten = WeightPair::material();
        let extra = ExtraPair::default();
        let weights = some_weights();
        for fen in [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W22,30,K4:B1,3,14,K29",
            "W:WK32:B23,24,27,28,25",
        ] {
            let p = pos(fen);
            assert_eq!(
                evaluate_patterns(&p, &ten, &extra, &weights),
                evaluate_patterns(&p.mirrored(), &ten, &extra, &weights),
                "{fen}"
            );
        }
    }

    #[test]
    fn king_regions_keep_mirrored_positions_alike_and_read_only_kings() {
        let ten = WeightPair::material();
        let extra = ExtraPair::default();
        let mut regions = RegionLayout::BandsAndStrips.regions();
        regions.extend(crate::eval::KingLayout::Quadrants.regions());
        let with_kings = weights_of(regions);
        let mut men_only = with_kings.clone();
        let men_regions = RegionLayout::BandsAndStrips.regions().len();
        // The same men tables and no king tables: equal on a board without kings.
        men_only.tables = {
            let mut t = PatternTables::zero(RegionLayout::BandsAndStrips.regions());
            let men_entries = with_kings.tables.offset(men_regions);
            t.set_values(with_kings.tables.values().take(men_entries).collect())
                .unwrap();
            t
        };
        let king_at_zero: i32 = (men_regions..with_kings.tables.regions().len())
            .map(|r| with_kings.tables.table(r, 0)[0])
            .sum();
        assert_ne!(
            king_at_zero, 0,
            "the test needs a nonzero empty-region entry"
        );
        let men_board = pos("B:W21-32:B1-12");
        // Each side adds the same empty king regions' entries: they cancel.
        assert_eq!(
            evaluate_patterns(&men_board, &ten, &extra, &with_kings),
            evaluate_patterns(&men_board, &ten, &extra, &men_only)
        );
        let mut differ = false;
        for fen in [
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W22,30,K4:B1,3,14,K29",
            "W:WK32:B23,24,27,28,25",
            "B:WK1,K5,K32:BK28,K24",
        ] {
            let p = pos(fen);
            let value = evaluate_patterns(&p, &ten, &extra, &with_kings);
            assert_eq!(
                value,
                evaluate_patterns(&p.mirrored(), &ten, &extra, &with_kings),
                "{fen}"
            );
            differ |= value != evaluate_patterns(&p, &ten, &extra, &men_only);
        }
        assert!(differ, "the king tables change some evaluation with kings");
    }

    /// Positions of random games from the start (both sides to move, men and kings).
    fn random_positions(count: usize, mut state: u64) -> Vec<Position> {
        let mut out = Vec::new();
        while out.len() < count {
            let mut p = Position::start();
            for _ in 0..100 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                p = p.play(&moves[(state % moves.len() as u64) as usize]);
                out.push(p);
            }
        }
        out.truncate(count);
        out
    }

    /// With the home-ranks region, a position and its colour-swapped mirror (the same game
    /// from the other chair) still evaluate alike, and the table reads each side's own men on
    /// its home half alone: the side to move's entry minus the opponent's, each in its view.
    #[test]
    fn the_home_ranks_keep_mirrored_positions_alike_and_read_only_own_men() {
        let ten = WeightPair::material();
        let extra = ExtraPair::default();
        let mut regions = RegionLayout::BandsAndStrips.regions();
        regions.extend(crate::eval::KingLayout::Quadrants.regions());
        regions.extend(crate::eval::RankLayout::Home.regions());
        let with_ranks = weights_of(regions);
        let rank = with_ranks.tables.regions().len() - 1;
        // The same tables with every entry but the rank table's zero.
        let mut only_ranks = PatternWeights::zero(with_ranks.tables.clone());
        let first = only_ranks.tables.offset(rank);
        let values = with_ranks
            .tables
            .values()
            .enumerate()
            .map(|(e, v)| if e < first { [0, 0] } else { v })
            .collect();
        only_ranks.tables.set_values(values).unwrap();
        let rank_table = [0, 1].map(|phase| with_ranks.tables.table(rank, phase));
        let no_ten = zero_ten();
        let mut differ = 0;
        for p in random_positions(3000, 0x9e37_79b9_7f4a_7c15) {
            let value = evaluate_patterns(&p, &ten, &extra, &with_ranks);
            assert_eq!(
                value,
                evaluate_patterns(&p.mirrored(), &ten, &extra, &with_ranks),
                "{p}"
            );
            // Only the rank table's entries: the side to move's home half minus the
            // opponent's, each the low 16 bits of its men in its own view.
            let (us, them) = men_in_views(&p);
            let entry = |men: u32, phase: usize| rank_table[phase][(men & 0xFFFF) as usize];
            let opening = entry(us.0, 0) - entry(them.0, 0);
            let endgame = entry(us.0, 1) - entry(them.0, 1);
            let pieces = p.piece_count() as i32;
            assert_eq!(
                evaluate_patterns(&p, &no_ten, &extra, &only_ranks),
                (opening * pieces + endgame * (24 - pieces)) / 24,
                "{p}"
            );
            differ += usize::from(opening != 0 || endgame != 0);
        }
        assert!(
            differ > 1000,
            "the rank table mattered in {differ} positions"
        );
        // The side's kings and the opponent's pieces on its home half do not count: Black to
        // move with men on 1 and 2 (its 1 and 2), a king on 3, White's man on 10 and king on 5.
        let p = pos("B:W10,K5,30:B1,2,K3");
        let (us, them) = men_in_views(&p);
        assert_eq!(us.0 & 0xFFFF, 0b11);
        // White's man on 30 is on its own 3; its man on 10, on its 23, is not in its home half.
        assert_eq!(them.0 & 0xFFFF, 1 << 2);
        assert_eq!(
            with_ranks.tables.index(rank, us, ((1 << 2), 0)),
            3,
            "Black's index"
        );
        assert_eq!(with_ranks.tables.index(rank, them, (0, 0)), 1 << 2);
    }

    /// The tables add the side to move's entries and take the opponent's, the opponent's
    /// board turned round.
    #[test]
    fn a_table_entry_by_hand() {
        let ten = zero_ten();
        let extra = ExtraPair::default();
        let mut weights = PatternWeights::zero(PatternTables::zero(RegionLayout::Bands.regions()));
        // Black to move: men 1 and 6, White men 28 and 32. Black's first band (1-8): own men
        // on 1 (digit 1 × 3^0) and 6 (1 × 3^5) → 1 + 243 = 244. White's view turns the board:
        // its men on 28 and 32 are on its 5 and 1 → 3^4 + 3^0 = 82 in its first band.
        let p = pos("B:W28,32:B1,6");
        let mut values: Vec<[i32; 2]> = weights.tables.values().collect();
        values[244] = [100, 0];
        values[82] = [40, 0];
        weights.tables.set_values(values).unwrap();
        // With 4 pieces on the board the opening values weigh 4/24.
        assert_eq!(
            evaluate_patterns(&p, &ten, &extra, &weights),
            (100 - 40) * 4 / 24
        );
    }

    /// The home-ranks worked example of docs/features.md, counted there by hand.
    #[test]
    fn the_docs_home_ranks_example() {
        let p = pos("W:W9,K14,22,25,30:B6,13,17,K26,28");
        let ten = zero_ten();
        let extra = ExtraPair::default();
        let mut tables = PatternTables::zero(crate::eval::RankLayout::Home.regions());
        let ((white, _), (black, _)) = men_in_views(&p);
        assert_eq!(tables.index(0, (white, 0), (0, 0)), 1156);
        assert_eq!(tables.index(0, (black, 0), (0, 0)), 4128);
        let mut values = vec![[0, 0]; tables.len()];
        values[1156] = [30, 20];
        values[4128] = [12, 0];
        tables.set_values(values).unwrap();
        let weights = PatternWeights::zero(tables);
        assert_eq!(evaluate_patterns(&p, &ten, &extra, &weights), 19);
    }

    /// The worked example of docs/features.md, counted there by hand.
    #[test]
    fn the_docs_worked_example() {
        let p = pos("W:W9,K14,22,25,30:B6,13,17,K26,28");
        let ten = zero_ten();
        let extra = ExtraPair::default();
        let mut tables = PatternTables::zero(RegionLayout::Bands.regions());
        let bands = |r: usize| tables.offset(r);
        assert_eq!(tables.regions()[0].index_of(0b1000_0100, 0b1_0000), 2358);
        let mut values = vec![[0, 0]; tables.len()];
        values[bands(0) + 2358] = [40, 0];
        values[bands(3) + 515] = [25, 0];
        values[bands(2) + 487] = [-12, 0];
        values[bands(1) + 4383] = [0, 30];
        tables.set_values(values).unwrap();
        let weights = PatternWeights {
            classic_opening: [0, 10],
            classic_endgame: [0, 20],
            exchange: [0; 2],
            tables,
        };
        assert_eq!(crate::eval::classic_counts(&p), [0, 1]);
        assert_eq!(evaluate_patterns(&p, &ten, &extra, &weights), 44);
    }
}
