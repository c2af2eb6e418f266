//! A fit's settings: one owner for their defaults, their bounds and their checks (`fit`'s
//! options and a run's `[evolution] fit_*` keys both build them).

use std::sync::Arc;

use rand::Rng;

use crate::tournament::{
    ExtraRanges, FeatureRanges, PatternRanges, DEFAULT_FIT_SCORE_WEIGHT, DEFAULT_L2_TABLES,
    MAX_ENDING_PLIES, MAX_L2_TABLES,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{
    EvaluatorKind, PatternTables, PatternWeights, Region, RegionKind, DEFAULT_ENDGAME_PIECES,
};
use checkers_engine::rng::{stream, tag};

use super::deep_labels::{DeepLabels, LabelSearch};
use super::endings::DatabaseEndings;

/// How a fit is made: one owner for its settings, their defaults and their checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    /// Plies of each game (from its start, the opening's included) whose positions are left
    /// out.
    pub first_ply: u32,
    /// The share of games held out to measure the fit (0: none).
    pub validation: f64,
    /// The seed of the validation split.
    pub seed: u64,
    /// Strength of the pull towards the start weights (0: none).
    pub l2: f64,
    /// Most optimiser iterations (L-BFGS).
    pub max_iterations: u32,
    /// Passes of the mini-batch optimiser over the positions (the pattern evaluator; 0: L-BFGS
    /// as the other evaluators).
    pub epochs: u32,
    /// The mini-batch optimiser's first step, in hundredths of a man.
    pub learning_rate: f64,
    /// The share of the search's score in each position's label (the pattern evaluator; 0:
    /// the game's result alone).
    pub score_weight: f64,
    /// Pieces at which the endgame set takes over (the fitted file's `endgame_pieces`).
    pub endgame_pieces: u32,
    /// The ranges of the opening set's weights (equal bounds fix a weight).
    pub opening: FeatureRanges,
    /// The ranges of the endgame set's weights.
    pub endgame: FeatureRanges,
    /// The evaluator whose weights are fitted.
    pub evaluator: EvaluatorKind,
    /// The ranges of the extended evaluator's further weights (both sets).
    pub extended: ExtraRanges,
    /// The pattern evaluator's regions and the ranges of its further weights.
    pub patterns: PatternRanges,
    /// The pull of the pattern evaluator's table entries toward zero, in positions (see
    /// [`PatternObjective::l2_tables`](super::pattern_fit::PatternObjective)).
    pub l2_tables: f64,
    /// Endings played on by the endgame database from the games that stopped in it, learnt
    /// with their exact values (`None`: the games' own positions only).
    pub endings: Option<DatabaseEndings>,
    /// The pattern evaluator's labels from a deeper search of every position with the start
    /// weights, in place of the games' own scores (`None`: the games' scores).
    pub deep_labels: Option<DeepLabels>,
    /// Whether the pattern evaluator's optional `exchange` term is learnt when the start
    /// weights lack it (a start that has it always learns it).
    pub exchange: bool,
    /// Whether each quiet position is learnt once in the whole data set (the first game to
    /// reach it gives its label), not once per game: a `datagen` data set's games meet the
    /// same positions again and again.
    pub unique: bool,
}

/// The most passes a pattern fit makes over its positions (`fit --epochs`): a fit of the
/// default 10 takes minutes on a night's positions, so this is days.
pub const MAX_EPOCHS: u32 = 10_000;

impl Default for FitSettings {
    /// Positions from ply 10 on, a fifth of the games held out (seed 1), no L2, up to 300
    /// iterations, the default endgame threshold and the default weight ranges (pawns fixed
    /// at 100).
    fn default() -> FitSettings {
        FitSettings {
            first_ply: 10,
            validation: 0.2,
            seed: 1,
            l2: 0.0,
            max_iterations: 300,
            epochs: 10,
            learning_rate: 1.0,
            score_weight: DEFAULT_FIT_SCORE_WEIGHT,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            opening: FeatureRanges::default(),
            endgame: FeatureRanges::default(),
            evaluator: EvaluatorKind::Ten,
            extended: ExtraRanges::default(),
            patterns: PatternRanges::default(),
            l2_tables: DEFAULT_L2_TABLES,
            endings: None,
            deep_labels: None,
            exchange: false,
            unique: false,
        }
    }
}

impl FitSettings {
    /// Whether a pattern fit from `start` learns the `exchange` term: when asked to, or when
    /// the start has it.
    pub fn learns_exchange(&self, start: Option<&Arc<PatternWeights>>) -> bool {
        self.exchange || start.is_some_and(|p| p.has_exchange())
    }

    /// Positions with at most this many pieces are left out of `K`'s measure: those of the
    /// endings the database played on (0: none left out, without endings).
    pub(super) fn games_pieces(&self) -> u32 {
        self.endings.map_or(0, |e| e.database.pieces())
    }

