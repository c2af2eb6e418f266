//! Labels from a deeper search: each quiet position a fit learns from is searched again, deeper
//! than the games searched it, and that search's score takes the place of the game's in the
//! position's label.
//!
//! A run's games are played at its training depth, and the scores they store are what that
//! depth saw: a fit of them learns to predict a shallow search. Searched again a few plies
//! deeper, the same positions carry what the evaluation is meant to foresee (the deeper
//! search's value), which is how the strongest learned evaluations label their data.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use checkers_engine::board::Position;
use checkers_engine::egdb::EndgameDb;
use checkers_engine::eval::Evaluator;
use checkers_engine::search::{
    GameHistory, SearchBudget, SearchLimits, Searcher, SelectiveParams, MAX_SEARCH_DEPTH,
};

use super::recorded_game::stored_score;

/// Captures are followed this many plies past the full-width depth, as in the games
/// (`min_depth 6`, `max_depth 12`).
pub const DEEP_LABEL_EXTENSION: u32 = 6;

/// The deepest full-width depth a label search may take (a depth-20 search of every position
/// would take days).
pub const MAX_LABEL_DEPTH: u32 = 16;

/// The most nodes a selective label search may take (`fit --label-nodes`): a million nodes
/// for each of millions of positions would take weeks.
pub const MAX_LABEL_NODES: u64 = 1_000_000;

/// Which search labels each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelSearch {
    /// The exact search (plain minimax's value) at this full-width depth, captures followed
    /// [`DEEP_LABEL_EXTENSION`] plies further.
    Depth(u32),
    /// The selective search with its default settings (what `hub`, `play` and `match
    /// --search-mode selective` use), deepening until this many nodes are spent (captures
    /// followed [`DEEP_LABEL_EXTENSION`] plies further): the same time buys a deeper look than
    /// the exact search's, as the search users play with.
    Nodes(u64),
}

impl LabelSearch {
    /// The search in words: `depth 6/12` or `the selective search at 20000 nodes`.
    pub fn describe(&self) -> String {
        match *self {
            LabelSearch::Depth(depth) => {
                format!("depth {depth}/{}", depth + DEEP_LABEL_EXTENSION)
            }
            LabelSearch::Nodes(nodes) => format!("the selective search at {nodes} nodes"),
        }
    }

    /// Why the search cannot label, if it cannot: a depth outside 1 ..= [`MAX_LABEL_DEPTH`],
    /// a node budget outside 1 ..= [`MAX_LABEL_NODES`].
    pub fn problem(&self) -> Option<String> {
        match *self {
            LabelSearch::Depth(depth) if !(1..=MAX_LABEL_DEPTH).contains(&depth) => Some(format!(
                "{depth} is outside 1 ..= {MAX_LABEL_DEPTH} (the full-width depth of each \
                 position's label search)"
            )),
            LabelSearch::Nodes(nodes) if !(1..=MAX_LABEL_NODES).contains(&nodes) => Some(format!(
                "{nodes} is outside 1 ..= {MAX_LABEL_NODES} (the nodes of each position's label \
                 search)"
            )),
            _ => None,
        }
    }
}

/// The selective label search's budget: deepening until `nodes` are spent, captures followed
/// [`DEEP_LABEL_EXTENSION`] plies past each iteration's depth.
fn node_budget(nodes: u64) -> SearchBudget {
    SearchBudget {
        nodes: Some(nodes),
        ..SearchBudget::depth(MAX_SEARCH_DEPTH, DEEP_LABEL_EXTENSION)
    }
}

/// The search that labels the positions ([`LabelSearch`]) with the fit's start weights, and
/// the endgame database when there is one.
#[derive(Clone, Copy)]
pub struct DeepLabels {
    /// The search of each position.
    pub search: LabelSearch,
    /// Positions with at most its pieces are scored from it, exactly.
    pub database: Option<&'static EndgameDb>,
    /// Counts the positions searched, for a progress display (the labels do not depend on it).
    pub searched: Option<&'static AtomicU64>,
}

impl PartialEq for DeepLabels {
    fn eq(&self, other: &DeepLabels) -> bool {
        self.search == other.search
            && self.database.map(|d| d as *const EndgameDb)
                == other.database.map(|d| d as *const EndgameDb)
    }
}

