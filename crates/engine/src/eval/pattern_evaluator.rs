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

    /// These weights with the men's table of `extra` carried in the region tables, each square's
    /// value added to the entries of one men region holding it, for
    /// [`evaluate_carried`]: the evaluation reads one table less and gives the same value.
    /// `None` when some square of a value other than zero is in no men region or an entry
    /// would leave the tables' 16 bits.
    pub(crate) fn with_men_table(&self, extra: &ExtraPair) -> Option<PatternWeights> {
        let squares: Vec<[i32; 2]> = extra
            .opening
            .men
            .iter()
            .zip(&extra.endgame.men)
            .map(|(&o, &e)| [o, e])
            .collect();
        Some(PatternWeights {
            classic_opening: self.classic_opening,
            classic_endgame: self.classic_endgame,
            exchange: self.exchange,
            tables: self.tables.with_men_squares(&squares)?,
        })
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
/// to move) and that side has no move. The men's table of `extra` is left out unless
/// `MEN_TABLE` (when `patterns` carries it: [`PatternWeights::with_men_table`]).
#[inline(always)]
fn evaluate_with<const MEN_TABLE: bool>(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    patterns: &PatternWeights,
    quiet: bool,
) -> Option<i32> {
    let (mut opening, mut endgame) = phase_values::<MEN_TABLE>(pos, ten, extra, quiet)?;
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
    let (table_opening, table_endgame) = patterns
        .tables
        .difference((our_men, our_kings), (their_men, their_kings));
    opening += table_opening;
    endgame += table_endgame;
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
    evaluate_with::<true>(pos, ten, extra, patterns, false).expect("not asked to detect a loss")
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
    evaluate_with::<true>(pos, ten, extra, patterns, true)
}

/// [`evaluate_patterns`] with tables that carry the men's table of `extra`
/// ([`PatternWeights::with_men_table`]), which it does not read: the same value.
#[inline]
pub(crate) fn evaluate_carried(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    carrying: &PatternWeights,
) -> i32 {
    evaluate_with::<false>(pos, ten, extra, carrying, false).expect("not asked to detect a loss")
}

/// [`evaluate_patterns_quiet`] with tables that carry the men's table of `extra`, as
/// [`evaluate_carried`].
#[inline]
pub(crate) fn evaluate_carried_quiet(
    pos: &Position,
    ten: &WeightPair,
    extra: &ExtraPair,
    carrying: &PatternWeights,
) -> Option<i32> {
    evaluate_with::<false>(pos, ten, extra, carrying, true)
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

    /// Tables that carry the men's table give every position of a set of random games the
    /// value of the tables and the men's table apart, quiet or not, in every layout where
    /// they can carry it; a square of some value in no men region, or entries that would
    /// leave 16 bits, carry nothing.
    #[test]
    fn tables_carrying_the_mens_table_evaluate_as_the_two_apart() {
        let ten = WeightPair::material();
        let mut extra = ExtraPair::default();
        for s in 0..crate::eval::MAN_SQUARES {
            extra.opening.men[s] = (s as i32 * 37 % 19) - 9;
            extra.endgame.men[s] = (s as i32 * 53 % 23) - 11;
            extra.opening.kings[s] = (s as i32 * 7 % 5) - 2;
        }
        extra.opening.terms = [12, -7];
        let positions = random_positions(4000, 0x2545_f491_4f6c_dd1d);
        let mut quadrants = RegionLayout::BandsAndStrips.regions();
        quadrants.extend(crate::eval::RankLayout::Home.regions());
        for regions in [
            RegionLayout::Bands.regions(),
            RegionLayout::Wide.regions(),
            quadrants,
        ] {
            let weights = weights_of(regions);
            let carrying = weights
                .with_men_table(&extra)
                .expect("every square lies in a men region");
            assert_ne!(
                carrying.tables, weights.tables,
                "the men's table is carried"
            );
            for p in &positions {
                assert_eq!(
                    evaluate_carried(p, &ten, &extra, &carrying),
                    evaluate_patterns(p, &ten, &extra, &weights),
                    "{p}"
                );
                assert_eq!(
                    evaluate_carried_quiet(p, &ten, &extra, &carrying),
                    evaluate_patterns_quiet(p, &ten, &extra, &weights),
                    "{p}"
                );
            }
        }
        // Square 32 is in no region of a layout of one band of the squares 25 to 32 less
        // that one: only a men's table with square 32 at zero is carried (a man's table ends
        // at 28, so every value is carried there).
        let one_band = weights_of(vec![
            crate::eval::Region::new(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap()
        ]);
        assert!(one_band.with_men_table(&extra).is_none());
        let mut first_band_only = ExtraPair::default();
        first_band_only.opening.men[3] = 5;
        assert!(one_band.with_men_table(&first_band_only).is_some());
        // Entries near the 16 bits' end and a man's value that would push them past it.
        let mut near_end = PatternWeights::zero(PatternTables::zero(RegionLayout::Bands.regions()));
        let mut values: Vec<[i32; 2]> = near_end.tables.values().collect();
        values
            .iter_mut()
            .for_each(|v| *v = [i32::from(i16::MAX) - 3, 0]);
        near_end.tables.set_values(values).unwrap();
        let mut big = ExtraPair::default();
        big.opening.men[0] = 4;
        assert!(near_end.with_men_table(&big).is_none());
        big.opening.men[0] = 3;
        assert!(near_end.with_men_table(&big).is_some());
    }

    /// Entries whose sums over the regions may leave 16 bits are summed apart, and give the
    /// evaluation the sums the packed ones give where both can: a test of every way the
    /// tables are added.
    #[test]
    fn large_entries_are_summed_phase_by_phase() {
        let ten = zero_ten();
        let extra = ExtraPair::default();
        let small = weights_of(RegionLayout::Wide.regions());
        let mut large = small.clone();
        // No classic terms: the evaluation is the tables' alone.
        large.classic_opening = [0; CLASSIC_COUNT];
        large.classic_endgame = [0; CLASSIC_COUNT];
        // Every entry times 1,000: in 16 bits each, but 2 · Σ max over 11 regions is not.
        let values = small
            .tables
            .values()
            .map(|[o, e]| [o * 1000, e * 1000])
            .collect();
        large.tables.set_values(values).unwrap();
        let mut differ = 0;
        for p in random_positions(2000, 0x51_7cc1_b727_220a) {
            let (us, them) = (men_in_views(&p), kings_in_views(&p));
            let (ours, theirs) = ((us.0, them.0), (us.1, them.1));
            let apart = |tables: &PatternTables| {
                let (o1, e1) = tables.side_sums(ours.0, ours.1);
                let (o2, e2) = tables.side_sums(theirs.0, theirs.1);
                (o1 - o2, e1 - e2)
            };
            assert_eq!(small.tables.difference(ours, theirs), apart(&small.tables));
            let (o, e) = large.tables.difference(ours, theirs);
            assert_eq!((o, e), apart(&large.tables), "{p}");
            let (small_o, small_e) = small.tables.difference(ours, theirs);
            assert_eq!((o, e), (small_o * 1000, small_e * 1000), "{p}");
            differ += usize::from(o.abs() > i32::from(i16::MAX) || e.abs() > i32::from(i16::MAX));
            let pieces = p.piece_count();
            assert_eq!(
                evaluate_patterns(&p, &ten, &extra, &large),
                tapered(o, e, pieces)
            );
        }
        assert!(differ > 0, "some sums leave 16 bits");
    }
}
