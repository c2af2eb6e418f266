//! The positions a fit learns from: each game's positions after its first plies, resolved to
//! the quiet position the search would evaluate, with the game's result for the side to move.
//!
//! A position whose side to move must capture is never evaluated by the search: captures are
//! compulsory, so it follows them to a quiet position (Texel tuning's quiescence). The fit does
//! the same with a capture-only minimax under the start weights, and learns from the leaf of
//! its principal variation. The leaf's inputs (the extended evaluator's, whose first ten are the
//! ten features) are kept, so that any weights' evaluation of it is one dot product per phase.

use std::collections::HashSet;
use std::sync::Arc;

use rayon::prelude::*;

use checkers_engine::board::{Color, Position};
use checkers_engine::error::Result;
use checkers_engine::eval::{extended_inputs, Evaluator, ExtraPair, PatternWeights, WeightPair};
use checkers_engine::game::GameResult;
use checkers_engine::game::Player;

use super::endings::DatabaseEndings;
use super::inputs::Games;
use super::recorded_game::RecordedGame;
use super::samples::{SampleList, Samples};
use super::unique::UniquePositions;

/// The longest capture sequence followed (plies); a longer one is left out of the data.
const MAX_CAPTURE_PLIES: u32 = 24;

/// How the positions are taken from the games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extraction<'a> {
    /// Plies of each game (from its start, the opening's included) whose positions are left
    /// out: the opening is the deck's, not the players'.
    pub first_ply: u32,
    /// The weights that choose among captures on the way to the quiet position.
    pub weights: &'a WeightPair,
    /// With `weights`, the extended evaluator's further weights (`None`: the ten features).
    pub extra: Option<&'a ExtraPair>,
    /// With `extra`, the pattern evaluator's further weights (`None`: the extended evaluator).
    pub patterns: Option<&'a Arc<PatternWeights>>,
    /// Pieces at which the ten features' endgame set takes over.
    pub endgame_pieces: u32,
    /// The endings played on by the endgame database after each game that stopped in it
    /// (`None`: none).
    pub endings: Option<DatabaseEndings>,
}

impl<'a> Extraction<'a> {
    /// Positions from `first_ply` on, their captures chosen by `material` (what the pattern
    /// fit does, so that its samples are a function of the games alone), no endings.
    pub(super) fn by_material(first_ply: u32, material: &'a WeightPair) -> Extraction<'a> {
        Extraction {
            first_ply,
            weights: material,
            extra: None,
            patterns: None,
            endgame_pieces: checkers_engine::eval::DEFAULT_ENDGAME_PIECES,
            endings: None,
        }
    }

    /// What the capture search evaluates `pos` with.
    fn evaluator(&self, pos: &Position) -> Evaluator<'_> {
        Player {
            weights: self.weights,
            extra: self.extra,
            patterns: self.patterns,
            endgame_pieces: self.endgame_pieces,
            limits: None,
            search: None,
        }
        .evaluator(pos)
    }
}

/// Games extracted at a time: their samples are gathered in order, so memory holds one
/// batch's games and per-game lists beside the samples (and a stream reads the next batch
/// meanwhile).
pub const GAME_BATCH: usize = 4096;

/// What an extraction found: games, and the games held out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Games read.
    pub games: usize,
    /// Of which held out for validation.
    pub validation_games: usize,
}

/// The samples of `games`, in game order then ply order, each game's in `validation` when
/// `held_out(game)` (its index in input order) says so, else in `training`; further inputs
/// kept as the stores keep them. A position that comes back in the same game counts once.
/// Games are resolved in parallel a batch at a time and gathered in order, so the result does
/// not depend on the thread count. With `unique`, a position already in it is left out and each
/// new one added (see [`pattern_samples`](super::pattern_samples)).
pub fn extract_split(
    games: Games<'_>,
    how: Extraction<'_>,
    held_out: impl Fn(usize) -> bool + Sync,
    training: &mut Samples,
    validation: &mut Samples,
    mut unique: Option<&mut UniquePositions>,
) -> Result<Split> {
    let with_extras = training.with_extras();
    let mut validation_games = 0;
    let games = games.for_each_batch(GAME_BATCH, |batch, first| {
        let leaves = batch_leaves(batch, how, unique.as_deref_mut());
        let lists: Vec<(bool, SampleList)> = batch
            .par_iter()
            .zip(leaves)
            .enumerate()
            .map(|(j, (game, leaves))| {
                let out = held_out(first + j);
                (out, game_samples(game, &leaves, how, with_extras))
            })
            .collect();
        for (out, list) in lists {
            if out {
                validation_games += 1;
                validation.append(&list);
            } else {
                training.append(&list);
            }
        }
    })?;
    Ok(Split {
        games,
        validation_games,
    })
}

