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

use crate::egdb::EndgameDb;
use crate::engine::Position;
use crate::eval::Evaluator;
use crate::search::{SearchLimits, Searcher};

use super::records::stored_score;

/// Captures are followed this many plies past the full-width depth, as in the games
/// (`min_depth 6`, `max_depth 12`).
pub const DEEP_LABEL_EXTENSION: u32 = 6;

/// The deepest full-width depth a label search may take (a depth-20 search of every position
/// would take days).
pub const MAX_LABEL_DEPTH: u32 = 16;

/// The search that labels the positions: the exact search (plain minimax's value) at `depth`
/// full-width plies, captures followed [`DEEP_LABEL_EXTENSION`] plies further, with the fit's
/// start weights, and the endgame database when there is one.
#[derive(Clone, Copy)]
pub struct DeepLabels {
    /// Full-width depth of each position's search.
    pub depth: u32,
    /// Positions with at most its pieces are scored from it, exactly.
    pub database: Option<&'static EndgameDb>,
    /// Counts the positions searched, for a progress display (the labels do not depend on it).
    pub searched: Option<&'static AtomicU64>,
}

impl PartialEq for DeepLabels {
    fn eq(&self, other: &DeepLabels) -> bool {
        self.depth == other.depth
            && self.database.map(|d| d as *const EndgameDb)
                == other.database.map(|d| d as *const EndgameDb)
    }
}

impl fmt::Debug for DeepLabels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeepLabels")
            .field("depth", &self.depth)
            .field("database", &self.database.map(|d| d.pieces()))
            .finish()
    }
}

impl DeepLabels {
    /// The limits of each position's search.
    pub fn limits(&self) -> SearchLimits {
        SearchLimits::try_new(self.depth, self.depth + DEEP_LABEL_EXTENSION)
            .expect("a checked depth gives valid limits")
    }

    /// A searcher set up for the labels (its table is cleared before each position, see
    /// [`DeepLabels::score`]).
    pub fn searcher(&self) -> Searcher {
        // The games' table size: a label search visits thousands of nodes, not millions.
        let mut searcher = Searcher::default();
        searcher.set_endgame_db(self.database);
        searcher
    }

    /// The score of quiet `pos` for its side to move, as the positions store keeps scores:
    /// searched on its own (no game before it), the table cleared first, so that the label is
    /// a function of the position and the weights alone, whichever thread searched what before.
    pub fn score(&self, searcher: &mut Searcher, pos: &Position, evaluator: Evaluator<'_>) -> i16 {
        searcher.clear();
        let found = searcher.search(pos, evaluator, self.limits(), None);
        if let Some(count) = self.searched {
            count.fetch_add(1, Ordering::Relaxed);
        }
        stored_score(found.score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{ExtraPair, PatternTables, RegionLayout, WeightPair, DEFAULT_ENDGAME_PIECES};
    use crate::fit::pattern_samples::pattern_samples;
    use crate::fit::positions::{quiet_leaves, Extraction};
    use crate::fit::records::{RecordedGame, NO_SCORE};
    use crate::game::GameResult;

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

    fn labels(depth: u32) -> DeepLabels {
        DeepLabels {
            depth,
            database: None,
            searched: None,
        }
    }

    /// A label is the search of the position alone: the same score and the same nodes as a
    /// new searcher's, whatever the searcher searched before.
    #[test]
    fn a_label_does_not_depend_on_earlier_searches() {
        let material = WeightPair::material();
        let extra = ExtraPair::default();
        let evaluator = Evaluator::Extended(&material, &extra);
        let deep = labels(5);
        let game = game_of(30);
        let positions: Vec<Position> = game
            .moves
            .iter()
            .scan(game.start, |p, mv| {
                *p = p.play(mv);
                Some(*p)
            })
            .filter(|p| p.jumpers() == 0 && !p.is_lost())
            .collect();
        assert!(positions.len() > 10);
        let mut used = deep.searcher();
        for pos in &positions {
            let reused = deep.score(&mut used, pos, evaluator);
            let mut fresh = deep.searcher();
            let first = deep.score(&mut fresh, pos, evaluator);
            assert_eq!(reused, first, "{pos:?}");
            assert_eq!(
                reused,
                stored_score(
                    Searcher::default()
                        .search(pos, evaluator, deep.limits(), None)
                        .score
                )
            );
        }
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
        let deep = labels(4);
        let sampled = |threads: usize, with: Option<(DeepLabels, Evaluator<'_>)>| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| pattern_samples(&games, 4, &tables, 0, None, with))
        };
        let plain = sampled(2, None);
        let relabelled = sampled(1, Some((deep, evaluator)));
        assert_eq!(relabelled, sampled(4, Some((deep, evaluator))));
        assert_eq!(plain.len(), relabelled.len());
        assert_eq!(plain.entries, relabelled.entries);
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
            assert_eq!((p.dense, p.label, p.game), (d.dense, d.label, d.game));
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
