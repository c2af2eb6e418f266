//! The pattern evaluator's parameters: their layout, both phases side by side, the mapping to
//! and from weights, and a sample's evaluation.

use checkers_engine::eval::{
    taper, ExtraPair, ExtraWeights, PatternTables, PatternWeights, WeightPair, Weights,
    CLASSIC_COUNT, EXCHANGE_SCALE, EXTENDED_INPUTS, FEATURE_COUNT, FULL_BOARD, MAN_SQUARES,
};

use crate::fit::pattern_samples::{PatternSample, DENSE};

/// Where the men's piece-square inputs start.
const MEN_AT: usize = DENSE;
/// Where the kings' piece-square inputs start.
const KINGS_AT: usize = MEN_AT + MAN_SQUARES;
/// Where the classic terms' inputs start (after the extended evaluator's).
pub(super) const CLASSIC_AT: usize = EXTENDED_INPUTS;
/// Where the optional `exchange` term's input sits (after the classic terms').
pub(super) const EXCHANGE_AT: usize = CLASSIC_AT + CLASSIC_COUNT;
/// Where the table entries start.
pub(super) const TABLES_AT: usize = EXCHANGE_AT + 1;

/// The parameters of the pattern evaluator, their layout and the mapping to weights.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternModel {
    /// Where each region's entries start among the table entries.
    offsets: Vec<usize>,
    /// All table entries.
    table_entries: usize,
    /// The tables' regions (for the fitted weights).
    shape: PatternTables,
    /// Whether the `exchange` term is learnt; without it its input is never read, so its
    /// weight stays where it started (zero).
    exchange: bool,
}

impl PatternModel {
    /// The model of `tables`' regions.
    pub fn new(tables: &PatternTables) -> PatternModel {
        PatternModel {
            offsets: (0..tables.regions().len())
                .map(|r| tables.offset(r))
                .collect(),
            table_entries: tables.len(),
            shape: PatternTables::zero(tables.regions().to_vec()),
            exchange: false,
        }
    }

    /// The same model with the `exchange` term learnt (`true`) or left out.
    pub fn with_exchange(self, exchange: bool) -> PatternModel {
        PatternModel { exchange, ..self }
    }

    /// Inputs per phase.
    pub fn width(&self) -> usize {
        TABLES_AT + self.table_entries
    }

    /// Number of parameters: both phases.
    pub fn parameter_count(&self) -> usize {
        2 * self.width()
    }

    /// Whether input `i` is a table entry (pulled toward zero, not toward the start).
    pub fn is_table_entry(&self, i: usize) -> bool {
        i >= TABLES_AT
    }

    /// The parameters of a set of weights (`patterns` `None`: zero classic terms and tables).
    pub fn parameters_of(
        &self,
        ten: &WeightPair,
        extra: &ExtraPair,
        patterns: Option<&PatternWeights>,
    ) -> Vec<f64> {
        let mut x = vec![0.0; self.parameter_count()];
        for (phase, (w, more)) in [
            (&ten.opening, &extra.opening),
            (&ten.endgame, &extra.endgame),
        ]
        .into_iter()
        .enumerate()
        {
            let all = w.0.iter().copied().chain(more.to_vec());
            for (i, v) in all.enumerate() {
                x[2 * i + phase] = f64::from(v);
            }
        }
        if let Some(p) = patterns {
            for j in 0..CLASSIC_COUNT {
                x[2 * (CLASSIC_AT + j)] = f64::from(p.classic_opening[j]);
                x[2 * (CLASSIC_AT + j) + 1] = f64::from(p.classic_endgame[j]);
            }
            x[2 * EXCHANGE_AT] = f64::from(p.exchange[0]);
            x[2 * EXCHANGE_AT + 1] = f64::from(p.exchange[1]);
            // Each region the start has keeps its table; a region it lacks starts at zero.
            for (r, region) in self.shape.regions().iter().enumerate() {
                let Some(q) = p.tables.regions().iter().position(|own| own == region) else {
                    continue;
                };
                let first = TABLES_AT + self.shape.offset(r);
                for phase in 0..2 {
                    for (e, v) in p.tables.table(q, phase).into_iter().enumerate() {
                        x[2 * (first + e) + phase] = f64::from(v);
                    }
                }
            }
        }
        x
    }

    /// The weights of (integer) parameters.
    pub fn weights_of(&self, x: &[f64]) -> (WeightPair, ExtraPair, PatternWeights) {
        let phase = |p: usize| -> Vec<i32> {
            (0..self.width())
                .map(|i| x[2 * i + p].round() as i32)
                .collect()
        };
        let (opening, endgame) = (phase(0), phase(1));
        let ten = |w: &[i32]| Weights(std::array::from_fn(|i| w[i]));
        let extra = |w: &[i32]| {
            ExtraWeights::from_slice(&w[FEATURE_COUNT..EXTENDED_INPUTS]).expect("the extra width")
        };
        let classic =
            |w: &[i32]| -> [i32; CLASSIC_COUNT] { std::array::from_fn(|j| w[CLASSIC_AT + j]) };
        let mut tables = self.shape.clone();
        let values = (0..self.table_entries)
            .map(|e| [opening[TABLES_AT + e], endgame[TABLES_AT + e]])
            .collect();
        tables
            .set_values(values)
            .expect("one value per entry, within the ranges");
        (
            WeightPair {
                opening: ten(&opening),
                endgame: ten(&endgame),
            },
            ExtraPair {
                opening: extra(&opening),
                endgame: extra(&endgame),
            },
            PatternWeights {
                classic_opening: classic(&opening),
                classic_endgame: classic(&endgame),
                exchange: [opening[EXCHANGE_AT], endgame[EXCHANGE_AT]],
                tables,
            },
        )
    }