/// The samples of `games` in one store, in game order then ply order (see [`extract_split`]).
#[cfg(test)]
pub(super) fn extract(games: &[RecordedGame], how: Extraction<'_>, with_extras: bool) -> Samples {
    let mut all = Samples::new(with_extras);
    let mut none = Samples::new(with_extras);
    extract_split(
        Games::Memory(games),
        how,
        |_| false,
        &mut all,
        &mut none,
        None,
    )
    .expect("games in memory are read without error");
    all
}

/// The samples of one game whose quiet positions are `leaves`.
fn game_samples(
    game: &RecordedGame,
    leaves: &[(Position, usize)],
    how: Extraction<'_>,
    with_extras: bool,
) -> SampleList {
    let mut list = SampleList::new(with_extras);
    for (leaf, _) in leaves {
        let label = result_label(game.result, leaf.side_to_move());
        list.push(
            &extended_inputs(leaf),
            leaf.piece_count() as u8,
            f64::from(label),
        );
    }
    for e in how.endings.iter().flat_map(|endings| endings.ending(game)) {
        list.push(
            &extended_inputs(&e.position),
            e.position.piece_count() as u8,
            f64::from(e.label),
        );
    }
    list
}

/// The quiet positions a fit learns from in one game, in ply order, each with the ply of the
/// game position it was resolved from: the positions from `how.first_ply` on, each followed
/// through its captures; a quiet position that comes back counts once.
pub(super) fn quiet_leaves(game: &RecordedGame, how: Extraction<'_>) -> Vec<(Position, usize)> {
    let mut seen = HashSet::new();
    let mut leaves = Vec::new();
    let mut pos = game.start;
    for ply in 0..=game.moves.len() {
        if ply as u32 >= how.first_ply {
            if let Some(leaf) = quiet_leaf(&pos, how, MAX_CAPTURE_PLIES) {
                if seen.insert(leaf.position) {
                    leaves.push((leaf.position, ply));
                }
            }
        }
        if let Some(mv) = game.moves.get(ply) {
            pos = pos.play(mv);
        }
    }
    leaves
}

/// The quiet positions a fit learns from in `game` from ply `first_ply` on, as
/// [`quiet_leaves`] resolves them with `material` (what the pattern fit does): what `datagen`
/// counts, so that its count of unique positions is the fit's.
pub fn quiet_positions(game: &RecordedGame, first_ply: u32) -> Vec<Position> {
    let material = WeightPair::material();
    quiet_leaves(game, Extraction::by_material(first_ply, &material))
        .into_iter()
        .map(|(leaf, _)| leaf)
        .collect()
}

/// The quiet positions of each game of `batch` ([`quiet_leaves`], in parallel); with `unique`,
/// those already in it left out and the others added, in input order, so that which game keeps
/// a position does not depend on the threads.
pub(super) fn batch_leaves(
    batch: &[RecordedGame],
    how: Extraction<'_>,
    unique: Option<&mut UniquePositions>,
) -> Vec<Vec<(Position, usize)>> {
    let mut leaves: Vec<Vec<(Position, usize)>> = batch
        .par_iter()
        .map(|game| quiet_leaves(game, how))
        .collect();
    if let Some(seen) = unique {
        for list in &mut leaves {
            list.retain(|(leaf, _)| seen.insert(leaf));
        }
    }
    leaves
}

