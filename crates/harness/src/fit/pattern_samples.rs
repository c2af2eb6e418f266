//! The samples of the pattern fit: each quiet position of a game as the loss reads it (its
//! dense inputs, its men and kings in each side's view, its label and search score) and its
//! table entries, one per region and side, kept apart so that a sample stays small.

use std::sync::Arc;

use rayon::prelude::*;

use checkers_engine::board::Position;
use checkers_engine::eval::{
    classic_counts, extended_inputs, kings_in_views, men_in_views, Evaluator, PatternTables,
    WeightPair, CLASSIC_COUNT, FEATURE_COUNT, TERM_COUNT,
};

use super::deep_labels::DeepLabels;
use super::endings::DatabaseEndings;
use super::positions::{batch_leaves, result_label, Extraction, GAME_BATCH};
use super::recorded_game::{RecordedGame, NO_SCORE};
use super::unique::UniquePositions;

/// The dense inputs of a sample: the ten features and the extended evaluator's terms.
pub(super) const DENSE: usize = FEATURE_COUNT + TERM_COUNT;

/// One quiet position, as the pattern fit sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternSample {
    /// The side to move's counts minus the opponent's: the ten features, then the extended
    /// evaluator's terms.
    pub dense: [i8; DENSE],
    /// The classic terms' inputs.
    pub classic: [i8; CLASSIC_COUNT],
    /// The men of the side to move (its view) and of the opponent (its view).
    pub men: [u32; 2],
    /// Their kings, likewise.
    pub kings: [u32; 2],
    /// Pieces on the board.
    pub pieces: u8,
    /// The game's result for the side to move in halves (a byte, not a float, so that a
    /// sample stays small at a hundred million): 2 won, 1 drawn, 0 lost; [`label`](Self::label)
    /// reads it.
    pub label_halves: u8,
    /// The search score of the position (before its captures) for the side to move, as the
    /// positions store keeps it; [`NO_SCORE`] when no search scored it.
    pub score: i16,
    /// The game it came from, in input order (for the validation split).
    pub game: u32,
}

impl PatternSample {
    /// The game's result for the side to move: 1 won, ½ drawn, 0 lost.
    #[inline(always)]
    pub fn label(&self) -> f64 {
        f64::from(self.label_halves) * 0.5
    }

    /// Writes the sample's table entries into `entries`: region `r`'s entry of the side to
    /// move at `2 r` and the opponent's at `2 r + 1`. They are computed from the men and kings
    /// each time rather than kept: at two bytes a region and side they would be most of a
    /// sample's memory, and computing them is a small part of what the fit does with them.
    #[inline(always)]
    pub fn write_entries(&self, tables: &PatternTables, entries: &mut [u16]) {
        // Each side's view is the other's turned round: the enemy of one is the other's own.
        let [us_own, them_own] = self.men;
        let [us_kings, them_kings] = self.kings;
        let (us_enemy, them_enemy) = (them_own.reverse_bits(), us_own.reverse_bits());
        let (us_enemy_kings, them_enemy_kings) =
            (them_kings.reverse_bits(), us_kings.reverse_bits());
        tables.for_each_index(us_own, us_enemy, |r, index| entries[2 * r] = index as u16);
        tables.for_each_index(them_own, them_enemy, |r, index| {
            entries[2 * r + 1] = index as u16
        });
        tables.for_each_king_index(us_kings, us_enemy_kings, |r, index| {
            entries[2 * r] = index as u16
        });
        tables.for_each_king_index(them_kings, them_enemy_kings, |r, index| {
            entries[2 * r + 1] = index as u16
        });
        // A rank region's index is below 2^16: it fits the entry's 16 bits.
        tables.for_each_rank_index(us_own, |r, index| entries[2 * r] = index as u16);
        tables.for_each_rank_index(them_own, |r, index| entries[2 * r + 1] = index as u16);
    }
}