impl fmt::Debug for DeepLabels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeepLabels")
            .field("search", &self.search)
            .field("database", &self.database.map(|d| d.pieces()))
            .finish()
    }
}

impl DeepLabels {
    /// A searcher set up for the labels (its table is cleared before each position, see
    /// [`DeepLabels::score`]).
    pub fn searcher(&self) -> Searcher {
        // The games' table size: a label search visits thousands of nodes, not millions.
        let mut searcher = Searcher::default();
        searcher.set_endgame_db(self.database);
        if let LabelSearch::Nodes(_) = self.search {
            searcher.set_selective(Some(SelectiveParams::default()));
        }
        searcher
    }

    /// The score of quiet `pos` for its side to move, as the positions store keeps scores:
    /// searched on its own (no game before it), the table cleared first, so that the label is
    /// a function of the position and the weights alone, whichever thread searched what before.
    pub fn score(&self, searcher: &mut Searcher, pos: &Position, evaluator: Evaluator<'_>) -> i16 {
        let found = match self.search {
            LabelSearch::Depth(depth) => {
                let limits = SearchLimits::try_new(depth, depth + DEEP_LABEL_EXTENSION)
                    .expect("a checked depth gives valid limits");
                searcher.clear();
                searcher.search(pos, evaluator, limits, None)
            }
            // `search_timed` clears the table (and the selective search's history) itself.
            LabelSearch::Nodes(nodes) => searcher.search_timed(
                pos,
                &GameHistory::NONE,
                evaluator,
                &node_budget(nodes),
                |_| {},
            ),
        };
        if let Some(count) = self.searched {
            count.fetch_add(1, Ordering::Relaxed);
        }
        stored_score(found.score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::pattern_samples::pattern_samples;
    use crate::fit::positions::{quiet_leaves, Extraction};
    use crate::fit::recorded_game::{RecordedGame, NO_SCORE};
    use checkers_engine::eval::{
        ExtraPair, PatternTables, RegionLayout, WeightPair, DEFAULT_ENDGAME_PIECES,
    };
    use checkers_engine::game::GameResult;

    /// A game of `plies` moves from the start, each side playing the first legal move whose
    /// game stays open, with a recorded score of 0 for every move (a shallow search's).
    fn game_of(plies: usize) -> RecordedGame {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let Some(mv) = pos.legal_moves().iter().next().copied() else {
                break;
            };
            pos = pos.play(&mv);
            moves.push(mv);
        }
        RecordedGame {
            start: Position::start(),
            scores: vec![0; moves.len()],
            moves,
            result: GameResult::Draw,
        }
    }

    fn labels(search: LabelSearch) -> DeepLabels {
        DeepLabels {
            search,
            database: None,
            searched: None,
        }
    }

    /// The quiet positions of a 30-ply game, each to be searched on its own.
    fn quiet_positions() -> Vec<Position> {
        let game = game_of(30);
        game.moves
            .iter()
            .scan(game.start, |p, mv| {
                *p = p.play(mv);
                Some(*p)
            })
            .filter(|p| p.jumpers() == 0 && !p.is_lost())
            .collect()
    }

    /// A label is the search of the position alone: the same score and the same nodes as a
    /// new searcher's, whatever the searcher searched before.
    #[test]
    fn a_label_does_not_depend_on_earlier_searches() {
        let material = WeightPair::material();
        let extra = ExtraPair::default();
        let evaluator = Evaluator::Extended(&material, &extra);
        let positions = quiet_positions();
        assert!(positions.len() > 10);
        for search in [LabelSearch::Depth(5), LabelSearch::Nodes(3_000)] {
            let deep = labels(search);
            let mut used = deep.searcher();
            for pos in &positions {
                let reused = deep.score(&mut used, pos, evaluator);
                let mut fresh = deep.searcher();
                let first = deep.score(&mut fresh, pos, evaluator);
                assert_eq!(reused, first, "{search:?} {pos:?}");
                // What a new searcher of that kind finds, asked directly.
                let direct = match search {
                    LabelSearch::Depth(depth) => Searcher::default().search(
                        pos,
                        evaluator,
                        SearchLimits::try_new(depth, depth + DEEP_LABEL_EXTENSION).unwrap(),
                        None,
                    ),
                    LabelSearch::Nodes(nodes) => {
                        let mut selective = Searcher::default();
                        selective.set_selective(Some(SelectiveParams::default()));
                        let budget = node_budget(nodes);
                        selective.search_timed(pos, &GameHistory::NONE, evaluator, &budget, |_| {})
                    }
                };
                assert_eq!(reused, stored_score(direct.score), "{search:?} {pos:?}");
            }
        }
    }

    /// A node budget buys the selective search a deeper look than the exact search's at about
    /// the same nodes, and its labels are its own, not the exact search's.
    #[test]
    fn a_node_budget_labels_with_a_deeper_selective_search() {
        // Material and mobility: scores that differ from position to position.
        let mut weights = WeightPair::material();
        weights.opening.set(8, 10);
        weights.endgame.set(8, 10);
        let extra = ExtraPair::default();
        let evaluator = Evaluator::Extended(&weights, &extra);
        let positions = quiet_positions();
        let exact = labels(LabelSearch::Depth(6));
        let selective = labels(LabelSearch::Nodes(20_000));
        let (mut exact_searcher, mut selective_searcher) = (exact.searcher(), selective.searcher());
        let mut differ = 0;
        for pos in &positions {
            let found = selective_searcher.search_timed(
                pos,
                &GameHistory::NONE,
                evaluator,
                &node_budget(20_000),
                |_| {},
            );
            assert!(
                found.nodes <= 20_000 + checkers_engine::search::BUDGET_CHECK_NODES,
                "{}",
                found.nodes
            );
            assert!(
                found.depth > 6,
                "depth {} at 20,000 nodes: {pos:?}",
                found.depth
            );
            differ += usize::from(
                exact.score(&mut exact_searcher, pos, evaluator)
                    != selective.score(&mut selective_searcher, pos, evaluator),
            );
        }
        assert!(differ > 0);
    }

    /// With deep labels every sample's score is its quiet position's deeper search, not the
    /// game's recorded score; the rest of the sample (inputs, result, game) is unchanged, and
    /// the samples are the same on one thread and on four.
    #[test]
    fn samples_carry_the_deeper_search_score() {
        let material = WeightPair::material();
        let extra = ExtraPair::default();
        let evaluator = Evaluator::Extended(&material, &extra);
        let tables = PatternTables::zero(RegionLayout::Bands.regions());
        let games: Vec<RecordedGame> = (20..26).map(game_of).collect();
        let deep = labels(LabelSearch::Depth(4));
        let sampled = |threads: usize, with: Option<(DeepLabels, Evaluator<'_>)>| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| pattern_samples(&games, 4, &tables, 0, None, with, None))
        };
        let plain = sampled(2, None);
        let relabelled = sampled(1, Some((deep, evaluator)));
        assert_eq!(relabelled, sampled(4, Some((deep, evaluator))));
        let selective = labels(LabelSearch::Nodes(2_000));
        assert_eq!(
            sampled(1, Some((selective, evaluator))),
            sampled(4, Some((selective, evaluator)))
        );
        assert_eq!(plain.len(), relabelled.len());
        assert_eq!(plain.tables, relabelled.tables);
        let material_weights = WeightPair::material();
        let how = Extraction {
            first_ply: 4,
            weights: &material_weights,
            extra: None,
            patterns: None,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            endings: None,
        };
        let leaves: Vec<Position> = games
            .iter()
            .flat_map(|g| quiet_leaves(g, how).into_iter().map(|(leaf, _)| leaf))
            .collect();
        assert_eq!(leaves.len(), relabelled.len());
        let mut searcher = deep.searcher();
        let mut differ = 0;
        for ((p, d), leaf) in plain.samples.iter().zip(&relabelled.samples).zip(&leaves) {
            assert_eq!(
                (p.dense, p.label_halves, p.game),
                (d.dense, d.label_halves, d.game)
            );
            assert_ne!(d.score, NO_SCORE);
            assert_eq!(d.score, deep.score(&mut searcher, leaf, evaluator));
            differ += usize::from(p.score != d.score);
        }
        assert!(
            differ > 0,
            "the game's scores were all 0, the searches' are not"
        );
    }
}
