//! The choice of evaluator, and the weights a search evaluates its leaves with.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::Position;

use super::extended::{evaluate_extended, evaluate_extended_quiet, ExtraPair};
use super::features::{evaluate, evaluate_quiet};
use super::pattern_evaluator::{evaluate_patterns, evaluate_patterns_quiet, PatternWeights};
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
                OwnedEvaluator::Patterns(*ten, *extra, Arc::clone(patterns))
            }
        }
    }
}

/// An [`Evaluator`]'s weights, owned (what a searcher keeps between searches).
#[derive(Clone, Debug, PartialEq, Eq)]
// Held inline, once per searcher: boxing the extended weights would allocate on every search.
#[allow(clippy::large_enum_variant)]
pub(crate) enum OwnedEvaluator {
    Ten(Weights),
    Extended(WeightPair, ExtraPair),
    Patterns(WeightPair, ExtraPair, Arc<PatternWeights>),
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
            OwnedEvaluator::Patterns(ten, extra, patterns) => {
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
            OwnedEvaluator::Patterns(ten, extra, patterns) => {
                evaluate_patterns_quiet(pos, ten, extra, patterns)
            }
        }
    }

    /// Whether this is `evaluator`'s weights.
    pub(crate) fn is(&self, evaluator: Evaluator<'_>) -> bool {
        match (self, evaluator) {
            (OwnedEvaluator::Ten(a), Evaluator::Ten(b)) => a == b,
            (OwnedEvaluator::Extended(a, x), Evaluator::Extended(b, y)) => a == b && x == y,
            (OwnedEvaluator::Patterns(a, x, p), Evaluator::Patterns(b, y, q)) => {
                a == b && x == y && (Arc::ptr_eq(p, q) || p == q)
            }
            _ => false,
        }
    }
}