/// Samples and the tables whose entries they read ([`PatternSample::write_entries`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternData {
    /// The samples.
    pub samples: Vec<PatternSample>,
    /// The regions of the fitted tables (shared by the parts a fit is built from).
    pub tables: Arc<PatternTables>,
}

impl PatternData {
    /// Empty data for the regions of `tables`.
    pub fn new(tables: &PatternTables) -> PatternData {
        PatternData::sharing(Arc::new(PatternTables::zero(tables.regions().to_vec())))
    }

    /// Empty data for the regions of `tables`, shared with other data.
    pub fn sharing(tables: Arc<PatternTables>) -> PatternData {
        PatternData {
            samples: Vec::new(),
            tables,
        }
    }

    /// Entries a sample has: two a region.
    pub fn entries_per_sample(&self) -> usize {
        2 * self.tables.regions().len()
    }

    /// Sample `i`'s table entries.
    pub fn entries_of(&self, i: usize) -> Vec<u16> {
        let mut entries = vec![0; self.entries_per_sample()];
        self.samples[i].write_entries(&self.tables, &mut entries);
        entries
    }

    /// Adds the sample of a quiet position with `label` and `score`, from game `game`.
    pub fn push(&mut self, pos: &Position, label: f32, score: i16, game: u32) {
        let inputs = extended_inputs(pos);
        let ((us_own, _), (them_own, _)) = men_in_views(pos);
        let ((us_kings, _), (them_kings, _)) = kings_in_views(pos);
        let classic = classic_counts(pos).map(|c| c as i8);
        self.samples.push(PatternSample {
            dense: std::array::from_fn(|i| inputs[i]),
            classic,
            men: [us_own, them_own],
            kings: [us_kings, them_kings],
            pieces: pos.piece_count() as u8,
            label_halves: halves(label),
            score,
            game,
        });
    }

    /// Appends `other`'s samples.
    pub fn append(&mut self, other: PatternData) {
        self.samples.extend(other.samples);
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// All the samples, borrowed.
    pub fn as_slice(&self) -> PatternSlice<'_> {
        self.slice_from(0)
    }

    /// The samples from number `first` on, borrowed.
    pub fn slice_from(&self, first: usize) -> PatternSlice<'_> {
        let first = first.min(self.samples.len());
        PatternSlice {
            samples: &self.samples[first..],
            tables: &self.tables,
        }
    }

    /// Drops the samples numbered `range` (those beyond the last are not there to drop).
    pub fn drop_range(&mut self, range: std::ops::Range<usize>) {
        let end = range.end.min(self.samples.len());
        let start = range.start.min(end);
        self.samples.drain(start..end);
    }

    /// The samples for which `keep` holds, and the others.
    pub fn split(self, keep: impl Fn(&PatternSample) -> bool) -> (PatternData, PatternData) {
        let (mut yes, mut no) = (
            PatternData::sharing(self.tables.clone()),
            PatternData::sharing(self.tables.clone()),
        );
        for s in &self.samples {
            let out = if keep(s) { &mut yes } else { &mut no };
            out.samples.push(*s);
        }
        (yes, no)
    }
}

/// Samples and their entries borrowed from a [`PatternData`] (all of them, or the latest).
#[derive(Clone, Copy, Debug)]
pub struct PatternSlice<'a> {
    pub(super) samples: &'a [PatternSample],
    pub(super) tables: &'a PatternTables,
}

impl<'a> PatternSlice<'a> {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Entries a sample has: two a region.
    pub fn entries_per_sample(&self) -> usize {
        2 * self.tables.regions().len()
    }

    /// Sample `i`, its entries written into `entries` (of [`entries_per_sample`](Self::entries_per_sample)).
    #[inline(always)]
    pub(super) fn get(&self, i: usize, entries: &mut [u16]) -> &'a PatternSample {
        let sample = &self.samples[i];
        sample.write_entries(self.tables, entries);
        sample
    }
}

