//! The samples of the pattern fit: each quiet position of a game as the loss reads it (its
//! dense inputs, its men and kings in each side's view, its label and search score) and its
//! table entries, one per region and side, kept apart so that a sample stays small.

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
    /// The game's result for the side to move: 1 won, ½ drawn, 0 lost.
    pub label: f32,
    /// The search score of the position (before its captures) for the side to move, as the
    /// positions store keeps it; [`NO_SCORE`] when no search scored it.
    pub score: i16,
    /// The game it came from, in input order (for the validation split).
    pub game: u32,
}

/// Samples and their table entries: for sample `i`, region `r`'s entry of the side to move at
/// `entries[2 R i + 2 r]` and the opponent's at `entries[2 R i + 2 r + 1]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatternData {
    /// The samples.
    pub samples: Vec<PatternSample>,
    /// Their entries (within each region's table).
    pub entries: Vec<u16>,
    /// Regions per sample.
    pub regions: usize,
}

impl PatternData {
    /// Empty data for `regions` regions.
    pub fn new(regions: usize) -> PatternData {
        PatternData {
            samples: Vec::new(),
            entries: Vec::new(),
            regions,
        }
    }

    /// Adds the sample of a quiet position with `label` and `score`, from game `game`.
    pub fn push(
        &mut self,
        pos: &Position,
        tables: &PatternTables,
        label: f32,
        score: i16,
        game: u32,
    ) {
        let inputs = extended_inputs(pos);
        let ((us_own, us_enemy), (them_own, them_enemy)) = men_in_views(pos);
        let ((us_kings, us_enemy_kings), (them_kings, them_enemy_kings)) = kings_in_views(pos);
        let classic = classic_counts(pos).map(|c| c as i8);
        self.samples.push(PatternSample {
            dense: std::array::from_fn(|i| inputs[i]),
            classic,
            men: [us_own, them_own],
            kings: [us_kings, them_kings],
            pieces: pos.piece_count() as u8,
            label,
            score,
            game,
        });
        let first = self.entries.len();
        self.entries.resize(first + 2 * self.regions, 0);
        let entries = &mut self.entries[first..];
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

    /// Appends `other`'s samples.
    pub fn append(&mut self, other: PatternData) {
        self.samples.extend(other.samples);
        self.entries.extend(other.entries);
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
            entries: &self.entries[2 * self.regions * first..],
            regions: self.regions,
        }
    }

    /// Drops the samples numbered `range` (those beyond the last are not there to drop).
    pub fn drop_range(&mut self, range: std::ops::Range<usize>) {
        let end = range.end.min(self.samples.len());
        let start = range.start.min(end);
        self.samples.drain(start..end);
        self.entries
            .drain(2 * self.regions * start..2 * self.regions * end);
    }

    /// The samples for which `keep` holds, and the others.
    pub fn split(self, keep: impl Fn(&PatternSample) -> bool) -> (PatternData, PatternData) {
        let stride = 2 * self.regions;
        let (mut yes, mut no) = (
            PatternData::new(self.regions),
            PatternData::new(self.regions),
        );
        for (i, s) in self.samples.iter().enumerate() {
            let out = if keep(s) { &mut yes } else { &mut no };
            out.samples.push(*s);
            out.entries
                .extend_from_slice(&self.entries[stride * i..stride * (i + 1)]);
        }
        (yes, no)
    }
}

/// Samples and their entries borrowed from a [`PatternData`] (all of them, or the latest).
#[derive(Clone, Copy, Debug)]
pub struct PatternSlice<'a> {
    pub(super) samples: &'a [PatternSample],
    pub(super) entries: &'a [u16],
    pub(super) regions: usize,
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

    /// Sample `i` and its entries.
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> (&'a PatternSample, &'a [u16]) {
        let stride = 2 * self.regions;
        (
            &self.samples[i],
            &self.entries[stride * i..stride * (i + 1)],
        )
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
    let regions = tables.regions().len();
    let mut data = PatternData::new(regions);
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
                    let mut part = PatternData::new(regions);
                    for (leaf, ply) in leaves {
                        let label = result_label(game.result, leaf.side_to_move());
                        let score = match labeller {
                            Some((labels, evaluator, searcher)) => {
                                labels.score(searcher, &leaf, *evaluator)
                            }
                            None => leaf_score(game, ply, &leaf),
                        };
                        part.push(&leaf, tables, label, score, index);
                    }
                    for e in endings.iter().flat_map(|endings| endings.ending(game)) {
                        part.push(&e.position, tables, e.label, e.score, index);
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