    /// Calls `visit(i, x)` for every input `i` of sample `s` that is not zero (an index per
    /// phase: parameters `2i` and `2i + 1`), `x` its value.
    #[inline(always)]
    pub(super) fn for_each_input(
        &self,
        s: &PatternSample,
        entries: &[u16],
        mut visit: impl FnMut(usize, f64),
    ) {
        for (i, &v) in s.dense.iter().enumerate() {
            if v != 0 {
                visit(i, f64::from(v));
            }
        }
        for (at, boards) in [(MEN_AT, s.men), (KINGS_AT, s.kings)] {
            for (side, sign) in [(0, 1.0), (1, -1.0)] {
                let mut rest = boards[side];
                while rest != 0 {
                    visit(at + rest.trailing_zeros() as usize, sign);
                    rest &= rest - 1;
                }
            }
        }
        for (j, &v) in s.classic.iter().enumerate() {
            if v != 0 {
                visit(CLASSIC_AT + j, f64::from(v));
            }
        }
        if self.exchange {
            let count = |side: usize| (s.men[side] | s.kings[side]).count_ones() as i32;
            let lead = EXCHANGE_SCALE * (count(0) - count(1));
            if lead != 0 {
                visit(EXCHANGE_AT, f64::from(lead) / f64::from(s.pieces));
            }
        }
        for (r, &offset) in self.offsets.iter().enumerate() {
            let (ours, theirs) = (entries[2 * r], entries[2 * r + 1]);
            if ours != theirs {
                visit(TABLES_AT + offset + usize::from(ours), 1.0);
                visit(TABLES_AT + offset + usize::from(theirs), -1.0);
            }
        }
    }

    /// The evaluation of a sample at `x`, and the opening values' share in it.
    #[inline(always)]
    pub(super) fn evaluate(&self, x: &[f64], s: &PatternSample, entries: &[u16]) -> (f64, f64) {
        let (mut opening, mut endgame) = (0.0, 0.0);
        self.for_each_input(s, entries, |i, v| {
            opening += x[2 * i] * v;
            endgame += x[2 * i + 1] * v;
        });
        let share = f64::from(taper(u32::from(s.pieces))) / f64::from(FULL_BOARD);
        (share * opening + (1.0 - share) * endgame, share)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::pattern_samples::PatternData;
    use crate::fit::recorded_game::NO_SCORE;
    use checkers_engine::board::Position;
    use checkers_engine::eval::{evaluate_patterns, RegionLayout};

    fn tables() -> PatternTables {
        let regions = RegionLayout::BandsAndStrips.regions();
        PatternTables::zero(regions)
    }

    /// The model's evaluation of a sample at a set of integer weights is the engine's
    /// evaluation of the position, but for the engine's truncations.
    #[test]
    fn the_model_evaluates_as_the_engine() {
        let mut with_kings = RegionLayout::BandsAndStrips.regions();
        with_kings.extend(checkers_engine::eval::KingLayout::Quadrants.regions());
        let mut with_ranks = with_kings.clone();
        with_ranks.extend(checkers_engine::eval::RankLayout::Home.regions());
        for t in [
            tables(),
            PatternTables::zero(with_kings),
            PatternTables::zero(with_ranks),
        ] {
            the_model_evaluates_as_the_engine_with(t);
        }
    }

    fn the_model_evaluates_as_the_engine_with(t: PatternTables) {
        for exchange in [false, true] {
            the_model_evaluates_as_the_engine_with_exchange(t.clone(), exchange);
        }
    }

    fn the_model_evaluates_as_the_engine_with_exchange(t: PatternTables, exchange: bool) {
        let model = PatternModel::new(&t).with_exchange(exchange);
        let mut x = vec![0.0; model.parameter_count()];
        for (i, v) in x.iter_mut().enumerate() {
            *v = ((i * 7919) % 41) as f64 - 20.0;
        }
        let (ten, extra, mut patterns) = model.weights_of(&x);
        if !exchange {
            // A model without the term leaves its weights where they started: zero.
            patterns.exchange = [0; 2];
        }
        assert_eq!(patterns.has_exchange(), exchange);
        let x = model.parameters_of(&ten, &extra, Some(&patterns));
        let mut data = PatternData::new(&t);
        let fens = [
            "B:W21-32:B1-12",
            "W:W9,K14,22,25,30:B6,13,17,K26,28",
            "B:W22,30,K4:B1,3,14,K29",
            "W:WK32:B23,24,27,28,25",
        ];
        for fen in fens {
            data.push(&Position::from_fen(fen).unwrap(), 1.0, NO_SCORE, 0);
        }
        for (i, fen) in fens.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let engine = evaluate_patterns(&pos, &ten, &extra, &patterns);
            let (value, _) = model.evaluate(&x, &data.samples[i], &data.entries_of(i));
            // The engine truncates the exchange term and the taper: at most a unit each.
            assert!(
                (value - f64::from(engine)).abs() < 2.0,
                "{fen}: {value} vs {engine}"
            );
        }
    }
}
