//! The choice of evaluator, and the weights a search evaluates its leaves with.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::Position;

use super::extended::{evaluate_extended, evaluate_extended_quiet, ExtraPair};
use super::features::{evaluate, evaluate_quiet};
use super::pattern_evaluator::{
    evaluate_carried, evaluate_carried_quiet, evaluate_patterns, evaluate_patterns_quiet,
    PatternWeights,
};
use super::weight_sets::{WeightPair, Weights};

/// Which evaluator a run, a fit or a weights file uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvaluatorKind {
    /// The ten features, an opening and an endgame set switched at `endgame_pieces`.
    #[default]
    Ten,
    /// The ten features, classic terms and piece-square tables, opening and endgame tapered.
    Extended,
    /// The extended evaluator, further classic terms and region tables, tapered.
    Patterns,
}

impl EvaluatorKind {
    /// The name used in configs, weights files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EvaluatorKind::Ten => "ten",
            EvaluatorKind::Extended => "extended",
            EvaluatorKind::Patterns => "patterns",
        }
    }

    /// Whether this is the default, `ten`.
    pub fn is_ten(&self) -> bool {
        *self == EvaluatorKind::Ten
    }

    /// Whether its weights include the extended evaluator's (terms and piece-square tables).
    pub fn has_extra(self) -> bool {
        self != EvaluatorKind::Ten
    }

    /// Every evaluator, for listing the names.
    pub const ALL: [EvaluatorKind; 3] = [
        EvaluatorKind::Ten,
        EvaluatorKind::Extended,
        EvaluatorKind::Patterns,
    ];

    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<EvaluatorKind> {
        match name {
            "ten" => Some(EvaluatorKind::Ten),
            "extended" => Some(EvaluatorKind::Extended),
            "patterns" => Some(EvaluatorKind::Patterns),
            _ => None,
        }
    }
}

impl std::fmt::Display for EvaluatorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The weights a search evaluates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluator<'a> {
    /// The ten features with one weight set (the caller has chosen the phase).
    Ten(&'a Weights),
    /// The extended evaluator: the ten features' two sets and the further terms, tapered by
    /// the pieces on the board.
    Extended(&'a WeightPair, &'a ExtraPair),
    /// The pattern evaluator: the extended evaluator's weights, the classic terms and the
    /// region tables (shared, so that a searcher keeps them without a copy).
    Patterns(&'a WeightPair, &'a ExtraPair, &'a Arc<PatternWeights>),
}

impl<'a> From<&'a Weights> for Evaluator<'a> {
    fn from(weights: &'a Weights) -> Evaluator<'a> {
        Evaluator::Ten(weights)
    }
}

impl Evaluator<'_> {
    /// The evaluation of `pos` for the side to move.
    pub fn evaluate(self, pos: &Position) -> i32 {
        match self {
            Evaluator::Ten(w) => evaluate(pos, w),
            Evaluator::Extended(ten, extra) => evaluate_extended(pos, ten, extra),
            Evaluator::Patterns(ten, extra, patterns) => {
                evaluate_patterns(pos, ten, extra, patterns)
            }
        }
    }

    /// The evaluation of `pos`, known to have no capture, or `None` if the side to move has no
    /// move.
    pub fn evaluate_quiet(self, pos: &Position) -> Option<i32> {
        match self {
            Evaluator::Ten(w) => evaluate_quiet(pos, w),
            Evaluator::Extended(ten, extra) => evaluate_extended_quiet(pos, ten, extra),
            Evaluator::Patterns(ten, extra, patterns) => {
                evaluate_patterns_quiet(pos, ten, extra, patterns)
            }
        }
    }

    /// A copy the caller owns (the tables shared, not copied).
    pub(crate) fn to_owned(self) -> OwnedEvaluator {
        match self {
            Evaluator::Ten(w) => OwnedEvaluator::Ten(*w),
            Evaluator::Extended(ten, extra) => OwnedEvaluator::Extended(*ten, *extra),
            Evaluator::Patterns(ten, extra, patterns) => {
                OwnedEvaluator::Patterns(*ten, *extra, Arc::clone(patterns), None)
            }
        }
    }

    /// [`Evaluator::to_owned`] for a search: pattern weights with their men's table carried in
    /// their region tables where it can be ([`PatternWeights::with_men_table`]), taken from
    /// `carried` when it holds them.
    pub(crate) fn to_searched(self, carried: &mut CarriedTables) -> OwnedEvaluator {
        let mut owned = self.to_owned();
        if let OwnedEvaluator::Patterns(_, extra, patterns, carrying) = &mut owned {
            *carrying = carried.of(patterns, extra);
        }
        owned
    }
}

/// An [`Evaluator`]'s weights, owned (what a searcher keeps between searches).
#[derive(Clone, Debug, PartialEq, Eq)]
// Held inline, once per searcher: boxing the extended weights would allocate on every search.
#[allow(clippy::large_enum_variant)]
pub(crate) enum OwnedEvaluator {
    Ten(Weights),
    Extended(WeightPair, ExtraPair),
    /// The weights, and the same weights carrying the men's table when they can.
    Patterns(
        WeightPair,
        ExtraPair,
        Arc<PatternWeights>,
        Option<Arc<PatternWeights>>,
    ),
}

impl Default for OwnedEvaluator {
    fn default() -> OwnedEvaluator {
        OwnedEvaluator::Ten(Weights::default())
    }
}