    /// Empty tables in the shape a pattern fit from `start` fills: the start's regions (with
    /// the men regions of `patterns.regions` it lacks, `patterns.kings`' king regions when it
    /// has none, and `patterns.ranks`' rank regions when it has none), or, when it has no
    /// tables, the layouts of `patterns.regions`, `patterns.kings` and `patterns.ranks`.
    pub fn table_shape(&self, start: Option<&Arc<PatternWeights>>) -> PatternTables {
        match start {
            Some(p) => {
                let mut regions = p.tables.regions().to_vec();
                // A layout that holds all of the start's men regions and more (the wide one
                // over bands and strips) adds its further regions, their tables at zero; the
                // start's tables keep theirs. Regions of the start's own are left as they are.
                let layout = self.patterns.regions.regions();
                let men = regions.iter().filter(|r| r.kind() == RegionKind::Men);
                if men.clone().all(|r| layout.contains(r)) {
                    let missing: Vec<Region> = layout
                        .into_iter()
                        .filter(|r| !regions.contains(r))
                        .collect();
                    regions.extend(missing);
                }
                if !p.tables.has_king_regions() {
                    regions.extend(self.patterns.kings.regions());
                }
                if !p.tables.has_rank_regions() {
                    regions.extend(self.patterns.ranks.regions());
                }
                PatternTables::zero(regions)
            }
            None => self.patterns.table_shape(),
        }
    }

    /// Whether game `game` (in input order) is held out for validation: a draw of the
    /// `[FIT_SPLIT, game]` stream of `seed`, so the split depends on nothing else.
    pub fn holds_out(&self, game: usize) -> bool {
        self.validation > 0.0
            && stream(self.seed, &[tag::FIT_SPLIT, game as u64]).gen::<f64>() < self.validation
    }

    /// The error of a fit with no training position among `games` games.
    pub fn nothing_to_learn(&self, games: usize) -> Error {
        Error::input(format!(
            "no position to learn from: {games} game(s), none with a quiet position after ply {}{}",
            self.first_ply,
            if self.validation > 0.0 {
                " in the training share"
            } else {
                ""
            }
        ))
    }

    /// Why the settings are unusable, naming the setting by `name_of` (the command line's or
    /// the config's spelling), if they are.
    pub fn check(&self, name_of: impl Fn(&str) -> String) -> Result<()> {
        if !(0.0..1.0).contains(&self.validation) {
            return Err(Error::input(format!(
                "{} {} is outside 0 ..< 1 (the share of games held out)",
                name_of("validation"),
                self.validation
            )));
        }
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(Error::input(format!(
                "{} {} must be a finite number > 0 (the optimiser's first step)",
                name_of("learning_rate"),
                self.learning_rate
            )));
        }
        if !(0.0..=1.0).contains(&self.score_weight) {
            return Err(Error::input(format!(
                "{} {} is outside 0 ..= 1 (the share of the search's score in a label)",
                name_of("score_weight"),
                self.score_weight
            )));
        }
        if !(self.l2.is_finite() && self.l2 >= 0.0) {
            return Err(Error::input(format!(
                "{} {} must be a finite number >= 0",
                name_of("l2"),
                self.l2
            )));
        }
        for (set, ranges) in [("opening", &self.opening), ("endgame", &self.endgame)] {
            for (name, range) in checkers_engine::eval::FEATURE_NAMES
                .iter()
                .zip(ranges.to_array())
            {
                if let Some(problem) = range.problem() {
                    return Err(Error::input(format!("weights.{set}.{name} {problem}")));
                }
            }
        }
        if let Some((key, problem)) = self.extended.problem() {
            return Err(Error::input(format!("weights.extended.{key} {problem}")));
        }
        if let Some((key, problem)) = self.patterns.problem() {
            return Err(Error::input(format!("weights.patterns.{key} {problem}")));
        }
        if !(self.l2_tables.is_finite() && (0.0..=MAX_L2_TABLES).contains(&self.l2_tables)) {
            return Err(Error::input(format!(
                "{} {} must be a number from 0 to {MAX_L2_TABLES:e} (positions)",
                name_of("l2_tables"),
                self.l2_tables
            )));
        }
        if self.epochs > MAX_EPOCHS {
            return Err(Error::input(format!(
                "{} {} is more than {MAX_EPOCHS} (passes over the positions)",
                name_of("epochs"),
                self.epochs
            )));
        }
        if let Some(endings) = self.endings.filter(|e| e.plies > MAX_ENDING_PLIES) {
            return Err(Error::input(format!(
                "{} {} is more than {MAX_ENDING_PLIES} (plies of an ending)",
                name_of("endings"),
                endings.plies
            )));
        }
        if let Some(deep) = &self.deep_labels {
            let key = match deep.search {
                LabelSearch::Depth(_) => "label_depth",
                LabelSearch::Nodes(_) => "label_nodes",
            };
            if let Some(problem) = deep.search.problem() {
                return Err(Error::input(format!("{} {problem}", name_of(key))));
            }
            if self.evaluator != EvaluatorKind::Patterns {
                return Err(Error::input(format!(
                    "{} labels the pattern evaluator's positions; the {} evaluator's fit learns \
                     the games' results",
                    name_of(key),
                    self.evaluator
                )));
            }
        }
        Ok(())
    }
}