/// The label of a position whose side to move is `us`, in a game that ended in `result`: 1
/// won, ½ drawn, 0 lost.
pub(super) fn result_label(result: GameResult, us: Color) -> f32 {
    match (result, us) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::BlackWin, Color::Black) | (GameResult::WhiteWin, Color::White) => 1.0,
        _ => 0.0,
    }
}

/// A quiet position reached by the capture search, and its value for the side to move at the
/// root.
struct Leaf {
    position: Position,
    value: i32,
}

/// The quiet position at the end of the capture sequence that a capture-only minimax prefers
/// (the first of equal moves in generation order, as the search orders them), or `None` when
/// the sequence ends in a lost position or runs longer than `plies`: such positions teach the
/// weights nothing.
fn quiet_leaf(pos: &Position, how: Extraction<'_>, plies: u32) -> Option<Leaf> {
    if pos.jumpers() == 0 {
        let value = how.evaluator(pos).evaluate_quiet(pos)?;
        return Some(Leaf {
            position: *pos,
            value,
        });
    }
    if plies == 0 {
        return None;
    }
    let mut best: Option<Leaf> = None;
    for mv in pos.legal_moves().iter() {
        let child = pos.play(mv);
        let Some(leaf) = quiet_leaf(&child, how, plies - 1) else {
            continue;
        };
        let value = -leaf.value;
        if best.as_ref().is_none_or(|b| value > b.value) {
            best = Some(Leaf {
                position: leaf.position,
                value,
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str, moves: &[&str], result: GameResult) -> RecordedGame {
        RecordedGame::parsed(fen, moves, &[], result)
    }

    fn how(weights: &WeightPair) -> Extraction<'_> {
        Extraction {
            first_ply: 0,
            weights,
            extra: None,
            patterns: None,
            endgame_pieces: 12,
            endings: None,
        }
    }

    /// A position with a capture is learnt as the quiet position after the capture, from the
    /// view of the side to move there.
    #[test]
    fn a_capture_is_followed_to_the_quiet_position() {
        // Black to move must take 18 with 14x23; White then has no capture: White to move.
        let material = WeightPair::material();
        let g = game("B:W18,31:B14,1", &[], GameResult::BlackWin);
        let samples = extract(&[g], how(&material), true);
        assert_eq!(samples.len(), 1);
        let s = samples.iter().next().unwrap();
        // White (to move) has one man (31) against Black's two: pawns difference −1, lost.
        assert_eq!(s.ten[0], -1);
        assert_eq!(s.label(), 0.0);
        assert_eq!(s.pieces, 3);
    }

    /// Of two captures the minimax takes the one that leaves the better quiet position, not
    /// the first generated.
    #[test]
    fn the_capture_search_prefers_the_better_sequence() {
        // Black's man 14 can take 17 (14x21, generated first) or 18 and 26 (14x23x30, crowning).
        let material = WeightPair::material();
        let g = game("B:W17,18,26:B14,3", &[], GameResult::Draw);
        let samples = extract(&[g], how(&material), false);
        assert_eq!(samples.len(), 1);
        let s = samples.iter().next().unwrap();
        // White to move after 14x23x30: one man each, and Black has the new king.
        assert_eq!(s.ten[0], 0);
        assert_eq!(s.ten[1], -1);
        assert_eq!(s.pieces, 3);
        assert_eq!(s.label(), 0.5);
    }

    /// The first plies are skipped, positions repeated within a game count once, and the
    /// labels follow the side to move.
    #[test]
    fn first_plies_repeats_and_labels() {
        let material = WeightPair::material();
        // Kings shuffle: the position after four plies is the start position again.
        let g = game(
            "B:WK32:BK1",
            &["1-5", "32-27", "5-1", "27-32", "1-5"],
            GameResult::WhiteWin,
        );
        let all = extract(std::slice::from_ref(&g), how(&material), false);
        // Positions at plies 0..=5: plies 4 and 5 repeat plies 0 and 1.
        assert_eq!(all.len(), 4);
        let labels: Vec<f64> = all.iter().map(|s| s.label()).collect();
        assert_eq!(labels, [0.0, 1.0, 0.0, 1.0]);
        let late = extract(
            &[g],
            Extraction {
                first_ply: 3,
                ..how(&material)
            },
            false,
        );
        assert_eq!(late.len(), 3);
    }

    /// A game ending with the side to move blocked gives no sample for that last position.
    #[test]
    fn a_lost_position_is_left_out() {
        let material = WeightPair::material();
        // White's man on 32 is blocked by Black's men on 27 and 28, which it cannot jump (23
        // is taken and 24 is off its diagonal): White to move has no move at all.
        let g = game("W:W32:B27,28,23", &[], GameResult::BlackWin);
        assert!(extract(&[g], how(&material), false).is_empty());
    }

    /// Games streamed from a file give the samples of the same games held in memory, split
    /// the same way, across the end of a batch.
    #[test]
    fn streamed_games_give_the_samples_of_games_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        let text = crate::fit::inputs::tests::short_games(GAME_BATCH + 3);
        std::fs::write(&path, text).unwrap();
        let inputs = [path];
        let held = crate::fit::GameRecords::read(&inputs, crate::fit::Damaged::Refuse).unwrap();
        let material = WeightPair::material();
        let split = |games: Games<'_>| {
            let (mut training, mut validation) = (Samples::new(true), Samples::new(true));
            let held_out = |g: usize| g % 5 == 2 || g == GAME_BATCH + 1;
            let split = extract_split(
                games,
                how(&material),
                held_out,
                &mut training,
                &mut validation,
                None,
            )
            .unwrap();
            let inputs = |s: &Samples| -> Vec<_> {
                s.iter()
                    .map(|s| (s.inputs(), s.pieces, s.label()))
                    .collect()
            };
            (split, inputs(&training), inputs(&validation))
        };
        let mut stream =
            crate::fit::GameStream::open(&inputs, crate::fit::Damaged::Refuse).unwrap();
        let streamed = split(Games::Stream(&mut stream));
        assert_eq!(streamed, split(Games::Memory(&held.games)));
        assert_eq!(streamed.0.games, GAME_BATCH + 3);
        assert_eq!(streamed.2.len(), 3 * streamed.0.validation_games);
    }

    /// Held-out games' samples go to validation and the others' to training, each side in
    /// game order, as the whole extraction orders them; batches change nothing.
    #[test]
    fn the_split_is_by_game_and_keeps_the_order() {
        let material = WeightPair::material();
        let shuffle = ["1-5", "32-27", "5-1", "27-32"];
        let games: Vec<RecordedGame> = (0..GAME_BATCH + 5)
            .map(|i| {
                let fen = if i % 3 == 0 {
                    "B:WK32:BK1"
                } else {
                    "B:WK32,K31:BK1"
                };
                let result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw][i % 3];
                game(fen, &shuffle[..i % 5], result)
            })
            .collect();
        let all = extract(&games, how(&material), true);
        let held = |g: usize| g % 4 == 1;
        let (mut training, mut validation) = (Samples::new(true), Samples::new(true));
        let split = extract_split(
            Games::Memory(&games),
            how(&material),
            held,
            &mut training,
            &mut validation,
            None,
        )
        .unwrap();
        assert_eq!(split.games, games.len());
        assert_eq!(
            split.validation_games,
            (0..games.len()).filter(|&g| held(g)).count()
        );
        // Each game's samples, from the extraction of it alone.
        let per_game: Vec<Vec<[i8; checkers_engine::eval::EXTENDED_INPUTS]>> = games
            .iter()
            .map(|g| {
                extract(std::slice::from_ref(g), how(&material), true)
                    .iter()
                    .map(|s| s.inputs())
                    .collect()
            })
            .collect();
        let side = |out: bool| -> Vec<_> {
            (0..games.len())
                .filter(|&g| held(g) == out)
                .flat_map(|g| per_game[g].clone())
                .collect()
        };
        assert!(validation.iter().map(|s| s.inputs()).eq(side(true)));
        assert!(training.iter().map(|s| s.inputs()).eq(side(false)));
        assert_eq!(all.len(), training.len() + validation.len());
        assert!(all.iter().map(|s| s.inputs()).eq(per_game.concat()));
    }
}