impl OwnedEvaluator {
    /// The evaluation of `pos` for the side to move.
    #[inline(always)]
    pub(crate) fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            OwnedEvaluator::Ten(w) => evaluate(pos, w),
            OwnedEvaluator::Extended(ten, extra) => evaluate_extended(pos, ten, extra),
            OwnedEvaluator::Patterns(ten, extra, _, Some(carrying)) => {
                evaluate_carried(pos, ten, extra, carrying)
            }
            OwnedEvaluator::Patterns(ten, extra, patterns, None) => {
                evaluate_patterns(pos, ten, extra, patterns)
            }
        }
    }

    /// The evaluation of `pos`, known to have no capture, or `None` if the side to move has no
    /// move.
    #[inline(always)]
    pub(crate) fn evaluate_quiet(&self, pos: &Position) -> Option<i32> {
        match self {
            OwnedEvaluator::Ten(w) => evaluate_quiet(pos, w),
            OwnedEvaluator::Extended(ten, extra) => evaluate_extended_quiet(pos, ten, extra),
            OwnedEvaluator::Patterns(ten, extra, _, Some(carrying)) => {
                evaluate_carried_quiet(pos, ten, extra, carrying)
            }
            OwnedEvaluator::Patterns(ten, extra, patterns, None) => {
                evaluate_patterns_quiet(pos, ten, extra, patterns)
            }
        }
    }

    /// Whether this is `evaluator`'s weights.
    pub(crate) fn is(&self, evaluator: Evaluator<'_>) -> bool {
        match (self, evaluator) {
            (OwnedEvaluator::Ten(a), Evaluator::Ten(b)) => a == b,
            (OwnedEvaluator::Extended(a, x), Evaluator::Extended(b, y)) => a == b && x == y,
            (OwnedEvaluator::Patterns(a, x, p, _), Evaluator::Patterns(b, y, q)) => {
                a == b && x == y && (Arc::ptr_eq(p, q) || p == q)
            }
            _ => false,
        }
    }
}

/// The carrying tables ([`PatternWeights::with_men_table`]) of the last weights a searcher
/// searched with, so that a tuning game's two players, each move the other's weights, build
/// theirs once. The weights are kept with them: shared and so never changed in place.
#[derive(Debug, Default)]
pub(crate) struct CarriedTables {
    /// The weights, their men's table, and what carries it (`None`: the tables cannot).
    recent: Vec<(Arc<PatternWeights>, ExtraPair, Option<Arc<PatternWeights>>)>,
}

impl CarriedTables {
    /// How many weights it keeps: a game's two players.
    const KEPT: usize = 2;

    /// The carrying tables of `patterns` with `extra`'s men's table.
    fn of(
        &mut self,
        patterns: &Arc<PatternWeights>,
        extra: &ExtraPair,
    ) -> Option<Arc<PatternWeights>> {
        let same = |(kept, kept_extra, _): &&(_, ExtraPair, _)| {
            Arc::ptr_eq(kept, patterns)
                && kept_extra.opening.men == extra.opening.men
                && kept_extra.endgame.men == extra.endgame.men
        };
        if let Some((_, _, carrying)) = self.recent.iter().find(same) {
            return carrying.clone();
        }
        let carrying = patterns.with_men_table(extra).map(Arc::new);
        if self.recent.len() == Self::KEPT {
            self.recent.remove(0);
        }
        self.recent
            .push((Arc::clone(patterns), *extra, carrying.clone()));
        carrying
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{PatternTables, RegionLayout};

    fn pattern_weights() -> Arc<PatternWeights> {
        let mut tables = PatternTables::zero(RegionLayout::Wide.regions());
        let values = (0..tables.len() as i64)
            .map(|i| [(i * 7919 % 23 - 11) as i32, (i * 104_729 % 31 - 15) as i32])
            .collect();
        tables.set_values(values).unwrap();
        Arc::new(PatternWeights::zero(tables))
    }

    /// A search's evaluator carries the men's table in the region tables, built once for
    /// each of a game's two players and given again while they alternate; it evaluates as
    /// the weights do.
    #[test]
    fn a_search_carries_the_mens_table_once_for_each_player() {
        let ten = WeightPair::material();
        let mut extra = ExtraPair::default();
        extra.opening.men[5] = 17;
        extra.endgame.men[20] = -9;
        let (a, b) = (pattern_weights(), pattern_weights());
        let mut carried = CarriedTables::default();
        let carrying = |owned: &OwnedEvaluator| match owned {
            OwnedEvaluator::Patterns(_, _, _, Some(c)) => Arc::clone(c),
            _ => panic!("not carried"),
        };
        let first_a = carrying(&Evaluator::Patterns(&ten, &extra, &a).to_searched(&mut carried));
        let first_b = carrying(&Evaluator::Patterns(&ten, &extra, &b).to_searched(&mut carried));
        assert!(
            !Arc::ptr_eq(&first_a, &first_b),
            "equal weights, other tables"
        );
        for _ in 0..3 {
            for (weights, first) in [(&a, &first_a), (&b, &first_b)] {
                let owned = Evaluator::Patterns(&ten, &extra, weights).to_searched(&mut carried);
                assert!(Arc::ptr_eq(&carrying(&owned), first), "built again");
            }
        }
        // Another men's table for the same tables: carried anew.
        let mut other = extra;
        other.opening.men[5] = 18;
        let owned = Evaluator::Patterns(&ten, &other, &a).to_searched(&mut carried);
        assert!(!Arc::ptr_eq(&carrying(&owned), &first_a));
        let plain = Evaluator::Patterns(&ten, &other, &a);
        assert!(owned.is(plain));
        let mut p = Position::start();
        for _ in 0..40 {
            assert_eq!(owned.evaluate(&p), plain.evaluate(&p), "{p}");
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p.play(&moves[moves.len() / 2]);
        }
    }
}