/// The samples of `games` for the pattern fit, in game order then ply order, the games
/// numbered from `first_game`: each position from ply `first_ply` on, followed through its
/// captures by a capture search with `material` (so that the samples are a function of the
/// games alone, and a run extracts each game once), with its result and its search score;
/// then, with `endings`, the game's ending as the endgame database plays it on, each position
/// with its exact value. With `deep`, each of the game's own positions is scored by that
/// deeper search with that evaluator instead of by the game's search. With `unique`, a game's
/// position already in it (from an earlier game, of this call or an earlier one) is left out
/// and each new one added: every position once in the whole data set.
pub fn pattern_samples(
    games: &[RecordedGame],
    first_ply: u32,
    tables: &PatternTables,
    first_game: usize,
    endings: Option<DatabaseEndings>,
    deep: Option<(DeepLabels, Evaluator<'_>)>,
    mut unique: Option<&mut UniquePositions>,
) -> PatternData {
    let material = WeightPair::material();
    let how = Extraction::by_material(first_ply, &material);
    let mut data = PatternData::new(tables);
    for (b, batch) in games.chunks(GAME_BATCH).enumerate() {
        let leaves = batch_leaves(batch, how, unique.as_deref_mut());
        let parts: Vec<PatternData> = batch
            .par_iter()
            .zip(leaves)
            .enumerate()
            .map_init(
                // Each worker's own searcher for the deeper labels.
                || deep.map(|(labels, evaluator)| (labels, evaluator, labels.searcher())),
                |labeller, (j, (game, leaves))| {
                    let index = (first_game + b * GAME_BATCH + j) as u32;
                    let mut part = PatternData::sharing(data.tables.clone());
                    for (leaf, ply) in leaves {
                        let label = result_label(game.result, leaf.side_to_move());
                        let score = match labeller {
                            Some((labels, evaluator, searcher)) => {
                                labels.score(searcher, &leaf, *evaluator)
                            }
                            None => leaf_score(game, ply, &leaf),
                        };
                        part.push(&leaf, label, score, index);
                    }
                    for e in endings.iter().flat_map(|endings| endings.ending(game)) {
                        part.push(&e.position, e.label, e.score, index);
                    }
                    part
                },
            )
            .collect();
        for part in parts {
            data.append(part);
        }
    }
    data
}

/// A label of 0, ½ or 1 in halves: every label a game's result or the endgame database gives.
fn halves(label: f32) -> u8 {
    debug_assert!(matches!(label, 0.0 | 0.5 | 1.0), "label {label}");
    (label * 2.0) as u8
}

/// The search score of `game`'s position at `ply` for the side to move in its quiet `leaf` (the
/// position's own side, or the other after an odd number of captures).
fn leaf_score(game: &RecordedGame, ply: usize, leaf: &Position) -> i16 {
    let score = game.scores.get(ply).copied().unwrap_or(NO_SCORE);
    if score == NO_SCORE {
        return NO_SCORE;
    }
    // Every move is one ply: the side to move at `ply` is the start's when `ply` is even.
    let side = if ply.is_multiple_of(2) {
        game.start.side_to_move()
    } else {
        game.start.side_to_move().opponent()
    };
    if side == leaf.side_to_move() {
        score
    } else {
        -score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hundred million samples must fit the fit's memory goal (8 GB with their entries and
    /// the shuffle's order): the sample itself may take 40 bytes, no more.
    #[test]
    fn a_sample_stays_within_forty_bytes() {
        assert!(std::mem::size_of::<PatternSample>() <= 40);
    }

    #[test]
    fn labels_round_trip_through_halves() {
        for label in [0.0f32, 0.5, 1.0] {
            let sample = PatternSample {
                dense: [0; DENSE],
                classic: [0; CLASSIC_COUNT],
                men: [0; 2],
                kings: [0; 2],
                pieces: 0,
                label_halves: halves(label),
                score: NO_SCORE,
                game: 0,
            };
            assert_eq!(sample.label(), f64::from(label));
        }
    }
}
