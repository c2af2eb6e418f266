//! A specimen: one member of a tuning run's population.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use checkers_engine::eval::{ExtraPair, PatternWeights, WeightPair};
use checkers_engine::game::Player;
use checkers_engine::search::SelectiveParams;

/// A member of the population: its weights and its lineage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Specimen {
    /// Unique within a run, given in order of creation.
    pub id: u64,
    /// Its opening and endgame weight sets.
    pub weights: WeightPair,
    /// Its extended evaluator's further weights (`None` in a run of the ten features; left
    /// out of a checkpoint then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Box<ExtraPair>>,
    /// Its pattern evaluator's further weights, shared with the fitted specimen they come
    /// from (`None`: zero, or a run of another evaluator). A checkpoint names that specimen
    /// (`tables`) and keeps the weights in the run folder, once.
    #[serde(skip)]
    pub patterns: Option<Arc<PatternWeights>>,
    /// The id of the fitted specimen whose pattern weights these are (see `patterns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<u64>,
    /// First parent (genetic mode), if any.
    pub parent_a: Option<u64>,
    /// Second parent (genetic mode), if any.
    pub parent_b: Option<u64>,
    /// The round in which it was created (0 for the initial population).
    pub born_round: u32,
    /// Whether a regression fit on the run's games made it (`[evolution] fit_every`); written
    /// to a checkpoint only when set, so runs without fits keep their files.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fitted: bool,
    /// Its own selective search in a run with search genes (`[search.genes]`): the run's
    /// `[search]` with the genes at its values; `None` (and then left out of a checkpoint, so
    /// runs without genes keep their files): the run's search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<SelectiveParams>,
}

impl Specimen {
    /// The specimen as a player switching to its endgame set at `endgame_pieces` (the ten
    /// features; the extended evaluator tapers instead), at the game's depths, with its own
    /// search when it has one.
    pub fn player(&self, endgame_pieces: u32) -> Player<'_> {
        Player {
            weights: &self.weights,
            extra: self.extra.as_deref(),
            patterns: self.patterns.as_ref(),
            endgame_pieces,
            limits: None,
            search: self.search,
        }
    }

    /// How it came into the population, as `specimens.csv` writes it: `initial` (round 0),
    /// `child` (of one or two survivors), `fit` (a regression fit) or `fresh` (drawn from the
    /// weight space: an immigrant or a `random` newcomer).
    pub fn origin(&self) -> &'static str {
        if self.fitted {
            "fit"
        } else if self.born_round == 0 {
            "initial"
        } else if self.parent_a.is_some() {
            "child"
        } else {
            "fresh"
        }
    }
}
